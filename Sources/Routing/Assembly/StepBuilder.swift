import Foundation
import Graph

/// Turns the edges of one leg into turn-by-turn steps, in the manner of OSRM's guidance.
///
/// A leg always starts with a `depart` step and ends with an `arrive` step. In between, a step starts at the
/// graph node between two traversals when something there is worth telling:
///
/// - **U-turn** (`uturn`): the route goes back along the edge it came on, or turns by 170° or more.
/// - **Another road** (name or ref differ; two unnamed roads count as the same): `new name` when the road
///   simply carries on (no other road the mode may take leaves the node, or the route is the obvious way on and
///   bends by less than 50°), else `turn` with the direction of the turn.
/// - **The same road**: nothing when no other road leaves the node (the road only bends or was split), nor when
///   the route is the obvious way on and bends by less than 50°; otherwise `continue` (the road turns at a
///   junction, or another road leaves nearly as straight).
/// - **Roundabouts**: one `roundabout` step at the entry node, named after the road the route leaves on, with
///   `exit` the number of exits passed plus one; the ring and the road after it, up to the next manoeuvre, belong
///   to that step (OSRM's default, without `roundabout_exits`). A leg ending on the ring gets a `roundabout` step
///   without `exit`; a leg starting on the ring gets an `exit roundabout` step where it leaves.
///
/// A name that changes for less than 100 m and then changes back (no turn either way) is not announced: the two
/// `new name` steps are dropped (OSRM's suppression of short name segments).
///
/// The route is the *obvious way on* when every other road it could take deviates from straight ahead by at least
/// 30° more than the route does (15° more when the route goes straight on, i.e. bends by less than 20°).
/// Directions are measured over the 15 m of road before and after the node (`TurnAngle.bearingWindow`) and
/// classified by `TurnAngle.modifier(forDeviation:)`.
///
/// **Roundabout detection.** The graph does not store `junction=roundabout`; a way counts as a roundabout when
/// its edges form a closed ring (the way ends where it starts, pieces joined end to end), at most 1.5 km
/// round, and it is one-way — for the given profile, or else for any profile of the graph (so a walker going
/// with the traffic of a car roundabout hears about exits too). Only travel in the ring's one-way direction is
/// roundabout travel. Exits are the roads the mode may leave a ring node by (for the given profile: those open
/// in the leaving direction; without a profile: every road there), other than the ring itself.
public enum StepBuilder {
    /// Turn-by-turn steps of one leg travelled along `traversals` (in order, partial first/last edges included),
    /// from `start` to `end`.
    ///
    /// - Parameters:
    ///   - traversals: the edges travelled, in order; traversals without length are folded into their neighbours.
    ///   - graph: the graph the traversals refer to.
    ///   - start: where the leg starts (the `depart` location; its query point gives the side of the road).
    ///   - end: where the leg ends (the `arrive` location; its query point gives "on the left/right").
    ///   - profile: the mode travelled: decides which roads count as choices at junctions and as roundabout
    ///     exits. Nil counts every road of the graph.
    /// - Returns: `depart`, the steps between, `arrive`. Step distances and times add up to the traversals'.
    public static func steps(for traversals: [EdgeTraversal], in graph: RoadGraph, from start: SnappedLocation,
                             to end: SnappedLocation, profile: ProfileGraph? = nil) -> [RouteStep] {
        steps(for: traversals, points: LegPoints(traversals, in: graph), in: graph, from: start, to: end, profile: profile)
    }

    /// `steps(for:in:from:to:profile:)` over the traversals' points already laid out (`Router` lays them out once
    /// for the leg's geometry and its steps).
    /// `tables`, when given (for `profile`), hold one record per edge (the same values, computed once: the bearings
    /// at both ends, the road, the roundabout flow, whether a whole edge has length) and every node's exits with
    /// their bearings, so a whole edge travelled is one record read and a junction one run of its exits.
    static func steps(for traversals: [EdgeTraversal], points: LegPoints, in graph: RoadGraph, from start: SnappedLocation,
                      to end: SnappedLocation, profile: ProfileGraph?, tables: LegTables? = nil) -> [RouteStep] {
        let assembler = StepAssembler(graph: graph, profile: profile, traversals: traversals, points: points,
                                      records: profile == nil ? nil : tables?.records)
        return assembler.steps(from: start, to: end)
    }

