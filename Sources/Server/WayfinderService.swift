import Foundation
import Wayfinder

/// The HTTP API over one graph: the map page and its assets, `/health`, `/info`, `/roads`, OSRM's route, table,
/// trip and nearest services, and `/transit/v1` when the graph has a timetable. Thread-safe: one instance answers every worker thread.
public final class WayfinderService: HTTPHandler, @unchecked Sendable {
    /// The map every request runs against.
    public let map: OfflineMap
    public let limits: ServiceLimits
    /// The served profiles by graph profile name ("car", "foot").
    public let engines: [String: ProfileEngine]
    /// The timetable's router, or why the graph serves no transit.
    public let transit: TransitEngine

    /// Prepares every profile of `map` that the API serves (car and foot), and its timetable when it has one.
    public init(map: OfflineMap, limits: ServiceLimits = ServiceLimits()) throws(DirectionsError) {
        self.map = map
        self.limits = limits
        var engines: [String: ProfileEngine] = [:]
        for type in map.transportTypes where type != .transit && Set(OSRMRequest.profileAliases.values).contains(type.profileName) {
            engines[type.profileName] = try ProfileEngine(map: map, transportType: type)
        }
        self.engines = engines
        transit = TransitEngine(map: map)
    }

    /// The answer to one request: the page, JSON, or OSRM's error JSON (never a trap).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do { return try answer(request) } catch { return error.response }
    }

    /// The response for `request`, or the OSRM error it fails with.
    func answer(_ request: HTTPRequest) throws(OSRMError) -> HTTPResponse {
        switch request.path {
        case "/", "/index.html": return MapPage.html
        case "/map.js": return MapPage.script
        case "/map.css": return MapPage.style
        case "/health": return .json(InfoEndpoint.health())
        case "/info": return .json(InfoEndpoint.info(map: map, engines: engines, transit: transit, limits: limits))
        case "/roads": return .json(try RoadsEndpoint.respond(request, map: map, limits: limits))
        default: break
        }
        if request.path.hasPrefix("/search/") || request.path == "/search" { return try SearchEndpoint.respond(request, map: map) }
        if request.path.hasPrefix("/transit/") || request.path == "/transit" {
            let deadline = RequestDeadline(limit: limits.requestTimeLimit)
            let body = try TransitEndpoint.respond(request, engine: transit, limits: limits, deadline: deadline)
            return HTTPResponse(contentType: "application/json; charset=utf-8", body: body)
        }
        let services: Set<String> = ["route", "table", "trip", "nearest"]
        // Paths shaped like OSRM's (or naming one of its services) get OSRM's errors; anything else is not found.
        let segments = request.path.split(separator: "/")
        guard let first = segments.first, services.contains(String(first)) || segments.count == 4 else {
            throw .notFound("nothing at \(request.path): the API has /route, /table, /trip, /nearest, /transit (v1), /search/v1, /roads, /info and /health")
        }
        let parsed = try OSRMRequest(request, services: services)
        let profileName = OSRMRequest.profileAliases[parsed.profile]!
        guard let engine = engines[profileName] else {
            throw .invalidOptions("the graph has no \(profileName) profile (it has \(engines.keys.sorted().joined(separator: ", ")))")
        }
        let deadline = RequestDeadline(limit: limits.requestTimeLimit)
        let body: JSONValue
        switch parsed.service {
        case "route": body = try RouteEndpoint.respond(parsed, engine: engine, limits: limits, deadline: deadline)
        case "table": body = try TableEndpoint.respond(parsed, engine: engine, limits: limits, deadline: deadline)
        case "trip": body = try TripEndpoint.respond(parsed, engine: engine, limits: limits, deadline: deadline)
        default: body = try NearestEndpoint.respond(parsed, engine: engine, limits: limits)
        }
        return .json(body)
    }
}
