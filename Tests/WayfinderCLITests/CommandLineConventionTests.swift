import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The conventions every command keeps: its own `--help` explaining every option of its usage line, `--` ending
/// the options, the README's exit codes, JSON errors with `--format json`, and errors that help.
final class CommandLineConventionTests: CLITestCase {
    static let commands = ["import", "info", "route", "eta", "matrix", "trip", "batch", "merge", "serve", "demo", "places"]

    /// The options named in a help text's usage lines (the lines before the first blank line).
    static func usageOptions(_ help: String) -> Set<String> {
        let usage = help.components(separatedBy: "\n\n")[0]
        let regex = try! NSRegularExpression(pattern: "(?<![\\w-])--?[a-zA-Z][\\w-]*")
        let matches = regex.matches(in: usage, range: NSRange(usage.startIndex..., in: usage))
        return Set(matches.map { String(usage[Range($0.range, in: usage)!]) })
    }

    /// Whether `option` heads an explanation line of `help`: indented, the option (maybe after `-x, `), then text.
    static func explains(_ help: String, _ option: String) -> Bool {
        help.split(separator: "\n").contains { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.count < line.count, trimmed.hasPrefix("-") else { return false }
            let head = trimmed.components(separatedBy: "  ")[0]
            return head.components(separatedBy: CharacterSet(charactersIn: ", ")).contains(option)
        }
    }

