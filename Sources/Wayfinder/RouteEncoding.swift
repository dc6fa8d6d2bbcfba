import Foundation

/// What the output encoders write: the routes found for one request, its stops, travel mode and timing.
/// A plain value; `routes[0]` is the primary route, the others are alternatives.
public struct RouteResult: Equatable, Sendable {
    /// The routes, best first. Every route has one leg per pair of consecutive `waypoints`.
    public var routes: [Route]
    /// The stops in travel order, as snapped to the road network.
    public var waypoints: [Waypoint]
    /// The travel mode's name: "car" or "foot".
    public var mode: String
    /// When the primary route leaves its first stop and reaches its last.
    public var expectedDepartureDate: Date
    public var expectedArrivalDate: Date
    /// The time zone dates are written in (ISO 8601 with that zone's offset at each date).
    public var timeZone: TimeZone
    /// The "lines" view: routes are straight great-circle lines between stops, without steps.
    public var straightLines: Bool
    /// The dates were worked back from a requested arrival ("arrive by"): alternatives then arrive at that time
    /// and leave earlier, instead of leaving at the same time and arriving later.
    public var anchoredAtArrival: Bool

    /// A result from its parts; `straightLines` defaults to the road view.
    public init(routes: [Route], waypoints: [Waypoint], mode: String, expectedDepartureDate: Date, expectedArrivalDate: Date,
                timeZone: TimeZone, straightLines: Bool = false, anchoredAtArrival: Bool = false) {
        self.routes = routes; self.waypoints = waypoints; self.mode = mode
        self.expectedDepartureDate = expectedDepartureDate; self.expectedArrivalDate = expectedArrivalDate
        self.timeZone = timeZone; self.straightLines = straightLines; self.anchoredAtArrival = anchoredAtArrival
    }

    /// Departure and arrival of `routes[index]`: the primary route uses the result's dates; alternatives leave at
    /// the same time and arrive after their own travel time (or, `anchoredAtArrival`, arrive at the same time).
    public func expectedDates(forRoute index: Int) -> (departure: Date, arrival: Date) {
        if index == 0 { return (expectedDepartureDate, expectedArrivalDate) }
        var time = routes.indices.contains(index) ? routes[index].expectedTravelTime : 0
        if !time.isFinite { time = 0 }
        if anchoredAtArrival { return (expectedArrivalDate.addingTimeInterval(-time), expectedArrivalDate) }
        return (expectedDepartureDate, expectedDepartureDate.addingTimeInterval(time))
    }

    /// The estimated time of arrival of the primary route (distance 0 and the dates' difference when there is none).
    public var eta: ETASummary {
        let route = routes.first
        return ETASummary(distance: route?.distance ?? 0,
                          expectedTravelTime: route?.expectedTravelTime ?? expectedArrivalDate.timeIntervalSince(expectedDepartureDate),
                          expectedDepartureDate: expectedDepartureDate, expectedArrivalDate: expectedArrivalDate, timeZone: timeZone)
    }
}

/// An estimated time of arrival, as MapKit's ETA response gives it: distance, travel time and the two dates.
public struct ETASummary: Equatable, Sendable {
    /// Metres and seconds.
    public var distance: Double
    public var expectedTravelTime: Double
    public var expectedDepartureDate: Date
    public var expectedArrivalDate: Date
    /// The time zone dates are written in.
    public var timeZone: TimeZone

    /// An ETA from its parts.
    public init(distance: Double, expectedTravelTime: Double, expectedDepartureDate: Date, expectedArrivalDate: Date, timeZone: TimeZone) {
        self.distance = distance; self.expectedTravelTime = expectedTravelTime
        self.expectedDepartureDate = expectedDepartureDate; self.expectedArrivalDate = expectedArrivalDate; self.timeZone = timeZone
    }
}

// MARK: - Shared formatting (internal)

/// Number and date formatting shared by the encoders: exact, locale-free and deterministic.
enum EncodingFormat {
    private static let powersOfTen: [Int64] = (0...15).map { p in (0..<p).reduce(Int64(1)) { acc, _ in acc * 10 } }

