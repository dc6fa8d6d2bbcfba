import Foundation
import Graph

/// Where a search starts or ends: a point part-way along an edge, or exactly on a graph node
/// (then free to use any of the node's edges, as `docs/profiles.md` says).
public struct SearchEndpoint: Equatable, Sendable {
    public var edge: Int
    /// Fraction of the edge's length from its `from` node.
    public var fraction: Double
    /// The graph node the point lies on, when it lies on one.
    public var node: Int?
    /// The point itself, for the A* bound.
    public var coordinate: Coordinate

    public init(edge: Int, fraction: Double, node: Int?, coordinate: Coordinate) {
        self.edge = edge; self.fraction = fraction; self.node = node; self.coordinate = coordinate
    }

    /// The endpoint of a snapped location in `graph`.
    public init(_ snapped: SnappedLocation, in graph: RoadGraph) {
        edge = snapped.edge
        fraction = snapped.fraction
        coordinate = snapped.location
        node = snapped.fraction <= 0 ? Int(graph.edgeFrom[snapped.edge]) : snapped.fraction >= 1 ? Int(graph.edgeTo[snapped.edge]) : nil
    }
}

/// The fastest way between two endpoints: edges travelled, time, and the search's effort.
public struct SearchResult: Equatable, Sendable {
    /// The edges in travel order, partial first and last ones included.
    public var traversals: [EdgeTraversal]
    /// Seconds and metres, summed over the traversals (without any penalty the search used).
    public var duration: Double
    public var distance: Double
    /// States (directed edges) the search settled.
    public var settled: Int
}

/// The fastest-path search: A* over directed edges with the great-circle bound at the graph's top speed,
/// honouring one-ways, access, barriers, U-turn rules and turn restrictions (via node and via way).
/// Deterministic: the same query always explores in the same order.
public struct RouteSearch: Sendable {
    public let space: SearchGraph
    private let pool: WorkspacePool<SearchWorkspace>

    /// Prepares searches over one profile.
    public init(space: SearchGraph) {
        self.space = space
        let stateCount = space.stateCount
        pool = WorkspacePool { SearchWorkspace(stateCount: stateCount) }
    }

    /// The fastest route from `start` to `target`, or nil when none exists. `useHeuristic: false` turns A* into
    /// Dijkstra's algorithm; `penalties` multiplies the time of listed edges (for alternatives).
    public func route(from start: SearchEndpoint, to target: SearchEndpoint, useHeuristic: Bool = true,
                      penalties: [Int: Double] = [:]) -> SearchResult? {
        pool.withWorkspace { (try? search(start, target, $0, useHeuristic, penalties, .none)) ?? nil }
    }

    /// As `route(from:to:useHeuristic:penalties:)`, giving up with `RoutingError.timedOut` (or `.cancelled`) once
    /// `deadline` passes: checked at the start and every `SearchDeadline.interval` states taken from the heap.
    public func route(from start: SearchEndpoint, to target: SearchEndpoint, useHeuristic: Bool = true,
                      penalties: [Int: Double] = [:], deadline: SearchDeadline) throws(RoutingError) -> SearchResult? {
        try deadline.check()
        return try pool.withWorkspace { ws throws(RoutingError) in try search(start, target, ws, useHeuristic, penalties, deadline) }
    }

