import Foundation
import XCTest
import TestSupport

/// Command-line usage errors and `wayfinder demo`.
final class UsageTests: CLITestCase {
    func testUnknownCommandExits2() throws {
        let result = try run(["frobnicate"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown command 'frobnicate'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("usage: wayfinder COMMAND"), "the overview follows: \(result.stderr)")
        XCTAssertEqual(result.stdout, "")
    }

    func testUnknownOptionsExit2() throws {
        let cases: [([String], String)] = [
            (["import", sample("monaco.osm.gz"), "--frobnicate"], "unknown option --frobnicate"),
            (["import", "--speed=fast", sample("monaco.osm.gz")], "unknown option --speed=fast"),
            (["info", "x.wfg", "-v"], "unknown option -v"),
            (["demo", "--bogus"], "unknown option --bogus"),
            (["import", sample("monaco.osm.gz"), "-o"], "-o needs a value"),
            (["import"], "import takes one input file"),
            (["import", "a.osm", "b.osm", "-o", "x.wfg"], "import takes one input file"),
            (["info"], "info takes one graph file"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("wayfinder: error: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path).filter { $0.hasSuffix(".wfg") }, [])
    }

    func testHelpAndVersionExit0() throws {
        for arguments in [[], ["help"], ["--help"], ["-h"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stdout.contains("commands:"), result.stdout)
            XCTAssertTrue(result.stdout.contains("import"), result.stdout)
        }
        for command in ["import", "info", "demo"] {
            let result = try run([command, "--help"])
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.hasPrefix("usage: wayfinder \(command)"), result.stdout)
        }
        let version = try run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("wayfinder "), version.stdout)
    }
}

final class DemoCommandTests: CLITestCase {
    private func modificationDate(_ path: String) throws -> Date {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    func testDemoImportsTheSamplesThenUsesTheCache() throws {
        let cache = tmp("cache")
        // Run from the source tree, where Data/ is found.
        let first = try run(["demo", "--cache", cache], directory: packageRoot)
        XCTAssertEqual(first.status, 0, first.stderr)
        let out = first.stdout
        XCTAssertTrue(out.contains("terre-haute.osm.gz: Terre Haute"), out)
        XCTAssertTrue(out.contains("monaco.osm.gz: Monaco"), out)
        XCTAssertEqual(out.components(separatedBy: "imported in").count - 1, 2, "both samples imported:\n\(out)")
        XCTAssertFalse(out.contains("using the cached graph"), out)
        XCTAssertEqual(out.components(separatedBy: "  graph: ").count - 1, 2, out)
        XCTAssertTrue(out.contains("snaps for car"), out)
        XCTAssertTrue(out.contains("snaps for foot"), out)
        XCTAssertTrue(out.contains("OpenStreetMap contributors"), out)
        let terreHaute = (cache as NSString).appendingPathComponent("terre-haute.wfg")
        let monaco = (cache as NSString).appendingPathComponent("monaco.wfg")
        XCTAssertTrue(FileManager.default.fileExists(atPath: terreHaute))
        XCTAssertTrue(FileManager.default.fileExists(atPath: monaco))
        let dates = (try modificationDate(terreHaute), try modificationDate(monaco))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp("xdg-cache/wayfinder")), "--cache is used, not the default")

        // Second run: the cached graphs are used, not rewritten, and report the same figures.
        let second = try run(["demo", "--cache", cache], directory: packageRoot)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout.components(separatedBy: "using the cached graph").count - 1, 2, second.stdout)
        XCTAssertFalse(second.stdout.contains("imported in"), second.stdout)
        XCTAssertEqual(try modificationDate(terreHaute), dates.0)
        XCTAssertEqual(try modificationDate(monaco), dates.1)
        let figures = { (text: String) in text.split(separator: "\n").filter { $0.contains("  graph: ") }.map { $0.components(separatedBy: ", opened")[0] } }
        XCTAssertEqual(figures(second.stdout), figures(first.stdout))

        // The cached graph is a real graph file.
        let info = try run(["info", monaco])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("13,739 nodes, 1,944 ways, 77 relations read"), info.stdout)
    }

    /// The demo's "Next:" lines are commands that work as printed (serve: started, answered, stopped).
    func testDemoNextHintsRun() throws {
        let cache = tmp("cache")
        let demo = try run(["demo", "--cache", cache], directory: packageRoot)
        XCTAssertEqual(demo.status, 0, demo.stderr)
        let hints = demo.stdout.components(separatedBy: "\nNext:\n").last!.split(separator: "\n")
            .map { $0.components(separatedBy: "   #")[0].components(separatedBy: "  #")[0].trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("wayfinder ") }
        XCTAssertGreaterThanOrEqual(hints.count, 3, demo.stdout)
        for hint in hints {
            let words = Array(Self.shellWords(hint).dropFirst())
            if words.first == "serve" {
                let server = try ServeCommandTests.Server(Array(words.dropFirst()), folder: temp)
                XCTAssertGreaterThan(server.port, 0, hint)
                XCTAssertEqual(server.stop(), 0, "\(hint): \(server.stderr)")
                continue
            }
            let result = try run(words)
            XCTAssertEqual(result.status, 0, "\(hint): \(result.stderr)")
        }
    }

    /// A command line's words as a shell splits them: at spaces, except inside double quotes (which it removes).
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, started = false
        for character in line {
            if character == "\"" { quoted.toggle(); started = true } else if character == " " && !quoted {
                if started { words.append(word) }
                word = ""; started = false
            } else { word.append(character); started = true }
        }
        if started { words.append(word) }
        return words
    }

    func testDemoReimportsAStaleOrDamagedCache() throws {
        let cache = tmp("cache")
        let first = try run(["demo", "--cache", cache, "--data", packageRoot.appendingPathComponent("Data").path])
        XCTAssertEqual(first.status, 0, first.stderr)
        // A cached graph that is not a graph file any more is imported again, as is everything with --fresh.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: (cache as NSString).appendingPathComponent("monaco.wfg")))
        let second = try run(["demo", "--cache", cache, "--data", packageRoot.appendingPathComponent("Data").path])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout.components(separatedBy: "imported in").count - 1, 1, second.stdout)
        XCTAssertEqual(second.stdout.components(separatedBy: "using the cached graph").count - 1, 1, second.stdout)
        let fresh = try run(["demo", "--cache", cache, "--fresh", "--data", packageRoot.appendingPathComponent("Data").path])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(fresh.stdout.components(separatedBy: "imported in").count - 1, 2, fresh.stdout)
    }

    func testDemoFailures() throws {
        let missing = try run(["demo", "--cache", tmp("cache"), "--data", tmp("no-data")])
        XCTAssertEqual(missing.status, 3)
        XCTAssertTrue(missing.stderr.contains("missing"), missing.stderr)

        _ = FileManager.default.createFile(atPath: tmp("a-file"), contents: Data("x".utf8))
        let badCache = try run(["demo", "--cache", tmp("a-file/cache"), "--data", packageRoot.appendingPathComponent("Data").path])
        XCTAssertEqual(badCache.status, 4)
        XCTAssertTrue(badCache.stderr.contains("cache folder"), badCache.stderr)
    }
}
