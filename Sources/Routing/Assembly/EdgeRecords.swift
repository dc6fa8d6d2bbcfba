import Graph

/// What describing a leg reads of one edge, in one 64-byte record (one cache line): its four bearings, its way's
/// name, ref, class and roundabout flow, where its whole polyline lies in `EdgeRecords.points`, and where the exits of
/// its two end nodes lie in `EdgeRecords.exits`. A leg's description touches one record per edge it travels instead
/// of a dozen arrays of the mapped file; every value is the one those arrays give (`EdgeBearings`, `WayRoundabouts`,
/// `RoadGraph.appendCoordinates(of:to:)`, `TurnAngle.hasLength`).
struct EdgeRecord {
    /// Bearings leaving the edge's first point and arriving at its last, by side (0: stored direction); NaN where
    /// the edge has no length.
    var initial0, initial1, final0, final1: Double
    var way, name, ref: UInt32
    /// The whole edge's points (stored direction) are `points[pointStart ..< pointStart + pointCount]`.
    var pointStart: UInt32
    /// The exits of the `from` and `to` nodes are `exits[fromExits ..< fromExits + fromExitCount]` (and `to…`).
    var fromExits, toExits: UInt32
    var pointCount: UInt16
    var fromExitCount, toExitCount: UInt8
    var highwayClass: UInt8
    /// The way's roundabout flow: -1 none, 0 with the way's node order, 1 against it.
    var flow: Int8
    /// Bit `side`: the whole edge travelled in that direction has at least `StepAssembler.minimumLength` of geometry.
    /// Bit 2: the record is complete (no count overflowed its field); else the edge is described from the graph.
    var flags: UInt8

    static let complete: UInt8 = 4
    /// A record that describes nothing (not complete): for traversals of part of an edge.
    static let none = EdgeRecord(initial0: .nan, initial1: .nan, final0: .nan, final1: .nan, way: 0, name: 0, ref: 0, pointStart: 0,
                                 fromExits: 0, toExits: 0, pointCount: 0, fromExitCount: 0, toExitCount: 0, highwayClass: 0, flow: -1, flags: 0)

    @inline(__always) func initialBearing(side: Int) -> Double? {
        let value = side == 0 ? initial0 : initial1
        return value.isNaN ? nil : value
    }

    @inline(__always) func finalBearing(side: Int) -> Double? {
        let value = side == 0 ? final0 : final1
        return value.isNaN ? nil : value
    }

    @inline(__always) func hasLength(side: Int) -> Bool { flags & (1 << UInt8(side)) != 0 }
    @inline(__always) var isComplete: Bool { flags & Self.complete != 0 }

    /// The exits of the node the whole edge ends at when travelled in direction `side`.
    @inline(__always) func exitsAtEnd(side: Int) -> Range<Int> {
        side == 0 ? Int(toExits)..<Int(toExits) + Int(toExitCount) : Int(fromExits)..<Int(fromExits) + Int(fromExitCount)
    }
}

/// A point in the graph's fixed-point units (1e-7 degrees).
struct PointE7 {
    var latitude, longitude: Int32
    @inline(__always) var coordinate: Coordinate { Coordinate(latitudeE7: latitude, longitudeE7: longitude) }
}

/// One entry of a profile's incidence list with what a junction needs of it: the edge, its side at the node, whether
/// the profile may leave the node along it, and the bearing of doing so (NaN: no length). In incidence order.
struct JunctionExit {
    var leaving: Double
    var edge: UInt32
    var side: UInt8
    var open: Bool
}

/// A router's per-edge records and per-node exits for one profile, built once (`LazyLegTables`) and read by
/// `LegPoints` and `StepBuilder`.
final class EdgeRecords: @unchecked Sendable {
    /// One record per edge, 64-byte aligned so each is one cache line.
    let records: UnsafeMutableBufferPointer<EdgeRecord>
    /// Every edge's whole polyline, as `RoadGraph.appendCoordinates(of:to:)` gives it for the edge travelled 0→1, in
    /// the graph's fixed-point units (half the bytes of `Coordinate`s; the stored points are such values exactly).
    let points: [PointE7]
    /// The profile's incidence entries with their exit data, indexed like `ProfileGraph.incidence`.
    let exits: [JunctionExit]

