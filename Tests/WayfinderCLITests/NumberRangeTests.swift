import Foundation
import XCTest

/// Every number the routing commands take is range-checked before any work, with an error naming the option, the
/// value and the range (exit 2): `--max-snap` (more than 0, at most 100000 m) in route, eta, matrix, trip and transit,
/// `matrix --max-size` (1 to 100000).
final class NumberRangeTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-numberrange-\(getpid())")

    func monaco() throws -> String { try monacoGraph(in: Self.folder) }
    override class func tearDown() { try? FileManager.default.removeItem(at: folder); super.tearDown() }

    func testMaxSnapAndMaxSizeAreRangeChecked() throws {
        let graph = try monaco()
        let places = tmp("places.csv")
        try Data("43.7395,7.4270\n43.7312,7.4197\n".utf8).write(to: URL(fileURLWithPath: places))
        let commands: [[String]] = [
            ["route", "--graph", graph, "43.7395,7.4270", "43.7312,7.4197"],
            ["eta", "--graph", graph, "43.7395,7.4270", "43.7312,7.4197"],
            ["eta", "--graph", graph, "--from", "43.7395,7.4270", "--to-file", places],
            ["matrix", "--graph", graph, "--sources", places, "--destinations", places],
            ["trip", "--graph", graph, "43.7395,7.4270", "43.7312,7.4197", "43.7275,7.4150"],
        ]
        for command in commands {
            for value in ["1e308", "100000.5", "inf", "nan", "0", "-5", "far"] {
                let result = try run(Array(command.prefix(1)) + ["--max-snap", value] + Array(command.dropFirst()))
                XCTAssertEqual(result.status, 2, "\(command[0]) --max-snap \(value): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("--max-snap must be a number of metres greater than 0 and at most 100000, not '\(value)'"),
                              "\(command[0]) --max-snap \(value): \(result.stderr)")
            }
            XCTAssertEqual(try run(Array(command.prefix(1)) + ["--max-snap", "100000"] + Array(command.dropFirst())).status, 0, command[0])
        }
        for value in ["0", "100001", "-1", "1e9", "ten"] {
            let result = try run(["matrix", "--graph", graph, "--sources", places, "--destinations", places, "--max-size", value])
            XCTAssertEqual(result.status, 2, "--max-size \(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--max-size must be a whole number from 1 to 100000, not '\(value)'"), result.stderr)
        }
    }
}
