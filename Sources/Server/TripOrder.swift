import Foundation
import Routing

/// The order in which `/trip` visits its stops: OSRM's `roundtrip`, `source` and `destination` options mapped onto
/// `TripPlanner` (exact up to 12 stops, nearest insertion with 2-opt and Or-opt beyond).
public enum TripOrder {
    /// Stop indices in visiting order, each once (for a round trip the return to the first is implied), or nil when
    /// no order reaches every stop. `durations[i][j]` is the time from stop i to stop j (nil: unreachable).
    /// `fixedStart` keeps stop 0 first, `fixedEnd` keeps the last stop last; a round trip starts at stop 0.
    public static func order(durations: [[Double?]], roundtrip: Bool, fixedStart: Bool, fixedEnd: Bool) -> [Int]? {
        let n = durations.count
        guard n > 1 else { return Array(0..<n) }
        let order: [Int]
        if roundtrip {
            order = TripPlanner(shape: .roundtrip).order(count: n) { durations[$0][$1] }
        } else if fixedEnd && !fixedStart {
            // Only the end is fixed: plan backwards from it over the reversed times, then turn the path around.
            let last = n - 1
            let index = [last] + Array(0..<last)
            let backwards = TripPlanner(shape: .open).order(count: n) { durations[index[$1]][index[$0]] }
            order = backwards.map { index[$0] }.reversed()
        } else {
            order = TripPlanner(shape: fixedEnd ? .endFixed : .open).order(count: n) { durations[$0][$1] }
        }
        var legs = Array(zip(order, order.dropFirst()))
        if roundtrip { legs.append((order[n - 1], order[0])) }
        return legs.allSatisfy { durations[$0.0][$0.1] != nil } ? order : nil
    }
}
