import XCTest
import Wayfinder

final class GeoJSONEncoderTests: XCTestCase {
    private func collection(_ result: RouteResult = Fixtures.result(), steps: Bool = false, bbox: Bool = true) throws -> [String: Any] {
        let text = GeoJSONEncoder(includeSteps: steps, includeBoundingBox: bbox).encode(result)
        return try XCTUnwrap(try parseJSON(text) as? [String: Any])
    }

    private func features(_ document: [String: Any], kind: String? = nil) -> [[String: Any]] {
        let all = document["features"] as? [[String: Any]] ?? []
        guard let kind else { return all }
        return all.filter { ($0["properties"] as? [String: Any])?["kind"] as? String == kind }
    }

    /// Checks the RFC 7946 structure of every feature and returns the positions of all geometries.
    private func validate(_ document: [String: Any], file: StaticString = #filePath, line: UInt = #line) -> [[Double]] {
        XCTAssertEqual(document["type"] as? String, "FeatureCollection", file: file, line: line)
        var positions: [[Double]] = []
        func position(_ value: Any) {
            guard let p = value as? [Double], p.count == 2 else { return XCTFail("bad position \(value)", file: file, line: line) }
            XCTAssertTrue(p.allSatisfy(\.isFinite), file: file, line: line)
            XCTAssertTrue((-180...180).contains(p[0]) && (-90...90).contains(p[1]), "\(p) not [lon, lat]", file: file, line: line)
            positions.append(p)
        }
        for feature in features(document) {
            XCTAssertEqual(feature["type"] as? String, "Feature", file: file, line: line)
            XCTAssertNotNil(feature["properties"] as? [String: Any], file: file, line: line)
            guard let geometry = feature["geometry"] as? [String: Any] else {
                XCTAssertTrue(feature["geometry"] is NSNull, file: file, line: line); continue
            }
            switch geometry["type"] as? String {
            case "Point": position(geometry["coordinates"] as Any)
            case "LineString":
                let line = geometry["coordinates"] as? [Any] ?? []
                XCTAssertGreaterThanOrEqual(line.count, 2, file: file)
                line.forEach(position)
            case "MultiLineString":
                for part in geometry["coordinates"] as? [[Any]] ?? [] {
                    XCTAssertGreaterThanOrEqual(part.count, 2, file: file)
                    part.forEach(position)
                }
            default: XCTFail("unexpected geometry \(geometry)", file: file, line: line)
            }
        }
        return positions
    }