    init(graph: RoadGraph, profile: ProfileGraph) {
        precondition(MemoryLayout<EdgeRecord>.stride == 64, "EdgeRecord is meant to fill one cache line")
        let bearings = EdgeBearings(graph: graph)
        let roundabouts = WayRoundabouts(graph: graph, profile: profile)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(1, graph.edgeCount) * 64, alignment: 64)
        records = UnsafeMutableBufferPointer(start: raw.bindMemory(to: EdgeRecord.self, capacity: graph.edgeCount), count: graph.edgeCount)
        var points: [PointE7] = []
        points.reserveCapacity(graph.shapeLatitudes.count + 2 * graph.edgeCount)
        var scratch: [Coordinate] = []
        func exits(of node: Int) -> (start: Int, count: Int) {
            guard node + 1 < profile.firstIncidence.count else { return (0, 0) }
            let start = Int(profile.firstIncidence[node])
            return (start, Int(profile.firstIncidence[node + 1]) - start)
        }
        for e in 0..<graph.edgeCount {
            scratch.removeAll(keepingCapacity: true)
            graph.appendCoordinates(of: EdgeTraversal(edge: e, reversed: false, startFraction: 0, endFraction: 1, distance: 0, duration: 0), to: &scratch)
            let way = Int(graph.edgeWay[e])
            let from = exits(of: Int(graph.edgeFrom[e])), to = exits(of: Int(graph.edgeTo[e]))
            var flags: UInt8 = 0
            if TurnAngle.hasLength(scratch, atLeast: StepBuilder.StepAssembler.minimumLength) { flags |= 1 }
            if TurnAngle.hasLength(scratch.reversed(), atLeast: StepBuilder.StepAssembler.minimumLength) { flags |= 2 }
            let fixed = scratch.map { PointE7(latitude: Geo.units($0.latitude), longitude: Geo.units($0.longitude)) }
            let exact = zip(fixed, scratch).allSatisfy { $0.coordinate == $1 }
            let fits = exact && scratch.count <= Int(UInt16.max) && from.count <= Int(UInt8.max) && to.count <= Int(UInt8.max)
                && points.count + scratch.count <= Int(UInt32.max)
            if fits { flags |= EdgeRecord.complete }
            let start = points.count
            if fits { points.append(contentsOf: fixed) }
            let flow = roundabouts.flow(ofWay: way)
            (raw + 64 * e).initializeMemory(as: EdgeRecord.self, to: EdgeRecord(
                initial0: bearings.initial[2 * e], initial1: bearings.initial[2 * e + 1],
                final0: bearings.final[2 * e], final1: bearings.final[2 * e + 1],
                way: UInt32(way), name: graph.wayNames[way], ref: graph.wayRefs[way], pointStart: UInt32(fits ? start : 0),
                fromExits: UInt32(from.start), toExits: UInt32(to.start), pointCount: UInt16(fits ? scratch.count : 0),
                fromExitCount: UInt8(fits ? from.count : 0), toExitCount: UInt8(fits ? to.count : 0),
                highwayClass: graph.wayClasses[way], flow: flow.map { $0 ? 1 : 0 } ?? -1, flags: flags))
        }
        self.points = points
        var exits: [JunctionExit] = []
        exits.reserveCapacity(profile.incidence.count)
        for entry in profile.incidence {
            let edge = Int(entry >> 1), side = Int(entry & 1)
            let time = side == 0 ? profile.timeForward[edge] : profile.timeBackward[edge]
            exits.append(JunctionExit(leaving: bearings.initial[2 * edge + side], edge: UInt32(edge), side: UInt8(side), open: time != closedEdge))
        }
        self.exits = exits
    }

    deinit { UnsafeMutableRawPointer(records.baseAddress!).deallocate() }

    /// The record of edge `e` when it is complete, else nil (the edge is then described from the graph).
    @inline(__always) func record(_ e: Int) -> EdgeRecord? {
        let record = records[e]
        return record.isComplete ? record : nil
    }

    /// Appends the points of a whole-edge traversal (0→1 or 1→0) of a complete record: exactly
    /// `RoadGraph.appendCoordinates(of:to:)`'s.
    @inline(__always) func appendWholeEdge(_ record: EdgeRecord, reversed: Bool, to output: inout [Coordinate]) {
        let start = Int(record.pointStart), end = start + Int(record.pointCount)
        points.withUnsafeBufferPointer { points in
            if reversed {
                var i = end
                while i > start { i -= 1; output.append(points[i].coordinate) }
            } else {
                for i in start..<end { output.append(points[i].coordinate) }
            }
        }
    }
}
