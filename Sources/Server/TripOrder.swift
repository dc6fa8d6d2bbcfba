import Foundation

/// The order in which `/trip` visits its stops.
///
/// REPLACE AT MERGE: `TripOrder.order` is the one function to swap for the real stop-order optimiser. For now it is
/// a greedy nearest-neighbour tour over the duration matrix (tried from every allowed first stop, the cheapest kept;
/// no improvement pass), honouring a fixed first and/or last stop.
public enum TripOrder {
    /// Stop indices in visiting order, each once (for a round trip the return to the first is implied), or nil when
    /// no order reaches every stop. `durations[i][j]` is the time from stop i to stop j (nil: unreachable).
    /// `fixedStart` keeps stop 0 first, `fixedEnd` keeps the last stop last; a round trip starts at stop 0.
    public static func order(durations: [[Double?]], roundtrip: Bool, fixedStart: Bool, fixedEnd: Bool) -> [Int]? {
        let n = durations.count
        guard n > 1 else { return Array(0..<n) }
        let last = n - 1
        let starts = (fixedStart || roundtrip) ? [0] : Array(0..<(fixedEnd ? last : n))
        var best: (order: [Int], cost: Double)? = nil
        for start in starts {
            var visited = [Bool](repeating: false, count: n)
            visited[start] = true
            if fixedEnd { visited[last] = true }
            var order = [start], cost = 0.0
            var complete = true
            while order.count < (fixedEnd ? n - 1 : n) {
                let from = order[order.count - 1]
                var next: Int? = nil, nextTime = Double.infinity
                for j in 0..<n where !visited[j] {
                    if let t = durations[from][j], t < nextTime { next = j; nextTime = t }
                }
                guard let next else { complete = false; break }
                visited[next] = true; order.append(next); cost += nextTime
            }
            guard complete else { continue }
            if fixedEnd && start != last {
                guard let t = durations[order[order.count - 1]][last] else { continue }
                order.append(last); cost += t
            }
            if roundtrip {
                guard let t = durations[order[order.count - 1]][order[0]] else { continue }
                cost += t
            }
            if best == nil || cost < best!.cost { best = (order, cost) }
        }
        return best?.order
    }
}