    /// `value` rounded to `decimals` places in plain decimal notation without trailing zeros ("12.3", "-75", "0.0000001"),
    /// or "null" when it is not finite. Never uses an exponent for values below 1e8 (with 7 decimals).
    /// With `trimmingZeros: false` all decimals are kept ("-75.000000"), for aligned tables.
    static func number(_ value: Double, decimals: Int, trimmingZeros: Bool = true) -> String {
        guard value.isFinite else { return "null" }
        let d = min(max(decimals, 0), 15)
        let scale = powersOfTen[d]
        let scaled = (value * Double(scale)).rounded()
        guard abs(scaled) < 9.0e15 else { return "\(value.rounded())" }
        var k = Int64(scaled)
        if k == 0 && (trimmingZeros || d == 0) { return "0" }
        var text = ""
        if k < 0 { text = "-"; k = -k }
        text += String(k / scale)
        let fraction = k % scale
        if d > 0 && (fraction != 0 || !trimmingZeros) {
            var digits = String(fraction)
            digits = String(repeating: "0", count: d - digits.count) + digits
            while trimmingZeros && digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text
    }

    /// A date's wall-clock fields in a time zone, to the nearest second; offsets that are not whole minutes fall back to UTC.
    struct LocalTime {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
        /// Seconds east of UTC.
        var offset: Int

        /// "2026-12-01T08:30:00-05:00".
        var iso8601: String {
            let sign = offset < 0 ? "-" : "+"
            let magnitude = abs(offset)
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
                + "\(sign)\(pad(magnitude / 3600, 2)):\(pad(magnitude % 3600 / 60, 2))"
        }
        /// "08:30".
        var clock: String { "\(pad(hour, 2)):\(pad(minute, 2))" }
    }

    static func localTime(_ date: Date, in timeZone: TimeZone) -> LocalTime {
        var t = date.timeIntervalSince1970.rounded()
        if !t.isFinite || abs(t) > 2.5e11 { t = 0 } // beyond year ±9999: not a real ETA
        let seconds = Int(t)
        var offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t))
        if offset % 60 != 0 { offset = 0 }
        let local = seconds + offset
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let secondOfDay = local - days * 86_400
        let (y, m, d) = civilDate(daysSince1970: days)
        return LocalTime(year: y, month: m, day: d, hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60,
                         second: secondOfDay % 60, offset: offset)
    }

    /// ISO 8601 with the zone's offset at that date, whole seconds: "2026-12-01T08:30:00-05:00" (UTC is "+00:00").
    static func iso8601(_ date: Date, in timeZone: TimeZone) -> String { localTime(date, in: timeZone).iso8601 }

    /// Proleptic Gregorian year, month, day of a day count from 1970-01-01 (Howard Hinnant's civil_from_days).
    static func civilDate(daysSince1970: Int) -> (Int, Int, Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

// MARK: - A tiny JSON writer (internal)

/// A JSON document built by hand, so that numbers are written exactly as rounded and key order is fixed.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case int(Int)
    /// A number rounded to `decimals` places; not finite → null.
    case number(Double, decimals: Int)
    case string(String)
    case array([JSONValue])
    /// Members in insertion order (the writer may sort them).
    case object([(String, JSONValue)])

    /// A `{"latitude","longitude"}` object, 7 decimals.
    static func coordinateObject(_ c: Coordinate) -> JSONValue {
        .object([("latitude", .number(c.latitude, decimals: 7)), ("longitude", .number(c.longitude, decimals: 7))])
    }

    /// A GeoJSON position, [longitude, latitude], 7 decimals.
    static func position(_ c: Coordinate) -> JSONValue {
        .array([.number(c.longitude, decimals: 7), .number(c.latitude, decimals: 7)])
    }

    /// The document as text: compact, or indented by two spaces with arrays of plain numbers kept on one line.
    func serialized(pretty: Bool, sortedKeys: Bool) -> String {
        var out = ""
        write(into: &out, pretty: pretty, sortedKeys: sortedKeys, depth: 0)
        return out
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private func write(into out: inout String, pretty: Bool, sortedKeys: Bool, depth: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let x, let decimals): out += EncodingFormat.number(x, decimals: decimals)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            let inline = !pretty || items.allSatisfy(\.isScalar)
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += inline && pretty ? ", " : "," }
                if !inline { JSONValue.newline(&out, depth + 1) }
                item.write(into: &out, pretty: pretty, sortedKeys: sortedKeys, depth: depth + 1)
            }
            if !inline { JSONValue.newline(&out, depth) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            let ordered = sortedKeys ? members.sorted { $0.0 < $1.0 } : members
            out += "{"
            for (i, (key, value)) in ordered.enumerated() {
                if i > 0 { out += "," }
                if pretty { JSONValue.newline(&out, depth + 1) }
                JSONValue.writeString(key, into: &out)
                out += pretty ? ": " : ":"
                value.write(into: &out, pretty: pretty, sortedKeys: sortedKeys, depth: depth + 1)
            }
            if pretty { JSONValue.newline(&out, depth) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ depth: Int) {
        out += "\n"
        out += String(repeating: "  ", count: depth)
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped; U+2028/U+2029 too (for JavaScript).
    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
