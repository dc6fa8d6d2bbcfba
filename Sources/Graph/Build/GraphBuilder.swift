import Foundation
import OSM

/// Turns what `OSMCollector` gathered into the road graph: graph nodes at intersections, dead ends and
/// barriers; edges between them with their shape, length and per-profile travel times; restrictions; the index.
struct GraphBuilder {
    let collector: OSMCollector
    var statistics: ImportStatistics
    private let profileCount: Int
    /// Edge lengths in metres before rounding to millimetres, kept until the travel times are computed.
    private var exactLengths: [Float] = []
    /// Announces the start of each build phase (for the progress display).
    var phase: (String) -> Void = { _ in }

    init(collector: OSMCollector) {
        self.collector = collector
        statistics = collector.statistics
        profileCount = collector.evaluators.count
    }

    /// Runs every phase and returns the graph; the collector's arrays are released as they are used up.
    mutating func build() -> GraphData {
        phase("sorting nodes")
        sortNodes()
        phase("resolving ways")
        let ways = orderWays()
        var resolved = resolveWayNodes(ways)
        collector.wayNodeIDs = []

        phase("finding intersections")
        var special: [UInt32: UInt8] = [:]
        for (i, id) in collector.specialNodeIDs.enumerated() {
            if let index = nodeIndex(of: id) { special[UInt32(index), default: 0] |= collector.specialNodeFlags[i] }
        }
        var viaNodeIndices: [Int64: UInt32] = [:]
        for restriction in collector.restrictions {
            for id in restriction.viaNodes { if let index = nodeIndex(of: id) { viaNodeIndices[id] = UInt32(index) } }
        }
        var graphIDs = numberGraphNodes(resolved, special: special, forced: Array(viaNodeIndices.values))

        var graph = GraphData()
        graph.nodeLatitudes = graphIDs.nodes.map { collector.nodeLatitudes[Int($0)] }
        graph.nodeLongitudes = graphIDs.nodes.map { collector.nodeLongitudes[Int($0)] }
        graph.nodeOSMIDs = graphIDs.nodes.map { collector.nodeIDs[Int($0)] }
        graph.nodeFlags = graphIDs.nodes.map { special[$0] ?? 0 }
        statistics.graphNodes = graphIDs.nodes.count
        var viaGraphNodes: [Int64: UInt32] = [:]
        for (id, index) in viaNodeIndices where graphIDs.map[Int(index)] != UInt32.max { viaGraphNodes[id] = graphIDs.map[Int(index)] }
        // Memory is released phase by phase: node ids are no longer needed.
        collector.nodeIDs = []
        collector.nodesReordered()
        graphIDs.nodes = []
        buildStrings(ways: ways, into: &graph)

        phase("building edges")
        let wayFirstEdge = buildEdges(resolved, ways: ways, graphID: graphIDs.map, into: &graph)
        resolved = ([], [])
        graphIDs.map = []
        collector.nodeLatitudes = []; collector.nodeLongitudes = []
        collector.ways = []
        buildTimes(ways: ways, into: &graph)
        collector.waySpeeds = []
        exactLengths = []

        phase("building profiles")
        for p in 0..<profileCount {
            buildIncidence(profile: p, into: &graph)
            let flags = graph.nodeFlags, bit = UInt8(1 << p)
            graph.profiles[p].island = IslandFinder.islands(
                nodeCount: graph.nodeLatitudes.count, edgeFrom: graph.edgeFrom, edgeTo: graph.edgeTo,
                timeForward: graph.profiles[p].timeForward, timeBackward: graph.profiles[p].timeBackward,
                firstIncidence: graph.profiles[p].firstIncidence, incidence: graph.profiles[p].incidence,
                blocked: { flags[$0] & bit != 0 })
        }
        var resolver = RestrictionResolver(graph: graph, wayFirstEdge: wayFirstEdge, viaNodes: viaGraphNodes)
        for p in 0..<profileCount {
            let result = resolver.resolve(collector.restrictions, profile: p)
            graph.profiles[p].restrictionKinds = result.kinds
            graph.profiles[p].restrictionStart = result.starts
            graph.profiles[p].restrictionPath = result.path
            statistics.profiles[p].restrictionsViaNode = result.viaNode
            statistics.profiles[p].restrictionsViaWay = result.viaWay
        }
        statistics.restrictionsSkipped = resolver.skipped
        statistics.restrictionSkips = resolver.skips

        phase("building spatial index")
        graph.spatialIndex = SpatialIndexBuilder.build(graph)
        statistics.shapePoints = graph.shapeLatitudes.count
        if !graph.nodeLatitudes.isEmpty {
            statistics.minLatitude = graph.nodeLatitudes.min()!
            statistics.maxLatitude = graph.nodeLatitudes.max()!
            statistics.minLongitude = graph.nodeLongitudes.min()!
            statistics.maxLongitude = graph.nodeLongitudes.max()!
            statistics.minLatitude = min(statistics.minLatitude, graph.shapeLatitudes.min() ?? .max)
            statistics.maxLatitude = max(statistics.maxLatitude, graph.shapeLatitudes.max() ?? .min)
            statistics.minLongitude = min(statistics.minLongitude, graph.shapeLongitudes.min() ?? .max)
            statistics.maxLongitude = max(statistics.maxLongitude, graph.shapeLongitudes.max() ?? .min)
        }
        return graph
    }

