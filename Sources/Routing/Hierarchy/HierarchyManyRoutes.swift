import Foundation
import Graph

extension HierarchySearch {
    /// The fastest route from `start` to each of `targets` (`routes[j]` for `targets[j]`) whose travel time is under
    /// `limits[j]` seconds, each the very route `route(from:to:)` gives; a target with no route, or a longer one,
    /// may get nil. One upward search from `start` serves every target, each target adds its own upward search, and a
    /// route is unpacked from the two searches' parents when it is the only fastest path through the hierarchy; a
    /// target with two equally fast paths (or one on the start's edge) gets its own pair search, which picks the same.
    /// Throws `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes, checked before each target.
    /// - Complexity: one upward search, plus one upward search per target and one pair search per tie.
    public func routes(from start: SearchEndpoint, to targets: [SearchEndpoint], within limits: [Double],
                       deadline: SearchDeadline = .none) throws(RoutingError) -> [SearchResult?] {
        try routes(from: start, to: targets, within: limits, deadline: deadline, resolvingTies: true).routes
    }

    /// `routes(from:to:within:deadline:)` and how many targets needed a pair search; `resolvingTies: false` (for
    /// tests) unpacks a tied route from the trees instead, which may be another of the equally fast paths than the
    /// pair search's.
    func routes(from start: SearchEndpoint, to targets: [SearchEndpoint], within limits: [Double], deadline: SearchDeadline = .none,
                resolvingTies: Bool) throws(RoutingError) -> (routes: [SearchResult?], pairSearches: Int) {
        precondition(limits.count == targets.count, "one limit a target")
        try deadline.check()
        guard let furthest = limits.max(), furthest > 0 else { return (Array(repeating: nil, count: targets.count), 0) }
        return try treePool.withWorkspace { tree throws(RoutingError) in
            let ch = hierarchy, ws = tree.pair
            let source = endpoints.source(start)
            tree.begin(ws.forward, marks: tree.forwardTie)
            for (i, seed) in source.starts.enumerated() {
                tree.seed(ws.forward, marks: tree.forwardTie, vertex: Int(ch.rank[seed.vertex]), cost: seed.cost, index: i)
            }
            // Every vertex the start reaches in under the longest limit, settled as the pair search settles it.
            let forwardLimit = furthest * 1000
            tree.climb(ws.forward, marks: tree.forwardTie, arcs: ch.up, first: ch.firstUp, stallArcs: ch.down, stallFirst: ch.firstDown) { _, key in
                key < forwardLimit
            }
            var routes = [SearchResult?](repeating: nil, count: targets.count), pairSearches = 0
            for (j, end) in targets.enumerated() {
                try deadline.check()
                let target = endpoints.target(end)
                if endpoints.direct(source, target) != nil { routes[j] = route(from: start, to: end); pairSearches += 1; continue }
                let limit = limits[j] * 1000
                guard limit > 0 else { continue }
                tree.begin(ws.backward, marks: tree.backwardTie)
                for (i, seed) in target.seeds.enumerated() {
                    tree.seed(ws.backward, marks: tree.backwardTie, vertex: Int(ch.rank[seed.vertex]), cost: seed.label, index: i)
                }
                // The least sum over the vertices both searches settle, and how many vertices give it; the search goes on
                // while a vertex could still give that sum (to see every tie) or one under the limit.
                var best = Double.infinity, meeting = -1, meetings = 0
                tree.climb(ws.backward, marks: tree.backwardTie, arcs: ch.down, first: ch.firstDown, stallArcs: ch.up, stallFirst: ch.firstUp) { v, key in
                    if key > best || key >= limit { return false }
                    if ws.forward.isSettled(v) {
                        let total = key + ws.forward.cost[v]
                        if total < best { best = total; meeting = v; meetings = 1 } else if total == best { meetings += 1 }
                    }
                    return true
                }
                guard best < limit else { continue }
                if resolvingTies, meetings > 1 || tree.isTied(through: meeting, self) { routes[j] = route(from: start, to: end); pairSearches += 1; continue }
                routes[j] = try? unpacked(meeting: meeting, directRoute: nil, ws, source, target, settled: 0)
            }
            return (routes, pairSearches)
        }
    }
}

