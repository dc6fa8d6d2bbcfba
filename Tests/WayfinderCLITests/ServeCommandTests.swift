import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// `wayfinder serve` as a separate process, talked to by real clients: curl, the routingpy Python client, headless
/// Chromium (the map page) and wrk (load). A client missing on this machine skips its test with a message;
/// `.ci/run` installs them all, so in CI they run.
final class ServeCommandTests: CLITestCase {
    /// A running `wayfinder serve`, its port read from the line it prints on standard error.
    final class Server {
        let process = Process()
        let stderrURL: URL
        private(set) var port = 0
        var base: String { "http://127.0.0.1:\(port)" }

        init(_ arguments: [String], folder: URL) throws {
            stderrURL = folder.appendingPathComponent("serve-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            process.executableURL = try wayfinderExecutable()
            process.arguments = ["serve", "--port", "0"] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline && process.isRunning {
                if let range = stderr.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                    port = Int(stderr[range].dropFirst(10).dropLast())!
                    return
                }
                usleep(20_000)
            }
            if process.isRunning { process.terminate() }
            throw CLIError.timedOut(process.arguments ?? [])
        }

        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// Sends `signal` and waits for the exit status.
        @discardableResult
        func stop(_ signal: Int32 = SIGTERM) -> Int32 {
            guard process.isRunning else { return process.terminationStatus }
            kill(process.processIdentifier, signal)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// Resident memory of the server now, kilobytes (from /proc).
        var residentKilobytes: Int {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
    }

    func monacoServer(_ extra: [String] = []) throws -> Server {
        try importMonaco(to: tmp("monaco.wfg"))
        return try Server(["--graph", tmp("monaco.wfg")] + extra, folder: temp)
    }

    func script(_ name: String) -> String { packageRoot.appendingPathComponent("Tests/Scripts/\(name)").path }

    func testCurlGetsOSRMAnswersAndErrors() throws {
        guard let curl = tool("curl") else { throw XCTSkip("curl is not installed (apt-get install curl)") }
        let server = try monacoServer()
        defer { server.stop() }
        func get(_ path: String) throws -> (status: Int, json: [String: Any]) {
            let result = try external(curl, ["-s", "-w", "\n%{http_code}", server.base + path])
            let lines = result.output.split(separator: "\n")
            let json = try JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)) as? [String: Any]
            return (Int(lines.last ?? "") ?? 0, json ?? [:])
        }
        let route = try get("/route/v1/driving/7.4270,43.7395;7.4197,43.7312?steps=true")
        XCTAssertEqual(route.status, 200)
        XCTAssertEqual(route.json["code"] as? String, "Ok")
        let table = try get("/table/v1/foot/7.4270,43.7395;7.4197,43.7312;7.4150,43.7275")
        XCTAssertEqual((table.json["durations"] as? [[Double]])?.count, 3)
        XCTAssertEqual(try get("/trip/v1/car/7.4270,43.7395;7.4197,43.7312;7.4150,43.7275").json["code"] as? String, "Ok")
        XCTAssertEqual(try get("/nearest/v1/car/7.4270,43.7395?number=2").json["code"] as? String, "Ok")
        XCTAssertEqual(try get("/health").json["status"] as? String, "ok")
        let bad = try get("/route/v1/driving/7.4270,43.7395;7.4197,143.7312")
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.json["code"] as? String, "InvalidValue")
        let page = try external(curl, ["-s", server.base + "/"])
        XCTAssertTrue(page.output.contains("<script src=\"/map.js\">"))
    }

    func testLimitsFromTheCommandLine() throws {
        guard let curl = tool("curl") else { throw XCTSkip("curl is not installed (apt-get install curl)") }
        let server = try monacoServer(["--max-table-cells", "4", "--max-route-coordinates", "2", "--threads", "1"])
        defer { server.stop() }
        let stops = "7.4270,43.7395;7.4197,43.7312;7.4150,43.7275"
        let table = try external(curl, ["-s", server.base + "/table/v1/car/\(stops)"]).output
        XCTAssertTrue(table.contains("\"TooBig\"") && table.contains("4 cells"), table)
        XCTAssertTrue(try external(curl, ["-s", server.base + "/table/v1/car/\(stops)?sources=0;1&destinations=1;2"]).output.contains("\"Ok\""))
        let route = try external(curl, ["-s", server.base + "/route/v1/car/\(stops)"]).output
        XCTAssertTrue(route.contains("\"TooBig\""), route)
        let info = try external(curl, ["-s", server.base + "/info"]).output
        XCTAssertTrue(info.contains("\"tableCells\":4"), info)
    }

    func testRoutingpyClientGetsRoutesAndMatrices() throws {
        guard let python = tool("python3") else { throw XCTSkip("python3 is not installed; .ci/run installs it with routingpy") }
        let server = try monacoServer()
        defer { server.stop() }
        let result = try external(python, [script("routingpy_client.py"), server.base])
        if result.status == 77 { throw XCTSkip("routingpy is not installed (pip install routingpy; .ci/run does): \(result.output)") }
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.hasPrefix("ok:"), result.output)
    }

    func testMapPageInHeadlessChromium() throws {
        guard let python = tool("python3") else { throw XCTSkip("python3 is not installed") }
        guard tool("chromium") != nil || tool("chromium-browser") != nil else {
            throw XCTSkip("chromium is not installed (apt-get install chromium; .ci/run does)")
        }
        let server = try monacoServer()
        defer { server.stop() }
        // The script checks the layout at 1280 and 390 px; its screenshots stay in the build folder for people to look at.
        let (folder, screenshots) = screenshotFolder("map-page")
        let result = try external(python, [script("map_page_check.py"), server.base, folder], timeout: 240)
        XCTAssertEqual(result.status, 0, result.output)
        for path in screenshots { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }
    }

    /// `.build/map-page-screenshots`, where a map page check leaves its screenshots (PREFIX-{1280,390}-{route,error}.png),
    /// with the paths they will have; earlier ones are removed first.
    func screenshotFolder(_ prefix: String) -> (folder: String, screenshots: [String]) {
        let folder = packageRoot.appendingPathComponent(".build/map-page-screenshots")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let paths = ["1280-route", "1280-error", "390-route", "390-error"].map { folder.appendingPathComponent("\(prefix)-\($0).png").path }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
        return (folder.path, paths)
    }

    /// The page's search, nearby ETAs, step list and favourites; the favourites' export is a places file the CLI reads.
    func testMapPagePlacesInHeadlessChromium() throws {
        guard let python = tool("python3") else { throw XCTSkip("python3 is not installed") }
        guard tool("chromium") != nil || tool("chromium-browser") != nil else {
            throw XCTSkip("chromium is not installed (apt-get install chromium; .ci/run does)")
        }
        let server = try monacoServer()
        defer { server.stop() }
        let (folder, _) = screenshotFolder("map-page-places")
        let exported = URL(fileURLWithPath: folder).appendingPathComponent("favourites.csv").path
        try? FileManager.default.removeItem(atPath: exported)
        let result = try external(python, [script("map_page_places_check.py"), server.base, folder], timeout: 300)
        XCTAssertEqual(result.status, 0, result.output)
        guard result.status == 0 else { return }
        // The round trip through the CLI's places reader: both favourites, the quoted title whole, at their points.
        let eta = try run(["eta", "--graph", tmp("monaco.wfg"), "--from", "43.7395,7.4270", "--to-file", exported, "--format", "csv"])
        XCTAssertEqual(eta.status, 0, eta.stderr)
        let rows = eta.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 3, eta.stdout)
        XCTAssertTrue(rows.count == 3 && rows[1].hasPrefix(#""Le ""Café"", Casino","#) && rows[1].hasSuffix(",ok"), eta.stdout)
        let pin = rows.count == 3 ? rows[2].split(separator: ",").map(String.init) : []
        XCTAssertTrue(pin.count == 7 && pin[0] == "Pin 2" && abs(Double(pin[1])! - 43.7275) < 1e-4 && abs(Double(pin[2])! - 7.4150) < 1e-4 && pin[6] == "ok", eta.stdout)
    }

    func testMapPageTransitInHeadlessChromium() throws {
        guard let python = tool("python3") else { throw XCTSkip("python3 is not installed") }
        guard tool("chromium") != nil || tool("chromium-browser") != nil else {
            throw XCTSkip("chromium is not installed (apt-get install chromium; .ci/run does)")
        }
        let imported = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks",
                                "-o", tmp("terre-haute.wfg"), "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let server = try Server(["--graph", tmp("terre-haute.wfg")], folder: temp)
        defer { server.stop() }
        let (folder, screenshots) = screenshotFolder("map-page-transit")
        let result = try external(python, [script("map_page_transit_check.py"), server.base, folder], timeout: 240)
        XCTAssertEqual(result.status, 0, result.output)
        for path in screenshots { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }
    }

    func testLoadWithWrkHasNoFailuresAndFlatMemory() throws {
        guard let wrk = tool("wrk") else { throw XCTSkip("wrk is not installed (apt-get install wrk; .ci/run does)") }
        let server = try monacoServer(["--threads", "2"])
        defer { server.stop() }
        // Points on Monaco's roads; the script mixes routes between two of them (90 %) and 3×3 tables. The test suite's
        // debug build answers a few hundred such requests a second on two cores (Tools/bench-server measures release).
        let points = ["7.4270,43.7395", "7.4197,43.7312", "7.4150,43.7275", "7.4330,43.7450", "7.4230,43.7352",
                      "7.4203,43.7312", "7.4157,43.7276", "7.4277,43.7393", "7.4218,43.7383", "7.4120,43.7310"]
        let lua = """
        local points = {\(points.map { "\"\($0)\"" }.joined(separator: ", "))}
        local profiles = {"driving", "walking"}
        math.randomseed(7)
        request = function()
          local a, b = points[math.random(#points)], points[math.random(#points)]
          local profile = profiles[math.random(2)]
          if math.random() < 0.9 then
            return wrk.format("GET", "/route/v1/" .. profile .. "/" .. a .. ";" .. b .. "?overview=full&steps=true")
          end
          local list = {}
          for i = 1, 3 do list[i] = points[math.random(#points)] end
          return wrk.format("GET", "/table/v1/" .. profile .. "/" .. table.concat(list, ";") .. "?annotations=duration,distance")
        end
        """
        try lua.write(toFile: tmp("mixed.lua"), atomically: true, encoding: .utf8)
        _ = try external(wrk, ["-t2", "-c8", "-d3s", "-s", tmp("mixed.lua"), server.base])   // warm up
        let before = server.residentKilobytes
        let run = try external(wrk, ["-t2", "-c16", "-d15s", "--timeout", "5s", "-s", tmp("mixed.lua"), server.base])
        let after = server.residentKilobytes
        XCTAssertEqual(run.status, 0, run.output)
        let requests = run.output.range(of: #"(\d+) requests in"#, options: .regularExpression).map { Int(run.output[$0].split(separator: " ")[0]) ?? 0 } ?? 0
        XCTAssertGreaterThan(requests, 1000, run.output)
        XCTAssertFalse(run.output.contains("Non-2xx"), run.output)
        XCTAssertFalse(run.output.contains("Socket errors"), run.output)
        // Flat memory: under 10 % (plus 4 MB of allocator slack) growth over thousands of requests after warm-up.
        XCTAssertLessThan(Double(after), Double(before) * 1.10 + 4096, "RSS \(before) kB before, \(after) kB after \(requests) requests")
        print("wrk: \(requests) requests in 15 s, RSS \(before) kB → \(after) kB")
        XCTAssertEqual(server.stop(SIGTERM), 0)
        XCTAssertTrue(server.stderr.contains("stopped after"), server.stderr)
    }

    /// Requests that once killed or stalled `serve` (issue 14): each gets OSRM's JSON at once and the server stays up.
    func testHostileRequestsGetJSONAndLeaveItServing() throws {
        guard let curl = tool("curl") else { throw XCTSkip("curl is not installed (apt-get install curl)") }
        let imported = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks", "--no-ch",
                                "-o", tmp("terre-haute.wfg"), "--quiet"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // The command line refuses what the server refuses.
        let cli = try run(["route", "--graph", tmp("terre-haute.wfg"), "--mode", "transit", "--depart", "2017-05-10T09:00",
                           "--max-walk", "1e308", "39.48577,-87.39769", "39.4565472,-87.4164615"])
        XCTAssertEqual(cli.status, 2, cli.stderr)
        XCTAssertTrue(cli.stderr.contains("--max-walk must be a number of metres from 0 to 10000, not '1e308'"), cli.stderr)

        let server = try Server(["--graph", tmp("terre-haute.wfg"), "--threads", "2"], folder: temp)
        defer { server.stop() }
        func get(_ path: String) throws -> (status: Int, json: [String: Any], seconds: Double) {
            let started = Date()
            let result = try external(curl, ["-s", "-m", "10", "-w", "\n%{http_code}", server.base + path])
            let lines = result.output.split(separator: "\n")
            let json = try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)) as? [String: Any]
            return (Int(lines.last ?? "") ?? 0, json ?? [:], Date().timeIntervalSince(started))
        }
        let trip = "/transit/v1/-87.39769,39.48577;-87.4164615,39.4565472?depart=2017-05-10T09:00"
        for value in ["1e308", "1e7"] {
            let answer = try get(trip + "&max_walk=" + value)
            XCTAssertEqual(answer.status, 400, value)
            XCTAssertEqual(answer.json["message"] as? String, "max_walk must be a number of metres from 0 to 10000, got '\(value)'")
        }
        XCTAssertEqual(try get(trip + "&max_walk=10000").json["code"] as? String, "Ok")
        let many = try get("/route/v1/driving/-87.39769,39.48577;-87.4164615,39.4565472?" + (0..<2000).map { "a\($0)=1" }.joined(separator: "&"))
        XCTAssertEqual(many.status, 400)
        XCTAssertEqual(many.json["code"] as? String, "TooBig")
        XCTAssertLessThan(many.seconds, 5)
        let health = try get("/health")
        XCTAssertEqual(health.json["status"] as? String, "ok")
        XCTAssertTrue(server.process.isRunning, server.stderr)
    }

    /// A thousand slow clients (slowloris: a request's headers a byte a second) while real requests keep coming:
    /// every real one is answered within the time limit, the slow ones are cut off after --idle-timeout, and when
    /// they leave no socket lingers in CLOSE-WAIT (Tests/Scripts/slow_clients.py).
    func testSlowClientsDoNotLockOthersOut() throws {
        guard let python = tool("python3") else { throw XCTSkip("python3 is not installed") }
        let server = try monacoServer(["--threads", "2", "--idle-timeout", "2"])
        defer { server.stop() }
        let route = "/route/v1/driving/\(["7.4270,43.7395", "7.4197,43.7312"].joined(separator: ";"))"
        let result = try external(python, [script("slow_clients.py"), server.base, "--clients", "1000", "--seconds", "6",
                                           "--path", route, "--limit", "10"], timeout: 120)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("slow=1000 (refused 0, open at the end 0)"), result.output)
        XCTAssertTrue(result.output.contains("failed=0"), result.output)
        XCTAssertTrue(result.output.contains("close_wait_after=0"), result.output)
        print("slow clients: \(result.output)")
        XCTAssertTrue(server.process.isRunning, server.stderr)
    }

    func testSignalsStopItCleanly() throws {
        for signal in [SIGTERM, SIGINT] {
            let server = try monacoServer()
            XCTAssertEqual(server.stop(signal), 0, server.stderr)
            XCTAssertTrue(server.stderr.contains(signal == SIGTERM ? "SIGTERM" : "SIGINT"), server.stderr)
            XCTAssertTrue(server.stderr.contains("stopped after"), server.stderr)
        }
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try run(["serve"]).status, 2)
        XCTAssertEqual(try run(["serve", "--graph", tmp("missing.wfg")]).status, 3)
        try importMonaco(to: tmp("monaco.wfg"))
        XCTAssertEqual(try run(["serve", "--graph", tmp("monaco.wfg"), "--port", "http"]).status, 2)
        XCTAssertEqual(try run(["serve", "--graph", tmp("monaco.wfg"), "--threads", "0"]).status, 2)
        let host = try run(["serve", "--graph", tmp("monaco.wfg"), "--host", "example.org"])
        XCTAssertEqual(host.status, 2)
        XCTAssertTrue(host.stderr.contains("IPv4"), host.stderr)
        XCTAssertTrue(try run(["serve", "--help"]).stdout.contains("--port"))
        for (option, value, message) in [("--idle-timeout", "0", "--idle-timeout must be a number of seconds from 1 to 3600, not '0'"),
                                         ("--time-limit", "1e308", "--time-limit must be a number of seconds from 0.001 to 86400, not '1e308'"),
                                         ("--max-connections", "0", "--max-connections must be a whole number from 1 to 1000000, not '0'"),
                                         ("--max-connections-per-ip", "-1", "--max-connections-per-ip must be a whole number from 0 to 1000000, not '-1'"),
                                         ("--max-table-cells", "99999999999999999999", "--max-table-cells must be a whole number from 1 to 100000000")] {
            let refused = try run(["serve", "--graph", tmp("monaco.wfg"), option, value])
            XCTAssertEqual(refused.status, 2, option)
            XCTAssertTrue(refused.stderr.contains(message), refused.stderr)
        }
    }
}
