/// Turns restriction relations into paths of directed edges, per profile.
///
/// Via-node restrictions become two-edge paths (arrive on `from`, leave on `to`); via-way restrictions
/// become the arriving edge, the edges along the via way(s), and the leaving edge.
struct RestrictionResolver {
    let graph: GraphData
    let wayFirstEdge: [UInt32]
    let viaNodes: [Int64: UInt32]
    /// Restrictions skipped for any profile: missing or unconnected members, unknown values.
    private(set) var skipped = 0

    init(graph: GraphData, wayFirstEdge: [UInt32], viaNodes: [Int64: UInt32]) {
        self.graph = graph
        self.wayFirstEdge = wayFirstEdge
        self.viaNodes = viaNodes
    }

    struct Result {
        var kinds: [UInt8] = []
        var starts: [UInt32] = [0]
        var path: [UInt32] = []
        var viaNode = 0
        var viaWay = 0
    }

    static func kind(of value: String) -> RestrictionKind? {
        switch value {
        case "no_left_turn", "no_right_turn", "no_straight_on", "no_u_turn", "no_entry", "no_exit": return .prohibitory
        case "only_left_turn", "only_right_turn", "only_straight_on", "only_u_turn": return .mandatory
        default: return nil
        }
    }

    private func wayIndex(of id: Int64) -> Int? {
        let ids = graph.wayOSMIDs
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) >> 1
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    private func edges(of way: Int) -> Range<Int> { Int(wayFirstEdge[way])..<Int(wayFirstEdge[way + 1]) }

    /// Directed edges of `way` that end at `node`.
    private func arriving(_ way: Int, at node: UInt32) -> [UInt32] {
        var result: [UInt32] = []
        for e in edges(of: way) {
            if graph.edgeTo[e] == node { result.append(directedEdge(UInt32(e), reversed: false)) }
            if graph.edgeFrom[e] == node { result.append(directedEdge(UInt32(e), reversed: true)) }
        }
        return result
    }

    /// Directed edges of `way` that start at `node`.
    private func leaving(_ way: Int, at node: UInt32) -> [UInt32] {
        var result: [UInt32] = []
        for e in edges(of: way) {
            if graph.edgeFrom[e] == node { result.append(directedEdge(UInt32(e), reversed: false)) }
            if graph.edgeTo[e] == node { result.append(directedEdge(UInt32(e), reversed: true)) }
        }
        return result
    }

    /// The graph nodes along a way in order, or nil if the way is broken (missing nodes split it).
    private func nodeSequence(of way: Int) -> [UInt32]? {
        let range = edges(of: way)
        guard let first = range.first else { return nil }
        var sequence = [graph.edgeFrom[first]]
        for e in range {
            if graph.edgeFrom[e] != sequence.last! { return nil }
            sequence.append(graph.edgeTo[e])
        }
        return sequence
    }

    /// Directed edges along `way` from graph node `a` to graph node `b`.
    private func path(along way: Int, from a: UInt32, to b: UInt32) -> [UInt32]? {
        guard let sequence = nodeSequence(of: way),
              let i = sequence.firstIndex(of: a), let j = sequence.lastIndex(of: b), i != j else { return nil }
        let base = Int(wayFirstEdge[way])
        if i < j { return (i..<j).map { directedEdge(UInt32(base + $0), reversed: false) } }
        return (j..<i).reversed().map { directedEdge(UInt32(base + $0), reversed: true) }
    }

    /// Where two ways meet: an end of `way` that lies on `other` (ends of `way` first), else any shared graph node.
    private func junction(of way: Int, with other: Int, excluding: UInt32? = nil) -> UInt32? {
        guard let sequence = nodeSequence(of: way) else { return nil }
        let otherNodes = Set(edges(of: other).flatMap { [graph.edgeFrom[$0], graph.edgeTo[$0]] })
        let candidates = [sequence.first!, sequence.last!] + sequence
        return candidates.first { otherNodes.contains($0) && $0 != excluding }
    }

    /// Resolves every restriction that applies to profile p, sorted by path for lookup by arriving edge.
    mutating func resolve(_ restrictions: [CollectedRestriction], profile p: Int) -> Result {
        var records: [(kind: UInt8, path: [UInt32])] = []
        var result = Result()
        for restriction in restrictions {
            guard let value = restriction.values[p] else { continue }
            guard let kind = Self.kind(of: value) else { skipped += 1; continue }
            let from = restriction.from.compactMap(wayIndex(of:)), to = restriction.to.compactMap(wayIndex(of:))
            guard !from.isEmpty, !to.isEmpty else { skipped += 1; continue }
            var paths: [[UInt32]] = []
            if restriction.viaWays.isEmpty {
                guard restriction.viaNodes.count == 1, let via = viaNodes[restriction.viaNodes[0]] else { skipped += 1; continue }
                // `from` and `to` the same way: a U-turn restriction turns back on the arriving edge, any other goes on along the way.
                let uTurn = value.hasSuffix("_u_turn")
                for f in from {
                    let arrivals = arriving(f, at: via)
                    for t in to {
                        for leave in leaving(t, at: via) {
                            for arrive in arrivals where f != t || (arrive >> 1 == leave >> 1) == uTurn {
                                paths.append([arrive, leave])
                            }
                        }
                    }
                }
                if !paths.isEmpty { result.viaNode += 1 }
            } else {
                guard restriction.viaNodes.isEmpty, from.count == 1, to.count == 1 else { skipped += 1; continue }
                let vias = restriction.viaWays.compactMap(wayIndex(of:))
                guard vias.count == restriction.viaWays.count else { skipped += 1; continue }
                if let found = viaWayPaths(from: from[0], vias: vias, to: to[0]) { paths = found; result.viaWay += 1 }
            }
            guard !paths.isEmpty else { skipped += 1; continue }
            for path in paths { records.append((kind.rawValue, path)) }
        }
        records.sort { a, b in a.path.lexicographicallyPrecedes(b.path) || (a.path == b.path && a.kind < b.kind) }
        var previous: (UInt8, [UInt32])? = nil
        for record in records {
            if let previous, previous.0 == record.kind, previous.1 == record.path { continue }
            result.kinds.append(record.kind)
            result.path.append(contentsOf: record.path)
            result.starts.append(UInt32(result.path.count))
            previous = (record.kind, record.path)
        }
        return result
    }

    /// The edge paths of a via-way restriction: arrive on `from`, drive the via ways in order, leave on `to`.
    private func viaWayPaths(from: Int, vias: [Int], to: Int) -> [[UInt32]]? {
        guard let entry = junction(of: vias[0], with: from) else { return nil }
        var middle: [UInt32] = []
        var current = entry
        for (i, via) in vias.enumerated() {
            let next = i + 1 < vias.count ? vias[i + 1] : to
            guard let exit = junction(of: via, with: next, excluding: current),
                  let along = path(along: via, from: current, to: exit) else { return nil }
            middle += along
            current = exit
        }
        let arrivals = arriving(from, at: entry), departures = leaving(to, at: current)
        guard !arrivals.isEmpty, !departures.isEmpty else { return nil }
        var paths: [[UInt32]] = []
        for arrive in arrivals where arrive >> 1 != middle.first! >> 1 {
            for leave in departures where leave >> 1 != middle.last! >> 1 { paths.append([arrive] + middle + [leave]) }
        }
        return paths.isEmpty ? nil : paths
    }
}
