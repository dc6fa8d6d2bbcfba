import Foundation
import Graph
import Routing

/// A road segment near a point (OSRM's `nearest`): where the point meets it, and the OSM nodes at the ends of its edge.
public struct NearbyRoad: Equatable, Sendable {
    /// The point as snapped to this road (query, location, distance, road name).
    public var waypoint: Waypoint
    /// The OSM ids of the nodes at the two ends of the graph edge the road lies on.
    public var osmNodeIDs: (Int64, Int64)
    /// The OSM id of the way the road belongs to.
    public var osmWayID: Int64
    /// The way's `highway` value as OSM spells it (`residential`, `primary`…).
    public var roadClass: String

    public static func == (a: NearbyRoad, b: NearbyRoad) -> Bool {
        a.waypoint == b.waypoint && a.osmNodeIDs == b.osmNodeIDs && a.osmWayID == b.osmWayID && a.roadClass == b.roadClass
    }
}

/// A road drawn on a map: its importance and its line.
public struct MapRoad: Equatable, Sendable {
    /// 0 motorways, trunks and primaries; 1 secondaries and tertiaries; 2 residential and other streets; 3 service
    /// roads, tracks and paths.
    public var tier: Int
    /// The road's points in travel order of its edge.
    public var coordinates: [Coordinate]
}

/// Per-segment figures of a leg: between consecutive points of its geometry, metres and seconds.
public struct LegSegments: Equatable, Sendable {
    public var distances: [Double]
    public var durations: [Double]
}

extension OfflineMap {
    /// Up to `count` roads `transportType` may use within `maximumDistance` metres of `coordinate`, nearest first,
    /// one per graph edge.
    public func nearestRoads(to coordinate: Coordinate, transportType: TransportType = .automobile, count: Int = 1,
                             maximumDistance: Double = 1000) throws(DirectionsError) -> [NearbyRoad] {
        let router = try router(for: transportType == .transit ? .walking : transportType)
        let snapper = router.snapper
        // Several segments of one edge may come first: ask for more and keep the nearest per edge.
        let candidates = graph.nearestSegments(latitude: coordinate.latitude, longitude: coordinate.longitude, count: count * 8,
                                               maxDistance: maximumDistance, filter: snapper.isUsable)
        var seen = Set<Int>(), result: [NearbyRoad] = []
        for candidate in candidates where result.count < count && !seen.contains(candidate.edge) {
            seen.insert(candidate.edge)
            let s = snapper.location(of: candidate, query: coordinate)
            let waypoint = Waypoint(query: s.query, location: s.location, snappingDistance: s.distance, name: s.name.isEmpty ? s.ref : s.name)
            let way = Int(graph.edgeWay[candidate.edge])
            result.append(NearbyRoad(waypoint: waypoint, osmNodeIDs: (graph.nodeOSMIDs[Int(graph.edgeFrom[candidate.edge])],
                                                                       graph.nodeOSMIDs[Int(graph.edgeTo[candidate.edge])]),
                                     osmWayID: graph.wayOSMIDs[way], roadClass: HighwayClass(rawValue: graph.wayClasses[way])?.osmValue ?? "road"))
        }
        return result
    }

    /// The importance tier of a highway class (see `MapRoad.tier`).
    static func tier(_ c: HighwayClass) -> Int {
        switch c {
        case .motorway, .motorwayLink, .trunk, .trunkLink, .primary, .primaryLink: return 0
        case .secondary, .secondaryLink, .tertiary, .tertiaryLink: return 1
        case .unclassified, .residential, .livingStreet, .pedestrian, .other: return 2
        default: return 3
        }
    }

    /// The roads of tier `maximumTier` or below whose line meets `box`, at most `limit` of them (edge order of the
    /// file); `truncated` says whether more were left out.
    public func roads(in box: BoundingBox, maximumTier: Int = 3, limit: Int = .max) -> (roads: [MapRoad], truncated: Bool) {
        let query = (Geo.units(max(-90, box.minLatitude)), Geo.units(max(-180, box.minLongitude)),
                     Geo.units(min(90, box.maxLatitude)), Geo.units(min(180, box.maxLongitude)))
        var edges = edgesIntersecting(query)
        edges.sort()
        var roads: [MapRoad] = []
        var previous = -1
        for e in edges where e != previous {
            previous = e
            let tier = Self.tier(HighwayClass(rawValue: graph.wayClasses[Int(graph.edgeWay[e])]) ?? .other)
            guard tier <= maximumTier else { continue }
            // The index's leaf boxes hold 16 runs each: keep only edges whose own box meets the query's.
            let points = graph.coordinates(ofEdge: e)
            guard let edgeBox = BoundingBox(points), edgeBox.maxLatitude >= box.minLatitude, edgeBox.minLatitude <= box.maxLatitude,
                  edgeBox.maxLongitude >= box.minLongitude, edgeBox.minLongitude <= box.maxLongitude else { continue }
            if roads.count >= limit { return (roads, true) }
            roads.append(MapRoad(tier: tier, coordinates: points))
        }
        return (roads, false)
    }

    /// Edges with a segment run whose box meets `box` (latitude/longitude in 1e-7 degrees: min lat, min lon, max
    /// lat, max lon), from the spatial index; an edge may appear more than once.
    func edgesIntersecting(_ box: (Int32, Int32, Int32, Int32)) -> [Int] {
        let index = graph.spatialIndex
        guard index.levelCount > 0 else { return [] }
        let n = SpatialIndexData.nodeSize
        func meets(_ b: Int) -> Bool {
            !(index.boxes[4 * b + 2] < box.0 || index.boxes[4 * b] > box.2 || index.boxes[4 * b + 3] < box.1 || index.boxes[4 * b + 1] > box.3)
        }
        var result: [Int] = []
        let top = index.levelCount - 1
        var stack: [(level: Int, box: Int)] = []
        for b in Int(index.levelStart[top])..<Int(index.levelStart[top + 1]) where meets(b) { stack.append((top, b - Int(index.levelStart[top]))) }
        while let (level, b) = stack.popLast() {
            if level == 0 {
                for i in (b * n)..<min(index.items.count, b * n + n) { result.append(graph.edge(ofSegment: index.items[i]).edge) }
            } else {
                let base = Int(index.levelStart[level - 1]), count = Int(index.levelStart[level]) - base
                for child in (b * n)..<min(count, b * n + n) where meets(base + child) { stack.append((level - 1, child)) }
            }
        }
        return result
    }

    /// The leg's figures per segment of its geometry (OSRM's annotations): each traversal's time spread over its
    /// segments by length.
    public func segments(of leg: RouteLeg) -> LegSegments {
        var durations: [Double] = [], distances: [Double] = []
        var last: Coordinate? = nil
        for traversal in leg.traversals {
            let points = graph.coordinates(of: traversal)
            var lengths: [Double] = []
            var previous = last
            for p in points {
                if let q = previous, q != p { lengths.append(q.distance(to: p)) }
                if previous != p { previous = p }
            }
            last = previous
            let total = lengths.reduce(0, +)
            for length in lengths {
                distances.append(length)
                durations.append(total > 0 ? traversal.duration * length / total : 0)
            }
        }
        return LegSegments(distances: distances, durations: durations)
    }
}
