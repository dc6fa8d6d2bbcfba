import Foundation
import Graph
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
        let encoder = try OSRMResponseEncoder(graph: engine.graph, request: request, mode: engine.mode)
        _ = try request.bool("generate_hints", default: true)
        let skipWaypoints = try request.bool("skip_waypoints", default: false)
        let radiuses = try request.radiuses(limits: limits)
        let snapped = try engine.snap(request.coordinates, radiuses: radiuses, defaultRadius: limits.defaultRadius)
        let matrix = try TableSource.matrix(from: snapped, to: snapped, engine: engine, deadline: deadline)
        guard let order = TripOrder.order(durations: matrix.durations, roundtrip: roundtrip,
                                          fixedStart: source == "first", fixedEnd: destination == "last") else {
            throw .noTrips("no trip reaches every coordinate: some lie on parts of the network that do not connect")
        }
        try deadline.check()
        var stops = order.map { snapped[$0] }
        if roundtrip { stops.append(stops[0]) }
        let route: Route
        do {
            route = try engine.router.routes(through: stops, deadline: deadline.search).routes[0]
        } catch { throw deadline.error(error) }
        var members: [(String, JSONValue)] = [("code", .string("Ok")), ("trips", .array([encoder.route(route)]))]
        if !skipWaypoints {
            var position = [Int](repeating: 0, count: count)
            for (k, i) in order.enumerated() { position[i] = k }
            members.append(("waypoints", .array((0..<count).map { i in
                OSRMResponseEncoder.waypoint(snapped[i].nearest, extra: [("waypoint_index", .int(position[i])), ("trips_index", .int(0))])
            })))
        }
        return .object(members)
    }
}
