import Foundation
import Graph
import Routing
import Transit

/// "Which restaurants can I reach by 8?": the places of a category around an origin, ranked by when you reach them
/// by car, on foot or by transit (MapKit's spirit: a request, a search object, a response).
public struct NearbySearchRequest: Sendable {
    /// Where the trip starts.
    public var origin: Coordinate
    /// Only places of this category (`restaurant`, `amenity=restaurant`); nil to match `naturalLanguageQuery` alone.
    public var category: String?
    /// Words the places must match (may be empty when `category` is given).
    public var naturalLanguageQuery: String
    public var transportType: TransportType
    /// When to leave (default: now).
    public var departureDate: Date?
    /// Candidates lie at most this many metres from the origin in a straight line (nil: `defaultRadius(for:)`).
    public var radius: Double?
    /// Most places in the answer, after ranking by arrival (nil: every candidate).
    public var limit: Int?
    /// "Which can I reach by 8?": only the places reached by then (nil: every place, the unreachable ones last). The
    /// places reached later or not at all are left out and counted (`NearbySearchResponse.reachedLater`).
    public var latestArrival: Date?
    /// Farthest the origin or a place may lie from a road the mode may use, metres.
    public var maximumSnappingDistance: Double
    public var timeZone: TimeZone
    /// Limits of a transit request (most transfers, longest walk to and from stops).
    public var transitOptions = TransitOptions()

    /// The default search radius: 2 km on foot and by transit, 10 km by car.
    public static func defaultRadius(for type: TransportType) -> Double { type == .automobile ? 10_000 : 2_000 }
    /// The largest radius a request may give, metres.
    public static let maximumRadius = 100_000.0
    /// Most candidates ranked, nearest first (the place index's largest answer).
    public static let maximumCandidates = LocalSearchRequest.maximumLimit

    /// A request for the places of `category` around `origin`.
    public init(origin: Coordinate, category: String?, naturalLanguageQuery: String = "", transportType: TransportType = .automobile,
                departureDate: Date? = nil, radius: Double? = nil, limit: Int? = nil, maximumSnappingDistance: Double = 1000,
                timeZone: TimeZone = .current) {
        self.origin = origin; self.category = category; self.naturalLanguageQuery = naturalLanguageQuery
        self.transportType = transportType; self.departureDate = departureDate; self.radius = radius; self.limit = limit
        self.maximumSnappingDistance = maximumSnappingDistance; self.timeZone = timeZone
    }

    /// The radius searched: `radius`, or the mode's default.
    public var effectiveRadius: Double { radius ?? Self.defaultRadius(for: transportType) }
}

/// One place of a nearby search: the place found and its ETA row (rank 1 is reached first; nil when unreachable).
public struct NearbyPlace: Sendable {
    public var rank: Int?
    public var mapItem: MapItem
    /// Travel time, arrival and distance (walking distance, rides and first boarding by transit), as `ETAList` gives them.
    public var eta: ETAListEntry
}

/// The answer of a nearby search: the places reached, earliest first, then the unreachable ones.
public struct NearbySearchResponse: Sendable {
    public var places: [NearbyPlace]
    /// How many places of the category lay within the radius (before `limit`).
    public var candidateCount: Int
    public var expectedDepartureDate: Date
    public var timeZone: TimeZone
    /// The request's `latestArrival` (nil without one).
    public var latestArrival: Date? = nil
    /// How many candidates `latestArrival` left out: reached after it, or not at all (0 without one).
    public var reachedLater = 0
}

/// Why a nearby search could not run.
public enum NearbySearchError: Error, CustomStringConvertible, Equatable {
    /// The place search failed (no place index, unknown category…).
    case places(LocalSearchError)
    /// The ETA search failed (the origin off the roads, a date outside the feed…).
    case directions(DirectionsError)
    /// `radius` is not more than 0 and at most `NearbySearchRequest.maximumRadius`.
    case radiusOutOfRange(Double)
    /// `limit` is not at least 1.
    case limitOutOfRange(Int)
    /// `latestArrival` is not after the departure (both shown in the request's zone).
    case latestArrivalBeforeDeparture(latest: Date, departure: Date, timeZone: TimeZone)

    public var description: String {
        switch self {
        case let .places(error): return error.description
        case let .directions(error): return error.description
        case let .radiusOutOfRange(r): return "radius \(r) m is outside 0 (exclusive) to \(Int(NearbySearchRequest.maximumRadius)) m"
        case let .limitOutOfRange(n): return "limit \(n) is less than 1"
        case let .latestArrivalBeforeDeparture(latest, departure, zone):
            return "the latest arrival \(ISO8601.string(latest, in: zone)) is not after the departure \(ISO8601.string(departure, in: zone))"
        }
    }
}

