import Graph
import Synchronization

/// Snaps coordinates to the road network of one profile, as `docs/profiles.md` says: the nearest point of the
/// nearest segment the mode may use, found through the graph file's spatial index.
///
/// The nearest road always comes first. Only when a leg between the nearest roads of its two stops finds no route
/// is it searched again with each stop whose nearest road lies on a small island (see `docs/graph-format.md`)
/// moved to the nearest road of the main network, when that lies within `islandTolerance` metres more
/// (`offIsland(_:maxDistance:)`, `SnappedStop`).
public struct Snapper: Sendable {
    public let graph: RoadGraph
    public let profile: ProfileGraph
    /// Extra metres a main-network road may lie beyond an island road for a stop to move there when a leg finds no route.
    public var islandTolerance: Double = 50
    /// A finer spatial index over the roads the profile may use, walked instead of the file's once enough snaps asked.
    let snapIndexTable = LazySnapIndex()

    public init(graph: RoadGraph, profile: ProfileGraph) {
        self.graph = graph
        self.profile = profile
    }

    /// The profile's `SnapIndex`, once `LazySnapIndex.snapsBeforeIndex` snaps have asked for it (nil before: a
    /// process that snaps a few stops does not pay for it).
    @inline(__always) var snapIndex: SnapIndex? {
        let forward = profile.timeForward, backward = profile.timeBackward
        return snapIndexTable.index(for: graph, keeping: { forward[$0] != closedEdge || backward[$0] != closedEdge })
    }


    /// Whether the profile may use edge e in at least one direction.
    @inline(__always) public func isUsable(_ e: Int) -> Bool {
        profile.timeForward[e] != closedEdge || profile.timeBackward[e] != closedEdge
    }

    /// Whether edge e belongs to the main network: an end of it is on the main network, and no end is on an island
    /// (an end closed by a barrier does not count).
    public func isOnMainNetwork(_ e: Int) -> Bool {
        let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
        var main = false
        if profile.island[from] == 0 { main = true } else if !profile.isBlocked(graph.nodeFlags[from]) { return false }
        if profile.island[to] == 0 { main = true } else if !profile.isBlocked(graph.nodeFlags[to]) { return false }
        return main
    }

    /// The snapped location of `coordinate` on its nearest road, or nil when no usable road lies within `maxDistance` metres.
    public func snap(_ coordinate: Coordinate, maxDistance: Double = 1000) -> SnappedLocation? {
        // `isUsable` over the profile's two arrays alone (a closure over the snapper would copy it per call).
        let forward = profile.timeForward, backward = profile.timeBackward
        let nearest = graph.nearestSegments(latitude: coordinate.latitude, longitude: coordinate.longitude,
                                            count: 1, maxDistance: maxDistance, snapIndex: snapIndex,
                                            filter: { forward[$0] != closedEdge || backward[$0] != closedEdge })
        return nearest.first.map { location(of: $0, query: coordinate) }
    }

    /// Where a stop snapped to `nearest` moves when a leg from or to it finds no route: the nearest road of the main
    /// network, when `nearest` lies on a small island and that road is at most `islandTolerance` metres farther (and
    /// within `maxDistance`); nil otherwise.
    public func offIsland(_ nearest: SnappedLocation, maxDistance: Double = 1000) -> SnappedLocation? {
        guard !isOnMainNetwork(nearest.edge) else { return nil }
        let limit = min(maxDistance, nearest.distance + islandTolerance)
        let coordinate = nearest.query
        return graph.nearestSegments(latitude: coordinate.latitude, longitude: coordinate.longitude, count: 1, maxDistance: limit, snapIndex: snapIndex,
                                     filter: { isUsable($0) && isOnMainNetwork($0) }).first.map { location(of: $0, query: coordinate) }
    }

    /// A stop snapped: its nearest road, and where it moves off a small island should a leg need it; nil when no
    /// usable road lies within `maxDistance` metres.
    public func snapStop(_ coordinate: Coordinate, maxDistance: Double = 1000) -> SnappedStop? {
        guard let nearest = snap(coordinate, maxDistance: maxDistance) else { return nil }
        return SnappedStop(nearest: nearest, offIsland: offIsland(nearest, maxDistance: maxDistance))
    }

    /// Turns a spatial-index candidate into a snapped location (fraction along the edge by length).
    public func location(of candidate: SnapCandidate, query: Coordinate) -> SnappedLocation {
        let e = candidate.edge
        // The cumulative distances of `cumulativeDistances(ofEdge:)` at the candidate's segment and at the end, summed
        // the same way, without the array.
        let first = Int(graph.edgeShapeStart[e]), last = Int(graph.edgeShapeStart[e + 1])
        let count = last - first + 2
        var total = 0.0, atSegment = 0.0, atSegmentEnd = 0.0
        var previous = graph.polylinePoint(ofEdge: e, 0, shapeStart: first, shapeEnd: last)
        for i in 1..<count {
            let point = graph.polylinePoint(ofEdge: e, i, shapeStart: first, shapeEnd: last)
            total = total + Geo.distance(lat1: previous.latitude, lon1: previous.longitude, lat2: point.latitude, lon2: point.longitude)
            if i == candidate.segment { atSegment = total }
            if i == candidate.segment + 1 { atSegmentEnd = total }
            previous = point
        }
        var fraction: Double
        if candidate.segment == 0 && candidate.segmentFraction <= 0 {
            fraction = 0
        } else if candidate.segment == count - 2 && candidate.segmentFraction >= 1 {
            fraction = 1
        } else {
            let along = atSegment + candidate.segmentFraction * (atSegmentEnd - atSegment)
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

/// A stop as snapped for routing: its nearest road, which every leg tries first, and where it moves when a leg from
/// or to it finds no route between the nearest roads (set only when the nearest road lies on a small island and a
/// road of the main network lies within the tolerance, and the snapping limit).
public struct SnappedStop: Equatable, Sendable {
    public var nearest: SnappedLocation
    public var offIsland: SnappedLocation?

    public init(nearest: SnappedLocation, offIsland: SnappedLocation? = nil) {
        self.nearest = nearest
        self.offIsland = offIsland
    }
}

/// A `Snapper`'s `SnapIndex` over the roads its profile may use (every filter a snapper passes keeps only such
/// roads), built on the `snapsBeforeIndex`-th snap (a few milliseconds on a city, the price of some hundred snaps
/// over the file's index) and shared by every copy of the snapper and every thread.
final class LazySnapIndex: Sendable {
    /// Snaps answered over the file's index before the snapper's own is built.
    static let snapsBeforeIndex = 32
    private let built = BuiltAfterUses<SnapIndex>()

    /// The index of `graph`'s edges that pass `keep`, once it has been asked for often enough, else nil.
    func index(for graph: RoadGraph, keeping keep: (Int) -> Bool) -> SnapIndex? {
        built.value(after: Self.snapsBeforeIndex) { SnapIndex(graph: graph, keeping: keep) }
    }
}
