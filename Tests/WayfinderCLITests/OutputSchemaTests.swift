import Foundation
import TestSupport
import XCTest

/// Every JSON output of the CLI and batch, made on the bundled samples, validated against its schema in docs/schemas
/// by Tests/Scripts/validate_json.py (Python's jsonschema; skipped with a message when it is missing).
final class OutputSchemaTests: CLITestCase {
    private func validator() throws -> String {
        guard let python = tool("python3") else { throw XCTSkip("python3 is not installed") }
        let probe = try external(python, ["-c", "import jsonschema"])
        guard probe.status == 0 else { throw XCTSkip("the Python package jsonschema is not installed (pip install jsonschema)") }
        return python
    }

    /// Writes `text` to a file and checks it against docs/schemas/`schema`.schema.json.
    private func validate(_ text: String, _ schema: String, lines: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let python = try validator()
        let path = tmp("\(schema)-\(UUID().uuidString).json")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try external(python, [packageRoot.appendingPathComponent("Tests/Scripts/validate_json.py").path,
                                           packageRoot.appendingPathComponent("docs/schemas/\(schema).schema.json").path] + (lines ? ["--lines"] : []) + [path])
        XCTAssertEqual(result.status, 0, "\(schema): \(result.output)\n\(text.prefix(2000))", file: file, line: line)
    }

