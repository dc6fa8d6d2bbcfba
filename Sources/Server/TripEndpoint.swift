import Foundation
import Wayfinder

/// `/trip/v1/{profile}/{coordinates}`: visits every coordinate once in a good order (a travelling-salesman tour),
/// as a round trip or from a fixed first to a fixed last stop.
enum TripEndpoint {
    static let options: Set<String> = ["roundtrip", "source", "destination", "steps", "geometries", "overview", "annotations",
                                       "radiuses", "generate_hints", "hints", "skip_waypoints"]

    static func respond(_ request: OSRMRequest, engine: ProfileEngine, limits: ServiceLimits, deadline: RequestDeadline) throws(OSRMError) -> JSONValue {
        try request.requireOnly(options)
        let count = request.coordinates.count
        guard count >= 2 else { throw .invalidQuery("a trip needs at least two coordinates, got \(count)") }
        guard count <= limits.maximumTripCoordinates else {
            throw .tooBig("a trip may have at most \(limits.maximumTripCoordinates) coordinates, got \(count)")
        }
        let roundtrip = try request.bool("roundtrip", default: true)
        let source = try request.choice("source", ["any", "first"], default: "any")
        let destination = try request.choice("destination", ["any", "last"], default: "any")
        if !roundtrip && source == "any" && destination == "any" {
            throw .notImplemented("a trip with roundtrip=false needs source=first or destination=last (as in OSRM)")
        }
        let encoder = try OSRMResponseEncoder(map: engine.map, request: request, mode: engine.mode)
        _ = try request.bool("generate_hints", default: true)
        let skipWaypoints = try request.bool("skip_waypoints", default: false)
        let radiuses = try request.radiuses(limits: limits)
        let snapped = try engine.snap(request.coordinates, radiuses: radiuses, defaultRadius: limits.defaultRadius)
        try deadline.check()
        // OSRM's shapes: a round trip starts at the first coordinate; otherwise source=first keeps it first and
        // destination=last keeps the last one last (either alone or both).
        var trip = TripRequest(stops: request.coordinates, transportType: engine.transportType,
                               shape: roundtrip ? .roundtrip : destination == "last" ? .endFixed : .open, maximumStops: count)
        trip.keepsFirstStop = roundtrip || source == "first"
        trip.snappedStops = snapped
        trip.deadline = deadline.search
        let planned: TripResponse
        do { planned = try Trip(trip, map: engine.map).calculate() } catch {
            if case .routing(.noRoute) = error {
                throw .noTrips("no trip reaches every coordinate: some lie on parts of the network that do not connect")
            }
            throw deadline.error(error)
        }
        try deadline.check()
        let order = planned.order, route = planned.directions.routes[0]
        var members: [(String, JSONValue)] = [("code", .string("Ok")), ("trips", .array([encoder.route(route)]))]
        if !skipWaypoints {
            var position = [Int](repeating: 0, count: count)
            for (k, i) in order.enumerated() { position[i] = k }
            members.append(("waypoints", .array((0..<count).map { i in
                OSRMResponseEncoder.waypoint(snapped[i].waypoint, extra: [("waypoint_index", .int(position[i])), ("trips_index", .int(0))])
            })))
        }
        return .object(members)
    }
}
