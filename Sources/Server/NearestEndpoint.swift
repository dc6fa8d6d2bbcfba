import Foundation
import Wayfinder

/// `/nearest/v1/{profile}/{coordinate}`: the nearest road segments the profile may use, nearest first.
enum NearestEndpoint {
    static let options: Set<String> = ["number", "radiuses", "generate_hints", "hints"]

    static func respond(_ request: OSRMRequest, engine: ProfileEngine, limits: ServiceLimits) throws(OSRMError) -> JSONValue {
        try request.requireOnly(options)
        guard request.coordinates.count == 1 else { throw .invalidQuery("nearest takes exactly one coordinate, got \(request.coordinates.count)") }
        var number = 1
        if let text = request.options["number"] {
            guard let n = Int(text), n >= 1 else {
                throw .invalidQuery("number must be a whole number from 1 to \(limits.maximumNearestResults), got '\(text)'")
            }
            guard n <= limits.maximumNearestResults else { throw .tooBig("number must be from 1 to \(limits.maximumNearestResults), got \(n)") }
            number = n
        }
        _ = try request.bool("generate_hints", default: true)
        let radius = try request.radiuses(limits: limits)?[0] ?? limits.maximumRadius
        let query = request.coordinates[0]
        guard query.latitude.isFinite, query.longitude.isFinite, abs(query.latitude) <= 90, abs(query.longitude) <= 180 else {
            throw .invalidValue("the coordinate \(query.longitude),\(query.latitude) lies outside ±180 longitude and ±90 latitude")
        }
        let roads: [NearbyRoad]
        do { roads = try engine.map.nearestRoads(to: query, transportType: engine.transportType, count: number, maximumDistance: radius) } catch {
            throw OSRMError(error)
        }
        let waypoints = roads.map { road in
            OSRMResponseEncoder.waypoint(road.waypoint, extra: [("nodes", .array([.int(Int(road.osmNodeIDs.0)), .int(Int(road.osmNodeIDs.1))]))])
        }
        guard !waypoints.isEmpty else {
            throw .noSegment("no road the \(engine.name) profile may use lies within \(Int(radius)) m of \(query.longitude),\(query.latitude)")
        }
        return .object([("code", .string("Ok")), ("waypoints", .array(waypoints))])
    }
}
