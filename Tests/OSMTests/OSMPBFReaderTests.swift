import Foundation
import OSM
import XCTest

/// `OSMPBFReader` and `PBFBlockDecoder`: every element kind, delta coding, string tables, coordinates, deletions,
/// file order across threads, and each kind of bad input, named with the offset of its blob.
final class OSMPBFReaderTests: XCTestCase {
    static let nodes = [
        OSMNode(id: 1, latitudeE7: 494_123_456, longitudeE7: 86_912_345),
        OSMNode(id: 2, latitudeE7: -338_688_197, longitudeE7: 1_512_092_955, tags: [OSMTag(key: "name", value: "Café \"Zur Brücke\" <1>"), OSMTag(key: "amenity", value: "cafe")]),
        OSMNode(id: -17, latitudeE7: 0, longitudeE7: -5_000_000),
        OSMNode(id: 12_000_000_000, latitudeE7: 900_000_000, longitudeE7: -1_800_000_000, tags: [OSMTag(key: "barrier", value: "gate")]),
        OSMNode(id: 12_000_000_001, latitudeE7: -900_000_000, longitudeE7: 1_800_000_000),
    ]
    static let ways = [
        OSMWay(id: 10, nodeIDs: [1, 2, -17, 1, 12_000_000_000], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Hauptstraße")]),
        OSMWay(id: 11, nodeIDs: [2, 1]),
        OSMWay(id: 5_000_000_000, nodeIDs: [12_000_000_001, 12_000_000_000], tags: [OSMTag(key: "highway", value: "residential")]),
    ]
    static let relations = [
        OSMRelation(id: 100, members: [
            OSMMember(type: .way, ref: 10, role: "from"), OSMMember(type: .node, ref: 2, role: "via"),
            OSMMember(type: .way, ref: 11, role: "to"), OSMMember(type: .relation, ref: -3, role: ""),
            OSMMember(type: .node, ref: 12_000_000_000, role: ""),
        ], tags: [OSMTag(key: "type", value: "restriction"), OSMTag(key: "restriction", value: "no_left_turn")]),
        OSMRelation(id: 101),
    ]

    private func assertSample(_ recorder: Recorder, file: StaticString = #filePath, line: UInt = #line) {
        let expected: [Recorder.Element] = Self.nodes.map { .node($0) } + Self.ways.map { .way($0) } + Self.relations.map { .relation($0) }
        XCTAssertEqual(recorder.elements, expected, file: file, line: line)
    }

    // MARK: elements

    func testDenseNodesWaysAndRelations() throws {
        let (recorder, reader) = try readPBF(PBF.file(nodes: Self.nodes, ways: Self.ways, relations: Self.relations))
        assertSample(recorder)
        XCTAssertEqual(reader.nodeCount, 5)
        XCTAssertEqual(reader.wayCount, 3)
        XCTAssertEqual(reader.relationCount, 2)
        XCTAssertEqual(reader.blockCount, 3)
        XCTAssertEqual(reader.deletedCount, 0)
        XCTAssertEqual(reader.header?.requiredFeatures, ["OsmSchema-V0.6", "DenseNodes"])
        XCTAssertEqual(reader.header?.writingProgram, "wayfinder tests")
    }

    func testPlainNodesAndRawBlobs() throws {
        let (recorder, _) = try readPBF(PBF.file(nodes: Self.nodes, ways: Self.ways, relations: Self.relations, dense: false, compression: .raw))
        assertSample(recorder)
    }

    func testSmallBlocksOnManyThreadsKeepFileOrder() throws {
        var nodes: [OSMNode] = []
        for i in 0..<5000 {
            let tags: [OSMTag] = i % 7 == 0 ? [OSMTag(key: "k\(i % 5)", value: "v\(i)")] : []
            let id: Int64 = Int64(i) * 3 + (1 << 33)
            nodes.append(OSMNode(id: id, latitudeE7: Int32(i * 1000), longitudeE7: -Int32(i * 777), tags: tags))
        }
        var ways: [OSMWay] = []
        for i in 0..<700 {
            let refs: [Int64] = [nodes[i].id, nodes[i + 1].id, nodes[i * 2].id]
            ways.append(OSMWay(id: Int64(i), nodeIDs: refs, tags: [OSMTag(key: "highway", value: "service")]))
        }
        let bytes = PBF.file(nodes: nodes, ways: ways, perBlock: 37)
        for threads in [1, 2, 5] {
            for maxPerRead in [Int.max, 7] {
                let (recorder, reader) = try readPBF(bytes, threads: threads, maxPerRead: maxPerRead)
                XCTAssertEqual(recorder.nodes, nodes, "threads \(threads)")
                XCTAssertEqual(recorder.ways, ways, "threads \(threads)")
                XCTAssertEqual(recorder.elements.count, 5700)
                let blocks: Int = (5000 + 36) / 37 + (700 + 36) / 37
                XCTAssertEqual(reader.blockCount, blocks)
                XCTAssertEqual(reader.bytesConsumed, Int64(bytes.count))
            }
        }
    }

    func testGranularityAndOffsets() throws {
        // Stored values in units of 1000 nanodegrees, shifted by offsets; rounded half away from zero to 1e-7 degrees.
        let bytes = PBF.header() + PBF.dataBlob({ strings in
            var group = ProtobufWriter()
            group.message(2) { dense in
                dense.packedSInt(1, [1, 1, 1])
                dense.packedSInt(8, [49_000_000, 1, -2])     // 49.000 000 0 + offset, then +1 and −2 units
                dense.packedSInt(9, [-8_000_000, -1, 3])
            }
            return [group.bytes]
        }, granularity: 1000, latOffset: 55, lonOffset: -150)
        let (recorder, _) = try readPBF(bytes)
        // lat: 49e9 + 55 ns → 490 000 000.55 → 490 000 001; then +1000 ns → 490 000 010.55 → 490 000 011; then −2000 ns.
        XCTAssertEqual(recorder.nodes.map(\.latitudeE7), [490_000_001, 490_000_011, 489_999_991])
        // lon: −8e9 − 150 ns → −80 000 001.5 → −80 000 002; −1000 ns → −80 000 011.5 → −80 000 012; +3000 ns.
        XCTAssertEqual(recorder.nodes.map(\.longitudeE7), [-80_000_002, -80_000_012, -79_999_982])
        XCTAssertEqual(recorder.nodes.map(\.id), [1, 2, 3], "ids are delta coded")
    }

    func testDeletedElementsAreSkipped() throws {
        let bytes = PBF.header() + PBF.dataBlob { strings in
            [PBF.denseGroup(Array(Self.nodes.prefix(3)), strings, visible: [true, false, true]),
             PBF.nodeGroup(Array(Self.nodes.suffix(2)), strings, visible: [false, true]),
             PBF.wayGroup(Self.ways, strings, visible: [true, false, true])]
        }
        let (recorder, reader) = try readPBF(bytes)
        XCTAssertEqual(recorder.nodes.map(\.id), [1, -17, 12_000_000_001])
        XCTAssertEqual(recorder.nodes.first?.tags, [], "tags of the skipped node do not shift onto the next")
        XCTAssertEqual(recorder.nodes, [Self.nodes[0], Self.nodes[2], Self.nodes[4]])
        XCTAssertEqual(recorder.ways.map(\.id), [10, 5_000_000_000])
        XCTAssertEqual(reader.deletedCount, 3)
        XCTAssertEqual(reader.nodeCount, 3)
    }

    func testUnknownBlobTypesAndEmptyBlocksAreSkipped() throws {
        var bytes = PBF.header()
        bytes += PBF.frame(type: "OSMFutureIndex", blob: [1, 2, 3, 4, 5])
        bytes += PBF.frame(type: "OSMData", blob: PBF.blobMessage([]))
        bytes += Array(PBF.file(nodes: Self.nodes).dropFirst(PBF.header().count))
        let (recorder, _) = try readPBF(bytes)
        XCTAssertEqual(recorder.nodes, Self.nodes)
    }

    func testOptionalFeaturesAreIgnored() throws {
        let bytes = PBF.header(optional: ["Sort.Type_then_ID", "Has_Metadata", "LocationsOnWays"]) + PBF.dataBlob { [PBF.denseGroup(Self.nodes, $0)] }
        XCTAssertEqual(try readPBF(bytes).0.nodes, Self.nodes)
        XCTAssertNoThrow(try readPBF(PBF.header(required: []) + PBF.dataBlob { [PBF.denseGroup(Self.nodes, $0)] }))
    }

    // MARK: refused features and formats

    func testUnknownRequiredFeaturesAreRefusedByName() {
        let history = expectPBFError(PBF.header(required: ["OsmSchema-V0.6", "HistoricalInformation"]) + PBF.dataBlob { [PBF.denseGroup(Self.nodes, $0)] })
        XCTAssertEqual(history?.offset, 0)
        XCTAssertTrue(history?.message.contains("HistoricalInformation") == true, history?.message ?? "")
        let other = expectPBFError(PBF.header(required: ["OsmSchema-V0.6", "DenseNodes", "Sort.Geographic.Hilbert"]))
        XCTAssertTrue(other?.message.contains("requires the feature Sort.Geographic.Hilbert") == true, other?.message ?? "")
    }

    func testUnsupportedCompressionIsNamed() {
        let payload = PBF.primitiveBlock(PBF.Strings(), groups: [])
        for (field, word) in [(4, "lzma"), (6, "lz4"), (7, "zstd"), (5, "bzip2")] {
            let header = PBF.header()
            let result = expectPBFError(header + PBF.frame(type: "OSMData", blob: PBF.blobMessage(payload, compression: .other(field: field))))
            XCTAssertEqual(result?.offset, Int64(header.count), word)
            XCTAssertTrue(result?.message.contains("\(word)") == true && result?.message.contains("only raw and zlib") == true, result?.message ?? "")
        }
        XCTAssertTrue(expectPBFError(PBF.header() + PBF.frame(type: "OSMData", blob: []))?.message.contains("holds no data") == true)
    }

    func testTheFirstBlockMustBeTheHeader() {
        let bytes = PBF.dataBlob { [PBF.denseGroup(Self.nodes, $0)] }
        let result = expectPBFError(bytes)
        XCTAssertEqual(result?.offset, 0)
        XCTAssertTrue(result?.message.contains("starts with a OSMData block, not OSMHeader") == true, result?.message ?? "")
    }

    // MARK: damaged files

    func testTruncatedFilesFailAtTheBlobThatIsCut() throws {
        let bytes = PBF.file(nodes: Self.nodes, ways: Self.ways, relations: Self.relations)
        // Where each blob starts (and the file ends): cutting there leaves a shorter but whole file.
        var boundaries: Set<Int> = [bytes.count]
        var offset = 0
        while offset < bytes.count {
            boundaries.insert(offset)
            let headerLength = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            var data: Int64 = 0
            try Array(bytes[(offset + 4)..<(offset + 4 + headerLength)]).withUnsafeBytes { raw in
                var reader = ProtobufReader(raw)
                while let (field, wire) = try reader.field() { if field == 3 { data = try reader.int64() } else { try reader.skip(wire) } }
            }
            offset += 4 + headerLength + Int(data)
        }
        XCTAssertEqual(boundaries.count, 5, "header, three data blobs and the end")
        for cut in 1..<bytes.count where !boundaries.contains(cut) {
            guard let result = expectPBFError(Array(bytes.prefix(cut))) else { continue }
            let blobStart = boundaries.filter { $0 <= cut }.max()!
            XCTAssertEqual(result.offset, Int64(blobStart), "cut at \(cut)")
            XCTAssertTrue(result.message.contains("truncated"), "cut at \(cut): \(result.message)")
        }
        XCTAssertNoThrow(try readPBF(Array(bytes.prefix(boundaries.sorted()[1]))), "the header alone is a whole (empty) file")
    }

    func testCorruptZlibStream() {
        let header = PBF.header()
        var blob = PBF.dataBlob { [PBF.denseGroup(Self.nodes, $0)] }
        // Damage the zlib stream's first deflate block: the compressed bytes sit at the end of the blob.
        let start = blob.count - 12
        for i in start..<(start + 6) { blob[i] ^= 0x5a }
        let result = expectPBFError(header + blob)
        XCTAssertEqual(result?.offset, Int64(header.count))
        XCTAssertTrue(result?.message.hasPrefix("zlib data") == true, result?.message ?? "")
        // A stream that is not zlib at all.
        let garbage = PBF.frame(type: "OSMData", blob: { var w = ProtobufWriter(); w.int(2, 100); w.bytes(3, [1, 2, 3, 4, 5, 6]); return w.bytes }())
        XCTAssertEqual(expectPBFError(header + garbage)?.message, "zlib data is corrupt")
    }

    func testWrongRawSize() {
        let header = PBF.header()
        let payload = PBF.primitiveBlock(PBF.Strings(), groups: [PBF.denseGroup(Self.nodes, PBF.Strings())])
        let short = expectPBFError(header + PBF.frame(type: "OSMData", blob: PBF.blobMessage(payload, rawSize: Int64(payload.count - 1))))
        XCTAssertEqual(short?.message, "zlib data decompresses to more than raw_size (\(payload.count - 1) bytes)")
        let long = expectPBFError(header + PBF.frame(type: "OSMData", blob: PBF.blobMessage(payload, rawSize: Int64(payload.count + 10))))
        XCTAssertEqual(long?.message, "zlib data decompresses to \(payload.count) bytes, but raw_size says \(payload.count + 10)")
        let negative = expectPBFError(header + PBF.frame(type: "OSMData", blob: PBF.blobMessage(payload, rawSize: -1)))
        XCTAssertEqual(negative?.message, "negative raw_size -1")
        let huge = expectPBFError(header + PBF.frame(type: "OSMData", blob: PBF.blobMessage(payload, rawSize: 32 << 20 + 1)))
        XCTAssertEqual(huge?.message, "raw_size of 33554433 bytes is larger than the format's 32 MiB limit")
        var noSize = ProtobufWriter()
        noSize.bytes(3, PBF.zlib(payload))
        XCTAssertEqual(expectPBFError(header + PBF.frame(type: "OSMData", blob: noSize.bytes))?.message, "zlib blob without raw_size")
    }

    func testBlobAndHeaderSizeLimits() {
        let header = PBF.header()
        // A BlobHeader announcing a blob over 32 MiB: refused before anything is read or allocated.
        let big = expectPBFError(header + PBF.frame(type: "OSMData", blob: [], dataSize: 32 << 20 + 1))
        XCTAssertEqual(big?.offset, Int64(header.count))
        XCTAssertEqual(big?.message, "blob of 33554433 bytes is larger than the format's 32 MiB limit")
        XCTAssertEqual(expectPBFError(header + PBF.frame(type: "OSMData", blob: [], dataSize: -4))?.message, "negative datasize -4 in the BlobHeader")
        // A BlobHeader length over 64 KiB, and one with the sign bit set.
        let long = expectPBFError(header + [0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0, count: 100))
        XCTAssertEqual(long?.offset, Int64(header.count))
        XCTAssertEqual(long?.message, "BlobHeader of 65537 bytes is larger than the format's 64 KiB limit")
        XCTAssertEqual(expectPBFError(header + [0xff, 0xff, 0xff, 0xfe])?.message, "negative BlobHeader length -2")
        // A BlobHeader without its required fields, or that is not protobuf.
        var noType = ProtobufWriter(); noType.int(3, 0)
        XCTAssertEqual(expectPBFError(header + [0, 0, 0, UInt8(noType.bytes.count)] + noType.bytes)?.message, "BlobHeader without a type")
        var noSize = ProtobufWriter(); noSize.string(1, "OSMData")
        XCTAssertEqual(expectPBFError(header + [0, 0, 0, UInt8(noSize.bytes.count)] + noSize.bytes)?.message, "BlobHeader without a datasize")
        XCTAssertEqual(expectPBFError(header + [0, 0, 0, 2, 0x0a, 0x09])?.message, "malformed BlobHeader: length 9 runs past the end (0 bytes left)")
    }

    func testBadStringIndexes() {
        let header = PBF.header()
        // keys_vals naming string 99 of a table of 3.
        let dense = PBF.dataBlob { strings in
            _ = strings.id("highway"); _ = strings.id("gate")
            var group = ProtobufWriter()
            group.message(2) { d in d.packedSInt(1, [7]); d.packedSInt(8, [0]); d.packedSInt(9, [0]); d.packedInt(10, [1, 99, 0]) }
            return [group.bytes]
        }
        let result = expectPBFError(header + dense)
        XCTAssertEqual(result?.offset, Int64(header.count))
        XCTAssertEqual(result?.message, "OSMData block: node 7: string index 99 is past the end of the block's string table (3 strings)")
        // A way's key, a relation's role.
        let way = PBF.dataBlob { _ in
            var group = ProtobufWriter()
            group.message(3) { w in w.int(1, 4); w.packed(2, [5]); w.packed(3, [0]) }
            return [group.bytes]
        }
        XCTAssertEqual(expectPBFError(header + way)?.message, "OSMData block: way 4: string index 5 is past the end of the block's string table (1 strings)")
        let relation = PBF.dataBlob { _ in
            var group = ProtobufWriter()
            group.message(4) { r in r.int(1, 9); r.packedInt(8, [3]); r.packedSInt(9, [1]); r.packedInt(10, [1]) }
            return [group.bytes]
        }
        XCTAssertEqual(expectPBFError(header + relation)?.message, "OSMData block: relation 9: string index 3 is past the end of the block's string table (1 strings)")
        let negativeRole = PBF.dataBlob { _ in
            var group = ProtobufWriter()
            group.message(4) { r in r.int(1, 9); r.packedInt(8, [-1]); r.packedSInt(9, [1]); r.packedInt(10, [1]) }
            return [group.bytes]
        }
        XCTAssertEqual(expectPBFError(header + negativeRole)?.message, "OSMData block: relation 9: negative role string index -1")
    }

    func testInconsistentCountsAndValues() {
        let header = PBF.header()
        func block(_ build: @escaping (inout ProtobufWriter) -> Void) -> [UInt8] {
            PBF.dataBlob { _ in var group = ProtobufWriter(); build(&group); return [group.bytes] }
        }
        let cases: [([UInt8], String)] = [
            (block { g in g.message(2) { d in d.packedSInt(1, [1, 1]); d.packedSInt(8, [0]); d.packedSInt(9, [0, 0]) } },
             "OSMData block: dense nodes: fewer latitudes or longitudes than ids (node 2)"),
            (block { g in g.message(2) { d in d.packedSInt(1, [1]); d.packedSInt(8, [0, 0]); d.packedSInt(9, [0]) } },
             "OSMData block: dense nodes: more latitudes or longitudes than ids"),
            (block { g in g.message(2) { d in d.packedSInt(1, [1, 1]); d.packedSInt(8, [0, 0]); d.packedSInt(9, [0, 0]); d.packedInt(10, [0]) } },
             "OSMData block: dense nodes: keys_vals ends inside the tags of node 2"),
            (block { g in g.message(2) { d in d.packedSInt(1, [1]); d.packedSInt(8, [900_000_001]); d.packedSInt(9, [0]) } },
             "OSMData block: node 1 has an invalid coordinate (lat 900000001, lon 0 in units of 100 nanodegrees)"),
            (block { g in g.message(2) { d in d.packedSInt(1, [1]); d.packedSInt(8, [Int64.max / 2]); d.packedSInt(9, [0]) } },
             "OSMData block: node 1 has an invalid coordinate (lat \(Int64.max / 2), lon 0 in units of 100 nanodegrees)"),
            (block { g in g.message(1) { n in n.sint(1, 5); n.sint(8, 1) } }, "OSMData block: node 5 has no lat/lon"),
            (block { g in g.message(3) { w in w.int(1, 4); w.packed(2, [1]) } }, "OSMData block: way 4 has 1 tag keys but 0 values"),
            (block { g in g.message(4) { r in r.int(1, 9); r.packedInt(8, [0]); r.packedSInt(9, [1, 2]); r.packedInt(10, [1, 1]) } },
             "OSMData block: relation 9 has 2 member ids, 2 member types and 1 roles"),
            (block { g in g.message(4) { r in r.int(1, 9); r.packedInt(8, [0]); r.packedSInt(9, [1]); r.packedInt(10, [3]) } },
             "OSMData block: relation 9: member type 3 is not node (0), way (1) or relation (2)"),
            (block { g in g.message(3) { w in w.packed(2, []) } }, "OSMData block: a way without id"),
            (block { g in g.message(3) { w in w.string(1, "x") } }, "OSMData block: Way field 1 has wire type 2, expected 0"),
            (block { g in g.int(2, 1) }, "OSMData block: PrimitiveGroup field 2 has wire type 0, expected 2"),
        ]
        for (blob, message) in cases {
            let result = expectPBFError(header + blob)
            XCTAssertEqual(result?.offset, Int64(header.count))
            XCTAssertEqual(result?.message, message)
        }
        var granularity = ProtobufWriter()
        granularity.message(1) { $0.string(1, "") }
        granularity.int(17, 0)
        XCTAssertEqual(expectPBFError(header + PBF.frame(type: "OSMData", blob: PBF.blobMessage(granularity.bytes)))?.message,
                       "OSMData block: granularity 0 is not positive")
    }

    func testTheFirstErrorInFileOrderIsReported() {
        // Block 2 (of 40) is bad, block 30 too: whatever thread finishes first, block 2's error is the one thrown.
        let good = PBF.dataBlob { [PBF.denseGroup(Self.nodes, $0)] }
        let bad = PBF.frame(type: "OSMData", blob: { var w = ProtobufWriter(); w.int(2, 100); w.bytes(3, [9, 9, 9]); return w.bytes }())
        let badLate = PBF.frame(type: "OSMData", blob: [0xff])
        var bytes = PBF.header()
        var badOffset = 0
        for i in 0..<40 {
            if i == 2 { badOffset = bytes.count }
            bytes += i == 2 ? bad : i == 30 ? badLate : good
        }
        for threads in [1, 2, 4] {
            let result = expectPBFError(bytes, threads: threads)
            XCTAssertEqual(result?.offset, Int64(badOffset), "threads \(threads)")
            XCTAssertEqual(result?.message, "zlib data is corrupt")
        }
    }

    func testRandomDamageNeverCrashes() {
        // Single-byte changes all over a small file: each read either succeeds or throws an OSMReadError.
        let bytes = PBF.file(nodes: Self.nodes, ways: Self.ways, relations: Self.relations, compression: .raw)
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        var failures = 0
        for _ in 0..<3000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            var damaged = bytes
            let position = Int((state >> 33) % UInt64(bytes.count))
            damaged[position] = UInt8(truncatingIfNeeded: state >> 13)
            do {
                try readPBF(damaged, threads: 2)
            } catch let error as OSMReadError {
                if case .badPBF = error { failures += 1 } else { XCTFail("\(error)") }
            } catch {
                XCTFail("\(error)")
            }
        }
        XCTAssertGreaterThan(failures, 100)
    }
}
