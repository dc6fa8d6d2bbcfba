import Foundation
import Graph
import Routing

/// Walking times and distances from (or to) one point to every node of the foot graph within a distance limit:
/// a Dijkstra search over the foot profile's edges by travel time, cut off where the quickest path grows longer
/// than the limit. Used for access, egress and transfer walks; not thread-safe (one per thread).
public final class WalkSearch {
    public let graph: RoadGraph
    public let profile: ProfileGraph
    @exclusivity(unchecked) private var time: [Double]
    @exclusivity(unchecked) private var distance: [Double]
    @exclusivity(unchecked) private var stamp: [UInt32]
    @exclusivity(unchecked) private var done: [UInt32]
    @exclusivity(unchecked) private var generation: UInt32 = 0
    @exclusivity(unchecked) private var heap = BinaryHeap<Double, Int32>()
    @exclusivity(unchecked) private var reverse = false
    @exclusivity(unchecked) private var start = SearchEndpoint(edge: 0, fraction: 0, node: nil, coordinate: Coordinate(latitude: 0, longitude: 0))
    @exclusivity(unchecked) private var limit = 0.0
    /// The nodes the last search reached, in the order first reached.
    @exclusivity(unchecked) private var touched: [Int32] = []

    /// Prepares searches on the `foot` profile of `graph`.
    public init(graph: RoadGraph, profile: ProfileGraph) {
        self.graph = graph
        self.profile = profile
        let n = graph.nodeCount
        time = [Double](repeating: 0, count: n)
        distance = [Double](repeating: 0, count: n)
        stamp = [UInt32](repeating: 0, count: n)
        done = [UInt32](repeating: 0, count: n)
    }

    @inline(__always) private func edgeTime(_ e: Int, forward: Bool) -> Double? { Self.edgeTime(profile, e, forward: forward) }

    @inline(__always) private static func edgeTime(_ profile: ProfileGraph, _ e: Int, forward: Bool) -> Double? {
        let t = forward ? profile.timeForward[e] : profile.timeBackward[e]
        return t == closedEdge ? nil : Double(t) / 1000
    }

    @inline(__always) private func length(_ e: Int) -> Double { Double(graph.edgeLengthMillimetres[e]) / 1000 }

    private func reach(_ n: Int, _ t: Double, _ d: Double) {
        guard d <= limit else { return }
        if stamp[n] == generation {
            if time[n] <= t { return }
        } else {
            touched.append(Int32(n))
        }
        stamp[n] = generation; time[n] = t; distance[n] = d
        heap.push(t, Int32(n))
    }

    /// Searches from `origin` (or, `reverse`, towards it) over paths of at most `maxDistance` metres. With a
    /// `deadline`, gives up at that moment (checked every thousand nodes), leaving the nodes settled so far.
    /// `stop`, when given, is asked with the key of each node taken from the heap (seconds, in increasing order):
    /// true ends the search there (nodes settled so far keep their final times).
    public func run(from origin: SearchEndpoint, maxDistance: Double, reverse: Bool = false, deadline: Date? = nil,
                    stop: ((Double) -> Bool)? = nil) {
        generation &+= 1
        if generation == 0 { for i in stamp.indices { stamp[i] = 0; done[i] = 0 }; generation = 1 }
        heap.removeAll()
        touched.removeAll(keepingCapacity: true)
        self.reverse = reverse
        start = origin
        limit = maxDistance
        let e = origin.edge, f = origin.fraction
        let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
        if let node = origin.node {
            reach(node, 0, 0)
        } else {
            // Forward: leave the point towards `to` along the edge's direction, towards `from` against it; reverse: the opposite.
            if let t = edgeTime(e, forward: !reverse) { reach(to, t * (1 - f), length(e) * (1 - f)) }
            if let t = edgeTime(e, forward: reverse) { reach(from, t * f, length(e) * f) }
        }
        var settled = 0
        while let (key, node32) = heap.pop() {
            settled &+= 1
            if settled & 1023 == 0, let deadline, Date() > deadline { break }
            let v = Int(node32)
            if done[v] == generation || key > time[v] { continue }
            if let stop, stop(key) { break }
            done[v] = generation
            if profile.isBlocked(graph.nodeFlags[v]) && v != origin.node { continue }
            let t = time[v], d = distance[v]
            for position in Int(profile.firstIncidence[v])..<Int(profile.firstIncidence[v + 1]) {
                let directed = profile.incidence[position]
                let edge = Int(directed >> 1)
                // Leaving v forward along the directed edge; in reverse, the walker comes towards v along it backwards.
                let forwardDirection = directed & 1 == 0
                guard let et = edgeTime(edge, forward: reverse ? !forwardDirection : forwardDirection) else { continue }
                let w = forwardDirection ? Int(graph.edgeTo[edge]) : Int(graph.edgeFrom[edge])
                reach(w, t + et, d + length(edge))
            }
        }
    }

