import Foundation
#if canImport(Glibc)
import Glibc
#endif
import OSM
import XCTest
import TestSupport

/// `InputCompression.detect` and `OSMInput`: the compression comes from the first bytes, never the name.
final class CompressionDetectionTests: XCTestCase {
    let xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n  <node id=\"1\" lat=\"1.5\" lon=\"2.5\"/>\n</osm>\n"

    // MARK: detect

    func testDetectsPlainGzipAndBzip2FromLeadingBytes() throws {
        XCTAssertEqual(try InputCompression.detect(Array(xml.utf8.prefix(16)), name: "a.osm.gz"), InputCompression.none)
        XCTAssertEqual(try InputCompression.detect(Array(Fixtures.gzip(xml).prefix(16)), name: "a.osm"), .gzip)
        XCTAssertEqual(try InputCompression.detect(Array(Fixtures.bzip2(xml).prefix(16)), name: "a.osm.gz"), .bzip2)
        // Only the magic matters, however short the head.
        XCTAssertEqual(try InputCompression.detect([0x1f, 0x8b], name: "x"), .gzip)
        XCTAssertEqual(try InputCompression.detect(Array("BZh".utf8), name: "x"), .bzip2)
        // Near misses are not taken for compressed data.
        XCTAssertEqual(try InputCompression.detect([0x1f], name: "x"), InputCompression.none)
        XCTAssertEqual(try InputCompression.detect(Array("BZ".utf8), name: "x"), InputCompression.none)
        XCTAssertEqual(try InputCompression.detect([0x8b, 0x1f, 0x08], name: "x"), InputCompression.none)
        // A byte-order mark before plain XML is still plain XML.
        XCTAssertEqual(try InputCompression.detect([0xef, 0xbb, 0xbf] + Array("<osm>".utf8), name: "x"), InputCompression.none)
    }

    func testEmptyHeadIsEmpty() {
        XCTAssertEqual(expectReadError { try InputCompression.detect([], name: "nothing.osm") }, .empty(name: "nothing.osm"))
    }

