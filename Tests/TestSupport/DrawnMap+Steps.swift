import Foundation
import Graph
import Routing

/// Edge traversals and steps built by hand on a drawn map, for the step builder's tests.
extension DrawnMap {
    /// The traversal of the edge drawn by `path`, from its first letter towards its last, between the fractions
    /// `from` and `to` of its length (measured from the first letter), with the profile's time in that direction.
    public func traversal(_ path: String, profile name: String = "car", from: Double = 0, to: Double = 1) -> EdgeTraversal {
        guard let (e, backwards) = edge(path) else { preconditionFailure("no edge \(path) in the map") }
        let profile = profile(name)
        let milliseconds = backwards ? profile.timeBackward[e] : profile.timeForward[e]
        precondition(milliseconds != closedEdge, "\(path) is closed to \(name)")
        let share = to - from
        let length = Double(graph.edgeLengthMillimetres[e]) / 1000
        return EdgeTraversal(edge: e, reversed: backwards,
                             startFraction: backwards ? 1 - from : from, endFraction: backwards ? 1 - to : to,
                             distance: length * share, duration: Double(milliseconds) / 1000 * share)
    }

    /// Whole-edge traversals along the edges drawn by `paths`, in order.
    public func traversals(_ paths: [String], profile: String = "car") -> [EdgeTraversal] {
        paths.map { traversal($0, profile: profile) }
    }

    /// Where a traversal starts (`atEnd` false) or ends, as a snapped location whose query point lies `north` and
    /// `east` metres off the road.
    public func snapped(_ traversal: EdgeTraversal, atEnd: Bool, north: Double = 0, east: Double = 0) -> SnappedLocation {
        let points = graph.coordinates(of: traversal)
        let location = atEnd ? points[points.count - 1] : points[0]
        let query = Self.offset(location, north: north, east: east)
        let label = graph.label(ofEdge: traversal.edge)
        return SnappedLocation(query: query, location: location, distance: location.distance(to: query), edge: traversal.edge,
                               fraction: atEnd ? traversal.endFraction : traversal.startFraction, segment: 0, segmentFraction: 0,
                               name: label.name, ref: label.ref)
    }

    /// The steps of a leg along `traversals`, from the start of the first to the end of the last.
    public func steps(_ traversals: [EdgeTraversal], profile: String? = "car", endNorth: Double = 0, endEast: Double = 0) -> [RouteStep] {
        let start = snapped(traversals[0], atEnd: false)
        let end = snapped(traversals[traversals.count - 1], atEnd: true, north: endNorth, east: endEast)
        return StepBuilder.steps(for: traversals, in: graph, from: start, to: end, profile: profile.flatMap { graph.profile(named: $0) })
    }
}
