import Foundation
import Graph
import Routing
import Transit

/// Writes a transit trip as GPX 1.1: a waypoint per boarding and alighting stop and a track per leg of the primary
/// itineraries (`<type>` walk or the ride's mode, `<desc>` its times, line and stops).
public struct TransitGPXEncoder: Sendable {
    /// A GPX encoder (no options).
    public init() {}

    /// The GPX document of a trip.
    public func encode(_ trip: TransitTrip) -> String {
        let tz = trip.timeZone
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.1\" creator=\"Wayfinder\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        let legs = trip.plans.flatMap(\.primary.legs)
        for leg in legs where leg.kind == .ride {
            for (stop, date) in [(leg.from, leg.departure), (leg.to, leg.arrival)] {
                out += "  <wpt \(Self.position(stop.coordinate))>\n    <time>\(Self.utc(date))</time>\n"
                out += "    <name>\(GPXEncoder.escape(stop.name))</name>\n  </wpt>\n"
            }
        }
        for leg in legs {
            let title: String
            if let ride = leg.ride {
                title = "\(ride.mode) \([ride.routeShortName, ride.routeLongName].filter { !$0.isEmpty }.joined(separator: " "))\(ride.towards)"
            } else {
                title = "walk \(Int(leg.distance.rounded())) m"
            }
            out += "  <trk>\n    <name>\(GPXEncoder.escape(title))</name>\n"
            out += "    <desc>\(GPXEncoder.escape("\(ISO8601.string(leg.departure, in: tz)) \(leg.from.name) → \(ISO8601.string(leg.arrival, in: tz)) \(leg.to.name)"))</desc>\n"
            out += "    <type>\(leg.ride?.mode ?? "walk")</type>\n    <trkseg>\n"
            for p in leg.geometry { out += "      <trkpt \(Self.position(p))/>\n" }
            out += "    </trkseg>\n  </trk>\n"
        }
        out += "</gpx>\n"
        return out
    }

    private static func position(_ c: Coordinate) -> String {
        "lat=\"\(FixedDecimal.string(c.latitude, decimals: 7))\" lon=\"\(FixedDecimal.string(c.longitude, decimals: 7))\""
    }

    private static func utc(_ date: Date) -> String {
        ISO8601.utcString(date)
    }
}
