import Foundation
import Graph
import Routing
import Transit

/// A round of stops to visit in the quickest order: the first stop stays first; the others are reordered
/// (exactly up to 12 stops, by a heuristic up to 1000), then routed.
public struct TripRequest: Sendable {
    /// When the road searches give up (see `DirectionsRequest.deadline`). Default: never.
    public var deadline: SearchDeadline = .none
    public var stops: [Coordinate]
    public var transportType: TransportType
    /// Open path (end anywhere), round trip (back to the first stop), or the last stop kept last.
    public var shape: TripPlanner.Shape
    /// When to leave (default: now).
    public var departureDate: Date?
    public var maximumSnappingDistance: Double
    /// Most stops accepted.
    public var maximumStops: Int
    public var timeZone: TimeZone
    /// Whether the first stop stays first (default). With `shape: .endFixed`, false lets the trip start anywhere and
    /// end at the last stop (OSRM's `source=any&destination=last`); other shapes always start at the first stop.
    public var keepsFirstStop = true
    /// Each stop's own snapping limit, metres (OSRM's `radiuses`); a missing entry uses `maximumSnappingDistance`.
    public var stopRadii: [Double]?
    /// The stops already snapped (`OfflineMap.snap`): used as they are, never snapped again.
    public var snappedStops: [SnappedPlace]?
    /// Limits of a transit trip (most transfers, longest walk to and from stops).
    public var transitOptions = TransitOptions()

    public init(stops: [Coordinate], transportType: TransportType = .automobile, shape: TripPlanner.Shape = .open, departureDate: Date? = nil,
                maximumSnappingDistance: Double = 1000, maximumStops: Int = 1000, timeZone: TimeZone = .current) {
        self.stops = stops; self.transportType = transportType; self.shape = shape; self.departureDate = departureDate
        self.maximumSnappingDistance = maximumSnappingDistance; self.maximumStops = maximumStops; self.timeZone = timeZone
    }
}

/// The answer to a trip request: the visiting order, the route in that order, and the time saved.
public struct TripResponse: Sendable {
    /// Indices into the request's stops in visiting order (a round trip then returns to `order[0]`).
    public var order: [Int]
    public var shape: TripPlanner.Shape
    /// The route through the stops in visiting order, its waypoints in that order (the first repeated at the end of a round trip).
    public var directions: DirectionsResponse
    /// Seconds the stops take in the order given (nil when that order has a leg without a route).
    public var givenOrderTravelTime: Double?

    /// Seconds the reordering saves against the given order.
    public var saving: Double? { givenOrderTravelTime.map { max(0, $0 - directions.routes[0].expectedTravelTime) } }
}

/// Plans a trip on an offline map (the stop order, then the route). Safe to use from many threads.
public struct Trip: Sendable {
    public let request: TripRequest
    public let map: OfflineMap

    public init(_ request: TripRequest, map: OfflineMap) { self.request = request; self.map = map }

    /// The quickest order found and its route.
    public func calculate() throws(DirectionsError) -> TripResponse { try compute(Cancellation.never.with(request.deadline)) }

    /// The quickest order and its route; throws `.cancelled` when the task is cancelled (checked between the
    /// snapping, the matrix, the ordering and the route).
    public func calculate() async throws(DirectionsError) -> TripResponse { try compute(Cancellation.task.with(request.deadline)) }

    func compute(_ cancel: Cancellation) throws(DirectionsError) -> TripResponse {
        let type = request.transportType
        if type == .transit {
            throw .unsupported("a trip by transit is planned with calculateTransit(): its order is greedy by earliest arrival and its answer holds transit itineraries")
        }
        let count = request.snappedStops?.count ?? request.stops.count
        guard count >= 2 else { throw .routing(.tooFewStops(count)) }
        if count > request.maximumStops { throw .routing(.tooBig("a trip of \(count) stops is larger than the limit of \(request.maximumStops)")) }
        let places: [SnappedPlace]
        if let given = request.snappedStops { places = given } else {
            places = try map.snap(request.stops, transportType: type, maximumDistance: request.maximumSnappingDistance, radii: request.stopRadii)
        }
        let router = try map.router(for: type)
        let snapped = try map.stops(of: places, for: type)
        try cancel.check()
        let times = try map.matrix(from: places, to: places, cancel: cancel)
        let order = Self.order(count: count, shape: request.shape, keepsFirstStop: request.keepsFirstStop) { times.duration($0, $1) }
        // A leg with no route left in the best order: no order avoids it, so name it.
        var legs = Array(zip(order, order.dropFirst()))
        if request.shape == .roundtrip { legs.append((order[count - 1], order[0])) }
        for (k, (a, b)) in legs.enumerated() where times.duration(a, b) == nil {
            throw .routing(.noRoute(leg: k, from: places[a].query, to: places[b].query, profile: type.profileName))
        }
        try cancel.check()
        var visit = order.map { snapped[$0] }
        if request.shape == .roundtrip { visit.append(snapped[order[0]]) }
        let route: Route
        do { route = try router.routes(through: visit, deadline: cancel.deadline).routes[0] } catch { throw .routing(error) }
        let planner = TripPlanner(shape: request.shape)
        let given = planner.total(of: Array(0..<count)) { times.duration($0, $1) }
        var waypoints = order.map { places[$0].waypoint }
        if request.shape == .roundtrip { waypoints.append(places[order[0]].waypoint) }
        let departure = request.departureDate ?? Date()
        let result = RouteResult(routes: [route], waypoints: waypoints, mode: type.profileName, expectedDepartureDate: departure,
                                 expectedArrivalDate: departure.addingTimeInterval(route.expectedTravelTime), timeZone: request.timeZone)
        // The given order's time counts only when it has a route for every leg.
        return TripResponse(order: order, shape: request.shape, directions: result, givenOrderTravelTime: given < 1e9 ? given : nil)
    }

    /// Stop indices in visiting order for `shape` from the time between stops (nil: no route): `TripPlanner` keeps the
    /// first stop first; with `.endFixed` and `keepsFirstStop: false` the path is planned backwards from the last stop.
    static func order(count: Int, shape: TripPlanner.Shape, keepsFirstStop: Bool, time: (Int, Int) -> Double?) -> [Int] {
        guard shape == .endFixed, !keepsFirstStop, count > 1 else { return TripPlanner(shape: shape).order(count: count, time: time) }
        // Only the end is fixed: plan an open path from the last stop over the reversed times, then turn it around.
        let last = count - 1
        let index = [last] + Array(0..<last)
        let backwards = TripPlanner(shape: .open).order(count: count) { time(index[$1], index[$0]) }
        return backwards.map { index[$0] }.reversed()
    }
}
