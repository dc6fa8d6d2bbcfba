import XCTest
import Wayfinder

final class PolylineEncoderTests: XCTestCase {
    private let googleExample = [Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
                                 Coordinate(latitude: 43.252, longitude: -126.453)]

    private func assertClose(_ a: [Coordinate], _ b: [Coordinate], tolerance: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(x.latitude, y.latitude, accuracy: tolerance, file: file, line: line)
            XCTAssertEqual(x.longitude, y.longitude, accuracy: tolerance, file: file, line: line)
        }
    }

    func testEncodesGooglesPublishedExample() {
        XCTAssertEqual(PolylineEncoder.encode(googleExample), "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    func testDecodesGooglesPublishedExample() throws {
        assertClose(try PolylineEncoder.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@"), googleExample, tolerance: 1e-9)
    }

    func testEmptyInputAndOutput() throws {
        XCTAssertEqual(PolylineEncoder.encode([]), "")
        XCTAssertEqual(try PolylineEncoder.decode(""), [])
        XCTAssertEqual(PolylineEncoder.encode([], precision: 6), "")
    }

    func testZeroAndRepeatedPoints() throws {
        // A zero delta is the single character '?' (0 + 63).
        let origin = Coordinate(latitude: 0, longitude: 0)
        XCTAssertEqual(PolylineEncoder.encode([origin, origin]), "????")
        XCTAssertEqual(try PolylineEncoder.decode("????"), [origin, origin])
    }

    func testNegativeValuesAndSmallSteps() throws {
        let points = [Coordinate(latitude: -33.86882, longitude: 151.20930), Coordinate(latitude: -33.86883, longitude: 151.20929),
                      Coordinate(latitude: -90, longitude: -180), Coordinate(latitude: 90, longitude: 180),
                      Coordinate(latitude: -0.00001, longitude: -0.00001)]
        let text = PolylineEncoder.encode(points)
        assertClose(try PolylineEncoder.decode(text), points, tolerance: 1e-9)
        // -0.00001 at precision 5 is -1: zig-zag ~(-1 << 1) = 1, the character '@'.
        XCTAssertEqual(PolylineEncoder.encode([Coordinate(latitude: -0.00001, longitude: 0)]), "@?")
    }

    func testRoundTripRoundsToPrecision() throws {
        var points: [Coordinate] = []
        var seed: UInt64 = 42
        for _ in 0..<500 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let lat = Double(seed >> 11) / Double(1 << 53) * 180 - 90
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let lon = Double(seed >> 11) / Double(1 << 53) * 360 - 180
            points.append(Coordinate(latitude: lat, longitude: lon))
        }
        assertClose(try PolylineEncoder.decode(PolylineEncoder.encode(points)), points, tolerance: 0.5e-5 + 1e-12)
        assertClose(try PolylineEncoder.decode(PolylineEncoder.encode(points, precision: 6), precision: 6), points, tolerance: 0.5e-6 + 1e-12)
        // Rounding is per coordinate, not per delta, so errors do not accumulate along the line.
        let again = try PolylineEncoder.decode(PolylineEncoder.encode(points, precision: 6), precision: 6)
        XCTAssertEqual(PolylineEncoder.encode(again, precision: 6), PolylineEncoder.encode(points, precision: 6))
    }

    func testPrecisionSix() throws {
        let text = PolylineEncoder.encode(googleExample, precision: 6)
        XCTAssertNotEqual(text, PolylineEncoder.encode(googleExample))
        assertClose(try PolylineEncoder.decode(text, precision: 6), googleExample, tolerance: 1e-9)
        // Read at the wrong precision, every value comes out ten times too large.
        let wrong = try PolylineEncoder.decode(text, precision: 5)
        XCTAssertEqual(wrong[0].latitude, 385, accuracy: 1e-9)
        XCTAssertEqual(wrong[2].longitude, -1264.53, accuracy: 1e-9)
        // Six decimals survive; a seventh is rounded away.
        let fine = [Coordinate(latitude: 50.123456, longitude: 8.6543214)]
        let decoded = try PolylineEncoder.decode(PolylineEncoder.encode(fine, precision: 6), precision: 6)
        XCTAssertEqual(decoded[0].latitude, 50.123456, accuracy: 1e-12)
        XCTAssertEqual(decoded[0].longitude, 8.654321, accuracy: 1e-12)
    }

    func testMalformedStringsThrow() {
        func error(_ text: String) -> PolylineEncoder.DecodingError? {
            do { _ = try PolylineEncoder.decode(text); return nil } catch { return error as? PolylineEncoder.DecodingError }
        }
        XCTAssertEqual(error("_p~iF ~ps|U"), .invalidCharacter(offset: 5))
        XCTAssertEqual(error("??!?"), .invalidCharacter(offset: 2))
        XCTAssertEqual(error("_p~iF~ps|U_é"), .invalidCharacter(offset: 11))
        XCTAssertEqual(error("_p~iF~ps|U_"), .truncated(offset: 10))
        XCTAssertEqual(error("_p~i"), .truncated(offset: 0))
        XCTAssertEqual(error("_p~iF"), .missingLongitude(offset: 0))
        XCTAssertEqual(error("?????"), .missingLongitude(offset: 4))
        XCTAssertEqual(error(String(repeating: "~", count: 20) + "?"), .overflow(offset: 0))
        XCTAssertFalse(PolylineEncoder.DecodingError.truncated(offset: 3).description.isEmpty)
    }

    func testDeterministic() {
        XCTAssertEqual(PolylineEncoder.encode(googleExample, precision: 6), PolylineEncoder.encode(googleExample, precision: 6))
    }
}
