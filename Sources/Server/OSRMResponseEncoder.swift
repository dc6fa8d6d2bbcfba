import Foundation
import Wayfinder

/// Writes routes, legs, steps and waypoints in OSRM v1's JSON shape, with the request's output options.
public struct OSRMResponseEncoder: Sendable {
    /// `geometries`: `polyline` (precision 5), `polyline6` or `geojson`.
    public var geometries = "polyline"
    /// `overview`: `full`, `simplified` or `false` (no route geometry).
    public var overview = "simplified"
    public var steps = false
    /// Which per-segment annotations to write (`duration`, `distance`, `speed`, `weight`); empty for none.
    public var annotations: [String] = []
    /// OSRM's mode name for steps ("driving", "walking").
    public var mode = "driving"
    /// The map the routes were found on (for the per-segment annotations).
    public let map: OfflineMap

    /// An encoder with OSRM's default options.
    public init(map: OfflineMap) { self.map = map }

    /// Reads `geometries`, `overview`, `steps` and `annotations` from a request.
    public init(map: OfflineMap, request: OSRMRequest, mode: String) throws(OSRMError) {
        self.map = map
        self.mode = mode
        geometries = try request.choice("geometries", ["polyline", "polyline6", "geojson"], default: "polyline")
        overview = try request.choice("overview", ["full", "simplified", "false"], default: "simplified")
        steps = try request.bool("steps", default: false)
        annotations = try Self.parseAnnotations(request.options["annotations"])
    }

    static let annotationNames = ["duration", "distance", "speed", "weight"]

