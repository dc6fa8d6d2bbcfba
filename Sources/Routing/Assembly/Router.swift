import Foundation
import Graph

/// Why a route could not be made, naming the stop or leg at fault.
public enum RoutingError: Error, Equatable, CustomStringConvertible {
    case tooFewStops(Int)
    case invalidCoordinate(stop: Int, Coordinate)
    case noRoad(stop: Int, coordinate: Coordinate, profile: String, maxDistance: Double)
    case noRoute(leg: Int, from: Coordinate, to: Coordinate, profile: String)
    case unknownProfile(String, available: [String])
    case corruptGraph(String)
    /// A matrix or trip place (`role`: "source", "destination", "stop") too far from any usable road.
    case noRoadNear(role: String, index: Int, coordinate: Coordinate, profile: String, maxDistance: Double)
    /// A matrix or trip larger than the configured limit.
    case tooBig(String)
    /// A search ran past its `SearchDeadline` and stopped without an answer.
    case timedOut
    /// A search's `SearchCancellation` was raised, so it stopped without an answer.
    case cancelled

    public var description: String {
        func format(_ c: Coordinate) -> String { String(format: "%.6f,%.6f", c.latitude, c.longitude) }
        // Whole metres for any value (a Swift API caller may pass 1e308 or infinity, which Int(_:) would trap on).
        func metres(_ m: Double) -> String { m.isFinite ? String(format: "%.0f", m) : "\(m)" }
        switch self {
        case let .tooFewStops(count): return "a route needs at least two stops, got \(count)"
        case let .invalidCoordinate(stop, c): return "stop \(stop + 1) (\(format(c))) is not a valid coordinate: latitude must lie within ±90 and longitude within ±180"
        case let .noRoad(stop, c, profile, maxDistance):
            return "stop \(stop + 1) (\(format(c))) is more than \(metres(maxDistance)) m from any road the \(profile) profile may use"
        case let .noRoute(leg, from, to, profile):
            return "no \(profile) route for leg \(leg + 1), from \(format(from)) to \(format(to)): the stops lie on parts of the network that do not connect"
        case let .unknownProfile(name, available): return "the graph has no profile '\(name)' (it has \(available.joined(separator: ", ")))"
        case let .corruptGraph(message): return message
        case let .noRoadNear(role, index, c, profile, maxDistance):
            return "\(role) \(index + 1) (\(format(c))) is more than \(metres(maxDistance)) m from any road the \(profile) profile may use"
        case let .tooBig(message): return message
        case .timedOut: return "the search ran past its time limit and stopped without an answer"
        case .cancelled: return "the search was cancelled before it found an answer"
        }
    }
}

/// Options of a route query.
public struct RouteOptions: Sendable {
    /// Farthest a stop may lie from a usable road, metres.
    public var maxSnappingDistance: Double = 1000
    /// How many alternative routes to look for besides the best (single-leg routes only).
    public var alternatives: Int = 0
    /// Straight great-circle lines between the stops instead of routes (the map apps' "lines" view).
    public var straightLines: Bool = false
    /// When the searches give up (`RoutingError.timedOut` or `.cancelled`); none by default.
    public var deadline: SearchDeadline = .none
    public init(maxSnappingDistance: Double = 1000, alternatives: Int = 0, straightLines: Bool = false, deadline: SearchDeadline = .none) {
        self.maxSnappingDistance = maxSnappingDistance; self.alternatives = alternatives; self.straightLines = straightLines
        self.deadline = deadline
    }
}

/// Routes through stops for one profile of a graph: snapping, leg searches, geometry, steps and alternatives.
/// Safe for concurrent queries.
public final class Router: @unchecked Sendable {
    public let graph: RoadGraph
    public let profile: ProfileGraph
    public let search: RouteSearch
    /// The search over the profile's contraction hierarchy, when the graph file has one: it answers every
    /// best-route query (alternatives, which re-weight edges, use `search`).
    public let hierarchy: HierarchySearch?
    public let snapper: Snapper
    /// The bearings at both ends of every edge and every way's roundabout flow, built once enough legs have been described.
    let legTables = LazyLegTables()

    /// Most alternatives share at most this fraction of their length with the routes found before them…
    public static let maximumSharedFraction = 0.7
    /// …and take at most this many times the best route's time.
    public static let maximumStretch = 1.4

