import Foundation
import Wayfinder

/// `/transit/v1/{lon,lat;lon,lat…}?depart=…|arrive=…[&max_transfers=N][&max_walk=M]`: transit itineraries (walk and
/// ride legs) through the coordinates, in the shape of `wayfinder route --mode transit --format json` plus `code`.
enum TransitEndpoint {
    static let options: Set<String> = ["depart", "arrive", "max_transfers", "max_walk"]

    /// The JSON body of a transit request, or the OSRM error it fails with.
    /// `deadline` holds inside the searches: past it they stop and the request fails with `Timeout`.
    static func respond(_ request: HTTPRequest, engine: TransitEngine, limits: ServiceLimits, deadline: RequestDeadline) throws(OSRMError) -> [UInt8] {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard parts.count == 3 || (parts.count == 4 && parts[2] == "table"), parts[0] == "transit" else {
            throw .invalidUrl("expected /transit/v1/{lon,lat;lon,lat…} or /transit/v1/table/{lon,lat;lon,lat…}, got \(request.path)")
        }
        guard parts[1] == "v1" else { throw .invalidVersion("unknown version '\(parts[1])' (only v1)") }
        guard let map = engine.map, let zone = map.transitTimeZone else { throw .invalidOptions(engine.unavailable ?? "this graph serves no transit") }
        if parts.count == 4 {
            return try TransitTableEndpoint.respond(parts[3], request: request, map: map, limits: limits, deadline: deadline)
        }
        var text = parts[2]
        if text.hasSuffix(".json") { text.removeLast(5) }
        let stops = try OSRMRequest.parseCoordinates(text)
        guard stops.count >= 2 else { throw .invalidQuery("a transit route needs at least two coordinates, got \(stops.count)") }
        guard stops.count <= limits.maximumRouteCoordinates else {
            throw .tooBig("a transit route may have at most \(limits.maximumRouteCoordinates) coordinates, got \(stops.count)")
        }
        var values: [String: String] = [:]
        for (name, value) in request.query {
            guard options.contains(name) else {
                throw .invalidOptions("unknown option '\(name)' for transit (accepted: \(options.sorted().joined(separator: ", ")))")
            }
            values[name] = value
        }
        if values["depart"] != nil && values["arrive"] != nil { throw .invalidOptions("give depart or arrive, not both") }
        let depart = try values["depart"].map { text throws(OSRMError) in try parseTime(text, option: "depart", map: map) }
        let arrive = try values["arrive"].map { text throws(OSRMError) in try parseTime(text, option: "arrive", map: map) }
        let transitOptions = try Self.transitOptions(values, limits: limits)
        var directions = DirectionsRequest(stops: stops, transportType: .transit, departureDate: arrive == nil ? (depart ?? Date()) : nil,
                                           arrivalDate: arrive, maximumSnappingDistance: limits.defaultRadius, timeZone: zone,
                                           transitOptions: transitOptions)
        directions.transitOptions.deadline = deadline.moment
        let trip: TransitTrip
        do {
            trip = try Directions(directions, map: map).calculateTransit()
        } catch .transit(.timedOut) {
            throw deadline.timedOut(hint: "ask for a shorter max_walk, fewer max_transfers or fewer coordinates")
        } catch {
            throw OSRMError(error)
        }
        // The encoder writes sorted keys, so "code" goes first: splice it in after the opening brace.
        let document = TransitJSONEncoder().encode(trip)
        return Array("{\"code\":\"Ok\",".utf8) + Array(document.utf8.dropFirst())
    }

    /// The limits of `max_transfers` and `max_walk` (defaults when absent); snapping within the service's radius.
    static func transitOptions(_ values: [String: String], limits: ServiceLimits) throws(OSRMError) -> TransitOptions {
        var transitOptions = TransitOptions(maxSnappingDistance: limits.defaultRadius)
        if let text = values["max_transfers"] {
            guard let n = Int(text), (0...6).contains(n) else {
                throw .invalidQuery("max_transfers must be a whole number from 0 to 6, got '\(text)'")
            }
            transitOptions.maxTransfers = n
        }
        if let text = values["max_walk"] {
            let most = TransitOptions.maximumWalk
            guard let m = Double(text), m >= 0, m <= most else {
                throw .invalidQuery("max_walk must be a number of metres from 0 to \(Int(most)), got '\(text)'")
            }
            transitOptions.maxWalk = m
        }
        return transitOptions
    }

    /// A query time (`ISO8601`): local time in the feed's zone when it has no offset (2017-05-10T08:30), or with an
    /// offset (2017-05-10T08:30:00-04:00; write `+` as %2B in URLs) or Z, as the map reads transit times.
    static func parseTime(_ text: String, option: String, map: OfflineMap) throws(OSRMError) -> Date {
        do { return try ISO8601.date(from: text, timeZone: map.transitTimeZone ?? .current) } catch {
            throw .invalidQuery("\(option) \(error.description); without an offset the time is the feed's local time")
        }
    }
}

extension OSRMError {
    /// A failed transit query as the API reports it: every case is a 400 naming the range or limits at fault.
    init(transit error: TransitError) {
        switch error {
        case .noTransitRoute: self = .noRoute(error.description)
        case .noRoad: self = .noSegment(error.description)
        case .dateOutsideFeed: self = .invalidValue(error.description)
        case .invalidCoordinate, .tooFewStops: self = .invalidQuery(error.description)
        default: self = .invalidOptions(error.description)
        }
    }
}