    private func search(_ start: SearchEndpoint, _ target: SearchEndpoint, _ ws: SearchWorkspace, _ useHeuristic: Bool,
                        _ penalties: [Int: Double], _ deadline: SearchDeadline) throws(RoutingError) -> SearchResult? {
        let g = space
        let graph = g.graph
        ws.reset()
        @inline(__always) func cost(_ d: UInt32) -> Double {
            let base = Double(g.time(d))
            if penalties.isEmpty { return base }
            return base * (penalties[g.edge(d)] ?? 1)
        }
        // A* bound: great-circle metres to the target point at the top speed.
        let rad = Double.pi / 180
        let targetLatitude = target.coordinate.latitude * rad, targetLongitude = target.coordinate.longitude * rad
        let cosTarget = cos(targetLatitude)
        let metresPerMillisecond = g.maximumSpeed
        // The directed edges that end the route part-way along the target edge, and their partial cost.
        let targetEntries = g.targetEntries(target).map { (d: $0.d, cost: cost($0.d) * $0.fraction) }
        // ALT bound: the nodes the target is entered from, with the time still to go from each.
        let landmarks = useHeuristic ? LandmarkBound(profile: g.profile, targets: target.node.map { [($0, 0.0)] } ?? targetEntries.map { (g.tail($0.d), $0.cost) }) : nil
        @inline(__always) func bound(_ node: Int) -> Double {
            guard useHeuristic else { return 0 }
            let lat = Geo.degrees(graph.nodeLatitudes[node]) * rad, lon = Geo.degrees(graph.nodeLongitudes[node]) * rad
            let a = sin((targetLatitude - lat) / 2), b = sin((targetLongitude - lon) / 2)
            let h = a * a + cos(lat) * cosTarget * b * b
            let geometric = 2 * Geo.earthRadius * asin(min(1, h.squareRoot())) / metresPerMillisecond
            guard let landmarks else { return geometric }
            return max(geometric, landmarks.bound(node))
        }

        var best = Double.infinity
        var bestState: Int32 = -1
        var bestEntry: UInt32? = nil      // the partial target edge taken last, if any
        var direct: Bool = false          // start and target on the same edge, reached without a node between

        // Start states, and the target reached without passing a node.
        if let n = start.node, target.node == n { return SearchResult(traversals: [], duration: 0, distance: 0, settled: 0) }
        g.forEachStart(start) { d, remaining in
            if let part = g.directFraction(from: start, along: d, to: target), cost(d) * part < best {
                best = cost(d) * part; direct = true; bestEntry = d; bestState = -1
            }
            let state = g.stateID(d, rule: g.rules.start(d))
            let c = cost(d) * remaining
            if !ws.isReached(state) || c < ws.cost[state] {
                ws.reach(state, cost: c, parent: -1)
                ws.heap.push(c + bound(g.head(d)), Int32(state))
            }
        }

        var settled = 0, pops = 0
        while let (key, state32) = ws.heap.pop() {
            if key >= best { break }
            pops &+= 1
            try deadline.check(every: pops)
            let state = Int(state32)
            if ws.isSettled(state) { continue }
            ws.settle(state)
            settled += 1
            let d = g.directedEdge(ofState: state)
            let rule = g.rule(ofState: state)
            let c = ws.cost[state]
            let v = g.head(d)
            // Reaching the target from here?
            if let m = target.node {
                if v == m && c < best { best = c; bestState = state32; bestEntry = nil; direct = false }
            } else {
                for entry in targetEntries where g.tail(entry.d) == v {
                    if g.move(from: d, rule: rule, to: entry.d) != nil, c + entry.cost < best {
                        best = c + entry.cost; bestState = state32; bestEntry = entry.d; direct = false
                    }
                }
            }
            g.forEachLeaving(v) { next in
                guard let nextRule = g.move(from: d, rule: rule, to: next) else { return }
                let nextState = g.stateID(next, rule: nextRule)
                let nextCost = c + cost(next)
                if !ws.isReached(nextState) || nextCost < ws.cost[nextState] {
                    // The landmark bound is admissible but, stored in whole seconds, not always consistent:
                    // a state found cheaper after it was settled is opened again.
                    if ws.isSettled(nextState) { ws.unsettle(nextState) }
                    ws.reach(nextState, cost: nextCost, parent: state32)
                    ws.heap.push(nextCost + bound(g.head(next)), Int32(nextState))
                }
            }
        }
        guard best < .infinity else { return nil }

        let traversals = g.traversals(endingIn: bestState, parents: ws.parent, entry: bestEntry, direct: direct, from: start, to: target)
        return SearchResult(traversals: traversals, duration: traversals.reduce(0) { $0 + $1.duration },
                            distance: traversals.reduce(0) { $0 + $1.distance }, settled: settled)
    }
}

