import Foundation
import XCTest
import OSM
@testable import Graph
import TestSupport

/// The graph file: layout, round trip, determinism, and each way a file can be damaged or an import can fail.
final class GraphFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-graphtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A small map touching every section: shape points, names, refs, barriers, one-ways, restrictions of both kinds.
    static func sampleMap(order: DrawnMap.ElementOrder = .sorted) throws -> DrawnMap {
        try DrawnMap("""
            a---b---c---d
            |   |   |   |
            e---f---g---h
                |       |
                i---j---k
                       /
                  n---m
            """, ways: [
                ("abcd", ["highway": "primary", "name": "Main Street", "ref": "B 1"]), ("efgh", ["highway": "residential", "oneway": "yes"]),
                ("ae", ["highway": "service"]), ("bfi", ["highway": "footway", "name": "Path"]), ("cg", ["highway": "tertiary", "maxspeed": "30"]),
                ("dhk", ["highway": "secondary"]), ("ijk", ["highway": "steps"]), ("kmn", ["highway": "unclassified", "name": "Path"]),
            ], nodes: ["g": ["barrier": "bollard"], "j": ["barrier": "fence"]],
            relations: [.restriction("no_left_turn", from: "abcd", via: "c", to: "cg"),
                        .restriction("only_straight_on", from: "ae", via: "e", to: "efgh"),
                        .restriction("no_u_turn", from: "cg", viaWays: ["efgh"], to: "dhk")],
            order: order)
    }

    private static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
    private static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
    private static func uint64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
    private static func put(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    /// CRC-32 (the zlib / IEEE polynomial), written out here so the format is checked independently of the code.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[i] = c
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Rewrites the header checksum of a patched file, as a writer would (the layout's one definition).
    private static func resealHeader(_ bytes: inout [UInt8]) { GraphFileFormat.resealHeader(&bytes) }

    /// What opening `path` throws (nil if it opens).
    private func openError(_ path: String) -> GraphFileError? {
        do { _ = try GraphFile(path: path); return nil } catch { return error }
    }

    // MARK: Layout

    /// The header and section table are as `docs/graph-format.md` describes them, checked byte by byte (with the
    /// document's numbers written out, not `GraphFileFormat`'s, so that a change of the one definition shows here).
    func testHeaderAndSectionLayout() throws {
        let map = try Self.sampleMap()
        let bytes = try Self.bytes(map.graphPath)
        XCTAssertEqual(Array(bytes[0..<8]), Array("WAYFGRPH".utf8))
        XCTAssertEqual(Self.uint32(bytes, 8), 2, "format version")
        XCTAssertEqual(Self.uint64(bytes, 16), UInt64(bytes.count), "file size")
        XCTAssertEqual(Self.uint32(bytes, 28), 16384, "header size")
        XCTAssertTrue(bytes[32..<64].allSatisfy { $0 == 0 }, "reserved bytes are zero")
        var header = Array(bytes[0..<16384])
        for i in 24..<28 { header[i] = 0 }
        XCTAssertEqual(Self.uint32(bytes, 24), Self.crc32(header[...]), "header CRC-32 over the header with the field zeroed")

        let count = Int(Self.uint32(bytes, 12))
        var names: [String] = []
        var end = 16384
        for i in 0..<count {
            let entry = 64 + 48 * i
            let name = String(decoding: bytes[entry..<entry + 24].prefix { $0 != 0 }, as: UTF8.self)
            let offset = Int(Self.uint64(bytes, entry + 24)), length = Int(Self.uint64(bytes, entry + 32))
            let crc = Self.uint32(bytes, entry + 40), elementSize = Int(Self.uint32(bytes, entry + 44))
            names.append(name)
            XCTAssertEqual(offset % 64, 0, name)
            XCTAssertGreaterThanOrEqual(offset, end, "\(name) follows the previous section")
            XCTAssertLessThan(offset - end, 64, "\(name): only alignment padding before it")
            XCTAssertTrue(bytes[end..<offset].allSatisfy { $0 == 0 }, "\(name): padding is zero")
            XCTAssertEqual(length % elementSize, 0, name)
            XCTAssertEqual(crc, length == 0 ? 0 : Self.crc32(bytes[offset..<offset + length]), name)
            end = offset + length
        }
        XCTAssertEqual(end, bytes.count, "the last section ends the file")
        XCTAssertTrue(bytes[(64 + 48 * count)..<16384].allSatisfy { $0 == 0 }, "the rest of the header is zero")
        let profileSections = { (p: String) in ["time_fwd", "time_bwd", "inc_first", "inc", "island", "alt_from", "alt_to", "alt_nodes", "restr_kind", "restr_start", "restr_path"].map { "\(p).\($0)" } }
        XCTAssertEqual(names, ["meta", "node.lat", "node.lon", "node.osm_id", "node.flags", "edge.from", "edge.to", "edge.length_mm",
                               "edge.way", "edge.shape_start", "shape.lat", "shape.lon", "way.osm_id", "way.name", "way.ref",
                               "way.class", "string.start", "string.bytes"]
                       + profileSections("car") + profileSections("foot") + ["index.items", "index.boxes", "index.levels"])
        let file = try GraphFile(path: map.graphPath)
        XCTAssertEqual(file.sections.map(\.name), names)
        XCTAssertEqual(file.version, 2)
        XCTAssertEqual(file.size, bytes.count)
        XCTAssertNoThrow(try file.verifyChecksums())
    }

    // MARK: Round trip

    /// The graph an import holds in memory is laid out as the file it becomes (names, offsets, lengths, sizes),
    /// reads as the file does, and a section written again keeps its place.
    func testInMemoryGraphIsLaidOutAsItsFile() throws {
        let map = try Self.sampleMap()
        let file = try GraphFile(path: map.graphPath)
        let memory = InMemoryGraphFile(path: map.graphPath)
        for section in file.sections { try memory.append(section.name, bytes: try file.bytes(section.name), elementSize: section.elementSize) }
        let view = GraphFile(memory: memory)
        func table(_ f: GraphFile) -> [String] { f.sections.map { "\($0.name) \($0.offset) \($0.length) \($0.elementSize)" } }
        XCTAssertEqual(table(view), table(file))
        XCTAssertEqual(view.size, file.size)
        XCTAssertTrue(view.isVerified)
        let fromMemory = try memory.roadGraph(), fromFile = try RoadGraph(path: map.graphPath)
        XCTAssertEqual(Array(fromMemory.edgeFrom), Array(fromFile.edgeFrom))
        XCTAssertEqual(Array(fromMemory.shapeLongitudes), Array(fromFile.shapeLongitudes))
        XCTAssertEqual(fromMemory.metadata, fromFile.metadata)
        let names = memory.sectionNames
        try memory.append(GraphSectionName.nodeFlags, [UInt8](repeating: 0, count: fromFile.nodeCount))
        XCTAssertEqual(memory.sectionNames, names)
        XCTAssertTrue(try memory.roadGraph().nodeFlags.allSatisfy { $0 == 0 })
        XCTAssertEqual(Array(fromMemory.nodeFlags), Array(fromFile.nodeFlags), "a view made before keeps its bytes")
    }

    /// Everything the builder produced reads back equal from the file.
    func testRoundTripOfBuiltGraph() throws {
        let map = try Self.sampleMap()
        let input = try OSMInput(path: map.osmPath)
        let collector = OSMCollector(profiles: [.car, .foot])
        let reader = OSMXMLReader(source: input.source, name: input.file.name, handler: collector)
        try reader.read()
        collector.statistics.nodesRead = reader.nodeCount
        collector.statistics.waysRead = reader.wayCount
        collector.statistics.relationsRead = reader.relationCount
        var builder = GraphBuilder(collector: collector)
        let built = builder.build()
        XCTAssertFalse(built.profiles[0].restrictionKinds.isEmpty, "the sample has restrictions")
        XCTAssertFalse(built.shapeLatitudes.isEmpty, "the sample has shape points")
        let metadata = GraphMetadata(generator: wayfinderVersion, statistics: builder.statistics, profiles: [.car, .foot])
        try GraphImporter.write(built, metadata: metadata, to: path("built.wfg"))
        let read = try RoadGraph(path: path("built.wfg"))
        try XCTAssertGraph(read, equals: built, metadata: metadata)
        // The importer itself writes the same graph (the landmark tables are an extension of it, built after).
        var importer = GraphImporter()
        importer.buildLandmarks = false
        _ = try importer.run(input: map.osmPath, output: path("imported.wfg"))
        XCTAssertEqual(try Self.bytes(path("built.wfg")), try Self.bytes(path("imported.wfg")), "same bytes as the importer's file")
        XCTAssertNotEqual(try Self.bytes(path("built.wfg")), try Self.bytes(map.graphPath), "the sample map has landmark tables")
    }

    /// A hand-made graph with extreme values (negative coordinates, 64-bit ids, closed directions, empty sections,
    /// another profile set) reads back unchanged.
    func testRoundTripOfHandMadeGraph() throws {
        var g = GraphData()
        g.nodeLatitudes = [-899_999_999, 0, 899_999_999]
        g.nodeLongitudes = [-1_799_999_999, 1, 1_800_000_000]
        g.nodeOSMIDs = [1, Int64.max, 12_345_678_901]
        g.nodeFlags = [0, 0x81, 0xFF]
        g.edgeFrom = [0, 1, 2]
        g.edgeTo = [1, 2, 2]
        g.edgeLengthMillimetres = [0, UInt32.max - 1, 17]
        g.edgeWay = [0, 0, 1]
        g.edgeShapeStart = [0, 2, 2, 3]
        g.shapeLatitudes = [5, -5, 7]
        g.shapeLongitudes = [6, -6, 8]
        g.wayOSMIDs = [3, 9_000_000_000]
        g.wayNames = [1, 0]
        g.wayRefs = [0, 2]
        g.wayClasses = [HighwayClass.trunk.rawValue, HighwayClass.platform.rawValue]
        g.stringStart = [0, 0, 7, 11]
        g.stringBytes = Array("Straße".utf8) + Array("A 1!".utf8)
        var truck = ProfileGraphData(name: "truck_2")
        truck.timeForward = [0, closedEdge, 5]
        truck.timeBackward = [closedEdge, 7, closedEdge]
        truck.firstIncidence = [0, 1, 3, 6]
        truck.incidence = [0, 1, 2, 3, 4, 5]
        truck.island = [0, 1, 0]
        truck.restrictionKinds = [1]
        truck.restrictionStart = [0, 2]
        truck.restrictionPath = [1, 2]
        var empty = ProfileGraphData(name: "x")
        empty.timeForward = [closedEdge, closedEdge, closedEdge]
        empty.timeBackward = [closedEdge, closedEdge, closedEdge]
        empty.firstIncidence = [0, 0, 0, 0]
        empty.island = [1, 1, 1]
        g.profiles = [truck, empty]
        g.spatialIndex = SpatialIndexBuilder.build(g)
        var truckTable = TravelProfile.car
        truckTable.name = "truck_2"
        var other = TravelProfile.foot
        other.name = "x"
        other.highwaySpeeds["weird \"key\""] = 1.5
        var statistics = ImportStatistics()
        statistics.nodesRead = 3
        statistics.minLatitude = -899_999_999
        let metadata = GraphMetadata(generator: "tests", statistics: statistics, profiles: [truckTable, other])
        try GraphImporter.write(g, metadata: metadata, to: path("hand.wfg"))
        let read = try RoadGraph(path: path("hand.wfg"))
        try XCTAssertGraph(read, equals: g, metadata: metadata)
        XCTAssertEqual(read.profile(named: "truck_2")?.index, 0)
        XCTAssertEqual(read.profile(named: "x")?.index, 1)
        XCTAssertNil(read.profile(named: "car"))
        XCTAssertEqual(read.string(1), "Straße")
        XCTAssertEqual(read.string(2), "A 1!")
        XCTAssertEqual(read.profiles[0].restriction(0).kind, .mandatory)
        XCTAssertEqual(read.profiles[0].restriction(0).path, [1, 2])
        XCTAssertEqual(read.polyline(ofEdge: 0).map { $0.latitude }, [-899_999_999, 5, -5, 0])
        XCTAssertEqual(read.polyline(ofEdge: 2).map { $0.longitude }, [1_800_000_000, 8, 1_800_000_000])
        XCTAssertNoThrow(try read.file.verifyChecksums())
    }

    // MARK: Determinism

    /// Importing the same input twice gives byte-identical files.
    func testImportIsDeterministic() throws {
        let first = try Self.sampleMap(), second = try Self.sampleMap()
        XCTAssertEqual(first.xml, second.xml)
        XCTAssertEqual(try first.graphBytes(), try second.graphBytes())
        // And the same through a fresh importer on the same file.
        _ = try GraphImporter().run(input: first.osmPath, output: path("again.wfg"))
        XCTAssertEqual(try Self.bytes(path("again.wfg")), [UInt8](try first.graphBytes()))
    }

    /// Another process (with its own hash seeds) writes the same bytes: nothing depends on hash order.
    func testImportIsDeterministicAcrossProcesses() throws {
        let environment = ProcessInfo.processInfo.environment
        if let input = environment["WAYFINDER_GRAPHTESTS_CHILD_INPUT"], let output = environment["WAYFINDER_GRAPHTESTS_CHILD_OUTPUT"] {
            // Running as the child: import and leave.
            _ = try GraphImporter().run(input: input, output: output)
            return
        }
        let map = try Self.sampleMap()
        let executable = CommandLine.arguments[0]
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw XCTSkip("cannot re-run the test binary \(executable)") }
        for child in 0..<2 {
            let output = path("child\(child).wfg")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["GraphTests.GraphFileTests/testImportIsDeterministicAcrossProcesses"]
            process.environment = environment.merging(["WAYFINDER_GRAPHTESTS_CHILD_INPUT": map.osmPath,
                                                       "WAYFINDER_GRAPHTESTS_CHILD_OUTPUT": output]) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "child import")
            XCTAssertEqual(try Self.bytes(output), [UInt8](try map.graphBytes()), "child \(child)")
        }
    }

    // MARK: Damage

    /// A flipped byte inside any section is caught by `verifyChecksums`, naming that section.
    func testChecksumMismatchNamesTheSection() throws {
        let map = try Self.sampleMap()
        let original = try Self.bytes(map.graphPath)
        let file = try GraphFile(path: map.graphPath)
        XCTAssertNoThrow(try file.verifyChecksums())
        var checked = 0
        for section in file.sections where section.length > 0 {
            for position in Set([section.offset, section.offset + section.length / 2, section.offset + section.length - 1]) {
                var damaged = original
                damaged[position] ^= 0x10
                let target = path("damaged.wfg")
                try Self.write(damaged, to: target)
                let opened = try GraphFile(path: target)  // the header is intact: opening succeeds
                XCTAssertThrowsError(try opened.verifyChecksums(), section.name) { error in
                    XCTAssertEqual(error as? GraphFileError, .checksumMismatch(path: target, section: section.name))
                }
            }
            checked += 1
        }
        XCTAssertEqual(checked, file.sections.filter { $0.length > 0 }.count)
        XCTAssertGreaterThan(checked, 25)
    }

    /// A changed byte anywhere in the header (outside magic, version and size) fails the header checksum.
    func testHeaderCorruption() throws {
        let map = try Self.sampleMap()
        let original = try Self.bytes(map.graphPath)
        for position in [12, 13, 24, 27, 28, 40, 63, 64, 64 + 30, 64 + 40, 64 + 48 + 45, 2000, 4095, 16383] {
            var damaged = original
            damaged[position] ^= 0x01
            let target = path("header.wfg")
            try Self.write(damaged, to: target)
            XCTAssertEqual(openError(target), .headerChecksumMismatch(path: target), "byte \(position)")
        }
    }

    /// Another format version is refused as such, even with a valid header checksum.
    func testVersionMismatch() throws {
        let map = try Self.sampleMap()
        for version: UInt32 in [0, 1, 3, 0x0100_0001] {
            var patched = try Self.bytes(map.graphPath)
            Self.put(version, into: &patched, at: GraphFileFormat.Field.version)
            Self.resealHeader(&patched)
            let target = path("v\(version).wfg")
            try Self.write(patched, to: target)
            XCTAssertEqual(openError(target), .unsupportedVersion(path: target, found: version, supported: 2))
        }
        // Resealing an unmodified header gives back the original: the patch changes the version only.
        var resealed = try Self.bytes(map.graphPath)
        Self.resealHeader(&resealed)
        XCTAssertEqual(resealed, try Self.bytes(map.graphPath))
    }

    /// A file cut short anywhere is reported as truncated (not as "not a graph file").
    func testTruncatedFile() throws {
        let map = try Self.sampleMap()
        let original = try Self.bytes(map.graphPath)
        let lengths = [original.count - 1, original.count - 64, original.count / 2, 16385, 16384, 16383, 4096, 1000, 64, 63, 8, 0]
        for length in lengths {
            let target = path("cut\(length).wfg")
            try Self.write(Array(original.prefix(length)), to: target)
            guard let error = openError(target) else { XCTFail("\(length) bytes opened"); continue }
            guard case let .truncated(errorPath, _, actual, section) = error else { XCTFail("\(length) bytes: \(error)"); continue }
            XCTAssertEqual(errorPath, target)
            XCTAssertEqual(actual, length)
            // With the header whole, the message names the first section the cut reaches.
            if length >= 16384 {
                let cut = try GraphFile(path: map.graphPath).sections.first { $0.offset + $0.length > length }
                XCTAssertEqual(section, cut?.name, "\(length) bytes")
                XCTAssertNotNil(section, "\(length) bytes")
            } else {
                XCTAssertNil(section)
            }
        }
        // A file longer than its header says is corrupt, not truncated.
        let target = path("long.wfg")
        try Self.write(original + [0, 0, 0], to: target)
        guard case .corrupt? = openError(target) else { return XCTFail("expected .corrupt, got \(String(describing: openError(target)))") }
    }

    /// A section table that does not fit the file, or sections that do not fit what the reader expects, are refused
    /// (each patch below keeps the header checksum valid, so the table itself is what is checked).
    func testSectionTableProblems() throws {
        let map = try Self.sampleMap()
        let original = try Self.bytes(map.graphPath)
        let file = try GraphFile(path: map.graphPath)
        let index = try XCTUnwrap(file.sections.firstIndex { $0.name == "node.lat" })
        let entry = GraphFileFormat.entryStart(index)
        func patched(_ name: String, _ change: (inout [UInt8]) -> Void) throws -> String {
            var bytes = original
            change(&bytes)
            Self.resealHeader(&bytes)
            let target = path(name)
            try Self.write(bytes, to: target)
            return target
        }
        let cases: [(String, (inout [UInt8]) -> Void)] = [
            ("beyond", { Self.put(UInt32(original.count + 64), into: &$0, at: entry + GraphFileFormat.EntryField.offset) }),
            ("misaligned", { Self.put(UInt32(file.sections[index].offset + 4), into: &$0, at: entry + GraphFileFormat.EntryField.offset) }),
            ("inside-header", { Self.put(UInt32(1024), into: &$0, at: entry + GraphFileFormat.EntryField.offset) }),
            ("too-long", { Self.put(UInt32(original.count), into: &$0, at: entry + GraphFileFormat.EntryField.length) }),
            ("partial-element", { Self.put(UInt32(file.sections[index].length - 1), into: &$0, at: entry + GraphFileFormat.EntryField.length) }),
            ("zero-element", { Self.put(UInt32(0), into: &$0, at: entry + GraphFileFormat.EntryField.elementSize) }),
            ("many-sections", { Self.put(UInt32(1000), into: &$0, at: GraphFileFormat.Field.sectionCount) }),
        ]
        for (name, change) in cases {
            let target = try patched(name + ".wfg", change)
            guard case .corrupt? = openError(target) else { XCTFail("\(name): \(String(describing: openError(target)))"); continue }
        }
        // The file opens, but the typed reader finds a wrong element size, a missing section, or metadata that does not decode.
        let wide = try patched("wide.wfg") { Self.put(UInt32(8), into: &$0, at: entry + GraphFileFormat.EntryField.elementSize) }
        XCTAssertThrowsError(try RoadGraph(path: wide)) { error in
            guard case .corrupt? = error as? GraphFileError else { return XCTFail("\(error)") }
        }
        let renamed = try patched("renamed.wfg") { $0[entry + 5] = UInt8(ascii: "x") }  // "node.lat" → "node.xat"
        XCTAssertThrowsError(try RoadGraph(path: renamed)) { error in
            XCTAssertEqual(error as? GraphFileError, .missingSection(path: renamed, section: "node.lat"))
        }
        let meta = file.sections[0]
        XCTAssertEqual(meta.name, "meta")
        let garbled = try patched("meta.wfg") { $0[meta.offset] = UInt8(ascii: "#") }
        XCTAssertNoThrow(try GraphFile(path: garbled))
        // Opening for use verifies the checksums first: the damage is found as such…
        XCTAssertThrowsError(try RoadGraph(path: garbled)) { error in
            XCTAssertEqual(error as? GraphFileError, .checksumMismatch(path: garbled, section: "meta"))
        }
        // …and with the checksum made to match too, the metadata does not decode, naming its section.
        let resealed = try patched("meta-resealed.wfg") { bytes in
            bytes[meta.offset] = UInt8(ascii: "#")
            Self.put(Self.crc32(bytes[meta.offset..<(meta.offset + meta.length)]), into: &bytes, at: GraphFileFormat.entryStart(0) + GraphFileFormat.EntryField.crc32)
        }
        XCTAssertThrowsError(try RoadGraph(path: resealed)) { error in
            guard case let .invalidSection(_, section, _)? = error as? GraphFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(section, "meta")
        }
    }

    /// Anything without the magic is not a graph file; a missing file or a folder cannot be opened.
    func testNotAGraphFile() throws {
        let map = try Self.sampleMap()
        let candidates: [(String, [UInt8])] = [
            ("osm.xml", Array(map.xml.utf8)),
            ("short.txt", Array("hello".utf8)),
            ("seven.bin", Array("WAYFGRP".utf8)),
            ("zeros.bin", [UInt8](repeating: 0, count: 5000)),
            ("gzip.gz", [0x1F, 0x8B, 8, 0] + [UInt8](repeating: 0x55, count: 100)),
            ("lower.wfg", Array("wayfgrph".utf8) + Array(try Self.bytes(map.graphPath).dropFirst(8))),
        ]
        for (name, bytes) in candidates {
            try Self.write(bytes, to: path(name))
            XCTAssertEqual(openError(path(name)), .notAGraphFile(path: path(name)), name)
        }
        guard case .cannotOpen? = openError(path("absent.wfg")) else { return XCTFail("absent file") }
        guard case .cannotOpen? = openError(directory.path) else { return XCTFail("folder") }
        XCTAssertThrowsError(try RoadGraph(path: path("short.txt")))
    }

    // MARK: Failed imports

    /// A failed import writes nothing at the target, leaves an older file there untouched, and leaves no temporary file.
    func testFailedImportLeavesTheTargetAlone() throws {
        let old = Array("an older graph file".utf8)
        let target = path("graph.wfg")
        let inputs: [(String, String)] = [
            ("malformed.osm", "<osm version=\"0.6\"><node id=\"1\" lat=\"49\" lon=\"8\"/><way id=\"1\"><nd ref=\"1\"/>"),
            ("noroads.osm", "<osm version=\"0.6\"><node id=\"1\" lat=\"49\" lon=\"8\"/><node id=\"2\" lat=\"49.1\" lon=\"8\"/>"
                + "<way id=\"1\"><nd ref=\"1\"/><nd ref=\"2\"/><tag k=\"building\" v=\"yes\"/></way></osm>"),
            ("notosm.osm", "<html><body>hello</body></html>"),
            ("empty.osm", ""),
        ]
        for (name, text) in inputs {
            try text.write(toFile: path(name), atomically: false, encoding: .utf8)
            // No older file: nothing appears.
            XCTAssertThrowsError(try GraphImporter().run(input: path(name), output: target), name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: target), name)
            // An older file: untouched.
            try Self.write(old, to: target)
            XCTAssertThrowsError(try GraphImporter().run(input: path(name), output: target), name)
            XCTAssertEqual(try Self.bytes(target), old, name)
            try FileManager.default.removeItem(atPath: target)
        }
        XCTAssertThrowsError(try GraphImporter().run(input: path("absent.osm"), output: target))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))

        // A write that fails at the end (the target is a folder, so the final rename fails) removes its temporary file.
        let map = try Self.sampleMap()
        let folder = path("folder.wfg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Self.write(old, to: folder + "/inside")
        XCTAssertThrowsError(try GraphImporter().run(input: map.osmPath, output: folder)) { error in
            guard case .output? = error as? GraphImporter.Failure else { return XCTFail("expected an output failure, got \(error)") }
        }
        XCTAssertEqual(try Self.bytes(folder + "/inside"), old)
        // Into a folder that does not exist.
        XCTAssertThrowsError(try GraphImporter().run(input: map.osmPath, output: path("no/such/folder.wfg")))

        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp") }
        XCTAssertEqual(left, [], "temporary files left behind")
        // A successful import replaces an older file.
        try Self.write(old, to: target)
        _ = try GraphImporter().run(input: map.osmPath, output: target)
        XCTAssertEqual(try Self.bytes(target), [UInt8](try map.graphBytes()))
    }
}

