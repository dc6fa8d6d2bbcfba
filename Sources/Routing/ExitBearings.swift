import Graph
import Synchronization

/// The initial bearing of every directed edge's stored polyline over its first `TurnAngle.bearingWindow` metres:
/// what the step builder weighs each other road leaving a junction by, computed once per edge and direction instead
/// of once per junction passed. Index `2 * edge + side` (side 0: the stored direction, 1: reversed); NaN where the
/// edge has no length to take a bearing over.
struct ExitBearings: Sendable {
    let bearings: [Double]

    /// Every edge's two bearings, exactly as `TurnAngle.initialBearing(along:)` gives them for the edge's polyline.
    init(graph: RoadGraph) {
        var bearings = [Double](repeating: .nan, count: 2 * graph.edgeCount)
        for e in 0..<graph.edgeCount {
            let stored = EdgePolyline(edge: e, in: graph)
            if let bearing = TurnAngle.initialBearing(along: stored) { bearings[2 * e] = bearing }
            if let bearing = TurnAngle.initialBearing(along: stored.reversed()) { bearings[2 * e + 1] = bearing }
        }
        self.bearings = bearings
    }

    /// The bearing of leaving along `edge` in direction `side`, nil when it has no length.
    @inline(__always) func bearing(_ edge: Int, side: Int) -> Double? {
        let value = bearings[2 * edge + side]
        return value.isNaN ? nil : value
    }
}

/// A `Router`'s `ExitBearings`, built on the `legsBeforeTable`-th leg described (a city's table costs about as much
/// as describing a few dozen legs, so a process that describes one route does not pay for it) and then shared by
/// every thread.
final class LazyExitBearings: Sendable {
    /// Legs described with bearings computed per junction before the table is built.
    static let legsBeforeTable = 32
    private let built = AtomicLazyReference<Box>()
    private let asked = Atomic<Int>(0)

    /// The table, boxed to be stored once.
    final class Box: Sendable {
        let table: ExitBearings
        init(_ table: ExitBearings) { self.table = table }
    }

    /// The table for `graph` once it has been asked for often enough, else nil.
    func table(for graph: RoadGraph) -> ExitBearings? {
        if let box = built.load() { return box.table }
        guard asked.add(1, ordering: .relaxed).newValue >= Self.legsBeforeTable else { return nil }
        return built.storeIfNil(Box(ExitBearings(graph: graph))).table
    }
}