    func testUnsupportedFormatsAreNamed() {
        let cases: [(String, [UInt8], String)] = [
            ("xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4, 0x46], "xz"),
            ("zstd", [0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x10, 0x81, 0x00], "zstd"),
            ("zip", [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00], "zip"),
        ]
        for (label, head, word) in cases {
            guard let error = expectReadError({ try InputCompression.detect(head, name: "in.osm") }) else { continue }
            guard case let .unsupportedFormat(name, message) = error else {
                XCTFail("\(label): expected .unsupportedFormat, got \(error)")
                continue
            }
            XCTAssertEqual(name, "in.osm", label)
            XCTAssertTrue(message.contains(word), "\(label): message should name the format: \(message)")
            XCTAssertTrue(error.description.hasPrefix("in.osm: "), label)
        }
    }

    func testPBFIsRecognisedFromItsFirstBlobHeader() throws {
        let pbf: [UInt8] = [0x00, 0x00, 0x00, 0x0d, 0x0a, 0x09] + Array("OSMHeader".utf8) + [0x18, 0x7b]
        XCTAssertEqual(try InputCompression.detect(pbf, name: "in.osm"), .pbf, "the bytes tell, not the name")
        // BlobHeader whose first field is encoded differently: "OSMHeader" starts at byte 6.
        let head: [UInt8] = [0x00, 0x00, 0x00, 0x0e, 0x0a, 0x09] + Array("OSMHeader".utf8)
        XCTAssertEqual(try InputCompression.detect(head, name: "x.pbf"), .pbf)
        let other: [UInt8] = [0x00, 0x00, 0x00, 0x0e, 0x12, 0x7f] + Array("OSMHeader".utf8)
        XCTAssertEqual(try InputCompression.detect(other, name: "x.pbf"), .pbf)
        // An OSMData blob first is not taken for PBF (the reader would refuse it anyway): plain XML, which then fails as not OSM.
        XCTAssertEqual(try InputCompression.detect([0x00, 0x00, 0x00, 0x0d, 0x0a, 0x07] + Array("OSMData".utf8), name: "x"), InputCompression.none)
    }

    // MARK: OSMInput on files

    private func write(_ bytes: [UInt8], _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func decodedText(_ input: OSMInput) throws -> String {
        String(decoding: try readAll(input.source), as: UTF8.self)
    }

    func testOSMInputIgnoresTheFileName() throws {
        let folder = try temporaryFolder(self)
        let plainNamedGz = try write(Array(xml.utf8), "plain.osm.gz", in: folder)
        let gzipNamedOsm = try write(Fixtures.gzip(xml), "gzip.osm", in: folder)
        let bzipNamedGz = try write(Fixtures.bzip2(xml), "bzip.osm.gz", in: folder)
        let gzipNamedBz2 = try write(Fixtures.gzip(xml), "gzip.osm.bz2", in: folder)

        let a = try OSMInput(path: plainNamedGz)
        XCTAssertEqual(a.compression, InputCompression.none)
        XCTAssertEqual(try decodedText(a), xml)
        let b = try OSMInput(path: gzipNamedOsm)
        XCTAssertEqual(b.compression, .gzip)
        XCTAssertEqual(try decodedText(b), xml)
        let c = try OSMInput(path: bzipNamedGz)
        XCTAssertEqual(c.compression, .bzip2)
        XCTAssertEqual(try decodedText(c), xml)
        let d = try OSMInput(path: gzipNamedBz2)
        XCTAssertEqual(d.compression, .gzip)
        XCTAssertEqual(try decodedText(d), xml)
    }

    func testOSMInputCountsRawBytesAgainstTheFileSize() throws {
        let folder = try temporaryFolder(self)
        let compressed = Fixtures.gzip(Fixtures.osmDocument(nodes: 200))
        let path = try write(compressed, "doc.osm.gz", in: folder)
        let input = try OSMInput(path: path)
        XCTAssertEqual(input.file.name, path)
        XCTAssertEqual(input.file.totalBytes, Int64(compressed.count))
        let text = try decodedText(input)
        XCTAssertEqual(text, Fixtures.osmDocument(nodes: 200))
        XCTAssertEqual(input.file.bytesRead, Int64(compressed.count), "every raw byte, the peeked ones included, is counted once")
    }

    func testTinyPlainFileShorterThanThePeek() throws {
        let folder = try temporaryFolder(self)
        let path = try write(Array("<osm/>".utf8), "tiny.osm", in: folder)
        let input = try OSMInput(path: path)
        XCTAssertEqual(input.compression, InputCompression.none)
        XCTAssertEqual(try decodedText(input), "<osm/>")
    }

    func testOSMInputRejectsUnsupportedFilesWhateverTheirName() throws {
        let folder = try temporaryFolder(self)
        let xzNamedOsm = try write([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] + Array(repeating: 0, count: 30), "region.osm", in: folder)
        guard case .unsupportedFormat? = expectReadError({ try OSMInput(path: xzNamedOsm) }) else { return XCTFail("xz accepted") }
        // The bundled GTFS feed is a real zip archive.
        let zip = packageRoot.appendingPathComponent("Data/terre-haute-gtfs.zip").path
        guard case let .unsupportedFormat(name, message)? = expectReadError({ try OSMInput(path: zip) }) else { return XCTFail("zip accepted") }
        XCTAssertEqual(name, zip)
        XCTAssertTrue(message.contains("zip"), message)
    }

    func testEmptyFileIsReportedAsEmpty() throws {
        let folder = try temporaryFolder(self)
        let path = try write([], "empty.osm.gz", in: folder)
        XCTAssertEqual(expectReadError { try OSMInput(path: path) }, .empty(name: path))
    }

    func testMissingFileAndDirectoryAreIOErrors() throws {
        let folder = try temporaryFolder(self)
        let missing = folder.appendingPathComponent("missing.osm").path
        guard case let .io(path, message)? = expectReadError({ try OSMInput(path: missing) }) else { return XCTFail() }
        XCTAssertEqual(path, missing)
        XCTAssertTrue(message.contains("No such file"), message)
        guard case let .io(dirPath, dirMessage)? = expectReadError({ try FileByteSource(path: folder.path) }) else { return XCTFail() }
        XCTAssertEqual(dirPath, folder.path)
        XCTAssertTrue(dirMessage.contains("directory"), dirMessage)
    }

    // MARK: standard input

    /// Runs `body` with standard input replaced by a pipe holding `bytes` (closed at its end).
    private func withStandardInput<T>(_ bytes: [UInt8], _ body: () throws -> T) throws -> T {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        precondition(bytes.count < 60_000, "must fit in the pipe buffer")
        let written = bytes.withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) }
        XCTAssertEqual(written, bytes.count)
        close(fds[1])
        let saved = dup(0)
        XCTAssertGreaterThanOrEqual(saved, 0)
        dup2(fds[0], 0)
        close(fds[0])
        defer {
            dup2(saved, 0)
            close(saved)
        }
        return try body()
    }

    func testStandardInputIsReadForDash() throws {
        let document = Fixtures.osmDocument(nodes: 50)
        let compressed = Fixtures.gzip(document)
        try withStandardInput(compressed) {
            let input = try OSMInput(path: "-")
            XCTAssertEqual(input.file.name, "standard input")
            XCTAssertNil(input.file.totalBytes, "a pipe has no size")
            XCTAssertEqual(input.compression, .gzip)
            let recorder = Recorder()
            let reader = OSMXMLReader(source: input.source, name: input.file.name, handler: recorder)
            try reader.read()
            XCTAssertEqual(recorder.nodes.count, 50)
            XCTAssertEqual(recorder.ways.first?.nodeIDs, Array(1...50))
            XCTAssertEqual(input.file.bytesRead, Int64(compressed.count))
        }
        try withStandardInput(Array(document.utf8)) {
            let file = try FileByteSource(path: "-")
            XCTAssertEqual(file.name, "standard input")
            XCTAssertEqual(try file.peek(5), Array("<?xml".utf8))
            XCTAssertEqual(String(decoding: try readAll(file, bufferSize: 3), as: UTF8.self), document)
        }
    }

    func testEmptyStandardInputIsEmpty() throws {
        try withStandardInput([]) {
            XCTAssertEqual(expectReadError { try OSMInput(path: "-") }, .empty(name: "standard input"))
        }
    }
}
