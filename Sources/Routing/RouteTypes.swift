import Foundation
import Graph

/// The smallest latitude/longitude box around a set of points.
public struct BoundingBox: Equatable, Sendable, Codable {
    public var minLatitude: Double
    public var minLongitude: Double
    public var maxLatitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude; self.minLongitude = minLongitude
        self.maxLatitude = maxLatitude; self.maxLongitude = maxLongitude
    }

    /// The box around `points`; nil when there are none.
    public init?(_ points: [Coordinate]) {
        guard let first = points.first else { return nil }
        var box = BoundingBox(minLatitude: first.latitude, minLongitude: first.longitude, maxLatitude: first.latitude, maxLongitude: first.longitude)
        for p in points.dropFirst() { box.include(p) }
        self = box
    }

    /// Grows the box to contain `point`.
    public mutating func include(_ point: Coordinate) {
        minLatitude = min(minLatitude, point.latitude); maxLatitude = max(maxLatitude, point.latitude)
        minLongitude = min(minLongitude, point.longitude); maxLongitude = max(maxLongitude, point.longitude)
    }

    /// The union of two boxes.
    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(minLatitude: min(minLatitude, other.minLatitude), minLongitude: min(minLongitude, other.minLongitude),
                    maxLatitude: max(maxLatitude, other.maxLatitude), maxLongitude: max(maxLongitude, other.maxLongitude))
    }

    /// The region a map view should show to fit the box: grown by `fraction` of its size on every side
    /// (and by at least `minimumMetres`), as map apps pad a route so it does not touch the screen's edges.
    public func padded(by fraction: Double = 0.1, minimumMetres: Double = 50) -> BoundingBox {
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let centreLatitude = (minLatitude + maxLatitude) / 2
        let minLat = minimumMetres / metresPerDegree
        let minLon = minimumMetres / (metresPerDegree * max(0.01, cos(centreLatitude * Double.pi / 180)))
        let dLat = max((maxLatitude - minLatitude) * fraction, minLat)
        let dLon = max((maxLongitude - minLongitude) * fraction, minLon)
        return BoundingBox(minLatitude: max(-90, minLatitude - dLat), minLongitude: max(-180, minLongitude - dLon),
                           maxLatitude: min(90, maxLatitude + dLat), maxLongitude: min(180, maxLongitude + dLon))
    }
}

/// Where a query coordinate meets the road network: the nearest point of the nearest segment the mode may use.
public struct SnappedLocation: Equatable, Sendable {
    /// The coordinate as asked.
    public var query: Coordinate
    /// The point on the road it snapped to.
    public var location: Coordinate
    /// Distance from `query` to `location`, metres.
    public var distance: Double
    /// The edge it lies on, and how far along it (0 at `edgeFrom`, 1 at `edgeTo`), as a fraction of its length.
    public var edge: Int
    public var fraction: Double
    /// The segment of the edge's polyline holding the point, and where on it (0 at its start, 1 at its end).
    public var segment: Int
    public var segmentFraction: Double
    /// The road's name and ref, for waypoint labels.
    public var name: String
    public var ref: String

    public init(query: Coordinate, location: Coordinate, distance: Double, edge: Int, fraction: Double,
                segment: Int, segmentFraction: Double, name: String = "", ref: String = "") {
        self.query = query; self.location = location; self.distance = distance; self.edge = edge
        self.fraction = fraction; self.segment = segment; self.segmentFraction = segmentFraction
        self.name = name; self.ref = ref
    }
}

/// One edge, or part of one, driven or walked along a leg, in travel order.
public struct EdgeTraversal: Equatable, Sendable {
    /// The edge, and whether it is travelled from its `to` node to its `from` node.
    public var edge: Int
    public var reversed: Bool
    /// Where travel on the edge begins and ends, as fractions of the edge's length measured from its `from` node
    /// (so `startFraction > endFraction` when reversed). A whole edge is 0→1, or 1→0 reversed.
    public var startFraction: Double
    public var endFraction: Double
    /// Metres and seconds spent on this traversal.
    public var distance: Double
    public var duration: Double

    public init(edge: Int, reversed: Bool, startFraction: Double, endFraction: Double, distance: Double, duration: Double) {
        self.edge = edge; self.reversed = reversed; self.startFraction = startFraction; self.endFraction = endFraction
        self.distance = distance; self.duration = duration
    }
}

/// The kind of manoeuvre a step begins with (the names OSRM's API uses).
public enum ManeuverType: String, Sendable, Codable, CaseIterable {
    case depart, arrive, turn, `continue`, uturn, roundabout, exitRoundabout = "exit roundabout", newName = "new name"
}

/// Which way a manoeuvre turns (the names OSRM's API uses).
public enum ManeuverModifier: String, Sendable, Codable, CaseIterable {
    case straight, slightLeft = "slight left", left, sharpLeft = "sharp left"
    case slightRight = "slight right", right, sharpRight = "sharp right", uturn
}

