import Batch
import Wayfinder
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

    func options(_ format: BatchOutputFormat, geometry: BatchGeometry = .none, steps: Bool = false) -> BatchOptions {
        var o = BatchOptions(); o.format = format; o.geometry = geometry; o.steps = steps
        return o
    }

    func testResumeScanDropsTornLastRow() throws {
        let path = try write("{\"id\":\"a\",\"status\":\"ok\"}\n{\"id\":\"b\",\"status\":\"ok\"}\n{\"id\":\"c\",\"sta", "out")
        let found = try ResumeScanner.scan(path: path, options: options(.ndjson))
        XCTAssertEqual(found.ids, ["a", "b"])
        XCTAssertEqual(found.dropped?.line, 3)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{\"id\":\"a\",\"status\":\"ok\"}\n{\"id\":\"b\",\"status\":\"ok\"}\n")
        let header = "id,status,message,distance,expectedTravelTime,expectedDepartureDate,expectedArrivalDate,legDistances,legExpectedTravelTimes,places\n"
        let csv = try write(header + "\"x,1\",ok,,1,2,a,b,1,2,\ny,no_route,\"m, n\",,,,,,,\nz,o", "out.csv")
        let c = try ResumeScanner.scan(path: csv, options: options(.csv))
        XCTAssertEqual(c.ids, ["x,1", "y"]); XCTAssertTrue(c.hasHeader)
    }

    func testResumeScanCutsAtTheFirstLineThatIsNoRowAndKeepsDuplicateIdsInOrder() throws {
        let rows = "{\"id\":\"a\",\"status\":\"ok\"}\n{\"id\":\"a\",\"status\":\"bad_row\"}\n"
        let path = try write(rows + "garbage\n{\"id\":\"c\",\"status\":\"ok\"}\n", "out")
        let found = try ResumeScanner.scan(path: path, options: options(.ndjson))
        XCTAssertEqual(found.ids, ["a", "a"])
        XCTAssertEqual(found.dropped?.line, 3)
        XCTAssertTrue(found.dropped?.reason.contains("line 3 is not a complete ndjson row ('garbage')") == true, "\(String(describing: found.dropped))")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), rows)
        // A CSV row whose quoted field spans lines is one row; a row of the wrong width is not.
        let header = "id,status,message,distance,expectedTravelTime,expectedDepartureDate,expectedArrivalDate,legDistances,legExpectedTravelTimes,geometry,places\n"
        let csv = try write(header + "g,ok,,1,2,a,b,1,2,\"{\n}\",\nshort,ok,\n", "out.csv")
        let c = try ResumeScanner.scan(path: csv, options: options(.csv, geometry: .geojson))
        XCTAssertEqual(c.ids, ["g"]); XCTAssertEqual(c.dropped?.line, 4)
    }

    func testResumeRefusesAnOutputOfAnotherFormat() throws {
        func refusal(_ text: String, _ o: BatchOptions) throws -> String {
            let path = try write(text, "out-\(UUID().uuidString)")
            do { _ = try ResumeScanner.scan(path: path, options: o); return "no error" } catch {
                XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text, "a refused output was changed")
                return "\(error)"
            }
        }
        let ndjson = "{\"id\":\"a\",\"status\":\"ok\",\"distance\":1}\n"
        let csv = "id,status,message,distance,expectedTravelTime,expectedDepartureDate,expectedArrivalDate,legDistances,legExpectedTravelTimes,places\na,ok,,1,2,a,b,1,2,\n"
        XCTAssertTrue(try refusal(ndjson, options(.csv)).contains("holds NDJSON rows, but --format is csv"))
        XCTAssertTrue(try refusal(csv, options(.ndjson)).contains("holds CSV rows (it starts with a CSV header), but --format is ndjson"))
        XCTAssertTrue(try refusal(csv, options(.csv, steps: true)).contains("has the columns id,status,"))
        XCTAssertTrue(try refusal(ndjson, options(.ndjson, geometry: .polyline)).contains("has rows with neither geometry nor steps, but these options write geometry"))
        XCTAssertTrue(try refusal("my notes\n", options(.ndjson)).contains("does not start with a batch output row: not resumable"))
    }

    func testAStrayQuoteFailsOnlyItsRow() throws {
        let (_, all) = try items("""
        id,mode,depart,stops
        a1,car,2026-12-01T08:30,"43.7395,7.4270;43.7312,7.4197"
        "a2,"43.7395,7.4270;43.7312,7.4197"
        a3,car,2026-12-01T08:30,"43.7395,7.4270;43.7312,7.4197"
        a4,foot,,"43.7395,7.4270;43.7312,7.4197"
        "m
        ulti",car,,"43.7395,7.4270;43.7312,7.4197"
        a5,foot,,"43.7395,7.4270;43.7312,7.4197
        """)
        XCTAssertEqual(all.map(\.id), ["a1", "line 3", "a3", "a4", "m\nulti", "line 8"])
        guard case let .bad(_, line, message) = all[1] else { return XCTFail("\(all[1])") }
        XCTAssertEqual(line, 3); XCTAssertTrue(message.contains("bad CSV quoting"), message)
        guard case let .job(multi) = all[4] else { return XCTFail("\(all[4])") }
        XCTAssertEqual(multi.line, 6)
    }

    func testLimitsOnStopsNamesAndRowLength() throws {
        let path = try write("id,stops\n"
            + "ok,\"43.7,7.4;43.8,7.5\"\n"
            + "many,\"" + Array(repeating: "43.7,7.4", count: 6).joined(separator: ";") + "\"\n"
            + String(repeating: "i", count: 40) + ",\"43.7,7.4;43.8,7.5\"\n"
            + "name,\"" + String(repeating: "n", count: 40) + ";43.8,7.5\"\n"
            + "long,\"" + String(repeating: "9", count: 70_000) + "\"\n"
            + "last,\"43.7,7.4;43.8,7.5\"\n")
        let reader = try JobReader(path: path, timeZone: TimeZone(identifier: "UTC")!, limits: BatchLimits(maxStops: 5, maxNameBytes: 32))
        var all: [BatchItem] = []
        while let item = reader.next() { all.append(item) }
        XCTAssertEqual(all.map(\.id), ["ok", "many", "line 4", "name", "line 6", "last"])
        let messages = all.compactMap { item -> String? in if case let .bad(_, _, m) = item { return m }; return nil }
        XCTAssertEqual(messages, [
            "line 3: 6 stops, more than the 5 a job may have (raise it with --max-stops)",
            "line 4: the id is 40 bytes long, more than the 32 an id may have (raise it with --max-name-bytes)",
            "line 5: stop 1 is 40 bytes long, more than the 32 a place name may have (raise it with --max-name-bytes)",
            "line 6: 70007 bytes long, longer than a job row may be (65706 bytes: 5 stops of up to 32 bytes; raise --max-stops or --max-name-bytes)",
        ])
    }

    func testPlacesFileLineEndsAndLimits() throws {
        for end in ["\n", "\r\n", "\r"] {
            let book = try PlaceBook(contentsOfFile: try write(["name,lat,lon", "Casino,43.7395,7.4270", "Port,43.7312,7.4197", ""].joined(separator: end), "places"))
            XCTAssertEqual(book.places.count, 2, "line end \(end.debugDescription)")
            XCTAssertEqual(book.places["Port"], Coordinate(latitude: 43.7312, longitude: 7.4197))
        }
        XCTAssertThrowsError(try PlaceBook(contentsOfFile: try write("\(String(repeating: "x", count: 40)),43.7,7.4\n", "p2"), limits: BatchLimits(maxNameBytes: 32))) {
            XCTAssertTrue("\($0)".contains(":1: the name is 40 bytes long, more than the 32 a name may have (--max-name-bytes)"), "\($0)")
        }
        XCTAssertThrowsError(try PlaceBook(contentsOfFile: try write("\(String(repeating: "x", count: 400)),43.7,7.4\n", "p3"), limits: BatchLimits(maxNameBytes: 32))) {
            XCTAssertTrue("\($0)".contains(":1: a line longer than a place may be"), "\($0)")
        }
        XCTAssertThrowsError(try PlaceBook(contentsOfFile: try write("a,95,7.4\n", "p4"))) { XCTAssertTrue("\($0)".contains("is not a coordinate"), "\($0)") }
    }
}
