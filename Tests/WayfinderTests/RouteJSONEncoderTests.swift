import XCTest
import Wayfinder

final class RouteJSONEncoderTests: XCTestCase {
    private func encoded(_ result: RouteResult = Fixtures.result(), pretty: Bool = false, coordinates: Bool = false) throws -> [String: Any] {
        let text = RouteJSONEncoder(prettyPrinted: pretty, includeCoordinates: coordinates).encode(result)
        return try XCTUnwrap(try parseJSON(text) as? [String: Any])
    }

    func testEveryDocumentedFieldIsPresentWithItsType() throws {
        let fields = try XCTUnwrap(DocumentedSchema.load().sections["Route JSON"])
        XCTAssertGreaterThan(fields.count, 50)
        // A field is optional when it, or a field it lies inside, is documented as optional.
        let optionalRoots = fields.filter(\.optional).map(\.path)
        func isOptional(_ path: String) -> Bool { optionalRoots.contains { path == $0 || path.hasPrefix($0 + "[]") || path.hasPrefix($0 + ".") } }
        for withCoordinates in [false, true] {
            let document = try encoded(Fixtures.result(alternatives: 1), coordinates: withCoordinates)
            for field in fields {
                let values = DocumentedSchema.values(at: field.path, in: document)
                if isOptional(field.path) && !withCoordinates {
                    XCTAssertNil(values, "\(field.path) should only be written on request")
                    continue
                }
                guard let values else { XCTFail("documented field \(field.path) missing"); continue }
                XCTAssertFalse(values.isEmpty, field.path)
                for value in values {
                    XCTAssertTrue(DocumentedSchema.matches(value, type: field.type), "\(field.path): \(value) is not \(field.type)")
                }
            }
            // And nothing undocumented.
            let documented = Set(fields.map(\.path))
            for path in DocumentedSchema.paths(in: document) {
                XCTAssertTrue(documented.contains(path), "\(path) is written but not documented")
            }
        }
    }

