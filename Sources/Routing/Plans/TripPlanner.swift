/// Orders stops to minimise total travel time over a matrix of times (a travelling-salesman tour or path):
/// the first stop stays first; exact by dynamic programming (Held–Karp) up to `exactLimit` stops, beyond that
/// nearest insertion improved by 2-opt and Or-opt moves, never returning an order worse than the given one.
/// Times may be asymmetric (one-ways); a missing time (no route) counts as unusable.
public struct TripPlanner: Sendable {
    /// Where the trip ends.
    public enum Shape: String, Sendable {
        /// Ends at whichever stop makes the trip quickest.
        case open
        /// Comes back to the first stop.
        case roundtrip
        /// Ends at the last stop as given.
        case endFixed
    }

    /// Largest number of stops solved exactly.
    public static let exactLimit = 12
    /// Cost of a leg with no route: larger than any real trip, so such legs are avoided when possible.
    static let unreachable = 1e9

    public let shape: Shape
    public init(shape: Shape) { self.shape = shape }

    /// The best visiting order found for `count` stops (a permutation of 0..<count beginning with 0, and with
    /// `count - 1` last for `.endFixed`), from the time between any two stops (nil: no route).
    public func order(count: Int, time: (Int, Int) -> Double?) -> [Int] {
        (try? order(count: count, time: time, deadline: .none)) ?? Array(0..<count)
    }

    /// As `order(count:time:)`, giving up with `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes
    /// (checked between the improvement moves of a large trip; an exact order takes milliseconds at most).
    public func order(count: Int, time: (Int, Int) -> Double?, deadline: SearchDeadline) throws(RoutingError) -> [Int] {
        try deadline.check()
        if count <= 2 { return Array(0..<count) }
        var cost = [Double](repeating: 0, count: count * count)
        for i in 0..<count { for j in 0..<count where i != j { cost[i * count + j] = time(i, j) ?? Self.unreachable } }
        let given = Array(0..<count)
        let found = count <= Self.exactLimit ? exact(count, cost) : try heuristic(count, cost, deadline)
        return total(found, count, cost) <= total(given, count, cost) ? found : given
    }

    /// The total time of visiting in `order`, closing the loop for a round trip (nil-routes count as `unreachable`).
    public func total(of order: [Int], time: (Int, Int) -> Double?) -> Double {
        var sum = 0.0
        for (a, b) in zip(order, order.dropFirst()) { sum += time(a, b) ?? Self.unreachable }
        if shape == .roundtrip, let last = order.last, order.count > 1 { sum += time(last, order[0]) ?? Self.unreachable }
        return sum
    }

    func total(_ order: [Int], _ n: Int, _ cost: [Double]) -> Double {
        total(of: order) { cost[$0 * n + $1] }
    }

    /// Held–Karp over the stops that may move: best[set][last] = quickest path from stop 0 through `set` ending at `last`.
    func exact(_ n: Int, _ cost: [Double]) -> [Int] {
        let free = shape == .endFixed ? Array(1..<(n - 1)) : Array(1..<n)
        let k = free.count
        if k == 0 { return Array(0..<n) }
        let full = (1 << k) - 1
        var best = [Double](repeating: .infinity, count: (1 << k) * k)
        var previous = [Int8](repeating: -1, count: (1 << k) * k)
        for j in 0..<k { best[(1 << j) * k + j] = cost[free[j]] }
        for set in 1...full {
            for last in 0..<k where set & (1 << last) != 0 {
                let here = best[set * k + last]
                if here == .infinity { continue }
                for next in 0..<k where set & (1 << next) == 0 {
                    let candidate = here + cost[free[last] * n + free[next]]
                    let slot = (set | 1 << next) * k + next
                    if candidate < best[slot] { best[slot] = candidate; previous[slot] = Int8(last) }
                }
            }
        }
        // Close the path: back to the first stop (round trip), on to the fixed end, or nothing.
        var bestLast = 0, bestTotal = Double.infinity
        for last in 0..<k {
            var value = best[full * k + last]
            switch shape {
            case .roundtrip: value += cost[free[last] * n]
            case .endFixed: value += cost[free[last] * n + (n - 1)]
            case .open: break
            }
            if value < bestTotal { bestTotal = value; bestLast = last }
        }
        var path: [Int] = []
        var set = full, last = bestLast
        while last >= 0 {
            path.append(free[last])
            let p = Int(previous[set * k + last])
            set &= ~(1 << last)
            last = p
        }
        var order = [0] + path.reversed()
        if shape == .endFixed { order.append(n - 1) }
        return order
    }

