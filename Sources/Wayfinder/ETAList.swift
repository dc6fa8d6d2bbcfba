import Foundation
import Graph
import Routing
import Transit

/// A place to estimate the arrival at: a name and a position (and, from a places file, a subtitle).
public struct ETAPlace: Equatable, Sendable {
    public var name: String
    public var coordinate: Coordinate
    /// A second line describing the place (`restaurant, Rue Grimaldi 12`), empty when there is none.
    public var subtitle: String
    /// The map's place the name was taken to be, when the place was given by name alone (`StopResolver`).
    public var place: MapItem?
    public init(name: String, coordinate: Coordinate, subtitle: String = "", place: MapItem? = nil) {
        self.name = name; self.coordinate = coordinate; self.subtitle = subtitle; self.place = place
    }

    /// The `place` member of JSON outputs (`ResolvedStop.placeJSON`), present only for a place found by name.
    var placeMember: [(String, JSONValue)] {
        guard let place else { return [] }
        return [("place", ResolvedStop(text: name, coordinate: coordinate, source: .placeIndex, place: place).placeJSON)]
    }
}

/// Travel times from one origin to many places ("ETA to each nearby restaurant"), from a single search.
public struct ETAListRequest: Sendable {
    public var origin: Coordinate
    public var places: [ETAPlace]
    public var transportType: TransportType
    /// When to leave (default: now).
    public var departureDate: Date?
    /// Farthest the origin or a place may lie from a road the mode may use, metres.
    public var maximumSnappingDistance: Double
    public var timeZone: TimeZone
    /// Limits of a transit request (most transfers, longest walk to and from stops).
    public var transitOptions = TransitOptions()
    /// By transit: also each place's best, median and worst travel time over departures in this many seconds
    /// from `departureDate` (0 < window ≤ 24 h); nil for the one departure only.
    public var departureWindow: TimeInterval? = nil

    public init(origin: Coordinate, places: [ETAPlace], transportType: TransportType = .automobile, departureDate: Date? = nil,
                maximumSnappingDistance: Double = 1000, timeZone: TimeZone = .current) {
        self.origin = origin; self.places = places; self.transportType = transportType; self.departureDate = departureDate
        self.maximumSnappingDistance = maximumSnappingDistance; self.timeZone = timeZone
    }
}

/// One place's row of an ETA list.
public struct ETAListEntry: Equatable, Sendable {
    public enum Status: String, Sendable {
        case ok
        /// The place lies farther than the snapping limit from any road the mode may use.
        case noRoad = "no_road"
        /// No route reaches the place.
        case noRoute = "no_route"
    }
    public var place: ETAPlace
    public var status: Status
    /// Seconds and metres (nil unless `status` is `.ok`).
    public var expectedTravelTime: Double?
    public var distance: Double?
    public var expectedArrivalDate: Date?
    /// Where the place snapped to a road (nil when it found none).
    public var waypoint: Waypoint? = nil
    /// By transit: the earliest arrival's rides, metres walked and first boarding (`distance` is the metres walked).
    public var transit: TransitArrival? = nil
    /// By transit with a departure window: best, median and worst travel time over the window's departures.
    public var departureWindow: TransitDepartureWindow? = nil
}

/// The answer to an ETA list request: the rows in the request's place order.
public struct ETAListResponse: Sendable {
    public var entries: [ETAListEntry]
    public var expectedDepartureDate: Date
    public var timeZone: TimeZone

    /// The rows sorted by travel time, unreachable places last (ties keep the request's order).
    public var sortedByETA: [ETAListEntry] {
        entries.enumerated().sorted { a, b in
            let x = a.element.expectedTravelTime ?? .infinity, y = b.element.expectedTravelTime ?? .infinity
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }
}

/// Computes an ETA list as one row of a travel-time matrix (one search from the origin).
public struct ETAList: Sendable {
    public let request: ETAListRequest
    public let map: OfflineMap

    public init(_ request: ETAListRequest, map: OfflineMap) { self.request = request; self.map = map }

    /// The rows; throws only when the origin cannot be used (invalid, or too far from a road).
    public func calculate() throws(DirectionsError) -> ETAListResponse { try compute(Cancellation.never) }

    /// The rows; throws `.cancelled` when the task is cancelled (checked between snapping and the search).
    public func calculate() async throws(DirectionsError) -> ETAListResponse { try compute(Cancellation.task) }

    func compute(_ cancel: Cancellation) throws(DirectionsError) -> ETAListResponse {
        if request.transportType == .transit {
            return try computeTransit(cancel)
        }
        let origin = try map.snap([request.origin], transportType: request.transportType, maximumDistance: request.maximumSnappingDistance)[0]
        var targets: [SnappedPlace] = []
        var waypoints: [Waypoint?] = []
        var targetIndex: [Int?] = []
        for place in request.places {
            if let snapped = try map.snap(place.coordinate, transportType: request.transportType, maximumDistance: request.maximumSnappingDistance) {
                targetIndex.append(targets.count)
                targets.append(snapped)
                waypoints.append(snapped.waypoint)
            } else {
                targetIndex.append(nil)
                waypoints.append(nil)
            }
            try cancel.check()
        }
        // One row of a matrix: over the contraction hierarchy when the graph has one, else one Dijkstra; each entry
        // as a leg from the origin would be (nearest roads first, then off small islands).
        let row = try map.matrix(from: [origin], to: targets, cancel: cancel)
        let departure = request.departureDate ?? Date()
        let entries = request.places.enumerated().map { i, place -> ETAListEntry in
            guard let t = targetIndex[i] else { return ETAListEntry(place: place, status: .noRoad) }
            guard let duration = row.duration(0, t), let distance = row.distance(0, t) else {
                var entry = ETAListEntry(place: place, status: .noRoute)
                entry.waypoint = waypoints[i]
                return entry
            }
            return ETAListEntry(place: place, status: .ok, expectedTravelTime: duration, distance: distance,
                                expectedArrivalDate: departure.addingTimeInterval(duration), waypoint: waypoints[i])
        }
        return ETAListResponse(entries: entries, expectedDepartureDate: departure, timeZone: request.timeZone)
    }
}

extension ETAListEntry {
    init(place: ETAPlace, status: Status) {
        self.init(place: place, status: status, expectedTravelTime: nil, distance: nil, expectedArrivalDate: nil)
    }
}