/// Scratch space of `HierarchySearch.routes(from:to:within:)`: both directions' labels and parents, kept as a pair
/// search keeps them (so a route unpacks the same way), and per direction a mark on each vertex that a second arc or
/// seed reaches at its least cost (where two fastest paths part).
final class HierarchyTreeWorkspace {
    let pair: HierarchyWorkspace
    /// `forwardTie[v] == pair.forward.generation`: v is reached at its cost along two ways.
    @exclusivity(unchecked) var forwardTie: UnsafeMutableBufferPointer<UInt32>
    /// As `forwardTie`, for the backward search.
    @exclusivity(unchecked) var backwardTie: UnsafeMutableBufferPointer<UInt32>

    init(stateCount: Int) {
        pair = HierarchyWorkspace(stateCount: stateCount)
        forwardTie = .allocate(capacity: max(stateCount, 1))
        backwardTie = .allocate(capacity: max(stateCount, 1))
        forwardTie.initialize(repeating: 0)
        backwardTie.initialize(repeating: 0)
    }

    deinit {
        forwardTie.deallocate()
        backwardTie.deallocate()
    }

    /// Starts a new search of `side`; clears its marks when the generation stamps start again.
    func begin(_ side: SearchWorkspace, marks: UnsafeMutableBufferPointer<UInt32>) {
        side.reset()
        if side.generation == 1 { marks.update(repeating: 0) }
    }

    /// Seeds `side` at `vertex` with `cost` (parent -1 - `index`), as the pair search does: the first of equal seeds
    /// is kept, and the vertex marked as tied.
    @inline(__always)
    func seed(_ side: SearchWorkspace, marks: UnsafeMutableBufferPointer<UInt32>, vertex r: Int, cost: Double, index i: Int) {
        if !side.isReached(r) || cost < side.cost[r] {
            side.reach(r, cost: cost, parent: Int32(-1 - i))
            side.heap.push(cost, Int32(r))
            marks[r] = 0
        } else if cost == side.cost[r] {
            marks[r] = side.generation
        }
    }

    /// Settles `side`'s vertices in order of cost while `go(vertex, cost)` says so, relaxing arcs as the pair search's
    /// step does (stall-on-demand, the first of equal arcs kept as parent) and marking each vertex reached at its cost
    /// by a second arc.
    @inline(__always)
    func climb(_ side: SearchWorkspace, marks: UnsafeMutableBufferPointer<UInt32>, arcs: UnsafeBufferPointer<HierarchyArc>,
               first: UnsafeBufferPointer<UInt32>, stallArcs: UnsafeBufferPointer<HierarchyArc>, stallFirst: UnsafeBufferPointer<UInt32>,
               go: (Int, Double) -> Bool) {
        let generation = side.generation
        while let (key, v32) = side.heap.pop() {
            let v = Int(v32)
            if side.isSettled(v) || key > side.cost[v] { continue }
            guard go(v, key) else { break }
            side.settle(v)
            if side.isStalled(v, at: key, arcs: stallArcs, first: stallFirst) { continue }
            side.relax(v, at: key, arcs: arcs, first: first, improved: { x, _ in marks[x] = 0 }, tied: { marks[$0] = generation })
        }
    }

    /// Whether a vertex on the path through `meeting` (either half) is marked: the path is then one of several.
    func isTied(through meeting: Int, _ search: HierarchySearch) -> Bool {
        let ch = search.hierarchy, forward = pair.forward, backward = pair.backward
        var v = meeting
        while true {
            if forwardTie[v] == forward.generation { return true }
            guard forward.parent[v] >= 0 else { break }
            v = search.owner(ofArc: Int(forward.parent[v]), ch.firstUp)
        }
        v = meeting
        while true {
            if backwardTie[v] == backward.generation { return true }
            guard backward.parent[v] >= 0 else { break }
            v = search.owner(ofArc: Int(backward.parent[v]), ch.firstDown)
        }
        return false
    }
}