    /// How much straighter than every alternative a (slightly) bending route must be to count as the obvious
    /// way on, degrees.
    static let obviousMargin = 30.0
    /// The same for a route going straight on: a road leaving 15° or more off its line is not mistaken for it.
    static let straightObviousMargin = 15.0
    /// Largest circumference of a ring way taken for a roundabout, metres.
    static let roundaboutMaximumLength = 1500.0
    /// A road whose name changes for less than this, metres, and then changes back, is told as one road.
    static let shortNameSegment = 100.0

    /// The manoeuvre at a junction, or nil when there is nothing to announce.
    ///
    /// - Parameters:
    ///   - deviation: change of direction from the incoming to the outgoing road, degrees (negative: left).
    ///   - alternatives: deviations of the other roads the mode could leave the junction by.
    ///   - sameRoad: whether the outgoing road has the incoming road's name and ref.
    ///   - reversal: whether the route goes back along the edge it arrived on.
    static func maneuver(deviation: Double, alternatives: [Double], sameRoad: Bool,
                         reversal: Bool) -> (type: ManeuverType, modifier: ManeuverModifier)? {
        if reversal { return (.uturn, .uturn) }
        if sameRoad && alternatives.isEmpty { return nil }
        let modifier = TurnAngle.modifier(forDeviation: deviation)
        if modifier == .uturn { return (.uturn, .uturn) }
        let margin = modifier == .straight ? straightObviousMargin : obviousMargin
        let obvious = alternatives.allSatisfy { abs($0) - abs(deviation) >= margin }
        let gentle = abs(deviation) < TurnAngle.slightBelow
        if sameRoad { return obvious && gentle ? nil : (.continue, modifier) }
        if alternatives.isEmpty || (obvious && gentle) { return (.newName, modifier) }
        return (.turn, modifier)
    }

    /// Whether way `way` is a roundabout (see the type's documentation), and if so which way its traffic flows:
    /// nil when it is none, `false` when traffic follows the way's node order, `true` when it runs against it.
    static func roundaboutFlow(ofWay way: Int, in graph: RoadGraph, profile: ProfileGraph?) -> Bool? {
        guard let edges = edgeRange(ofWay: way, in: graph) else { return nil }
        return roundaboutFlow(ofEdges: edges, in: graph, profile: profile)
    }

    /// `roundaboutFlow(ofWay:in:profile:)` for the way whose edges are `edges` (all of them, in way order).
    static func roundaboutFlow(ofEdges edges: Range<Int>, in graph: RoadGraph, profile: ProfileGraph?) -> Bool? {
        guard graph.edgeFrom[edges.lowerBound] == graph.edgeTo[edges.upperBound - 1] else { return nil }
        for e in edges.dropLast() where graph.edgeTo[e] != graph.edgeFrom[e + 1] { return nil }
        let millimetres = edges.reduce(0.0) { $0 + Double(graph.edgeLengthMillimetres[$1]) }
        guard millimetres <= roundaboutMaximumLength * 1000 else { return nil }
        for candidate in [profile].compactMap({ $0 }) + graph.profiles {
            if let flow = oneWayFlow(of: edges, in: candidate) { return flow }
        }
        return nil
    }

    /// Whether all `edges` are one-way for `profile`, the same way: `false` forward, `true` backward, nil otherwise.
    private static func oneWayFlow(of edges: Range<Int>, in profile: ProfileGraph) -> Bool? {
        if edges.allSatisfy({ profile.timeForward[$0] != closedEdge && profile.timeBackward[$0] == closedEdge }) { return false }
        if edges.allSatisfy({ profile.timeForward[$0] == closedEdge && profile.timeBackward[$0] != closedEdge }) { return true }
        return nil
    }

