import Graph

/// A profile's graph seen as directed edges, the states of an edge-based search: the search moves from edge
/// to edge through nodes, so turn restrictions, U-turns and barriers are rules on those moves.
///
/// State ids: a directed edge `d = edge << 1 | reversed` is state d; a state deeper in a via-way restriction
/// (trie node t of `TurnRules` with depth ≥ 2) is state `2 × edgeCount + t`.
public struct SearchGraph: @unchecked Sendable {
    public let graph: RoadGraph
    public let profile: ProfileGraph
    public let rules: TurnRules
    /// The highest speed of any edge, metres per millisecond, from the stored times (for A*'s bound).
    public let maximumSpeed: Double
    /// Whether the profile turns back only at dead ends (car); otherwise anywhere (foot).
    public let uTurnsOnlyAtDeadEnds: Bool
    /// The largest absolute latitude of any node, degrees (for planar lower bounds on distances).
    public let farthestNodeLatitude: Double

    /// Prepares `profile` of `graph` for searching (builds the turn-rule automaton and the speed bound).
    public init(graph: RoadGraph, profile: ProfileGraph) {
        self.graph = graph
        self.profile = profile
        rules = TurnRules(graph: graph, profile: profile)
        uTurnsOnlyAtDeadEnds = profile.profile.uTurnsOnlyAtDeadEnds
        var fastest = 0.0
        for e in 0..<graph.edgeCount {
            let length = Double(graph.edgeLengthMillimetres[e]) / 1000
            for time in [profile.timeForward[e], profile.timeBackward[e]] where time != closedEdge && time > 0 {
                fastest = max(fastest, length / Double(time))
            }
        }
        maximumSpeed = fastest > 0 ? fastest : 1
        var widest: Int32 = 0
        for lat in graph.nodeLatitudes { widest = max(widest, lat == Int32.min ? Int32.max : abs(lat)) }
        farthestNodeLatitude = Geo.degrees(widest)
    }

    /// Number of state ids.
    public var stateCount: Int { 2 * graph.edgeCount + rules.nodeCount }

    /// The edge of directed edge d.
    @inline(__always) public func edge(_ d: UInt32) -> Int { Int(d >> 1) }
    /// Whether directed edge d runs from the edge's `to` node to its `from` node.
    @inline(__always) public func isReversed(_ d: UInt32) -> Bool { d & 1 == 1 }
    /// The node a directed edge leaves from and the one it arrives at.
    @inline(__always) public func tail(_ d: UInt32) -> Int { Int(d & 1 == 0 ? graph.edgeFrom[Int(d >> 1)] : graph.edgeTo[Int(d >> 1)]) }
    @inline(__always) public func head(_ d: UInt32) -> Int { Int(d & 1 == 0 ? graph.edgeTo[Int(d >> 1)] : graph.edgeFrom[Int(d >> 1)]) }
    /// Milliseconds to travel a directed edge, `closedEdge` when the profile may not.
    @inline(__always) public func time(_ d: UInt32) -> UInt32 {
        d & 1 == 0 ? profile.timeForward[Int(d >> 1)] : profile.timeBackward[Int(d >> 1)]
    }
    /// Whether node n is closed to the profile (a barrier it may not pass).
    @inline(__always) public func isBlocked(_ n: Int) -> Bool { profile.isBlocked(graph.nodeFlags[n]) }
    /// Whether node n is a dead end of the profile's graph: exactly one edge the profile may use meets it.
    @inline(__always) public func isDeadEnd(_ n: Int) -> Bool { profile.firstIncidence[n + 1] - profile.firstIncidence[n] == 1 }
    /// Whether a route arriving at node n may turn back there: anywhere on foot; by car only at a dead end, or at a
    /// barrier closed to it (which it may not pass).
    @inline(__always) public func mayTurnBack(at n: Int) -> Bool { !uTurnsOnlyAtDeadEnds || isDeadEnd(n) || isBlocked(n) }

    /// Calls `body` with every directed edge the profile may take out of node n.
    @inline(__always)
    public func forEachLeaving(_ n: Int, _ body: (UInt32) -> Void) {
        for position in Int(profile.firstIncidence[n])..<Int(profile.firstIncidence[n + 1]) {
            let entry = profile.incidence[position]
            let d = entry  // side 0: the node is the edge's from, so leave forward (e<<1); side 1: leave reversed (e<<1|1)
            if time(d) != closedEdge { body(d) }
        }
    }

