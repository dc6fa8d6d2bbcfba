import Foundation
import Graph

/// The parts of a profile's graph that no route can leave: nodes joined by every edge the profile may take in either
/// direction (one-ways, barriers and turn rules ignored, so two nodes in different parts have no route between them,
/// while two in the same part still may not). Computed on first use, once, and shared between threads.
final class GraphComponents: @unchecked Sendable {
    private let space: SearchGraph
    private let lock = NSLock()
    @exclusivity(unchecked) private var part: [Int32] = []

    /// Components of `space`'s profile graph, computed when first asked.
    init(space: SearchGraph) { self.space = space }

    /// Whether no route on the profile can join `a` and `b` (their edges' ends lie in different parts).
    func disconnected(_ a: SearchEndpoint, _ b: SearchEndpoint) -> Bool {
        let parts = labels()
        let g = space.graph
        let a1 = parts[Int(g.edgeFrom[a.edge])], a2 = parts[Int(g.edgeTo[a.edge])]
        let b1 = parts[Int(g.edgeFrom[b.edge])], b2 = parts[Int(g.edgeTo[b.edge])]
        return a1 != b1 && a1 != b2 && a2 != b1 && a2 != b2
    }

    /// Each node's part (the least node of it, by union-find over the open edges).
    private func labels() -> [Int32] {
        lock.lock(); defer { lock.unlock() }
        if !part.isEmpty || space.graph.nodeCount == 0 { return part }
        let g = space.graph, p = space.profile
        var parent = [Int32](0..<Int32(g.nodeCount))
        func root(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x { parent[Int(x)] = parent[Int(parent[Int(x)])]; x = parent[Int(x)] }
            return x
        }
        for e in 0..<g.edgeCount where p.timeForward[e] != closedEdge || p.timeBackward[e] != closedEdge {
            let a = root(Int32(g.edgeFrom[e])), b = root(Int32(g.edgeTo[e]))
            if a != b { parent[Int(max(a, b))] = min(a, b) }
        }
        for n in 0..<g.nodeCount { parent[n] = root(Int32(n)) }
        part = parent
        return part
    }
}
