import Foundation
import Graph
import Routing

/// A place to estimate the arrival at: a name and a position.
public struct ETAPlace: Equatable, Sendable {
    public var name: String
    public var coordinate: Coordinate
    public init(name: String, coordinate: Coordinate) { self.name = name; self.coordinate = coordinate }
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
            throw .unsupported("an ETA list by transit is not offered yet; use eta --mode transit per pair")
        }
        let origin = try map.snap([request.origin], transportType: request.transportType, maximumDistance: request.maximumSnappingDistance)[0]
        var targets: [SnappedPlace] = []
        var targetIndex: [Int?] = []
        for place in request.places {
            if let snapped = try map.snap(place.coordinate, transportType: request.transportType, maximumDistance: request.maximumSnappingDistance) {
                targetIndex.append(targets.count)
                targets.append(snapped)
            } else {
                targetIndex.append(nil)
            }
            try cancel.check()
        }
        // One row of a matrix: over the contraction hierarchy when the graph has one, else one Dijkstra; each entry
        // as a leg from the origin would be (nearest roads first, then off small islands).
        let row = try map.matrix(from: [origin], to: targets, cancel: cancel)
        let departure = request.departureDate ?? Date()
        let entries = request.places.enumerated().map { i, place -> ETAListEntry in
            guard let t = targetIndex[i] else { return ETAListEntry(place: place, status: .noRoad) }
            guard let duration = row.duration(0, t), let distance = row.distance(0, t) else { return ETAListEntry(place: place, status: .noRoute) }
            return ETAListEntry(place: place, status: .ok, expectedTravelTime: duration, distance: distance,
                                expectedArrivalDate: departure.addingTimeInterval(duration))
        }
        return ETAListResponse(entries: entries, expectedDepartureDate: departure, timeZone: request.timeZone)
    }
}

/// Writes ETA lists as an aligned text table, a JSON array or CSV.
public enum ETAListEncoder {
    /// An aligned table: place, travel time, distance, arrival (ISO 8601 with offset).
    public static func text(_ entries: [ETAListEntry], timeZone: TimeZone) -> String {
        let rows = entries.map { entry -> [String] in
            let name = TextEncoder.clean(entry.place.name)
            guard entry.status == .ok, let time = entry.expectedTravelTime, let distance = entry.distance, let arrival = entry.expectedArrivalDate else {
                return [name, "-", "-", entry.status == .noRoad ? "no road" : "no route"]
            }
            return [name, TextEncoder.formatDuration(time), TextEncoder.formatDistance(distance), EncodingFormat.iso8601(arrival, in: timeZone)]
        }
        return TextEncoder.table(["place", "travel time", "distance", "arrival"], rows, right: [false, true, true, false])
            .map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\n"
    }

    /// A JSON array of objects: name, latitude, longitude, expectedTravelTime (s), distance (m),
    /// expectedArrivalDate, status (`ok`, `no_road`, `no_route`); the figures are null unless ok.
    public static func json(_ entries: [ETAListEntry], timeZone: TimeZone) -> String {
        let items = entries.map { entry -> JSONValue in
            .object([
                ("name", .string(entry.place.name)),
                ("latitude", .number(entry.place.coordinate.latitude, decimals: 7)),
                ("longitude", .number(entry.place.coordinate.longitude, decimals: 7)),
                ("expectedTravelTime", entry.expectedTravelTime.map { .number($0, decimals: 1) } ?? .null),
                ("distance", entry.distance.map { .number($0, decimals: 1) } ?? .null),
                ("expectedArrivalDate", entry.expectedArrivalDate.map { .string(EncodingFormat.iso8601($0, in: timeZone)) } ?? .null),
                ("status", .string(entry.status.rawValue)),
            ])
        }
        return JSONValue.array(items).serialized(pretty: true, sortedKeys: false)
    }

    /// CSV with a header `name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status`; empty figures unless ok.
    public static func csv(_ entries: [ETAListEntry], timeZone: TimeZone) -> String {
        var out = "name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status\n"
        for entry in entries {
            let fields = [
                quote(entry.place.name),
                EncodingFormat.number(entry.place.coordinate.latitude, decimals: 7),
                EncodingFormat.number(entry.place.coordinate.longitude, decimals: 7),
                entry.expectedTravelTime.map { EncodingFormat.number($0, decimals: 1) } ?? "",
                entry.distance.map { EncodingFormat.number($0, decimals: 1) } ?? "",
                entry.expectedArrivalDate.map { EncodingFormat.iso8601($0, in: timeZone) } ?? "",
                entry.status.rawValue,
            ]
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }

    /// An RFC 4180 field: quoted when it holds a comma, quote or line break.
    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension ETAListEntry {
    init(place: ETAPlace, status: Status) {
        self.init(place: place, status: status, expectedTravelTime: nil, distance: nil, expectedArrivalDate: nil)
    }
}
