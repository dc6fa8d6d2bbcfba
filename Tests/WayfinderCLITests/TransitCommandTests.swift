import Foundation
import XCTest
import TestSupport

/// `wayfinder import --gtfs`, `info`, `route --mode transit` and `eta --mode transit` on the Terre Haute sample
/// (imported once for the class): every output format, limits, and the exit codes of bad feeds and dates.
final class TransitCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-transitcli-\(getpid())")
    static let graphPath = folder.appendingPathComponent("terre-haute.wfg").path
    /// 13th & Plum and University Apartments: about 4 km apart, buses between them on weekdays.
    static let north = "39.48577,-87.39769"
    static let south = "39.4565472,-87.4164615"
    static let morning = ["--depart", "2017-05-10T09:00"]

    func terreHaute(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if FileManager.default.fileExists(atPath: Self.graphPath) { return Self.graphPath }
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let result = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks",
                              "-o", Self.graphPath, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return Self.graphPath
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func transit(_ arguments: [String], command: String = "route") throws -> RunResult {
        try run([command, "--graph", try terreHaute(), "--mode", "transit"] + arguments)
    }

    func testImportSummaryAndInfoReportTheTimetable() throws {
        let graph = try terreHaute()
        let info = try run(["info", graph])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("Terre Haute Transit (America/New_York)"), info.stdout)
        XCTAssertTrue(info.stdout.contains("stops       115"), info.stdout)
        XCTAssertTrue(info.stdout.contains("service     2015-01-01 to 2017-12-30"), info.stdout)
        XCTAssertTrue(info.stdout.contains("transit.arr"), info.stdout)
        let again = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks", "-o", tmp("t.wfg"), "--quiet"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("trips       144 read"), again.stdout)
        XCTAssertTrue(again.stdout.contains("skipped     nothing"), again.stdout)
        // Only the output file is left behind: no temporary road graph.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path).filter { !$0.hasPrefix(".stdout") && !$0.hasPrefix(".stderr") }, ["t.wfg"])
    }

    func testTextRoute() throws {
        let result = try transit(Self.morning + [Self.north, Self.south])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Wayfinder transit route: 2 stops"), result.stdout)
        XCTAssertTrue(result.stdout.contains("bus "), result.stdout)
        XCTAssertTrue(result.stdout.contains("-04:00"), result.stdout)   // the agency's zone, summer time
    }

    func testJSONCarriesLegsWithTheirProperties() throws {
        let result = try transit(Self.morning + ["--format", "json", Self.north, Self.south])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["mode"] as? String, "transit")
        let legs = try XCTUnwrap(object["legs"] as? [[String: Any]])
        let plan = legs[0]
        let itineraries = try XCTUnwrap(plan["itineraries"] as? [[String: Any]])
        let best = itineraries[try XCTUnwrap(plan["best"] as? Int)]
        let parts = try XCTUnwrap(best["legs"] as? [[String: Any]])
        let ride = try XCTUnwrap(parts.first { $0["kind"] as? String == "ride" })
        XCTAssertEqual(ride["agency"] as? String, "Terre Haute Transit")
        XCTAssertEqual(ride["transitMode"] as? String, "bus")
        XCTAssertNotNil(ride["headsign"])
        XCTAssertNotNil((ride["from"] as? [String: Any])?["name"])
        XCTAssertTrue((ride["expectedDepartureDate"] as? String)?.hasSuffix("-04:00") == true)
    }

    func testGeoJSONAndGPX() throws {
        let geojson = try transit(Self.morning + ["--format", "geojson", Self.north, Self.south])
        XCTAssertEqual(geojson.status, 0, geojson.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let features = try XCTUnwrap(object["features"] as? [[String: Any]])
        let kinds = features.compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String }
        XCTAssertTrue(kinds.contains("ride") && kinds.contains("walk") && kinds.contains("board"), "\(kinds)")
        let gpx = try transit(Self.morning + ["--format", "gpx", Self.north, Self.south])
        XCTAssertEqual(gpx.status, 0, gpx.stderr)
        XCTAssertTrue(gpx.stdout.contains("<type>bus</type>") && gpx.stdout.contains("<type>walk</type>"), gpx.stdout)
        let polyline = try transit(Self.morning + ["--format", "polyline", Self.north, Self.south])
        XCTAssertEqual(polyline.status, 0, polyline.stderr)
        XCTAssertEqual(polyline.stdout.split(separator: "\n").count, 1)
    }

    func testArriveByAndETA() throws {
        let arrive = try transit(["--arrive", "2017-05-10T10:00", "--format", "json", Self.north, Self.south], command: "eta")
        XCTAssertEqual(arrive.status, 0, arrive.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(arrive.stdout.utf8)) as? [String: Any])
        let arrival = try XCTUnwrap(object["expectedArrivalDate"] as? String)
        XCTAssertLessThanOrEqual(arrival, "2017-05-10T10:00:00-04:00")
        XCTAssertNotNil(object["transfers"] as? Int)
        XCTAssertNotNil(object["walkingDistance"])
        let text = try transit(Self.morning + [Self.north, Self.south], command: "eta")
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Travel time"), text.stdout)
    }

    func testDateOutsideTheFeedIsAUsageError() throws {
        let result = try transit(["--depart", "2026-12-01T08:30", Self.north, Self.south])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("outside the feed's service range 2015-01-01 to 2017-12-30"), result.stderr)
    }

    func testBadLimitsAndAGraphWithoutTimetable() throws {
        XCTAssertEqual(try transit(["--max-transfers", "9", Self.north, Self.south]).status, 2)
        XCTAssertEqual(try transit(["--max-walk", "far", Self.north, Self.south]).status, 2)
        let roads = try run(["import", sample("terre-haute.osm.gz"), "--no-landmarks", "-o", tmp("roads.wfg"), "--quiet"])
        XCTAssertEqual(roads.status, 0)
        let result = try run(["route", "--graph", tmp("roads.wfg"), "--mode", "transit", Self.north, Self.south])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("holds no timetable"), result.stderr)
    }

    func testBadFeedsAreReportedWithFileAndColumn() throws {
        let feed = temp.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        try Data("agency_name,agency_timezone\nX,UTC\n".utf8).write(to: feed.appendingPathComponent("agency.txt"))
        try Data("stop_id,stop_lat\nA,1\n".utf8).write(to: feed.appendingPathComponent("stops.txt"))
        let result = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", feed.path, "--no-landmarks", "-o", tmp("bad.wfg"), "--quiet"])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("stops.txt has no column 'stop_lon'"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("bad.wfg")))
        let missing = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", tmp("nothing.zip"), "--no-landmarks", "-o", tmp("bad.wfg"), "--quiet"])
        XCTAssertEqual(missing.status, 3)
        XCTAssertTrue(missing.stderr.contains("nothing.zip"), missing.stderr)
    }
}
