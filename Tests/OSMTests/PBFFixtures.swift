import CZlib
import Foundation
import OSM
import XCTest

/// Builds OSM PBF files in memory, block by block, for the reader's tests (osmformat.proto / fileformat.proto).
enum PBF {
    /// A block's string table under construction; index 0 is the empty string (keys_vals uses 0 as a delimiter).
    final class Strings {
        private(set) var all: [String] = [""]
        private var index: [String: Int] = ["": 0]
        func id(_ text: String) -> Int64 {
            if let found = index[text] { return Int64(found) }
            all.append(text)
            index[text] = all.count - 1
            return Int64(all.count - 1)
        }
    }

    enum Compression { case raw, zlib, other(field: Int) }

    /// zlib's `compress2` of `bytes`.
    static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(UInt(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in compress2(out.baseAddress, &length, input.baseAddress, UInt(input.count), 6) }
        }
        precondition(status == Z_OK)
        return Array(output[0..<Int(length)])
    }

    /// The `Blob` message holding `payload`.
    static func blobMessage(_ payload: [UInt8], compression: Compression = .zlib, rawSize: Int64? = nil) -> [UInt8] {
        var blob = ProtobufWriter()
        switch compression {
        case .raw:
            blob.bytes(1, payload)
        case .zlib:
            blob.int(2, rawSize ?? Int64(payload.count))
            blob.bytes(3, zlib(payload))
        case let .other(field):
            blob.int(2, rawSize ?? Int64(payload.count))
            blob.bytes(field, payload)
        }
        return blob.bytes
    }

    /// One framed blob: the 4-byte big-endian header length, the `BlobHeader`, then `blob` (a `Blob` message).
    static func frame(type: String, blob: [UInt8], dataSize: Int64? = nil) -> [UInt8] {
        var header = ProtobufWriter()
        header.string(1, type)
        header.int(3, dataSize ?? Int64(blob.count))
        let length = UInt32(header.bytes.count)
        return withUnsafeBytes(of: length.bigEndian, Array.init) + header.bytes + blob
    }

    static func headerBlock(required: [String] = ["OsmSchema-V0.6", "DenseNodes"], optional: [String] = []) -> [UInt8] {
        var header = ProtobufWriter()
        for feature in required { header.string(4, feature) }
        for feature in optional { header.string(5, feature) }
        header.string(16, "wayfinder tests")
        return header.bytes
    }

    /// The framed `OSMHeader` blob.
    static func header(required: [String] = ["OsmSchema-V0.6", "DenseNodes"], optional: [String] = []) -> [UInt8] {
        frame(type: "OSMHeader", blob: blobMessage(headerBlock(required: required, optional: optional)))
    }

    /// Encodes a coordinate in 1e-7 degrees as the stored value for `granularity` and `offset` (nanodegrees).
    static func stored(_ e7: Int32, granularity: Int64, offset: Int64) -> Int64 {
        (Int64(e7) * 100 - offset) / granularity
    }

    /// A `PrimitiveBlock` holding `groups`, whose string table is `strings`.
    static func primitiveBlock(_ strings: Strings, groups: [[UInt8]], granularity: Int64? = nil, latOffset: Int64? = nil, lonOffset: Int64? = nil) -> [UInt8] {
        var block = ProtobufWriter()
        block.message(1) { table in for s in strings.all { table.string(1, s) } }
        for group in groups { block.bytes(2, group) }
        if let granularity { block.int(17, granularity) }
        if let latOffset { block.int(19, latOffset) }
        if let lonOffset { block.int(20, lonOffset) }
        return block.bytes
    }

    /// A `PrimitiveGroup` of dense nodes (with a `DenseInfo` when `visible` is given).
    static func denseGroup(_ nodes: [OSMNode], _ strings: Strings, visible: [Bool]? = nil, granularity: Int64 = 100, latOffset: Int64 = 0, lonOffset: Int64 = 0) -> [UInt8] {
        var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = [], keysVals: [Int64] = []
        var lastID: Int64 = 0, lastLat: Int64 = 0, lastLon: Int64 = 0
        let anyTags = nodes.contains { !$0.tags.isEmpty }
        for node in nodes {
            ids.append(node.id - lastID); lastID = node.id
            let lat = stored(node.latitudeE7, granularity: granularity, offset: latOffset)
            let lon = stored(node.longitudeE7, granularity: granularity, offset: lonOffset)
            lats.append(lat - lastLat); lastLat = lat
            lons.append(lon - lastLon); lastLon = lon
            if anyTags {
                for tag in node.tags { keysVals.append(strings.id(tag.key)); keysVals.append(strings.id(tag.value)) }
                keysVals.append(0)
            }
        }
        var group = ProtobufWriter()
        group.message(2) { dense in
            dense.packedSInt(1, ids)
            if let visible {
                dense.message(5) { info in
                    info.packedInt(1, nodes.map { _ in 1 })
                    info.packed(6, visible.map { $0 ? 1 : 0 })
                }
            }
            dense.packedSInt(8, lats)
            dense.packedSInt(9, lons)
            if anyTags { dense.packedInt(10, keysVals) }
        }
        return group.bytes
    }

    /// A `PrimitiveGroup` of plain (non-dense) nodes.
    static func nodeGroup(_ nodes: [OSMNode], _ strings: Strings, visible: [Bool]? = nil) -> [UInt8] {
        var group = ProtobufWriter()
        for (i, node) in nodes.enumerated() {
            group.message(1) { n in
                n.sint(1, node.id)
                n.packed(2, node.tags.map { UInt64(strings.id($0.key)) })
                n.packed(3, node.tags.map { UInt64(strings.id($0.value)) })
                if let visible { n.message(4) { info in info.int(1, 1); info.int(6, visible[i] ? 1 : 0) } }
                n.sint(8, Int64(node.latitudeE7))
                n.sint(9, Int64(node.longitudeE7))
            }
        }
        return group.bytes
    }

    static func wayGroup(_ ways: [OSMWay], _ strings: Strings, visible: [Bool]? = nil) -> [UInt8] {
        var group = ProtobufWriter()
        for (i, way) in ways.enumerated() {
            group.message(3) { w in
                w.int(1, way.id)
                w.packed(2, way.tags.map { UInt64(strings.id($0.key)) })
                w.packed(3, way.tags.map { UInt64(strings.id($0.value)) })
                if let visible { w.message(4) { info in info.int(1, 1); info.int(6, visible[i] ? 1 : 0) } }
                var last: Int64 = 0
                w.packedSInt(8, way.nodeIDs.map { id in defer { last = id }; return id - last })
            }
        }
        return group.bytes
    }

    static func relationGroup(_ relations: [OSMRelation], _ strings: Strings) -> [UInt8] {
        var group = ProtobufWriter()
        for relation in relations {
            group.message(4) { r in
                r.int(1, relation.id)
                r.packed(2, relation.tags.map { UInt64(strings.id($0.key)) })
                r.packed(3, relation.tags.map { UInt64(strings.id($0.value)) })
                r.packedInt(8, relation.members.map { strings.id($0.role) })
                var last: Int64 = 0
                r.packedSInt(9, relation.members.map { m in defer { last = m.ref }; return m.ref - last })
                r.packedInt(10, relation.members.map { Int64($0.type.rawValue) })
            }
        }
        return group.bytes
    }

    /// A whole file: the header, then the nodes, ways and relations in blocks of at most `perBlock` elements.
    static func file(nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = [], perBlock: Int = 8000,
                     dense: Bool = true, compression: Compression = .zlib) -> [UInt8] {
        var bytes = header()
        func blocks<T>(_ items: [T], _ group: ([T], Strings) -> [UInt8]) {
            var start = 0
            while start < items.count {
                let chunk = Array(items[start..<min(items.count, start + perBlock)])
                let strings = Strings()
                let groupBytes = group(chunk, strings)
                bytes += frame(type: "OSMData", blob: blobMessage(primitiveBlock(strings, groups: [groupBytes]), compression: compression))
                start += perBlock
            }
        }
        blocks(nodes) { dense ? denseGroup($0, $1) : nodeGroup($0, $1) }
        blocks(ways) { wayGroup($0, $1) }
        blocks(relations) { relationGroup($0, $1) }
        return bytes
    }

    /// A data blob holding one `PrimitiveBlock` built from `groups` (each made with the given string table).
    static func dataBlob(_ build: (Strings) -> [[UInt8]], compression: Compression = .zlib, granularity: Int64? = nil, latOffset: Int64? = nil, lonOffset: Int64? = nil) -> [UInt8] {
        let strings = Strings()
        let groups = build(strings)
        return frame(type: "OSMData", blob: blobMessage(primitiveBlock(strings, groups: groups, granularity: granularity, latOffset: latOffset, lonOffset: lonOffset), compression: compression))
    }
}

