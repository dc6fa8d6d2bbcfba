import Foundation
import XCTest
import TestSupport

/// `wayfinder import FILE.osm.pbf`: the same graph and summary as the XML, standard input, and bad PBF input
/// (exit 3, the blob's offset named, no output file).
final class PBFImportCommandTests: CLITestCase {
    // MARK: a few protobuf bytes, by hand

    private func varint(_ value: UInt64) -> [UInt8] {
        var v = value, out: [UInt8] = []
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        return out + [UInt8(v)]
    }
    private func field(_ number: Int, _ bytes: [UInt8]) -> [UInt8] { varint(UInt64(number << 3 | 2)) + varint(UInt64(bytes.count)) + bytes }
    private func field(_ number: Int, int value: Int64) -> [UInt8] { varint(UInt64(number << 3)) + varint(UInt64(bitPattern: value)) }
    private func frame(_ type: String, blob: [UInt8], dataSize: Int64? = nil) -> [UInt8] {
        let header = field(1, Array(type.utf8)) + field(3, int: dataSize ?? Int64(blob.count))
        return withUnsafeBytes(of: UInt32(header.count).bigEndian, Array.init) + header + blob
    }
    /// A raw (uncompressed) blob of `type`.
    private func rawBlob(_ type: String, _ payload: [UInt8]) -> [UInt8] { frame(type, blob: field(1, payload)) }
    private func header(_ features: [String]) -> [UInt8] { rawBlob("OSMHeader", features.flatMap { field(4, Array($0.utf8)) }) }

    private var monaco: [UInt8] { get throws { Array(try Data(contentsOf: URL(fileURLWithPath: sample("monaco.osm.pbf")))) } }

    /// Where the blob after the header starts in Data/monaco.osm.pbf.
    private func secondBlobOffset(_ bytes: [UInt8]) -> Int {
        let headerLength = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        // BlobHeader: type (field 1), then datasize (field 3) as the last varint.
        var p = 4 + headerLength - 1
        var dataSize = Int(bytes[p]); p -= 1
        while bytes[p] & 0x80 != 0 { dataSize = dataSize << 7 | Int(bytes[p] & 0x7f); p -= 1 }
        XCTAssertEqual(bytes[p], 0x18, "datasize's key")
        return 4 + headerLength + dataSize
    }

    private func summaryLines(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Imported") && !$0.hasPrefix("  time") && !$0.hasPrefix("  transit time") }
    }

    // MARK: good input

