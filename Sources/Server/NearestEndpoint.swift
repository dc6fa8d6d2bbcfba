import Foundation
import Graph
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
        let graph = engine.graph, snapper = engine.router.snapper
        // Several segments of one edge may come first: ask for more and keep the nearest per edge.
        let candidates = graph.nearestSegments(latitude: query.latitude, longitude: query.longitude, count: number * 8,
                                               maxDistance: radius, filter: snapper.isUsable)
        var seen = Set<Int>(), waypoints: [JSONValue] = []
        for candidate in candidates where waypoints.count < number && !seen.contains(candidate.edge) {
            seen.insert(candidate.edge)
            let snapped = snapper.location(of: candidate, query: query)
            let nodes: JSONValue = .array([.int(Int(graph.nodeOSMIDs[Int(graph.edgeFrom[candidate.edge])])),
                                           .int(Int(graph.nodeOSMIDs[Int(graph.edgeTo[candidate.edge])]))])
            waypoints.append(OSRMResponseEncoder.waypoint(snapped, extra: [("nodes", nodes)]))
        }
        guard !waypoints.isEmpty else {
            throw .noSegment("no road the \(engine.name) profile may use lies within \(Int(radius)) m of \(query.longitude),\(query.latitude)")
        }
        return .object([("code", .string("Ok")), ("waypoints", .array(waypoints))])
    }
}
