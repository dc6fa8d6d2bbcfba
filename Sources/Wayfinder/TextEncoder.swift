import Foundation

/// Writes a `RouteResult` as a readable, aligned summary for a terminal: the stops, then per route its totals,
/// dates, legs and a step table.
public struct TextEncoder: Sendable {
    /// Print each route's step table (number, leg, instruction, distance, time).
    public var includeSteps: Bool

    /// Step tables on by default.
    public init(includeSteps: Bool = true) {
        self.includeSteps = includeSteps
    }

    /// The summary, lines ending in "\n".
    public func encode(_ result: RouteResult) -> String {
        let tz = result.timeZone
        var lines: [String] = []
        let stops = result.waypoints.count == 1 ? "1 stop" : "\(result.waypoints.count) stops"
        let routes = result.routes.count == 1 ? "1 route" : "\(result.routes.count) routes"
        if result.straightLines {
            lines.append("Wayfinder straight lines: \(stops), great-circle lengths (no roads, no travel time)")
        } else {
            lines.append("Wayfinder \(Self.clean(result.mode)) route: \(stops), \(routes)")
        }
        lines.append("Depart \(ISO8601.string(result.expectedDepartureDate, in: tz)), "
                     + "arrive \(ISO8601.string(result.expectedArrivalDate, in: tz))")

        if !result.waypoints.isEmpty {
            lines.append("")
            lines.append("Stops")
            let rows = result.waypoints.enumerated().map { i, stop in
                [String(i + 1), stop.name.isEmpty ? (result.straightLines ? "–" : "(unnamed road)") : Self.clean(stop.name),
                 "\(FixedDecimal.string(stop.location.latitude, decimals: 6, trimmingZeros: false)), "
                    + "\(FixedDecimal.string(stop.location.longitude, decimals: 6, trimmingZeros: false))",
                 Self.formatDistance(stop.snappingDistance)]
            }
            lines += Self.table(["#", "Name", "Snapped to", "Off road"], rows, right: [true, false, false, true])
        }

        for (r, route) in result.routes.enumerated() {
            let dates = result.expectedDates(forRoute: r)
            lines.append("")
            lines.append(route.name.isEmpty ? "Route \(r + 1)" : "Route \(r + 1): \(Self.clean(route.name))")
            lines.append("  Distance  \(Self.formatDistance(route.distance))")
            lines.append("  Time      \(Self.formatDuration(route.expectedTravelTime))")
            lines.append("  Depart    \(ISO8601.string(dates.departure, in: tz))")
            lines.append("  Arrive    \(ISO8601.string(dates.arrival, in: tz))")
            if result.straightLines {
                lines.append("  Straight lines between stops (great circle); no turn-by-turn steps.")
            }
            if route.legs.count > 1 || result.straightLines {
                lines.append("")
                let rows = route.legs.enumerated().map { l, leg in
                    [String(l + 1), String(l + 1), String(l + 2), Self.formatDistance(leg.distance), Self.formatDuration(leg.expectedTravelTime)]
                }
                lines += Self.table(["Leg", "From", "To", "Distance", "Time"], rows, right: [true, true, true, true, true])
            }
            guard includeSteps && !result.straightLines && !route.steps.isEmpty else { continue }
            lines.append("")
            var rows: [[String]] = []
            for (l, leg) in route.legs.enumerated() {
                for step in leg.steps {
                    rows.append([String(rows.count + 1), String(l + 1), Self.clean(step.instructions),
                                 Self.formatDistance(step.distance), Self.formatDuration(step.expectedTravelTime)])
                }
            }
            lines += Self.table(["#", "Leg", "Instruction", "Distance", "Time"], rows, right: [true, true, false, true, true])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line: "12.3 km, 14 min; depart 08:30, arrive 08:44 (2026-12-01T08:44:10-05:00)" (clock times in the ETA's zone).
    public func encodeETA(_ eta: ETASummary) -> String {
        let departure = ISO8601.localTime(eta.expectedDepartureDate, in: eta.timeZone)
        let arrival = ISO8601.localTime(eta.expectedArrivalDate, in: eta.timeZone)
        return "\(Self.formatDistance(eta.distance)), \(Self.formatShortDuration(eta.expectedTravelTime)); "
            + "depart \(departure.clock), arrive \(arrival.clock) (\(arrival.iso8601))"
    }

    /// Metres for people: whole metres under 1 km ("850 m"), else kilometres with one decimal ("12.3 km").
    public static func formatDistance(_ metres: Double) -> String {
        guard metres.isFinite else { return "-" }
        let whole = metres.rounded()
        if abs(whole) < 1000 { return "\(Int(whole) == 0 ? 0 : Int(whole)) m" }
        let tenths = Int((abs(metres) / 100).rounded())
        return "\(metres < 0 ? "-" : "")\(tenths / 10).\(tenths % 10) km"
    }

    /// Seconds for people, to the second: "45 s", "14 min 10 s", "1 h 2 min 5 s".
    public static func formatDuration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-" }
        let total = Int(max(0, seconds).rounded())
        let h = total / 3600, m = total % 3600 / 60, s = total % 60
        if h > 0 { return "\(h) h \(m) min \(s) s" }
        if m > 0 { return "\(m) min \(s) s" }
        return "\(s) s"
    }

    /// Seconds for an ETA, to the nearest minute: "<1 min", "14 min", "1 h 14 min", "2 h".
    public static func formatShortDuration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "-" }
        let minutes = Int((max(0, seconds) / 60).rounded())
        if minutes == 0 { return seconds > 0 ? "<1 min" : "0 min" }
        let h = minutes / 60, m = minutes % 60
        if h == 0 { return "\(m) min" }
        return m == 0 ? "\(h) h" : "\(h) h \(m) min"
    }

    /// Rows under a header, columns two spaces apart, indented by two; numbers right-aligned; no trailing spaces.
    static func table(_ header: [String], _ rows: [[String]], right: [Bool]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { c in all.map { $0[c].count }.max() ?? 0 }
        return all.map { row in
            let cells = row.indices.map { c -> String in
                let fill = String(repeating: " ", count: widths[c] - row[c].count)
                return right[c] ? fill + row[c] : row[c] + fill
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Control characters (newlines, tabs) would break the layout: each becomes a space.
    static func clean(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}