    /// The state id for having just taken directed edge d with automaton state `rule`.
    @inline(__always) public func stateID(_ d: UInt32, rule: Int32) -> Int {
        rules.isShallow(rule) ? Int(d) : 2 * graph.edgeCount + Int(rule)
    }

    /// The directed edge a state id stands for.
    @inline(__always) public func directedEdge(ofState state: Int) -> UInt32 {
        state < 2 * graph.edgeCount ? UInt32(state) : rules.symbol(of: Int32(state - 2 * graph.edgeCount))
    }

    /// The automaton state of a state id.
    @inline(__always) public func rule(ofState state: Int) -> Int32 {
        state < 2 * graph.edgeCount ? rules.start(UInt32(state)) : Int32(state - 2 * graph.edgeCount)
    }

    /// Calls `body` with each directed edge a route from `start` may set out along and the fraction of it still to
    /// travel: every open edge out of its node (all of it), or either open direction of its edge (the part ahead).
    @inline(__always)
    public func forEachStart(_ start: SearchEndpoint, _ body: (UInt32, Double) -> Void) {
        if let n = start.node {
            forEachLeaving(n) { body($0, 1) }
            return
        }
        let e = UInt32(start.edge)
        for d in [e << 1, e << 1 | 1] where time(d) != closedEdge { body(d, isReversed(d) ? start.fraction : 1 - start.fraction) }
    }

    /// The directed edges a route ends part-way along at `target`, with the fraction of each travelled (none for a
    /// target on a node).
    public func targetEntries(_ target: SearchEndpoint) -> [(d: UInt32, fraction: Double)] {
        guard target.node == nil else { return [] }
        let e = UInt32(target.edge)
        return [e << 1, e << 1 | 1].filter { time($0) != closedEdge }.map { ($0, isReversed($0) ? 1 - target.fraction : target.fraction) }
    }

    /// The fraction of start edge d travelled to reach `target` without passing a node, or nil when d does not lead
    /// there: a target on d's edge, ahead of the start (anywhere on it when the start is d's tail node).
    @inline(__always)
    public func directFraction(from start: SearchEndpoint, along d: UInt32, to target: SearchEndpoint) -> Double? {
        guard target.node == nil, edge(d) == target.edge else { return nil }
        if start.node != nil { return isReversed(d) ? 1 - target.fraction : target.fraction }
        let ahead = isReversed(d) ? target.fraction <= start.fraction : target.fraction >= start.fraction
        return ahead ? abs(target.fraction - start.fraction) : nil
    }

    /// Calls `body` with every state one move away from `state`, and the directed edge the move takes.
    @inline(__always)
    public func forEachMove(fromState state: Int, _ body: (Int, UInt32) -> Void) {
        let d = directedEdge(ofState: state)
        let rule = rule(ofState: state)
        forEachLeaving(head(d)) { next in
            guard let nextRule = move(from: d, rule: rule, to: next) else { return }
            body(stateID(next, rule: nextRule), next)
        }
    }

    /// The automaton state after moving from a state (arrived on `from` in rule state `rule`) onto `to`,
    /// or nil when the move is not allowed: a turn restriction forbids it, the node between is a barrier closed
    /// to the profile and the move is not the U-turn back along `from`, or the move is a U-turn where the profile
    /// may not turn back (by car: anywhere but at a dead end or a barrier).
    @inline(__always)
    public func move(from: UInt32, rule: Int32, to: UInt32) -> Int32? {
        let n = head(from)
        if to == from ^ 1 {
            if !mayTurnBack(at: n) { return nil }
        } else if isBlocked(n) {
            return nil
        }
        return rules.advance(rule, to)
    }

    /// Whether arriving along directed edge d (with no restriction history) leaves every open edge out of its head
    /// node allowed: not at a barrier, and not where turning back is forbidden while d's reverse is open.
    @inline(__always)
    public func arrivalIsUnconstrained(_ d: UInt32) -> Bool {
        let n = head(d)
        if isBlocked(n) { return false }
        return mayTurnBack(at: n) || time(d ^ 1) == closedEdge
    }
}