    // MARK: Nodes

    /// Sorts the node arrays by id when the file was not sorted, keeping the first of duplicate ids.
    private mutating func sortNodes() {
        let c = collector
        if c.nodesSorted { return }
        c.nodesReordered()  // the look-up over the file's order is released first
        var order = [Int32](0..<Int32(c.nodeIDs.count))
        c.nodeIDs.withUnsafeBufferPointer { ids in
            order.sort { a, b in
                let x = ids[Int(a)], y = ids[Int(b)]
                return x != y ? x < y : a < b
            }
        }
        var ids: [Int64] = [], lats: [Int32] = [], lons: [Int32] = []
        ids.reserveCapacity(order.count); lats.reserveCapacity(order.count); lons.reserveCapacity(order.count)
        for i in order {
            let id = c.nodeIDs[Int(i)]
            if let last = ids.last, last == id { statistics.nodesDuplicate += 1; continue }
            ids.append(id); lats.append(c.nodeLatitudes[Int(i)]); lons.append(c.nodeLongitudes[Int(i)])
        }
        c.nodeIDs = ids; c.nodeLatitudes = lats; c.nodeLongitudes = lons
        c.nodesSorted = true
    }

    /// The position of node `id` in the sorted node arrays (the collector's id look-up, which the place collector
    /// built while reading when it gathers places).
    private func nodeIndex(of id: Int64) -> Int? { collector.nodePosition(of: id) }

    // MARK: Ways

    /// Collected way indices ordered by OSM id, later duplicates of an id dropped.
    private mutating func orderWays() -> [Int32] {
        let all = collector.ways
        var order = [Int32](0..<Int32(all.count))
        order.sort { a, b in
            let x = all[Int(a)].id, y = all[Int(b)].id
            return x != y ? x < y : a < b
        }
        var kept: [Int32] = []
        kept.reserveCapacity(order.count)
        for i in order {
            if let last = kept.last, all[Int(last)].id == all[Int(i)].id { statistics.waysDuplicate += 1; continue }
            kept.append(i)
        }
        return kept
    }