    /// Prepares routing on profile `name` ("car", "foot") of `graph`.
    /// `useHierarchy: false` ignores the file's contraction hierarchy (for comparisons).
    public init(graph: RoadGraph, profile name: String, useHierarchy: Bool = true) throws(RoutingError) {
        guard let profile = graph.profile(named: name) else {
            throw .unknownProfile(name, available: graph.profiles.map(\.profile.name))
        }
        self.graph = graph
        self.profile = profile
        let space = SearchGraph(graph: graph, profile: profile)
        search = RouteSearch(space: space)
        var hierarchy: HierarchySearch? = nil
        if useHierarchy {
            do {
                if let ch = try ContractionHierarchy(graph: graph, profile: name) {
                    // The halves of shortcuts and the moves of original arcs are checked as routes unpack them
                    // (`ContractionHierarchy.unpack`), not all at open: `wayfinder info` checks them all.
                    let states = HierarchyStates(space: space)
                    guard let search = HierarchySearch(states: states, hierarchy: ch) else {
                        throw RoutingError.corruptGraph("\(graph.file.path): the contraction hierarchy of profile '\(name)' does not match its graph; import the file again")
                    }
                    hierarchy = search
                }
            } catch let error as RoutingError {
                throw error
            } catch {
                throw .corruptGraph("\(error)")
            }
        }
        self.hierarchy = hierarchy
        snapper = Snapper(graph: graph, profile: profile)
    }

    /// Snaps every stop to its nearest road; throws naming the first stop that is invalid or too far from a usable road.
    public func snap(_ stops: [Coordinate], maxDistance: Double = 1000) throws(RoutingError) -> [SnappedLocation] {
        try snapStops(stops, maxDistance: maxDistance).map(\.nearest)
    }

    /// Snaps every stop (its nearest road, and where it moves off a small island should a leg need it); throws naming
    /// the first stop that is invalid or too far from a usable road.
    public func snapStops(_ stops: [Coordinate], maxDistance: Double = 1000) throws(RoutingError) -> [SnappedStop] {
        var result: [SnappedStop] = []
        for (i, stop) in stops.enumerated() {
            guard abs(stop.latitude) <= 90, abs(stop.longitude) <= 180, stop.latitude.isFinite, stop.longitude.isFinite else {
                throw .invalidCoordinate(stop: i, stop)
            }
            guard let snapped = snapper.snapStop(stop, maxDistance: maxDistance) else {
                throw .noRoad(stop: i, coordinate: stop, profile: profile.profile.name, maxDistance: maxDistance)
            }
            result.append(snapped)
        }
        return result
    }

    /// The best route through `stops` in order, then up to `options.alternatives` really different ones.
    public func routes(through stops: [Coordinate], options: RouteOptions = RouteOptions()) throws(RoutingError) -> (routes: [Route], waypoints: [Waypoint]) {
        guard stops.count >= 2 else { throw .tooFewStops(stops.count) }
        if options.straightLines {
            for (i, stop) in stops.enumerated() where !(abs(stop.latitude) <= 90 && abs(stop.longitude) <= 180) {
                throw .invalidCoordinate(stop: i, stop)
            }
            let waypoints = stops.map { Waypoint(query: $0, location: $0, snappingDistance: 0, name: "") }
            return ([Self.straightRoute(through: stops)], waypoints)
        }
        return try routes(through: try snapStops(stops, maxDistance: options.maxSnappingDistance), alternatives: options.alternatives,
                          deadline: options.deadline)
    }

    /// Travel time and distance of the best route through `stops` in order, without geometry or steps: the same
    /// snapping and leg searches as `routes(through:options:)` (its best route's `distance` and `expectedTravelTime`
    /// exactly), without laying out a single point; alternatives do not apply (straight lines: their lengths).
    public func eta(through stops: [Coordinate], options: RouteOptions = RouteOptions()) throws(RoutingError) -> RouteEstimate {
        guard stops.count >= 2 else { throw .tooFewStops(stops.count) }
        if options.straightLines {
            let found = try routes(through: stops, options: options)
            let route = found.routes[0]
            return RouteEstimate(distance: route.distance, expectedTravelTime: route.expectedTravelTime, waypoints: found.waypoints,
                                 legDistances: route.legs.map(\.distance), legTravelTimes: route.legs.map(\.expectedTravelTime))
        }
        return try eta(through: try snapStops(stops, maxDistance: options.maxSnappingDistance), deadline: options.deadline)
    }

