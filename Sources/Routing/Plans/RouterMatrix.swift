import Foundation
import Graph

/// Limits and snapping of matrix and trip queries.
public struct MatrixOptions: Sendable {
    /// Farthest a place may lie from a usable road, metres.
    public var maxSnappingDistance: Double = 1000
    /// Most sources and most destinations of one matrix (each refused beyond, before any work).
    public var maxSources = 10_000
    public var maxDestinations = 10_000
    /// Most stops of one trip.
    public var maxTripStops = 1000
    /// When the searches give up (`RoutingError.timedOut` or `.cancelled`); none by default.
    public var deadline: SearchDeadline = .none

    public init(maxSnappingDistance: Double = 1000, maxSources: Int = 10_000, maxDestinations: Int = 10_000, maxTripStops: Int = 1000,
                deadline: SearchDeadline = .none) {
        self.maxSnappingDistance = maxSnappingDistance; self.maxSources = maxSources
        self.maxDestinations = maxDestinations; self.maxTripStops = maxTripStops
        self.deadline = deadline
    }
}

/// A matrix with the places as snapped.
public struct MatrixResult: Sendable {
    public var matrix: DistanceMatrix
    public var sources: [Waypoint]
    public var destinations: [Waypoint]
}

/// A trip: the stops in the order found, the route through them, and what the reordering saved.
public struct TripResult: Sendable {
    /// Indices into the given stops, in visiting order (the first stop first; a round trip returns to it).
    public var order: [Int]
    public var shape: TripPlanner.Shape
    /// The route through the stops in `order` (and back to the first for a round trip).
    public var route: Route
    /// The stops as snapped, in the given order.
    public var waypoints: [Waypoint]
    /// Seconds the trip takes in the given order (nil when that order has a leg without a route).
    public var givenOrderTime: Double?

    /// Seconds saved against the given order.
    public var saving: Double? { givenOrderTime.map { $0 - route.expectedTravelTime } }
}

extension Router {
    /// Snaps places for a matrix or trip, naming the first one too far from a road by its role and number.
    func snapPlaces(_ places: [Coordinate], role: String, maxDistance: Double) throws(RoutingError) -> [SnappedStop] {
        var result: [SnappedStop] = []
        result.reserveCapacity(places.count)
        for (i, place) in places.enumerated() {
            guard abs(place.latitude) <= 90, abs(place.longitude) <= 180, place.latitude.isFinite, place.longitude.isFinite else {
                throw .invalidCoordinate(stop: i, place)
            }
            guard let snapped = snapper.snapStop(place, maxDistance: maxDistance) else {
                throw .noRoadNear(role: role, index: i, coordinate: place, profile: profile.profile.name, maxDistance: maxDistance)
            }
            result.append(snapped)
        }
        return result
    }

    /// Durations and distances from every source to every destination: bucket-based over the contraction
    /// hierarchy when the graph has one, else one one-to-many Dijkstra per source. Unreachable pairs are nil.
    public func matrix(sources: [Coordinate], destinations: [Coordinate], options: MatrixOptions = MatrixOptions()) throws(RoutingError) -> MatrixResult {
        if sources.count > options.maxSources || destinations.count > options.maxDestinations {
            throw .tooBig("a matrix of \(sources.count) × \(destinations.count) places is larger than the limit of \(options.maxSources) × \(options.maxDestinations)")
        }
        let from = try snapPlaces(sources, role: "source", maxDistance: options.maxSnappingDistance)
        let to = try snapPlaces(destinations, role: "destination", maxDistance: options.maxSnappingDistance)
        let matrix = try matrix(from: from, to: to, deadline: options.deadline)
        return MatrixResult(matrix: matrix, sources: from.map { Self.waypoint($0.nearest) }, destinations: to.map { Self.waypoint($0.nearest) })
    }

    /// The matrix between snapped stops, each entry as the leg between its two stops would be: between their nearest
    /// roads, or, when that finds no route, with each stop moved off its small island (`SnappedStop.offIsland`).
    public func matrix(from sources: [SnappedStop], to destinations: [SnappedStop]) -> DistanceMatrix {
        (try? matrix(from: sources, to: destinations, deadline: .none)) ?? DistanceMatrix(sourceCount: sources.count, destinationCount: destinations.count)
    }

