import XCTest
@testable import Wayfinder

final class EncodingFormatTests: XCTestCase {
    func testNumbers() {
        XCTAssertEqual(FixedDecimal.string(12.34, decimals: 1), "12.3")
        XCTAssertEqual(FixedDecimal.string(12.35001, decimals: 1), "12.4")
        XCTAssertEqual(FixedDecimal.string(-75, decimals: 7), "-75")
        XCTAssertEqual(FixedDecimal.string(-0.00000004, decimals: 7), "0")
        XCTAssertEqual(FixedDecimal.string(0.0000001, decimals: 7), "0.0000001")
        XCTAssertEqual(FixedDecimal.string(-120.95, decimals: 7), "-120.95")
        XCTAssertEqual(FixedDecimal.string(.infinity, decimals: 1), "null")
        XCTAssertEqual(FixedDecimal.string(.nan, decimals: 1), "null")
        XCTAssertEqual(FixedDecimal.string(-75, decimals: 6, trimmingZeros: false), "-75.000000")
        XCTAssertEqual(FixedDecimal.string(0, decimals: 2, trimmingZeros: false), "0.00")
        XCTAssertEqual(FixedDecimal.string(3.5, decimals: 0), "4")
    }

    func testCivilDatesAgreeWithFoundation() {
        // Foundation's Gregorian calendar is Julian before October 1582, so compare from 1584 on.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        for days in stride(from: -141_000, through: 800_000, by: 997) {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            let (y, m, d) = ISO8601.civilDate(daysSince1970: days)
            XCTAssertEqual([y, m, d], [parts.year!, parts.month!, parts.day!], "day \(days)")
        }
    }

    func testLocalTimeRoundsToTheSecondAndHandlesDaylightSaving() {
        let newYork = Fixtures.newYork
        // 2026-03-08 07:00:00Z is 03:00 EDT, just after the spring-forward gap (02:00 EST → 03:00 EDT).
        XCTAssertEqual(ISO8601.string(Date(timeIntervalSince1970: 1_772_953_199.6), in: newYork), "2026-03-08T03:00:00-04:00")
        XCTAssertEqual(ISO8601.string(Date(timeIntervalSince1970: 1_772_953_199.4), in: newYork), "2026-03-08T01:59:59-05:00")
        XCTAssertEqual(ISO8601.localTime(Fixtures.departure, in: newYork).clock, "08:30")
    }
}