    /// `eta(through:options:)` for stops already snapped; past `deadline` it throws `.timedOut` (or `.cancelled`).
    /// With `roadTotals`, each leg's roads and their metres as its steps would give them (`LegRoadTotals`).
    public func eta(through snapped: [SnappedStop], deadline: SearchDeadline = .none, roadTotals: Bool = false) throws(RoutingError) -> RouteEstimate {
        guard snapped.count >= 2 else { throw .tooFewStops(snapped.count) }
        let found = try searchLegs(through: snapped, deadline: deadline)
        var distance = 0.0, time = 0.0
        for result in found.results { distance += result.distance }
        for result in found.results { time += result.duration }
        var estimate = RouteEstimate(distance: distance, expectedTravelTime: time, waypoints: found.used.map(Self.waypoint),
                                     legDistances: found.results.map(\.distance), legTravelTimes: found.results.map(\.duration))
        if roadTotals { estimate.legRoads = found.results.map { LegRoadTotals.of($0.traversals, in: graph, profile: profile) } }
        return estimate
    }

    /// The best route through stops already snapped (`snapStops`, or the server's snapping with a radius per stop),
    /// then up to `alternatives` really different ones.
    ///
    /// Each leg is searched on its own between the nearest roads of its two stops; only when that finds no route is
    /// it searched again with each stop moved off its small island (`SnappedStop.offIsland`). A stop's waypoint is
    /// where the route reaches it (the first stop: where it leaves). Past `deadline` the searches stop and throw
    /// `RoutingError.timedOut` (or `.cancelled`).
    public func routes(through snapped: [SnappedStop], alternatives: Int = 0,
                       deadline: SearchDeadline = .none) throws(RoutingError) -> (routes: [Route], waypoints: [Waypoint]) {
        guard snapped.count >= 2 else { throw .tooFewStops(snapped.count) }
        let (results, used) = try searchLegs(through: snapped, deadline: deadline)
        var legs: [RouteLeg] = []
        legs.reserveCapacity(results.count)
        for (i, result) in results.enumerated() { legs.append(leg(result, from: used[i], to: used[i + 1])) }
        var routes = [route(legs)]
        if alternatives > 0 && snapped.count == 2 {
            for alternative in try self.alternatives(to: results[0], from: used[0], to: used[1], count: alternatives, deadline: deadline) {
                routes.append(route([leg(alternative, from: used[0], to: used[1])]))
            }
        }
        return (routes, used.map(Self.waypoint))
    }

    /// The leg searches of a route through snapped stops (at least two): each leg's search result and the locations
    /// the route used (the first stop's, then each leg's end), as `routes(through:alternatives:)` describes.
    func searchLegs(through snapped: [SnappedStop], deadline: SearchDeadline = .none) throws(RoutingError) -> (results: [SearchResult], used: [SnappedLocation]) {
        var results: [SearchResult] = []
        var used: [SnappedLocation] = []
        var carried: SearchEndpoint? = nil
        for i in 0..<(snapped.count - 1) {
            let a = snapped[i], b = snapped[i + 1]
            var from = a.nearest, to = b.nearest
            var start = carried ?? SearchEndpoint(from, in: graph)
            var found = try fastest(from: start, to: SearchEndpoint(to, in: graph), deadline: deadline)
            if found == nil, a.offIsland != nil || b.offIsland != nil {
                let movedStart = a.offIsland.map { SearchEndpoint($0, in: graph) } ?? start
                if let retry = try fastest(from: movedStart, to: SearchEndpoint(b.offIsland ?? to, in: graph), deadline: deadline) {
                    found = retry
                    start = movedStart
                    from = a.offIsland ?? from
                    to = b.offIsland ?? to
                }
            }
            guard let result = found else {
                throw .noRoute(leg: i, from: a.nearest.query, to: b.nearest.query, profile: profile.profile.name)
            }
            if i == 0 { used.append(from) }
            used.append(to)
            results.append(result)
            // A stop on a node closed to the profile (a bollard) is a dead end: the next leg leaves it back along
            // the edge this one arrived by, not past the barrier (when this leg did not move, it keeps its own start).
            carried = nil
            let next = SearchEndpoint(to, in: graph)
            if let n = next.node, profile.isBlocked(graph.nodeFlags[n]) {
                if let last = result.traversals.last {
                    carried = SearchEndpoint(edge: last.edge, fraction: last.endFraction, node: nil, coordinate: next.coordinate)
                } else {
                    carried = start
                }
            }
        }
        return (results, used)
    }

