import Foundation
import Graph

/// Fastest routes over a contraction hierarchy: a bidirectional Dijkstra that only climbs the hierarchy from both
/// ends (with stall-on-demand), then unpacks the shortcuts into the states `RouteSearch` would have settled, so
/// the route, its time, geometry and steps are those of the plain search.
public struct HierarchySearch: Sendable {
    public let space: SearchGraph
    public let hierarchy: ContractionHierarchy
    public let states: HierarchyStates
    let endpoints: HierarchyEndpointBuilder
    /// The `HierarchyStates` vertex of each rank, to check the moves unpacking finds (`ContractionHierarchy.unpack`).
    private let vertexOfRank: [Int32]
    private let pool: WorkspacePool<HierarchyWorkspace>
    /// One-direction scratch space for matrices, kept between calls.
    let upwardPool: WorkspacePool<UpwardSearch>
    /// Scratch space for one-to-many routes (`routes(from:to:within:)`), kept between calls.
    let treePool: WorkspacePool<HierarchyTreeWorkspace>

    /// Prepares searches over `hierarchy`, built for `states` (nil when the hierarchy does not match them).
    public init?(states: HierarchyStates, hierarchy: ContractionHierarchy) {
        guard hierarchy.vertexCount == states.count else { return nil }
        space = states.space
        self.states = states
        self.hierarchy = hierarchy
        endpoints = HierarchyEndpointBuilder(states: states)
        let count = states.count
        var vertexOfRank = [Int32](repeating: 0, count: count)
        for (vertex, r) in hierarchy.rank.enumerated() { vertexOfRank[Int(r)] = Int32(vertex) }
        self.vertexOfRank = vertexOfRank
        pool = WorkspacePool { HierarchyWorkspace(stateCount: count) }
        upwardPool = WorkspacePool { UpwardSearch(vertexCount: count) }
        treePool = WorkspacePool { HierarchyTreeWorkspace(stateCount: count) }
    }

    /// The fastest route from `start` to `target`, or nil when none exists.
    public func route(from start: SearchEndpoint, to target: SearchEndpoint) -> SearchResult? {
        pool.withWorkspace { (try? search(start, target, $0, unpack: true, .none)) ?? nil }
    }

    /// As `route(from:to:)`, giving up with `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes: checked
    /// at the start and every `SearchDeadline.interval` states taken from the heaps.
    public func route(from start: SearchEndpoint, to target: SearchEndpoint, deadline: SearchDeadline) throws(RoutingError) -> SearchResult? {
        try deadline.check()
        return try pool.withWorkspace { ws throws(RoutingError) in try search(start, target, ws, unpack: true, deadline) }
    }

    /// The travel time alone (milliseconds) of the fastest route, without unpacking its path; nil when none exists.
    public func time(from start: SearchEndpoint, to target: SearchEndpoint) -> Double? {
        pool.withWorkspace { (try? search(start, target, $0, unpack: false, .none))??.duration }
    }

    /// As `time(from:to:)`, giving up with `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes.
    public func time(from start: SearchEndpoint, to target: SearchEndpoint, deadline: SearchDeadline) throws(RoutingError) -> Double? {
        try deadline.check()
        return try pool.withWorkspace { ws throws(RoutingError) in try search(start, target, ws, unpack: false, deadline)?.duration }
    }