    func testStructureOrderAndBoundingBox() throws {
        let document = try collection()
        let positions = validate(document)
        XCTAssertEqual(features(document).compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String },
                       ["route", "leg", "leg", "stop", "stop", "stop"])
        // bbox is [west, south, east, north] and holds every position.
        let bbox = try XCTUnwrap(document["bbox"] as? [Double])
        XCTAssertEqual(bbox, [-75.00002, 40.00001, -74.99, 40.02])
        for p in positions {
            XCTAssertTrue(p[0] >= bbox[0] && p[0] <= bbox[2] && p[1] >= bbox[1] && p[1] <= bbox[3])
        }
        XCTAssertNil(try collection(bbox: false)["bbox"])
        // Keys sorted, as in every JSON output.
        XCTAssertTrue(GeoJSONEncoder().encode(Fixtures.result()).hasPrefix(#"{"bbox":["#))
    }

    func testPositionsAreLongitudeFirst() throws {
        let document = try collection()
        let route = try XCTUnwrap(features(document, kind: "route").first?["geometry"] as? [String: Any])
        let line = try XCTUnwrap(route["coordinates"] as? [[Double]])
        XCTAssertEqual(line.first, [-75.00002, 40.00001])
        XCTAssertEqual(line.count, Fixtures.result().routes[0].polyline.count)
        let stop = try XCTUnwrap(features(document, kind: "stop").first)
        XCTAssertEqual((stop["geometry"] as? [String: Any])?["coordinates"] as? [Double], [-75.00002, 40.00001])
        XCTAssertEqual((stop["properties"] as? [String: Any])?["query"] as? [Double], [-75, 40])
    }

    func testPropertiesMatchTheDocumentation() throws {
        let schema = try DocumentedSchema.load()
        let document = try collection(Fixtures.result(alternatives: 1), steps: true)
        _ = validate(document)
        for kind in ["route", "leg", "step", "stop"] {
            let fields = try XCTUnwrap(schema.sections["Features of kind `\(kind)`"], kind)
            let written = features(document, kind: kind)
            XCTAssertFalse(written.isEmpty, kind)
            for feature in written {
                let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
                XCTAssertEqual(Set(properties.keys), Set(fields.map(\.path)), kind)
                for field in fields {
                    XCTAssertTrue(DocumentedSchema.matches(properties[field.path] as Any, type: field.type),
                                  "\(kind).\(field.path): \(properties[field.path] as Any) is not \(field.type)")
                }
            }
        }
    }

    func testPropertyValues() throws {
        let document = try collection(steps: true)
        let route = try XCTUnwrap(features(document, kind: "route").first?["properties"] as? [String: Any])
        XCTAssertEqual(route["distance"] as? Double, 12345.7)
        XCTAssertEqual(route["expectedTravelTime"] as? Double, 850)
        XCTAssertEqual(route["name"] as? String, "Market Street, Main Street")
        XCTAssertEqual(route["expectedArrivalDate"] as? String, "2026-12-01T08:44:10-05:00")
        let legs = features(document, kind: "leg").compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(legs.map { $0["index"] as? Int }, [0, 1])
        XCTAssertEqual(legs.map { $0["to"] as? Int }, [1, 2])
        XCTAssertEqual(legs.map { $0["distance"] as? Double }, [5000.4, 7345.3])
        let steps = features(document, kind: "step").compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(steps.count, 6)
        XCTAssertEqual(steps[4]["instructions"] as? String, "At the roundabout, take the 2nd exit onto \(Fixtures.trickyName)")
        XCTAssertEqual(steps[4]["exit"] as? Int, 2)
        XCTAssertEqual(steps[4]["leg"] as? Int, 1)
        let stops = features(document, kind: "stop").compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(stops.map { $0["snappingDistance"] as? Double }, [2, 11.1, 0])
        XCTAssertEqual(stops[2]["name"] as? String, Fixtures.trickyName)
    }

    func testCoordinatesRoundedToSevenDecimals() throws {
        var route = Fixtures.route()
        route.polyline[0] = Coordinate(latitude: 40.123456789, longitude: -75.000000049)
        let text = GeoJSONEncoder().encode(Fixtures.result(with: route))
        XCTAssertTrue(text.contains("[-75,40.1234568]"), text)
        XCTAssertFalse(text.contains("e-"))
    }

    func testAntimeridianCrossingIsCut() throws {
        let points = [Coordinate(latitude: -17, longitude: 178), Coordinate(latitude: -17.5, longitude: 179.5),
                      Coordinate(latitude: -18.5, longitude: -179.5), Coordinate(latitude: -19, longitude: -178)]
        let route = Route(distance: 1, expectedTravelTime: 1, polyline: points,
                          legs: [Fixtures.leg(points, distance: 1, time: 1, steps: [])], boundingBox: BoundingBox(points)!, name: "")
        let document = try collection(Fixtures.result(with: route))
        _ = validate(document)
        let geometry = try XCTUnwrap(features(document, kind: "route").first?["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["type"] as? String, "MultiLineString")
        let parts = try XCTUnwrap(geometry["coordinates"] as? [[[Double]]])
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(parts[0].last, [180, -18])
        XCTAssertEqual(parts[1].first, [-180, -18])
        // The box spans the antimeridian: west > east.
        XCTAssertEqual(try XCTUnwrap(document["bbox"] as? [Double]), [178, -19, -178, -17])
    }

    func testWideRouteWithoutCrossingKeepsAPlainBox() throws {
        let points = [Coordinate(latitude: 10, longitude: -170), Coordinate(latitude: 11, longitude: -10),
                      Coordinate(latitude: 12, longitude: 150), Coordinate(latitude: 13, longitude: 170)]
        let route = Route(distance: 1, expectedTravelTime: 1, polyline: points,
                          legs: [Fixtures.leg(points, distance: 1, time: 1, steps: [])], boundingBox: BoundingBox(points)!, name: "")
        let document = try collection(Fixtures.result(with: route))
        XCTAssertEqual((features(document, kind: "route").first?["geometry"] as? [String: Any])?["type"] as? String, "LineString")
        XCTAssertEqual(try XCTUnwrap(document["bbox"] as? [Double]), [-170, 10, 170, 13])
    }

    func testDegenerateGeometries() throws {
        let point = Coordinate(latitude: 1, longitude: 2)
        var route = Route(distance: 0, expectedTravelTime: 0, polyline: [point],
                          legs: [Fixtures.leg([point], distance: 0, time: 0, steps: [])],
                          boundingBox: BoundingBox([point])!, name: "")
        var document = try collection(Fixtures.result(with: route))
        _ = validate(document)
        let line = try XCTUnwrap(features(document, kind: "route").first?["geometry"] as? [String: Any])
        XCTAssertEqual(line["coordinates"] as? [[Double]], [[2, 1], [2, 1]])
        route.polyline = []
        document = try collection(Fixtures.result(with: route))
        XCTAssertTrue(features(document, kind: "route").first?["geometry"] is NSNull)
        _ = validate(document)
    }

    func testStraightLinesHaveNoStepsAndDeterministic() throws {
        let result = Fixtures.result(straightLines: true)
        let document = try collection(result, steps: true)
        _ = validate(document)
        XCTAssertTrue(features(document, kind: "step").isEmpty)
        XCTAssertEqual((features(document, kind: "route").first?["properties"] as? [String: Any])?["straightLines"] as? Bool, true)
        let many = Fixtures.result(alternatives: 2)
        XCTAssertEqual(GeoJSONEncoder(includeSteps: true).encode(many), GeoJSONEncoder(includeSteps: true).encode(many))
        let pretty = GeoJSONEncoder(prettyPrinted: true).encode(many)
        XCTAssertTrue(pretty.contains("[-75.00002, 40.00001]"), "positions stay on one line")
        XCTAssertEqual(try parseJSON(pretty) as? NSDictionary, try parseJSON(GeoJSONEncoder().encode(many)) as? NSDictionary)
    }
}
