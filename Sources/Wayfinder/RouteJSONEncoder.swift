import Foundation

/// Writes a `RouteResult` as JSON with MapKit-style names (schema: docs/route-json.md).
/// Keys are sorted and numbers rounded (metres and seconds to 0.1, degrees to 7 decimals), so output is byte-stable.
public struct RouteJSONEncoder: Sendable {
    /// Indent by two spaces, one member per line.
    public var prettyPrinted: Bool
    /// Also write every geometry as a `coordinates` array of `{"latitude","longitude"}` objects beside its `polyline`.
    public var includeCoordinates: Bool

    /// A compact encoder by default, polylines only.
    public init(prettyPrinted: Bool = false, includeCoordinates: Bool = false) {
        self.prettyPrinted = prettyPrinted
        self.includeCoordinates = includeCoordinates
    }

    /// Precision of every `polyline` string (encoded polyline, "polyline6").
    public static let polylinePrecision = 6

    /// The whole result: mode, dates, waypoints and routes with legs and steps; `places`, the stops as resolved
    /// (`StopResolver`), add a `places` member when any was given by name.
    public func encode(_ result: RouteResult, places: [ResolvedStop] = []) -> String {
        document(result, places: places).serialized(pretty: prettyPrinted)
    }

    /// The result as a JSON value, for documents that embed it (trips).
    func document(_ result: RouteResult, places: [ResolvedStop] = []) -> JSONValue {
        let tz = result.timeZone
        let routes: [JSONValue] = result.routes.enumerated().map { index, route in
            let dates = result.expectedDates(forRoute: index)
            var members: [(String, JSONValue)] = [
                ("name", .string(route.name)),
                ("distance", .number(route.distance, decimals: 1)),
                ("expectedTravelTime", .number(route.expectedTravelTime, decimals: 1)),
                ("expectedDepartureDate", .string(ISO8601.string(dates.departure, in: tz))),
                ("expectedArrivalDate", .string(ISO8601.string(dates.arrival, in: tz))),
                ("boundingBox", Self.boundingBox(route.boundingBox)),
                ("legs", .array(route.legs.map(leg))),
            ]
            members += geometry(route.polyline)
            return .object(members)
        }
        let document: JSONValue = .object([
            ("mode", .string(result.mode)),
            ("straightLines", .bool(result.straightLines)),
            ("timeZone", .string(result.timeZone.identifier)),
            ("expectedDepartureDate", .string(ISO8601.string(result.expectedDepartureDate, in: tz))),
            ("expectedArrivalDate", .string(ISO8601.string(result.expectedArrivalDate, in: tz))),
            ("waypoints", .array(result.waypoints.map(Self.waypoint))),
            ("routes", .array(routes)),
        ] + ResolvedStop.placesMember(places))
        return document
    }

    /// An ETA alone: `{"distance","expectedArrivalDate","expectedDepartureDate","expectedTravelTime"}`.
    public func encodeETA(_ eta: ETASummary, places: [ResolvedStop] = []) -> String {
        let document: JSONValue = .object([
            ("distance", .number(eta.distance, decimals: 1)),
            ("expectedTravelTime", .number(eta.expectedTravelTime, decimals: 1)),
            ("expectedDepartureDate", .string(ISO8601.string(eta.expectedDepartureDate, in: eta.timeZone))),
            ("expectedArrivalDate", .string(ISO8601.string(eta.expectedArrivalDate, in: eta.timeZone))),
        ] + ResolvedStop.placesMember(places))
        return document.serialized(pretty: prettyPrinted)
    }

    private func geometry(_ coordinates: [Coordinate]) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("polyline", .string(PolylineEncoder.encode(coordinates, precision: Self.polylinePrecision)))]
        if includeCoordinates { members.append(("coordinates", .array(coordinates.map(JSONValue.coordinateObject)))) }
        return members
    }

    private func leg(_ leg: RouteLeg) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("distance", .number(leg.distance, decimals: 1)),
            ("expectedTravelTime", .number(leg.expectedTravelTime, decimals: 1)),
            ("boundingBox", Self.boundingBox(leg.boundingBox)),
            ("steps", .array(leg.steps.map(step))),
        ]
        members += geometry(leg.geometry)
        return .object(members)
    }

    private func step(_ step: RouteStep) -> JSONValue {
        let maneuver: JSONValue = .object([
            ("type", .string(step.maneuver.rawValue)),
            ("modifier", step.modifier.map { .string($0.rawValue) } ?? .null),
            ("exit", step.exit.map { .int($0) } ?? .null),
            ("location", .coordinateObject(step.location)),
            ("bearingBefore", .int(step.bearingBefore)),
            ("bearingAfter", .int(step.bearingAfter)),
        ])
        var members: [(String, JSONValue)] = [
            ("maneuver", maneuver),
            ("instructions", .string(step.instructions)),
            ("name", .string(step.name)),
            ("ref", .string(step.ref)),
            ("distance", .number(step.distance, decimals: 1)),
            ("expectedTravelTime", .number(step.expectedTravelTime, decimals: 1)),
        ]
        members += geometry(step.geometry)
        return .object(members)
    }

    private static func waypoint(_ w: Waypoint) -> JSONValue {
        .object([
            ("name", .string(w.name)),
            ("query", .coordinateObject(w.query)),
            ("location", .coordinateObject(w.location)),
            ("snappingDistance", .number(w.snappingDistance, decimals: 1)),
        ])
    }

    private static func boundingBox(_ box: BoundingBox) -> JSONValue {
        .object([
            ("minLatitude", .number(box.minLatitude, decimals: 7)),
            ("minLongitude", .number(box.minLongitude, decimals: 7)),
            ("maxLatitude", .number(box.maxLatitude, decimals: 7)),
            ("maxLongitude", .number(box.maxLongitude, decimals: 7)),
        ])
    }
}
