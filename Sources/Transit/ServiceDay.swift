import Foundation

/// Calendar dates as day numbers (days since 1970-01-01, proleptic Gregorian) and the instants service days
/// start at: GTFS counts stop times from "noon minus 12 h" of the service day in the agency's time zone.
public enum ServiceDay {
    /// The day number of a civil date.
    public static func number(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number.
    public static func date(_ number: Int) -> (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Weekday of a day number: 0 Monday … 6 Sunday.
    public static func weekday(_ number: Int) -> Int { ((number % 7) + 7 + 3) % 7 }

    /// A GTFS date "YYYYMMDD" as a day number, nil when malformed.
    public static func parse(_ text: String) -> Int? {
        let digits = Array(text.utf8)
        guard digits.count == 8, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let v = digits.map { Int($0 - 48) }
        let year = v[0] * 1000 + v[1] * 100 + v[2] * 10 + v[3], month = v[4] * 10 + v[5], day = v[6] * 10 + v[7]
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return number(year: year, month: month, day: day)
    }

    /// "2026-12-01" for a day number.
    public static func iso(_ number: Int) -> String {
        let d = date(number)
        return String(format: "%04d-%02d-%02d", d.year, d.month, d.day)
    }

    /// Unix seconds of the start of service day `number` in `zone`: local noon minus 12 hours (so the day's
    /// stop times stay on the clock's hours on ordinary days and are 23 or 25 hours long across DST changes).
    public static func start(_ number: Int, in zone: TimeZone) -> Int {
        let d = date(number)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let noon = calendar.date(from: DateComponents(year: d.year, month: d.month, day: d.day, hour: 12))!
        return Int(noon.timeIntervalSince1970.rounded()) - 43_200
    }

    /// The local calendar date (day number) of an instant in `zone`.
    public static func localDay(of unixSeconds: Int, in zone: TimeZone) -> Int {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(unixSeconds)))
        let local = unixSeconds + offset
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    /// A GTFS time "H:MM:SS" (hours may pass 24) as seconds, nil when malformed.
    public static func seconds<S: Sequence>(_ bytes: S) -> Int? where S.Element == UInt8 {
        var parts = [0, 0, 0], index = 0, digits = 0
        for c in bytes {
            if c >= 48 && c <= 57 { parts[index] = parts[index] * 10 + Int(c - 48); digits += 1; if digits > 3 { return nil } }
            else if c == UInt8(ascii: ":") { guard digits > 0, index < 2 else { return nil }; index += 1; digits = 0 }
            else if c == UInt8(ascii: " ") { continue }
            else { return nil }
        }
        guard index == 2, digits == 2, parts[1] < 60, parts[2] < 60 else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    /// The instant (Unix seconds) of a local wall-clock time in `zone`: on a daylight-saving change an ambiguous time
    /// is its first occurrence, and a time inside the skipped hour is moved forward by the gap.
    public static func instant(day: Int, secondOfDay: Int, in zone: TimeZone) -> Int {
        let naive = day * 86_400 + secondOfDay
        var offsets: [Int] = []
        for probe in [naive - 86_400, naive, naive + 86_400] {
            let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(probe)))
            if !offsets.contains(offset) { offsets.append(offset) }
        }
        let valid = offsets.map { naive - $0 }.filter { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) == naive - $0 }
        if let first = valid.min() { return first }
        // In the gap: read with the offset in force before it (the smaller one: clocks go forward), which lands after it.
        return naive - offsets.min()!
    }
}
