import Foundation
import Transit

/// ISO 8601 / RFC 3339 date-times: the one reader and writer of dates of the CLI, batch jobs and the server.
///
/// Written: whole seconds with the offset of a time zone at that date, `2026-12-01T08:30:00-05:00` (UTC is
/// `+00:00`; `utcString` gives the `Z` form GPX uses). Read: `YYYY-MM-DDTHH:MM[:SS[.fraction]][offset]` with `T`
/// or a space between date and time, the offset `Z`, `±HH:MM`, `±HHMM` or `±HH`; without an offset the time is
/// wall-clock time in a given zone (an ambiguous time on a daylight-saving change is its first occurrence, a time
/// in the skipped hour moves forward by the gap).
public enum ISO8601 {
    /// Why a text is not a date-time, with the part at fault.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The text given.
        public let text: String
        /// What is wrong with it ("month 13 is not 01 to 12").
        public let reason: String

        public var description: String {
            "'\(text)' is not an ISO 8601 date-time: \(reason) (write e.g. 2026-12-01T08:30, 2026-12-01T08:30:00+01:00 or 2026-12-01T07:30:00Z)"
        }
    }

    // MARK: Writing

    /// A date's wall-clock fields in a time zone, to the nearest second; offsets that are not whole minutes fall back to UTC.
    public struct LocalTime: Equatable, Sendable {
        public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
        /// Seconds east of UTC.
        public var offset: Int

        /// "2026-12-01T08:30:00-05:00".
        public var iso8601: String {
            var out: [UInt8] = []
            out.reserveCapacity(25)
            append(to: &out)
            return String(decoding: out, as: UTF8.self)
        }

        /// "08:30".
        public var clock: String {
            var out: [UInt8] = []
            FixedDecimal.appendDigits(UInt64(hour), width: 2, to: &out); out.append(UInt8(ascii: ":"))
            FixedDecimal.appendDigits(UInt64(minute), width: 2, to: &out)
            return String(decoding: out, as: UTF8.self)
        }

        /// Appends the ISO 8601 text to `out`.
        public func append(to out: inout [UInt8], utc: Bool = false) {
            if year < 0 { out.append(UInt8(ascii: "-")) }
            FixedDecimal.appendDigits(UInt64(abs(year)), width: 4, to: &out); out.append(UInt8(ascii: "-"))
            FixedDecimal.appendDigits(UInt64(month), width: 2, to: &out); out.append(UInt8(ascii: "-"))
            FixedDecimal.appendDigits(UInt64(day), width: 2, to: &out); out.append(UInt8(ascii: "T"))
            FixedDecimal.appendDigits(UInt64(hour), width: 2, to: &out); out.append(UInt8(ascii: ":"))
            FixedDecimal.appendDigits(UInt64(minute), width: 2, to: &out); out.append(UInt8(ascii: ":"))
            FixedDecimal.appendDigits(UInt64(second), width: 2, to: &out)
            if utc && offset == 0 { out.append(UInt8(ascii: "Z")); return }
            out.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let magnitude = abs(offset)
            FixedDecimal.appendDigits(UInt64(magnitude / 3600), width: 2, to: &out); out.append(UInt8(ascii: ":"))
            FixedDecimal.appendDigits(UInt64(magnitude % 3600 / 60), width: 2, to: &out)
        }
    }

    /// The wall-clock fields of `date` in `timeZone`, rounded to the second.
    public static func localTime(_ date: Date, in timeZone: TimeZone) -> LocalTime {
        var t = date.timeIntervalSince1970.rounded()
        if !t.isFinite || abs(t) > 2.5e11 { t = 0 } // beyond year ±9999: not a real date
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
    public static func string(_ date: Date, in timeZone: TimeZone) -> String { localTime(date, in: timeZone).iso8601 }

    /// Appends `string(date, in: timeZone)` to `out`.
    public static func append(_ date: Date, in timeZone: TimeZone, to out: inout [UInt8]) { localTime(date, in: timeZone).append(to: &out) }

    /// UTC with a `Z`: "2026-12-01T13:30:00Z" (GPX's `<time>`).
    public static func utcString(_ date: Date) -> String {
        var out: [UInt8] = []
        localTime(date, in: utc).append(to: &out, utc: true)
        return String(decoding: out, as: UTF8.self)
    }

    private static let utc = TimeZone(identifier: "UTC")!

    // MARK: Reading

    /// The instant `text` names; a text without an offset is wall-clock time in `timeZone`.
    public static func date(from text: String, timeZone: TimeZone) throws(ParseError) -> Date {
        var p = Parser(bytes: Array(text.utf8))
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        guard let year = p.digits(4) else { throw fail("expected a year of four digits first") }
        guard p.take(UInt8(ascii: "-")), let month = p.digits(2) else { throw fail("expected -MM after the year") }
        guard p.take(UInt8(ascii: "-")), let day = p.digits(2) else { throw fail("expected -DD after the month") }
        guard (1...12).contains(month) else { throw fail("month \(month) is not 01 to 12") }
        guard (1...daysIn(month: month, year: year)).contains(day) else { throw fail("day \(day) does not exist in \(year)-\(pad2(month))") }
        guard p.take(UInt8(ascii: "T")) || p.take(UInt8(ascii: "t")) || p.take(UInt8(ascii: " ")) else {
            throw fail(p.atEnd ? "a time is needed after the date (THH:MM)" : "expected T and a time after the date")
        }
        guard let hour = p.digits(2), p.take(UInt8(ascii: ":")), let minute = p.digits(2) else { throw fail("expected the time as HH:MM") }
        guard hour < 24 else { throw fail("hour \(hour) is not 00 to 23") }
        guard minute < 60 else { throw fail("minute \(minute) is not 00 to 59") }
        var second = 0
        var fraction = 0.0
        if p.take(UInt8(ascii: ":")) {
            guard let s = p.digits(2) else { throw fail("expected two digits of seconds after HH:MM:") }
            guard s < 60 else { throw fail("second \(s) is not 00 to 59") }
            second = s
            if p.take(UInt8(ascii: ".")) || p.take(UInt8(ascii: ",")) {
                var scale = 0.1, count = 0
                while let digit = p.digit() { fraction += Double(digit) * scale; scale /= 10; count += 1 }
                guard count > 0 else { throw fail("expected digits of a fraction of a second after the point") }
            }
        }
        let secondOfDay = hour * 3600 + minute * 60 + second
        let dayNumber = daysSince1970(year: year, month: month, day: day)
        if p.atEnd {
            return Date(timeIntervalSince1970: TimeInterval(instant(day: dayNumber, secondOfDay: secondOfDay, in: timeZone)) + fraction)
        }
        var offset = 0
        if p.take(UInt8(ascii: "Z")) || p.take(UInt8(ascii: "z")) {
            offset = 0
        } else if let sign = p.sign() {
            guard let hours = p.digits(2) else { throw fail("expected the offset as ±HH:MM") }
            var minutes = 0
            if p.take(UInt8(ascii: ":")) {
                guard let m = p.digits(2) else { throw fail("expected the offset's minutes after ±HH:") }
                minutes = m
            } else if let m = p.digits(2) {
                minutes = m
            }
            guard hours < 24, minutes < 60 else { throw fail("offset \(sign < 0 ? "-" : "+")\(pad2(hours)):\(pad2(minutes)) is out of range") }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            throw fail("unexpected '\(p.rest)' after the time (an offset is Z, +HH:MM or -HH:MM)")
        }
        guard p.atEnd else { throw fail("unexpected '\(p.rest)' after the offset") }
        return Date(timeIntervalSince1970: TimeInterval(dayNumber * 86_400 + secondOfDay - offset) + fraction)
    }

    /// Whether a date-time text has no offset (its time is wall-clock time in some zone): nothing after the seconds.
    public static func hasNoOffset(_ text: String) -> Bool {
        guard let t = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") || $0 == UInt8(ascii: " ") }) else { return false }
        return !text.utf8[t...].contains { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "z") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 >= 0x80 }
    }

    /// The instant (Unix seconds) of a wall-clock time in `zone` (Transit's rule: an ambiguous time on a
    /// daylight-saving change is its first occurrence, a time in the skipped hour moves forward by the gap).
    public static func instant(day: Int, secondOfDay: Int, in zone: TimeZone) -> Int {
        ServiceDay.instant(day: day, secondOfDay: secondOfDay, in: zone)
    }

    /// Days from 1970-01-01 of a proleptic Gregorian date.
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        ServiceDay.number(year: year, month: month, day: day)
    }

    /// Proleptic Gregorian year, month, day of a day count from 1970-01-01.
    public static func civilDate(daysSince1970: Int) -> (Int, Int, Int) {
        let d = ServiceDay.date(daysSince1970)
        return (d.year, d.month, d.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// A cursor over the text's bytes.
    private struct Parser {
        let bytes: [UInt8]
        var at = 0
        var atEnd: Bool { at >= bytes.count }
        var rest: String { String(decoding: bytes[min(at, bytes.count)...].prefix(20), as: UTF8.self) }

        mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }
        mutating func digit() -> Int? {
            guard at < bytes.count, bytes[at] >= 48, bytes[at] <= 57 else { return nil }
            at += 1
            return Int(bytes[at - 1] - 48)
        }
        /// Exactly `count` digits.
        mutating func digits(_ count: Int) -> Int? {
            let start = at
            var value = 0
            for _ in 0..<count { guard let d = digit() else { at = start; return nil }; value = value * 10 + d }
            return value
        }
        mutating func sign() -> Int? {
            if take(UInt8(ascii: "+")) { return 1 }
            if take(UInt8(ascii: "-")) { return -1 }
            if at + 2 < bytes.count, bytes[at] == 0xE2, bytes[at + 1] == 0x88, bytes[at + 2] == 0x92 { at += 3; return -1 } // U+2212 minus
            return nil
        }
    }
}