    static func parseAnnotations(_ text: String?) throws(OSRMError) -> [String] {
        guard let text, text != "false" else { return [] }
        if text == "true" { return annotationNames }
        var result: [String] = []
        for name in text.split(separator: ",").map(String.init) {
            if name == "nodes" || name == "datasources" {
                throw .invalidOptions("annotations=\(name) is not supported by this server (use duration, distance, speed, weight)")
            }
            guard annotationNames.contains(name) else {
                throw .invalidQuery("unknown annotation '\(name)' (use true, false or a list of \(annotationNames.joined(separator: ", ")))")
            }
            if !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// A line in the chosen geometry format.
    public func geometry(_ points: [Coordinate]) -> JSONValue {
        switch geometries {
        case "geojson":
            return .object([("coordinates", .array(points.map { JSONValue.location(latitude: $0.latitude, longitude: $0.longitude) })),
                            ("type", .string("LineString"))])
        case "polyline6": return Self.polyline(points, precision: 6)
        default: return Self.polyline(points, precision: 5)
        }
    }

    /// An encoded polyline as a JSON string, escaped straight from its bytes (no `String` in between).
    static func polyline(_ points: [Coordinate], precision: Int) -> JSONValue {
        var w = JSONWriter(capacity: points.count * 8 + 8)
        w.string(utf8: PolylineEncoder.encodedBytes(points, precision: precision))
        return .raw(w.takeBytes())
    }

    /// A route object: geometry (per `overview`), legs, and totals (weight is the duration).
    public func route(_ route: Route) -> JSONValue {
        // Members in sorted key order (as every object here), so that JSONValue writes them without sorting.
        var members: [(String, JSONValue)] = [("distance", .rounded(route.distance, 1)), ("duration", .rounded(route.expectedTravelTime, 1))]
        switch overview {
        case "full": members.append(("geometry", geometry(route.polyline)))
        case "simplified": members.append(("geometry", geometry(Self.simplifiedOverview(route.polyline, box: route.boundingBox))))
        default: break
        }
        members.append(("legs", .array(route.legs.map(leg))))
        members.append(("weight", .rounded(route.expectedTravelTime, 1)))
        members.append(("weight_name", .string("duration")))
        return .object(members)
    }

    /// The `simplified` overview: points within about 1/1000 of the route's extent (at least 1 m) are dropped.
    static func simplifiedOverview(_ line: [Coordinate], box: BoundingBox) -> [Coordinate] {
        let diagonal = Coordinate(latitude: box.minLatitude, longitude: box.minLongitude)
            .distance(to: Coordinate(latitude: box.maxLatitude, longitude: box.maxLongitude))
        return GeometrySimplifier.simplify(line, tolerance: max(1, diagonal / 1000))
    }

    /// A leg object: steps (when asked), summary, annotation (when asked), totals.
    public func leg(_ leg: RouteLeg) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if !annotations.isEmpty { members.append(("annotation", annotation(of: leg))) }
        members.append(("distance", .rounded(leg.distance, 1)))
        members.append(("duration", .rounded(leg.expectedTravelTime, 1)))
        members.append(("steps", .array(steps ? leg.steps.map(step) : [])))
        members.append(("summary", .string(Self.summary(of: leg))))
        members.append(("weight", .rounded(leg.expectedTravelTime, 1)))
        return .object(members)
    }

    /// OSRM's leg summary: the names of the two longest roads of the leg, in travel order.
    static func summary(of leg: RouteLeg) -> String {
        var totals = LegRoadTotals(names: [], distances: [])
        for step in leg.steps {
            let name = step.name.isEmpty ? step.ref : step.name
            guard !name.isEmpty else { continue }
            if let i = totals.names.firstIndex(of: name) { totals.distances[i] += step.distance } else {
                totals.names.append(name); totals.distances.append(step.distance)
            }
        }
        return summary(of: totals)
    }

    /// The summary from a leg's roads and their metres (in travel order): the two longest, in travel order.
    static func summary(of totals: LegRoadTotals) -> String {
        let ranked = totals.names.indices.sorted { totals.distances[$0] > totals.distances[$1] }
        let top = Set(ranked.prefix(2))
        return totals.names.indices.filter { top.contains($0) }.map { totals.names[$0] }.joined(separator: ", ")
    }

    /// Whether the request's route answer needs no geometry, steps or annotations: then an ETA with each leg's
    /// road totals gives the same JSON (`route(eta:roads:)`).
    public var needsNoRouteLayout: Bool { overview == "false" && !steps && annotations.isEmpty }

    /// A route object made from an ETA and its legs' road totals, the same JSON as `route(_:)` writes for that
    /// route with `needsNoRouteLayout`.
    public func route(eta: ETASummary, roads: [LegRoadTotals]) -> JSONValue {
        var legs: [JSONValue] = []
        for (k, totals) in roads.enumerated() {
            legs.append(.object([("distance", .rounded(eta.legDistances[k], 1)), ("duration", .rounded(eta.legTravelTimes[k], 1)),
                                 ("steps", .array([])), ("summary", .string(Self.summary(of: totals))),
                                 ("weight", .rounded(eta.legTravelTimes[k], 1))]))
        }
        return .object([("distance", .rounded(eta.distance, 1)), ("duration", .rounded(eta.expectedTravelTime, 1)), ("legs", .array(legs)),
                        ("weight", .rounded(eta.expectedTravelTime, 1)), ("weight_name", .string("duration"))])
    }

    /// Per-segment figures between consecutive points of the leg's geometry.
    func annotation(of leg: RouteLeg) -> JSONValue {
        let segments = map.segments(of: leg)
        let durations = segments.durations, distances = segments.distances
        var members: [(String, JSONValue)] = []
        for name in annotations {
            switch name {
            case "duration", "weight": members.append((name, .array(durations.map { .rounded($0, 1) })))
            case "distance": members.append((name, .array(distances.map { .rounded($0, 1) })))
            default: members.append((name, .array(zip(distances, durations).map { $1 > 0 ? .rounded($0 / $1, 1) : .int(0) })))
            }
        }
        return .object(members)
    }

    /// A step object with its maneuver and one intersection at the maneuver's location.
    public func step(_ step: RouteStep) -> JSONValue {
        let location = JSONValue.location(latitude: step.location.latitude, longitude: step.location.longitude)
        var maneuver: [(String, JSONValue)] = [("bearing_after", .int(step.bearingAfter)), ("bearing_before", .int(step.bearingBefore))]
        if let exit = step.exit { maneuver.append(("exit", .int(exit))) }
        maneuver.append(("instruction", .string(step.instructions)))
        maneuver.append(("location", location))
        if let modifier = step.modifier { maneuver.append(("modifier", .string(modifier.rawValue))) }
        maneuver.append(("type", .string(step.maneuver.rawValue)))
        let back = (step.bearingBefore + 180) % 360
        let intersection: JSONValue
        switch step.maneuver {
        case .depart:
            intersection = .object([("bearings", .array([.int(step.bearingAfter)])), ("entry", .array([.bool(true)])), ("location", location), ("out", .int(0))])
        case .arrive:
            intersection = .object([("bearings", .array([.int(back)])), ("entry", .array([.bool(true)])), ("in", .int(0)), ("location", location)])
        default:
            intersection = .object([("bearings", .array([.int(back), .int(step.bearingAfter)])), ("entry", .array([.bool(true), .bool(true)])),
                                    ("in", .int(0)), ("location", location), ("out", .int(1))])
        }
        var members: [(String, JSONValue)] = [
            ("distance", .rounded(step.distance, 1)), ("driving_side", .string("right")), ("duration", .rounded(step.expectedTravelTime, 1)),
            ("geometry", geometry(step.geometry.count >= 2 ? step.geometry : [step.location, step.location])),
            ("intersections", .array([intersection])), ("maneuver", .object(maneuver)), ("mode", .string(mode)), ("name", .string(step.name)),
        ]
        if !step.ref.isEmpty { members.append(("ref", .string(step.ref))) }
        members.append(("weight", .rounded(step.expectedTravelTime, 1)))
        return .object(members)
    }

    /// A waypoint object (no `hint`: this server neither gives nor reads hints), with `extra` members appended.
    public static func waypoint(location: Coordinate, distance: Double, name: String, extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([("distance", .rounded(distance, 1)), ("location", .location(latitude: location.latitude, longitude: location.longitude)),
                 ("name", .string(name))] + extra)
    }

    /// The waypoint object of a snapped place or a route's waypoint.
    public static func waypoint(_ snapped: Waypoint, extra: [(String, JSONValue)] = []) -> JSONValue {
        waypoint(location: snapped.location, distance: snapped.snappingDistance, name: snapped.name, extra: extra)
    }
}
