import Foundation
import XCTest
import TestSupport

/// `wayfinder info`, run as a subprocess on good and damaged graph files.
final class InfoCommandTests: CLITestCase {
    /// Offset and length of a section, read from the section table that `info` prints.
    private func section(_ name: String, in report: String) -> (offset: Int, length: Int)? {
        for line in report.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 5, fields[0] == name else { continue }
            guard let offset = Int(fields[1].replacingOccurrences(of: ",", with: "")),
                  let length = Int(fields[2].replacingOccurrences(of: ",", with: "")) else { return nil }
            return (offset, length)
        }
        return nil
    }

    private func flipByte(at offset: Int, in path: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset] ^= 0xff
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    func testReportOnAGoodFile() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let result = try run(["info", graph])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let report = result.stdout
        XCTAssertTrue(report.hasPrefix(graph + "\n"), report)
        XCTAssertTrue(report.contains("Wayfinder graph, version 2"), report)
        XCTAssertTrue(report.contains("written by    wayfinder"), report)
        XCTAssertTrue(report.contains("profiles      car, foot"), report)
        XCTAssertTrue(report.contains("sections"), report)
        XCTAssertTrue(report.contains("13,739 nodes, 1,944 ways, 77 relations read"), report)
        XCTAssertTrue(report.contains("bounding box  43.7"), report)
        XCTAssertNotNil(report.range(of: #"checksums     all \d+ sections match their CRC-32"#, options: .regularExpression), report)
        for name in ["meta", "node.lat", "edge.from", "car.time_fwd", "foot.inc", "index.levels"] {
            XCTAssertNotNil(section(name, in: report), "section table lacks \(name)")
        }
        let meta = try XCTUnwrap(section("meta", in: report))
        XCTAssertEqual(meta.offset, 16384, "the first section follows the 16 KiB header")
        // The table matches the file: the last section ends at its end.
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: graph)[.size] as? Int)
        let names = ["index.levels", "car.ch_down", "foot.ch_down", "places.post"]
        let ends = names.compactMap { section($0, in: report) }.map { $0.offset + $0.length }
        XCTAssertEqual(ends.count, names.count, "the file has the hierarchy and place sections")
        // Every section of the table lies inside the file, and the last one ends at its end.
        let allEnds = report.split(separator: "\n").compactMap { line -> Int? in
            let fields = line.split(separator: " ")
            guard fields.count >= 5, fields[0].contains("."), let offset = Int(fields[1].replacingOccurrences(of: ",", with: "")),
                  let length = Int(fields[2].replacingOccurrences(of: ",", with: "")) else { return nil }
            return offset + length
        }
        XCTAssertGreaterThan(allEnds.count, names.count)
        XCTAssertEqual(allEnds.max(), size)
        XCTAssertTrue(report.contains("hierarchies"), report)
    }

    func testFlippedByteIsAChecksumMismatch() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let good = try run(["info", graph])
        let shape = try XCTUnwrap(section("shape.lat", in: good.stdout))
        XCTAssertGreaterThan(shape.length, 0)
        try flipByte(at: shape.offset + shape.length / 2, in: graph)

        let result = try run(["info", graph])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("checksum mismatch"), result.stderr)
        XCTAssertTrue(result.stderr.contains("'shape.lat'"), "names the damaged section: \(result.stderr)")
        XCTAssertEqual(result.stdout, "")

        // Skipping the verification opens it anyway (the header is intact).
        let unverified = try run(["info", graph, "--no-verify"])
        XCTAssertEqual(unverified.status, 0, unverified.stderr)
        XCTAssertTrue(unverified.stdout.contains("not verified"), unverified.stdout)
    }

    func testFlippedHeaderByteIsReported() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        try flipByte(at: 64 + 30, in: graph) // inside the first section-table entry
        let result = try run(["info", graph, "--no-verify"])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("header checksum"), result.stderr)
    }

    func testTruncatedFileSaysTruncated() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: graph))
        for keep in [bytes.count - 1, bytes.count / 2, 4095, 100] {
            try bytes.prefix(keep).write(to: URL(fileURLWithPath: graph))
            let result = try run(["info", graph])
            XCTAssertEqual(result.status, 3, "\(keep) bytes")
            XCTAssertTrue(result.stderr.contains("truncated"), "\(keep) bytes: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("\(keep) bytes"), result.stderr)
        }
        _ = FileManager.default.createFile(atPath: graph, contents: Data())
        let empty = try run(["info", graph])
        XCTAssertEqual(empty.status, 3)
        XCTAssertTrue(empty.stderr.contains("truncated"), empty.stderr)
    }

    func testNotAGraphOrMissing() throws {
        let notGraph = try run(["info", sample("monaco.osm.gz")])
        XCTAssertEqual(notGraph.status, 3)
        XCTAssertTrue(notGraph.stderr.contains("not a Wayfinder graph file"), notGraph.stderr)

        let missing = try run(["info", tmp("absent.wfg")])
        XCTAssertEqual(missing.status, 3)
        XCTAssertTrue(missing.stderr.contains("absent.wfg"), missing.stderr)

        let folder = try run(["info", temp.path])
        XCTAssertEqual(folder.status, 3)
        XCTAssertTrue(folder.stderr.contains("directory"), folder.stderr)
    }
}
