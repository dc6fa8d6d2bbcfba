import Foundation
import OSM
import XCTest
import TestSupport

/// `GzipByteSource` and `Bzip2ByteSource`: whole streams, concatenated members/streams, truncation and corruption.
final class DecompressionTests: XCTestCase {
    enum Format: String, CaseIterable { case gzip, bzip2 }

    private func compress(_ bytes: [UInt8], _ format: Format) -> [UInt8] {
        switch format {
        case .gzip: return Fixtures.gzip(bytes)
        case .bzip2: return Fixtures.bzip2(bytes)
        }
    }

    private func decoder(_ compressed: [UInt8], _ format: Format, maxPerRead: Int = .max) throws -> ByteSource {
        let input = MemorySource(compressed, maxPerRead: maxPerRead)
        switch format {
        case .gzip: return try GzipByteSource(input: input, name: "in.\(format.rawValue)")
        case .bzip2: return try Bzip2ByteSource(input: input, name: "in.\(format.rawValue)")
        }
    }

    private func decode(_ compressed: [UInt8], _ format: Format, maxPerRead: Int = .max, bufferSize: Int = 1 << 16) throws -> [UInt8] {
        try readAll(try decoder(compressed, format, maxPerRead: maxPerRead), bufferSize: bufferSize)
    }

    func testRoundTripWithAnyBufferAndInputSizes() throws {
        let text = Array(Fixtures.osmDocument(nodes: 300).utf8)
        for format in Format.allCases {
            let compressed = compress(text, format)
            XCTAssertEqual(try decode(compressed, format), text, format.rawValue)
            XCTAssertEqual(try decode(compressed, format, bufferSize: 1), text, "\(format): 1-byte output buffer")
            XCTAssertEqual(try decode(compressed, format, maxPerRead: 1, bufferSize: 7), text, "\(format): 1-byte input reads")
            XCTAssertEqual(try decode(compressed, format, maxPerRead: 13, bufferSize: 4096), text, format.rawValue)
        }
    }

    func testLargeInputSpanningManyInputBuffers() throws {
        // About a megabyte that does not compress well, so the compressed stream is larger than the 256 KiB input buffer.
        let text = Fixtures.noisyText(count: 1_200_000)
        let gz = Fixtures.gzip(text)
        XCTAssertGreaterThan(gz.count, 1 << 18)
        XCTAssertEqual(try decode(gz, .gzip), text)
        // bzip2 with 100 kB blocks: many blocks in one stream.
        let bz = Fixtures.bzip2(text, blockSize100k: 1)
        XCTAssertGreaterThan(bz.count, 1 << 18)
        XCTAssertEqual(try decode(bz, .bzip2, maxPerRead: 100_003, bufferSize: 65_537), text)
    }

    func testEndOfStreamKeepsReturningZero() throws {
        for format in Format.allCases {
            let source = try decoder(compress(Array("<osm/>".utf8), format), format)
            XCTAssertEqual(try readAll(source), Array("<osm/>".utf8))
            var buffer = [UInt8](repeating: 0, count: 16)
            let again = try buffer.withUnsafeMutableBytes { raw in try source.read(into: raw) }
            XCTAssertEqual(again, 0, format.rawValue)
        }
    }

    func testConcatenatedMembersAndStreamsDecodeFully() throws {
        let parts = ["<osm>\n  <node id=\"1\" lat=\"1\" lon=\"1\"/>\n", "", "  <node id=\"2\" lat=\"2\" lon=\"2\"/>\n", "</osm>\n"]
        let whole = Array(parts.joined().utf8)
        for format in Format.allCases {
            let concatenated = parts.flatMap { compress(Array($0.utf8), format) }
            XCTAssertEqual(try decode(concatenated, format), whole, "\(format): every member decoded")
            XCTAssertEqual(try decode(concatenated, format, maxPerRead: 1, bufferSize: 5), whole, "\(format): members split across reads")
            // Through the XML reader: both nodes come out, not only the first member's.
            let recorder = Recorder()
            try OSMXMLReader(source: try decoder(concatenated, format), name: "x", handler: recorder).read(chunkSize: 16)
            XCTAssertEqual(recorder.nodes.map(\.id), [1, 2], format.rawValue)
        }
    }

    func testLargeConcatenatedMembers() throws {
        let a = Fixtures.noisyText(count: 300_000, seed: 1), b = Fixtures.noisyText(count: 300_000, seed: 2)
        XCTAssertEqual(try decode(Fixtures.gzip(a) + Fixtures.gzip(b), .gzip), a + b)
        XCTAssertEqual(try decode(Fixtures.bzip2(a) + Fixtures.bzip2(b), .bzip2, bufferSize: 100_000), a + b)
    }

