import Foundation

/// Writes a `RouteResult` as GPX 1.1: `<metadata>`, a `<wpt>` per stop, a `<rte>` per route with a `<rtept>` per step
/// (named by its instruction), and a `<trk>` per route holding its exact geometry, in the schema's element order.
public struct GPXEncoder: Sendable {
    /// The GPX namespace.
    public static let namespace = "http://www.topografix.com/GPX/1/1"

    /// The `creator` attribute.
    public var creator: String
    /// Write a `<trk>` per route with the full geometry (so apps draw the road, not straight lines between steps).
    public var includeTracks: Bool

    /// Credits "wayfinder" and writes tracks by default.
    public init(creator: String = "wayfinder", includeTracks: Bool = true) {
        self.creator = creator; self.includeTracks = includeTracks
    }

    /// The GPX document, UTF-8 text with an XML declaration. Routes without steps (and the "lines" view) get a
    /// `<rtept>` per stop instead.
    public func encode(_ result: RouteResult) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx xmlns=\"\(Self.namespace)\" version=\"1.1\" creator=\"\(Self.escape(creator))\">\n"

        // metadata: name, desc, bounds (schema order: name, desc, author, copyright, link*, time, keywords, bounds).
        let tz = result.timeZone
        out += "  <metadata>\n"
        out += "    <name>\(Self.escape("Wayfinder \(result.mode) route"))</name>\n"
        let stops = result.waypoints.count == 1 ? "1 stop" : "\(result.waypoints.count) stops"
        let description = "\(stops); depart \(ISO8601.string(result.expectedDepartureDate, in: tz)), "
            + "arrive \(ISO8601.string(result.expectedArrivalDate, in: tz))"
            + (result.straightLines ? "; straight lines between stops" : "")
        out += "    <desc>\(Self.escape(description))</desc>\n"
        if let box = Self.bounds(result) {
            // Bounds keep west <= east: a box reaching 180 ends just short of it (GPX longitudes stop below 180).
            let west = Self.longitude(min(box.minLongitude, 179.9999999)), east = Self.longitude(min(box.maxLongitude, 179.9999999))
            out += "    <bounds minlat=\"\(Self.latitude(box.minLatitude))\" minlon=\"\(west)\""
                + " maxlat=\"\(Self.latitude(box.maxLatitude))\" maxlon=\"\(east)\"/>\n"
        }
        out += "  </metadata>\n"

        // wpt: name, desc (schema order: ele, time, magvar, geoidheight, name, cmt, desc, src, link*, sym, type, ...).
        for (i, stop) in result.waypoints.enumerated() {
            out += "  <wpt \(Self.position(stop.location))>\n"
            out += "    <name>\(Self.escape(Self.stopName(i, stop)))</name>\n"
            let desc = "Asked for \(FixedDecimal.string(stop.query.latitude, decimals: 7)), "
                + "\(FixedDecimal.string(stop.query.longitude, decimals: 7)); "
                + "snapped \(TextEncoder.formatDistance(stop.snappingDistance)) to the road"
            out += "    <desc>\(Self.escape(desc))</desc>\n"
            out += "    <type>stop</type>\n"
            out += "  </wpt>\n"
        }

        // rte: name, desc, number, then rtept* (schema order: name, cmt, desc, src, link*, number, type, extensions, rtept*).
        for (r, route) in result.routes.enumerated() {
            out += "  <rte>\n"
            out += "    <name>\(Self.escape(Self.routeName(r, route)))</name>\n"
            out += "    <desc>\(Self.escape(Self.summary(route.distance, route.expectedTravelTime)))</desc>\n"
            out += "    <number>\(r + 1)</number>\n"
            let steps = route.steps
            if result.straightLines || steps.isEmpty {
                for (i, stop) in result.waypoints.enumerated() {
                    out += "    <rtept \(Self.position(stop.location))>\n"
                    out += "      <name>\(Self.escape(Self.stopName(i, stop)))</name>\n"
                    out += "    </rtept>\n"
                }
            } else {
                for step in steps {
                    out += "    <rtept \(Self.position(step.location))>\n"
                    out += "      <name>\(Self.escape(step.instructions))</name>\n"
                    out += "      <desc>\(Self.escape(Self.summary(step.distance, step.expectedTravelTime)))</desc>\n"
                    out += "      <type>\(Self.escape(step.maneuver.rawValue))</type>\n"
                    out += "    </rtept>\n"
                }
            }
            out += "  </rte>\n"
        }

        // trk: name, number, one trkseg with the whole geometry.
        if includeTracks {
            for (r, route) in result.routes.enumerated() {
                out += "  <trk>\n"
                out += "    <name>\(Self.escape(Self.routeName(r, route)))</name>\n"
                out += "    <number>\(r + 1)</number>\n"
                out += "    <trkseg>\n"
                for c in route.polyline { out += "      <trkpt \(Self.position(c))/>\n" }
                out += "    </trkseg>\n"
                out += "  </trk>\n"
            }
        }
        out += "</gpx>\n"
        return out
    }

    /// Text made safe for XML 1.0 content and attribute values: `& < > " '` escaped, characters XML forbids dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                let v = scalar.value
                let allowed = v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v)
                    || (0xE000...0xFFFD).contains(v) || v >= 0x10000
                if allowed { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    private static func stopName(_ index: Int, _ stop: Waypoint) -> String {
        stop.name.isEmpty ? "Stop \(index + 1)" : "Stop \(index + 1): \(stop.name)"
    }

    private static func routeName(_ index: Int, _ route: Route) -> String {
        route.name.isEmpty ? "Route \(index + 1)" : "Route \(index + 1): \(route.name)"
    }

    private static func summary(_ distance: Double, _ time: Double) -> String {
        "\(TextEncoder.formatDistance(distance)), \(TextEncoder.formatDuration(time))"
    }

    private static func position(_ c: Coordinate) -> String {
        "lat=\"\(latitude(c.latitude))\" lon=\"\(longitude(c.longitude))\""
    }

    /// GPX latitudes are -90...90.
    private static func latitude(_ value: Double) -> String {
        FixedDecimal.string(value.isFinite ? min(90, max(-90, value)) : 0, decimals: 7)
    }

    /// GPX longitudes are -180..<180: 180 is written as -180.
    private static func longitude(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let text = FixedDecimal.string(value, decimals: 7)
        return text == "180" ? "-180" : text
    }

    private static func bounds(_ result: RouteResult) -> BoundingBox? {
        var box = BoundingBox(result.waypoints.map(\.location))
        for route in result.routes {
            box = box.map { $0.union(route.boundingBox) } ?? route.boundingBox
            if let p = BoundingBox(route.polyline) { box = box!.union(p) }
        }
        return box
    }
}
