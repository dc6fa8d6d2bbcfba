import Foundation

/// The service calendars as plain per-day bitmaps, and which services run on given days (for one query).
public struct ServiceCalendar: Sendable {
    private let firstDays: [Int]
    private let bits: [[Bool]]

    /// Unpacks the calendars of `metadata`.
    public init(_ metadata: TransitMetadata) {
        firstDays = metadata.services.map(\.firstDay)
        bits = metadata.services.map { $0.days.utf8.map { $0 == UInt8(ascii: "1") } }
    }

    public var count: Int { bits.count }

    /// Whether service s runs on day number `day`.
    @inline(__always) public func runs(_ s: Int, on day: Int) -> Bool {
        let i = day - firstDays[s]
        return i >= 0 && i < bits[s].count && bits[s][i]
    }

    /// For each of `days`, in order, a flag per service: `result[k * count + s]` is 1 when service s runs on days[k].
    public func activeFlags(on days: [Int]) -> [UInt8] {
        var flags = [UInt8](repeating: 0, count: days.count * count)
        for (k, day) in days.enumerated() { for s in 0..<count where runs(s, on: day) { flags[k * count + s] = 1 } }
        return flags
    }
}
