import Foundation
import Graph
import Routing
import Transit

/// How a trip is made, as MapKit names it.
public enum TransportType: String, Sendable, CaseIterable {
    /// By car: the graph's `car` profile.
    case automobile
    /// On foot: the graph's `foot` profile.
    case walking
    /// By public transit: the graph file's GTFS timetable, walking (the `foot` profile) to, from and between stops.
    case transit

    /// The graph profile this transport type routes on (transit walks on `foot`).
    public var profileName: String { self == .automobile ? "car" : "foot" }
}

/// What to route: the stops in order, how, and when (MapKit's `MKDirections.Request`, for many stops).
public struct DirectionsRequest: Sendable {
    /// Two or more stops, visited in order.
    public var stops: [Coordinate]
    public var transportType: TransportType
    /// When to leave (default: now). Give this or `arrivalDate`, not both.
    public var departureDate: Date?
    /// When to arrive: the departure is worked back from the travel time.
    public var arrivalDate: Date?
    /// Whether to look for alternative routes (single-leg requests only).
    public var requestsAlternateRoutes: Bool
    /// How many alternatives at most, when requested.
    public var maximumAlternateRoutes: Int
    /// Straight great-circle lines between the stops instead of routes.
    public var straightLines: Bool
    /// Farthest a stop may lie from a road the mode may use, metres.
    public var maximumSnappingDistance: Double
    /// The time zone dates are reported in (default: the system's).
    public var timeZone: TimeZone
    /// Limits of a transit request (most transfers, longest walk to and from stops).
    public var transitOptions: TransitOptions
    /// Each stop's own snapping limit, metres (OSRM's `radiuses`); a missing entry uses `maximumSnappingDistance`.
    public var stopRadii: [Double]?
    /// The stops already snapped (`OfflineMap.snap`): routed as they are, never snapped again; `stops` are their queries.
    public var snappedStops: [SnappedPlace]?
    /// When the road searches give up (a moment and/or a cancellation flag): past it they throw
    /// `RoutingError.timedOut` (or `.cancelled`), checked inside the searches. Default: never.
    public var deadline: SearchDeadline = .none
    /// `calculateETA` also gives each leg's roads and their metres (`ETASummary.legRoads`), found along the path
    /// without laying out steps.
    public var includesLegRoads = false

    public init(stops: [Coordinate], transportType: TransportType = .automobile, departureDate: Date? = nil, arrivalDate: Date? = nil,
                requestsAlternateRoutes: Bool = false, maximumAlternateRoutes: Int = 2, straightLines: Bool = false,
                maximumSnappingDistance: Double = 1000, timeZone: TimeZone = .current, transitOptions: TransitOptions = TransitOptions()) {
        self.transitOptions = transitOptions
        self.stops = stops; self.transportType = transportType; self.departureDate = departureDate; self.arrivalDate = arrivalDate
        self.requestsAlternateRoutes = requestsAlternateRoutes; self.maximumAlternateRoutes = maximumAlternateRoutes
        self.straightLines = straightLines; self.maximumSnappingDistance = maximumSnappingDistance; self.timeZone = timeZone
    }

    /// A request through stops already snapped for their transport type: nothing is snapped again.
    public init(snappedStops: [SnappedPlace], departureDate: Date? = nil, arrivalDate: Date? = nil, requestsAlternateRoutes: Bool = false,
                maximumAlternateRoutes: Int = 2, timeZone: TimeZone = .current) {
        self.init(stops: snappedStops.map(\.query), transportType: snappedStops.first?.transportType ?? .automobile, departureDate: departureDate,
                  arrivalDate: arrivalDate, requestsAlternateRoutes: requestsAlternateRoutes, maximumAlternateRoutes: maximumAlternateRoutes,
                  timeZone: timeZone)
        self.snappedStops = snappedStops
    }
}

/// The answer to a directions request: routes (best first), the snapped stops, departure and arrival.
public typealias DirectionsResponse = RouteResult
/// The answer to an ETA request: travel time, distance, departure and arrival.
public typealias ETAResponse = ETASummary

/// Why a directions request failed.
public enum DirectionsError: Error, Equatable, CustomStringConvertible {
    /// Both a departure and an arrival date were given.
    case conflictingDates
    /// The stops could not be routed: which stop or leg, and why.
    case routing(RoutingError)
    /// A transit request failed: no timetable, a date outside the feed, no transit route within the limits…
    case transit(TransitError)
    /// The request asks for something this kind of answer does not offer (a matrix or trip by transit); says why.
    case unsupported(String)
    /// The task running an `async` request was cancelled before the answer was ready.
    case cancelled

    public var description: String {
        switch self {
        case .conflictingDates: return "give a departure date or an arrival date, not both"
        case let .routing(error): return error.description
        case let .transit(error): return error.description
        case let .unsupported(why): return why
        case .cancelled: return "the request was cancelled"
        }
    }
}

/// Computes directions and ETAs for a request on an offline map (MapKit's `MKDirections`). Requests on one map may
/// run concurrently from many threads; the `async` forms stop with `DirectionsError.cancelled` when their task is cancelled.
public struct Directions: Sendable {
    public let request: DirectionsRequest
    public let map: OfflineMap

    public init(_ request: DirectionsRequest, map: OfflineMap) {
        self.request = request
        self.map = map
    }

    /// The routes through the request's stops, with steps, geometry, and departure and arrival dates.
    public func calculate() throws(DirectionsError) -> DirectionsResponse {
        try compute(Cancellation.never.with(request.deadline))
    }