extension SearchGraph {
    /// The traversals of a route found by a search: the states unwound through `parents` from `state` (none when
    /// `direct`, the start and target sharing an edge), then the partial target edge `entry` if any; the first
    /// edge starts part-way when the start is not on a node.
    func traversals(endingIn state: Int32, parents: UnsafeMutableBufferPointer<Int32>, entry: UInt32?, direct: Bool,
                    from start: SearchEndpoint, to target: SearchEndpoint) -> [EdgeTraversal] {
        var edges: [UInt32] = []
        var s = state
        while !direct && s >= 0 {
            edges.append(directedEdge(ofState: Int(s)))
            s = parents[Int(s)]
        }
        return traversals(edges: edges.reversed(), entry: entry, direct: direct, from: start, to: target)
    }

    /// The traversals of a route along directed edges `edges` in travel order, then the partial target edge
    /// `entry` if any (`direct`: only `entry`, the start and target sharing an edge).
    func traversals(edges: [UInt32], entry: UInt32?, direct: Bool, from start: SearchEndpoint, to target: SearchEndpoint) -> [EdgeTraversal] {
        var traversals: [EdgeTraversal] = []
        func add(_ d: UInt32, from a: Double, to b: Double) {
            let e = edge(d)
            let fraction = abs(b - a)
            traversals.append(EdgeTraversal(edge: e, reversed: isReversed(d), startFraction: a, endFraction: b,
                                            distance: Double(graph.edgeLengthMillimetres[e]) / 1000 * fraction,
                                            duration: Double(time(d)) / 1000 * fraction))
        }
        if direct, let d = entry {
            add(d, from: start.node == nil ? start.fraction : (isReversed(d) ? 1.0 : 0.0), to: target.fraction)
            return traversals
        }
        for (i, d) in edges.enumerated() {
            let whole: (Double, Double) = isReversed(d) ? (1, 0) : (0, 1)
            add(d, from: i == 0 && start.node == nil ? start.fraction : whole.0, to: whole.1)
        }
        if let d = entry { add(d, from: isReversed(d) ? 1 : 0, to: target.fraction) }
        return traversals
    }
}

/// The ALT lower bound on the time from a node to the target, from the profile's landmark tables:
/// for each node the target is entered from, the best triangle-inequality bound over the landmarks, plus the
/// time still to go from that node; the smallest of those.
struct LandmarkBound {
    let profile: ProfileGraph
    let count: Int
    /// Per target entry node (one or two), flattened: distances from and to each landmark (as Int32, with
    /// `Int32.max` for unknown), and the milliseconds left after that node.
    private var fromTarget: [Int32] = []
    private var toTarget: [Int32] = []
    private var remaining: [Double] = []

    init?(profile: ProfileGraph, targets entries: [(node: Int, remaining: Double)]) {
        count = profile.landmarkCount
        guard count > 0, !entries.isEmpty else { return nil }
        self.profile = profile
        for (node, left) in entries {
            for k in 0..<count {
                let f = profile.landmarkFrom[node * count + k], t = profile.landmarkTo[node * count + k]
                fromTarget.append(f < LandmarkBuilder.saturated ? Int32(f) : Int32.max)
                toTarget.append(t < LandmarkBuilder.saturated ? Int32(t) : Int32.max)
            }
            remaining.append(left)
        }
    }

    /// Milliseconds at least from `node` to the target (`.infinity` when the target cannot be reached from it).
    @inline(__always)
    func bound(_ node: Int) -> Double {
        let base = node * count
        let saturated = LandmarkBuilder.saturated, unreachable = LandmarkBuilder.unreachable
        var best = Double.infinity
        for t in 0..<remaining.count {
            var units: Int32 = 0
            var cut = false
            let offset = t * count
            for k in 0..<count {
                let fromNode = profile.landmarkFrom[base + k], toNode = profile.landmarkTo[base + k]
                let fromT = fromTarget[offset + k], toT = toTarget[offset + k]
                // d(L, target) − d(L, node), less one unit for the rounding of the stored seconds.
                if fromT != Int32.max && fromNode < saturated { units = max(units, fromT - Int32(fromNode) - 1) }
                // d(node, L) − d(target, L); a node that cannot reach L cannot reach a target that can.
                if toT != Int32.max {
                    if toNode < saturated { units = max(units, Int32(toNode) - toT - 1) } else if toNode == unreachable { cut = true; break }
                }
            }
            if !cut { best = min(best, Double(units) * Double(LandmarkBuilder.unit) + remaining[t]) }
        }
        return best
    }
}
