import Foundation
import XCTest
import TestSupport

/// Stops given by place name on Monaco's place index: `route`, `eta`, `eta --from/--to-file`, `matrix`, `trip` and
/// `batch` take them, say which place they took, and refuse a name that matches nothing (with suggestions) or,
/// with `--strict-names`, one that several places far apart match equally well (listing them).
final class StopNameCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-stopnames-\(getpid())")

    /// Monaco imported once per run (with its place index).
    func monaco() throws -> String {
        let path = Self.folder.appendingPathComponent("monaco.wfg").path
        if FileManager.default.fileExists(atPath: path) { return path }
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        try importMonaco(to: path)
        return path
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func testRouteAndETATakeNamesAndSayWhichPlace() throws {
        let graph = try monaco()
        let route = try run(["route", "--graph", graph, "Casino de Monte Carlo", "Stade Louis II"])
        XCTAssertEqual(route.status, 0, route.stderr)
        let lines = route.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Casino de Monte Carlo → \"Casino de Monte Carlo\" (casino), 43.73924,7.42854")
        XCTAssertTrue(lines[1].hasPrefix("Stade Louis II → \"Stade Louis II\" ("), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("Wayfinder car route: 2 stops"), lines[2])
        // The same route by the coordinates the names were taken to be.
        let byCoordinates = try run(["eta", "--graph", graph, "--format", "json", "--depart", "2026-12-01T08:30", "43.739243,7.428538", "Stade Louis II"])
        let byNames = try run(["eta", "--graph", graph, "--format", "json", "--depart", "2026-12-01T08:30", "Casino de Monte Carlo", "Stade Louis II"])
        XCTAssertEqual(byNames.status, 0, byNames.stderr)
        let a = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(byCoordinates.stdout.utf8)) as? [String: Any])
        let b = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(byNames.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(a["expectedTravelTime"] as? Double, b["expectedTravelTime"] as? Double)
        let places = try XCTUnwrap(b["places"] as? [Any])
        XCTAssertEqual((places[0] as? [String: Any])?["name"] as? String, "Casino de Monte Carlo")
        XCTAssertEqual((places[0] as? [String: Any])?["category"] as? String, "casino")
        XCTAssertEqual((places[0] as? [String: Any])?["searchText"] as? String, "Casino de Monte Carlo")
        XCTAssertEqual((a["places"] as? [Any])?.first is NSNull, true, "a stop given as lat,lon has null")
        XCTAssertTrue(byNames.stderr.contains("Casino de Monte Carlo → "), "which place: on standard error beside JSON")
        // Without names, no places member at all.
        let plain = try run(["eta", "--graph", graph, "--format", "json", "43.739243,7.428538", "43.7275,7.4150"])
        XCTAssertFalse(plain.stdout.contains("\"places\""), plain.stdout)
        // A typo: one edit in a word of 5+ letters.
        let typo = try run(["eta", "--graph", graph, "Casino de Monte Carlo", "Stade Luois II"])
        XCTAssertEqual(typo.status, 0, typo.stderr)
        XCTAssertTrue(typo.stdout.contains("Stade Luois II → \"Stade Louis II\""), typo.stdout)
    }

    func testNoMatchSuggestsAndStrictNamesListCandidates() throws {
        let graph = try monaco()
        let none = try run(["route", "--graph", graph, "Kasinno", "43.7275,7.4150"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("stop 1 'Kasinno' is not lat,lon and no place on the map has that name (did you mean \"Casino\""), none.stderr)
        let json = try run(["route", "--graph", graph, "--format", "json", "43.7275,7.4150", "Qxzvwq"])
        XCTAssertEqual(json.status, 2)
        XCTAssertTrue(json.stderr.contains("\"code\":\"usage\""), json.stderr)
        // Two shops and a bus stop called "Casino" lie far apart: without --strict-names the nearest is taken.
        XCTAssertEqual(try run(["eta", "--graph", graph, "Casino", "43.7275,7.4150"]).status, 0)
        let strict = try run(["eta", "--graph", graph, "--strict-names", "Casino", "43.7275,7.4150"])
        XCTAssertEqual(strict.status, 2)
        XCTAssertTrue(strict.stderr.contains("stop 1 'Casino' names 2 places more than 200 m apart equally well (--strict-names)"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("\"Casino\" (bus_stop), 43.74001,7.42524"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("\"Casino\" (convenience), 43.73533,7.42102"), strict.stderr)
        // Same-named bus stations of one square are one place even with --strict-names.
        let square = try run(["eta", "--graph", graph, "--strict-names", "Place d'Armes", "43.7275,7.4150"])
        XCTAssertEqual(square.status, 0, square.stderr)
        // A stop that is two numbers but no coordinate is refused before the graph is opened, as before.
        let bad = try run(["route", "--graph", tmp("missing.wfg"), "95,8", "Casino"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("stop 1 '95,8' has latitude 95, outside ±90"), bad.stderr)
    }

    func testFilesOfNamesForMatrixTripAndETAList() throws {
        let graph = try monaco()
        let names = tmp("names.csv")
        try "name\nCasino de Monte Carlo\n43.7312,7.4197,Port\nStade Louis II\n".write(toFile: names, atomically: true, encoding: .utf8)
        let matrix = try run(["matrix", "--graph", graph, "--sources", names, "--destinations", names, "--format", "json"])
        XCTAssertEqual(matrix.status, 0, matrix.stderr)
        let m = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(matrix.stdout.utf8)) as? [String: Any])
        let sources = try XCTUnwrap(m["sources"] as? [[String: Any]])
        XCTAssertEqual(sources.map { $0["name"] as? String }, ["Casino de Monte Carlo", "Port", "Stade Louis II"])
        XCTAssertEqual((sources[0]["place"] as? [String: Any])?["category"] as? String, "casino")
        XCTAssertNil(sources[1]["place"], "a row with a coordinate has no place")
        XCTAssertTrue(matrix.stderr.contains("Stade Louis II → \"Stade Louis II\""), matrix.stderr)

        let trip = try run(["trip", "--graph", graph, "--stops-file", names])
        XCTAssertEqual(trip.status, 0, trip.stderr)
        XCTAssertTrue(trip.stdout.hasPrefix("Casino de Monte Carlo → \"Casino de Monte Carlo\" (casino)"), trip.stdout)
        let tripByArguments = try run(["trip", "--graph", graph, "--format", "json", "Casino de Monte Carlo", "43.7312,7.4197", "Stade Louis II"])
        XCTAssertEqual(tripByArguments.status, 0, tripByArguments.stderr)
        XCTAssertTrue(tripByArguments.stdout.contains("\"places\":[{"), tripByArguments.stdout)

        let list = try run(["eta", "--graph", graph, "--from", "Casino de Monte Carlo", "--to-file", names, "--format", "csv"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 4, list.stdout)
        let missing = tmp("missing-name.csv")
        try "Port Hercule Nord Qxzvwq\n".write(toFile: missing, atomically: true, encoding: .utf8)
        let refused = try run(["matrix", "--graph", graph, "--sources", missing, "--destinations", names])
        XCTAssertEqual(refused.status, 3)
        XCTAssertTrue(refused.stderr.contains("\(missing):1: 'Port Hercule Nord Qxzvwq' is not lat,lon"), refused.stderr)
    }

    func testBatchJobsByName() throws {
        let graph = try monaco()
        let jobs = tmp("jobs.ndjson"), out = tmp("out.ndjson")
        try """
        {"id": "names", "stops": ["Casino de Monte Carlo", "Stade Louis II"]}
        {"id": "same", "stops": [[43.739243, 7.428538], "Stade Louis II"]}
        {"id": "strict", "strictNames": true, "stops": ["Casino", "Stade Louis II"]}
        {"id": "loose", "stops": ["Casino", "Stade Louis II"]}
        {"id": "none", "stops": ["Qxzvwq", "Stade Louis II"]}
        """.write(toFile: jobs, atomically: true, encoding: .utf8)
        let result = try run(["batch", "--graph", graph, "-i", jobs, "-o", out, "--depart", "2026-12-01T08:30", "--quiet"])
        XCTAssertEqual(result.status, 7, result.stderr)
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(rows.map { $0["status"] as? String }, ["ok", "ok", "bad_row", "ok", "bad_row"])
        XCTAssertEqual(rows[0]["expectedTravelTime"] as? Double, rows[1]["expectedTravelTime"] as? Double, "the name is the casino's point")
        let places = try XCTUnwrap(rows[0]["places"] as? [[String: Any]])
        XCTAssertEqual(places.map { $0["name"] as? String }, ["Casino de Monte Carlo", "Stade Louis II"])
        XCTAssertTrue((rows[2]["message"] as? String)?.contains("names 2 places") == true, "\(rows[2])")
        XCTAssertTrue((rows[4]["message"] as? String)?.contains("line 5: stop 1 'Qxzvwq' is not lat,lon") == true, "\(rows[4])")
        // A CSV row says which places it took in its last column, `places` (empty when no stop was a name).
        let csvJobs = tmp("jobs.csv"), csvOut = tmp("out.csv")
        try "id,stops\nnames,\"Casino de Monte Carlo;43.7312,7.4197;Stade Louis II\"\ncoordinates,\"43.739243,7.428538;43.7312,7.4197\"\n"
            .write(toFile: csvJobs, atomically: true, encoding: .utf8)
        let csvRun = try run(["batch", "--graph", graph, "-i", csvJobs, "-o", csvOut, "--format", "csv", "--depart", "2026-12-01T08:30", "--quiet"])
        XCTAssertEqual(csvRun.status, 0, csvRun.stderr)
        let lines = try String(contentsOfFile: csvOut, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[0].hasSuffix(",legExpectedTravelTimes,places"), "places is the last column: \(lines[0])")
        // RFC 4180: the field is quoted (it holds commas) and its quotes are doubled.
        XCTAssertTrue(lines[1].contains(",\"stop 1: Casino de Monte Carlo → \"\"Casino de Monte Carlo\"\" (casino), 43.73924,7.42854"
                                        + " | stop 3: Stade Louis II → \"\"Stade Louis II\"\" ("), lines[1])
        XCTAssertFalse(lines[1].contains("stop 2:"), "a stop given as lat,lon is not listed: \(lines[1])")
        XCTAssertTrue(lines[1].hasSuffix("\""), lines[1])
        XCTAssertTrue(lines[2].hasSuffix(","), "no stop by name, an empty places field: \(lines[2])")
        // --strict-names for the whole batch; a job's strictNames: false overrides it.
        try """
        {"id": "a", "stops": ["Casino", "Stade Louis II"]}
        {"id": "b", "strictNames": false, "stops": ["Casino", "Stade Louis II"]}
        """.write(toFile: jobs, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["batch", "--graph", graph, "-i", jobs, "-o", out, "--strict-names", "--quiet"]).status, 7)
        let strictRows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(strictRows[0].contains("\"status\":\"bad_row\""), String(strictRows[0]))
        XCTAssertTrue(strictRows[1].contains("\"status\":\"ok\""), String(strictRows[1]))
    }
}
