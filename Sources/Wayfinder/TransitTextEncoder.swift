import Foundation
import Routing
import Transit

/// Writes a transit trip for a terminal: totals, then per pair of stops the primary itinerary leg by leg
/// (clock times in the trip's zone), then the other itineraries of the Pareto set in one line each.
public struct TransitTextEncoder: Sendable {
    /// A text encoder (no options).
    public init() {}

    /// The whole trip, lines ending in "\n".
    public func encode(_ trip: TransitTrip) -> String {
        let tz = trip.timeZone
        var lines: [String] = []
        lines.append("Wayfinder transit route: \(trip.stops.count) stops")
        lines.append(Self.summary(trip))
        for (p, plan) in trip.plans.enumerated() {
            lines.append("")
            if trip.plans.count > 1 { lines.append("Leg \(p + 1)") }
            for leg in plan.primary.legs { lines.append(Self.line(leg, tz)) }
            let others = plan.itineraries.enumerated().filter { $0.offset != plan.best }
            if !others.isEmpty {
                lines.append("  Also:")
                for (_, other) in others {
                    let lines_ = other.legs.compactMap(\.ride).map { $0.routeShortName.isEmpty ? $0.routeLongName : $0.routeShortName }
                    lines.append("    \(Self.clock(other.departure, tz))–\(Self.clock(other.arrival, tz))  \(other.rides) ride\(other.rides == 1 ? "" : "s") (\(lines_.joined(separator: ", "))), "
                                 + "\(Self.distance(other.walkingDistance)) walking")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The ETA in a few lines.
    public func encodeETA(_ trip: TransitTrip) -> String { Self.summary(trip) + "\n" }

    static func summary(_ trip: TransitTrip) -> String {
        let tz = trip.timeZone
        return "Depart \(ISO8601.string(trip.departure, in: tz)), arrive \(ISO8601.string(trip.arrival, in: tz))\n"
            + "Travel time \(duration(trip.arrival.timeIntervalSince(trip.departure))), \(distance(trip.walkingDistance)) walking, "
            + "\(trip.rides) ride\(trip.rides == 1 ? "" : "s"), \(trip.transfers) transfer\(trip.transfers == 1 ? "" : "s")"
    }

    static func line(_ leg: TransitLeg, _ tz: TimeZone) -> String {
        let times = "  \(clock(leg.departure, tz))–\(clock(leg.arrival, tz))  "
        if let ride = leg.ride {
            let name = [ride.routeShortName, ride.routeLongName].filter { !$0.isEmpty }.joined(separator: " ")
            return times + "\(ride.mode) \(name)\(ride.towards) (\(ride.agency)): board at \(leg.from.name), "
                + "alight at \(leg.to.name) after \(ride.numberOfStops) stop\(ride.numberOfStops == 1 ? "" : "s")"
        }
        return times + "walk \(distance(leg.distance)) (\(duration(leg.duration))) from \(leg.from.name) to \(leg.to.name)"
    }

    static func clock(_ date: Date, _ tz: TimeZone) -> String { ISO8601.localTime(date, in: tz).clock }

    static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : FixedDecimal.string(metres / 1000, decimals: 1) + " km"
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600) h \(s % 3600 / 60) min" : (s >= 60 ? "\(s / 60) min" : "\(s) s")
    }
}

extension TransitLeg.Ride {
    /// ` towards HEADSIGN`, as every description of a ride reads it; empty when the ride has no headsign.
    var towards: String { headsign.isEmpty ? "" : " towards \(headsign)" }
}
