import Foundation
import Graph
import Routing

/// A round of stops to visit in the quickest order: the first stop stays first; the others are reordered
/// (exactly up to 12 stops, by a heuristic up to 1000), then routed.
public struct TripRequest: Sendable {
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

/// Plans a trip on a graph (the stop order, then the route). Safe to use from many threads.
public struct Trip: Sendable {
    public let request: TripRequest
    public let graph: RoadGraph

    public init(_ request: TripRequest, graph: RoadGraph) { self.request = request; self.graph = graph }

    /// The quickest order found and its route.
    public func calculate() throws(DirectionsError) -> TripResponse {
        if request.transportType == .transit {
            throw .unsupported("a trip by transit is not offered: the quickest order depends on when each leg leaves, which a travel-time matrix cannot capture; plan it by car or on foot, or route a chosen order with route --mode transit")
        }
        let found: TripResult
        do {
            let router = try RouterCache.shared.router(for: graph, profile: request.transportType.profileName)
            found = try router.trip(through: request.stops, shape: request.shape,
                                    options: MatrixOptions(maxSnappingDistance: request.maximumSnappingDistance, maxTripStops: request.maximumStops))
        } catch {
            throw .routing(error)
        }
        var visit = found.order.map { found.waypoints[$0] }
        if request.shape == .roundtrip { visit.append(found.waypoints[found.order[0]]) }
        let departure = request.departureDate ?? Date()
        let result = RouteResult(routes: [found.route], waypoints: visit, mode: request.transportType.profileName,
                                 expectedDepartureDate: departure, expectedArrivalDate: departure.addingTimeInterval(found.route.expectedTravelTime),
                                 timeZone: request.timeZone)
        return TripResponse(order: found.order, shape: found.shape, directions: result, givenOrderTravelTime: found.givenOrderTime)
    }
}
