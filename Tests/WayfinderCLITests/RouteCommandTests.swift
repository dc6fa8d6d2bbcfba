import Foundation
import XCTest

/// `wayfinder route` and `wayfinder eta`, run as a subprocess on Monaco (imported once for the class):
/// every output format, dates and time zones, and the exit codes of bad stops, missing graphs and unknown modes.
final class RouteCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-routecli-\(getpid())")
    static let graphPath = folder.appendingPathComponent("monaco.wfg").path

    /// Near the Casino and by the port: about 1.7 km and two minutes apart by car.
    static let casino = "43.7395,7.4270"
    static let port = "43.7312,7.4197"
    static let fontvieille = "43.7275,7.4150"
    /// Open sea, kilometres from any road.
    static let sea = "43.70,7.45"
    static let winterMorning = ["--depart", "2026-12-01T08:30", "--time-zone", "Europe/Monaco"]

    /// The Monaco graph, imported on first use (and kept for the class).
    func monaco(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if FileManager.default.fileExists(atPath: Self.graphPath) { return Self.graphPath }
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        try importMonaco(to: Self.graphPath, file: file, line: line)
        return Self.graphPath
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// Runs `wayfinder route` (or `eta`) on Monaco with `arguments`.
    func route(_ arguments: [String], command: String = "route") throws -> RunResult {
        try run([command, "--graph", try monaco()] + arguments)
    }

    func json(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(text.prefix(200))", file: file, line: line)
    }

    /// `route --format json` for `stops` and extra options, parsed; fails the test on a non-zero exit.
    func routeJSON(_ stops: [String], _ options: [String] = winterMorning, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try route(["--format", "json"] + options + stops)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return try json(result.stdout, file: file, line: line)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static let isoPattern = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$"#

    // MARK: Text

    func testTextOutput() throws {
        let result = try route(Self.winterMorning + [Self.casino, Self.port])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let text = result.stdout
        XCTAssertTrue(text.hasPrefix("Wayfinder car route: 2 stops, 1 route\nDepart 2026-12-01T08:30:00+01:00, arrive 2026-12-01T08:3"), text)
        for expected in ["Stops", "Route 1", "  Depart    2026-12-01T08:30:00+01:00", "Instruction", "Head ", "Arrive at "] {
            XCTAssertTrue(text.contains(expected), "missing \(expected):\n\(text)")
        }
        XCTAssertNotNil(text.range(of: #"\n  Distance  \d+\.\d km\n  Time      \d+ min \d+ s\n"#, options: .regularExpression), text)
        XCTAssertTrue(text.hasSuffix("\n"))
    }

    // MARK: JSON

    func testJSONOutput() throws {
        let document = try routeJSON([Self.casino, Self.port])
        XCTAssertEqual(document["mode"] as? String, "car")
        XCTAssertEqual(document["timeZone"] as? String, "Europe/Monaco")
        XCTAssertEqual(document["straightLines"] as? Bool, false)
        let routes = try XCTUnwrap(document["routes"] as? [[String: Any]])
        XCTAssertEqual(routes.count, 1)
        let route = routes[0]
        let distance = try XCTUnwrap(route["distance"] as? Double)
        let time = try XCTUnwrap(route["expectedTravelTime"] as? Double)
        XCTAssertGreaterThan(distance, 1000)
        XCTAssertLessThan(distance, 4000)
        XCTAssertGreaterThan(time, 60)
        XCTAssertLessThan(time, 600)
        let legs = try XCTUnwrap(route["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.count, 1)
        XCTAssertEqual(try XCTUnwrap(legs[0]["distance"] as? Double), distance, accuracy: 0.05)
        let steps = try XCTUnwrap(legs[0]["steps"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(steps.count, 2)
        let instructions = try XCTUnwrap(steps[0]["instructions"] as? String)
        XCTAssertTrue(instructions.hasPrefix("Head "), instructions)
        XCTAssertFalse(try XCTUnwrap(steps.last?["instructions"] as? String).isEmpty)
        // Dates with the zone's offset; arrival = departure + travel time.
        let departure = try XCTUnwrap(route["expectedDepartureDate"] as? String)
        let arrival = try XCTUnwrap(route["expectedArrivalDate"] as? String)
        XCTAssertEqual(departure, "2026-12-01T08:30:00+01:00")
        XCTAssertNotNil(arrival.range(of: Self.isoPattern, options: .regularExpression), arrival)
        XCTAssertTrue(arrival.hasSuffix("+01:00"), arrival)
        XCTAssertEqual(try XCTUnwrap(Self.date(arrival)).timeIntervalSince(try XCTUnwrap(Self.date(departure))), time, accuracy: 1)
        XCTAssertEqual(document["expectedDepartureDate"] as? String, departure)
        XCTAssertEqual(document["expectedArrivalDate"] as? String, arrival)
        // The stops as snapped.
        let waypoints = try XCTUnwrap(document["waypoints"] as? [[String: Any]])
        XCTAssertEqual(waypoints.count, 2)
        let query = try XCTUnwrap(waypoints[0]["query"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(query["latitude"] as? Double), 43.7395, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(query["longitude"] as? Double), 7.4270, accuracy: 1e-9)
        XCTAssertLessThan(try XCTUnwrap(waypoints[1]["snappingDistance"] as? Double), 100)
        XCTAssertNotNil(waypoints[1]["location"] as? [String: Any])
    }

    func testSummerDatesHaveTheSummerOffset() throws {
        let document = try routeJSON([Self.casino, Self.port], ["--depart", "2026-07-01T08:30", "--time-zone", "Europe/Monaco"])
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2026-07-01T08:30:00+02:00")
        XCTAssertTrue((document["expectedArrivalDate"] as? String)?.hasSuffix("+02:00") ?? false)
    }

    func testDepartureWithAnOffsetIsShownInTheTimeZone() throws {
        let document = try routeJSON([Self.casino, Self.port], ["--depart", "2026-12-01T08:30:00-05:00", "--time-zone", "Europe/Monaco"])
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2026-12-01T14:30:00+01:00")
        let utc = try routeJSON([Self.casino, Self.port], ["--depart", "2026-12-01T13:30:00Z", "--time-zone", "UTC"])
        XCTAssertEqual(utc["expectedDepartureDate"] as? String, "2026-12-01T13:30:00+00:00")
    }

    func testArrivalWorksBackTheDeparture() throws {
        let document = try routeJSON([Self.casino, Self.port], ["--arrive", "2026-12-01T09:00", "--time-zone", "Europe/Monaco"])
        let arrival = try XCTUnwrap(document["expectedArrivalDate"] as? String)
        let departure = try XCTUnwrap(document["expectedDepartureDate"] as? String)
        XCTAssertEqual(arrival, "2026-12-01T09:00:00+01:00")
        let time = try XCTUnwrap((document["routes"] as? [[String: Any]])?.first?["expectedTravelTime"] as? Double)
        XCTAssertEqual(try XCTUnwrap(Self.date(arrival)).timeIntervalSince(try XCTUnwrap(Self.date(departure))), time, accuracy: 1)
        XCTAssertTrue(departure.hasPrefix("2026-12-01T08:5"), departure)
    }

    func testWalkingIsSlowerThanDriving() throws {
        let car = try routeJSON([Self.casino, Self.fontvieille])
        let foot = try routeJSON([Self.casino, Self.fontvieille], Self.winterMorning + ["--mode", "foot"])
        XCTAssertEqual(foot["mode"] as? String, "foot")
        let carTime = try XCTUnwrap((car["routes"] as? [[String: Any]])?.first?["expectedTravelTime"] as? Double)
        let footRoute = try XCTUnwrap((foot["routes"] as? [[String: Any]])?.first)
        let footTime = try XCTUnwrap(footRoute["expectedTravelTime"] as? Double)
        let footDistance = try XCTUnwrap(footRoute["distance"] as? Double)
        XCTAssertGreaterThan(footTime, 3 * carTime)
        XCTAssertGreaterThanOrEqual(footTime, 0.999 * footDistance / (5 / 3.6))
    }

    func testMultiStopRouteHasALegPerPair() throws {
        let document = try routeJSON([Self.casino, Self.port, Self.fontvieille])
        let route = try XCTUnwrap((document["routes"] as? [[String: Any]])?.first)
        let legs = try XCTUnwrap(route["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.count, 2)
        let sum = legs.compactMap { $0["expectedTravelTime"] as? Double }.reduce(0, +)
        XCTAssertEqual(try XCTUnwrap(route["expectedTravelTime"] as? Double), sum, accuracy: 0.15)
        XCTAssertEqual((document["waypoints"] as? [Any])?.count, 3)
    }

    func testAlternatives() throws {
        let document = try routeJSON([Self.fontvieille, "43.7450,7.4330"], Self.winterMorning + ["--alternatives", "2"])
        let routes = try XCTUnwrap(document["routes"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(routes.count, 1)
        XCTAssertLessThanOrEqual(routes.count, 3)
        let best = try XCTUnwrap(routes[0]["expectedTravelTime"] as? Double)
        for route in routes.dropFirst() {
            XCTAssertLessThanOrEqual(try XCTUnwrap(route["expectedTravelTime"] as? Double), 1.4 * best + 0.1)
        }
        // polyline output: one line per route.
        let lines = try route(["--format", "polyline6", "--alternatives", "2", Self.fontvieille, "43.7450,7.4330"])
        XCTAssertEqual(lines.status, 0, lines.stderr)
        XCTAssertEqual(lines.stdout.split(separator: "\n").count, routes.count)
    }

    // MARK: GeoJSON, GPX, polylines

    func testGeoJSONOutput() throws {
        let result = try route(Self.winterMorning + ["--format", "geojson", Self.casino, Self.port])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try json(result.stdout)
        XCTAssertEqual(document["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(document["features"] as? [[String: Any]])
        let feature = try XCTUnwrap(features.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "route" })
        let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["type"] as? String, "LineString")
        let coordinates = try XCTUnwrap(geometry["coordinates"] as? [[Double]])
        XCTAssertGreaterThan(coordinates.count, 2)
        // [longitude, latitude], starting by the Casino and ending by the port.
        XCTAssertEqual(coordinates[0][0], 7.4270, accuracy: 0.001)
        XCTAssertEqual(coordinates[0][1], 43.7395, accuracy: 0.001)
        XCTAssertEqual(coordinates[coordinates.count - 1][0], 7.4197, accuracy: 0.001)
        XCTAssertEqual(coordinates[coordinates.count - 1][1], 43.7312, accuracy: 0.001)
        let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
        XCTAssertEqual(properties["expectedDepartureDate"] as? String, "2026-12-01T08:30:00+01:00")
    }

    func testGPXOutput() throws {
        let result = try route(Self.winterMorning + ["--format", "gpx", Self.casino, Self.port])
        XCTAssertEqual(result.status, 0, result.stderr)
        let gpx = result.stdout
        XCTAssertTrue(gpx.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx "), String(gpx.prefix(200)))
        XCTAssertTrue(gpx.hasSuffix("</gpx>\n"), String(gpx.suffix(100)))
        XCTAssertEqual(gpx.components(separatedBy: "<wpt ").count - 1, 2, "a waypoint per stop")
        XCTAssertTrue(gpx.contains("<rte>"))
        XCTAssertTrue(gpx.contains("<rtept "))
        XCTAssertTrue(gpx.contains("<trkpt "))
        XCTAssertTrue(gpx.contains("lat=\"43.73"), "coordinates in Monaco")
    }

    func testPolylineOutputs() throws {
        let document = try routeJSON([Self.casino, Self.port])
        let route = try XCTUnwrap((document["routes"] as? [[String: Any]])?.first)
        let waypoints = try XCTUnwrap(document["waypoints"] as? [[String: Any]])
        func location(_ i: Int) throws -> (Double, Double) {
            let l = try XCTUnwrap(waypoints[i]["location"] as? [String: Any])
            return (try XCTUnwrap(l["latitude"] as? Double), try XCTUnwrap(l["longitude"] as? Double))
        }
        for (format, precision) in [("polyline", 5), ("polyline6", 6)] {
            let result = try self.route([Self.casino, Self.port, "--format", format])
            XCTAssertEqual(result.status, 0, result.stderr)
            let lines = result.stdout.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, format)
            let points = Self.decodePolyline(String(lines[0]), precision: precision)
            XCTAssertGreaterThan(points.count, 2)
            let tolerance = precision == 5 ? 1e-5 : 1e-6
            let start = try location(0), end = try location(1)
            XCTAssertEqual(points[0].0, start.0, accuracy: tolerance, format)
            XCTAssertEqual(points[0].1, start.1, accuracy: tolerance, format)
            XCTAssertEqual(points[points.count - 1].0, end.0, accuracy: tolerance, format)
            XCTAssertEqual(points[points.count - 1].1, end.1, accuracy: tolerance, format)
            if precision == 6 { XCTAssertEqual(String(lines[0]), route["polyline"] as? String, "the JSON polyline is polyline6") }
        }
    }

    /// Decodes Google's encoded polyline format into (latitude, longitude) pairs.
    static func decodePolyline(_ text: String, precision: Int) -> [(Double, Double)] {
        let bytes = Array(text.utf8)
        var index = 0
        func next() -> Int? {
            var result = 0, shift = 0
            while index < bytes.count {
                let chunk = Int(bytes[index]) - 63
                index += 1
                result |= (chunk & 0x1f) << shift
                shift += 5
                if chunk < 0x20 { return result & 1 != 0 ? ~(result >> 1) : result >> 1 }
            }
            return nil
        }
        let factor = pow(10.0, Double(precision))
        var latitude = 0, longitude = 0
        var points: [(Double, Double)] = []
        while index < bytes.count, let dLat = next(), let dLon = next() {
            latitude += dLat
            longitude += dLon
            points.append((Double(latitude) / factor, Double(longitude) / factor))
        }
        return points
    }

    // MARK: Straight lines

    func testStraightLinesNeedNoRoad() throws {
        let document = try routeJSON([Self.casino, Self.sea], Self.winterMorning + ["--straight"])
        XCTAssertEqual(document["straightLines"] as? Bool, true)
        let distance = try XCTUnwrap((document["routes"] as? [[String: Any]])?.first?["distance"] as? Double)
        // Haversine on the sphere of docs/profiles.md.
        let rad = Double.pi / 180
        let (lat1, lon1, lat2, lon2) = (43.7395 * rad, 7.4270 * rad, 43.70 * rad, 7.45 * rad)
        let h = pow(sin((lat2 - lat1) / 2), 2) + cos(lat1) * cos(lat2) * pow(sin((lon2 - lon1) / 2), 2)
        XCTAssertEqual(distance, 2 * 6_371_008.8 * asin(h.squareRoot()), accuracy: 0.06)
    }

    // MARK: ETA

    func testETAPrintsTimeAndDates() throws {
        let result = try route(Self.winterMorning + [Self.casino, Self.port], command: "eta")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let pattern = #"^\d+(\.\d)? (m|km), (<1 min|\d+ min|\d+ h( \d+ min)?); depart 08:30, arrive 08:3\d \(2026-12-01T08:3\d:\d\d\+01:00\)\n$"#
        XCTAssertNotNil(result.stdout.range(of: pattern, options: .regularExpression), result.stdout)

        let eta = try route(Self.winterMorning + ["--format", "json", Self.casino, Self.port], command: "eta")
        XCTAssertEqual(eta.status, 0, eta.stderr)
        let document = try json(eta.stdout)
        XCTAssertEqual(Set(document.keys), ["distance", "expectedTravelTime", "expectedDepartureDate", "expectedArrivalDate"])
        XCTAssertEqual(document["expectedDepartureDate"] as? String, "2026-12-01T08:30:00+01:00")
        // The same figures as the route.
        let best = try XCTUnwrap((try routeJSON([Self.casino, Self.port])["routes"] as? [[String: Any]])?.first)
        XCTAssertEqual(document["expectedTravelTime"] as? Double, best["expectedTravelTime"] as? Double)
        XCTAssertEqual(document["distance"] as? Double, best["distance"] as? Double)
        XCTAssertEqual(document["expectedArrivalDate"] as? String, best["expectedArrivalDate"] as? String)
        XCTAssertTrue(result.stdout.contains((best["expectedArrivalDate"] as? String) ?? "?"), result.stdout)
    }

    func testETARefusesRouteOnlyFormats() throws {
        let result = try route(["--format", "gpx", Self.casino, Self.port], command: "eta")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--format"), result.stderr)
    }

    // MARK: Errors and exit codes

    func testBadStopsAreUsageErrorsNamingTheArgument() throws {
        for bad in ["abc", "91,7", "43.7,181", "43.7", "43.7,7.4,1"] {
            for command in ["route", "eta"] {
                let result = try route([Self.casino, bad], command: command)
                XCTAssertEqual(result.status, 2, "\(command) \(bad): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("'\(bad)'"), "\(command) \(bad): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("stop 2"), result.stderr)
                XCTAssertEqual(result.stdout, "")
            }
        }
        XCTAssertTrue(try route([Self.casino, "91,7"]).stderr.contains("latitude"))
        XCTAssertTrue(try route([Self.casino, "43.7,181"]).stderr.contains("longitude"))
    }

    func testOneStopIsAUsageError() throws {
        let result = try route([Self.casino])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("at least two stops"), result.stderr)
        XCTAssertEqual(try route([], command: "eta").status, 2)
    }

    func testStopAtSeaIsExit6NamingTheStop() throws {
        for command in ["route", "eta"] {
            let result = try route([Self.casino, Self.sea], command: command)
            XCTAssertEqual(result.status, 6, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("stop 2 (43.700000,7.450000)"), result.stderr)
            XCTAssertTrue(result.stderr.contains("1000 m"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        // On foot too; and with a larger --max-snap the sea is still too far.
        XCTAssertEqual(try route(["--mode", "foot", Self.sea, Self.casino]).status, 6)
        let far = try route(["--max-snap", "2000", Self.casino, Self.sea])
        XCTAssertEqual(far.status, 6)
        XCTAssertTrue(far.stderr.contains("2000 m"), far.stderr)
        // A tight --max-snap rejects the port stop (about 30 m off the road).
        let tight = try route(["--max-snap", "10", Self.casino, Self.port])
        XCTAssertEqual(tight.status, 6, tight.stderr)
        XCTAssertTrue(tight.stderr.contains("stop 2"), tight.stderr)
    }

    func testMissingGraphIsExit3() throws {
        let missing = tmp("nowhere.wfg")
        for command in ["route", "eta"] {
            let result = try run([command, "--graph", missing, Self.casino, Self.port])
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssertTrue(result.stderr.contains("nowhere.wfg"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        // Not a graph file at all.
        let junk = tmp("junk.wfg")
        try Data("not a graph".utf8).write(to: URL(fileURLWithPath: junk))
        XCTAssertEqual(try run(["route", "--graph", junk, Self.casino, Self.port]).status, 3)
    }

    func testUnknownModeIsAUsageError() throws {
        let result = try route(["--mode", "bike", Self.casino, Self.port])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("'bike'"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testOtherUsageErrors() throws {
        let cases: [([String], String)] = [
            (["route", Self.casino, Self.port], "--graph"),
            (["route", "--graph", Self.graphPath, "--depart", "2026-12-01T08:30", "--arrive", "2026-12-01T09:00", Self.casino, Self.port], "not both"),
            (["route", "--graph", Self.graphPath, "--depart", "tomorrow", Self.casino, Self.port], "'tomorrow'"),
            (["route", "--graph", Self.graphPath, "--time-zone", "Mars/Olympus", Self.casino, Self.port], "'Mars/Olympus'"),
            (["route", "--graph", Self.graphPath, "--format", "kml", Self.casino, Self.port], "'kml'"),
            (["route", "--graph", Self.graphPath, "--alternatives", "many", Self.casino, Self.port], "'many'"),
            (["route", "--graph", Self.graphPath, "--max-snap", "-5", Self.casino, Self.port], "--max-snap"),
            (["route", "--graph", Self.graphPath, "--fast", Self.casino, Self.port], "--fast"),
        ]
        _ = try monaco()
        for (arguments, mention) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(mention), "\(arguments): \(result.stderr)")
        }
        let help = try run(["route", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: wayfinder route"), help.stdout)
    }

    /// Stops on two road networks that do not connect: exit 5, naming the leg.
    func testDisconnectedStopsAreExit5() throws {
        // A triangle of streets, and 1 km away a lone street.
        let osm = """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
              <node id="1" lat="43.7000000" lon="7.4000000"/>
              <node id="2" lat="43.7000000" lon="7.4020000"/>
              <node id="3" lat="43.7010000" lon="7.4010000"/>
              <node id="4" lat="43.7100000" lon="7.4000000"/>
              <node id="5" lat="43.7100000" lon="7.4020000"/>
              <way id="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
              <way id="2"><nd ref="2"/><nd ref="3"/><tag k="highway" v="residential"/></way>
              <way id="3"><nd ref="3"/><nd ref="1"/><tag k="highway" v="residential"/></way>
              <way id="4"><nd ref="4"/><nd ref="5"/><tag k="highway" v="residential"/></way>
            </osm>
            """
        let input = tmp("islands.osm"), graph = tmp("islands.wfg")
        try osm.write(toFile: input, atomically: true, encoding: .utf8)
        let imported = try run(["import", input, "-o", graph, "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let connected = try run(["route", "--graph", graph, "43.7000,7.4010", "43.7010,7.4010"])
        XCTAssertEqual(connected.status, 0, connected.stderr)
        for command in ["route", "eta"] {
            let result = try run([command, "--graph", graph, "43.7000,7.4010", "43.7010,7.4010", "43.7100,7.4010"])
            XCTAssertEqual(result.status, 5, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("leg 2"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
    }
}