/// Asserts that a graph read from a file holds exactly `expected` and `metadata`.
func XCTAssertGraph(_ read: RoadGraph, equals expected: GraphData, metadata: GraphMetadata,
                    file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(read.metadata, metadata, file: file, line: line)
    XCTAssertEqual(Array(read.nodeLatitudes), expected.nodeLatitudes, "node.lat", file: file, line: line)
    XCTAssertEqual(Array(read.nodeLongitudes), expected.nodeLongitudes, "node.lon", file: file, line: line)
    XCTAssertEqual(Array(read.nodeOSMIDs), expected.nodeOSMIDs, "node.osm_id", file: file, line: line)
    XCTAssertEqual(Array(read.nodeFlags), expected.nodeFlags, "node.flags", file: file, line: line)
    XCTAssertEqual(Array(read.edgeFrom), expected.edgeFrom, "edge.from", file: file, line: line)
    XCTAssertEqual(Array(read.edgeTo), expected.edgeTo, "edge.to", file: file, line: line)
    XCTAssertEqual(Array(read.edgeLengthMillimetres), expected.edgeLengthMillimetres, "edge.length_mm", file: file, line: line)
    XCTAssertEqual(Array(read.edgeWay), expected.edgeWay, "edge.way", file: file, line: line)
    XCTAssertEqual(Array(read.edgeShapeStart), expected.edgeShapeStart, "edge.shape_start", file: file, line: line)
    XCTAssertEqual(Array(read.shapeLatitudes), expected.shapeLatitudes, "shape.lat", file: file, line: line)
    XCTAssertEqual(Array(read.shapeLongitudes), expected.shapeLongitudes, "shape.lon", file: file, line: line)
    XCTAssertEqual(Array(read.wayOSMIDs), expected.wayOSMIDs, "way.osm_id", file: file, line: line)
    XCTAssertEqual(Array(read.wayNames), expected.wayNames, "way.name", file: file, line: line)
    XCTAssertEqual(Array(read.wayRefs), expected.wayRefs, "way.ref", file: file, line: line)
    XCTAssertEqual(Array(read.wayClasses), expected.wayClasses, "way.class", file: file, line: line)
    XCTAssertEqual(Array(read.stringStart), expected.stringStart, "string.start", file: file, line: line)
    XCTAssertEqual(Array(read.stringBytes), expected.stringBytes, "string.bytes", file: file, line: line)
    XCTAssertEqual(read.profiles.count, expected.profiles.count, "profiles", file: file, line: line)
    for (r, e) in zip(read.profiles, expected.profiles) {
        XCTAssertEqual(r.profile.name, e.name, file: file, line: line)
        XCTAssertEqual(Array(r.timeForward), e.timeForward, "\(e.name).time_fwd", file: file, line: line)
        XCTAssertEqual(Array(r.timeBackward), e.timeBackward, "\(e.name).time_bwd", file: file, line: line)
        XCTAssertEqual(Array(r.firstIncidence), e.firstIncidence, "\(e.name).inc_first", file: file, line: line)
        XCTAssertEqual(Array(r.incidence), e.incidence, "\(e.name).inc", file: file, line: line)
        XCTAssertEqual(Array(r.island), e.island, "\(e.name).island", file: file, line: line)
        XCTAssertEqual(Array(r.restrictionKinds), e.restrictionKinds, "\(e.name).restr_kind", file: file, line: line)
        XCTAssertEqual(Array(r.restrictionStart), e.restrictionStart, "\(e.name).restr_start", file: file, line: line)
        XCTAssertEqual(Array(r.restrictionPath), e.restrictionPath, "\(e.name).restr_path", file: file, line: line)
    }
    XCTAssertEqual(Array(read.spatialIndex.items), expected.spatialIndex.items, "index.items", file: file, line: line)
    XCTAssertEqual(Array(read.spatialIndex.boxes), expected.spatialIndex.boxes, "index.boxes", file: file, line: line)
    XCTAssertEqual(Array(read.spatialIndex.levelStart), expected.spatialIndex.levelStart, "index.levels", file: file, line: line)
}
