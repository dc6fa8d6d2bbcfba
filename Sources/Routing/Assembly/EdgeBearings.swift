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

/// Whether each way is a roundabout for a profile and which way its traffic flows, as
/// `StepBuilder.roundaboutFlow(ofWay:in:profile:)` says, worked out once for every way (one pass over the edges)
/// instead of by two binary searches per way a leg travels.
struct WayRoundabouts: Sendable {
    /// Per way: -1 not a roundabout, 0 traffic follows the way's node order, 1 it runs against it.
    let flows: [Int8]

    init(graph: RoadGraph, profile: ProfileGraph?) {
        var flows = [Int8](repeating: -1, count: graph.wayNames.count)
        var start = 0
        while start < graph.edgeCount {
            let way = Int(graph.edgeWay[start])
            var end = start + 1
            while end < graph.edgeCount && Int(graph.edgeWay[end]) == way { end += 1 }
            if way < flows.count, let flow = StepBuilder.roundaboutFlow(ofEdges: start..<end, in: graph, profile: profile) {
                flows[way] = flow ? 1 : 0
            }
            start = end
        }
        self.flows = flows
    }

    /// The flow of way `way`: nil when it is no roundabout.
    @inline(__always) func flow(ofWay way: Int) -> Bool? {
        let value = flows[way]
        return value < 0 ? nil : value == 1
    }
}

/// The tables a `Router` describes legs with: one record per edge (bearings, road, roundabout flow, whole
/// polyline) and every node's exits for its profile (`EdgeRecords`).
struct LegTables: Sendable {
    let records: EdgeRecords

    init(graph: RoadGraph, profile: ProfileGraph) {
        records = EdgeRecords(graph: graph, profile: profile)
    }
}

/// A `Router`'s `LegTables`, built on the `legsBeforeTable`-th leg described (a city's tables cost about as much
/// as describing a few dozen legs, so a process that describes one route does not pay for them) and then shared by
/// every thread.
final class LazyLegTables: Sendable {
    /// Legs described with bearings and roundabouts worked out per leg before the tables are built.
    static let legsBeforeTable = 32
    private let built = BuiltAfterUses<LegTables>()

    /// The tables if they have been built, without counting an ask.
    var current: LegTables? { built.current }

    /// The tables for `graph` and `profile` once they have been asked for often enough, else nil.
    func tables(for graph: RoadGraph, profile: ProfileGraph) -> LegTables? {
        built.value(after: Self.legsBeforeTable) { LegTables(graph: graph, profile: profile) }
    }
}