/// One turn-by-turn instruction and the stretch of road it covers until the next one.
public struct RouteStep: Equatable, Sendable {
    public var maneuver: ManeuverType
    public var modifier: ManeuverModifier?
    /// For roundabouts: the exit to take, counting from 1.
    public var exit: Int?
    /// The road this step follows: name, and ref (road number).
    public var name: String
    public var ref: String
    /// Metres and seconds from this manoeuvre to the next.
    public var distance: Double
    public var expectedTravelTime: Double
    /// Where the manoeuvre takes place.
    public var location: Coordinate
    /// Direction of travel just before and just after the manoeuvre, degrees clockwise from north.
    public var bearingBefore: Int
    public var bearingAfter: Int
    /// A sentence for people: "Turn left onto Rue Grimaldi".
    public var instructions: String
    /// The road covered by the step, from the manoeuvre on.
    public var geometry: [Coordinate]

    public init(maneuver: ManeuverType, modifier: ManeuverModifier? = nil, exit: Int? = nil, name: String, ref: String,
                distance: Double, expectedTravelTime: Double, location: Coordinate, bearingBefore: Int, bearingAfter: Int,
                instructions: String, geometry: [Coordinate]) {
        self.maneuver = maneuver; self.modifier = modifier; self.exit = exit; self.name = name; self.ref = ref
        self.distance = distance; self.expectedTravelTime = expectedTravelTime; self.location = location
        self.bearingBefore = bearingBefore; self.bearingAfter = bearingAfter; self.instructions = instructions; self.geometry = geometry
    }
}

/// A stop of a route as matched to the road network (what OSRM calls a waypoint).
public struct Waypoint: Equatable, Sendable {
    /// The stop as asked and where it snapped.
    public var query: Coordinate
    public var location: Coordinate
    /// Metres between the two.
    public var snappingDistance: Double
    /// The name of the road it snapped to ("" when unnamed).
    public var name: String
    public init(query: Coordinate, location: Coordinate, snappingDistance: Double, name: String) {
        self.query = query; self.location = location; self.snappingDistance = snappingDistance; self.name = name
    }
}

/// The route between two consecutive stops.
public struct RouteLeg: Equatable, Sendable {
    public var distance: Double
    public var expectedTravelTime: Double
    /// The leg's full geometry, stop to stop.
    public var geometry: [Coordinate]
    public var steps: [RouteStep]
    public var boundingBox: BoundingBox
    /// The edges travelled, in order (for annotations and tests).
    public var traversals: [EdgeTraversal]
    public init(distance: Double, expectedTravelTime: Double, geometry: [Coordinate], steps: [RouteStep],
                boundingBox: BoundingBox, traversals: [EdgeTraversal]) {
        self.distance = distance; self.expectedTravelTime = expectedTravelTime; self.geometry = geometry
        self.steps = steps; self.boundingBox = boundingBox; self.traversals = traversals
    }
}

/// A route through all the stops of a request, leg after leg.
public struct Route: Equatable, Sendable {
    /// Metres and seconds over all legs.
    public var distance: Double
    public var expectedTravelTime: Double
    /// The whole route's geometry.
    public var polyline: [Coordinate]
    public var legs: [RouteLeg]
    public var boundingBox: BoundingBox
    /// The route's name, MapKit style: the names of its two longest roads ("Route 41, Wabash Avenue").
    public var name: String
    /// All steps of all legs, in order.
    public var steps: [RouteStep] { legs.flatMap(\.steps) }
    public init(distance: Double, expectedTravelTime: Double, polyline: [Coordinate], legs: [RouteLeg], boundingBox: BoundingBox, name: String) {
        self.distance = distance; self.expectedTravelTime = expectedTravelTime; self.polyline = polyline
        self.legs = legs; self.boundingBox = boundingBox; self.name = name
    }
}

/// The travel time and distance of the best route through a request's stops, without geometry or steps
/// (what `Router.eta(through:options:)` answers).
public struct RouteEstimate: Equatable, Sendable {
    /// Metres and seconds over all legs.
    public var distance: Double
    public var expectedTravelTime: Double
    /// The stops as matched to the road network.
    public var waypoints: [Waypoint]
    /// Each leg's metres and seconds, in order (those of the full route's legs).
    public var legDistances: [Double]
    public var legTravelTimes: [Double]
    /// Each leg's roads and their metres (nil for a leg that needs its steps laid out to tell), when asked for; else empty.
    public var legRoads: [LegRoadTotals?] = []
    public init(distance: Double, expectedTravelTime: Double, waypoints: [Waypoint], legDistances: [Double] = [], legTravelTimes: [Double] = []) {
        self.distance = distance; self.expectedTravelTime = expectedTravelTime; self.waypoints = waypoints
        self.legDistances = legDistances; self.legTravelTimes = legTravelTimes
    }
}
