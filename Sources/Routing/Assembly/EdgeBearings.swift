import Graph
import Synchronization

/// The bearings of every directed edge's stored polyline over `TurnAngle.bearingWindow` metres at both of its ends:
/// the initial bearing (leaving its first point), which the step builder weighs each road leaving a junction by and
/// takes as the direction out of a junction, and the final bearing (arriving at its last point), the direction into
/// a junction. Computed once per edge and direction instead of once per junction passed. Index `2 * edge + side`
/// (side 0: the stored direction, 1: reversed); NaN where the edge has no length to take a bearing over.
struct EdgeBearings: Sendable {
    let initial: [Double]
    let final: [Double]

    /// Every edge's four bearings, exactly as `TurnAngle.initialBearing(along:)` and `finalBearing(along:)` give
    /// them for the edge's polyline and its reverse.
    init(graph: RoadGraph) {
        var initial = [Double](repeating: .nan, count: 2 * graph.edgeCount)
        var final = [Double](repeating: .nan, count: 2 * graph.edgeCount)
        for e in 0..<graph.edgeCount {
            let stored = EdgePolyline(edge: e, in: graph)
            if let bearing = TurnAngle.initialBearing(along: stored) { initial[2 * e] = bearing }
            if let bearing = TurnAngle.initialBearing(along: stored.reversed()) { initial[2 * e + 1] = bearing }
            if let bearing = TurnAngle.finalBearing(along: stored) { final[2 * e] = bearing }
            if let bearing = TurnAngle.finalBearing(along: stored.reversed()) { final[2 * e + 1] = bearing }
        }
        self.initial = initial
        self.final = final
    }

    /// The bearing of leaving along `edge` in direction `side`, nil when it has no length.
    @inline(__always) func initialBearing(_ edge: Int, side: Int) -> Double? {
        let value = initial[2 * edge + side]
        return value.isNaN ? nil : value
    }

    /// The bearing of arriving at the end of `edge` travelled in direction `side`, nil when it has no length.
    @inline(__always) func finalBearing(_ edge: Int, side: Int) -> Double? {
        let value = final[2 * edge + side]
        return value.isNaN ? nil : value
    }
}

/// A `Router`'s `EdgeBearings`, built on the `legsBeforeTable`-th leg described (a city's table costs about as much
/// as describing a few dozen legs, so a process that describes one route does not pay for it) and then shared by
/// every thread.
final class LazyEdgeBearings: Sendable {
    /// Legs described with bearings computed per junction before the table is built.
    static let legsBeforeTable = 32
    private let built = AtomicLazyReference<Box>()
    private let asked = Atomic<Int>(0)

    /// The table, boxed to be stored once.
    final class Box: Sendable {
        let table: EdgeBearings
        init(_ table: EdgeBearings) { self.table = table }
    }

    /// The table for `graph` once it has been asked for often enough, else nil.
    func table(for graph: RoadGraph) -> EdgeBearings? {
        if let box = built.load() { return box.table }
        guard asked.add(1, ordering: .relaxed).newValue >= Self.legsBeforeTable else { return nil }
        return built.storeIfNil(Box(EdgeBearings(graph: graph))).table
    }
}