    /// The routes through the request's stops; throws `.cancelled` when the task is cancelled (checked between steps).
    public func calculate() async throws(DirectionsError) -> DirectionsResponse {
        try compute(Cancellation.task.with(request.deadline))
    }

    /// Travel time, distance, departure and arrival of the best route, without alternatives.
    public func calculateETA() throws(DirectionsError) -> ETAResponse {
        try computeETA(Cancellation.never.with(request.deadline))
    }

    /// Travel time, distance, departure and arrival of the best route; throws `.cancelled` when the task is cancelled.
    public func calculateETA() async throws(DirectionsError) -> ETAResponse {
        try computeETA(Cancellation.task.with(request.deadline))
    }

    /// The work of `calculateETA`: the same snapping and leg searches as `compute` through `Router.eta`, which lays
    /// out no geometry and no steps (its time and distance are those of `calculate`'s best route exactly).
    func computeETA(_ cancel: Cancellation) throws(DirectionsError) -> ETAResponse {
        if request.departureDate != nil && request.arrivalDate != nil { throw .conflictingDates }
        if request.transportType == .transit { return try Directions(request.withoutAlternatives, map: map).computeTransit(cancel).routeResult.eta }
        try cancel.check()
        let router = try map.router(for: request.transportType)
        let estimate: RouteEstimate
        if request.straightLines {
            do { estimate = try router.eta(through: request.stops, options: RouteOptions(straightLines: true)) } catch { throw .routing(error) }
        } else {
            let snapped = try snappedStops()
            try cancel.check()
            do { estimate = try router.eta(through: snapped, deadline: cancel.deadline, roadTotals: request.includesLegRoads) } catch { throw .routing(error) }
        }
        try cancel.check()
        let (departure, arrival) = dates(travelling: estimate.expectedTravelTime)
        var summary = ETASummary(distance: estimate.distance, expectedTravelTime: estimate.expectedTravelTime, expectedDepartureDate: departure,
                                 expectedArrivalDate: arrival, timeZone: request.timeZone,
                                 legDistances: estimate.legDistances, legTravelTimes: estimate.legTravelTimes)
        summary.legRoads = estimate.legRoads
        summary.waypoints = estimate.waypoints
        return summary
    }

    /// The request's stops snapped for its transport type (those already snapped are taken as they are).
    func snappedStops() throws(DirectionsError) -> [SnappedStop] {
        if let places = request.snappedStops { return try map.stops(of: places, for: request.transportType) }
        return try map.snap(request.stops, transportType: request.transportType, maximumDistance: request.maximumSnappingDistance,
                            radii: request.stopRadii).map(\.stop)
    }

    /// Departure and arrival of a trip taking `travel` seconds: worked back from the arrival date when one is given,
    /// else forward from the departure date (default: now).
    func dates(travelling travel: Double) -> (departure: Date, arrival: Date) {
        if let arrivalDate = request.arrivalDate { return (arrivalDate.addingTimeInterval(-travel), arrivalDate) }
        let departure = request.departureDate ?? Date()
        return (departure, departure.addingTimeInterval(travel))
    }

    /// The work of `calculate`, checking `cancel` between its steps.
    func compute(_ cancel: Cancellation) throws(DirectionsError) -> DirectionsResponse {
        if request.departureDate != nil && request.arrivalDate != nil { throw .conflictingDates }
        if request.transportType == .transit { return try computeTransit(cancel).routeResult }
        try cancel.check()
        let router = try map.router(for: request.transportType)
        let found: (routes: [Route], waypoints: [Waypoint])
        if request.straightLines {
            let options = RouteOptions(straightLines: true)
            do { found = try router.routes(through: request.stops, options: options) } catch { throw .routing(error) }
        } else {
            let snapped = try snappedStops()
            try cancel.check()
            let alternatives = request.requestsAlternateRoutes ? request.maximumAlternateRoutes : 0
            do { found = try router.routes(through: snapped, alternatives: alternatives, deadline: cancel.deadline) } catch { throw .routing(error) }
        }
        try cancel.check()
        let (departure, arrival) = dates(travelling: found.routes[0].expectedTravelTime)
        return RouteResult(routes: found.routes, waypoints: found.waypoints, mode: request.transportType.profileName,
                           expectedDepartureDate: departure, expectedArrivalDate: arrival, timeZone: request.timeZone,
                           straightLines: request.straightLines, anchoredAtArrival: request.arrivalDate != nil)
    }
}

extension DirectionsRequest {
    /// The request with alternatives off (an ETA is of the best route only).
    var withoutAlternatives: DirectionsRequest {
        var single = self
        single.requestsAlternateRoutes = false
        return single
    }
}

/// How long work learns that it should stop: never (the synchronous forms), or when the current `Task` is cancelled.
struct Cancellation: Sendable {
    let isCancelled: @Sendable () -> Bool
    /// Whether `isCancelled` is always false (work need not be split to check it).
    let canNeverCancel: Bool

    /// The moment (or flag) the road searches stop at, inside their loops: the request's own `deadline`.
    var deadline: SearchDeadline = .none

    static let never = Cancellation(isCancelled: { false }, canNeverCancel: true)
    static let task = Cancellation(isCancelled: { Task.isCancelled }, canNeverCancel: false)

    /// The same, with the searches stopping at `deadline`.
    func with(_ deadline: SearchDeadline) -> Cancellation {
        var copy = self
        copy.deadline = deadline
        return copy
    }

    /// Throws `.cancelled` once cancellation was asked for.
    func check() throws(DirectionsError) { if isCancelled() { throw .cancelled } }
}
