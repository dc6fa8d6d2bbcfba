import Foundation
import XCTest
import TestSupport

/// `wayfinder matrix` and `wayfinder trip` on Monaco: output shapes, agreement with `eta`, the graph without
/// hierarchies, and bad input (empty and malformed files, a place at sea, the size limit).
final class MatrixTripCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-matrixcli-\(getpid())")
    static let places = """
    lat,lon,name
    43.7312,7.4197,Port Hercule
    43.7275,7.4150,"Stade Louis II, Fontvieille"
    43.7395,7.4270,Casino
    43.7445,7.4340,Larvotto
    """
    static let stops = ["43.7395,7.4270", "43.7275,7.4150", "43.7445,7.4340", "43.7312,7.4197", "43.7390,7.4200"]

    /// Monaco imported once per run, with (default) and without hierarchies.
    func monaco(hierarchies: Bool = true) throws -> String {
        let path = Self.folder.appendingPathComponent(hierarchies ? "monaco.wfg" : "monaco-no-ch.wfg").path
        if FileManager.default.fileExists(atPath: path) { return path }
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let result = try run(["import", sample("monaco.osm.gz"), "-o", path, "--quiet"] + (hierarchies ? [] : ["--no-ch"]))
        XCTAssertEqual(result.status, 0, result.stderr)
        return path
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func file(_ text: String, _ name: String) throws -> String {
        let path = tmp(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The CSV rows as (source, destination, duration, distance), empty cells as nil.
    func rows(_ csv: String) -> [(Int, Int, Double?, Double?)] {
        csv.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return (Int(fields[0])!, Int(fields[1])!, Double(fields[fields.count - 2]), Double(fields[fields.count - 1]))
        }
    }

    func testCSVMatrixEqualsETAsAndTheGraphWithoutHierarchies() throws {
        let places = try file(Self.places, "places.csv")
        let result = try run(["matrix", "--graph", try monaco(), "--sources", places, "--destinations", places])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("source,destination,sourceName,destinationName,expectedTravelTime,distance\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("2,1,\"Stade Louis II, Fontvieille\",Port Hercule,"), result.stdout)
        let matrix = rows(result.stdout)
        XCTAssertEqual(matrix.count, 16)
        for (i, j, duration, distance) in matrix where i == j { XCTAssertEqual(duration, 0); XCTAssertEqual(distance, 0) }
        // Entries equal the ETA of the same pair.
        let coordinates = Self.places.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        for (i, j, duration, distance) in matrix where i != j && (i + j) % 3 == 0 {
            let eta = try run(["eta", "--graph", try monaco(), "--format", "json", coordinates[i - 1], coordinates[j - 1]])
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(eta.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(try XCTUnwrap(duration), try XCTUnwrap(json["expectedTravelTime"] as? Double), accuracy: 0.11, "\(i)→\(j)")
            XCTAssertEqual(try XCTUnwrap(distance), try XCTUnwrap(json["distance"] as? Double), accuracy: 0.11, "\(i)→\(j)")
        }
        // Without hierarchies (one Dijkstra per source) the same figures.
        let plain = try run(["matrix", "--graph", try monaco(hierarchies: false), "--sources", places, "--destinations", places])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        for (a, b) in zip(matrix, rows(plain.stdout)) {
            XCTAssertEqual(a.0, b.0); XCTAssertEqual(a.1, b.1)
            XCTAssertEqual(a.2 ?? -1, b.2 ?? -1, accuracy: 0.11)
        }
    }

    func testJSONMatrixOnFootWithDuplicatesAndPlainLatLonLines() throws {
        let sources = try file("43.7312,7.4197\n43.7312,7.4197\n", "sources.csv")
        let destinations = try file(Self.places, "destinations.csv")
        let result = try run(["matrix", "--graph", try monaco(), "--mode", "foot", "--sources", sources, "--destinations", destinations, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["mode"] as? String, "foot")
        let durations = try XCTUnwrap(json["expectedTravelTimes"] as? [[Any]])
        XCTAssertEqual(durations.count, 2)
        XCTAssertEqual(durations[0].count, 4)
        XCTAssertEqual(durations[0].map { "\($0)" }, durations[1].map { "\($0)" }, "duplicate sources give equal rows")
        XCTAssertEqual((json["destinations"] as? [[String: Any]])?[1]["name"] as? String, "Stade Louis II, Fontvieille")
        XCTAssertEqual((json["sources"] as? [[String: Any]])?[0]["name"] as? String, "")
    }

    func testBadMatrixInput() throws {
        let good = try file(Self.places, "good.csv")
        let empty = try run(["matrix", "--graph", try monaco(), "--sources", try file("lat,lon\n\n", "empty.csv"), "--destinations", good])
        XCTAssertEqual(empty.status, 3)
        XCTAssertTrue(empty.stderr.contains("empty.csv: no places"), empty.stderr)
        let malformed = try run(["matrix", "--graph", try monaco(), "--sources", good, "--destinations", try file("43.73,7.42\n43.73;7.42\n", "bad.csv")])
        XCTAssertEqual(malformed.status, 3)
        XCTAssertTrue(malformed.stderr.contains("bad.csv:2:"), malformed.stderr)
        let sea = try run(["matrix", "--graph", try monaco(), "--sources", good, "--destinations", try file("43.73,7.42\n43.70,7.45\n", "sea.csv")])
        XCTAssertEqual(sea.status, 6)
        XCTAssertTrue(sea.stderr.contains("sea.csv: destination 2"), sea.stderr)
        let big = try run(["matrix", "--graph", try monaco(), "--sources", good, "--destinations", good, "--max-size", "3"])
        XCTAssertEqual(big.status, 3)
        XCTAssertTrue(big.stderr.contains("larger than the limit of 3 × 3"), big.stderr)
        XCTAssertEqual(big.stdout, "")
        let missing = try run(["matrix", "--graph", try monaco(), "--sources", good])
        XCTAssertEqual(missing.status, 2)
        // A transit matrix needs a departure time, and a graph with a timetable: refused, not quietly answered on foot.
        let transit = try run(["matrix", "--graph", try monaco(), "--mode", "transit", "--sources", good, "--destinations", good])
        XCTAssertEqual(transit.status, 2)
        XCTAssertTrue(transit.stderr.contains("by transit needs --depart"), transit.stderr)
        XCTAssertEqual(transit.stdout, "")
        let noTimetable = try run(["matrix", "--graph", try monaco(), "--mode", "transit", "--sources", good, "--destinations", good,
                                   "--depart", "2026-12-01T08:30"])
        XCTAssertEqual(noTimetable.status, 3, noTimetable.stderr)
        XCTAssertTrue(noTimetable.stderr.contains("--gtfs"), noTimetable.stderr)
    }

    func testTripReordersAndSavesAgainstTheGivenOrder() throws {
        let result = try run(["trip", "--graph", try monaco(), "--roundtrip", "--format", "json"] + Self.stops)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let trip = try XCTUnwrap(json["trip"] as? [String: Any])
        let order = try XCTUnwrap(trip["order"] as? [Int])
        XCTAssertEqual(order.first, 0)
        XCTAssertEqual(Set(order), Set(0..<5))
        let total = try XCTUnwrap(trip["expectedTravelTime"] as? Double), given = try XCTUnwrap(trip["givenOrderTravelTime"] as? Double)
        XCTAssertLessThan(total, given, "the stops were given in a poor order")
        XCTAssertEqual(try XCTUnwrap(trip["saving"] as? Double), given - total, accuracy: 0.11)
        let directions = try XCTUnwrap(json["directions"] as? [String: Any])
        XCTAssertEqual((directions["waypoints"] as? [Any])?.count, 6, "a round trip comes back to the first stop")
        let route = try XCTUnwrap((directions["routes"] as? [[String: Any]])?.first)
        XCTAssertEqual(try XCTUnwrap(route["expectedTravelTime"] as? Double), total, accuracy: 0.11)

        let text = try run(["trip", "--graph", try monaco(), "--end-fixed"] + Self.stops)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("last stop fixed"), text.stdout)
        let orderLine = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.contains("order") })
        XCTAssertTrue(orderLine.hasSuffix("→ 5"), String(orderLine))
        XCTAssertTrue(orderLine.contains("order        1 →"), String(orderLine))

        let stopsFile = try file(Self.stops.joined(separator: "\n") + "\n", "stops.csv")
        let fromFile = try run(["trip", "--graph", try monaco(), "--roundtrip", "--format", "geojson", "--stops-file", stopsFile])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(fromFile.stdout.utf8)))
    }

    func testTripBadInput() throws {
        XCTAssertEqual(try run(["trip", "--graph", try monaco(), Self.stops[0]]).status, 2)
        XCTAssertEqual(try run(["trip", "--graph", try monaco(), "--roundtrip", "--end-fixed"] + Self.stops).status, 2)
        let sea = try run(["trip", "--graph", try monaco(), Self.stops[0], "43.70,7.45"])
        XCTAssertEqual(sea.status, 6)
        XCTAssertTrue(sea.stderr.contains("stop 2"), sea.stderr)
        let transit = try run(["trip", "--graph", try monaco(), "--mode", "transit"] + Self.stops)
        XCTAssertEqual(transit.status, 2)
        XCTAssertTrue(transit.stderr.contains("by transit needs --depart"), transit.stderr)
        let noTimetable = try run(["trip", "--graph", try monaco(), "--mode", "transit", "--depart", "2026-12-01T08:30"] + Self.stops)
        XCTAssertEqual(noTimetable.status, 3, noTimetable.stderr)
    }
}
