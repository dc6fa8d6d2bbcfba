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

    @inline(__always) private func edgeTime(_ e: Int, forward: Bool) -> Double? {
        let t = forward ? profile.timeForward[e] : profile.timeBackward[e]
        return t == closedEdge ? nil : Double(t) / 1000
    }

    @inline(__always) private func length(_ e: Int) -> Double { Double(graph.edgeLengthMillimetres[e]) / 1000 }

    private func reach(_ n: Int, _ t: Double, _ d: Double) {
        guard d <= limit else { return }
        if stamp[n] == generation && time[n] <= t { return }
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
        var best: (duration: Double, distance: Double)? = nil
        func consider(_ t: Double, _ d: Double) {
            guard d <= limit + 1e-9 else { return }
            if best == nil || t < best!.duration { best = (t, d) }
        }
        let e = target.edge, g = target.fraction
        if let node = target.node {
            if stamp[node] == generation { consider(time[node], distance[node]) }
        } else {
            let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
            // Forward search: enter the edge at `from` going forward, or at `to` going backward (reverse: the other way round).
            if stamp[from] == generation, let t = edgeTime(e, forward: !reverse) { consider(time[from] + t * g, distance[from] + length(e) * g) }
            if stamp[to] == generation, let t = edgeTime(e, forward: reverse) { consider(time[to] + t * (1 - g), distance[to] + length(e) * (1 - g)) }
        }
        // Both on the same edge: straight along it.
        if start.node == nil && target.node == nil && start.edge == e {
            let ahead = g >= start.fraction
            // Forward search moves start → target; reverse moves target → start.
            let forwardAlongEdge = reverse ? !ahead : ahead
            if let t = edgeTime(e, forward: forwardAlongEdge) { consider(t * abs(g - start.fraction), length(e) * abs(g - start.fraction)) }
        }
        return best
    }
}
