import CBZip2
import CZlib
import Foundation
import XCTest
import OSM

/// An in-memory byte stream that hands out at most `maxPerRead` bytes per call (to exercise partial reads).
final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private let maxPerRead: Int
    private var offset = 0
    /// How many times `read` was called.
    private(set) var reads = 0

    init(_ bytes: [UInt8], maxPerRead: Int = .max) {
        self.bytes = bytes
        self.maxPerRead = maxPerRead
    }

    convenience init(_ text: String, maxPerRead: Int = .max) { self.init(Array(text.utf8), maxPerRead: maxPerRead) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
        reads += 1
        let n = min(buffer.count, bytes.count - offset, maxPerRead)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in buffer.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}

/// Everything an `OSMXMLReader` hands to its handler, in order.
final class Recorder: OSMElementHandler {
    enum Element: Equatable {
        case node(OSMNode)
        case way(OSMWay)
        case relation(OSMRelation)
    }

    var elements: [Element] = []
    var nodes: [OSMNode] { elements.compactMap { if case let .node(n) = $0 { n } else { nil } } }
    var ways: [OSMWay] { elements.compactMap { if case let .way(w) = $0 { w } else { nil } } }
    var relations: [OSMRelation] { elements.compactMap { if case let .relation(r) = $0 { r } else { nil } } }

    func handle(node: OSMNode) { elements.append(.node(node)) }
    func handle(way: OSMWay) { elements.append(.way(way)) }
    func handle(relation: OSMRelation) { elements.append(.relation(relation)) }
}

/// Only counts elements (for the large real-data files).
final class Counter: OSMElementHandler {
    var nodes = 0, ways = 0, relations = 0, tags = 0
    func handle(node: OSMNode) { nodes += 1; tags += node.tags.count }
    func handle(way: OSMWay) { ways += 1; tags += way.tags.count }
    func handle(relation: OSMRelation) { relations += 1; tags += relation.tags.count }
}

enum Fixtures {
    /// A gzip member holding `bytes`, made with zlib's deflate.
    static func gzip(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(&stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                let result = deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "deflate did not finish: \(result)")
                return outBuf.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }

    static func gzip(_ text: String) -> [UInt8] { gzip(Array(text.utf8)) }

    /// A bzip2 stream holding `bytes`, made with libbz2.
    static func bzip2(_ bytes: [UInt8], blockSize100k: Int32 = 9) -> [UInt8] {
        var input = bytes
        var capacity = UInt32(bytes.count + bytes.count / 100 + 600)
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = input.withUnsafeMutableBytes { inBuf in
            output.withUnsafeMutableBytes { outBuf in
                BZ2_bzBuffToBuffCompress(outBuf.baseAddress!.assumingMemoryBound(to: CChar.self), &capacity,
                                         inBuf.baseAddress?.assumingMemoryBound(to: CChar.self) ?? UnsafeMutablePointer<CChar>(bitPattern: 1)!,
                                         UInt32(inBuf.count), blockSize100k, 0, 0)
            }
        }
        precondition(status == BZ_OK, "BZ2_bzBuffToBuffCompress failed: \(status)")
        return Array(output[0..<Int(capacity)])
    }

    static func bzip2(_ text: String) -> [UInt8] { bzip2(Array(text.utf8)) }

    /// Pseudo-random but reproducible bytes that do not compress away (so corruption lands in real data).
    static func noisyText(count: Int, seed: UInt64 = 0x5eed) -> [UInt8] {
        var state = seed
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 <>=\"/\n".utf8)
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return alphabet[Int((state >> 33) % UInt64(alphabet.count))]
        }
    }

    /// A small but complete OSM document with `count` nodes and a way over them.
    static func osmDocument(nodes count: Int) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"test\">\n"
        for i in 1...count {
            xml += "  <node id=\"\(i)\" lat=\"\(49 + Double(i) * 1e-4)\" lon=\"\(8 + Double(i) * 1e-4)\">\n"
            xml += "    <tag k=\"name\" v=\"node \(i)\"/>\n  </node>\n"
        }
        xml += "  <way id=\"1\">\n" + (1...count).map { "    <nd ref=\"\($0)\"/>\n" }.joined()
        xml += "    <tag k=\"highway\" v=\"residential\"/>\n  </way>\n</osm>\n"
        return xml
    }
}

/// Reads a byte source to its end in buffers of `bufferSize` bytes.
func readAll(_ source: ByteSource, bufferSize: Int = 1 << 16) throws -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    while true {
        let n = try buffer.withUnsafeMutableBytes { raw in try source.read(into: raw) }
        if n == 0 { return result }
        XCTAssertLessThanOrEqual(n, bufferSize)
        result.append(contentsOf: buffer[0..<n])
    }
}

/// Runs `body`, expecting it to throw an `OSMReadError`; returns the error (nil, with a failure, if it did not throw).
func expectReadError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> OSMReadError? {
    do {
        let value = try body()
        XCTFail("expected an OSMReadError, got \(value)", file: file, line: line)
        return nil
    } catch let error as OSMReadError {
        return error
    } catch {
        XCTFail("expected an OSMReadError, got \(error)", file: file, line: line)
        return nil
    }
}

/// Parses `xml` with `OSMXMLReader` into a recorder.
@discardableResult
func parse(_ xml: String, chunkSize: Int = 1 << 20, maxPerRead: Int = .max, into recorder: Recorder = Recorder(),
           name: String = "test.osm") throws -> (Recorder, OSMXMLReader) {
    let reader = OSMXMLReader(source: MemorySource(xml, maxPerRead: maxPerRead), name: name, handler: recorder)
    try reader.read(chunkSize: chunkSize)
    return (recorder, reader)
}

/// A fresh temporary folder, removed when the test ends.
func temporaryFolder(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("osmtests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}