    /// Every kept way's nodes as node indices (`UInt32.max` where the node is missing), back to back.
    private func resolveWayNodes(_ ways: [Int32]) -> (indices: [UInt32], start: [Int]) {
        var indices: [UInt32] = []
        var start: [Int] = [0]
        indices.reserveCapacity(collector.wayNodeIDs.count)
        start.reserveCapacity(ways.count + 1)
        for w in ways {
            let way = collector.ways[Int(w)]
            for k in 0..<Int(way.nodeCount) {
                let id = collector.wayNodeIDs[way.firstNode + k]
                indices.append(nodeIndex(of: id).map { UInt32($0) } ?? UInt32.max)
            }
            start.append(indices.count)
        }
        return (indices, start)
    }

    /// Calls `body` with each run of two or more present, distinct consecutive nodes of way `w`.
    private static func forEachPiece(_ resolved: (indices: [UInt32], start: [Int]), way w: Int, _ body: ([UInt32]) -> Void) {
        var piece: [UInt32] = []
        piece.reserveCapacity(resolved.start[w + 1] - resolved.start[w])
        for k in resolved.start[w]..<resolved.start[w + 1] {
            let node = resolved.indices[k]
            if node == UInt32.max {
                if piece.count >= 2 { body(piece) }
                piece.removeAll(keepingCapacity: true)
            } else if piece.last != node {
                piece.append(node)
            }
        }
        if piece.count >= 2 { body(piece) }
    }

    /// Marks graph nodes (way ends, nodes shared by ways or met twice, barriers, restriction via nodes) and numbers them in Hilbert order.
    private mutating func numberGraphNodes(_ resolved: (indices: [UInt32], start: [Int]), special: [UInt32: UInt8], forced: [UInt32]) -> (nodes: [UInt32], map: [UInt32]) {
        var uses = [UInt8](repeating: 0, count: collector.nodeIDs.count)
        let wayCount = resolved.start.count - 1
        for w in 0..<wayCount {
            var missing = false, pieces = 0
            let first = resolved.start[w], end = resolved.start[w + 1]
            for k in first..<end where resolved.indices[k] == UInt32.max { missing = true; break }
            if missing {
                // Every segment with a missing node at either end is dropped.
                for k in first..<max(first, end - 1) where resolved.indices[k] == UInt32.max || resolved.indices[k + 1] == UInt32.max {
                    statistics.segmentsDropped += 1
                }
            }
            Self.forEachPiece(resolved, way: w) { piece in
                pieces += 1
                for node in piece where uses[Int(node)] < 2 { uses[Int(node)] += 1 }
                uses[Int(piece[0])] = 2
                uses[Int(piece[piece.count - 1])] = 2
            }
            if missing { statistics.waysWithMissingNodes += 1 }
            if pieces == 0 { statistics.waysWithoutGeometry += 1 }
        }
        for (node, flags) in special where flags & 0x80 != 0 || flags != 0 { if uses[Int(node)] > 0 { uses[Int(node)] = 2 } }
        for node in forced where uses[Int(node)] > 0 { uses[Int(node)] = 2 }

        var nodes: [UInt32] = []
        for i in 0..<uses.count where uses[i] == 2 { nodes.append(UInt32(i)) }
        let keys = nodes.map { Geo.hilbertIndex(lat: collector.nodeLatitudes[Int($0)], lon: collector.nodeLongitudes[Int($0)]) }
        var order = [Int32](0..<Int32(nodes.count))
        order.sort { a, b in keys[Int(a)] != keys[Int(b)] ? keys[Int(a)] < keys[Int(b)] : a < b }
        nodes = order.map { nodes[Int($0)] }
        var map = [UInt32](repeating: UInt32.max, count: uses.count)
        for (graphID, node) in nodes.enumerated() { map[Int(node)] = UInt32(graphID) }
        return (nodes, map)
    }

    // MARK: Edges