    /// The fastest route between two endpoints: over the hierarchy when there is one, else by A*.
    public func fastest(from start: SearchEndpoint, to target: SearchEndpoint) -> SearchResult? {
        if let hierarchy { return hierarchy.route(from: start, to: target) }
        return search.route(from: start, to: target)
    }

    /// As `fastest(from:to:)`, throwing `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes.
    public func fastest(from start: SearchEndpoint, to target: SearchEndpoint, deadline: SearchDeadline) throws(RoutingError) -> SearchResult? {
        if let hierarchy { return try hierarchy.route(from: start, to: target, deadline: deadline) }
        return try search.route(from: start, to: target, deadline: deadline)
    }

    /// One leg from a search result: geometry, distance, time, steps, bounding box. The traversals' points are laid
    /// out once (`LegPoints`) for both the leg's geometry and its steps.
    func leg(_ result: SearchResult, from start: SnappedLocation, to end: SnappedLocation) -> RouteLeg {
        let tables = legTables.tables(for: graph, profile: profile)
        let points = LegPoints(result.traversals, in: graph, records: tables?.records)
        var geometry: [Coordinate] = []
        geometry.reserveCapacity(points.points.count + 1)
        for point in points.points where geometry.last != point { geometry.append(point) }
        if geometry.isEmpty { geometry = [start.location] }
        if geometry.count == 1 { geometry.append(end.location) }
        let steps = StepBuilder.steps(for: result.traversals, points: points, in: graph, from: start, to: end, profile: profile,
                                      tables: tables)
        return RouteLeg(distance: result.distance, expectedTravelTime: result.duration, geometry: geometry, steps: steps,
                        boundingBox: BoundingBox(geometry)!, traversals: result.traversals)
    }

    /// A route made of legs: totals, joined geometry, box and name.
    func route(_ legs: [RouteLeg]) -> Route {
        var polyline: [Coordinate] = []
        if legs.count == 1 {
            // A leg's geometry has at least two points and no repeats but a zero-length [p, p], which is what the
            // joining below gives for it: share the array instead of copying it.
            polyline = legs[0].geometry
        } else {
            polyline.reserveCapacity(legs.reduce(0) { $0 + $1.geometry.count })
            for leg in legs {
                for point in leg.geometry where polyline.last != point { polyline.append(point) }
            }
            if polyline.count == 1 { polyline.append(polyline[0]) }
        }
        let box = legs.dropFirst().reduce(legs[0].boundingBox) { $0.union($1.boundingBox) }
        return Route(distance: legs.reduce(0) { $0 + $1.distance }, expectedTravelTime: legs.reduce(0) { $0 + $1.expectedTravelTime },
                     polyline: polyline, legs: legs, boundingBox: box, name: name(of: legs))
    }

    /// MapKit-style route name: the names (or refs) of the two roads the route follows longest.
    ///
    /// Roads are told apart by their string-table entry (the importer stores each distinct text once), so only the
    /// two names chosen are decoded.
    func name(of legs: [RouteLeg]) -> String {
        var keys: [UInt32] = []
        var lengths: [Double] = []
        var last = -1
        // The edge records, once built, hold each edge's name and ref (in cache from describing the legs).
        let records = legTables.current?.records
        for leg in legs {
            for traversal in leg.traversals {
                let name: UInt32, ref: UInt32
                if let records {
                    name = records.records[traversal.edge].name
                    ref = records.records[traversal.edge].ref
                } else {
                    let way = Int(graph.edgeWay[traversal.edge])
                    name = graph.wayNames[way]
                    ref = graph.wayRefs[way]
                }
                let key = graph.isEmptyString(ref) ? name : ref
                guard !graph.isEmptyString(key) else { continue }
                if last < 0 || keys[last] != key {
                    if let known = keys.firstIndex(of: key) {
                        last = known
                    } else {
                        keys.append(key)
                        lengths.append(0)
                        last = keys.count - 1
                    }
                }
                lengths[last] += traversal.distance
            }
        }
        var first = -1, second = -1
        for k in keys.indices {
            if first < 0 || lengths[k] > lengths[first] {
                second = first
                first = k
            } else if second < 0 || lengths[k] > lengths[second] {
                second = k
            }
        }
        if first < 0 { return "" }
        if second < 0 { return graph.string(keys[first]) }
        return graph.string(keys[first]) + ", " + graph.string(keys[second])
    }