    /// The search; with `unpack: false` the result has no traversals and `duration` is the time in milliseconds.
    private func search(_ start: SearchEndpoint, _ end: SearchEndpoint, _ ws: HierarchyWorkspace, unpack: Bool,
                        _ deadline: SearchDeadline) throws(RoutingError) -> SearchResult? {
        let ch = hierarchy
        let source = endpoints.source(start)
        let target = endpoints.target(end)
        var best = Double.infinity
        var meeting = -1
        var directRoute: DirectRoute? = nil
        if let found = endpoints.direct(source, target) {
            if case .zero = found.kind { return SearchResult(traversals: [], duration: 0, distance: 0, settled: 0) }
            best = found.cost
            directRoute = found
        }
        ws.reset()
        for (i, seed) in source.starts.enumerated() {
            let r = Int(ch.rank[seed.vertex])
            guard !ws.forward.isReached(r) || seed.cost < ws.forward.cost[r] else { continue }
            ws.forward.reach(r, cost: seed.cost, parent: Int32(-1 - i))
            ws.forward.heap.push(seed.cost, Int32(r))
        }
        for (i, seed) in target.seeds.enumerated() {
            let r = Int(ch.rank[seed.vertex])
            guard !ws.backward.isReached(r) || seed.label < ws.backward.cost[r] else { continue }
            ws.backward.reach(r, cost: seed.label, parent: Int32(-1 - i))
            ws.backward.heap.push(seed.label, Int32(r))
        }
        var settled = 0
        var forwardDone = false, backwardDone = false
        var pops = 0
        while !(forwardDone && backwardDone) {
            pops &+= 1
            try deadline.check(every: pops)
            let forwardKey = ws.forward.heap.peekKey ?? .infinity, backwardKey = ws.backward.heap.peekKey ?? .infinity
            if forwardKey >= best { forwardDone = true }
            if backwardKey >= best { backwardDone = true }
            if forwardDone && backwardDone { break }
            let goForward = !forwardDone && (backwardDone || forwardKey <= backwardKey)
            if goForward {
                step(ws.forward, other: ws.backward, arcs: ch.up, first: ch.firstUp, stallArcs: ch.down, stallFirst: ch.firstDown,
                     best: &best, meeting: &meeting, settled: &settled)
            } else {
                step(ws.backward, other: ws.forward, arcs: ch.down, first: ch.firstDown, stallArcs: ch.up, stallFirst: ch.firstUp,
                     best: &best, meeting: &meeting, settled: &settled)
            }
        }
        guard best < .infinity else { return nil }
        if !unpack { return SearchResult(traversals: [], duration: best, distance: 0, settled: settled) }
        return try unpacked(meeting: meeting, directRoute: directRoute, ws, source, target, settled: settled)
    }

    /// The route a search found, unpacked: through `meeting` along the parents in `ws`, or `directRoute` when
    /// `meeting` is -1; throws `RoutingError.corruptGraph` when a shortcut does not unpack into moves of the graph.
    func unpacked(meeting: Int, directRoute: DirectRoute?, _ ws: HierarchyWorkspace, _ source: HierarchySource, _ target: HierarchyTarget,
                  settled: Int) throws(RoutingError) -> SearchResult {
        let g = space, start = source.endpoint, end = target.endpoint
        let traversals: [EdgeTraversal]
        if meeting < 0, let directRoute {
            switch directRoute.kind {
            case .zero: traversals = []
            case let .direct(d): traversals = g.traversals(edges: [], entry: d, direct: true, from: start, to: end)
            case let .single(d): traversals = g.traversals(edges: [d], entry: nil, direct: false, from: start, to: end)
            }
        } else {
            let edges: [UInt32], entry: UInt32?
            switch path(through: meeting, ws, source, target) {
            case let .success(found): (edges, entry) = found
            case let .failure(fault):
                let names = HierarchySectionNames(g.profile.profile.name)
                let section = fault.rows == .up ? names.up : names.down
                throw .corruptGraph(GraphFileError.invalidSection(path: g.graph.file.path, section: section,
                    problem: "holds a shortcut without its halves, or an arc that is no move of the graph").description)
            }
            traversals = g.traversals(edges: edges, entry: entry, direct: false, from: start, to: end)
        }
        return SearchResult(traversals: traversals, duration: traversals.reduce(0) { $0 + $1.duration },
                            distance: traversals.reduce(0) { $0 + $1.distance }, settled: settled)
    }

    /// Settles the smallest state of one direction: meets the other direction there, and relaxes its arcs
    /// unless a higher state already reaches it more quickly (stall-on-demand).
    @inline(__always)
    private func step(_ side: SearchWorkspace, other: SearchWorkspace, arcs: UnsafeBufferPointer<HierarchyArc>,
                      first: UnsafeBufferPointer<UInt32>, stallArcs: UnsafeBufferPointer<HierarchyArc>, stallFirst: UnsafeBufferPointer<UInt32>,
                      best: inout Double, meeting: inout Int, settled: inout Int) {
        guard let (key, v32) = side.heap.pop() else { return }
        let v = Int(v32)
        if side.isSettled(v) || key > side.cost[v] { return }
        side.settle(v)
        settled += 1
        if other.isReached(v) {
            let total = key + other.cost[v]
            if total < best { best = total; meeting = v }
        }
        if side.isStalled(v, at: key, arcs: stallArcs, first: stallFirst) { return }
        side.relax(v, at: key, arcs: arcs, first: first)
    }

