/// Finds, per profile, the graph nodes that lie on small islands of road: strongly connected components other
/// than the largest that have fewer than `threshold` nodes (a parking aisle cut off by a barrier, an unconnected
/// fragment, a one-way trap). Snapping prefers roads of the main network over such islands.
enum IslandFinder {
    /// Components at least this large are never islands, even when not the largest.
    static let threshold = 1000

    /// One flag per node: 1 when the node is on a small island for this profile (or unused by it).
    static func islands(nodeCount: Int, edgeFrom: [UInt32], edgeTo: [UInt32], timeForward: [UInt32], timeBackward: [UInt32],
                        firstIncidence: [UInt32], incidence: [UInt32], blocked: (Int) -> Bool) -> [UInt8] {
        // Iterative Tarjan over arcs u→v allowed by the profile; a blocked node has no way out.
        var index = [Int32](repeating: -1, count: nodeCount)
        var lowLink = [Int32](repeating: 0, count: nodeCount)
        var onStack = [Bool](repeating: false, count: nodeCount)
        var component = [Int32](repeating: -1, count: nodeCount)
        var componentSizes: [Int] = []
        var stack: [Int32] = []
        var callStack: [(node: Int32, next: UInt32)] = []
        var counter: Int32 = 0

        func successor(of u: Int, entry: UInt32) -> Int? {
            let e = Int(entry >> 1)
            if entry & 1 == 0 {
                return timeForward[e] != closedEdge ? Int(edgeTo[e]) : nil
            }
            return timeBackward[e] != closedEdge ? Int(edgeFrom[e]) : nil
        }

        for root in 0..<nodeCount where index[root] < 0 && firstIncidence[root] < firstIncidence[root + 1] {
            callStack.append((Int32(root), firstIncidence[root]))
            index[root] = counter; lowLink[root] = counter; counter += 1
            stack.append(Int32(root)); onStack[root] = true
            while let (u32, next) = callStack.last {
                let u = Int(u32)
                let end = blocked(u) ? firstIncidence[u] : firstIncidence[u + 1]
                var position = max(next, firstIncidence[u])
                var descended = false
                while position < end {
                    let entry = incidence[Int(position)]
                    position += 1
                    guard let v = successor(of: u, entry: entry) else { continue }
                    if index[v] < 0 {
                        callStack[callStack.count - 1].next = position
                        index[v] = counter; lowLink[v] = counter; counter += 1
                        stack.append(Int32(v)); onStack[v] = true
                        callStack.append((Int32(v), firstIncidence[v]))
                        descended = true
                        break
                    } else if onStack[v] {
                        lowLink[u] = min(lowLink[u], index[v])
                    }
                }
                if descended { continue }
                callStack.removeLast()
                if let parent = callStack.last { lowLink[Int(parent.node)] = min(lowLink[Int(parent.node)], lowLink[u]) }
                if lowLink[u] == index[u] {
                    let id = Int32(componentSizes.count)
                    var size = 0
                    while let w = stack.popLast() {
                        onStack[Int(w)] = false
                        component[Int(w)] = id
                        size += 1
                        if Int(w) == u { break }
                    }
                    componentSizes.append(size)
                }
            }
        }
        let largest = componentSizes.indices.max { componentSizes[$0] < componentSizes[$1] }
        var result = [UInt8](repeating: 1, count: nodeCount)
        for n in 0..<nodeCount where component[n] >= 0 {
            let c = Int(component[n])
            if c == largest || componentSizes[c] >= threshold { result[n] = 0 }
        }
        return result
    }
}
