import Foundation

/// Writes a `RouteResult` as an RFC 7946 GeoJSON FeatureCollection: [longitude, latitude] positions rounded to 7 decimals,
/// one line per route and per leg, one point per stop, optionally one per step (properties: docs/route-json.md).
public struct GeoJSONEncoder: Sendable {
    /// Add a Point feature (kind "step") at every manoeuvre.
    public var includeSteps: Bool
    /// Add the collection's `bbox` member, [west, south, east, north] (west > east when it spans the antimeridian).
    public var includeBoundingBox: Bool
    /// Indent by two spaces; positions stay on one line.
    public var prettyPrinted: Bool

    /// Routes, legs and stops with a bbox, compact, by default.
    public init(includeSteps: Bool = false, includeBoundingBox: Bool = true, prettyPrinted: Bool = false) {
        self.includeSteps = includeSteps; self.includeBoundingBox = includeBoundingBox; self.prettyPrinted = prettyPrinted
    }

    /// The FeatureCollection: for each route its line then its legs' lines (then its steps), and last the stops.
    public func encode(_ result: RouteResult) -> String {
        var extent = Extent()
        var features: [JSONValue] = []
        let tz = result.timeZone
        for (r, route) in result.routes.enumerated() {
            let dates = result.expectedDates(forRoute: r)
            features.append(Self.feature(Self.line(route.polyline, &extent), [
                ("kind", .string("route")),
                ("index", .int(r)),
                ("name", .string(route.name)),
                ("mode", .string(result.mode)),
                ("straightLines", .bool(result.straightLines)),
                ("distance", .number(route.distance, decimals: 1)),
                ("expectedTravelTime", .number(route.expectedTravelTime, decimals: 1)),
                ("expectedDepartureDate", .string(ISO8601.string(dates.departure, in: tz))),
                ("expectedArrivalDate", .string(ISO8601.string(dates.arrival, in: tz))),
            ]))
            for (l, leg) in route.legs.enumerated() {
                features.append(Self.feature(Self.line(leg.geometry, &extent), [
                    ("kind", .string("leg")),
                    ("route", .int(r)),
                    ("index", .int(l)),
                    ("from", .int(l)),
                    ("to", .int(l + 1)),
                    ("distance", .number(leg.distance, decimals: 1)),
                    ("expectedTravelTime", .number(leg.expectedTravelTime, decimals: 1)),
                ]))
            }
            guard includeSteps && !result.straightLines else { continue }
            for (l, leg) in route.legs.enumerated() {
                for (s, step) in leg.steps.enumerated() {
                    features.append(Self.feature(Self.point(step.location, &extent), [
                        ("kind", .string("step")),
                        ("route", .int(r)),
                        ("leg", .int(l)),
                        ("index", .int(s)),
                        ("instructions", .string(step.instructions)),
                        ("maneuver", .string(step.maneuver.rawValue)),
                        ("modifier", step.modifier.map { .string($0.rawValue) } ?? .null),
                        ("exit", step.exit.map { .int($0) } ?? .null),
                        ("name", .string(step.name)),
                        ("ref", .string(step.ref)),
                        ("distance", .number(step.distance, decimals: 1)),
                        ("expectedTravelTime", .number(step.expectedTravelTime, decimals: 1)),
                    ]))
                }
            }
        }
        for (i, stop) in result.waypoints.enumerated() {
            features.append(Self.feature(Self.point(stop.location, &extent), [
                ("kind", .string("stop")),
                ("index", .int(i)),
                ("name", .string(stop.name)),
                ("query", .position(stop.query)),
                ("snappingDistance", .number(stop.snappingDistance, decimals: 1)),
            ]))
        }
        var members: [(String, JSONValue)] = [("type", .string("FeatureCollection"))]
        if includeBoundingBox, let box = extent.bbox {
            members.append(("bbox", .array(box.map { .number($0, decimals: 7) })))
        }
        members.append(("features", .array(features)))
        return JSONValue.object(members).serialized(pretty: prettyPrinted)
    }