    func testFilesFromTheCommandLineTools() throws {
        // gzip(1) writes a file name and time into its header; cat-ing files makes multi-member/multi-stream files.
        let folder = try temporaryFolder(self)
        let a = Array(Fixtures.osmDocument(nodes: 20).utf8), b = Array("<!-- second part -->\n".utf8)
        try Data(a).write(to: folder.appendingPathComponent("a.osm"))
        try Data(b).write(to: folder.appendingPathComponent("b.osm"))
        for (tool, format) in [("gzip", Format.gzip), ("bzip2", .bzip2)] {
            let executable = "/usr/bin/\(tool)"
            guard FileManager.default.isExecutableFile(atPath: executable) else { continue }
            let script = "\(executable) -kf a.osm b.osm && cat a.osm.\(tool == "gzip" ? "gz" : "bz2") b.osm.\(tool == "gzip" ? "gz" : "bz2") > both"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            process.currentDirectoryURL = folder
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, script)
            let both = try OSMInput(path: folder.appendingPathComponent("both").path)
            XCTAssertEqual(both.compression.rawValue, format.rawValue)
            XCTAssertEqual(try readAll(both.source), a + b, tool)
        }
    }

    // MARK: damage

    private func assertCorrupt(_ compressed: [UInt8], _ format: Format, mentioning word: String? = nil, _ label: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        guard let error = expectReadError({ try decode(compressed, format, bufferSize: 4096) }, file: file, line: line) else { return }
        guard case let .corruptCompression(name, kind, message) = error else {
            return XCTFail("\(label): expected .corruptCompression, got \(error)", file: file, line: line)
        }
        XCTAssertEqual(name, "in.\(format.rawValue)", file: file, line: line)
        XCTAssertEqual(kind, format.rawValue, file: file, line: line)
        if let word { XCTAssertTrue(message.contains(word), "\(label): \(message)", file: file, line: line) }
        XCTAssertTrue(error.description.contains("corrupt or truncated"), error.description, file: file, line: line)
    }

    func testTruncatedStreamsAreCorruptCompression() throws {
        let text = Fixtures.noisyText(count: 50_000)
        for format in Format.allCases {
            let compressed = compress(text, format)
            assertCorrupt(Array(compressed.prefix(compressed.count / 2)), format, mentioning: "truncated", "\(format) cut in half")
            assertCorrupt(Array(compressed.dropLast()), format, mentioning: "truncated", "\(format) missing its last byte")
            assertCorrupt(Array(compressed.prefix(10)), format, mentioning: "truncated", "\(format) header only")
            // A complete first member followed by a truncated second one is still an error.
            let second = compress(Array("more".utf8), format)
            assertCorrupt(compressed + second.dropLast(3), format, mentioning: "truncated", "\(format) second member truncated")
        }
    }

    func testTruncatedRealFileFailsThroughTheReader() throws {
        let folder = try temporaryFolder(self)
        let original = try Data(contentsOf: packageRoot.appendingPathComponent("Data/monaco.osm.gz"))
        let path = folder.appendingPathComponent("monaco-cut.osm.gz").path
        try original.prefix(original.count / 3).write(to: URL(fileURLWithPath: path))
        let input = try OSMInput(path: path)
        let reader = OSMXMLReader(source: input.source, name: input.file.name, handler: Counter())
        guard case let .corruptCompression(name, format, _)? = expectReadError({ try reader.read() }) else { return XCTFail() }
        XCTAssertEqual(name, path)
        XCTAssertEqual(format, "gzip")
    }

    func testCorruptedBytesInTheMiddleAreReported() throws {
        let text = Fixtures.noisyText(count: 200_000)
        for format in Format.allCases {
            var compressed = compress(text, format)
            compressed[compressed.count / 2] ^= 0x55
            compressed[compressed.count / 2 + 1] ^= 0xa3
            assertCorrupt(compressed, format, "\(format) with flipped bytes")
        }
        var bz = Fixtures.bzip2(text)
        bz[bz.count / 2] ^= 0x55
        assertCorrupt(bz, .bzip2, mentioning: "data integrity", "bzip2 block CRC")
    }

    func testCorruptedRealFileFailsClearlyThroughTheReader() throws {
        let folder = try temporaryFolder(self)
        var bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent("Data/monaco.osm.gz")))
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 8) { bytes[i] ^= 0x5a }
        let path = folder.appendingPathComponent("monaco-damaged.osm.gz").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let input = try OSMInput(path: path)
        let reader = OSMXMLReader(source: input.source, name: input.file.name, handler: Counter())
        guard let error = expectReadError({ try reader.read() }) else { return }
        // Damage usually shows in the deflate data; if garbage got out first, the XML parser names its position.
        switch error {
        case let .corruptCompression(name, format, message):
            XCTAssertEqual(name, path)
            XCTAssertEqual(format, "gzip")
            XCTAssertFalse(message.isEmpty)
        case let .malformedXML(name, line, _, _), let .badElement(name, line, _, _):
            XCTAssertEqual(name, path)
            XCTAssertGreaterThan(line, 1)
        default:
            XCTFail("unexpected error \(error)")
        }
        XCTAssertTrue(error.description.hasPrefix(path), error.description)
    }

    func testBadBzip2HeaderAfterMagic() {
        // "BZh" followed by an invalid block size digit: detected as bzip2, rejected by libbz2.
        let bytes = Array("BZh0".utf8) + Array(repeating: 0x41, count: 40)
        assertCorrupt(bytes, .bzip2, mentioning: "header", "bad bzip2 header")
    }
}