    /// Splits every way piece at graph nodes into edges; returns each way's first edge (edges of way w are contiguous).
    private mutating func buildEdges(_ resolved: (indices: [UInt32], start: [Int]), ways: [Int32], graphID: [UInt32], into graph: inout GraphData) -> [UInt32] {
        let lats = collector.nodeLatitudes, lons = collector.nodeLongitudes
        // Count edges and shape points first, so every array is allocated once at its final size.
        var edgeTotal = 0, shapeTotal = 0
        for w in 0..<ways.count {
            Self.forEachPiece(resolved, way: w) { piece in
                for j in 1..<piece.count {
                    if graphID[Int(piece[j])] == UInt32.max { shapeTotal += 1 } else { edgeTotal += 1 }
                }
            }
        }
        graph.edgeFrom.reserveCapacity(edgeTotal); graph.edgeTo.reserveCapacity(edgeTotal)
        graph.edgeLengthMillimetres.reserveCapacity(edgeTotal); graph.edgeWay.reserveCapacity(edgeTotal)
        graph.edgeShapeStart.reserveCapacity(edgeTotal + 1)
        graph.shapeLatitudes.reserveCapacity(shapeTotal); graph.shapeLongitudes.reserveCapacity(shapeTotal)
        graph.wayOSMIDs.reserveCapacity(ways.count); graph.wayClasses.reserveCapacity(ways.count)
        var wayFirstEdge: [UInt32] = [0]
        wayFirstEdge.reserveCapacity(ways.count + 1)
        exactLengths = []
        exactLengths.reserveCapacity(edgeTotal)

        for (w, original) in ways.enumerated() {
            let way = collector.ways[Int(original)]
            graph.wayOSMIDs.append(way.id)
            graph.wayClasses.append(way.highwayClass)
            let wayIndex = UInt32(w)
            // A way that runs along the same segment again (1,2,1,2,…) would give it one parallel edge per pass, and
            // contraction is quadratic in parallel edges: a segment already made by this way in this direction is
            // not made again. Only direct segments can repeat (a node a way meets twice is a graph node).
            var directSegments = Set<UInt64>()
            Self.forEachPiece(resolved, way: w) { piece in
                var start = graphID[Int(piece[0])]
                var length = 0.0
                var shapePoints = 0
                for j in 1..<piece.count {
                    let a = Int(piece[j - 1]), b = Int(piece[j])
                    length += Geo.distance(lat1: lats[a], lon1: lons[a], lat2: lats[b], lon2: lons[b])
                    let end = graphID[b]
                    if end == UInt32.max {
                        graph.shapeLatitudes.append(lats[b]); graph.shapeLongitudes.append(lons[b])
                        shapePoints += 1
                        continue
                    }
                    if shapePoints == 0 && !directSegments.insert(UInt64(start) << 32 | UInt64(end)).inserted {
                        statistics.repeatedSegmentsMerged += 1
                        start = end
                        length = 0
                        continue
                    }
                    shapePoints = 0
                    graph.edgeFrom.append(start)
                    graph.edgeTo.append(end)
                    graph.edgeLengthMillimetres.append(UInt32(min((length * 1000).rounded(), Double(longestTime))))
                    exactLengths.append(Float(length))
                    graph.edgeWay.append(wayIndex)
                    graph.edgeShapeStart.append(UInt32(graph.shapeLatitudes.count))
                    start = end
                    length = 0
                }
            }
            wayFirstEdge.append(UInt32(graph.edgeFrom.count))
        }
        statistics.graphEdges = graph.edgeFrom.count
        return wayFirstEdge
    }

