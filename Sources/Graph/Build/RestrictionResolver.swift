/// Turns restriction relations into paths of directed edges, per profile.
///
/// Via-node restrictions become two-edge paths (arrive on `from`, leave on `to`); via-way restrictions
/// become the arriving edge, the edges along the via way(s), and the leaving edge.
struct RestrictionResolver {
    let graph: GraphData
    let wayFirstEdge: [UInt32]
    let viaNodes: [Int64: UInt32]
    /// Restriction relations skipped (for any profile): missing or unconnected members, unknown values.
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

    /// The way's pieces (a clipped way has several, split where nodes are missing), each as its graph nodes in
    /// order and the index of its first edge.
    private func pieces(of way: Int) -> [(nodes: [UInt32], firstEdge: Int)] {
        var result: [(nodes: [UInt32], firstEdge: Int)] = []
        for e in edges(of: way) {
            if let last = result.last?.nodes.last, last == graph.edgeFrom[e] {
                result[result.count - 1].nodes.append(graph.edgeTo[e])
            } else {
                result.append(([graph.edgeFrom[e], graph.edgeTo[e]], e))
            }
        }
        return result
    }

    /// Directed edges along `way` from graph node `a` to graph node `b`, within one piece of it.
    private func path(along way: Int, from a: UInt32, to b: UInt32) -> [UInt32]? {
        for piece in pieces(of: way) {
            guard let i = piece.nodes.firstIndex(of: a), let j = piece.nodes.lastIndex(of: b), i != j else { continue }
            let base = piece.firstEdge
            if i < j { return (i..<j).map { directedEdge(UInt32(base + $0), reversed: false) } }
            return (j..<i).reversed().map { directedEdge(UInt32(base + $0), reversed: true) }
        }
        return nil
    }

    /// Where two ways meet: an end of a piece of `way` that lies on `other` (ends first), else any shared graph node.
    private func junction(of way: Int, with other: Int, excluding: UInt32? = nil) -> UInt32? {
        let parts = pieces(of: way)
        guard !parts.isEmpty else { return nil }
        let otherNodes = Set(edges(of: other).flatMap { [graph.edgeFrom[$0], graph.edgeTo[$0]] })
        let candidates = parts.flatMap { [$0.nodes.first!, $0.nodes.last!] } + parts.flatMap(\.nodes)
        return candidates.first { otherNodes.contains($0) && $0 != excluding }
    }

    /// Why a restriction was skipped.
    enum SkipReason: Error { case missingMember, disconnected, malformed }

    /// Resolves every restriction that applies to profile p, sorted by path for lookup by arriving edge.
    ///
    /// A restriction is skipped (and counted, once per relation) when a member is missing from the file (or is no
    /// road), when its `from` or `to` way no longer touches the via node or via ways (a clipped way that lost its
    /// end at the junction), or when it is malformed (unknown value, members of the wrong kind or number).
    mutating func resolve(_ restrictions: [CollectedRestriction], profile p: Int) -> Result {
        var records: [(kind: UInt8, path: [UInt32])] = []
        var result = Result()
        for restriction in restrictions {
            guard let value = restriction.values[p] else { continue }
            switch paths(of: restriction, value: value) {
            case let .failure(reason):
                skip(restriction.id, reason)
            case let .success((kind, paths, viaWay)):
                if viaWay { result.viaWay += 1 } else { result.viaNode += 1 }
                for path in paths { records.append((kind.rawValue, path)) }
            }
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

    /// Relations skipped so far, by id, with their first reason.
    private var skippedRelations: [Int64: SkipReason] = [:]
    /// The skipped relations by reason.
    var skips: ImportStatistics.RestrictionSkips {
        var skips = ImportStatistics.RestrictionSkips()
        for reason in skippedRelations.values {
            switch reason {
            case .missingMember: skips.missingMember += 1
            case .disconnected: skips.disconnected += 1
            case .malformed: skips.malformed += 1
            }
        }
        return skips
    }

    private mutating func skip(_ id: Int64, _ reason: SkipReason) {
        if skippedRelations[id] == nil { skippedRelations[id] = reason; skipped += 1 }
    }

    /// The directed-edge paths of one restriction, its kind and whether it is a via-way one; or why it is skipped.
    private func paths(of restriction: CollectedRestriction, value: String) -> Swift.Result<(RestrictionKind, [[UInt32]], Bool), SkipReason> {
        guard let kind = Self.kind(of: value) else { return .failure(.malformed) }
        guard !restriction.from.isEmpty, !restriction.to.isEmpty else { return .failure(.malformed) }
        let from = restriction.from.compactMap(wayIndex(of:)), to = restriction.to.compactMap(wayIndex(of:))
        guard from.count == restriction.from.count, to.count == restriction.to.count else { return .failure(.missingMember) }
        if restriction.viaWays.isEmpty {
            guard restriction.viaNodes.count == 1 else { return .failure(.malformed) }
            guard let via = viaNodes[restriction.viaNodes[0]] else { return .failure(.missingMember) }
            // Every `from` way must still arrive at the via node and every `to` way leave it.
            let arrivals = from.map { arriving($0, at: via) }, departures = to.map { leaving($0, at: via) }
            guard arrivals.allSatisfy({ !$0.isEmpty }), departures.allSatisfy({ !$0.isEmpty }) else { return .failure(.disconnected) }
            // `from` and `to` the same way: a U-turn restriction turns back on the arriving edge, any other goes on along the way.
            let uTurn = value.hasSuffix("_u_turn")
            var paths: [[UInt32]] = []
            for (f, arrivingEdges) in zip(from, arrivals) {
                for (t, leavingEdges) in zip(to, departures) {
                    for leave in leavingEdges {
                        for arrive in arrivingEdges where f != t || (arrive >> 1 == leave >> 1) == uTurn { paths.append([arrive, leave]) }
                    }
                }
            }
            guard !paths.isEmpty else { return .failure(.disconnected) }
            return .success((kind, paths, false))
        }
        guard restriction.viaNodes.isEmpty, from.count == 1, to.count == 1 else { return .failure(.malformed) }
        let vias = restriction.viaWays.compactMap(wayIndex(of:))
        guard vias.count == restriction.viaWays.count else { return .failure(.missingMember) }
        guard let paths = viaWayPaths(from: from[0], vias: vias, to: to[0]) else { return .failure(.disconnected) }
        return .success((kind, paths, true))
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