    /// Alternatives by penalising the edges of the routes found so far and searching again; a candidate is kept
    /// when it takes at most `maximumStretch` × the best time and shares at most `maximumSharedFraction` of its length
    /// with the routes already kept.
    func alternatives(to best: SearchResult, from start: SnappedLocation, to end: SnappedLocation, count: Int,
                      deadline: SearchDeadline = .none) throws(RoutingError) -> [SearchResult] {
        var kept = [best]
        var penalties: [Int: Double] = [:]
        var usedEdges = Set(best.traversals.map(\.edge))
        var last = best
        for _ in 0..<(count * 4) where kept.count <= count {
            for traversal in last.traversals { penalties[traversal.edge] = (penalties[traversal.edge] ?? 1) * 1.5 }
            guard let candidate = try search.route(from: SearchEndpoint(start, in: graph), to: SearchEndpoint(end, in: graph), penalties: penalties,
                                                   deadline: deadline) else { break }
            last = candidate
            guard candidate.duration <= best.duration * Self.maximumStretch else { break }
            let shared = candidate.traversals.filter { usedEdges.contains($0.edge) }.reduce(0) { $0 + $1.distance }
            guard candidate.distance > 0, shared <= Self.maximumSharedFraction * candidate.distance else { continue }
            guard !kept.contains(where: { $0.traversals.map(\.edge) == candidate.traversals.map(\.edge) }) else { continue }
            kept.append(candidate)
            usedEdges.formUnion(candidate.traversals.map(\.edge))
        }
        return Array(kept.dropFirst())
    }

    /// Straight great-circle lines between the stops, points every kilometre or so, with their lengths.
    static func straightRoute(through stops: [Coordinate]) -> Route {
        var legs: [RouteLeg] = []
        for (a, b) in zip(stops, stops.dropFirst()) {
            let length = a.distance(to: b)
            let pieces = max(1, Int((length / 1000).rounded(.up)))
            var geometry: [Coordinate] = []
            for k in 0...pieces { geometry.append(greatCirclePoint(a, b, fraction: Double(k) / Double(pieces))) }
            legs.append(RouteLeg(distance: length, expectedTravelTime: 0, geometry: geometry, steps: [], boundingBox: BoundingBox(geometry)!, traversals: []))
        }
        var polyline: [Coordinate] = []
        for leg in legs { for p in leg.geometry where polyline.last != p { polyline.append(p) } }
        if polyline.count == 1 { polyline.append(polyline[0]) }
        let box = legs.dropFirst().reduce(legs[0].boundingBox) { $0.union($1.boundingBox) }
        return Route(distance: legs.reduce(0) { $0 + $1.distance }, expectedTravelTime: 0, polyline: polyline, legs: legs, boundingBox: box, name: "")
    }

    /// The point at `fraction` of the great circle from a to b.
    static func greatCirclePoint(_ a: Coordinate, _ b: Coordinate, fraction: Double) -> Coordinate {
        if fraction <= 0 { return a }
        if fraction >= 1 { return b }
        let rad = Double.pi / 180
        let lat1 = a.latitude * rad, lon1 = a.longitude * rad, lat2 = b.latitude * rad, lon2 = b.longitude * rad
        let delta = a.distance(to: b) / Geo.earthRadius
        if delta < 1e-12 { return a }
        let x1 = cos(lat1) * cos(lon1), y1 = cos(lat1) * sin(lon1), z1 = sin(lat1)
        let x2 = cos(lat2) * cos(lon2), y2 = cos(lat2) * sin(lon2), z2 = sin(lat2)
        let s1 = sin((1 - fraction) * delta) / sin(delta), s2 = sin(fraction * delta) / sin(delta)
        let x = s1 * x1 + s2 * x2, y = s1 * y1 + s2 * y2, z = s1 * z1 + s2 * z2
        return Coordinate(latitude: atan2(z, (x * x + y * y).squareRoot()) / rad, longitude: atan2(y, x) / rad)
    }
}
