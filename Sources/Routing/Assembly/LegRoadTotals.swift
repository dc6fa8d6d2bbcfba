import Graph

/// The roads of one leg with the metres travelled on each, named as the leg's steps name them (`RouteStep.name`:
/// the name, or the ref without one; unnamed roads left out), in the order the steps first name them, and each
/// road's total the sum of its steps' distances: what a summary of the leg needs, found from the path alone.
public struct LegRoadTotals: Equatable, Sendable {
    public var names: [String]
    public var distances: [Double]

    /// Totals from their parts (`names[i]` travelled for `distances[i]` metres).
    public init(names: [String], distances: [Double]) { self.names = names; self.distances = distances }

    /// The totals of a leg travelled along `traversals`, as `StepBuilder` would attribute the leg's metres to its
    /// steps (a roundabout entered and left counts to the road it is left by, as its `roundabout` step is named after
    /// that road), or nil when that cannot be told without laying out the steps: one ring straight after another, a road change of under
    /// `StepBuilder.shortNameSegment` metres between two stretches of one road (its two steps are dropped when they
    /// are `new name`, which depends on the junctions' geometry), a traversal of nearly no length (folded into its
    /// neighbour by the steps, measured on geometry), or a leg without length.
    static func of(_ traversals: [EdgeTraversal], in graph: RoadGraph, profile: ProfileGraph?) -> LegRoadTotals? {
        // Runs of one road (as `StepAssembler.sameRoad` tells), each with its metres.
        var runs: [(name: UInt32, ref: UInt32, distance: Double)] = []
        var pending = 0.0
        var flows: [(way: Int, flow: Bool?)] = []
        var ringWay: Int? = nil, startedOnRing = false
        // The metres of a ring entered (not started on), held for the road it is left by, and the ring's name.
        var held = 0.0, heldRoad: (name: UInt32, ref: UInt32)? = nil
        for traversal in traversals {
            // Nearly no length: the steps fold it into the next stretch when its geometry is under a millimetre.
            if traversal.distance < 1e-4 { pending += traversal.distance; continue }
            if traversal.distance < 1e-2 { return nil }
            let way = Int(graph.edgeWay[traversal.edge])
            let flow: Bool?
            if let known = flows.lastIndex(where: { $0.way == way }) {
                flow = flows[known].flow
            } else {
                flow = StepBuilder.roundaboutFlow(ofWay: way, through: traversal.edge, in: graph, profile: profile)
                flows.append((way, flow))
            }
            let onRing = flow == traversal.reversed
            let name = graph.wayNames[way], ref = graph.wayRefs[way]
            var distance = traversal.distance + pending
            pending = 0
            if onRing {
                // On a ring: a leg starting on it names it in its depart step; one entered is told in a roundabout
                // step named after the road it is left by (or after the ring, when the leg ends on it).
                if runs.isEmpty && ringWay == nil { startedOnRing = true }
                if ringWay != nil && ringWay != way { return nil }
                ringWay = way
                if !startedOnRing { held += distance; heldRoad = (name, ref); continue }
            } else if ringWay != nil {
                distance += held
                held = 0; heldRoad = nil
                ringWay = nil; startedOnRing = false
            }
            if let last = runs.last, sameRoad(last.name, last.ref, name, ref, in: graph) {
                runs[runs.count - 1].distance += distance
            } else {
                runs.append((name, ref, distance))
            }
        }
        // A ring entered and not left ends the leg: its roundabout step is named after the ring.
        if let ring = heldRoad {
            if let last = runs.last, sameRoad(last.name, last.ref, ring.name, ring.ref, in: graph) {
                runs[runs.count - 1].distance += held
            } else {
                runs.append((ring.name, ring.ref, held))
            }
        }
        guard !runs.isEmpty else { return nil }
        runs[runs.count - 1].distance += pending
        // Short road changes between two runs of one road may be dropped by the steps.
        if runs.count >= 3 {
            for k in 1..<(runs.count - 1) where runs[k].distance < StepBuilder.shortNameSegment {
                if sameRoad(runs[k - 1].name, runs[k - 1].ref, runs[k + 1].name, runs[k + 1].ref, in: graph) { return nil }
            }
        }
        var totals = LegRoadTotals(names: [], distances: [])
        for run in runs {
            let name = graph.string(run.name), ref = graph.string(run.ref)
            let shown = name.isEmpty ? ref : name
            guard !shown.isEmpty else { continue }
            if let i = totals.names.firstIndex(of: shown) { totals.distances[i] += run.distance } else {
                totals.names.append(shown); totals.distances.append(run.distance)
            }
        }
        return totals
    }

    /// `StepAssembler.sameRoad` on string-table entries: the same entries, or texts no traveller tells apart.
    private static func sameRoad(_ nameA: UInt32, _ refA: UInt32, _ nameB: UInt32, _ refB: UInt32, in graph: RoadGraph) -> Bool {
        if nameA == nameB && refA == refB { return true }
        let a = StepBuilder.RoadLabel(name: graph.string(nameA), ref: graph.string(refA), highwayClass: .other)
        let b = StepBuilder.RoadLabel(name: graph.string(nameB), ref: graph.string(refB), highwayClass: .other)
        return !a.differs(from: b)
    }
}

extension StepBuilder {
    /// `roundaboutFlow(ofWay:in:profile:)` for the way of `edge`, answering nil at once when `edge` is open both ways
    /// in every profile the test looks at (a ring is one-way for one of them): most ways, saved the search for their edges.
    static func roundaboutFlow(ofWay way: Int, through edge: Int, in graph: RoadGraph, profile: ProfileGraph?) -> Bool? {
        var oneWaySomewhere = false
        if let profile { oneWaySomewhere = profile.timeForward[edge] == closedEdge || profile.timeBackward[edge] == closedEdge }
        for candidate in graph.profiles where !oneWaySomewhere {
            oneWaySomewhere = candidate.timeForward[edge] == closedEdge || candidate.timeBackward[edge] == closedEdge
        }
        return oneWaySomewhere ? roundaboutFlow(ofWay: way, in: graph, profile: profile) : nil
    }
}
