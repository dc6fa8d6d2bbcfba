import Foundation
import XCTest

/// `wayfinder batch` and `wayfinder merge` on Monaco: equality with single `route` calls, order under many threads,
/// failure rows and exit codes, resume after SIGKILL, and shards run by GNU parallel then merged.
final class BatchCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-batchcli-\(getpid())")

    func monaco() throws -> String { try monacoGraph(in: Self.folder) }
    override class func tearDown() { try? FileManager.default.removeItem(at: folder); super.tearDown() }

    static let points = ["43.7395,7.4270", "43.7312,7.4197", "43.7275,7.4150", "43.7384,7.4246", "43.7440,7.4310", "43.7350,7.4200"]

    /// `count` NDJSON jobs of 2–4 stops over Monaco, deterministic.
    func jobs(_ count: Int, name: String = "jobs.ndjson") throws -> String {
        var seed: UInt64 = 42
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        var text = ""
        for i in 0..<count {
            let stops = (0..<(2 + next(3))).map { _ in "\"\(Self.points[next(Self.points.count)])\"" }
            text += "{\"id\":\"job-\(i)\",\"mode\":\"\(next(2) == 0 ? "car" : "foot")\",\"depart\":\"2026-12-01T08:30\",\"stops\":[\(stops.joined(separator: ","))]}\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: tmp(name)))
        return tmp(name)
    }

    func batch(_ input: String, _ output: String, _ extra: [String] = []) throws -> RunResult {
        try run(["batch", "--graph", try monaco(), "--input", input, "--output", output, "--time-zone", "Europe/Monaco"] + extra)
    }

    func rows(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testRowsMatchSingleRouteCalls() throws {
        let input = try jobs(30)
        let result = try batch(input, tmp("out.ndjson"), ["--threads", "4"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("30 ok, 0 failed"), result.stderr)
        let out = try rows(tmp("out.ndjson"))
        let jobLines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n")
        for i in [0, 7, 13, 29] {
            let job = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(jobLines[i].utf8)) as? [String: Any])
            let single = try run(["route", "--graph", try monaco(), "--format", "json", "--mode", job["mode"] as! String,
                                  "--depart", "2026-12-01T08:30", "--time-zone", "Europe/Monaco"] + (job["stops"] as! [String]))
            XCTAssertEqual(single.status, 0, single.stderr)
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
            let route = try XCTUnwrap((doc["routes"] as? [[String: Any]])?.first)
            XCTAssertEqual(out[i]["id"] as? String, "job-\(i)")
            XCTAssertEqual(out[i]["distance"] as? Double, route["distance"] as? Double, "job \(i)")
            XCTAssertEqual(out[i]["expectedTravelTime"] as? Double, route["expectedTravelTime"] as? Double, "job \(i)")
            XCTAssertEqual(out[i]["expectedArrivalDate"] as? String, doc["expectedArrivalDate"] as? String, "job \(i)")
            XCTAssertEqual((out[i]["legs"] as? [Any])?.count, (route["legs"] as? [Any])?.count)
        }
    }

    func testOrderUnderManyThreads() throws {
        let input = try jobs(400)
        XCTAssertEqual(try batch(input, tmp("one.ndjson"), ["--threads", "1"]).status, 0)
        XCTAssertEqual(try batch(input, tmp("eight.ndjson"), ["--threads", "8", "--window", "37"]).status, 0)
        XCTAssertEqual(try rows(tmp("eight.ndjson")).map { $0["id"] as? String }, (0..<400).map { "job-\($0)" })
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp("one.ndjson"))), try Data(contentsOf: URL(fileURLWithPath: tmp("eight.ndjson"))))
    }

    func testFailureRowsAndExitCodes() throws {
        let input = tmp("jobs.csv")
        try Data("""
        id,mode,depart,stops
        a,car,2026-12-01T08:30,"43.7395,7.4270;43.7312,7.4197"
        sea,car,2026-12-01T08:30,"43.7395,7.4270;43.70,7.45"
        boat,boat,2026-12-01T08:30,"43.7395,7.4270;43.7312,7.4197"
        z,foot,2026-12-01T08:30,"43.7395,7.4270;43.7312,7.4197"

        """.utf8).write(to: URL(fileURLWithPath: input))
        let result = try batch(input, tmp("out.csv"), ["--format", "csv", "--geometry", "polyline6", "--steps"])
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("2 ok, 2 failed"), result.stderr)
        let lines = try String(contentsOfFile: tmp("out.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 5)
        XCTAssertTrue(lines[0].hasPrefix("id,status,message,distance,expectedTravelTime,expectedDepartureDate,expectedArrivalDate,legDistances,legExpectedTravelTimes,geometry,steps"))
        XCTAssertTrue(lines[1].hasPrefix("a,ok,,"))
        XCTAssertTrue(lines[2].hasPrefix("sea,no_road,\"line 3: stop 2"), String(lines[2]))
        XCTAssertTrue(lines[3].hasPrefix("boat,bad_row,\"line 4: unknown mode 'boat' (car, foot or transit)\""), String(lines[3]))
        XCTAssertTrue(lines[4].hasPrefix("z,ok,"))

        let missing = try batch(tmp("nope.ndjson"), tmp("x.ndjson"))
        XCTAssertEqual(missing.status, 3); XCTAssertTrue(missing.stderr.contains("cannot read input"), missing.stderr)
        try Data("just some text\n".utf8).write(to: URL(fileURLWithPath: tmp("text.txt")))
        let other = try batch(tmp("text.txt"), tmp("x.ndjson"))
        XCTAssertEqual(other.status, 3); XCTAssertTrue(other.stderr.contains("neither NDJSON"), other.stderr)
        let unwritable = try batch(input, tmp("no-such-dir/out.ndjson"))
        XCTAssertEqual(unwritable.status, 4, unwritable.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("x.ndjson")))
    }

    func testResumeAfterKill() throws {
        let input = try jobs(3000)
        let full = try batch(input, tmp("full.ndjson"), ["--threads", "4"])
        XCTAssertEqual(full.status, 0, full.stderr)
        let process = Process()
        process.executableURL = try wayfinderExecutable()
        process.arguments = ["batch", "--graph", try monaco(), "--input", input, "--output", tmp("part.ndjson"), "--time-zone", "Europe/Monaco",
                             "--threads", "2", "--window", "16"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: tmp("part.ndjson"))[.size] as? Int) ?? 0
            if size > 20_000 { break }
            usleep(2000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try Data(contentsOf: URL(fileURLWithPath: tmp("part.ndjson")))
        let fullData = try Data(contentsOf: URL(fileURLWithPath: tmp("full.ndjson")))
        XCTAssertLessThan(partial.count, fullData.count, "the run was not killed mid-way")
        // A torn last row, as a crash in the middle of a write would leave it.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: tmp("part.ndjson")))
        handle.seekToEndOfFile(); handle.write(Data("{\"id\":\"job-2999\",\"status\":\"ok\",\"dist".utf8)); try handle.close()
        let resumed = try batch(input, tmp("part.ndjson"), ["--threads", "4", "--resume"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("already done"), resumed.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp("part.ndjson"))), fullData)
    }

    func testShardsWithGNUParallelMergeToTheSingleRun() throws {
        let which = Process()
        which.executableURL = URL(fileURLWithPath: "/usr/bin/env"); which.arguments = ["sh", "-c", "command -v parallel"]
        which.standardOutput = FileHandle.nullDevice; which.standardError = FileHandle.nullDevice
        try which.run(); which.waitUntilExit()
        guard which.terminationStatus == 0 else { throw XCTSkip("GNU parallel is not on PATH") }
        let input = try jobs(300)
        XCTAssertEqual(try batch(input, tmp("single.csv"), ["--format", "csv"]).status, 0)
        let exe = try wayfinderExecutable().path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["parallel", "--will-cite", "--halt", "now,fail=1", exe, "batch", "--graph", try monaco(), "--input", input,
                       "--output", tmp("shard-{}.csv"), "--format", "csv", "--time-zone", "Europe/Monaco", "--threads", "1", "--quiet",
                       "--shard", "{}/4", ":::", "1", "2", "3", "4"]
        p.standardOutput = FileHandle.nullDevice; p.standardError = FileHandle.nullDevice
        try p.run(); p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        var counts: [Int] = []
        for k in 1...4 { counts.append(try String(contentsOfFile: tmp("shard-\(k).csv"), encoding: .utf8).split(separator: "\n").count - 1) }
        XCTAssertEqual(counts.reduce(0, +), 300); XCTAssertTrue(counts.allSatisfy { $0 > 0 }, "\(counts)")
        let merged = try run(["merge", "--input", input] + (1...4).map { tmp("shard-\($0).csv") } + ["-o", tmp("merged.csv")])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp("merged.csv"))), try Data(contentsOf: URL(fileURLWithPath: tmp("single.csv"))))
    }
}
