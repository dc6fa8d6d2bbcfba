import Graph

/// The vertices a contraction hierarchy is built over: a profile's search states with those merged whose
/// futures are the same. Arriving at a node along an edge that starts no turn restriction, at a node that is no
/// barrier, where turning back is allowed or the edge back is closed (a one-way), leaves every way out open, so
/// all such arrivals are one vertex: the node. Arrivals that restrictions, a barrier or the U-turn rule make
/// special keep a vertex of their own (the directed edge), and so does every deeper state of a via-way
/// restriction. Without restrictions this is the plain node graph (the U-turn rule then changes no fastest time,
/// see `uTurnRuleMatters`); by car with restrictions, where a U-turn is allowed only at dead ends, nearly every
/// two-way arrival is a vertex of its own (an edge-based hierarchy).
///
/// Vertex ids: graph nodes first (`0..<nodeCount`), then the special directed edges, then the turn-rule trie nodes.
public struct HierarchyStates: Sendable {
    public let space: SearchGraph
    /// For each directed edge: its index among the special ones, or -1.
    private let special: [Int32]
    /// The special directed edges in id order.
    public let specialEdges: [UInt32]
    public let nodeCount: Int

    /// Works out the vertices of `space`'s profile.
    public init(space: SearchGraph) {
        self.space = space
        nodeCount = space.graph.nodeCount
        var special = [Int32](repeating: -1, count: 2 * space.graph.edgeCount)
        var edges: [UInt32] = []
        // Without turn restrictions the U-turn rule never changes a fastest route (see `uTurnRuleMatters`), so the
        // hierarchy keeps the node graph; with them, every arrival the rule constrains is a vertex of its own.
        let uTurnRule = Self.uTurnRuleMatters(space)
        for d in 0..<UInt32(2 * space.graph.edgeCount) where space.time(d) != closedEdge {
            if space.rules.start(d) != 0 || space.isBlocked(space.head(d)) || (uTurnRule && !space.arrivalIsUnconstrained(d)) {
                special[Int(d)] = Int32(edges.count)
                edges.append(d)
            }
        }
        self.special = special
        specialEdges = edges
    }

    /// Whether the hierarchy must model the U-turn rule: only when the profile has it and has turn restrictions.
    ///
    /// Without restrictions, a fastest route that turns back at a node w which is no dead end (…x→w→x…) is never
    /// faster than one that does not: cutting the loop from x back to x leaves a route that is allowed (nothing forbids
    /// the turn at x; a barrier at x is passed by neither), starts and ends as before (a start part-way along an edge
    /// may leave it either way, a target part-way along one may be entered from either end) and takes no longer. So the
    /// fastest times with and without the rule are the same, and the hierarchy over the node graph answers exactly.
    /// A restriction breaks this: turning back a little beyond a forbidden turn is the dodge the rule forbids.
    public static func uTurnRuleMatters(_ space: SearchGraph) -> Bool { space.uTurnsOnlyAtDeadEnds && !space.rules.isEmpty }

    /// Number of vertices.
    public var count: Int { nodeCount + specialEdges.count + space.rules.nodeCount }
    /// The first trie-node vertex.
    @inline(__always) var trieBase: Int { nodeCount + specialEdges.count }

    /// The vertex of a search state (as `SearchGraph` numbers them).
    @inline(__always) public func vertex(ofState state: Int) -> Int {
        let edgeStates = 2 * space.graph.edgeCount
        if state >= edgeStates { return trieBase + (state - edgeStates) }
        let k = special[state]
        return k >= 0 ? nodeCount + Int(k) : space.head(UInt32(state))
    }

    /// The vertex of arriving along directed edge d with the automaton state the search would have.
    @inline(__always) public func vertex(arrivingBy d: UInt32, rule: Int32) -> Int { vertex(ofState: space.stateID(d, rule: rule)) }

    /// Whether directed edge d arrives at its own vertex rather than at its head node's.
    @inline(__always) public func isSpecial(_ d: UInt32) -> Bool { special[Int(d)] >= 0 }

    /// Calls `body` with each vertex one move from `vertex` and the directed edge the move takes.
    public func forEachMove(from vertex: Int, _ body: (Int, UInt32) -> Void) {
        let g = space
        if vertex < nodeCount {
            // Arrived at a node with no history: every open edge out, each into the state of having taken it alone.
            if g.isBlocked(vertex) { return }
            g.forEachLeaving(vertex) { d in body(self.vertex(ofState: g.stateID(d, rule: g.rules.start(d))), d) }
            return
        }
        let state: Int
        if vertex < trieBase {
            state = Int(specialEdges[vertex - nodeCount])
        } else {
            let t = Int32(vertex - trieBase)
            guard !g.rules.isShallow(t) else { return }  // depth-1 trie nodes are special edges, not vertices of their own
            state = 2 * g.graph.edgeCount + Int(t)
        }
        g.forEachMove(fromState: state) { next, d in body(self.vertex(ofState: next), d) }
    }
}