/// Reads PBF bytes with `OSMPBFReader` into a recorder.
@discardableResult
func readPBF(_ bytes: [UInt8], threads: Int = 2, maxPerRead: Int = .max, into recorder: Recorder = Recorder(), name: String = "test.osm.pbf") throws -> (Recorder, OSMPBFReader) {
    let reader = OSMPBFReader(source: MemorySource(bytes, maxPerRead: maxPerRead), name: name, handler: recorder, threads: threads)
    try reader.read()
    return (recorder, reader)
}

/// Reads PBF bytes expecting a `.badPBF` error; returns its offset and message.
func expectPBFError(_ bytes: [UInt8], threads: Int = 2, file: StaticString = #filePath, line: UInt = #line) -> (offset: Int64, message: String)? {
    guard let error = expectReadError({ try readPBF(bytes, threads: threads) }, file: file, line: line) else { return nil }
    guard case let .badPBF(name, offset, message) = error else {
        XCTFail("expected .badPBF, got \(error)", file: file, line: line)
        return nil
    }
    XCTAssertEqual(name, "test.osm.pbf", file: file, line: line)
    XCTAssertTrue(error.description.hasPrefix("test.osm.pbf: OSM PBF blob at byte \(offset): "), error.description, file: file, line: line)
    return (offset, message)
}
