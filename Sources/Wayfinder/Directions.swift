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

    public init(stops: [Coordinate], transportType: TransportType = .automobile, departureDate: Date? = nil, arrivalDate: Date? = nil,
                requestsAlternateRoutes: Bool = false, maximumAlternateRoutes: Int = 2, straightLines: Bool = false,
                maximumSnappingDistance: Double = 1000, timeZone: TimeZone = .current, transitOptions: TransitOptions = TransitOptions()) {
        self.transitOptions = transitOptions
        self.stops = stops; self.transportType = transportType; self.departureDate = departureDate; self.arrivalDate = arrivalDate
        self.requestsAlternateRoutes = requestsAlternateRoutes; self.maximumAlternateRoutes = maximumAlternateRoutes
        self.straightLines = straightLines; self.maximumSnappingDistance = maximumSnappingDistance; self.timeZone = timeZone
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

    public var description: String {
        switch self {
        case .conflictingDates: return "give a departure date or an arrival date, not both"
        case let .routing(error): return error.description
        case let .transit(error): return error.description
        case let .unsupported(why): return why
        }
    }
}

/// Computes directions and ETAs for a request on a graph (MapKit's `MKDirections`), offline.
/// Queries on one graph may run concurrently from many threads.
public struct Directions: Sendable {
    public let request: DirectionsRequest
    public let graph: RoadGraph

    public init(_ request: DirectionsRequest, graph: RoadGraph) {
        self.request = request
        self.graph = graph
    }

    /// The routes through the request's stops, with steps, geometry, and departure and arrival dates.
    public func calculate() throws(DirectionsError) -> DirectionsResponse {
        if request.departureDate != nil && request.arrivalDate != nil { throw .conflictingDates }
        if request.transportType == .transit { return try calculateTransit().routeResult }
        let router: Router
        do { router = try RouterCache.shared.router(for: graph, profile: request.transportType.profileName) } catch { throw .routing(error) }
        let options = RouteOptions(maxSnappingDistance: request.maximumSnappingDistance,
                                   alternatives: request.requestsAlternateRoutes ? request.maximumAlternateRoutes : 0,
                                   straightLines: request.straightLines)
        let found: (routes: [Route], waypoints: [Waypoint])
        do { found = try router.routes(through: request.stops, options: options) } catch { throw .routing(error) }
        let travel = found.routes[0].expectedTravelTime
        let departure: Date, arrival: Date
        if let arrivalDate = request.arrivalDate {
            arrival = arrivalDate
            departure = arrivalDate.addingTimeInterval(-travel)
        } else {
            departure = request.departureDate ?? Date()
            arrival = departure.addingTimeInterval(travel)
        }
        return RouteResult(routes: found.routes, waypoints: found.waypoints, mode: request.transportType.profileName,
                           expectedDepartureDate: departure, expectedArrivalDate: arrival, timeZone: request.timeZone,
                           straightLines: request.straightLines, anchoredAtArrival: request.arrivalDate != nil)
    }

    /// Travel time, distance, departure and arrival of the best route, without alternatives.
    public func calculateETA() throws(DirectionsError) -> ETAResponse {
        var single = request
        single.requestsAlternateRoutes = false
        return try Directions(single, graph: graph).calculate().eta
    }
}

extension RoadGraph {
    /// Opens the graph file at `url` (memory-mapped; see `docs/graph-format.md`).
    public init(contentsOf url: URL) throws {
        try self.init(path: url.path)
    }
}

/// Keeps one router per graph file and profile, so repeated requests do not rebuild the search structures.
/// A router (and so its graph's mapping) lives as long as the process: a graph is typically opened once and used throughout.
final class RouterCache: @unchecked Sendable {
    static let shared = RouterCache()
    private let lock = NSLock()
    private var routers: [ObjectIdentifier: [String: Router]] = [:]

    func router(for graph: RoadGraph, profile: String) throws(RoutingError) -> Router {
        let key = ObjectIdentifier(graph.file)
        lock.lock()
        if let router = routers[key]?[profile] { lock.unlock(); return router }
        lock.unlock()
        let router = try Router(graph: graph, profile: profile)
        lock.lock()
        defer { lock.unlock() }
        if let existing = routers[key]?[profile] { return existing }
        routers[key, default: [:]][profile] = router
        return router
    }
}
