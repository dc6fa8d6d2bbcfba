import Foundation
import Wayfinder

/// `/route/v1/{profile}/{coordinates}`: the fastest route through the coordinates in order, and alternatives.
enum RouteEndpoint {
    static let options: Set<String> = ["alternatives", "steps", "geometries", "overview", "annotations", "radiuses",
                                       "generate_hints", "hints", "skip_waypoints", "continue_straight"]

    static func respond(_ request: OSRMRequest, engine: ProfileEngine, limits: ServiceLimits, deadline: RequestDeadline) throws(OSRMError) -> JSONValue {
        try request.requireOnly(options)
        guard request.coordinates.count >= 2 else { throw .invalidQuery("a route needs at least two coordinates, got \(request.coordinates.count)") }
        guard request.coordinates.count <= limits.maximumRouteCoordinates else {
            throw .tooBig("a route may have at most \(limits.maximumRouteCoordinates) coordinates, got \(request.coordinates.count)")
        }
        let alternatives = try alternativeCount(request.options["alternatives"], limits: limits)
        let encoder = try OSRMResponseEncoder(map: engine.map, request: request, mode: engine.mode)
        _ = try request.bool("generate_hints", default: true)
        let skipWaypoints = try request.bool("skip_waypoints", default: false)
        _ = try request.choice("continue_straight", ["default"], default: "default")
        let radiuses = try request.radiuses(limits: limits)
        // Each coordinate snaps once, within its own radius (and is never moved off an island beyond it); the
        // directions route the snapped places as they are.
        let snapped = try engine.snap(request.coordinates, radiuses: radiuses, defaultRadius: limits.defaultRadius)
        try deadline.check()
        // No geometry, steps or annotations asked for (OSRM's overview=false&steps=false): the ETA and each leg's road
        // totals give the same answer without laying out the route (unless a leg needs its steps to name its roads).
        if encoder.needsNoRouteLayout && alternatives == 0 {
            let eta: ETASummary
            do {
                var directions = DirectionsRequest(snappedStops: snapped)
                directions.deadline = deadline.search
                directions.includesLegRoads = true
                eta = try Directions(directions, map: engine.map).calculateETA()
            } catch { throw deadline.error(error, hint: "ask for fewer coordinates") }
            let roads = eta.legRoads.compactMap { $0 }
            if roads.count == eta.legRoads.count && !roads.isEmpty {
                try deadline.check()
                var members: [(String, JSONValue)] = [("code", .string("Ok")), ("routes", .array([encoder.route(eta: eta, roads: roads)]))]
                if !skipWaypoints { members.append(("waypoints", .array(eta.waypoints.map { OSRMResponseEncoder.waypoint($0) }))) }
                return .object(members)
            }
        }
        let found: DirectionsResponse
        do {
            var directions = DirectionsRequest(snappedStops: snapped, requestsAlternateRoutes: alternatives > 0, maximumAlternateRoutes: alternatives)
            directions.deadline = deadline.search
            found = try Directions(directions, map: engine.map).calculate()
        } catch { throw deadline.error(error, hint: alternatives > 0 ? "ask for fewer alternatives or fewer coordinates" : "ask for fewer coordinates") }
        try deadline.check()
        var members: [(String, JSONValue)] = [("code", .string("Ok")), ("routes", .array(found.routes.map(encoder.route)))]
        if !skipWaypoints {
            members.append(("waypoints", .array(found.waypoints.map { OSRMResponseEncoder.waypoint($0) })))
        }
        return .object(members)
    }

    /// `alternatives`: `true` (up to 1, as OSRM), `false`, or a number up to the limit.
    static func alternativeCount(_ text: String?, limits: ServiceLimits) throws(OSRMError) -> Int {
        guard let text else { return 0 }
        if text == "false" { return 0 }
        if text == "true" { return 1 }
        guard let n = Int(text), n >= 0 else {
            throw .invalidQuery("alternatives must be true, false or a whole number from 0 to \(limits.maximumAlternatives), got '\(text)'")
        }
        guard n <= limits.maximumAlternatives else { throw .tooBig("alternatives may be at most \(limits.maximumAlternatives), asked for \(n)") }
        return n
    }
}
