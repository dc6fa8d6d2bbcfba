import Foundation
import Wayfinder

/// `/table/v1/{profile}/{coordinates}`: durations and distances between sources and destinations.
enum TableEndpoint {
    static let options: Set<String> = ["sources", "destinations", "annotations", "radiuses", "generate_hints", "hints", "skip_waypoints"]

    static func respond(_ request: OSRMRequest, engine: ProfileEngine, limits: ServiceLimits, deadline: RequestDeadline) throws(OSRMError) -> JSONValue {
        try request.requireOnly(options)
        // Each coordinate a table uses is a source or a destination, so more than cells + 1 cannot all be used.
        guard request.coordinates.count <= limits.maximumTableCells + 1 else {
            throw .tooBig("a table may have at most \(limits.maximumTableCells + 1) coordinates (for \(limits.maximumTableCells) cells), got \(request.coordinates.count)")
        }
        let sources = try request.indices("sources"), destinations = try request.indices("destinations")
        guard !sources.isEmpty, !destinations.isEmpty else { throw .invalidQuery("a table needs at least one source and one destination") }
        guard sources.count * destinations.count <= limits.maximumTableCells else {
            throw .tooBig("a table may have at most \(limits.maximumTableCells) cells, asked for \(sources.count) × \(destinations.count)")
        }
        let annotations = try parseAnnotations(request.options["annotations"])
        _ = try request.bool("generate_hints", default: true)
        let skipWaypoints = try request.bool("skip_waypoints", default: false)
        let radiuses = try request.radiuses(limits: limits)
        let snapped = try engine.snap(request.coordinates, radiuses: radiuses, defaultRadius: limits.defaultRadius)
        try deadline.check()
        let matrix: DistanceMatrix
        do { matrix = try engine.map.matrix(from: sources.map { snapped[$0] }, to: destinations.map { snapped[$0] }, deadline: deadline.search) } catch {
            throw deadline.error(error, hint: "ask for fewer sources or destinations")
        }
        try deadline.check()
        func rows(_ value: (Int, Int) -> Double?) -> JSONValue {
            .array(sources.indices.map { i in .array(destinations.indices.map { j in value(i, j).map { JSONValue.rounded($0, 1) } ?? .null }) })
        }
        var members: [(String, JSONValue)] = [("code", .string("Ok"))]
        if annotations.contains("duration") { members.append(("durations", rows(matrix.duration))) }
        if annotations.contains("distance") { members.append(("distances", rows(matrix.distance))) }
        if !skipWaypoints {
            members.append(("sources", .array(sources.map { OSRMResponseEncoder.waypoint(snapped[$0].waypoint) })))
            members.append(("destinations", .array(destinations.map { OSRMResponseEncoder.waypoint(snapped[$0].waypoint) })))
        }
        return .object(members)
    }

    /// `annotations`: `duration` (default), `distance`, or both separated by a comma.
    static func parseAnnotations(_ text: String?) throws(OSRMError) -> Set<String> {
        guard let text else { return ["duration"] }
        let names = Set(text.split(separator: ",").map(String.init))
        guard !names.isEmpty, names.isSubset(of: ["duration", "distance"]) else {
            throw .invalidQuery("table annotations must be duration, distance or duration,distance, got '\(text)'")
        }
        return names
    }
}