    /// As `matrix(from:to:)` over `SnappedStop`s, throwing `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes.
    public func matrix(from sources: [SnappedStop], to destinations: [SnappedStop], deadline: SearchDeadline) throws(RoutingError) -> DistanceMatrix {
        var result = try matrix(from: sources.map { SearchEndpoint($0.nearest, in: graph) }, to: destinations.map { SearchEndpoint($0.nearest, in: graph) },
                                deadline: deadline)
        // Entries with no route where a stop may move: searched again, the rows and columns involved at once.
        var rows = Set<Int>(), columns = Set<Int>()
        for i in sources.indices {
            for j in destinations.indices where result.duration(i, j) == nil && (sources[i].offIsland != nil || destinations[j].offIsland != nil) {
                rows.insert(i); columns.insert(j)
            }
        }
        if rows.isEmpty { return result }
        let rowList = rows.sorted(), columnList = columns.sorted()
        let retry = try matrix(from: rowList.map { SearchEndpoint(sources[$0].offIsland ?? sources[$0].nearest, in: graph) },
                               to: columnList.map { SearchEndpoint(destinations[$0].offIsland ?? destinations[$0].nearest, in: graph) },
                               deadline: deadline)
        for (r, i) in rowList.enumerated() {
            for (c, j) in columnList.enumerated() where result.duration(i, j) == nil && (sources[i].offIsland != nil || destinations[j].offIsland != nil) {
                result.durations[i * destinations.count + j] = retry.duration(r, c)
                result.distances[i * destinations.count + j] = retry.distance(r, c)
            }
        }
        return result
    }

    /// The matrix between search endpoints as given (no island fallback; see `matrix(from:to:)` over `SnappedStop`s).
    public func matrix(from sources: [SearchEndpoint], to destinations: [SearchEndpoint]) -> DistanceMatrix {
        (try? matrix(from: sources, to: destinations, deadline: .none)) ?? DistanceMatrix(sourceCount: sources.count, destinationCount: destinations.count)
    }

    /// As `matrix(from:to:)` over search endpoints, throwing `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes.
    public func matrix(from sources: [SearchEndpoint], to destinations: [SearchEndpoint], deadline: SearchDeadline) throws(RoutingError) -> DistanceMatrix {
        if let hierarchy { return try MatrixSearch(search: hierarchy).matrix(from: sources, to: destinations, deadline: deadline) }
        try deadline.check()
        var result = DistanceMatrix(sourceCount: sources.count, destinationCount: destinations.count)
        let oneToMany = OneToManySearch(space: search.space)
        let rows = ResultSlots<Result<[OneToManyEntry?], RoutingError>>(count: sources.count)
        DispatchQueue.concurrentPerform(iterations: sources.count) { i in
            rows.set(i, Result { () throws(RoutingError) in try oneToMany.routes(from: sources[i], to: destinations, deadline: deadline) })
        }
        for i in 0..<sources.count {
            for (j, entry) in try rows.value(i).get().enumerated() {
                result.durations[i * destinations.count + j] = entry?.duration
                result.distances[i * destinations.count + j] = entry?.distance
            }
        }
        return result
    }

    /// Reorders the stops after the first for the quickest trip (`TripPlanner`), then routes them in that order.
    public func trip(through stops: [Coordinate], shape: TripPlanner.Shape = .open, options: MatrixOptions = MatrixOptions()) throws(RoutingError) -> TripResult {
        guard stops.count >= 2 else { throw .tooFewStops(stops.count) }
        if stops.count > options.maxTripStops { throw .tooBig("a trip of \(stops.count) stops is larger than the limit of \(options.maxTripStops)") }
        let snapped = try snapPlaces(stops, role: "stop", maxDistance: options.maxSnappingDistance)
        let times = try matrix(from: snapped, to: snapped, deadline: options.deadline)
        let planner = TripPlanner(shape: shape)
        let order = try planner.order(count: stops.count, time: { times.duration($0, $1) }, deadline: options.deadline)
        // A leg with no route left in the best order: no order avoids it, so name it.
        var legs = Array(zip(order, order.dropFirst()))
        if shape == .roundtrip { legs.append((order[order.count - 1], order[0])) }
        for (k, (a, b)) in legs.enumerated() where times.duration(a, b) == nil {
            throw .noRoute(leg: k, from: stops[a], to: stops[b], profile: profile.profile.name)
        }
        var visit = order.map { snapped[$0] }
        if shape == .roundtrip { visit.append(snapped[order[0]]) }
        let routed = try routes(through: visit, deadline: options.deadline)
        let given = planner.total(of: Array(0..<stops.count)) { times.duration($0, $1) }
        return TripResult(order: order, shape: shape, route: routed.routes[0], waypoints: snapped.map { Self.waypoint($0.nearest) },
                          givenOrderTime: given < TripPlanner.unreachable ? given : nil)
    }

    static func waypoint(_ s: SnappedLocation) -> Waypoint {
        Waypoint(query: s.query, location: s.location, snappingDistance: s.distance, name: s.name.isEmpty ? s.ref : s.name)
    }
}
