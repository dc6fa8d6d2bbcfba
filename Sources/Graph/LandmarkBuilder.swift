import Foundation

/// Builds the landmark tables of ALT (A*, landmarks, triangle inequality): for a few far-apart landmark
/// nodes, the travel time from each landmark to every node and from every node to each landmark. A search
/// bounds the time left to its target from these by the triangle inequality.
///
/// Times are over the profile's node graph without turn restrictions or barriers, so they are lower bounds
/// for routes that honour them. They are stored in whole seconds, rounded down, as `UInt16`
/// (`unreachable` = no path; `saturated` = 18 hours or more).
public enum LandmarkBuilder {
    /// Landmarks per profile.
    public static let count = 8
    /// Milliseconds per stored unit.
    public static let unit: UInt32 = 1000
    public static let unreachable = UInt16.max
    public static let saturated = UInt16.max - 1

    /// The landmark tables of profile `p` of `graph`: node-major (`node × landmarks + landmark`), and the landmark nodes
    /// (`count` of them, or fewer on a small network).
    static func build(_ graph: GraphData, profile p: Int) -> (from: [UInt16], to: [UInt16], landmarks: [UInt32]) {
        let n = graph.nodeLatitudes.count
        let profile = graph.profiles[p]
        var from = [UInt16](repeating: unreachable, count: n * count)
        var to = [UInt16](repeating: unreachable, count: n * count)
        // Start from the first node of the main network; each next landmark is the node farthest from those chosen.
        guard let seed = (0..<n).first(where: { profile.island[$0] == 0 }) else { return ([], [], []) }
        var nearest = [UInt32](repeating: UInt32.max, count: n)
        var landmarks: [UInt32] = []
        var search = NodeDijkstra(graph: graph, profile: profile)
        var candidate = farthest(search.run(from: seed, reverse: false), among: profile.island, excluding: [])
        for k in 0..<count {
            guard let landmark = candidate else { break }
            landmarks.append(UInt32(landmark))
            let forward = search.run(from: landmark, reverse: false)
            let backward = search.run(from: landmark, reverse: true)
            for v in 0..<n {
                from[v * count + k] = quantise(forward[v])
                to[v * count + k] = quantise(backward[v])
                nearest[v] = min(nearest[v], forward[v])
            }
            candidate = farthest(nearest, among: profile.island, excluding: Set(landmarks.map(Int.init)))
        }
        // A small network may have fewer far-apart nodes than landmarks wanted: keep the tables dense.
        let found = landmarks.count
        if found < count {
            var compactFrom = [UInt16](), compactTo = [UInt16]()
            compactFrom.reserveCapacity(n * found); compactTo.reserveCapacity(n * found)
            for v in 0..<n {
                compactFrom.append(contentsOf: from[(v * count)..<(v * count + found)])
                compactTo.append(contentsOf: to[(v * count)..<(v * count + found)])
            }
            return (compactFrom, compactTo, landmarks)
        }
        return (from, to, landmarks)
    }

    static func quantise(_ milliseconds: UInt32) -> UInt16 {
        if milliseconds == UInt32.max { return unreachable }
        return UInt16(min(milliseconds / unit, UInt32(saturated)))
    }

    /// The main-network node with the greatest finite distance, ties to the lowest index.
    static func farthest(_ distance: [UInt32], among island: [UInt8], excluding: Set<Int>) -> Int? {
        var best: Int? = nil
        for v in distance.indices where island[v] == 0 && distance[v] != UInt32.max && !excluding.contains(v) {
            if best == nil || distance[v] > distance[best!] { best = v }
        }
        return best
    }
}

/// A plain one-to-all Dijkstra over a profile's node graph (times in milliseconds, no restrictions).
struct NodeDijkstra {
    let graph: GraphData
    let profile: ProfileGraphData
    private var distance: [UInt32]
    private var heapKeys: [UInt32] = []
    private var heapNodes: [UInt32] = []

    init(graph: GraphData, profile: ProfileGraphData) {
        self.graph = graph
        self.profile = profile
        distance = [UInt32](repeating: UInt32.max, count: graph.nodeLatitudes.count)
    }

    /// Times from `source` to every node, or (with `reverse`) from every node to `source`; `UInt32.max` where none.
    mutating func run(from source: Int, reverse: Bool) -> [UInt32] {
        for i in distance.indices { distance[i] = UInt32.max }
        distance[source] = 0
        heapKeys = [0]; heapNodes = [UInt32(source)]
        let first = profile.firstIncidence, incidence = profile.incidence
        let forward = profile.timeForward, backward = profile.timeBackward
        let edgeFrom = graph.edgeFrom, edgeTo = graph.edgeTo
        while let (d, u) = pop() {
            if d > distance[Int(u)] { continue }
            for position in Int(first[Int(u)])..<Int(first[Int(u) + 1]) {
                let entry = incidence[position]
                let e = Int(entry >> 1)
                // Leaving u along the edge (forward search), or arriving at u along it (reverse search).
                let alongStoredDirection = (entry & 1 == 0) != reverse
                let time = alongStoredDirection ? forward[e] : backward[e]
                guard time != closedEdge else { continue }
                let v = entry & 1 == 0 ? edgeTo[e] : edgeFrom[e]
                let candidate = d &+ time
                if candidate < distance[Int(v)] {
                    distance[Int(v)] = candidate
                    push(candidate, v)
                }
            }
        }
        return distance
    }

    private mutating func push(_ key: UInt32, _ node: UInt32) {
        heapKeys.append(key); heapNodes.append(node)
        var i = heapKeys.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if heapKeys[parent] <= heapKeys[i] { break }
            heapKeys.swapAt(parent, i); heapNodes.swapAt(parent, i)
            i = parent
        }
    }

    private mutating func pop() -> (UInt32, UInt32)? {
        guard let key = heapKeys.first, let node = heapNodes.first else { return nil }
        let lastKey = heapKeys.removeLast(), lastNode = heapNodes.removeLast()
        if !heapKeys.isEmpty {
            heapKeys[0] = lastKey; heapNodes[0] = lastNode
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heapKeys.count && heapKeys[l] < heapKeys[m] { m = l }
                if r < heapKeys.count && heapKeys[r] < heapKeys[m] { m = r }
                if m == i { break }
                heapKeys.swapAt(m, i); heapNodes.swapAt(m, i)
                i = m
            }
        }
        return (key, node)
    }
}