    /// The edges of way `way`. The builder stores a way's edges contiguously and in way order, ways one after
    /// the other, so `edgeWay` is sorted and the range is found by binary search.
    static func edgeRange(ofWay way: Int, in graph: RoadGraph) -> Range<Int>? {
        func firstEdge(where beyond: (Int) -> Bool) -> Int {
            var low = 0, high = graph.edgeCount
            while low < high {
                let mid = (low + high) >> 1
                if beyond(Int(graph.edgeWay[mid])) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let lower = firstEdge { $0 >= way }, upper = firstEdge { $0 > way }
        guard lower < upper, Int(graph.edgeWay[lower]) == way, Int(graph.edgeWay[upper - 1]) == way else { return nil }
        return lower..<upper
    }
}

/// The points of a leg's traversals, each as `RoadGraph.coordinates(of:)` gives it, laid out once in one array.
struct LegPoints {
    /// Every traversal's polyline, one after the other.
    var points: [Coordinate] = []
    /// Where traversal k's polyline lies in `points`.
    var ranges: [Range<Int>] = []
    /// With `EdgeRecords`: traversal k's edge record when it travels its whole edge, else `EdgeRecord.none`; in
    /// route order, so the step builder reads them one after the other.
    var records: [EdgeRecord] = []

    /// With `records`, a whole edge's points are copied from its record's run of `EdgeRecords.points` (the same
    /// points, laid out once) instead of read from the graph's node and shape arrays.
    init(_ traversals: [EdgeTraversal], in graph: RoadGraph, records table: EdgeRecords? = nil) {
        points.reserveCapacity(traversals.count * 4 + 4)
        ranges.reserveCapacity(traversals.count)
        if let table {
            // First every record, in a loop of independent loads (their cache misses overlap), then the points.
            records.reserveCapacity(traversals.count)
            for traversal in traversals { records.append(traversal.isWhole ? table.records[traversal.edge] : .none) }
        }
        for (k, traversal) in traversals.enumerated() {
            let start = points.count
            if let table, records[k].isComplete {
                table.appendWholeEdge(records[k], reversed: traversal.reversed, to: &points)
            } else {
                graph.appendCoordinates(of: traversal, to: &points)
            }
            ranges.append(start..<points.count)
        }
    }
}

/// An edge's polyline read in place from the graph (stored direction), for bearings without copying it.
struct EdgePolyline: RandomAccessCollection {
    let fromLatitude, fromLongitude, toLatitude, toLongitude: Int32
    let shapeLatitudes, shapeLongitudes: UnsafeBufferPointer<Int32>
    let first, last: Int

    init(edge e: Int, in graph: RoadGraph) {
        let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
        fromLatitude = graph.nodeLatitudes[from]; fromLongitude = graph.nodeLongitudes[from]
        toLatitude = graph.nodeLatitudes[to]; toLongitude = graph.nodeLongitudes[to]
        shapeLatitudes = graph.shapeLatitudes; shapeLongitudes = graph.shapeLongitudes
        first = Int(graph.edgeShapeStart[e]); last = Int(graph.edgeShapeStart[e + 1])
    }

    var startIndex: Int { 0 }
    var endIndex: Int { last - first + 2 }
    subscript(i: Int) -> Coordinate {
        if i == 0 { return Coordinate(latitudeE7: fromLatitude, longitudeE7: fromLongitude) }
        if first + i - 1 < last { return Coordinate(latitudeE7: shapeLatitudes[first + i - 1], longitudeE7: shapeLongitudes[first + i - 1]) }
        return Coordinate(latitudeE7: toLatitude, longitudeE7: toLongitude)
    }
}

extension StepBuilder {
    /// One traversal of the leg, with where its geometry lies and the road it is on.
    struct Stretch {
        var edge: Int
        var reversed: Bool
        /// Whether it travels its whole edge (0→1 or 1→0): then its points are the edge's polyline in travel order
        /// (less repeated end points), and its bearings are the edge's (`EdgeBearings`).
        var whole: Bool
        /// Its polyline in travel order (at least two distinct points), as a range of the assembler's `points`.
        var points: Range<Int>
        var distance: Double
        var duration: Double
        /// The way's name and ref, as indices into the graph's string table (decoded only for the steps).
        var name: UInt32
        var ref: UInt32
        var way: Int
        /// The graph node the stretch ends at; nil when it ends part-way along its edge, or when `exits` tells its
        /// exits instead.
        var endNode: Int?
        /// With `EdgeRecords`: the exits the mode may take at the node the stretch ends at, as a range of the
        /// assembler's `exits` (empty when it ends part-way along its edge).
        var exits: Range<Int>
        /// Whether it runs along a roundabout, in the direction of the roundabout's traffic.
        var onRoundabout: Bool
    }

    /// What the route does at the node between two consecutive stretches (its other ways out are in the
    /// assembler's scratch arrays, `Alternatives`).
    struct Junction {
        var node: Int?
        var location: Coordinate
        /// Directions of travel arriving at and leaving the node, degrees.
        var bearingIn: Double
        var bearingOut: Double
        /// Change of direction from `bearingIn` to `bearingOut` (negative: left).
        var deviation: Double
    }

    /// The other roads the mode may leave a junction by (neither the edge arrived on nor the one taken), with their
    /// deviation: two plain arrays reused from junction to junction.
    struct Alternatives {
        var edges: [Int] = []
        var deviations: [Double] = []
        mutating func removeAll() { edges.removeAll(keepingCapacity: true); deviations.removeAll(keepingCapacity: true) }
    }

    /// A step as decided at a junction, before its stretch of road is summed up.
    struct PlannedStep {
        var maneuver: ManeuverType
        var modifier: ManeuverModifier?
        var exit: Int?
        /// The first stretch the step covers; it runs until the next step's first stretch.
        var firstStretch: Int
        /// The road the step is named after.
        var road: RoadLabel
        var location: Coordinate
        var bearingBefore: Double
        var bearingAfter: Double
        var instructions: String
    }

    /// The roundabout the route is on while it goes round.
    struct RingState {
        /// The ring's way.
        var way: Int
        /// The planned `roundabout` step, nil when the leg started on the ring.
        var step: Int?
        /// Exits passed so far.
        var passedExits: Int
        /// Direction of travel before entering (for the step's overall modifier).
        var bearingBefore: Double
    }

    /// Does the work of `StepBuilder.steps` for one leg.
    struct StepAssembler {
        let graph: RoadGraph
        let profile: ProfileGraph?
        /// One record per edge and every node's exits for `profile`, when the router has built them (else worked out
        /// from the graph per leg and per junction).
        let records: EdgeRecords?
        /// With `records`: the exits of each stretch's end node the mode may take, gathered in route order (each
        /// stretch's `exits` is its range here).
        let exits: [JunctionExit]
        /// The leg's points (every traversal's polyline); stretches refer to ranges of it.
        let points: [Coordinate]
        /// The traversals with length, in order.
        let stretches: [Stretch]
        /// Distance and time of the traversals when none of them has any length (a zero-length leg).
        let unplacedDistance: Double
        let unplacedDuration: Double

        /// Traversals shorter than this (metres of geometry) are folded into their neighbours.
        static let minimumLength = 1e-3

        /// `records`, when given, are `profile`'s (see the property).
        init(graph: RoadGraph, profile: ProfileGraph?, traversals: [EdgeTraversal], points legPoints: LegPoints,
             records: EdgeRecords? = nil) {
            self.graph = graph
            self.profile = profile
            self.records = records
            points = legPoints.points
            var stretches: [Stretch] = []
            stretches.reserveCapacity(traversals.count)
            var pendingDistance = 0.0, pendingDuration = 0.0
            // Roundabout flow per way, most recent last (consecutive traversals mostly share their way).
            var flows: [(way: Int, flow: Bool?)] = []
            var exits: [JunctionExit] = []
            if records != nil { exits.reserveCapacity(3 * traversals.count) }
            for (k, traversal) in traversals.enumerated() {
                let range = legPoints.ranges[k]
                if let records, traversal.isWhole,
                   let record = legPoints.records.isEmpty ? records.record(traversal.edge) : legPoints.records[k], record.isComplete {
                    let side = traversal.reversed ? 1 : 0
                    guard record.hasLength(side: side) else {
                        pendingDistance += traversal.distance
                        pendingDuration += traversal.duration
                        continue
                    }
                    stretches.append(Stretch(
                        edge: traversal.edge, reversed: traversal.reversed, whole: true, points: range,
                        distance: traversal.distance + pendingDistance, duration: traversal.duration + pendingDuration,
                        name: record.name, ref: record.ref, way: Int(record.way), endNode: nil,
                        exits: Self.gatherExits(records.exits, record.exitsAtEnd(side: side), into: &exits),
                        onRoundabout: record.flow >= 0 && (record.flow == 1) == traversal.reversed))
                    pendingDistance = 0
                    pendingDuration = 0
                    continue
                }
                guard TurnAngle.hasLength(legPoints.points[range], atLeast: Self.minimumLength) else {
                    pendingDistance += traversal.distance
                    pendingDuration += traversal.duration
                    continue
                }
                let way = Int(graph.edgeWay[traversal.edge])
                let flow: Bool?
                if let records {
                    flow = records.records[traversal.edge].flow < 0 ? nil : records.records[traversal.edge].flow == 1
                } else if let known = flows.lastIndex(where: { $0.way == way }) {
                    flow = flows[known].flow
                } else {
                    flow = StepBuilder.roundaboutFlow(ofWay: way, through: traversal.edge, in: graph, profile: profile)
                    flows.append((way, flow))
                }
                let endNode = Self.endNode(of: traversal, in: graph)
                var stretchExits = exits.count..<exits.count
                if let profile, let records, let node = endNode, node + 1 < profile.firstIncidence.count {
                    stretchExits = Self.gatherExits(records.exits, Int(profile.firstIncidence[node])..<Int(profile.firstIncidence[node + 1]),
                                                    into: &exits)
                }
                stretches.append(Stretch(
                    edge: traversal.edge, reversed: traversal.reversed, whole: traversal.isWhole, points: range,
                    distance: traversal.distance + pendingDistance, duration: traversal.duration + pendingDuration,
                    name: graph.wayNames[way], ref: graph.wayRefs[way], way: way,
                    endNode: endNode, exits: stretchExits, onRoundabout: flow == traversal.reversed))
                pendingDistance = 0
                pendingDuration = 0
            }
            if !stretches.isEmpty {
                stretches[stretches.count - 1].distance += pendingDistance
                stretches[stretches.count - 1].duration += pendingDuration
                pendingDistance = 0
                pendingDuration = 0
            }
            self.stretches = stretches
            self.exits = exits
            unplacedDistance = pendingDistance
            unplacedDuration = pendingDuration
        }

        /// Appends the exits of `range` (of the table `all`) the mode may take and that have a bearing, in order; their
        /// range in `exits`.
        @inline(__always) static func gatherExits(_ all: [JunctionExit], _ range: Range<Int>, into exits: inout [JunctionExit]) -> Range<Int> {
            let start = exits.count
            for k in range {
                let exit = all[k]
                if exit.open && !exit.leaving.isNaN { exits.append(exit) }
            }
            return start..<exits.count
        }

        /// The graph node a traversal ends at, nil when it stops part-way along its edge.
        static func endNode(of traversal: EdgeTraversal, in graph: RoadGraph) -> Int? {
            let tolerance = 1e-9
            if traversal.reversed { return traversal.endFraction <= tolerance ? Int(graph.edgeFrom[traversal.edge]) : nil }
            return traversal.endFraction >= 1 - tolerance ? Int(graph.edgeTo[traversal.edge]) : nil
        }

        /// The points of stretch `k`, in travel order.
        @inline(__always) func points(of k: Int) -> ArraySlice<Coordinate> { points[stretches[k].points] }

        /// The road stretch `k` is on, its name and ref decoded.
        func road(of k: Int) -> RoadLabel {
            let stretch = stretches[k]
            return RoadLabel(name: graph.string(stretch.name), ref: graph.string(stretch.ref), highwayClass: graph.highwayClass(ofEdge: stretch.edge))
        }

        /// Whether stretches `j` and `k` are on what a traveller sees as the same road (`RoadLabel.differs`): the same
        /// string-table entries are the same name; other entries are compared as text, and stretch `k`'s road, decoded
        /// for that, is returned too (nil when it was not decoded).
        func sameRoad(_ j: Int, _ k: Int) -> (same: Bool, road: RoadLabel?) {
            let a = stretches[j], b = stretches[k]
            if a.name == b.name && a.ref == b.ref { return (true, nil) }
            let label = road(of: k)
            return (!label.differs(from: road(of: j)), label)
        }

        // MARK: Steps

        /// All steps of the leg: depart, the manoeuvres, arrive.
        func steps(from start: SnappedLocation, to end: SnappedLocation) -> [RouteStep] {
            guard !stretches.isEmpty else { return zeroLengthSteps(from: start, to: end) }
            let planned = plan(from: start)
            var steps: [RouteStep] = []
            steps.reserveCapacity(planned.count + 1)
            for (k, step) in planned.enumerated() {
                let next = k + 1 < planned.count ? planned[k + 1].firstStretch : stretches.count
                steps.append(routeStep(step, covering: step.firstStretch..<next))
            }
            steps.append(arriveStep(at: end))
            return steps
        }

        /// The steps of a leg without length: depart and arrive where it starts and ends.
        private func zeroLengthSteps(from start: SnappedLocation, to end: SnappedLocation) -> [RouteStep] {
            let highwayClass = start.edge >= 0 && start.edge < graph.edgeCount ? graph.highwayClass(ofEdge: start.edge) : .other
            let road = RoadLabel(name: start.name, ref: start.ref, highwayClass: highwayClass)
            let geometry = start.location == end.location ? [start.location, start.location] : [start.location, end.location]
            let depart = RouteStep(maneuver: .depart, name: road.displayName, ref: road.ref, distance: unplacedDistance,
                                   expectedTravelTime: unplacedDuration, location: start.location, bearingBefore: 0, bearingAfter: 0,
                                   instructions: InstructionText.depart(bearing: nil, road: road), geometry: geometry)
            let arrive = RouteStep(maneuver: .arrive, name: road.displayName, ref: road.ref, distance: 0, expectedTravelTime: 0,
                                   location: end.location, bearingBefore: 0, bearingAfter: 0,
                                   instructions: InstructionText.arrive(side: nil), geometry: [end.location, end.location])
            return [depart, arrive]
        }

        /// The steps decided junction by junction, depart first (arrive is not included).
        func plan(from start: SnappedLocation) -> [PlannedStep] {
            var planned = [departStep(at: start)]
            var ring: RingState? = stretches[0].onRoundabout
                ? RingState(way: stretches[0].way, step: nil, passedExits: 0, bearingBefore: planned[0].bearingAfter) : nil
            var alternatives = Alternatives()
            for j in 0..<(stretches.count - 1) {
                let b = stretches[j + 1]
                let junction = junction(after: j, alternatives: &alternatives)
                if var current = ring {
                    if b.onRoundabout && b.way == current.way {
                        for edge in alternatives.edges where Int(graph.edgeWay[edge]) != current.way { current.passedExits += 1 }
                        ring = current
                        continue
                    }
                    leave(current, at: junction, onto: j + 1, planned: &planned)
                    ring = nil
                    if !b.onRoundabout { continue }
                }
                if b.onRoundabout {
                    planned.append(enterStep(at: junction, onto: j + 1))
                    ring = RingState(way: b.way, step: planned.count - 1, passedExits: 0, bearingBefore: junction.bearingIn)
                    continue
                }
                if let step = junctionStep(at: junction, after: j, alternatives: alternatives.deviations) { planned.append(step) }
            }
            return suppressingShortNameSegments(planned)
        }

        /// The planned steps without short name oscillations: where the road's name changes for less than
        /// `StepBuilder.shortNameSegment` metres and then changes back (a bridge or tunnel piece with its own or no
        /// name, say), with no turn either way, the two `new name` steps are dropped and the road is one step.
        func suppressingShortNameSegments(_ planned: [PlannedStep]) -> [PlannedStep] {
            var result: [PlannedStep] = []
            result.reserveCapacity(planned.count)
            var k = 0
            while k < planned.count {
                if let previous = result.last, k + 1 < planned.count, planned[k].maneuver == .newName,
                   planned[k + 1].maneuver == .newName, !planned[k + 1].road.differs(from: previous.road),
                   length(of: planned[k].firstStretch..<planned[k + 1].firstStretch) < StepBuilder.shortNameSegment {
                    k += 2
                    continue
                }
                result.append(planned[k])
                k += 1
            }
            return result
        }

        /// Metres travelled over a range of stretches.
        private func length(of range: Range<Int>) -> Double {
            var total = 0.0
            for k in range { total += stretches[k].distance }
            return total
        }

        /// The `depart` step: at the start, heading along the first stretch.
        private func departStep(at start: SnappedLocation) -> PlannedStep {
            let road = road(of: 0)
            let bearing = TurnAngle.initialBearing(along: points(of: 0))
            let side = bearing.flatMap { TurnAngle.side(of: start.query, from: start.location, travelling: $0) }
            return PlannedStep(maneuver: .depart, modifier: side, exit: nil, firstStretch: 0, road: road,
                               location: start.location, bearingBefore: 0, bearingAfter: bearing ?? 0,
                               instructions: InstructionText.depart(bearing: bearing, road: road))
        }

        /// The step of an ordinary junction (no roundabout involved), or nil when there is nothing to announce.
        private func junctionStep(at junction: Junction, after j: Int, alternatives: [Double]) -> PlannedStep? {
            let a = stretches[j], b = stretches[j + 1]
            let (same, decoded) = sameRoad(j, j + 1)
            let reversal = a.edge == b.edge && a.reversed != b.reversed
            guard let (type, modifier) = StepBuilder.maneuver(deviation: junction.deviation, alternatives: alternatives,
                                                             sameRoad: same, reversal: reversal) else { return nil }
            let road = decoded ?? road(of: j + 1)
            let text: String
            switch type {
            case .uturn: text = InstructionText.uturn(road: road, sameRoad: same)
            case .continue: text = InstructionText.continue(modifier, road: road)
            case .newName: text = InstructionText.newName(modifier, road: road)
            default: text = InstructionText.turn(modifier, road: road)
            }
            return PlannedStep(maneuver: type, modifier: modifier, exit: nil, firstStretch: j + 1, road: road,
                               location: junction.location, bearingBefore: junction.bearingIn, bearingAfter: junction.bearingOut,
                               instructions: text)
        }

        /// The `roundabout` step where the route enters a ring (named after the ring until the exit is known).
        private func enterStep(at junction: Junction, onto index: Int) -> PlannedStep {
            let ring = road(of: index)
            return PlannedStep(maneuver: .roundabout, modifier: TurnAngle.modifier(forDeviation: junction.deviation), exit: nil,
                               firstStretch: index, road: ring, location: junction.location, bearingBefore: junction.bearingIn,
                               bearingAfter: junction.bearingOut, instructions: InstructionText.roundabout(exit: nil, road: ring))
        }

        /// Completes the roundabout step when the route leaves the ring onto stretch `index` (or, for a leg that
        /// started on the ring, adds an `exit roundabout` step).
        private func leave(_ ring: RingState, at junction: Junction, onto index: Int, planned: inout [PlannedStep]) {
            let exit = ring.passedExits + 1
            let road = road(of: index)
            if let k = ring.step {
                planned[k].exit = exit
                planned[k].road = road
                planned[k].modifier = TurnAngle.modifier(forDeviation: TurnAngle.deviation(from: ring.bearingBefore, to: junction.bearingOut))
                planned[k].instructions = InstructionText.roundabout(exit: exit, road: road)
            } else {
                planned.append(PlannedStep(maneuver: .exitRoundabout, modifier: TurnAngle.modifier(forDeviation: junction.deviation),
                                           exit: exit, firstStretch: index, road: road, location: junction.location,
                                           bearingBefore: junction.bearingIn, bearingAfter: junction.bearingOut,
                                           instructions: InstructionText.exitRoundabout(exit: exit, road: road)))
            }
        }

        /// The `arrive` step: no length, on the last road, with the side of the road the destination lies on.
        private func arriveStep(at end: SnappedLocation) -> RouteStep {
            let last = stretches.count - 1
            let road = road(of: last)
            let bearing = TurnAngle.finalBearing(along: points(of: last))
            let side = bearing.flatMap { TurnAngle.side(of: end.query, from: end.location, travelling: $0) }
            return RouteStep(maneuver: .arrive, modifier: side, name: road.displayName, ref: road.ref,
                             distance: 0, expectedTravelTime: 0, location: end.location,
                             bearingBefore: bearing.map(TurnAngle.wholeDegrees) ?? 0, bearingAfter: 0,
                             instructions: InstructionText.arrive(side: side), geometry: [end.location, end.location])
        }

        /// A planned step with the distance, time and geometry of the stretches it covers.
        private func routeStep(_ step: PlannedStep, covering range: Range<Int>) -> RouteStep {
            var distance = 0.0, duration = 0.0
            var geometry: [Coordinate] = []
            if let first = range.first, let last = range.last {
                geometry.reserveCapacity(stretches[last].points.upperBound - stretches[first].points.lowerBound)
            }
            for k in range {
                let stretch = stretches[k]
                distance += stretch.distance
                duration += stretch.duration
                for i in stretch.points where geometry.last != points[i] { geometry.append(points[i]) }
            }
            if geometry.isEmpty { geometry = [step.location] }
            if geometry.count == 1 { geometry.append(geometry[0]) }
            return RouteStep(maneuver: step.maneuver, modifier: step.modifier, exit: step.exit, name: step.road.displayName,
                             ref: step.road.ref, distance: distance, expectedTravelTime: duration, location: step.location,
                             bearingBefore: step.maneuver == .depart ? 0 : TurnAngle.wholeDegrees(step.bearingBefore),
                             bearingAfter: TurnAngle.wholeDegrees(step.bearingAfter), instructions: step.instructions, geometry: geometry)
        }

        // MARK: Junctions

        /// The node between stretch `j` and the next: directions in and out; the other ways out go to `alternatives`.
        func junction(after j: Int, alternatives: inout Alternatives) -> Junction {
            let a = stretches[j], b = stretches[j + 1]
            let bearingIn: Double, bearingOut: Double
            if let records, a.whole, let record = records.record(a.edge) {
                bearingIn = record.finalBearing(side: a.reversed ? 1 : 0) ?? 0
            } else {
                bearingIn = TurnAngle.finalBearing(along: points(of: j)) ?? 0
            }
            if let records, b.whole, let record = records.record(b.edge) {
                bearingOut = record.initialBearing(side: b.reversed ? 1 : 0) ?? bearingIn
            } else {
                bearingOut = TurnAngle.initialBearing(along: points(of: j + 1)) ?? bearingIn
            }
            alternatives.removeAll()
            if records != nil {
                for k in a.exits {
                    let exit = exits[k]
                    let edge = Int(exit.edge)
                    guard edge != a.edge, edge != b.edge else { continue }
                    alternatives.edges.append(edge)
                    alternatives.deviations.append(TurnAngle.deviation(from: bearingIn, to: exit.leaving))
                }
            } else if let node = a.endNode {
                forEachExit(at: node) { edge, side in
                    guard edge != a.edge && edge != b.edge else { return }
                    let stored = EdgePolyline(edge: edge, in: graph)
                    let bearing = side == 0 ? TurnAngle.initialBearing(along: stored) : TurnAngle.initialBearing(along: stored.reversed())
                    if let bearing {
                        alternatives.edges.append(edge)
                        alternatives.deviations.append(TurnAngle.deviation(from: bearingIn, to: bearing))
                    }
                }
            }
            return Junction(node: a.endNode, location: points[b.points.lowerBound], bearingIn: bearingIn, bearingOut: bearingOut,
                            deviation: TurnAngle.deviation(from: bearingIn, to: bearingOut))
        }

        /// Calls `body(edge, side)` for each edge the mode may leave `node` by, in the order of `exits(at:)`.
        @inline(__always) func forEachExit(at node: Int, _ body: (Int, Int) -> Void) {
            if let profile {
                guard node + 1 < profile.firstIncidence.count else { return }
                for k in Int(profile.firstIncidence[node])..<Int(profile.firstIncidence[node + 1]) {
                    let entry = profile.incidence[k]
                    let edge = Int(entry >> 1), side = Int(entry & 1)
                    let time = side == 0 ? profile.timeForward[edge] : profile.timeBackward[edge]
                    if time != closedEdge { body(edge, side) }
                }
                return
            }
            for (edge, side) in exits(at: node) { body(edge, side) }
        }

        /// The edges the mode may leave `node` by, as (edge, side) with side 0 where the node is the edge's `from`:
        /// for a profile, its edges open in the leaving direction; without one, every edge of any profile.
        func exits(at node: Int) -> [(edge: Int, side: Int)] {
            if let profile {
                return incidence(of: node, in: profile).compactMap { entry in
                    let edge = Int(entry >> 1), side = Int(entry & 1)
                    let time = side == 0 ? profile.timeForward[edge] : profile.timeBackward[edge]
                    return time == closedEdge ? nil : (edge, side)
                }
            }
            var entries = Set<UInt32>()
            for candidate in graph.profiles { entries.formUnion(incidence(of: node, in: candidate)) }
            return entries.sorted().map { (Int($0 >> 1), Int($0 & 1)) }
        }

        /// Profile `profile`'s incidence entries (`edge << 1 | side`) at `node`.
        private func incidence(of node: Int, in profile: ProfileGraph) -> ArraySlice<UInt32> {
            guard node + 1 < profile.firstIncidence.count else { return [] }
            let range = Int(profile.firstIncidence[node])..<Int(profile.firstIncidence[node + 1])
            return ArraySlice(profile.incidence[range])
        }
    }
}
