import Graph

/// A plain Dijkstra over (directed edge, restriction history) states, written for clarity rather than speed:
/// the reference that tests compare `RouteSearch` with. It checks turn restrictions by matching the route's
/// recent edges against every forbidden sequence directly, without the automaton.
public struct ReferenceDijkstra: Sendable {
    public let space: SearchGraph
    private let patterns: Set<[UInt32]>
    private let prefixes: Set<[UInt32]>

    public init(space: SearchGraph) {
        self.space = space
        patterns = Set(space.rules.patterns)
        var prefixes = Set<[UInt32]>()
        for pattern in space.rules.patterns {
            for length in 1..<pattern.count { prefixes.insert(Array(pattern.prefix(length))) }
        }
        self.prefixes = prefixes
    }

    private struct State: Hashable {
        /// The recent edges that may still begin a forbidden sequence, the last one being the edge just taken.
        var history: [UInt32]
        var edge: UInt32 { history[history.count - 1] }
    }

    /// The history after taking `edge`, or nil when that completes a forbidden sequence.
    private func extend(_ history: [UInt32], with edge: UInt32) -> [UInt32]? {
        let extended = history + [edge]
        for start in 0..<extended.count where patterns.contains(Array(extended[start...])) { return nil }
        for start in 0..<extended.count {
            let suffix = Array(extended[start...])
            if prefixes.contains(suffix) { return suffix }
        }
        return [edge]
    }

    /// Seconds of the fastest route, or nil when there is none.
    public func duration(from start: SearchEndpoint, to target: SearchEndpoint) -> Double? {
        let g = space
        var best = Double.infinity
        var cost: [State: Double] = [:]
        var done = Set<State>()
        var queue = BinaryHeap<Double, State>()
        func time(_ d: UInt32) -> Double { Double(g.time(d)) }
        func offer(_ state: State, _ c: Double) {
            if c < cost[state, default: .infinity] { cost[state] = c; queue.push(c, state) }
        }
        func initialHistory(_ d: UInt32) -> [UInt32] { prefixes.contains([d]) ? [d] : [d] }

        if let n = start.node {
            if target.node == n { return 0 }
            for position in Int(g.profile.firstIncidence[n])..<Int(g.profile.firstIncidence[n + 1]) {
                let d = g.profile.incidence[position]
                guard g.time(d) != closedEdge else { continue }
                if target.node == nil && g.edge(d) == target.edge {
                    best = min(best, time(d) * (g.isReversed(d) ? 1 - target.fraction : target.fraction))
                }
                offer(State(history: initialHistory(d)), time(d))
            }
        } else {
            for d in [UInt32(start.edge) << 1, UInt32(start.edge) << 1 | 1] where g.time(d) != closedEdge {
                let forward = !g.isReversed(d)
                if target.node == nil && target.edge == start.edge && (forward ? target.fraction >= start.fraction : target.fraction <= start.fraction) {
                    best = min(best, time(d) * abs(target.fraction - start.fraction))
                }
                offer(State(history: initialHistory(d)), time(d) * (forward ? 1 - start.fraction : start.fraction))
            }
        }
        while let (c, state) = queue.pop() {
            if c >= best { break }
            if done.contains(state) { continue }
            done.insert(state)
            let d = state.edge
            let v = g.head(d)
            let blocked = g.isBlocked(v)
            // Turning back (leaving along the edge just taken): on foot anywhere; by car only at a dead end (exactly one
            // edge of the profile's graph meets v) or at a barrier, which cannot be passed.
            let degree = Int(g.profile.firstIncidence[v + 1]) - Int(g.profile.firstIncidence[v])
            let mayTurnBack = !g.profile.profile.uTurnsOnlyAtDeadEnds || degree == 1 || blocked
            // Arrive?
            if let m = target.node {
                if v == m { best = min(best, c) }
            } else {
                for t in [UInt32(target.edge) << 1, UInt32(target.edge) << 1 | 1] where g.time(t) != closedEdge && g.tail(t) == v {
                    if blocked && t != d ^ 1 { continue }
                    if t == d ^ 1 && !mayTurnBack { continue }
                    if extend(state.history, with: t) == nil { continue }
                    best = min(best, c + time(t) * (g.isReversed(t) ? 1 - target.fraction : target.fraction))
                }
            }
            for position in Int(g.profile.firstIncidence[v])..<Int(g.profile.firstIncidence[v + 1]) {
                let next = g.profile.incidence[position]
                guard g.time(next) != closedEdge else { continue }
                if blocked && next != d ^ 1 { continue }
                if next == d ^ 1 && !mayTurnBack { continue }
                guard let history = extend(state.history, with: next) else { continue }
                offer(State(history: history), c + time(next))
            }
        }
        return best < .infinity ? best / 1000 : nil
    }
}
