import Foundation
import Graph
import Routing
import Transit

extension Directions {
    /// The transit itineraries through the request's stops (`transportType: .transit`): per pair of stops the Pareto
    /// set over arrival and rides, each next leg leaving when the previous arrives.
    public func calculateTransit() throws(DirectionsError) -> TransitTrip {
        if request.departureDate != nil && request.arrivalDate != nil { throw .conflictingDates }
        let router: TransitRouter
        do { router = try TransitRouterCache.shared.router(for: graph) } catch { throw .transit(error) }
        var options = request.transitOptions
        options.maxSnappingDistance = request.maximumSnappingDistance
        do {
            var trip = try router.trip(through: request.stops, departure: request.arrivalDate == nil ? (request.departureDate ?? Date()) : nil,
                                       arrival: request.arrivalDate, options: options)
            trip.timeZone = request.timeZone
            return trip
        } catch {
            throw .transit(error)
        }
    }
}

extension TransitTrip {
    /// The primary itineraries as a plain route result (one route, a leg per pair of stops, walk steps and one step
    /// per ride), for code that handles every transport type alike.
    public var routeResult: RouteResult {
        var legs: [RouteLeg] = []
        for plan in plans {
            let itinerary = plan.primary
            var steps: [RouteStep] = []
            for leg in itinerary.legs {
                if let ride = leg.ride {
                    let line = [ride.routeShortName, ride.routeLongName].filter { !$0.isEmpty }.joined(separator: " ")
                    steps.append(RouteStep(maneuver: .depart, name: line, ref: ride.routeShortName, distance: leg.distance,
                                           expectedTravelTime: leg.duration, location: leg.from.coordinate, bearingBefore: 0, bearingAfter: 0,
                                           instructions: "Take the \(ride.mode) \(line) towards \(ride.headsign) from \(leg.from.name) to \(leg.to.name) (\(ride.numberOfStops) stops)",
                                           geometry: leg.geometry))
                } else {
                    steps += leg.steps
                }
            }
            var geometry = itinerary.geometry
            if geometry.count == 1 { geometry.append(geometry[0]) }
            legs.append(RouteLeg(distance: itinerary.legs.reduce(0) { $0 + $1.distance }, expectedTravelTime: itinerary.duration,
                                 geometry: geometry, steps: steps, boundingBox: BoundingBox(geometry)!, traversals: []))
        }
        var polyline: [Coordinate] = []
        for leg in legs { for p in leg.geometry where polyline.last != p { polyline.append(p) } }
        if polyline.count == 1 { polyline.append(polyline[0]) }
        let box = legs.dropFirst().reduce(legs[0].boundingBox) { $0.union($1.boundingBox) }
        let names = plans.flatMap { $0.primary.legs.compactMap { $0.ride.map { $0.routeShortName.isEmpty ? $0.routeLongName : $0.routeShortName } } }
        let route = Route(distance: legs.reduce(0) { $0 + $1.distance }, expectedTravelTime: arrival.timeIntervalSince(departure),
                          polyline: polyline, legs: legs, boundingBox: box, name: names.joined(separator: ", "))
        let waypoints = stops.map { Waypoint(query: $0, location: $0, snappingDistance: 0, name: "") }
        return RouteResult(routes: [route], waypoints: waypoints, mode: "transit", expectedDepartureDate: departure,
                           expectedArrivalDate: arrival, timeZone: timeZone)
    }

    /// The ETA of the trip: departure, arrival, travel time and the distance covered.
    public var eta: ETASummary {
        ETASummary(distance: plans.reduce(0) { $0 + $1.primary.legs.reduce(0) { $0 + $1.distance } },
                   expectedTravelTime: arrival.timeIntervalSince(departure), expectedDepartureDate: departure,
                   expectedArrivalDate: arrival, timeZone: timeZone)
    }
}

/// Keeps one transit router per graph file: opening the timetable and laying it out for searching is done once.
final class TransitRouterCache: @unchecked Sendable {
    static let shared = TransitRouterCache()
    private let lock = NSLock()
    private var routers: [ObjectIdentifier: TransitRouter] = [:]

    func router(for graph: RoadGraph) throws(TransitError) -> TransitRouter {
        let key = ObjectIdentifier(graph.file)
        lock.lock()
        defer { lock.unlock() }
        if let router = routers[key] { return router }
        let router = try TransitRouter(graph: graph)
        routers[key] = router
        return router
    }
}
