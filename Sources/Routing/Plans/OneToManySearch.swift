import Foundation
import Graph

/// The fastest route's figures to one target of a one-to-many search.
public struct OneToManyEntry: Equatable, Sendable {
    /// Seconds and metres of the fastest route, summed over its traversals as `RouteSearch` does.
    public var duration: Double
    public var distance: Double

    public init(duration: Double, distance: Double) { self.duration = duration; self.distance = distance }
}

/// Travel times from one start to many targets in a single Dijkstra search over the same states as
/// `RouteSearch` (directed edges with turn-rule states): one-ways, access, barriers, U-turn rules, turn
/// restrictions, partial first and last edges, targets on nodes and targets on the start's own edge.
/// The search settles states until every target's best time is final (or nothing is left to settle), so each
/// target gets exactly the time `RouteSearch.route` gives for that pair.
public struct OneToManySearch: Sendable {
    public let space: SearchGraph
    private let pool: WorkspacePool<SearchWorkspace>
    private let components: GraphComponents

    public init(space: SearchGraph) {
        self.space = space
        let stateCount = space.stateCount
        pool = WorkspacePool { SearchWorkspace(stateCount: stateCount) }
        components = GraphComponents(space: space)
    }

    /// For each of `targets`, in order, the duration and distance of the fastest route from `start`, or nil when
    /// no route reaches it.
    public func routes(from start: SearchEndpoint, to targets: [SearchEndpoint]) -> [OneToManyEntry?] {
        if targets.isEmpty { return [] }
        return pool.withWorkspace { (try? search(start, targets, $0, .none))?.results ?? [] }
    }

    /// As `routes(from:to:)`, giving up with `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes: checked
    /// at the start and every `SearchDeadline.interval` states taken from the heap.
    public func routes(from start: SearchEndpoint, to targets: [SearchEndpoint], deadline: SearchDeadline) throws(RoutingError) -> [OneToManyEntry?] {
        try deadline.check()
        if targets.isEmpty { return [] }
        return try pool.withWorkspace { ws throws(RoutingError) in try search(start, targets, ws, deadline).results }
    }

    /// As `routes(from:to:)`, but a target's route is looked for only up to `within[i]` seconds (infinity: no
    /// bound): a target whose fastest route takes longer may get nil. Every route shorter than its bound is found,
    /// with the figures `routes(from:to:)` gives; the search stops once no target could still get one.
    public func routes(from start: SearchEndpoint, to targets: [SearchEndpoint], within: [Double]) -> [OneToManyEntry?] {
        if targets.isEmpty { return [] }
        precondition(within.count == targets.count, "one bound per target")
        return pool.withWorkspace { (try? search(start, targets, $0, .none, bounds: within))?.results ?? [] }
    }

    /// As `routes(from:to:)`, with the number of states settled (for tests and statistics).
    public func routesCountingSettled(from start: SearchEndpoint, to targets: [SearchEndpoint]) -> (results: [OneToManyEntry?], settled: Int) {
        if targets.isEmpty { return ([], 0) }
        return pool.withWorkspace { (try? search(start, targets, $0, .none)) ?? ([], 0) }
    }