    /// Nearest insertion, then 2-opt and Or-opt passes until no move helps (or a pass budget runs out).
    func heuristic(_ n: Int, _ cost: [Double], _ deadline: SearchDeadline) throws(RoutingError) -> [Int] {
        @inline(__always) func c(_ a: Int, _ b: Int) -> Double { cost[a * n + b] }
        // The tour as a sequence; a round trip's closing leg, or the fixed end, is handled by a sentinel end stop.
        var tour = shape == .endFixed ? [0, n - 1] : [0]
        var inTour = [Bool](repeating: false, count: n)
        for s in tour { inTour[s] = true }
        // Nearest insertion: the stop closest (either way) to the tour joins at its cheapest position.
        var nearest = [Double](repeating: .infinity, count: n)
        for s in 0..<n where !inTour[s] { for t in tour { nearest[s] = min(nearest[s], min(c(t, s), c(s, t))) } }
        while tour.count < n {
            try deadline.check(every: tour.count)
            var pick = -1
            for s in 0..<n where !inTour[s] && (pick < 0 || nearest[s] < nearest[pick]) { pick = s }
            var bestPosition = tour.count, bestDelta = Double.infinity
            let limit = shape == .endFixed ? tour.count - 1 : tour.count
            for position in 1...limit {
                let before = tour[position - 1]
                let after: Int? = position < tour.count ? tour[position] : (shape == .roundtrip ? tour[0] : nil)
                let delta = c(before, pick) + (after.map { c(pick, $0) - c(before, $0) } ?? 0)
                if delta < bestDelta { bestDelta = delta; bestPosition = position }
            }
            tour.insert(pick, at: bestPosition)
            inTour[pick] = true
            for s in 0..<n where !inTour[s] { nearest[s] = min(nearest[s], min(c(pick, s), c(s, pick))) }
        }
        var improved = true, passes = 0
        while improved && passes < 50 {
            let reversed = try twoOpt(&tour, n, cost, deadline)
            let moved = try orOpt(&tour, n, cost, deadline)
            improved = reversed || moved
            passes += 1
        }
        return tour
    }

    /// The stop after position i of the tour, or nil at the end of an open path.
    @inline(__always) private func successor(_ tour: [Int], _ i: Int) -> Int? {
        i + 1 < tour.count ? tour[i + 1] : (shape == .roundtrip ? tour[0] : nil)
    }

    /// Reverses segments tour[i...j] when that shortens the trip (asymmetric times summed both ways by prefix sums).
    func twoOpt(_ tour: inout [Int], _ n: Int, _ cost: [Double], _ deadline: SearchDeadline) throws(RoutingError) -> Bool {
        @inline(__always) func c(_ a: Int, _ b: Int) -> Double { cost[a * n + b] }
        let m = tour.count
        let lastMovable = shape == .endFixed ? m - 2 : m - 1
        guard lastMovable >= 2 else { return false }
        var any = false
        var forward = [Double](repeating: 0, count: m), backward = forward
        func prefix() {
            for k in 1..<m { forward[k] = forward[k - 1] + c(tour[k - 1], tour[k]); backward[k] = backward[k - 1] + c(tour[k], tour[k - 1]) }
        }
        prefix()
        for i in 1..<lastMovable {
            try deadline.check()
            for j in (i + 1)...lastMovable {
                let a = tour[i - 1], b = tour[i], e = tour[j]
                let f = successor(tour, j)
                let inside = (backward[j] - backward[i]) - (forward[j] - forward[i])
                let delta = c(a, e) - c(a, b) + (f.map { c(b, $0) - c(e, $0) } ?? 0) + inside
                if delta < -1e-3 {
                    tour[i...j].reverse()
                    prefix()
                    any = true
                }
            }
        }
        return any
    }

    /// Moves runs of one to three stops to a better place in the tour (without reversing them).
    func orOpt(_ tour: inout [Int], _ n: Int, _ cost: [Double], _ deadline: SearchDeadline) throws(RoutingError) -> Bool {
        @inline(__always) func c(_ a: Int, _ b: Int) -> Double { cost[a * n + b] }
        var any = false
        var budget = 20 * tour.count  // moves per pass; each strictly shortens the trip, this only bounds the time
        var tries = 0
        for length in 1...3 {
            var i = 1
            while i + length - 1 < tour.count - (shape == .endFixed ? 1 : 0) && budget > 0 {
                tries &+= 1
                try deadline.check(every: tries)
                let m = tour.count
                let first = tour[i], last = tour[i + length - 1]
                let before = tour[i - 1]
                let after = successor(tour, i + length - 1)
                // Time saved by taking the run out.
                let removal = c(before, first) + (after.map { c(last, $0) - c(before, $0) } ?? 0)
                var bestGain = 1e-3, bestPosition = -1
                for p in 1...m where p < i || p > i + length {
                    // Insert between tour[p-1] and tour[p] (or after the end of an open path when p == m).
                    if shape == .endFixed && p == m { continue }
                    let x = tour[p - 1]
                    let y: Int? = p < m ? tour[p] : (shape == .roundtrip ? tour[0] : nil)
                    let insertion = c(x, first) + (y.map { c(last, $0) - c(x, $0) } ?? 0)
                    if removal - insertion > bestGain { bestGain = removal - insertion; bestPosition = p }
                }
                if bestPosition >= 0 {
                    let run = Array(tour[i..<(i + length)])
                    tour.removeSubrange(i..<(i + length))
                    let target = bestPosition > i ? bestPosition - length : bestPosition
                    tour.insert(contentsOf: run, at: target)
                    any = true
                    budget -= 1
                } else {
                    i += 1
                }
            }
        }
        return any
    }
}