    /// The vertex whose arc list (`first`) holds arc index i.
    @inline(__always)
    func owner(ofArc i: Int, _ first: UnsafeBufferPointer<UInt32>) -> Int {
        var low = 0, high = first.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(first[middle]) <= i { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The directed edges of the route through `meeting`, shortcuts unpacked, and the partial target edge if any;
    /// or the rows of the arc at fault when unpacking finds the hierarchy does not match the graph (a shortcut
    /// without a half, an original arc that is no move of the graph: a file not written by `wayfinder import`
    /// whose checksums were made to match).
    func path(through meeting: Int, _ ws: HierarchyWorkspace, _ source: HierarchySource,
                      _ target: HierarchyTarget) -> Result<(edges: [UInt32], entry: UInt32?), UnpackFault> {
        let ch = hierarchy, states = states, vertexOfRank = vertexOfRank
        /// Whether an original arc from rank a to rank b along directed edge d is a move a plain search could make.
        func isMove(_ a: Int, _ b: Int, _ d: UInt32) -> Bool {
            states.vertex(after: Int(vertexOfRank[a]), along: d) == Int(vertexOfRank[b])
        }
        // Forward half: climb back from the meeting vertex to a start along the arcs it was reached by.
        var chain: [(tail: Int, arc: Int)] = []
        var v = meeting
        while ws.forward.parent[v] >= 0 {
            let arc = Int(ws.forward.parent[v])
            let tail = owner(ofArc: arc, ch.firstUp)
            chain.append((tail, arc))
            v = tail
        }
        var edges = [source.starts[Int(-1 - ws.forward.parent[v])].d]
        var pending: [ContractionHierarchy.PendingArc] = []  // one stack for every arc of the route
        pending.reserveCapacity(64)
        for (tail, arc) in chain.reversed() {
            if let rows = ch.unpack(from: tail, to: Int(ch.up[arc].head), ch.up[arc], in: .up, into: &edges, pending: &pending, isMove: isMove) { return .failure(UnpackFault(rows: rows)) }
        }
        // Backward half: from the meeting vertex down to a target seed; each arc v→x is stored at x.
        v = meeting
        while ws.backward.parent[v] >= 0 {
            let arc = Int(ws.backward.parent[v])
            let x = owner(ofArc: arc, ch.firstDown)
            if let rows = ch.unpack(from: v, to: x, ch.down[arc], in: .down, into: &edges, pending: &pending, isMove: isMove) { return .failure(UnpackFault(rows: rows)) }
            v = x
        }
        return .success((edges, target.seeds[Int(-1 - ws.backward.parent[v])].entry))
    }
}

/// Where unpacking a route found the hierarchy at fault: the rows of the arc.
struct UnpackFault: Error { let rows: ContractionHierarchy.ArcRows }

extension SearchWorkspace {
    /// Stall-on-demand: whether a vertex already reached in this direction reaches v, settled at `key`, more quickly
    /// over one of v's arcs the other way (`arcs`, `first`), so that nothing relaxed from v can be best.
    @inline(__always)
    func isStalled(_ v: Int, at key: Double, arcs: UnsafeBufferPointer<HierarchyArc>, first: UnsafeBufferPointer<UInt32>) -> Bool {
        for i in Int(first[v])..<Int(first[v + 1]) {
            let arc = arcs[i]
            let u = Int(arc.head)
            if isReached(u) && cost[u] + Double(arc.time) < key { return true }
        }
        return false
    }

    /// Relaxes the arcs of v, settled at `key` (`arcs`, `first`): a head reached more quickly takes the new cost, the
    /// arc's index as parent (seeds have -1 - seed index) and a heap entry, then `improved(head, arc)`; a head reached
    /// again at its cost gets `tied(head)`.
    @inline(__always)
    func relax(_ v: Int, at key: Double, arcs: UnsafeBufferPointer<HierarchyArc>, first: UnsafeBufferPointer<UInt32>,
               improved: (Int, HierarchyArc) -> Void = { _, _ in }, tied: (Int) -> Void = { _ in }) {
        for i in Int(first[v])..<Int(first[v + 1]) {
            let arc = arcs[i]
            let x = Int(arc.head)
            let candidate = key + Double(arc.time)
            if !isReached(x) || candidate < cost[x] {
                reach(x, cost: candidate, parent: Int32(i))
                heap.push(candidate, Int32(x))
                improved(x, arc)
            } else if candidate == cost[x] {
                tied(x)
            }
        }
    }
}

/// Per-query scratch space of a hierarchy search: one edge-search workspace per direction (over vertices).
final class HierarchyWorkspace {
    let forward: SearchWorkspace
    let backward: SearchWorkspace

    init(stateCount: Int) {
        forward = SearchWorkspace(stateCount: stateCount)
        backward = SearchWorkspace(stateCount: stateCount)
    }

    func reset() { forward.reset(); backward.reset() }
}