    func testEveryCommandHasItsOwnHelpExplainingEveryOption() throws {
        var texts: Set<String> = []
        for command in Self.commands {
            let result = try run([command, "--help"])
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.hasPrefix("usage: wayfinder \(command) "), "\(command) --help:\n\(result.stdout)")
            texts.insert(result.stdout)
            let options = Self.usageOptions(result.stdout)
            XCTAssertFalse(options.isEmpty, command)
            for option in options where option != "--help" {
                XCTAssertTrue(Self.explains(result.stdout, option), "\(command) --help names \(option) in its usage but never explains it:\n\(result.stdout)")
            }
            let viaHelp = try run(["help", command])
            XCTAssertEqual(viaHelp.stdout, result.stdout, "wayfinder help \(command)")
        }
        XCTAssertEqual(texts.count, Self.commands.count, "two commands print the same help")
        let serve = try run(["serve", "--help"]).stdout
        XCTAssertTrue(serve.contains("/transit/v1"), serve)
    }

    func testDoubleDashEndsTheOptions() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let ok = try run(["eta", "--graph", graph, "--", "43.7395,7.4270", "43.7312,7.4197"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        // A negative latitude after -- is a stop (here far outside Monaco: no road, exit 6), not an unknown option.
        let south = try run(["eta", "--graph", graph, "--", "-30.03,-51.21", "43.7312,7.4197"])
        XCTAssertEqual(south.status, 6, south.stderr)
        XCTAssertTrue(south.stderr.contains("outside the graph"), south.stderr)
        // After --, an option is a stop like any other word.
        let word = try run(["route", "--graph", graph, "--", "--format", "43.7312,7.4197"])
        XCTAssertEqual(word.status, 2, word.stderr)
        XCTAssertTrue(word.stderr.contains("'--format' is not lat,lon"), word.stderr)
    }

    func testSwappedCoordinatesGetAHintWithTheGraphsBox() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let result = try run(["route", "--graph", graph, "7.4270,43.7395", "43.7312,7.4197"])
        XCTAssertEqual(result.status, 6, result.stderr)
        XCTAssertTrue(result.stderr.contains("did you swap latitude and longitude?"), result.stderr)
        XCTAssertTrue(result.stderr.contains("the graph covers 43.7"), result.stderr)
        // Inside the box but far from roads (at sea): no swap hint.
        let sea = try run(["route", "--graph", graph, "--max-snap", "50", "43.7300,7.4300", "43.7312,7.4197"])
        XCTAssertEqual(sea.status, 6, sea.stderr)
        XCTAssertFalse(sea.stderr.contains("swap"), sea.stderr)
    }

    func testJSONErrorsWithFormatJSON() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        for (arguments, code, status) in [
            (["route", "--graph", graph, "--format", "json", "7.4270,43.7395", "43.7312,7.4197"], "no_road", Int32(6)),
            (["eta", "--graph", graph, "--format=json", "43.7395,7.4270"], "usage", 2),
            (["route", "--graph", tmp("missing.wfg"), "--format", "json", "43.7395,7.4270", "43.7312,7.4197"], "bad_input", 3),
        ] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, status, result.stderr)
            let object = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
            let error = try XCTUnwrap(object?["error"] as? [String: Any], result.stderr)
            XCTAssertEqual(error["code"] as? String, code, result.stderr)
            XCTAssertEqual(error["exitCode"] as? Int, Int(status), result.stderr)
            XCTAssertFalse((error["message"] as? String ?? "").isEmpty)
        }
        // Text errors otherwise.
        let text = try run(["eta", "--graph", graph, "43.7395,7.4270"])
        XCTAssertTrue(text.stderr.hasPrefix("wayfinder: error: "), text.stderr)
    }

    func testExitCodesMatchTheTable() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        // A bad line of an ETA list's places file is bad input (3), naming file and line.
        try "name,lat,lon\nPort,43.7312,7.4197\nnot a place\n".write(toFile: tmp("places.csv"), atomically: true, encoding: .utf8)
        let list = try run(["eta", "--graph", graph, "--from", "43.7395,7.4270", "--to-file", tmp("places.csv")])
        XCTAssertEqual(list.status, 3, list.stderr)
        XCTAssertTrue(list.stderr.contains("places.csv:3"), list.stderr)

        // A hierarchy that does not match its graph is bad input (3), not a usage error.
        let corrupt = tmp("corrupt.wfg")
        try FileManager.default.copyItem(atPath: graph, toPath: corrupt)
        let info = try run(["info", corrupt])
        let line = try XCTUnwrap(info.stdout.split(separator: "\n").first { $0.contains("car.ch_up_first") }, info.stdout)
        let fields = line.split(separator: " ").map { $0.replacingOccurrences(of: ",", with: "") }
        let offset = try XCTUnwrap(UInt64(fields[1])), size = try XCTUnwrap(UInt64(fields[2]))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: corrupt))
        try handle.seek(toOffset: offset + size - 4)
        try handle.write(contentsOf: Data([0xff, 0xff, 0xff, 0x7f]))
        try handle.close()
        let route = try run(["route", "--graph", corrupt, "43.7395,7.4270", "43.7312,7.4197"])
        XCTAssertEqual(route.status, 3, route.stderr)

        // A port in use: 8.
        let first = try ServeCommandTests.Server(["--graph", graph], folder: temp)
        defer { first.stop() }
        let second = try run(["serve", "--graph", graph, "--port", String(first.port)], timeout: 30)
        XCTAssertEqual(second.status, 8, second.stderr)
        XCTAssertTrue(second.stderr.contains("cannot listen"), second.stderr)
    }

    func testTransitErrorsHelp() throws {
        let graph = tmp("terre-haute.wfg")
        let imported = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "-o", graph, "--quiet"], timeout: 300)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // No --depart, and today lies outside the 2015–2017 feed: the range and a departure inside it are suggested.
        let today = try run(["route", "--graph", graph, "--mode", "transit", "39.48577,-87.39769", "39.4565472,-87.4164615"])
        XCTAssertEqual(today.status, 2, today.stderr)
        XCTAssertTrue(today.stderr.contains("service range"), today.stderr)
        let suggestion = try XCTUnwrap(today.stderr.range(of: "e.g. --depart ").map { String(today.stderr[$0.upperBound...].prefix(16)) }, today.stderr)
        let retried = try run(["route", "--graph", graph, "--mode", "transit", "--depart", suggestion, "39.48577,-87.39769", "39.4565472,-87.4164615"])
        XCTAssertEqual(retried.status, 0, "the suggested --depart \(suggestion) does not work: \(retried.stderr)")
        // A stop far from any foot road names its coordinate.
        let far = try run(["route", "--graph", graph, "--mode", "transit", "--depart", suggestion, "39.48577,-87.39769", "39.9,-87.0"])
        XCTAssertEqual(far.status, 6, far.stderr)
        XCTAssertTrue(far.stderr.contains("39.900000,-87.000000"), far.stderr)
        // Matrices and trips by transit need a departure time: without one they are refused, not answered for now.
        let trip = try run(["trip", "--graph", graph, "--mode", "transit", "39.48577,-87.39769", "39.4565472,-87.4164615"])
        XCTAssertEqual(trip.status, 2, trip.stderr)
        XCTAssertTrue(trip.stderr.contains("by transit needs --depart"), trip.stderr)
        try "39.48577,-87.39769\n39.4565472,-87.4164615\n".write(toFile: tmp("stops.csv"), atomically: true, encoding: .utf8)
        let matrix = try run(["matrix", "--graph", graph, "--mode", "transit", "--sources", tmp("stops.csv"), "--destinations", tmp("stops.csv")])
        XCTAssertEqual(matrix.status, 2, matrix.stderr)
        XCTAssertTrue(matrix.stderr.contains("by transit needs --depart"), matrix.stderr)
    }
}
