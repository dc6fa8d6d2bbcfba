import XCTest
import Graph
import Server
import Wayfinder
import Routing

/// The API's answers on Monaco, asked in process: OSRM's shapes, agreement with the router, errors and limits.
final class ServiceTests: XCTestCase {
    typealias F = ServerFixture

    func testRouteHasOSRMShapeAndTheRoutersFigures() throws {
        let (graph, service) = try F.monaco()
        let answer = try ask(service, "/route/v1/driving/\(F.casino);\(F.port);\(F.fontvieille)?steps=true&overview=full")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.code, "Ok")
        let route = try XCTUnwrap((answer["routes"] as? [[String: Any]])?.first)
        let expected = try Router(graph: graph, profile: "car").routes(through: [
            Coordinate(latitude: 43.7395, longitude: 7.4270), Coordinate(latitude: 43.7312, longitude: 7.4197),
            Coordinate(latitude: 43.7275, longitude: 7.4150)]).routes[0]
        XCTAssertEqual(try XCTUnwrap(route["duration"] as? Double), expected.expectedTravelTime, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(route["distance"] as? Double), expected.distance, accuracy: 0.05)
        let legs = try XCTUnwrap(route["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.count, 2)
        let steps = try XCTUnwrap(legs[0]["steps"] as? [[String: Any]])
        XCTAssertEqual((steps.first?["maneuver"] as? [String: Any])?["type"] as? String, "depart")
        XCTAssertEqual((steps.last?["maneuver"] as? [String: Any])?["type"] as? String, "arrive")
        XCTAssertEqual(steps.first?["mode"] as? String, "driving")
        let line = try PolylineEncoder.decode(try XCTUnwrap(route["geometry"] as? String), precision: 5)
        XCTAssertEqual(line.count, expected.polyline.count)
        let waypoints = try XCTUnwrap(answer["waypoints"] as? [[String: Any]])
        XCTAssertEqual(waypoints.count, 3)
        XCTAssertEqual((waypoints[0]["location"] as? [Double])?.count, 2)
    }

    func testGeometryFormatsOverviewAndAnnotations() throws {
        let (_, service) = try F.monaco()
        let base = "/route/v1/walking/\(F.casino);\(F.larvotto)"
        let full = try XCTUnwrap((try ask(service, base + "?overview=full&geometries=geojson")["routes"] as? [[String: Any]])?.first)
        let coordinates = try XCTUnwrap((full["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        let six = try XCTUnwrap((try ask(service, base + "?overview=full&geometries=polyline6")["routes"] as? [[String: Any]])?.first)
        let decoded = try PolylineEncoder.decode(try XCTUnwrap(six["geometry"] as? String), precision: 6)
        XCTAssertEqual(decoded.count, coordinates.count)
        XCTAssertEqual(decoded[0].longitude, coordinates[0][0], accuracy: 1e-6)
        let simplified = try XCTUnwrap((try ask(service, base + "?geometries=geojson")["routes"] as? [[String: Any]])?.first)
        let fewer = try XCTUnwrap((simplified["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        XCTAssertLessThan(fewer.count, coordinates.count)
        XCTAssertEqual(fewer.first!, coordinates.first!)
        XCTAssertEqual(fewer.last!, coordinates.last!)
        let none = try XCTUnwrap((try ask(service, base + "?overview=false")["routes"] as? [[String: Any]])?.first)
        XCTAssertNil(none["geometry"])

        let annotated = try XCTUnwrap((try ask(service, base + "?overview=full&annotations=true&geometries=geojson")["routes"] as? [[String: Any]])?.first)
        let leg = try XCTUnwrap((annotated["legs"] as? [[String: Any]])?.first)
        let annotation = try XCTUnwrap(leg["annotation"] as? [String: Any])
        let durations = try XCTUnwrap(annotation["duration"] as? [Double]), distances = try XCTUnwrap(annotation["distance"] as? [Double])
        XCTAssertEqual(distances.count, coordinates.count - 1)
        XCTAssertEqual(durations.count, distances.count)
        XCTAssertEqual(distances.reduce(0, +), try XCTUnwrap(leg["distance"] as? Double), accuracy: 0.05 * Double(distances.count) + 1)
        XCTAssertEqual(durations.reduce(0, +), try XCTUnwrap(leg["duration"] as? Double), accuracy: 0.05 * Double(durations.count) + 1)
        XCTAssertNotNil(annotation["speed"])
        XCTAssertEqual(try ask(service, base + "?annotations=nodes").code, "InvalidOptions")
    }

    func testAlternativesAndSkipWaypoints() throws {
        let (_, service) = try F.monaco()
        let answer = try ask(service, "/route/v1/driving/\(F.casino);\(F.fontvieille)?alternatives=3&skip_waypoints=true")
        XCTAssertEqual(answer.code, "Ok")
        XCTAssertGreaterThanOrEqual((answer["routes"] as? [Any])?.count ?? 0, 1)
        XCTAssertNil(answer["waypoints"])
        XCTAssertEqual(try ask(service, "/route/v1/driving/\(F.casino);\(F.fontvieille)?alternatives=9").code, "TooBig")
    }

    func testTableAgreesWithRoutesPairByPair() throws {
        let (_, service) = try F.monaco()
        let stops = [F.casino, F.port, F.fontvieille, F.larvotto]
        let answer = try ask(service, "/table/v1/car/\(stops.joined(separator: ";"))?sources=0;2&annotations=duration,distance")
        XCTAssertEqual(answer.code, "Ok")
        let durations = try XCTUnwrap(answer["durations"] as? [[Double]]), distances = try XCTUnwrap(answer["distances"] as? [[Double]])
        XCTAssertEqual(durations.count, 2)
        XCTAssertEqual(durations[0].count, 4)
        XCTAssertEqual((answer["sources"] as? [Any])?.count, 2)
        XCTAssertEqual((answer["destinations"] as? [Any])?.count, 4)
        for (row, source) in [0, 2].enumerated() {
            for target in 0..<4 where target != source {
                let route = try ask(service, "/route/v1/car/\(stops[source]);\(stops[target])?overview=false")
                let r = try XCTUnwrap((route["routes"] as? [[String: Any]])?.first)
                XCTAssertEqual(durations[row][target], r["duration"] as? Double, "\(source)→\(target)")
                XCTAssertEqual(distances[row][target], r["distance"] as? Double, "\(source)→\(target)")
            }
            XCTAssertEqual(durations[row][source], 0)
        }
        let onlyDurations = try ask(service, "/table/v1/car/\(F.casino);\(F.port)")
        XCTAssertNotNil(onlyDurations["durations"])
        XCTAssertNil(onlyDurations["distances"])
    }

    func testTripVisitsEveryStopOnce() throws {
        let (_, service) = try F.monaco()
        let stops = [F.casino, F.larvotto, F.fontvieille, F.port]
        let round = try ask(service, "/trip/v1/driving/\(stops.joined(separator: ";"))?steps=true")
        XCTAssertEqual(round.code, "Ok")
        let waypoints = try XCTUnwrap(round["waypoints"] as? [[String: Any]])
        XCTAssertEqual(waypoints.compactMap { $0["waypoint_index"] as? Int }.sorted(), [0, 1, 2, 3])
        XCTAssertEqual(waypoints[0]["waypoint_index"] as? Int, 0)
        XCTAssertTrue(waypoints.allSatisfy { $0["trips_index"] as? Int == 0 })
        let trip = try XCTUnwrap((round["trips"] as? [[String: Any]])?.first)
        XCTAssertEqual((trip["legs"] as? [Any])?.count, 4)   // back to the start

        let oneWay = try ask(service, "/trip/v1/driving/\(stops.joined(separator: ";"))?roundtrip=false&source=first&destination=last")
        XCTAssertEqual(oneWay.code, "Ok")
        let oneWaypoints = try XCTUnwrap(oneWay["waypoints"] as? [[String: Any]])
        XCTAssertEqual(oneWaypoints.first?["waypoint_index"] as? Int, 0)
        XCTAssertEqual(oneWaypoints.last?["waypoint_index"] as? Int, 3)
        XCTAssertEqual(((oneWay["trips"] as? [[String: Any]])?.first?["legs"] as? [Any])?.count, 3)
        XCTAssertEqual(try ask(service, "/trip/v1/driving/\(stops.joined(separator: ";"))?roundtrip=false").code, "NotImplemented")
    }

    func testNearestGivesDistinctRoadsNearestFirst() throws {
        let (_, service) = try F.monaco()
        let answer = try ask(service, "/nearest/v1/foot/\(F.casino)?number=3")
        let waypoints = try XCTUnwrap(answer["waypoints"] as? [[String: Any]])
        XCTAssertEqual(waypoints.count, 3)
        let distances = waypoints.compactMap { $0["distance"] as? Double }
        XCTAssertEqual(distances, distances.sorted())
        XCTAssertEqual((waypoints[0]["nodes"] as? [Int])?.count, 2)
        XCTAssertEqual(try ask(service, "/nearest/v1/foot/\(F.casino);\(F.port)").code, "InvalidQuery")
        XCTAssertEqual(try ask(service, "/nearest/v1/foot/\(F.casino)?number=0").code, "InvalidQuery")
    }

    func testErrorsHaveOSRMCodesAndStatuses() throws {
        let (_, service) = try F.monaco()
        let cases: [(String, String, Int)] = [
            ("/route/v1/driving/\(F.casino);\(F.sea)", "NoSegment", 400),
            ("/route/v1/driving/\(F.casino)", "InvalidQuery", 400),
            ("/route/v1/driving/\(F.casino);\(F.port)?bearings=10,10;10,10", "InvalidOptions", 400),
            ("/route/v1/driving/\(F.casino);\(F.port)?colour=red", "InvalidOptions", 400),
            ("/route/v1/driving/\(F.casino);200,1", "InvalidValue", 400),
            ("/table/v1/driving/\(F.casino);\(F.port)?annotations=speed", "InvalidQuery", 400),
            ("/route/v1/driving/\(F.casino);\(F.port)?radiuses=1;1", "NoSegment", 400),
            ("/nope", "InvalidUrl", 404),
            ("/roads?bbox=1,2,3", "InvalidQuery", 400),
            ("/roads?bbox=3,2,1,4", "InvalidValue", 400),
        ]
        for (target, code, status) in cases {
            let answer = try ask(service, target)
            XCTAssertEqual(answer.code, code, target)
            XCTAssertEqual(answer.status, status, target)
            XCTAssertFalse((answer["message"] as? String ?? "").isEmpty, target)
        }
    }

    func testLimitsAnswerTooBigAndTimeout() throws {
        let (_, service) = try F.monaco()
        var limits = ServiceLimits()
        limits.maximumRouteCoordinates = 3; limits.maximumTableCells = 4; limits.maximumTripCoordinates = 2
        let small = try WayfinderService(map: service.map, limits: limits)
        let four = [F.casino, F.port, F.fontvieille, F.larvotto].joined(separator: ";")
        XCTAssertEqual(try ask(small, "/route/v1/car/\(four)").code, "TooBig")
        XCTAssertEqual(try ask(small, "/table/v1/car/\(four)").code, "TooBig")
        XCTAssertEqual(try ask(small, "/table/v1/car/\(four)?sources=0;1&destinations=2;3").code, "Ok")
        XCTAssertEqual(try ask(small, "/trip/v1/car/\(four)").code, "TooBig")
        limits.requestTimeLimit = 1e-9
        let hurried = try WayfinderService(map: service.map, limits: limits)
        let late = try ask(hurried, "/table/v1/car/\(F.casino);\(F.port)")
        XCTAssertEqual(late.code, "Timeout")
        XCTAssertEqual(late.status, 503)
    }

    func testRoadsComeFromTheBoxAndThinOutWhenZoomedOut() throws {
        let (_, service) = try F.monaco()
        let box = "7.415,43.725,7.425,43.735"
        let close = try ask(service, "/roads?bbox=\(box)&zoom=17"), far = try ask(service, "/roads?bbox=\(box)&zoom=10")
        let closeRoads = try XCTUnwrap(close["roads"] as? [[Any]]), farRoads = try XCTUnwrap(far["roads"] as? [[Any]])
        XCTAssertGreaterThan(closeRoads.count, farRoads.count)
        XCTAssertTrue(farRoads.allSatisfy { ($0[0] as? Int) == 0 })
        XCTAssertTrue(closeRoads.contains { ($0[0] as? Int) == 3 })
        // Every road's own box meets the asked box.
        for road in closeRoads {
            let line = try PolylineEncoder.decode(try XCTUnwrap(road[1] as? String), precision: 5)
            let box = BoundingBox(line)!
            XCTAssertFalse(box.maxLongitude < 7.415 || box.minLongitude > 7.425 || box.maxLatitude < 43.725 || box.minLatitude > 43.735)
        }
        let empty = try ask(service, "/roads?bbox=0,0,0.1,0.1&zoom=15")
        XCTAssertEqual((empty["roads"] as? [Any])?.count, 0)
    }

    func testInfoHealthAndOfflinePage() throws {
        let (graph, service) = try F.monaco()
        XCTAssertEqual(try ask(service, "/health")["status"] as? String, "ok")
        let info = try ask(service, "/info")
        XCTAssertEqual(info["nodes"] as? Int, graph.nodeCount)
        XCTAssertEqual((info["bounds"] as? [Double])?.count, 4)
        for (path, type) in [("/", "text/html"), ("/map.js", "text/javascript"), ("/map.css", "text/css")] {
            let response = service.respond(to: HTTPRequest(path: path))
            XCTAssertEqual(response.status, 200)
            XCTAssertTrue(response.contentType.hasPrefix(type))
            let text = String(decoding: response.body, as: UTF8.self)
            // Nothing is fetched from another host: no absolute URLs at all.
            XCTAssertFalse(text.contains("http://") || text.contains("https://") || text.contains("//cdn"), path)
        }
    }
}