    private func output(_ arguments: [String], status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments)
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        return result.stdout
    }

    func testRoadOutputsMatchTheirSchemas() throws {
        _ = try validator()
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let depart = ["--depart", "2026-12-01T08:30", "--time-zone", "Europe/Monaco"]
        try validate(try output(["route", "--graph", graph, "--format", "json"] + depart + ["43.7393,7.4277", "43.7312,7.4203", "43.7276,7.4157"]), "route")
        try validate(try output(["route", "--graph", graph, "--format", "json", "--alternatives", "2", "--mode", "foot", "43.7393,7.4277", "43.7276,7.4157"]), "route")
        try validate(try output(["route", "--graph", graph, "--format", "json", "--straight", "43.7393,7.4277", "43.7276,7.4157"]), "route")
        try validate(try output(["eta", "--graph", graph, "--format", "json"] + depart + ["43.7393,7.4277", "43.7312,7.4203"]), "eta")

        let places = tmp("places.csv")
        try "name,lat,lon\nPort,43.7312,7.4197\n\"Stade Louis II, Fontvieille\",43.7275,7.4150\nSea,43.70,7.45\n".write(toFile: places, atomically: true, encoding: .utf8)
        let list = try output(["eta", "--graph", graph, "--from", "43.7395,7.4270", "--to-file", places, "--format", "json", "--sort"] + depart)
        try validate(list, "eta-list")
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["status"] as? String }, ["ok", "ok", "no_road"])
        XCTAssertTrue(entries[2]["location"] is NSNull, "a place without a road has no snapped location")

        let sights = tmp("sights.csv")
        try "name,lat,lon\nCasino,43.7393,7.4277\nPalace,43.7312,7.4203\nStade Louis II,43.7275,7.4150\n".write(toFile: sights, atomically: true, encoding: .utf8)
        let matrix = try output(["matrix", "--graph", graph, "--sources", sights, "--destinations", sights, "--format", "json"])
        try validate(matrix, "matrix")
        let m = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(matrix.utf8)) as? [String: Any])
        let source = try XCTUnwrap((m["sources"] as? [[String: Any]])?.first)
        XCTAssertEqual((source["query"] as? [String: Double])?["latitude"], 43.7393, "query is the coordinate asked")
        XCTAssertNotEqual(source["query"] as? [String: Double], source["location"] as? [String: Double], "location is the snapped point")

        try validate(try output(["trip", "--graph", graph, "--roundtrip", "--format", "json", "43.7384,7.4246", "43.7275,7.4150", "43.7402,7.4274"]), "trip")

        let error = try run(["route", "--graph", graph, "--format", "json", "43.70,7.45", "43.7312,7.4203"])
        XCTAssertEqual(error.status, 6)
        try validate(error.stderr, "error")
        let usage = try run(["route", "--graph", graph, "--format", "json", "--depart", "2026-13-01T08:30", "43.7393,7.4277", "43.7312,7.4203"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("month 13 is not 01 to 12"), usage.stderr)
        try validate(usage.stderr, "error")
    }

    func testBatchRowsMatchTheirSchema() throws {
        _ = try validator()
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let jobs = tmp("jobs.ndjson")
        try """
        {"id": "r1", "mode": "car", "depart": "2026-12-01T08:30", "stops": [[43.7395, 7.4270], [43.7312, 7.4197], [43.7275, 7.4150]]}
        {"id": "r2", "mode": "walking", "arrive": "2026-12-01T09:00:00+01:00", "stops": ["43.7395,7.4270", "43.7312,7.4197"]}
        {"id": "far", "stops": ["43.70,7.45", "43.7312,7.4197"]}
        {"id": "bad", "depart": "tomorrow", "stops": ["43.7395,7.4270", "43.7312,7.4197"]}
        """.write(toFile: jobs, atomically: true, encoding: .utf8)
        for extra in [[], ["--geometry", "polyline", "--steps"], ["--geometry", "polyline6"], ["--geometry", "geojson", "--steps"]] {
            let out = tmp("out-\(extra.joined()).ndjson")
            let result = try run(["batch", "--graph", graph, "--input", jobs, "--output", out, "--quiet", "--time-zone", "Europe/Monaco"] + extra)
            XCTAssertEqual(result.status, 7, result.stderr)
            let text = try String(contentsOfFile: out, encoding: .utf8)
            try validate(text, "batch-job", lines: true)
            let rows = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            XCTAssertEqual(rows.map { $0["status"] as? String }, ["ok", "ok", "no_road", "bad_row"])
            if extra.contains("geojson") {
                let geometry = try XCTUnwrap(rows[0]["geometry"] as? [String: Any])
                XCTAssertEqual(geometry["type"] as? String, "LineString", "a GeoJSON geometry, not a FeatureCollection")
            }
        }
    }

    func testTransitOutputsMatchTheirSchemas() throws {
        _ = try validator()
        let graph = tmp("terre-haute.wfg")
        let imported = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks", "-o", graph, "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let trip = ["--mode", "transit", "--format", "json", "--depart", "2017-05-10T09:00", "39.48577,-87.39769", "39.4565472,-87.4164615"]
        try validate(try output(["route", "--graph", graph] + trip), "transit-route")
        try validate(try output(["eta", "--graph", graph] + trip), "eta")
        let stops = tmp("stops.csv")
        try "name,lat,lon\nFarrington,39.4565472,-87.4164615\nPlum,39.48577,-87.39769\nSea,0.5,0.5\n".write(toFile: stops, atomically: true, encoding: .utf8)
        let list = ["eta", "--graph", graph, "--mode", "transit", "--from", "39.4700,-87.4100", "--to-file", stops, "--format", "json",
                    "--depart", "2017-05-10T09:00"]
        try validate(try output(list), "eta-list")
        try validate(try output(list + ["--depart-window", "30m"]), "eta-list")
    }

    func testOutputsOfStopsGivenByNameMatchTheirSchemas() throws {
        _ = try validator()
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let stops = ["Casino de Monte Carlo", "43.7312,7.4197", "Stade Louis II"]
        try validate(try output(["route", "--graph", graph, "--format", "json"] + stops), "route")
        try validate(try output(["eta", "--graph", graph, "--format", "json"] + stops), "eta")
        try validate(try output(["trip", "--graph", graph, "--format", "json"] + stops), "trip")
        let names = tmp("names.csv")
        try "name\nCasino de Monte Carlo\n43.7312,7.4197,Port\nStade Louis II\n".write(toFile: names, atomically: true, encoding: .utf8)
        try validate(try output(["matrix", "--graph", graph, "--sources", names, "--destinations", names, "--format", "json"]), "matrix")
        try validate(try output(["eta", "--graph", graph, "--from", "Casino de Monte Carlo", "--to-file", names, "--format", "json"]), "eta-list")
        let jobs = tmp("jobs.ndjson"), rows = tmp("rows.ndjson")
        try "{\"id\": \"n\", \"stops\": [\"Casino de Monte Carlo\", [43.7312, 7.4197], \"Stade Louis II\"]}\n".write(toFile: jobs, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["batch", "--graph", graph, "-i", jobs, "-o", rows, "--quiet", "--geometry", "polyline"]).status, 0)
        let row = try String(contentsOfFile: rows, encoding: .utf8)
        XCTAssertTrue(row.contains("\"places\":["), row)
        try validate(row, "batch-job", lines: true)

        // By transit, GTFS stops by name (a file without hierarchies leaves room for the place index).
        let transit = tmp("terre-haute.wfg")
        let imported = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks", "--no-ch", "-o", transit, "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let ride = ["--mode", "transit", "--format", "json", "--depart", "2017-05-10T09:00", "9th & Wabash", "39.4565472,-87.4164615"]
        let document = try output(["route", "--graph", transit] + ride)
        XCTAssertTrue(document.contains("\"categoryKey\":\"gtfs\""), document)
        try validate(document, "transit-route")
        try validate(try output(["eta", "--graph", transit] + ride), "eta")
        // (trip.schema.json describes road trips only; a transit trip's `directions` is the transit-route document.)
        let transitTrip = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try output(["trip", "--graph", transit] + ride).utf8)) as? [String: Any])
        XCTAssertEqual(((transitTrip["places"] as? [Any])?.first as? [String: Any])?["name"] as? String, "9th & Wabash")
    }

    func testNearbyAndBatchTransitOutputsMatchTheirSchemas() throws {
        _ = try validator()
        // Without contraction hierarchies, so that the file has room for its place index beside the timetable.
        let graph = tmp("terre-haute-places.wfg")
        let imported = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks", "--no-ch",
                                "-o", graph, "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let nearby = ["nearby", "--graph", graph, "--from", "39.49,-87.38", "--category", "restaurant", "--format", "json", "--depart", "2017-05-10T09:00"]
        try validate(try output(nearby + ["--mode", "transit", "--within", "10000"]), "nearby")
        try validate(try output(nearby + ["--mode", "transit", "--within", "3000"]), "nearby")
        try validate(try output(nearby + ["--mode", "car"]), "nearby")
        try validate(try output(nearby + ["--mode", "transit", "--within", "10000", "--by", "2017-05-10T10:00"]), "nearby")
        try validate(try output(nearby + ["--mode", "transit", "--within", "10000", "--directions", "1"]), "transit-route")
        try validate(try output(nearby + ["--mode", "foot", "--within", "10000", "--directions", "1"]), "route")
        let jobs = tmp("transit-jobs.ndjson")
        try """
        {"id": "bus", "mode": "transit", "depart": "2017-05-10T09:00:00-04:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        {"id": "late", "mode": "transit", "depart": "2030-05-10T09:00:00-04:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        """.write(toFile: jobs, atomically: true, encoding: .utf8)
        for extra in [[], ["--geometry", "geojson", "--steps"]] {
            let out = tmp("transit-out-\(extra.joined()).ndjson")
            let result = try run(["batch", "--graph", graph, "--input", jobs, "--output", out, "--quiet"] + extra)
            XCTAssertEqual(result.status, 7, result.stderr)
            try validate(try String(contentsOfFile: out, encoding: .utf8), "batch-job", lines: true)
        }
    }

    func testPlacesOutputsMatchTheirSchema() throws {
        _ = try validator()
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        try validate(try output(["places", "--graph", graph, "--format", "json", "--near", "43.7336,7.4203", "pizza"]), "places")
        try validate(try output(["places", "--graph", graph, "--format", "json", "--category", "restaurant", "--limit", "50"]), "places")
        try validate(try output(["places", "--graph", graph, "--format", "json", "--categories"]), "places")
    }
}
