import OSM
import XCTest

/// `OSMNumberParsing`: the fixed-point coordinate and integer parsers used on attribute values.
final class NumberParsingTests: XCTestCase {
    private func fixed7(_ text: String) -> Int64? { text.withCString { OSMNumberParsing.parseFixed7($0) } }
    private func int64(_ text: String) -> Int64? { text.withCString { OSMNumberParsing.parseInt64($0) } }

    func testFixed7PlainDecimals() {
        XCTAssertEqual(fixed7("49.4123456"), 494_123_456)
        XCTAssertEqual(fixed7("-8.1"), -81_000_000)
        XCTAssertEqual(fixed7(".5"), 5_000_000)
        XCTAssertEqual(fixed7("-.5"), -5_000_000)
        XCTAssertEqual(fixed7("1"), 10_000_000)
        XCTAssertEqual(fixed7("1."), 10_000_000)
        XCTAssertEqual(fixed7("+3.25"), 32_500_000)
        XCTAssertEqual(fixed7("0"), 0)
        XCTAssertEqual(fixed7("-0.0000000"), 0)
        XCTAssertEqual(fixed7("0.0000001"), 1)
        XCTAssertEqual(fixed7("-0.0000001"), -1)
        XCTAssertEqual(fixed7("90"), 900_000_000)
        XCTAssertEqual(fixed7("-180.0000000"), -1_800_000_000)
        XCTAssertEqual(fixed7("007.0400000"), 70_400_000)
        XCTAssertEqual(fixed7("179.9999999"), 1_799_999_999)
    }

    func testFixed7RoundsExtraDecimalsHalfAwayFromZero() {
        XCTAssertEqual(fixed7("1.23456789"), 12_345_679)
        XCTAssertEqual(fixed7("1.23456781"), 12_345_678)
        XCTAssertEqual(fixed7("0.00000005"), 1)
        XCTAssertEqual(fixed7("-0.00000005"), -1)
        XCTAssertEqual(fixed7("0.00000004999"), 0)
        XCTAssertEqual(fixed7("-0.00000004999"), 0)
        XCTAssertEqual(fixed7("0.000000150"), 2)
        XCTAssertEqual(fixed7("-43.12345675"), -431_234_568)
        XCTAssertEqual(fixed7("-43.12345674999999"), -431_234_567)
        // Rounding carries into the whole degrees.
        XCTAssertEqual(fixed7("1.99999995"), 20_000_000)
        XCTAssertEqual(fixed7("-89.99999999"), -900_000_000)
        XCTAssertEqual(fixed7("12.3456789012345678901234567890"), 123_456_789)
    }

    func testFixed7ExponentForms() {
        XCTAssertEqual(fixed7("1e-3"), 10_000)
        XCTAssertEqual(fixed7("1E-3"), 10_000)
        XCTAssertEqual(fixed7("4.5e1"), 450_000_000)
        XCTAssertEqual(fixed7("-1.5E+1"), -150_000_000)
        XCTAssertEqual(fixed7("1.23456789e0"), 12_345_679)
        XCTAssertEqual(fixed7("-4.9123456e1"), -491_234_560)
        XCTAssertEqual(fixed7("5e-1"), 5_000_000)
        XCTAssertEqual(fixed7("-2E-7"), -2)
    }

    func testFixed7RejectsGarbage() {
        for text in ["", "-", "+", ".", "-.", "abc", "1.2.3", "1,5", " 1", "1 ", "1-", "--1", "+-1", "1e", "1e+", "e5",
                     "1e400", "1e5", "-1e5", "nan", "NaN", "inf", "-inf", "0x10", "1.5x", "1e3x", "١٢"] {
            XCTAssertNil(fixed7(text), "'\(text)' should not parse")
        }
    }

    func testFixed7RejectsHugeValuesWithoutOverflowing() {
        // Far beyond any coordinate: rejected, never a trap or a wrapped value.
        XCTAssertNil(fixed7("1234567890123"))
        XCTAssertNil(fixed7("99999999999999999999.5"))
        for text in ["999999999999", "-999999999999", "922337203686", "999999999999.9999999"] {
            if let value = fixed7(text) {
                XCTAssertGreaterThan(value.magnitude, 1_800_000_000, "'\(text)' parsed to \(value): wrapped around")
            }
        }
        // Large but representable values still parse exactly (the reader checks ranges).
        XCTAssertEqual(fixed7("12345.5"), 123_455_000_000)
        XCTAssertEqual(fixed7("-99999.9999999"), -999_999_999_999)
    }

    func testInt64() {
        XCTAssertEqual(int64("0"), 0)
        XCTAssertEqual(int64("123"), 123)
        XCTAssertEqual(int64("-5"), -5)
        XCTAssertEqual(int64("+7"), 7)
        XCTAssertEqual(int64("0042"), 42)
        XCTAssertEqual(int64("9223372036854775807"), Int64.max)
        XCTAssertEqual(int64("-9223372036854775807"), -Int64.max)
        XCTAssertEqual(int64("-9223372036854775808"), Int64.min)   // the whole range: Int64.min has no positive twin
        XCTAssertEqual(int64("12204578301"), 12_204_578_301)
    }

    func testInt64RejectsOverflowAndGarbage() {
        for text in ["9223372036854775808", "-9223372036854775809", "99999999999999999999", "18446744073709551616",
                     "", "-", "+", "1.0", "1e3", "12a", "a12", " 1", "1 ", "--1", "0x1f", "1_000"] {
            XCTAssertNil(int64(text), "'\(text)' should not parse")
        }
    }
}