    /// Per-profile travel times of every edge in each direction: length / speed of its way, in milliseconds.
    /// Run after the larger arrays are freed, so the time arrays do not add to the import's peak memory.
    private mutating func buildTimes(ways: [Int32], into graph: inout GraphData) {
        let speeds = collector.waySpeeds
        let stride = profileCount * 2
        graph.profiles = collector.evaluators.map { ProfileGraphData(name: $0.profile.name) }
        let edgeCount = graph.edgeFrom.count
        for p in 0..<profileCount {
            var forwardTimes = [UInt32](repeating: closedEdge, count: edgeCount)
            var backwardTimes = [UInt32](repeating: closedEdge, count: edgeCount)
            var edges = 0, directed = 0, kilometres = 0.0, fastest = 0.0
            for e in 0..<edgeCount {
                let base = Int(ways[Int(graph.edgeWay[e])]) * stride + 2 * p
                let forward = Double(speeds[base]), backward = Double(speeds[base + 1])
                let metres = Double(exactLengths[e])
                if forward > 0 { forwardTimes[e] = Self.milliseconds(metres: metres, kmh: forward) }
                if backward > 0 { backwardTimes[e] = Self.milliseconds(metres: metres, kmh: backward) }
                fastest = max(fastest, forward, backward)
                if forward > 0 || backward > 0 {
                    edges += 1
                    directed += (forward > 0 ? 1 : 0) + (backward > 0 ? 1 : 0)
                    kilometres += metres / 1000
                }
            }
            graph.profiles[p].timeForward = forwardTimes
            graph.profiles[p].timeBackward = backwardTimes
            statistics.profiles[p].edges = edges
            statistics.profiles[p].directedEdges = directed
            statistics.profiles[p].kilometres = kilometres
            statistics.profiles[p].maximumSpeed = fastest
        }
    }

    /// Travel time in whole milliseconds of `metres` at `kmh`.
    static func milliseconds(metres: Double, kmh: Double) -> UInt32 {
        UInt32(min((metres / (kmh / 3.6) * 1000).rounded(), Double(longestTime)))
    }

    /// Builds the string table in order of first use by the sorted ways, and points ways at it.
    private func buildStrings(ways: [Int32], into graph: inout GraphData) {
        var remap = [UInt32](repeating: UInt32.max, count: collector.strings.count)
        remap[0] = 0
        graph.stringStart = [0, 0]  // string 0 is the empty string ("no name")
        graph.stringBytes = []
        func place(_ old: UInt32) -> UInt32 {
            if remap[Int(old)] == UInt32.max {
                remap[Int(old)] = UInt32(graph.stringStart.count - 1)
                graph.stringBytes.append(contentsOf: collector.strings[Int(old)].utf8)
                graph.stringStart.append(UInt32(graph.stringBytes.count))
            }
            return remap[Int(old)]
        }
        for original in ways {
            let way = collector.ways[Int(original)]
            graph.wayNames.append(place(way.name))
            graph.wayRefs.append(place(way.ref))
        }
    }

    /// Builds profile p's incidence lists: every edge usable in some direction, listed at both ends.
    private mutating func buildIncidence(profile p: Int, into graph: inout GraphData) {
        let nodeCount = graph.nodeLatitudes.count
        var degree = [UInt32](repeating: 0, count: nodeCount + 1)
        let forward = graph.profiles[p].timeForward, backward = graph.profiles[p].timeBackward
        var usable = [Bool](repeating: false, count: graph.edgeFrom.count)
        for e in 0..<graph.edgeFrom.count where forward[e] != closedEdge || backward[e] != closedEdge {
            usable[e] = true
            degree[Int(graph.edgeFrom[e])] += 1
            degree[Int(graph.edgeTo[e])] += 1
        }
        var first = [UInt32](repeating: 0, count: nodeCount + 1)
        var nodesUsed = 0
        for n in 0..<nodeCount {
            first[n + 1] = first[n] + degree[n]
            if degree[n] > 0 { nodesUsed += 1 }
        }
        var fill = first
        var incidence = [UInt32](repeating: 0, count: Int(first[nodeCount]))
        for e in 0..<graph.edgeFrom.count where usable[e] {
            let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
            incidence[Int(fill[from])] = UInt32(e) << 1
            fill[from] += 1
            incidence[Int(fill[to])] = UInt32(e) << 1 | 1
            fill[to] += 1
        }
        graph.profiles[p].firstIncidence = first
        graph.profiles[p].incidence = incidence
        statistics.profiles[p].nodes = nodesUsed
    }
}