    /// Seconds and metres between the last search's point and `target` (a point on the foot graph), nil when
    /// beyond the limit or unreachable.
    public func cost(to target: SearchEndpoint) -> (duration: Double, distance: Double)? {
        let generation = generation
        return Self.cost(to: target, from: start, reverse: reverse, limit: limit, graph: graph, profile: profile) { n in
            stamp[n] == generation ? (time[n], distance[n]) : nil
        }
    }

    /// The last search kept as a table: every node it reached, with its seconds and metres (a search that ran to its
    /// end: its labels are final).
    func table() -> WalkTable {
        let nodes = touched.sorted()
        return WalkTable(start: start, reverse: reverse, limit: limit, nodes: nodes, time: nodes.map { time[Int($0)] },
                         distance: nodes.map { distance[Int($0)] })
    }

    /// Seconds and metres between `start` and `target` from the node labels `label` of a search from `start` (or,
    /// `reverse`, towards it) over paths of at most `limit` metres: the one reading of a search's labels.
    static func cost(to target: SearchEndpoint, from start: SearchEndpoint, reverse: Bool, limit: Double, graph: RoadGraph, profile: ProfileGraph,
                     label: (Int) -> (time: Double, distance: Double)?) -> (duration: Double, distance: Double)? {
        var best: (duration: Double, distance: Double)? = nil
        func consider(_ t: Double, _ d: Double) {
            guard d <= limit + 1e-9 else { return }
            if best == nil || t < best!.duration { best = (t, d) }
        }
        func length(_ e: Int) -> Double { Double(graph.edgeLengthMillimetres[e]) / 1000 }
        let e = target.edge, g = target.fraction
        if let node = target.node {
            if let l = label(node) { consider(l.time, l.distance) }
        } else {
            let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
            // Forward search: enter the edge at `from` going forward, or at `to` going backward (reverse: the other way round).
            if let l = label(from), let t = edgeTime(profile, e, forward: !reverse) { consider(l.time + t * g, l.distance + length(e) * g) }
            if let l = label(to), let t = edgeTime(profile, e, forward: reverse) { consider(l.time + t * (1 - g), l.distance + length(e) * (1 - g)) }
        }
        // Both on the same edge: straight along it.
        if start.node == nil && target.node == nil && start.edge == e {
            let ahead = g >= start.fraction
            // Forward search moves start → target; reverse moves target → start.
            let forwardAlongEdge = reverse ? !ahead : ahead
            if let t = edgeTime(profile, e, forward: forwardAlongEdge) { consider(t * abs(g - start.fraction), length(e) * abs(g - start.fraction)) }
        }
        return best
    }
}

/// A walk search kept: the nodes it reached (sorted) with their seconds and metres, read as `WalkSearch.cost` reads
/// the search itself. A class, so the tables a router keeps are shared, not copied, by every reader.
final class WalkTable: Sendable {
    let start: SearchEndpoint
    let reverse: Bool
    let limit: Double
    let nodes: [Int32]
    let time: [Double]
    let distance: [Double]

    init(start: SearchEndpoint, reverse: Bool, limit: Double, nodes: [Int32], time: [Double], distance: [Double]) {
        self.start = start; self.reverse = reverse; self.limit = limit
        self.nodes = nodes; self.time = time; self.distance = distance
    }

    /// The node's label, nil when the search did not reach it.
    /// - Complexity: O(log n), a binary search over the reached nodes.
    func label(_ n: Int) -> (time: Double, distance: Double)? {
        let key = Int32(truncatingIfNeeded: n)
        return nodes.withUnsafeBufferPointer { nodes in
            var low = 0, count = nodes.count
            while count > 0 {
                let half = count >> 1
                if nodes[low + half] < key { low += half + 1; count -= half + 1 } else { count = half }
            }
            return low < nodes.count && nodes[low] == key ? (time[low], distance[low]) : nil
        }
    }

    /// Seconds and metres between the search's point and `target`, as `WalkSearch.cost(to:)` gives them.
    func cost(to target: SearchEndpoint, graph: RoadGraph, profile: ProfileGraph) -> (duration: Double, distance: Double)? {
        WalkSearch.cost(to: target, from: start, reverse: reverse, limit: limit, graph: graph, profile: profile, label: label)
    }
}
