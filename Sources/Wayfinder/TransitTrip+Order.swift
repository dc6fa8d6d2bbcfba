import Foundation
import Graph
import Routing
import Transit

/// The answer to a trip request by transit: the visiting order (greedy by earliest arrival, departures chained) and
/// the transit itineraries through the stops in that order.
public struct TransitTripResponse: Sendable {
    /// Indices into the request's stops in visiting order (a round trip then returns to `order[0]`).
    public var order: [Int]
    public var shape: TripPlanner.Shape
    /// The itineraries through the stops in visiting order, each leg leaving when the previous arrives.
    public var trip: TransitTrip
}

extension Trip {
    /// The visiting order by transit (`TransitRouter.greedyOrder`: from where the traveller is, at the moment they are
    /// there, the unvisited stop reached earliest; docs/transit.md "Orders by transit") and its itineraries.
    public func calculateTransit() throws(DirectionsError) -> TransitTripResponse { try computeTransit(Cancellation.never) }

    /// The transit order and itineraries; throws `.cancelled` when the task is cancelled (checked before each search).
    public func calculateTransit() async throws(DirectionsError) -> TransitTripResponse { try computeTransit(Cancellation.task) }

    func computeTransit(_ cancel: Cancellation) throws(DirectionsError) -> TransitTripResponse {
        let stops = request.stops
        guard stops.count >= 2 else { throw .transit(.tooFewStops(stops.count)) }
        if stops.count > request.maximumStops { throw .routing(.tooBig("a trip of \(stops.count) stops is larger than the limit of \(request.maximumStops)")) }
        let router = try map.transitRouter()
        var options = request.transitOptions
        options.maxSnappingDistance = request.maximumSnappingDistance
        let departure = request.departureDate ?? Date()
        // The first stop stays first; with `.endFixed` the last stays last; the stops between are ordered greedily.
        let middle = request.shape == .endFixed ? Array(1..<(stops.count - 1)) : Array(1..<stops.count)
        try cancel.check()
        var order = [0]
        if !middle.isEmpty {
            do {
                let greedy = try router.greedyOrder(start: stops[0], places: middle.map { stops[$0] }, departure: departure, options: options)
                order += greedy.order.map { middle[$0] }
            } catch {
                throw .transit(error)
            }
        }
        if request.shape == .endFixed { order.append(stops.count - 1) }
        try cancel.check()
        var visit = order.map { stops[$0] }
        if request.shape == .roundtrip { visit.append(stops[0]) }
        let directions = DirectionsRequest(stops: visit, transportType: .transit, departureDate: departure,
                                           maximumSnappingDistance: request.maximumSnappingDistance, timeZone: request.timeZone,
                                           transitOptions: request.transitOptions)
        let trip = try Directions(directions, map: map).computeTransit(cancel)
        return TransitTripResponse(order: order, shape: request.shape, trip: trip)
    }
}
