import Foundation
import XCTest
import FuzzHarnesses
import Graph
import Transit

/// Every fuzz target over its committed seeds and over every input a fuzzing run ever found crashing
/// (`Tools/fuzz` copies them into Crashes/TARGET/): each must run to the end without a crash or trap.
final class FuzzRegressionTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The files of `Inputs/TARGET` and `Crashes/TARGET`.
    func inputs(_ target: FuzzTarget) -> [URL] {
        ["Inputs", "Crashes"].flatMap { kind -> [URL] in
            let dir = Self.folder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.sorted().map { dir.appendingPathComponent($0) }
        }
    }

    func testEveryTargetRunsItsSeedsAndPastCrashes() throws {
        XCTAssertTrue(FuzzTarget.prepare(), "the OSRM service over Monaco could not be made: the osrm-url target would test nothing")
        XCTAssertTrue(FuzzTarget.searchesPlaces, "the service has no place index: the /search/v1 inputs would test only its refusal")
        var replayed = 0
        for target in FuzzTarget.allCases {
            for file in inputs(target) {
                target.run(Array(try Data(contentsOf: file)))
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, 20)
    }

    /// The import targets do what they claim on their seeds: the drawn map of tagged ways (whose 41-digit maxspeed
    /// once made the import trap) imports and routes by car and on foot, and the default profile tables, and a bike
    /// and a bus table, import that map and route by each profile; a table with a speed out of range is refused.
    func testImportTargetsImportAndRoute() throws {
        let map = Array(try Data(contentsOf: Self.folder.appendingPathComponent("Graphs/tags.osm")))
        XCTAssertEqual(map.withUnsafeBytes { FuzzTarget.osmImport($0) }, 2)
        for (name, profiles) in [("car-and-foot.json", 2), ("bike-and-bus.json", 2)] {
            let tables = Array(try Data(contentsOf: Self.folder.appendingPathComponent("Inputs/profiles/\(name)")))
            XCTAssertEqual(tables.withUnsafeBytes { FuzzTarget.profiles($0) }, profiles, name)
        }
        let tooFast = Array(#"[{"name": "car", "highwaySpeeds": {"primary": 1e300}, "routableTags": {}, "defaultSpeed": 0, "#.utf8)
            + Array(#""neverRoutableHighways": [], "excludingTags": {}, "accessRules": [], "accessOverrideValues": [], "oneway": {"keys": [], "#.utf8)
            + Array(#""impliedByRoundabout": false, "impliedHighways": [], "reversibleIsUnroutable": false}, "blockingBarriers": [], "#.utf8)
            + Array(#""barrierAccessOverride": false, "blockingNodeTags": {}}]"#.utf8)
        XCTAssertEqual(tooFast.withUnsafeBytes { FuzzTarget.profiles($0) }, 0)
    }

    /// The graph-file target on a real graph file (imported from a small Monaco cut) and on cut-off copies of it.
    func testGraphFileTargetOnARealGraph() throws {
        let tiny = Self.folder.appendingPathComponent("Graphs/monaco-tiny.osm").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-regression-\(UUID().uuidString).wfg").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        // With its place index, as `wayfinder import` writes it (the target also searches it).
        let collector = PlaceCollector()
        var importer = GraphImporter()
        importer.places = collector
        importer.extensions = [PlaceIndexExtension(collector: collector)]
        _ = try importer.run(input: tiny, output: output)
        XCTAssertTrue(PlaceIndex.isPresent(in: try GraphFile(path: output)))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        XCTAssertGreaterThan(bytes.count, 1000)
        Self.runGraphFileTarget(on: bytes, cuts: [0, 8, 64, bytes.count / 2, bytes.count - 1], corruptions: 300, seed: 0x9E3779B97F4A7C15)
    }

    /// The graph-file target on `bytes`, on their first `cuts` bytes, and on `corruptions` copies with 1–4 bits
    /// flipped at seeded places (the target also tries each with every CRC recomputed, a hostile file).
    static func runGraphFileTarget(on bytes: [UInt8], cuts: [Int], corruptions: Int, seed: UInt64) {
        FuzzTarget.graphFile.run(bytes)
        for cut in cuts { FuzzTarget.graphFile.run(Array(bytes.prefix(cut))) }
        var state = seed
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(truncatingIfNeeded: state >> 33) }
        for _ in 0..<corruptions {
            var copy = bytes
            for _ in 0..<(1 + next() % 4) { copy[next() % copy.count] ^= UInt8(truncatingIfNeeded: 1 << (next() % 8)) }
            FuzzTarget.graphFile.run(copy)
        }
    }

    /// The graph-file target on a graph with a timetable (the tiny feed of Graphs/monaco-tiny-gtfs over the same cut),
    /// whose transit queries all answer on the intact file, and on cut-off and corrupted copies of it.
    func testGraphFileTargetOnAGraphWithATimetable() throws {
        let tiny = Self.folder.appendingPathComponent("Graphs/monaco-tiny.osm").path
        let feed = Self.folder.appendingPathComponent("Graphs/monaco-tiny-gtfs").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-regression-\(UUID().uuidString).wfg").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var importer = GraphImporter()
        importer.extensions = [TimetableExtension(feeds: [feed])]
        _ = try importer.run(input: tiny, output: output)
        XCTAssertEqual(FuzzTarget.planTransit(on: try RoadGraph(path: output)), 5, "every query of the target answers on the intact file")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        Self.runGraphFileTarget(on: bytes, cuts: [bytes.count / 3, bytes.count / 2, bytes.count - 1], corruptions: 200, seed: 0x2545F4914F6CDD1D)
    }

    /// The feed targets' tiny feed, as it is, builds and answers every transit query of the target (so a refused
    /// feed cannot pass for a survived one); one seed for each of its files goes through the `gtfs-feed` target.
    func testTheFeedTargetsTinyFeedBuildsAndAnswers() throws {
        let files = try XCTUnwrap(FuzzTarget.tinyFeedFiles())
        XCTAssertEqual(files.count, 9)
        XCTAssertEqual(FuzzTarget.buildAndPlan(files: files), 5)
        var broken = files
        broken["stop_times.txt"] = Array("trip_id,arrival_time\n".utf8)
        XCTAssertEqual(FuzzTarget.buildAndPlan(files: broken), 0, "a feed without its stop_times columns is refused")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("Inputs/gtfs-feed").path)
        XCTAssertEqual(Set(FuzzTarget.feedFiles.filter { files[$0] != nil }.map { "tiny-" + $0.replacingOccurrences(of: ".txt", with: "") })
                           .subtracting(seeds), [])
    }

    /// Hostile inputs of each kind, written by hand.
    func testHandWrittenHostileInputs() {
        let cases: [(FuzzTarget, String)] = [
            (.xml, "<osm><node id=\"-9223372036854775808\" lat=\"1e400\" lon=\"nan\"/><way id=\"1\"><nd ref=\"99999999999999999999\"/></way>"),
            (.xml, "<osm>" + String(repeating: "<node id=\"1\" lat=\"0\" lon=\"0\">", count: 200)),
            (.csv, "\"stop_id,stop_lat\n\"a\"b\",\"\n\u{FEFF}\r\r\n,,,,,,"),
            (.polyline, String(repeating: "~", count: 200)),
            (.polyline, "_p~iF~ps|U" + String(repeating: "\u{7f}", count: 3)),
            (.osrmURL, "/route/v1/driving/" + String(repeating: "0,0;", count: 600) + "0,0"),
            (.osrmURL, "/table/v1/car/1,1;2,2?sources=" + String(repeating: "0;", count: 1000) + "&annotations=distance"),
            (.osrmURL, "/nearest/v1/foot/7.4,43.7?number=1000000000000&radiuses=-1"),
            (.osrmURL, "/transit/v1/7.4270,43.7395;7.4197,43.7312?depart=9999-99-99T99:99&max_walk=nan"),
            (.osrmURL, "/roads?bbox=-180,-90,180,90"),
            (.osrmURL, "/search/v1?q=" + String(repeating: "ǅ\u{301}x ", count: 400) + "&near=nan,1e400&limit=-1&category=" + String(repeating: "=", count: 300)),
            (.osrmURL, "/search/v1?q=%00%FF%C0%80&near=181,91&limit=99999999999999999999"),
            (.osrmURL, "/transit/v1/table/" + String(repeating: "7.42,43.73;", count: 300) + "7.42,43.73?sources=0;0;0&depart=-1"),
            (.batchJobs, "{\"id\": 1, \"stops\": [[1e308, -1e308], [\"\", null]]}\n{\n"),
            (.batchJobs, "id,stops\n\"open quote,1,2\nnext,\"1,2;3,4\"\n"),
            (.httpHead, "\u{7f}GET http://host?x=1 HTTP/1.1\r\nHost: a\r\n\r\nGET " + String(repeating: " ", count: 400) + "/ HTTP/1.1\r\n\r\n"),
            (.httpHead, "\u{0}GET / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
            (.placesFile, "name,lat,lon,subtitle\n\"" + String(repeating: "é\u{301}", count: 500) + "\",91,181\n,nan,inf\n1e400,-1e400,x\n"),
            (.placesFile, String(repeating: "Casino\n", count: 50) + "\u{0}\r\u{FEFF}\n\"\n"),
            (.placesFile, "lat,lon\n" + String(repeating: "ǅ", count: 4097) + "\nc a s i n o\n-0,-0\n"),
        ]
        for (target, text) in cases { target.run(Array(text.utf8)) }
    }
}