    func testETAMatchesItsDocumentedFields() throws {
        let fields = try XCTUnwrap(DocumentedSchema.load().sections["ETA JSON"])
        let document = try XCTUnwrap(try parseJSON(RouteJSONEncoder().encodeETA(Fixtures.result().eta)) as? [String: Any])
        XCTAssertEqual(Set(document.keys), Set(fields.map(\.path)))
        for field in fields {
            XCTAssertTrue(DocumentedSchema.matches(document[field.path]!, type: field.type), field.path)
        }
        XCTAssertEqual(RouteJSONEncoder().encodeETA(Fixtures.result().eta),
                       #"{"distance":12345.7,"expectedArrivalDate":"2026-12-01T08:44:10-05:00","#
                       + #""expectedDepartureDate":"2026-12-01T08:30:00-05:00","expectedTravelTime":850}"#)
    }

    func testValuesAreRoundedAndDated() throws {
        let document = try encoded(Fixtures.result(alternatives: 1))
        XCTAssertEqual(document["mode"] as? String, "car")
        XCTAssertEqual(document["timeZone"] as? String, Fixtures.newYork.identifier)
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2026-12-01T08:30:00-05:00")
        XCTAssertEqual(document["expectedArrivalDate"] as? String, "2026-12-01T08:44:10-05:00")
        let waypoints = try XCTUnwrap(document["waypoints"] as? [[String: Any]])
        XCTAssertEqual(waypoints.count, 3)
        XCTAssertEqual(waypoints[0]["snappingDistance"] as? Double, 2.0)
        XCTAssertEqual(waypoints[1]["snappingDistance"] as? Double, 11.1)
        XCTAssertEqual(waypoints[2]["name"] as? String, Fixtures.trickyName)
        let location = try XCTUnwrap(waypoints[0]["location"] as? [String: Any])
        XCTAssertEqual(location["latitude"] as? Double, 40.00001)
        XCTAssertEqual(location["longitude"] as? Double, -75.00002)

        let routes = try XCTUnwrap(document["routes"] as? [[String: Any]])
        XCTAssertEqual(routes.count, 2)
        XCTAssertEqual(routes[0]["distance"] as? Double, 12345.7)
        XCTAssertEqual(routes[0]["expectedTravelTime"] as? Double, 850)
        XCTAssertEqual(routes[0]["expectedArrivalDate"] as? String, "2026-12-01T08:44:10-05:00")
        // An alternative leaves at the same time and arrives after its own travel time (60 s more).
        XCTAssertEqual(routes[1]["expectedDepartureDate"] as? String, "2026-12-01T08:30:00-05:00")
        XCTAssertEqual(routes[1]["expectedArrivalDate"] as? String, "2026-12-01T08:45:10-05:00")
        let box = try XCTUnwrap(routes[0]["boundingBox"] as? [String: Any])
        XCTAssertEqual(box["minLongitude"] as? Double, -75.00002)
        XCTAssertEqual(box["maxLatitude"] as? Double, 40.02)

        let legs = try XCTUnwrap(routes[0]["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.map { $0["distance"] as? Double }, [5000.4, 7345.3])
        XCTAssertEqual(legs.map { $0["expectedTravelTime"] as? Double }, [370, 480])
        let steps = try XCTUnwrap(legs[1]["steps"] as? [[String: Any]])
        let roundabout = try XCTUnwrap(steps[1]["maneuver"] as? [String: Any])
        XCTAssertEqual(roundabout["type"] as? String, "roundabout")
        XCTAssertEqual(roundabout["modifier"] as? String, "slight left")
        XCTAssertEqual(roundabout["exit"] as? Int, 2)
        XCTAssertEqual(roundabout["bearingAfter"] as? Int, 270)
        let depart = try XCTUnwrap((legs[0]["steps"] as? [[String: Any]])?.first?["maneuver"] as? [String: Any])
        XCTAssertTrue(depart["modifier"] is NSNull)
        XCTAssertTrue(depart["exit"] is NSNull)
        XCTAssertEqual((legs[0]["steps"] as? [[String: Any]])?[1]["ref"] as? String, "PA 3")
        XCTAssertEqual(steps[1]["distance"] as? Double, 6233.3)
    }

    func testPolylinesArePrecisionSixOfTheGeometry() throws {
        let result = Fixtures.result()
        let document = try encoded(result, coordinates: true)
        let route = try XCTUnwrap((document["routes"] as? [[String: Any]])?.first)
        let decoded = try PolylineEncoder.decode(try XCTUnwrap(route["polyline"] as? String), precision: RouteJSONEncoder.polylinePrecision)
        XCTAssertEqual(RouteJSONEncoder.polylinePrecision, 6)
        XCTAssertEqual(decoded.count, result.routes[0].polyline.count)
        for (a, b) in zip(decoded, result.routes[0].polyline) {
            XCTAssertEqual(a.latitude, b.latitude, accuracy: 1e-6)
            XCTAssertEqual(a.longitude, b.longitude, accuracy: 1e-6)
        }
        let coordinates = try XCTUnwrap(route["coordinates"] as? [[String: Double]])
        XCTAssertEqual(coordinates.map { $0["longitude"]! }, result.routes[0].polyline.map(\.longitude))
        let leg = try XCTUnwrap((route["legs"] as? [[String: Any]])?.last)
        XCTAssertEqual(try PolylineEncoder.decode(leg["polyline"] as! String, precision: 6).count, 4)
        let arrive = try XCTUnwrap((leg["steps"] as? [[String: Any]])?.last)
        XCTAssertEqual(try PolylineEncoder.decode(arrive["polyline"] as! String, precision: 6).count, 1)
    }

    func testDeterministicSortedAndPrettyPrinted() throws {
        let result = Fixtures.result(alternatives: 2)
        let compact = RouteJSONEncoder().encode(result)
        XCTAssertEqual(compact, RouteJSONEncoder().encode(result))
        XCTAssertFalse(compact.contains("\n"))
        XCTAssertTrue(compact.hasPrefix(#"{"expectedArrivalDate":"#), "keys are sorted")
        let pretty = RouteJSONEncoder(prettyPrinted: true).encode(result)
        XCTAssertEqual(pretty, RouteJSONEncoder(prettyPrinted: true).encode(result))
        XCTAssertTrue(pretty.contains("\n  \"mode\": \"car\",\n"))
        let a = try parseJSON(compact) as! NSDictionary, b = try parseJSON(pretty) as! NSDictionary
        XCTAssertEqual(a, b)
    }

    func testStringsAreEscaped() throws {
        var result = Fixtures.result()
        let nasty = "quote \" backslash \\ newline \n tab \t bell \u{07} line sep \u{2028} é 東京 🚲"
        result.waypoints[0].name = nasty
        result.routes[0].name = nasty
        let text = RouteJSONEncoder().encode(result)
        XCTAssertTrue(text.contains(#"\u0007"#))
        XCTAssertTrue(text.contains(#"\u2028"#))
        let document = try XCTUnwrap(try parseJSON(text) as? [String: Any])
        XCTAssertEqual((document["waypoints"] as? [[String: Any]])?[0]["name"] as? String, nasty)
        XCTAssertEqual((document["routes"] as? [[String: Any]])?[0]["name"] as? String, nasty)
    }

    func testNumbersArePlainAndNonFiniteIsNull() throws {
        var result = Fixtures.result()
        result.waypoints[0].snappingDistance = .nan
        result.waypoints[1].location = Coordinate(latitude: 0.0000001, longitude: -0.00000004)
        result.routes[0].distance = 1e9 + 0.04
        let text = RouteJSONEncoder().encode(result)
        XCTAssertFalse(text.contains("e-"), "no exponents")
        XCTAssertFalse(text.contains("-0,") || text.contains("-0}"), "no negative zero")
        XCTAssertTrue(text.contains(#""latitude":0.0000001"#))
        XCTAssertTrue(text.contains(#""distance":1000000000,"#))
        let document = try XCTUnwrap(try parseJSON(text) as? [String: Any])
        XCTAssertTrue((document["waypoints"] as? [[String: Any]])?[0]["snappingDistance"] is NSNull)
    }

    func testDatesFollowTheZoneAndDaylightSaving() throws {
        var result = Fixtures.result()
        // 2026-07-01T12:00:00Z: daylight-saving time in New York (-04:00).
        result.expectedDepartureDate = Date(timeIntervalSince1970: 1_782_907_200)
        result.expectedArrivalDate = result.expectedDepartureDate.addingTimeInterval(850.4)
        var document = try encoded(result)
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2026-07-01T08:00:00-04:00")
        XCTAssertEqual(document["expectedArrivalDate"] as? String, "2026-07-01T08:14:10-04:00")
        result.timeZone = TimeZone(secondsFromGMT: 0)!
        result.expectedArrivalDate = result.expectedDepartureDate.addingTimeInterval(43_200.6)
        document = try encoded(result)
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2026-07-01T12:00:00+00:00")
        XCTAssertEqual(document["expectedArrivalDate"] as? String, "2026-07-02T00:00:01+00:00")
        result.timeZone = TimeZone(secondsFromGMT: 5 * 3600 + 45 * 60)!  // Nepal
        document = try encoded(result)
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2026-07-01T17:45:00+05:45")
        // Before 1970 and on a leap day.
        result.expectedDepartureDate = Date(timeIntervalSince1970: -2_208_988_800 + 59 * 86_400) // 1900-03-01T00:00:00Z
        result.timeZone = TimeZone(secondsFromGMT: -3600)!
        document = try encoded(result)
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "1900-02-28T23:00:00-01:00")
        result.expectedDepartureDate = Date(timeIntervalSince1970: 951_782_400) // 2000-02-29T00:00:00Z
        result.timeZone = TimeZone(secondsFromGMT: 0)!
        document = try encoded(result)
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2000-02-29T00:00:00+00:00")
    }

    func testAlternativesOfAnArriveByRequestArriveTogether() throws {
        var result = Fixtures.result(alternatives: 1)
        result.anchoredAtArrival = true
        let routes = try XCTUnwrap(try encoded(result)["routes"] as? [[String: Any]])
        XCTAssertEqual(routes[1]["expectedDepartureDate"] as? String, "2026-12-01T08:29:00-05:00")
        XCTAssertEqual(routes[1]["expectedArrivalDate"] as? String, "2026-12-01T08:44:10-05:00")
        XCTAssertEqual(routes[0]["expectedDepartureDate"] as? String, "2026-12-01T08:30:00-05:00")
    }

    func testStraightLinesViewHasNoSteps() throws {
        let document = try encoded(Fixtures.result(straightLines: true))
        XCTAssertEqual(document["straightLines"] as? Bool, true)
        let legs = try XCTUnwrap((document["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.count, 2)
        XCTAssertTrue(legs.allSatisfy { ($0["steps"] as? [Any])?.isEmpty == true })
    }

    func testEmptyResult() throws {
        let result = RouteResult(routes: [], waypoints: [], mode: "foot", expectedDepartureDate: Fixtures.departure,
                                 expectedArrivalDate: Fixtures.departure, timeZone: Fixtures.newYork)
        let document = try encoded(result)
        XCTAssertEqual((document["routes"] as? [Any])?.count, 0)
        XCTAssertEqual(result.eta.distance, 0)
        XCTAssertEqual(result.eta.expectedTravelTime, 0)
    }
}