    private func search(_ start: SearchEndpoint, _ targets: [SearchEndpoint], _ ws: SearchWorkspace,
                        _ deadline: SearchDeadline, bounds: [Double]? = nil) throws(RoutingError) -> (results: [OneToManyEntry?], settled: Int) {
        let g = space
        ws.reset()
        @inline(__always) func cost(_ d: UInt32) -> Double { Double(g.time(d)) }

        let count = targets.count
        var best = [Double](repeating: .infinity, count: count)
        var bestState = [Int32](repeating: -1, count: count)
        var bestEntry = [UInt32?](repeating: nil, count: count)
        var direct = [Bool](repeating: false, count: count)
        var zero = [Bool](repeating: false, count: count)   // start and target on the same node
        // A target in another part of the graph has no route: it is left out (nil), not searched for to the end.
        let apart = targets.map { components.disconnected(start, $0) }

        // Targets by the node that reaches them: on-node targets by their node, partial-edge targets by the tail of
        // each directed edge they may be entered by (with the partial cost).
        var nodeTargets: [Int: [Int]] = [:]
        var entryTargets: [Int: [(target: Int, d: UInt32, cost: Double)]] = [:]
        var entriesByTarget: [[(d: UInt32, cost: Double)]] = Array(repeating: [], count: count)
        for (i, target) in targets.enumerated() where !apart[i] {
            if let m = target.node {
                nodeTargets[m, default: []].append(i)
            } else {
                entriesByTarget[i] = g.targetEntries(target).map { ($0.d, cost($0.d) * $0.fraction) }
                for entry in entriesByTarget[i] { entryTargets[g.tail(entry.d), default: []].append((i, entry.d, entry.cost)) }
            }
        }

        // Start states, and targets reached without passing a node.
        if let n = start.node { for i in nodeTargets[n] ?? [] { zero[i] = true; best[i] = 0 } }
        g.forEachStart(start) { d, remaining in
            for (i, target) in targets.enumerated() where !zero[i] && !apart[i] {
                if let part = g.directFraction(from: start, along: d, to: target), cost(d) * part < best[i] {
                    best[i] = cost(d) * part; direct[i] = true; bestEntry[i] = d; bestState[i] = -1
                }
            }
            let state = g.stateID(d, rule: g.rules.start(d))
            let c = cost(d) * remaining
            if !ws.isReached(state) || c < ws.cost[state] {
                ws.reach(state, cost: c, parent: -1)
                ws.heap.push(c, Int32(state))
            }
        }

        // The search may stop once the smallest key left is at least every target's best (or its bound, in the
        // profile's milliseconds, with a second to spare for the sums' rounding).
        let caps = bounds?.map { $0.isFinite ? ($0 + 1) * 1000 : Double.infinity }
        func worstLeft() -> Double {
            var w = 0.0
            for i in 0..<count where !apart[i] { w = max(w, caps.map { min(best[i], $0[i]) } ?? best[i]) }
            return w
        }
        var worst = worstLeft()
        let prune = caps.map { caps in
            BoundedTargets(space: g, start: start, targets: targets, caps: caps.indices.map { apart[$0] ? 0 : caps[$0] })
        }
        var keeper = 0   // the target that last kept a state (tried first: the next states are near it)
        var settled = 0, pops = 0
        while let (key, state32) = ws.heap.pop() {
            if key >= worst { break }
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
            var improved = false
            if let list = nodeTargets[v] {
                for i in list where c < best[i] {
                    best[i] = c; bestState[i] = state32; bestEntry[i] = nil; direct[i] = false; improved = true
                }
            }
            if let list = entryTargets[v] {
                for entry in list where c + entry.cost < best[entry.target] && !zero[entry.target] {
                    if g.move(from: d, rule: rule, to: entry.d) != nil {
                        best[entry.target] = c + entry.cost; bestState[entry.target] = state32
                        bestEntry[entry.target] = entry.d; direct[entry.target] = false; improved = true
                    }
                }
            }
            if improved { worst = worstLeft() }
            // With bounds, a state need not be expanded when no target could still be reached through it within
            // its bound or best (straight line at the top speed from its node): the A* bound, for every target.
            if let prune, !prune.keeps(v, cost: c, best: best, keeper: &keeper) { continue }
            g.forEachLeaving(v) { next in
                guard let nextRule = g.move(from: d, rule: rule, to: next) else { return }
                let nextState = g.stateID(next, rule: nextRule)
                let nextCost = c + cost(next)
                if !ws.isReached(nextState) || nextCost < ws.cost[nextState] {
                    if ws.isSettled(nextState) { ws.unsettle(nextState) }
                    ws.reach(nextState, cost: nextCost, parent: state32)
                    ws.heap.push(nextCost, Int32(nextState))
                }
            }
        }

        // Unwind each target's states into its traversals.
        var results: [OneToManyEntry?] = []
        results.reserveCapacity(count)
        for i in 0..<count {
            if zero[i] { results.append(OneToManyEntry(duration: 0, distance: 0)); continue }
            guard best[i] < .infinity else { results.append(nil); continue }
            // Past its bound, a target's best may not be its fastest (the states leading to it were not expanded).
            if let caps, best[i] >= caps[i] { results.append(nil); continue }
            // The same traversals, summed in the same order, as RouteSearch gives for this pair.
            let traversals = g.traversals(endingIn: bestState[i], parents: ws.parent, entry: bestEntry[i], direct: direct[i],
                                          from: start, to: targets[i])
            let duration = traversals.reduce(0) { $0 + $1.duration }, distance = traversals.reduce(0) { $0 + $1.distance }
            results.append(OneToManyEntry(duration: duration, distance: distance))
        }
        return (results, settled)
    }
}

/// The targets of a bounded one-to-many search, projected for a quick lower bound on the time still to go from a node
/// to each: planar metres (longitudes scaled by the cosine of the graph's farthest latitude from the equator, 1 %
/// taken off), at the profile's top speed, never more than the great-circle bound of `RouteSearch`'s A*.
private struct BoundedTargets {
    let graph: RoadGraph
    let metresPerMillisecond: Double
    let xScale: Double, yScale: Double   // metres per 1e-7 degree
    let x: [Double], y: [Double], caps: [Double]

    init(space g: SearchGraph, start: SearchEndpoint, targets: [SearchEndpoint], caps: [Double]) {
        graph = g.graph
        metresPerMillisecond = g.maximumSpeed
        let rad = Double.pi / 180
        // The farthest latitude any node or end may have: the largest of the graph's, the start's and the targets'.
        var widest = max(abs(start.coordinate.latitude), targets.map { abs($0.coordinate.latitude) }.max() ?? 0)
        widest = max(widest, g.farthestNodeLatitude)
        yScale = 0.99 * Geo.earthRadius * rad * Geo.degreesPerUnit
        xScale = yScale * cos(min(90, widest) * rad)
        x = targets.map { $0.coordinate.longitude / Geo.degreesPerUnit }
        y = targets.map { $0.coordinate.latitude / Geo.degreesPerUnit }
        self.caps = caps
    }

    /// Whether some target could still be reached through node `v`, reached at `cost` ms, in less than
    /// min(its best, its cap); `keeper` is tried first and set to the target that keeps the state.
    @inline(__always) func keeps(_ v: Int, cost: Double, best: [Double], keeper: inout Int) -> Bool {
        let vx = Double(graph.nodeLongitudes[v]), vy = Double(graph.nodeLatitudes[v])
        @inline(__always) func reachable(_ i: Int) -> Bool {
            let budget = (min(best[i], caps[i]) - cost) * metresPerMillisecond
            if budget <= 0 { return false }
            let dx = (x[i] - vx) * xScale, dy = (y[i] - vy) * yScale
            return dx * dx + dy * dy <= budget * budget
        }
        if keeper < x.count, reachable(keeper) { return true }
        for i in 0..<x.count where reachable(i) { keeper = i; return true }
        return false
    }
}
