import Foundation
import XCTest

/// `wayfinder eta --from STOP --to-file PLACES`: the one-to-many ETA list on Monaco, in text, JSON and CSV,
/// sorted and unsorted, with places off the road network and malformed places files.
final class OneToManyCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-o2mcli-\(getpid())")
    static let casino = "43.7395,7.4270"
    static let morning = ["--depart", "2026-12-01T08:30", "--time-zone", "Europe/Monaco"]

    /// Ten Monaco places (one with a comma in its name) and one at sea.
    static let places = """
    name,lat,lon
    Port Hercule,43.7312,7.4197
    "Stade Louis II, Fontvieille",43.7275,7.4150
    Palais,43.7311,7.4200
    Casino,43.7395,7.4270
    Larvotto,43.7445,7.4340
    Jardin Exotique,43.7310,7.4120
    Gare,43.7390,7.4200

    Moneghetti,43.7360,7.4150
    Condamine,43.7350,7.4200
    Sea,43.70,7.45
    """

    func monaco() throws -> String { try monacoGraph(in: Self.folder) }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func placesFile(_ text: String = places, name: String = "places.csv") throws -> String {
        let path = tmp(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func eta(_ arguments: [String]) throws -> RunResult {
        try run(["eta", "--graph", try monaco(), "--from", Self.casino, "--to-file", try placesFile()] + Self.morning + arguments)
    }

    func jsonRows(_ arguments: [String] = []) throws -> [[String: Any]] {
        let result = try eta(["--format", "json"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    func testJSONRowsInFileOrderMatchSingleETAs() throws {
        let rows = try jsonRows()
        XCTAssertEqual(rows.map { $0["name"] as? String }, ["Port Hercule", "Stade Louis II, Fontvieille", "Palais", "Casino", "Larvotto",
                                                            "Jardin Exotique", "Gare", "Moneghetti", "Condamine", "Sea"])
        XCTAssertEqual(rows[3]["expectedTravelTime"] as? Double, 0)
        XCTAssertEqual(rows[9]["status"] as? String, "no_road")
        XCTAssertTrue(rows[9]["expectedTravelTime"] is NSNull)
        // Each reachable row agrees with a single `eta --format json` for the pair.
        for row in rows.prefix(3) {
            let query = try XCTUnwrap(row["query"] as? [String: Double])
            let stop = "\(query["latitude"]!),\(query["longitude"]!)"
            let single = try run(["eta", "--graph", try monaco(), "--format", "json"] + Self.morning + [Self.casino, stop])
            XCTAssertEqual(single.status, 0, single.stderr)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(row["status"] as? String, "ok")
            XCTAssertEqual(try XCTUnwrap(row["expectedTravelTime"] as? Double), try XCTUnwrap(object["expectedTravelTime"] as? Double), accuracy: 0.2)
            XCTAssertEqual(try XCTUnwrap(row["distance"] as? Double), try XCTUnwrap(object["distance"] as? Double), accuracy: 1)
            XCTAssertEqual(row["expectedArrivalDate"] as? String, object["expectedArrivalDate"] as? String)
        }
    }

    func testSortOrdersByETAUnreachableLast() throws {
        let rows = try jsonRows(["--sort"])
        XCTAssertEqual(rows.count, 10)
        XCTAssertEqual(rows.first?["name"] as? String, "Casino")
        XCTAssertEqual(rows.last?["name"] as? String, "Sea")
        let times = rows.dropLast().map { $0["expectedTravelTime"] as? Double ?? .infinity }
        XCTAssertEqual(times, times.sorted())
        XCTAssertTrue(times.allSatisfy { $0.isFinite })
    }

    func testCSVAndText() throws {
        let csv = try eta(["--format", "csv", "--sort"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let lines = csv.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status")
        XCTAssertEqual(lines.count, 11)
        XCTAssertEqual(lines.last, "Sea,43.7,7.45,,,,no_road")
        XCTAssertTrue(lines.contains { $0.hasPrefix("\"Stade Louis II, Fontvieille\",43.7275,7.415,") && $0.hasSuffix("+01:00,ok") }, csv.stdout)
        XCTAssertTrue(lines.contains("Casino,43.7395,7.427,0,0,2026-12-01T08:30:00+01:00,ok"), csv.stdout)

        let text = try eta([])
        XCTAssertEqual(text.status, 0, text.stderr)
        let rows = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 11)
        XCTAssertTrue(rows[0].hasPrefix("place"))
        XCTAssertTrue(rows[2].hasPrefix("Stade Louis II, Fontvieille"))
        XCTAssertTrue(rows[2].hasSuffix("+01:00"), rows[2])
        XCTAssertTrue(rows[10].hasPrefix("Sea") && rows[10].hasSuffix("no road"), rows[10])
        // Aligned: the arrival column starts at the same place in every reachable row.
        let columns = Set(rows.dropFirst().filter { $0.contains("2026-") }.map { $0.range(of: "2026-")!.lowerBound.utf16Offset(in: $0) })
        XCTAssertEqual(columns.count, 1, text.stdout)
    }

    func testCRLFAndLoneCRLineEndsReadAsLines() throws {
        let lf = try eta(["--format", "json"])
        XCTAssertEqual(lf.status, 0, lf.stderr)
        for (end, name) in [("\r\n", "crlf.csv"), ("\r", "cr.csv")] {
            let path = try placesFile(Self.places.replacingOccurrences(of: "\n", with: end) + end, name: name)
            let result = try run(["eta", "--graph", try monaco(), "--from", Self.casino, "--to-file", path, "--format", "json"] + Self.morning)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, lf.stdout, name)
            // matrix --sources reads the same files (without the place at sea, which a matrix refuses).
            let land = try placesFile(Self.places.replacingOccurrences(of: "\nSea,43.70,7.45", with: "").replacingOccurrences(of: "\n", with: end), name: "land-" + name)
            let matrix = try run(["matrix", "--graph", try monaco(), "--sources", land, "--destinations", land, "--format", "json"])
            XCTAssertEqual(matrix.status, 0, matrix.stderr)
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(matrix.stdout.utf8)) as? [String: Any])
            XCTAssertEqual((doc["expectedTravelTimes"] as? [Any])?.count, 9, name)
        }
        // A bad line of a CRLF file is named by its own number.
        let bad = try placesFile("name,lat,lon\r\nA,43.73,7.42\r\nB,43.73\r\n", name: "bad-crlf.csv")
        let result = try run(["eta", "--graph", try monaco(), "--from", Self.casino, "--to-file", bad])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("bad-crlf.csv:3"), result.stderr)
    }

    func testMalformedLineIsABadInputErrorNamingFileAndLine() throws {
        let path = try placesFile("name,lat,lon\nA,43.73,7.42\n\nB,43.73\n", name: "bad.csv")
        let result = try run(["eta", "--graph", try monaco(), "--from", Self.casino, "--to-file", path])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("bad.csv:4"), result.stderr)
        XCTAssertEqual(result.stdout, "")

        let quote = try placesFile("\"Unclosed,43.73,7.42\n", name: "quote.csv")
        let quoted = try run(["eta", "--graph", try monaco(), "--from", Self.casino, "--to-file", quote])
        XCTAssertEqual(quoted.status, 3)
        XCTAssertTrue(quoted.stderr.contains("quote.csv:1"), quoted.stderr)
    }

    func testMissingFileOriginAtSeaAndPairFormStillWorks() throws {
        let missing = try run(["eta", "--graph", try monaco(), "--from", Self.casino, "--to-file", tmp("nope.csv")])
        XCTAssertEqual(missing.status, 3, missing.stderr)
        let sea = try run(["eta", "--graph", try monaco(), "--from", "43.70,7.45", "--to-file", try placesFile()])
        XCTAssertEqual(sea.status, 6, sea.stderr)
        let noFile = try run(["eta", "--graph", try monaco(), "--from", Self.casino])
        XCTAssertEqual(noFile.status, 2)
        let pair = try run(["eta", "--graph", try monaco()] + Self.morning + [Self.casino, "43.7275,7.4150"])
        XCTAssertEqual(pair.status, 0, pair.stderr)
        XCTAssertTrue(pair.stdout.contains("depart 08:30"), pair.stdout)
        let routeRejects = try run(["route", "--graph", try monaco(), "--from", Self.casino, "--to-file", try placesFile()])
        XCTAssertEqual(routeRejects.status, 2)
    }
}
