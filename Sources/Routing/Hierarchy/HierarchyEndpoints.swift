import Graph

/// A route's start seen by a hierarchy search: the states it may start in (directed edge, time and length of the
/// part travelled) and the vertex each arrives at, which seeds the forward search.
struct HierarchySource {
    struct Start { var vertex: Int; var d: UInt32; var cost: Double; var length: Double }
    let endpoint: SearchEndpoint
    var starts: [Start] = []
}

/// A route's end seen by a hierarchy search: the vertices from which it ends, with the time and length still to
/// go (for a target part-way along an edge, the move onto that edge, `entry`, and the part of it travelled).
struct HierarchyTarget {
    struct Seed { var vertex: Int; var label: Double; var length: Double; var entry: UInt32? }
    let endpoint: SearchEndpoint
    var seeds: [Seed] = []
}

/// A route found without the hierarchy: start and target on one node, on one edge, or one edge apart.
struct DirectRoute {
    enum Kind { case zero, direct(UInt32), single(UInt32) }
    var cost: Double
    var length: Double
    var kind: Kind
}

/// Turns search endpoints into hierarchy seeds over one profile's vertices.
struct HierarchyEndpointBuilder: Sendable {
    let states: HierarchyStates
    /// For each directed edge that leads into deeper via-way restriction states: those trie nodes.
    private let deepStates: [UInt32: [Int32]]

    init(states: HierarchyStates) {
        self.states = states
        let rules = states.space.rules
        var deep: [UInt32: [Int32]] = [:]
        for t in 0..<rules.nodeCount where !rules.isShallow(Int32(t)) { deep[rules.symbol(of: Int32(t)), default: []].append(Int32(t)) }
        deepStates = deep
    }

    @inline(__always) private func length(_ d: UInt32) -> Double { Double(states.space.graph.edgeLengthMillimetres[states.space.edge(d)]) / 1000 }

    /// The start states of a route from `endpoint`, as `RouteSearch` starts, and their vertices.
    func source(_ endpoint: SearchEndpoint) -> HierarchySource {
        let g = states.space
        var source = HierarchySource(endpoint: endpoint)
        g.forEachStart(endpoint) { d, remaining in
            source.starts.append(.init(vertex: states.vertex(ofState: g.stateID(d, rule: g.rules.start(d))), d: d,
                                       cost: Double(g.time(d)) * remaining, length: length(d) * remaining))
        }
        return source
    }

    /// The vertices that end a route at `endpoint`, with the time and length still to go from each.
    func target(_ endpoint: SearchEndpoint) -> HierarchyTarget {
        let g = states.space
        var target = HierarchyTarget(endpoint: endpoint)
        /// Calls `body` with each special or deep arrival at node n: its vertex, directed edge and rule state.
        func forEachSpecialArrival(at n: Int, _ body: (Int, UInt32, Int32) -> Void) {
            let profile = g.profile
            for position in Int(profile.firstIncidence[n])..<Int(profile.firstIncidence[n + 1]) {
                let a = profile.incidence[position] ^ 1
                guard g.time(a) != closedEdge else { continue }
                if states.isSpecial(a) { body(states.vertex(ofState: Int(a)), a, g.rules.start(a)) }
                for t in deepStates[a] ?? [] { body(states.vertex(ofState: 2 * g.graph.edgeCount + Int(t)), a, t) }
            }
        }
        if let m = endpoint.node {
            // Arriving at the node ends the route, whatever the way in.
            if !g.isBlocked(m) { target.seeds.append(.init(vertex: m, label: 0, length: 0, entry: nil)) }
            forEachSpecialArrival(at: m) { vertex, _, _ in target.seeds.append(.init(vertex: vertex, label: 0, length: 0, entry: nil)) }
        } else {
            for (d, part) in g.targetEntries(endpoint) {
                // Ending takes the move onto d from its tail, then the part of d up to the target.
                let cost = Double(g.time(d)) * part, len = length(d) * part
                let u = g.tail(d)
                if !g.isBlocked(u) { target.seeds.append(.init(vertex: u, label: cost, length: len, entry: d)) }
                forEachSpecialArrival(at: u) { vertex, a, rule in
                    if g.move(from: a, rule: rule, to: d) != nil { target.seeds.append(.init(vertex: vertex, label: cost, length: len, entry: d)) }
                }
            }
        }
        return target
    }

    /// The best route that needs no hierarchy search, as `RouteSearch` finds them: the same node, the start and
    /// target on one edge with the target ahead, or the target at the end of the start edge.
    func direct(_ source: HierarchySource, _ target: HierarchyTarget) -> DirectRoute? {
        let g = states.space
        let start = source.endpoint, end = target.endpoint
        if let n = start.node, end.node == n { return DirectRoute(cost: 0, length: 0, kind: .zero) }
        var best: DirectRoute? = nil
        func offer(_ candidate: DirectRoute) { if best == nil || candidate.cost < best!.cost { best = candidate } }
        for s in source.starts {
            if let part = g.directFraction(from: start, along: s.d, to: end) {
                offer(DirectRoute(cost: Double(g.time(s.d)) * part, length: length(s.d) * part, kind: .direct(s.d)))
            }
        }
        if let m = end.node {
            for s in source.starts where g.head(s.d) == m { offer(DirectRoute(cost: s.cost, length: s.length, kind: .single(s.d))) }
        }
        return best
    }
}
