import Batch
import Foundation
import Routing
import XCTest

/// Job files: CSV quoting, NDJSON, format detection, bad rows with line numbers, places, shard hashing, resume scanning.
final class BatchTests: XCTestCase {
    var folder: URL!
    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("batchtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func write(_ text: String, _ name: String = "jobs") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func items(_ text: String, places: PlaceBook = PlaceBook()) throws -> (BatchInputFormat, [BatchItem]) {
        let reader = try JobReader(path: try write(text), places: places, timeZone: TimeZone(identifier: "UTC")!)
        var all: [BatchItem] = []
        while let item = reader.next() { all.append(item) }
        return (reader.format, all)
    }

    func testCSVFieldsWithQuotesAndEmbeddedCommas() throws {
        XCTAssertEqual(try CSV.fields("a,\"b,c\",\"say \"\"hi\"\"\",,d"), ["a", "b,c", "say \"hi\"", "", "d"])
        XCTAssertEqual(try CSV.fields("x\r"), ["x"])
        XCTAssertThrowsError(try CSV.fields("a,\"open"))
        XCTAssertThrowsError(try CSV.fields("a,b\"c"))
        XCTAssertEqual(CSV.quote("a,b"), "\"a,b\"")
        XCTAssertEqual(CSV.quote("q\""), "\"q\"\"\"")
    }

    func testCSVJobs() throws {
        let (format, all) = try items("""
        id,mode,depart,stops
        j1,car,2026-12-01T08:30,"43.7395,7.4270;43.7312,7.4197"
        "j,2",foot,,"43.7395,7.4270;43.7312,7.4197;43.7275,7.4150"
        """)
        XCTAssertEqual(format, .csv)
        XCTAssertEqual(all.count, 2)
        guard case let .job(a) = all[0], case let .job(b) = all[1] else { return XCTFail("\(all)") }
        XCTAssertEqual(a.id, "j1"); XCTAssertEqual(a.mode, "car"); XCTAssertEqual(a.line, 2)
        XCTAssertEqual(a.depart, ISO8601DateFormatter().date(from: "2026-12-01T08:30:00Z"))
        XCTAssertEqual(a.stops, [Coordinate(latitude: 43.7395, longitude: 7.4270), Coordinate(latitude: 43.7312, longitude: 7.4197)])
        XCTAssertEqual(b.id, "j,2"); XCTAssertEqual(b.mode, "foot"); XCTAssertNil(b.depart); XCTAssertEqual(b.stops.count, 3); XCTAssertEqual(b.line, 3)
    }

    func testCSVArriveColumnAndPlaces() throws {
        let places = PlaceBook(["Casino": Coordinate(latitude: 43.7395, longitude: 7.4270)])
        let (_, all) = try items("id,stops,arrive\nx,\"Casino;43.7312,7.4197\",2026-12-01T09:00\n", places: places)
        guard case let .job(x) = all[0] else { return XCTFail("\(all)") }
        XCTAssertEqual(x.stops[0], Coordinate(latitude: 43.7395, longitude: 7.4270))
        XCTAssertNotNil(x.arrive); XCTAssertNil(x.depart)
    }

    func testNDJSONJobs() throws {
        let (format, all) = try items("""
        {"id": "n1", "mode": "car", "depart": "2026-12-01T08:30", "stops": [[43.7395, 7.4270], [43.7312, 7.4197]]}

        {"id": "n2", "stops": ["43.7395,7.4270", "43.7312,7.4197"]}
        """)
        XCTAssertEqual(format, .ndjson)
        XCTAssertEqual(all.map(\.id), ["n1", "n2"])
        guard case let .job(n2) = all[1] else { return XCTFail() }
        XCTAssertEqual(n2.line, 3)
        XCTAssertEqual(n2.stops[1], Coordinate(latitude: 43.7312, longitude: 7.4197))
    }

    func testBadRowsFailAloneWithLineNumbers() throws {
        let (_, all) = try items("""
        {"id": "ok", "stops": [[43.7, 7.4], [43.8, 7.5]]}
        {"id": "boat", "mode": "boat", "stops": [[43.7, 7.4], [43.8, 7.5]]}
        {not json
        {"id": "date", "depart": "tomorrow", "stops": [[43.7, 7.4], [43.8, 7.5]]}
        {"id": "one", "stops": [[43.7, 7.4]]}
        {"id": "name", "stops": ["Nowhere", [43.8, 7.5]]}
        {"id": "last", "stops": [[43.7, 7.4], [43.8, 7.5]]}
        """)
        XCTAssertEqual(all.count, 7)
        guard case .job = all[0], case .job = all[6] else { return XCTFail("\(all)") }
        let bad = all[1...5].compactMap { item -> (String, Int, String)? in
            if case let .bad(id, line, message) = item { return (id, line, message) }
            return nil
        }
        XCTAssertEqual(bad.map(\.0), ["boat", "line 3", "date", "one", "name"])
        XCTAssertEqual(bad.map(\.1), [2, 3, 4, 5, 6])
        XCTAssertTrue(bad[0].2.contains("line 2") && bad[0].2.contains("boat"))
        XCTAssertTrue(bad[4].2.contains("stop 1 'Nowhere'"), bad[4].2)
    }

    func testDetectionRejectsOtherContent() throws {
        XCTAssertThrowsError(try JobReader(path: try write("hello world\nfoo\n"))) { XCTAssertTrue("\($0)".contains("neither NDJSON")) }
        XCTAssertThrowsError(try JobReader(path: try write("   \n\n"))) { XCTAssertTrue("\($0)".contains("empty")) }
        XCTAssertThrowsError(try JobReader(path: folder.appendingPathComponent("missing").path))
    }

    func testShardHashIsStable() {
        XCTAssertEqual(Shard.fnv1a64(""), 0xcbf29ce484222325)
        XCTAssertEqual(Shard.fnv1a64("a"), 0xaf63dc4c8601ec8c)
        XCTAssertEqual(Shard.fnv1a64("foobar"), 0x85944171f73967e8)
        var counts = [0, 0, 0, 0]
        for i in 0..<4000 { let s = Shard.shard(of: "job-\(i)", count: 4); XCTAssertTrue((1...4).contains(s)); counts[s - 1] += 1 }
        XCTAssertTrue(counts.allSatisfy { $0 > 800 }, "\(counts)")
    }

    func testResumeScanDropsTornLastRow() throws {
        let path = try write("{\"id\":\"a\",\"status\":\"ok\"}\n{\"id\":\"b\",\"status\":\"ok\"}\n{\"id\":\"c\",\"sta", "out")
        let found = try ResumeScanner.scan(path: path, format: .ndjson)
        XCTAssertEqual(found.ids, ["a", "b"])
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{\"id\":\"a\",\"status\":\"ok\"}\n{\"id\":\"b\",\"status\":\"ok\"}\n")
        let csv = try write("id,status,message\n\"x,1\",ok,\ny,no_route,\"m, n\"\nz,o", "out.csv")
        let c = try ResumeScanner.scan(path: csv, format: .csv)
        XCTAssertEqual(c.ids, ["x,1", "y"]); XCTAssertTrue(c.hasHeader)
    }
}
