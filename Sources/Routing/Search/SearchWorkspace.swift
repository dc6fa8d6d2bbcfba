import Foundation
import Graph

/// Per-query scratch arrays of an edge-based search, reused between queries (a generation stamp marks what
/// belongs to the current query, so nothing is cleared between queries).
public final class SearchWorkspace {
    @exclusivity(unchecked) var cost: [Double]
    @exclusivity(unchecked) var parent: [Int32]
    @exclusivity(unchecked) var stamp: [UInt32]
    @exclusivity(unchecked) var settledStamp: [UInt32]
    @exclusivity(unchecked) var generation: UInt32 = 0
    @exclusivity(unchecked) var heap = BinaryHeap<Double, Int32>()

    /// Scratch space for a graph with `stateCount` search states.
    public init(stateCount: Int) {
        cost = [Double](repeating: 0, count: stateCount)
        parent = [Int32](repeating: -1, count: stateCount)
        stamp = [UInt32](repeating: 0, count: stateCount)
        settledStamp = [UInt32](repeating: 0, count: stateCount)
    }

    /// Starts a new query.
    func reset() {
        generation &+= 1
        if generation == 0 {
            for i in stamp.indices { stamp[i] = 0; settledStamp[i] = 0 }
            generation = 1
        }
        heap.removeAll()
    }

    @inline(__always) func isReached(_ s: Int) -> Bool { stamp[s] == generation }
    @inline(__always) func isSettled(_ s: Int) -> Bool { settledStamp[s] == generation }
    @inline(__always) func settle(_ s: Int) { settledStamp[s] = generation }
    @inline(__always) func unsettle(_ s: Int) { settledStamp[s] = 0 }
    @inline(__always) func reach(_ s: Int, cost c: Double, parent p: Int32) {
        stamp[s] = generation; cost[s] = c; parent[s] = p
    }
}

/// Hands out scratch spaces (search workspaces) to concurrent queries, keeping the ones returned for reuse.
final class WorkspacePool<Workspace>: @unchecked Sendable {
    private let lock = NSLock()
    @exclusivity(unchecked) private var free: [Workspace] = []
    private let make: () -> Workspace

    /// A pool that makes a new workspace with `make` whenever none is free.
    init(make: @escaping () -> Workspace) { self.make = make }

    func withWorkspace<T, E: Error>(_ body: (Workspace) throws(E) -> T) throws(E) -> T {
        lock.lock()
        let workspace = free.popLast() ?? make()
        lock.unlock()
        defer { lock.lock(); free.append(workspace); lock.unlock() }
        return try body(workspace)
    }
}
