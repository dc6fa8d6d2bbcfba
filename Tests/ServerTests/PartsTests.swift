import XCTest
import Server
import Wayfinder

/// The small parts: JSON writing, line simplification (the trip order is Wayfinder's: OfflineMapTests).
final class PartsTests: XCTestCase {
    func testJSONIsCompactOrderedAndEscaped() {
        let value: JSONValue = .object([("b", .int(1)), ("a", .array([.number(1.5), .null, .bool(true), .rounded(2.345, 1)])),
                                        ("s", .string("quote \" back \\ new\nline \u{1}"))])
        XCTAssertEqual(String(decoding: value.encoded(), as: UTF8.self),
                       #"{"b":1,"a":[1.5,null,true,2.3],"s":"quote \" back \\ new\nline \u0001"}"#)
        XCTAssertEqual(String(decoding: JSONValue.rounded(.infinity, 1).encoded(), as: UTF8.self), "null")
        XCTAssertEqual(String(decoding: JSONValue.location(latitude: 43.12345678, longitude: 7.1).encoded(), as: UTF8.self), "[7.1,43.123457]")
    }

    func testSimplifierKeepsEndsAndCorners() {
        let line = [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0.000001, longitude: 0.001),
                    Coordinate(latitude: 0, longitude: 0.002), Coordinate(latitude: 0.001, longitude: 0.002)]
        let simplified = GeometrySimplifier.simplify(line, tolerance: 5)
        XCTAssertEqual(simplified, [line[0], line[2], line[3]])
        XCTAssertEqual(GeometrySimplifier.simplify(line, tolerance: 0), line)
    }
}
