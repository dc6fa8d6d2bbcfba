import Foundation
import XCTest
import OSM
@testable import Graph
import TestSupport

/// Imports of real extracts (`Data/terre-haute.osm.gz`, `Data/monaco.osm.gz`): the import figures, the graph's
/// internal consistency, a comparison with a straightforward reference build written here, and determinism.
final class ExtractImportTests: XCTestCase {

    // MARK: Terre Haute

    /// The import figures of the Terre Haute extract.
    func testTerreHauteCounts() throws {
        let extract = try SampleGraph.terreHaute()
        let s = extract.statistics
        XCTAssertEqual(s.nodesRead, 40_140)
        XCTAssertEqual(s.waysRead, 5_096)
        XCTAssertEqual(s.waysDuplicate, 1)
        XCTAssertEqual(s.relationsRead, 0)
        XCTAssertEqual(s.nodesDuplicate, 0)
        XCTAssertEqual(s.restrictionsSkipped, 0)
        XCTAssertEqual(extract.graph.metadata.statistics, s)
        XCTAssertEqual(s.graphNodes, extract.graph.nodeCount)
        XCTAssertEqual(s.graphEdges, extract.graph.edgeCount)
        XCTAssertEqual(s.shapePoints, extract.graph.shapeLatitudes.count)
        XCTAssertGreaterThan(s.graphEdges, 1000)
        XCTAssertEqual(s.profiles.map(\.name), ["car", "foot"])
        XCTAssertGreaterThan(s.profiles[0].kilometres, 100)
        XCTAssertEqual(extract.graph.metadata.generator, wayfinderVersion)
        XCTAssertEqual(extract.graph.metadata.profiles, [.car, .foot])
        XCTAssertNoThrow(try extract.graph.file.verifyChecksums())
    }

    /// Every array of the Terre Haute graph is consistent with the others.
    func testTerreHauteGraphIsConsistent() throws {
        try assertConsistent(SampleGraph.terreHaute().graph)
    }

    /// The Terre Haute graph equals the reference build.
    func testTerreHauteMatchesReferenceBuild() throws {
        let extract = try SampleGraph.terreHaute()
        try assertMatchesReference(extract.graph, input: extract.inputPath)
    }

