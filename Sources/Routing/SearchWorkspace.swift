import Foundation

/// Per-query scratch arrays of an edge-based search, reused between queries (a generation stamp marks what
/// belongs to the current query, so nothing is cleared between queries).
public final class SearchWorkspace {
    var cost: [Double]
    var parent: [Int32]
    var stamp: [UInt32]
    var settledStamp: [UInt32]
    var generation: UInt32 = 0
    var heap = StateHeap()

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

/// A binary min-heap of (key, state) pairs with ties broken by state id, so searches are deterministic.
struct StateHeap {
    private var keys: [Double] = []
    private var states: [Int32] = []

    var isEmpty: Bool { keys.isEmpty }
    var minimumKey: Double { keys.first ?? .infinity }

    mutating func removeAll() { keys.removeAll(keepingCapacity: true); states.removeAll(keepingCapacity: true) }

    @inline(__always) private func less(_ i: Int, _ j: Int) -> Bool {
        keys[i] < keys[j] || (keys[i] == keys[j] && states[i] < states[j])
    }

    mutating func push(_ key: Double, _ state: Int32) {
        keys.append(key); states.append(state)
        var i = keys.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if !less(i, parent) { break }
            keys.swapAt(i, parent); states.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (key: Double, state: Int32)? {
        guard let key = keys.first, let state = states.first else { return nil }
        let lastKey = keys.removeLast(), lastState = states.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey; states[0] = lastState
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < keys.count && less(l, m) { m = l }
                if r < keys.count && less(r, m) { m = r }
                if m == i { break }
                keys.swapAt(i, m); states.swapAt(i, m)
                i = m
            }
        }
        return (key, state)
    }
}

/// Hands out workspaces to concurrent queries, keeping the ones returned for reuse.
final class WorkspacePool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [SearchWorkspace] = []
    private let stateCount: Int

    init(stateCount: Int) { self.stateCount = stateCount }

    func withWorkspace<T>(_ body: (SearchWorkspace) throws -> T) rethrows -> T {
        lock.lock()
        let workspace = free.popLast() ?? SearchWorkspace(stateCount: stateCount)
        lock.unlock()
        defer { lock.lock(); free.append(workspace); lock.unlock() }
        return try body(workspace)
    }
}
