import Graph

/// Snaps coordinates to the road network of one profile, as `docs/profiles.md` says: the nearest point of the
/// nearest segment the mode may use, found through the graph file's spatial index.
///
/// A stop is not stranded on a small island of road (see `docs/graph-format.md`) when a road of the main
/// network is nearly as close: within `islandTolerance` metres more, the main network wins.
public struct Snapper: Sendable {
    public let graph: RoadGraph
    public let profile: ProfileGraph
    /// Extra metres a main-network road may lie beyond an island road and still be preferred.
    public var islandTolerance: Double = 50

    public init(graph: RoadGraph, profile: ProfileGraph) {
        self.graph = graph
        self.profile = profile
    }

    /// Whether the profile may use edge e in at least one direction.
    @inline(__always) public func isUsable(_ e: Int) -> Bool {
        profile.timeForward[e] != closedEdge || profile.timeBackward[e] != closedEdge
    }

    /// Whether edge e belongs to the main network: an end of it is on the main network, and no end is on an island
    /// (an end closed by a barrier does not count).
    public func isOnMainNetwork(_ e: Int) -> Bool {
        let ends = [Int(graph.edgeFrom[e]), Int(graph.edgeTo[e])]
        var main = false
        for n in ends {
            if profile.island[n] == 0 { main = true } else if !profile.isBlocked(graph.nodeFlags[n]) { return false }
        }
        return main
    }

    /// The snapped location of `coordinate`, or nil when no usable road lies within `maxDistance` metres.
    public func snap(_ coordinate: Coordinate, maxDistance: Double = 1000) -> SnappedLocation? {
        let nearest = graph.nearestSegments(latitude: coordinate.latitude, longitude: coordinate.longitude,
                                            count: 1, maxDistance: maxDistance, filter: isUsable)
        guard var best = nearest.first else { return nil }
        if !isOnMainNetwork(best.edge) {
            let limit = min(maxDistance, best.distance + islandTolerance)
            if let main = graph.nearestSegments(latitude: coordinate.latitude, longitude: coordinate.longitude, count: 1,
                                                maxDistance: limit, filter: { isUsable($0) && isOnMainNetwork($0) }).first {
                best = main
            }
        }
        return location(of: best, query: coordinate)
    }

    /// Turns a spatial-index candidate into a snapped location (fraction along the edge by length).
    public func location(of candidate: SnapCandidate, query: Coordinate) -> SnappedLocation {
        let e = candidate.edge
        let cumulative = graph.cumulativeDistances(ofEdge: e)
        let total = cumulative[cumulative.count - 1]
        var fraction: Double
        if candidate.segment == 0 && candidate.segmentFraction <= 0 {
            fraction = 0
        } else if candidate.segment == cumulative.count - 2 && candidate.segmentFraction >= 1 {
            fraction = 1
        } else {
            let along = cumulative[candidate.segment] + candidate.segmentFraction * (cumulative[candidate.segment + 1] - cumulative[candidate.segment])
            fraction = total > 0 ? min(1, max(0, along / total)) : 0
        }
        let label = graph.label(ofEdge: e)
        let point: Coordinate
        if fraction == 0 {
            let n = Int(graph.edgeFrom[e])
            point = Coordinate(latitudeE7: graph.nodeLatitudes[n], longitudeE7: graph.nodeLongitudes[n])
        } else if fraction == 1 {
            let n = Int(graph.edgeTo[e])
            point = Coordinate(latitudeE7: graph.nodeLatitudes[n], longitudeE7: graph.nodeLongitudes[n])
        } else {
            point = Coordinate(latitude: candidate.latitude, longitude: candidate.longitude)
        }
        return SnappedLocation(query: query, location: point, distance: query.distance(to: point), edge: e, fraction: fraction,
                               segment: candidate.segment, segmentFraction: candidate.segmentFraction,
                               name: label.name, ref: label.ref)
    }
}