    private static func feature(_ geometry: JSONValue, _ properties: [(String, JSONValue)]) -> JSONValue {
        .object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))])
    }

    private static func point(_ c: Coordinate, _ extent: inout Extent) -> JSONValue {
        extent.add(c, c)
        return .object([("type", .string("Point")), ("coordinates", .position(c))])
    }

    /// A LineString, or a MultiLineString when the line crosses the antimeridian (cut there, as RFC 7946 §3.1.9 asks).
    /// A single point becomes a zero-length LineString (a LineString needs two positions); no points, a null geometry.
    private static func line(_ coordinates: [Coordinate], _ extent: inout Extent) -> JSONValue {
        guard let first = coordinates.first else { return .null }
        guard coordinates.count > 1 else {
            extent.add(first, first)
            return .object([("type", .string("LineString")), ("coordinates", .array([.position(first), .position(first)]))])
        }
        var parts: [[Coordinate]] = [[first]]
        var previous = first
        for c in coordinates.dropFirst() {
            let delta = c.longitude - previous.longitude
            if abs(delta) > 180 {
                // Travel the short way: the line leaves through the boundary on the side it heads towards.
                let unwrapped = c.longitude - (delta > 0 ? 360 : -360)
                let boundary: Double = unwrapped > previous.longitude ? 180 : -180
                let t = (boundary - previous.longitude) / (unwrapped - previous.longitude)
                let latitude = previous.latitude + t * (c.latitude - previous.latitude)
                let exit = Coordinate(latitude: latitude, longitude: boundary)
                parts[parts.count - 1].append(exit)
                extent.add(previous, exit)
                let entry = Coordinate(latitude: latitude, longitude: -boundary)
                parts.append([entry, c])
                extent.add(entry, c)
            } else {
                parts[parts.count - 1].append(c)
                extent.add(previous, c)
            }
            previous = c
        }
        if parts.count == 1 {
            return .object([("type", .string("LineString")), ("coordinates", .array(parts[0].map(JSONValue.position)))])
        }
        return .object([("type", .string("MultiLineString")),
                         ("coordinates", .array(parts.map { .array($0.map(JSONValue.position)) }))])
    }

    /// The area covered by the written geometry: a latitude range and the longitude intervals of its segments,
    /// from which the smallest [west, south, east, north] box is found (possibly spanning the antimeridian).
    struct Extent {
        var south = Double.infinity, north = -Double.infinity
        var intervals: [(Double, Double)] = []

        /// Adds the segment between two positions that does not cross the antimeridian (a point when a == b).
        mutating func add(_ a: Coordinate, _ b: Coordinate) {
            guard a.latitude.isFinite, b.latitude.isFinite, a.longitude.isFinite, b.longitude.isFinite else { return }
            south = min(south, a.latitude, b.latitude); north = max(north, a.latitude, b.latitude)
            intervals.append((min(a.longitude, b.longitude), max(a.longitude, b.longitude)))
        }

        /// [west, south, east, north]; nil when empty. West and east bound the circle's complement of the largest gap.
        var bbox: [Double]? {
            guard !intervals.isEmpty else { return nil }
            let sorted = intervals.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
            var merged: [(Double, Double)] = [sorted[0]]
            for interval in sorted.dropFirst() {
                if interval.0 <= merged[merged.count - 1].1 {
                    merged[merged.count - 1].1 = max(merged[merged.count - 1].1, interval.1)
                } else {
                    merged.append(interval)
                }
            }
            // The gap around the back of the globe wins ties, so boxes that need not span the antimeridian do not.
            var west = merged[0].0, east = merged[merged.count - 1].1
            var widest = merged[0].0 + 360 - merged[merged.count - 1].1
            for i in 0..<(merged.count - 1) {
                let gap = merged[i + 1].0 - merged[i].1
                if gap > widest { widest = gap; west = merged[i + 1].0; east = merged[i].1 }
            }
            return [west, south, east, north]
        }
    }
}