    /// A second import of Terre Haute writes the same bytes.
    func testTerreHauteImportIsDeterministic() throws {
        let extract = try SampleGraph.terreHaute()
        let again = SampleGraph.folder.appendingPathComponent("terre-haute-again.wfg").path
        defer { try? FileManager.default.removeItem(atPath: again) }
        let statistics = try GraphImporter().run(input: extract.inputPath, output: again)
        XCTAssertEqual(statistics, extract.statistics)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: again)), try Data(contentsOf: URL(fileURLWithPath: extract.graphPath)))
    }

    // MARK: Monaco

    /// The Monaco graph is consistent and equals the reference build.
    func testMonacoMatchesReferenceBuild() throws {
        let extract = try SampleGraph.monaco()
        XCTAssertEqual(extract.statistics.nodesRead, 13_739)
        try assertConsistent(extract.graph)
        try assertMatchesReference(extract.graph, input: extract.inputPath)
    }

    // MARK: Checks

    /// Structural invariants: indices in range, shape ranges monotone, incidence lists listing exactly the edges each
    /// profile may use, at both ends with the right side bit; the spatial index covering every segment run once.
    func assertConsistent(_ graph: RoadGraph, file: StaticString = #filePath, line: UInt = #line) throws {
        let n = graph.nodeCount, e = graph.edgeCount
        XCTAssertGreaterThan(n, 0, file: file, line: line)
        XCTAssertTrue(graph.edgeFrom.allSatisfy { Int($0) < n }, "edge.from in range", file: file, line: line)
        XCTAssertTrue(graph.edgeTo.allSatisfy { Int($0) < n }, "edge.to in range", file: file, line: line)
        XCTAssertTrue(graph.edgeWay.allSatisfy { Int($0) < graph.wayOSMIDs.count }, "edge.way in range", file: file, line: line)
        XCTAssertEqual(graph.edgeShapeStart.first, 0, file: file, line: line)
        XCTAssertEqual(Int(graph.edgeShapeStart.last!), graph.shapeLatitudes.count, file: file, line: line)
        XCTAssertTrue(zip(graph.edgeShapeStart, graph.edgeShapeStart.dropFirst()).allSatisfy { $0 <= $1 }, "shape starts monotone", file: file, line: line)
        XCTAssertTrue(zip(graph.edgeWay, graph.edgeWay.dropFirst()).allSatisfy { $0 <= $1 }, "edges grouped by way", file: file, line: line)
        XCTAssertTrue(zip(graph.wayOSMIDs, graph.wayOSMIDs.dropFirst()).allSatisfy { $0 < $1 }, "way ids sorted and unique", file: file, line: line)
        XCTAssertEqual(Set(graph.nodeOSMIDs).count, n, "graph node ids unique", file: file, line: line)
        let strings = graph.stringStart.count - 1
        XCTAssertTrue(graph.wayNames.allSatisfy { Int($0) < strings } && graph.wayRefs.allSatisfy { Int($0) < strings }, file: file, line: line)
        XCTAssertTrue(zip(graph.stringStart, graph.stringStart.dropFirst()).allSatisfy { $0 <= $1 }, file: file, line: line)
        XCTAssertEqual(graph.string(0), "", file: file, line: line)
        XCTAssertTrue(graph.wayClasses.allSatisfy { HighwayClass(rawValue: $0) != nil }, file: file, line: line)
        for k in 0..<e {
            // Every edge's length is the haversine length of its polyline.
            let points = graph.polyline(ofEdge: k)
            let length = zip(points, points.dropFirst()).reduce(0.0) { $0 + DrawnMap.haversine($1.0, $1.1) }
            if abs(Double(graph.edgeLengthMillimetres[k]) - length * 1000) > 1 {
                XCTFail("edge \(k): \(graph.edgeLengthMillimetres[k]) mm, polyline \(length * 1000) mm", file: file, line: line)
                break
            }
        }
        for profile in graph.profiles {
            let name = profile.profile.name
            XCTAssertEqual(profile.firstIncidence.count, n + 1, file: file, line: line)
            XCTAssertEqual(profile.firstIncidence.first, 0, file: file, line: line)
            XCTAssertEqual(Int(profile.firstIncidence.last!), profile.incidence.count, file: file, line: line)
            XCTAssertTrue(zip(profile.firstIncidence, profile.firstIncidence.dropFirst()).allSatisfy { $0 <= $1 }, name, file: file, line: line)
            var seen = [UInt8](repeating: 0, count: e)
            var problems = 0
            for node in 0..<n {
                for i in Int(profile.firstIncidence[node])..<Int(profile.firstIncidence[node + 1]) {
                    let entry = profile.incidence[i], edge = Int(entry >> 1)
                    let end = entry & 1 == 0 ? graph.edgeFrom[edge] : graph.edgeTo[edge]
                    if Int(end) != node { problems += 1 }
                    seen[edge] += UInt8(1 << (entry & 1))
                }
            }
            XCTAssertEqual(problems, 0, "\(name): incidence entries whose side bit names another node", file: file, line: line)
            var usable = 0
            for edge in 0..<e {
                let open = profile.timeForward[edge] != closedEdge || profile.timeBackward[edge] != closedEdge
                if open { usable += 1 }
                if seen[edge] != (open ? 3 : 0) {
                    XCTFail("\(name): edge \(edge) listed \(seen[edge]) (open: \(open))", file: file, line: line)
                    break
                }
                // A nonzero length takes some time.
                if profile.timeForward[edge] == 0 && graph.edgeLengthMillimetres[edge] > 1000 {
                    XCTFail("\(name): edge \(edge) takes no time", file: file, line: line)
                    break
                }
            }
            XCTAssertEqual(profile.restrictionStart.first, 0, file: file, line: line)
            XCTAssertEqual(profile.restrictionStart.count, profile.restrictionKinds.count + 1, file: file, line: line)
            XCTAssertEqual(Int(profile.restrictionStart.last!), profile.restrictionPath.count, file: file, line: line)
            XCTAssertTrue(profile.restrictionPath.allSatisfy { Int($0 >> 1) < e }, file: file, line: line)
            let figures = graph.metadata.statistics.profiles[profile.index]
            XCTAssertEqual(figures.edges, usable, name, file: file, line: line)
        }
        // The spatial index holds each run of 8 segments of each edge exactly once.
        var expectedItems: [UInt32] = []
        for edge in 0..<e {
            let segments = Int(graph.edgeShapeStart[edge + 1] - graph.edgeShapeStart[edge]) + 1
            let first = Int(graph.edgeShapeStart[edge]) + edge
            for run in stride(from: 0, to: segments, by: SpatialIndexData.segmentsPerItem) { expectedItems.append(UInt32(first + run)) }
        }
        XCTAssertEqual(graph.spatialIndex.items.sorted(), expectedItems, "index items", file: file, line: line)
    }

    /// Builds the graph the plain way, from the OSM file: routable ways (first copy of an id), split at missing nodes;
    /// graph nodes where a node is used twice, ends a piece, or carries a barrier/blocking tag; edges between graph
    /// nodes with the profiles' speeds. Then compares nodes, flags, edges, lengths and times with `graph`.
    func assertMatchesReference(_ graph: RoadGraph, input: String, file: StaticString = #filePath, line: UInt = #line) throws {
        final class Collector: OSMElementHandler {
            var positions: [Int64: (latitude: Int32, longitude: Int32)] = [:]
            var tags: [Int64: [OSMTag]] = [:]
            var ways: [OSMWay] = []
            func handle(node: OSMNode) {
                guard positions[node.id] == nil else { return }
                positions[node.id] = (node.latitudeE7, node.longitudeE7)
                if !node.tags.isEmpty { tags[node.id] = node.tags }
            }
            func handle(way: OSMWay) { ways.append(way) }
            func handle(relation: OSMRelation) {}
        }
        let osm = try OSMInput(path: input)
        let collector = Collector()
        try OSMXMLReader(source: osm.source, name: input, handler: collector).read()
        let evaluators = graph.metadata.profiles.map(ProfileEvaluator.init)

        // Routable ways, the first copy of each id.
        var kept: [(way: OSMWay, speeds: [(Double?, Double?)])] = []
        var keptIDs = Set<Int64>()
        for way in collector.ways {
            let speeds: [(Double?, Double?)] = evaluators.map {
                if case let .routable(forward, backward) = $0.evaluate(way: way.tags) { return (forward, backward) }
                return (nil, nil)
            }
            guard speeds.contains(where: { $0.0 != nil || $0.1 != nil }), keptIDs.insert(way.id).inserted else { continue }
            kept.append((way, speeds))
        }
        XCTAssertEqual(Array(graph.wayOSMIDs), kept.map(\.way.id).sorted(), "way ids", file: file, line: line)

        // Pieces of present nodes.
        var pieces: [(wayIndex: Int, nodes: [Int64])] = []
        for (index, entry) in kept.enumerated() {
            var piece: [Int64] = []
            for id in entry.way.nodeIDs {
                if collector.positions[id] == nil {
                    if piece.count >= 2 { pieces.append((index, piece)) }
                    piece = []
                } else if piece.last != id {
                    piece.append(id)
                }
            }
            if piece.count >= 2 { pieces.append((index, piece)) }
        }
        // Graph nodes and flags.
        var uses: [Int64: Int] = [:]
        var graphNodes = Set<Int64>()
        for piece in pieces {
            for id in piece.nodes { uses[id, default: 0] += 1 }
            graphNodes.insert(piece.nodes.first!)
            graphNodes.insert(piece.nodes.last!)
        }
        var expectedFlags: [Int64: UInt8] = [:]
        for (id, count) in uses {
            if count >= 2 { graphNodes.insert(id) }
            guard let tags = collector.tags[id] else { continue }
            var flags: UInt8 = tags["barrier"] != nil ? 0x80 : 0
            for (p, evaluator) in evaluators.enumerated() where evaluator.blocks(node: tags) { flags |= 1 << UInt8(p) }
            if flags != 0 { graphNodes.insert(id); expectedFlags[id] = flags }
        }
        XCTAssertEqual(Set(graph.nodeOSMIDs), graphNodes, "graph nodes", file: file, line: line)
        var flagMismatches = 0
        for node in 0..<graph.nodeCount where graph.nodeFlags[node] != expectedFlags[graph.nodeOSMIDs[node], default: 0] { flagMismatches += 1 }
        XCTAssertEqual(flagMismatches, 0, "node flags", file: file, line: line)

        // Edges, keyed by way, end node ids and shape points.
        struct Expected { var length: Double; var times: [(Double?, Double?)] }
        var expected: [String: [Expected]] = [:]
        var expectedCount = 0
        for piece in pieces {
            var start = piece.nodes[0], shape: [String] = [], length = 0.0
            for (previous, id) in zip(piece.nodes, piece.nodes.dropFirst()) {
                length += DrawnMap.haversine(collector.positions[previous]!, collector.positions[id]!)
                if !graphNodes.contains(id) {
                    let p = collector.positions[id]!
                    shape.append("\(p.latitude),\(p.longitude)")
                    continue
                }
                let key = "\(kept[piece.wayIndex].way.id) \(start)-\(id) [\(shape.joined(separator: " "))]"
                let times = kept[piece.wayIndex].speeds.map { (f, b) in (f.map { length / ($0 / 3.6) * 1000 }, b.map { length / ($0 / 3.6) * 1000 }) }
                expected[key, default: []].append(Expected(length: length, times: times))
                expectedCount += 1
                start = id; shape = []; length = 0
            }
        }
        XCTAssertEqual(graph.edgeCount, expectedCount, "edge count", file: file, line: line)
        var mismatches: [String] = []
        for e in 0..<graph.edgeCount {
            let shape = (Int(graph.edgeShapeStart[e])..<Int(graph.edgeShapeStart[e + 1])).map { "\(graph.shapeLatitudes[$0]),\(graph.shapeLongitudes[$0])" }
            let key = "\(graph.wayOSMIDs[Int(graph.edgeWay[e])]) \(graph.nodeOSMIDs[Int(graph.edgeFrom[e])])-\(graph.nodeOSMIDs[Int(graph.edgeTo[e])]) [\(shape.joined(separator: " "))]"
            guard var candidates = expected[key], let reference = candidates.popLast() else { mismatches.append("unexpected edge \(key)"); continue }
            expected[key] = candidates
            if abs(Double(graph.edgeLengthMillimetres[e]) - reference.length * 1000) > 1 { mismatches.append("length of \(key)") }
            for profile in graph.profiles {
                for (label, stored, wanted) in [("forward", profile.timeForward[e], reference.times[profile.index].0),
                                                ("backward", profile.timeBackward[e], reference.times[profile.index].1)] {
                    switch (stored == closedEdge ? nil : Double(stored), wanted) {
                    case (nil, nil): break
                    case let (time?, want?) where abs(time - want) <= 1 + want * 1e-6: break
                    case let (time, want): mismatches.append("\(profile.profile.name) \(label) time of \(key): \(String(describing: time)) vs \(String(describing: want))")
                    }
                }
            }
            if mismatches.count > 10 { break }
        }
        XCTAssertEqual(mismatches, [], file: file, line: line)
        XCTAssertTrue(expected.values.allSatisfy(\.isEmpty), "reference edges missing from the graph", file: file, line: line)

        // Labels.
        let strings = UInt32(graph.stringStart.count - 1)
        for (index, entry) in kept.sorted(by: { $0.way.id < $1.way.id }).enumerated().prefix(graph.wayOSMIDs.count) {
            let tags = entry.way.tags
            guard graph.wayNames[index] < strings, graph.wayRefs[index] < strings else {
                XCTFail("way \(entry.way.id): string index out of range", file: file, line: line)
                break
            }
            if graph.string(graph.wayNames[index]) != (tags["name"] ?? "") || graph.string(graph.wayRefs[index]) != (tags["ref"] ?? "") {
                XCTFail("way \(entry.way.id): name/ref \(graph.string(graph.wayNames[index]))/\(graph.string(graph.wayRefs[index]))", file: file, line: line)
                break
            }
        }
    }
}