/// Runs a `NearbySearchRequest`: the place index gives the candidates within the radius (nearest first), then one
/// one-to-many ETA search from the origin (`ETAList`: a matrix row by road, one earliest-arrival search by transit,
/// each equal to the pair's own `eta`) ranks them by arrival.
public struct NearbySearch: Sendable {
    public let request: NearbySearchRequest
    public let map: OfflineMap

    public init(_ request: NearbySearchRequest, map: OfflineMap) { self.request = request; self.map = map }

    /// The places of the category within the radius, nearest first (at most `maximumCandidates`).
    public func candidates() throws(NearbySearchError) -> [MapItem] {
        let r = request
        let radius = r.effectiveRadius
        guard radius > 0, radius <= NearbySearchRequest.maximumRadius else { throw .radiusOutOfRange(radius) }
        if let limit = r.limit, limit < 1 { throw .limitOutOfRange(limit) }
        let found: LocalSearchResponse
        do {
            found = try LocalSearch(LocalSearchRequest(naturalLanguageQuery: r.naturalLanguageQuery, category: r.category, near: r.origin,
                                                       limit: NearbySearchRequest.maximumCandidates), map: map).start()
        } catch { throw .places(error) }
        let within = found.mapItems.enumerated().filter { ($0.element.distance ?? .infinity) <= radius }
        return within.sorted { ($0.element.distance ?? 0, $0.offset) < ($1.element.distance ?? 0, $1.offset) }.map(\.element)
    }

    /// The ETA request the ranking runs: from the origin to every candidate, as `eta --from --to-file` would.
    public func etaRequest(to items: [MapItem]) -> ETAListRequest {
        let r = request
        var eta = ETAListRequest(origin: r.origin, places: items.map { ETAPlace(name: $0.name, coordinate: $0.coordinate) },
                                 transportType: r.transportType, departureDate: r.departureDate,
                                 maximumSnappingDistance: r.maximumSnappingDistance, timeZone: r.timeZone)
        eta.transitOptions = r.transitOptions
        return eta
    }

    /// The candidates ranked by arrival (ties keep the nearer first), unreachable ones last (with `latestArrival`,
    /// only those reached by then), cut to `limit`.
    public func calculate() throws(NearbySearchError) -> NearbySearchResponse {
        // The one departure every row leaves at (a request for "now" is fixed once, so ranking and directions agree).
        let departure = request.departureDate ?? Date()
        if let latest = request.latestArrival, latest <= departure {
            throw .latestArrivalBeforeDeparture(latest: latest, departure: departure, timeZone: request.timeZone)
        }
        let items = try candidates()
        var eta = etaRequest(to: items)
        eta.departureDate = departure
        let rows: ETAListResponse
        do { rows = try ETAList(eta, map: map).calculate() } catch { throw .directions(error) }
        let order = rows.entries.indices.sorted { a, b in
            let x = rows.entries[a].expectedArrivalDate ?? .distantFuture, y = rows.entries[b].expectedArrivalDate ?? .distantFuture
            return x != y ? x < y : a < b
        }
        var places: [NearbyPlace] = []
        for (position, i) in order.enumerated() {
            let entry = rows.entries[i]
            places.append(NearbyPlace(rank: entry.status == .ok ? position + 1 : nil, mapItem: items[i], eta: entry))
        }
        var reachedLater = 0
        if let latest = request.latestArrival {
            let inTime = places.filter { place in place.rank != nil && place.eta.expectedArrivalDate.map { $0 <= latest } ?? false }
            reachedLater = places.count - inTime.count
            places = inTime
        }
        if let limit = request.limit, places.count > limit { places.removeLast(places.count - limit) }
        return NearbySearchResponse(places: places, candidateCount: items.count, expectedDepartureDate: departure, timeZone: request.timeZone,
                                    latestArrival: request.latestArrival, reachedLater: reachedLater)
    }

    /// The directions request to one place of a response: from the origin, leaving at the response's departure, by the
    /// request's mode (run it with `Directions`: `calculateTransit()` by transit, `calculate()` by road), the same
    /// request `route` makes for that pair.
    public func directionsRequest(to place: NearbyPlace, departure: Date) -> DirectionsRequest {
        let r = request
        return DirectionsRequest(stops: [r.origin, place.mapItem.coordinate], transportType: r.transportType, departureDate: departure,
                                 maximumSnappingDistance: r.maximumSnappingDistance, timeZone: r.timeZone, transitOptions: r.transitOptions)
    }
}
