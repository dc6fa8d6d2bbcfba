import Foundation
import Graph

/// Per-query scratch arrays of an edge-based search, reused between queries (a generation stamp marks what
/// belongs to the current query, so nothing is cleared between queries).
///
/// The arrays are allocated, not filled: the stamps come from `calloc` (zero pages the kernel hands over as a search
/// first touches them, so a process that routes once does not write megabytes of zeros), and `cost` and `parent`
/// are left unset, since they are read only for a state whose stamp says the current query reached it.
public final class SearchWorkspace {
    @exclusivity(unchecked) var cost: UnsafeMutableBufferPointer<Double>
    @exclusivity(unchecked) var parent: UnsafeMutableBufferPointer<Int32>
    @exclusivity(unchecked) var stamp: UnsafeMutableBufferPointer<UInt32>
    @exclusivity(unchecked) var settledStamp: UnsafeMutableBufferPointer<UInt32>
    @exclusivity(unchecked) var generation: UInt32 = 0
    @exclusivity(unchecked) var heap = BinaryHeap<Double, Int32>()

    /// Scratch space for a graph with `stateCount` search states.
    public init(stateCount: Int) {
        cost = .allocate(capacity: stateCount)
        parent = .allocate(capacity: stateCount)
        stamp = Self.zeroed(stateCount)
        settledStamp = Self.zeroed(stateCount)
    }

    deinit {
        cost.deallocate()
        parent.deallocate()
        free(stamp.baseAddress)
        free(settledStamp.baseAddress)
    }

    /// `count` zero stamps from `calloc` (at least one byte asked for, so the pointer is never nil for an empty graph).
    private static func zeroed(_ count: Int) -> UnsafeMutableBufferPointer<UInt32> {
        guard let memory = calloc(max(count, 1), MemoryLayout<UInt32>.stride) else { fatalError("out of memory for a search workspace of \(count) states") }
        return UnsafeMutableBufferPointer(start: memory.assumingMemoryBound(to: UInt32.self), count: count)
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