    func testPBFGivesTheGraphAndSummaryOfTheXML() throws {
        let pbf = try run(["import", sample("monaco.osm.pbf"), "-o", tmp("pbf.wfg")])
        XCTAssertEqual(pbf.status, 0, pbf.stderr)
        XCTAssertEqual(pbf.stderr, "")
        XCTAssertTrue(pbf.stdout.contains("Imported \(sample("monaco.osm.pbf")) → \(tmp("pbf.wfg"))"), pbf.stdout)
        XCTAssertTrue(pbf.stdout.contains("13,739 nodes, 1,944 ways, 77 relations"), pbf.stdout)
        XCTAssertTrue(pbf.stdout.contains("contraction hierarchies"), pbf.stdout)
        let xml = try run(["import", sample("monaco.osm.gz"), "-o", tmp("xml.wfg")])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(summaryLines(pbf.stdout), summaryLines(xml.stdout))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp("pbf.wfg"))), try Data(contentsOf: URL(fileURLWithPath: tmp("xml.wfg"))),
                       "byte-identical graph files")
    }

    func testPBFFromStandardInputAndTheDefaultOutputName() throws {
        let result = try run(["import", "-", "-o", tmp("stdin.wfg"), "--no-ch"], input: .pipe(Data(try monaco)))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Imported standard input → \(tmp("stdin.wfg"))"), result.stdout)
        XCTAssertTrue(result.stdout.contains("13,739 nodes, 1,944 ways, 77 relations"), result.stdout)

        let named = try run(["import", sample("monaco.osm.pbf"), "--no-ch", "-q"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp("monaco.wfg")), "FILE.osm.pbf → FILE.wfg")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp("stdin.wfg"))), try Data(contentsOf: URL(fileURLWithPath: tmp("monaco.wfg"))))
    }

    func testProgressOnATerminal() throws {
        let loud = try run(["import", sample("monaco.osm.pbf"), "-o", tmp("loud.wfg"), "--no-ch", "--no-landmarks"], terminalStderr: true)
        XCTAssertEqual(loud.status, 0, loud.terminal)
        XCTAssertTrue(loud.terminal.contains("building"), loud.terminal.debugDescription)
        XCTAssertFalse(loud.terminal.contains("XML"), "no XML figure for PBF: \(loud.terminal.debugDescription)")
    }

    func testPBFWithGTFSGivesTheFileOfTheXML() throws {
        guard let osmium = ["/usr/bin/osmium", "/usr/local/bin/osmium"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("osmium-tool is not installed (apt-get install osmium-tool)")
        }
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: osmium)
        convert.arguments = ["cat", sample("terre-haute.osm.gz"), "-o", tmp("th.osm.pbf"), "--no-progress"]
        try convert.run()
        convert.waitUntilExit()
        XCTAssertEqual(convert.terminationStatus, 0)
        let pbf = try run(["import", tmp("th.osm.pbf"), "--gtfs", sample("terre-haute-gtfs.zip"), "-o", tmp("pbf.wfg"), "--no-ch"])
        XCTAssertEqual(pbf.status, 0, pbf.stderr)
        XCTAssertTrue(pbf.stdout.contains("stops"), pbf.stdout)
        let xml = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "-o", tmp("xml.wfg"), "--no-ch"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(summaryLines(pbf.stdout), summaryLines(xml.stdout))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp("pbf.wfg"))), try Data(contentsOf: URL(fileURLWithPath: tmp("xml.wfg"))))
    }

    // MARK: bad input

    /// Imports `bytes` from a file: exit 3, the message names the file, the blob's offset and `words`; nothing written.
    private func assertRefused(_ bytes: [UInt8], offset: Int, _ words: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let input = tmp("bad.osm.pbf")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let result = try run(["import", input, "-o", tmp("bad.wfg")])
        XCTAssertEqual(result.status, 3, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("wayfinder: error: \(input): OSM PBF blob at byte \(offset): "), result.stderr, file: file, line: line)
        for word in words { XCTAssertTrue(result.stderr.contains(word), "lacks '\(word)': \(result.stderr)", file: file, line: line) }
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        let left = try FileManager.default.contentsOfDirectory(atPath: temp.path).filter { !$0.hasPrefix(".stdout-") && !$0.hasPrefix(".stderr-") }
        XCTAssertEqual(left.sorted(), ["bad.osm.pbf"], "no output file is left", file: file, line: line)
    }

    func testTruncatedPBF() throws {
        let bytes = try monaco
        let second = secondBlobOffset(bytes)
        try assertRefused(Array(bytes.prefix(second + 100)), offset: second, ["the file ends inside the blob", "truncated"])
        try assertRefused(Array(bytes.prefix(second + 2)), offset: second, ["4-byte length", "truncated"])
    }

    func testCorruptBlob() throws {
        var bytes = try monaco
        let second = secondBlobOffset(bytes)
        for i in (second + 60)..<(second + 90) { bytes[i] ^= 0xa5 }
        try assertRefused(bytes, offset: second, ["zlib data"])
    }

    func testSizesOverTheFormatsLimits() throws {
        let start = header(["OsmSchema-V0.6", "DenseNodes"])
        try assertRefused(start + frame("OSMData", blob: [], dataSize: 40 << 20), offset: start.count, ["larger than the format's 32 MiB limit"])
        try assertRefused(start + [0x00, 0x02, 0x00, 0x00] + [UInt8](repeating: 0, count: 64), offset: start.count, ["BlobHeader of 131072 bytes", "64 KiB limit"])
        try assertRefused(start + [0xff, 0xff, 0xff, 0xf0], offset: start.count, ["negative BlobHeader length"])
        try assertRefused(start + frame("OSMData", blob: field(2, int: 100) + field(3, [0x78, 0x9c, 1, 2, 3])), offset: start.count, ["zlib data"])
    }

    func testBadStringIndexAndNegativeLength() throws {
        let start = header(["OsmSchema-V0.6", "DenseNodes"])
        // A dense node whose keys_vals name string 9 of a table of one.
        let dense = field(1, varint(2)) + field(8, varint(0)) + field(9, varint(0)) + field(10, varint(9) + varint(9) + varint(0))
        let block = field(1, field(1, [])) + field(2, field(2, dense))
        try assertRefused(start + rawBlob("OSMData", block), offset: start.count, ["node 1", "string index 9", "string table"])
        // A string table entry whose length is negative (a ten-byte varint).
        let negative = field(1, [0x0a] + varint(UInt64(bitPattern: -3)))
        try assertRefused(start + rawBlob("OSMData", negative), offset: start.count, ["negative length -3"])
    }

    func testUnknownRequiredFeatures() throws {
        try assertRefused(header(["OsmSchema-V0.6", "HistoricalInformation"]), offset: 0, ["HistoricalInformation", "history"])
        try assertRefused(header(["OsmSchema-V0.6", "DenseNodes", "Sort.Geographic"]), offset: 0, ["requires the feature Sort.Geographic"])
    }
}
