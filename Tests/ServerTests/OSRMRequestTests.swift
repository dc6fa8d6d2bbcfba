import XCTest
import Server
import Wayfinder

/// Parsing OSRM URLs: services, versions, profiles, coordinates (plain and polyline), options.
final class OSRMRequestTests: XCTestCase {
    let services: Set<String> = ["route", "table", "trip", "nearest"]

    func parse(_ target: String) throws(OSRMError) -> OSRMRequest { try OSRMRequest(ServerFixture.request(target), services: services) }

    func code(_ target: String) -> String? {
        do { _ = try parse(target); return nil } catch { return error.code }
    }

    func testParsesServiceProfileCoordinatesAndOptions() throws {
        let r = try parse("/route/v1/driving/7.4270,43.7395;7.4197,43.7312.json?steps=true&overview=false")
        XCTAssertEqual(r.service, "route")
        XCTAssertEqual(r.profile, "driving")
        XCTAssertEqual(r.coordinates, [Coordinate(latitude: 43.7395, longitude: 7.4270), Coordinate(latitude: 43.7312, longitude: 7.4197)])
        XCTAssertEqual(r.options, ["steps": "true", "overview": "false"])
        XCTAssertTrue(try r.bool("steps", default: false))
        XCTAssertEqual(try r.choice("overview", ["full", "simplified", "false"], default: "simplified"), "false")
    }

    func testPolylineCoordinates() throws {
        let points = [Coordinate(latitude: 43.7395, longitude: 7.427), Coordinate(latitude: 43.7312, longitude: 7.4197)]
        let five = try parse("/table/v1/car/polyline(\(PolylineEncoder.encode(points, precision: 5)))")
        let six = try parse("/table/v1/foot/polyline6(\(PolylineEncoder.encode(points, precision: 6)))")
        for (a, b) in zip(five.coordinates + six.coordinates, points + points) {
            XCTAssertEqual(a.latitude, b.latitude, accuracy: 1e-5); XCTAssertEqual(a.longitude, b.longitude, accuracy: 1e-5)
        }
    }

    func testMalformedURLsGetOSRMCodes() {
        XCTAssertEqual(code("/route/v1/driving"), "InvalidUrl")
        XCTAssertEqual(code("/route/v1/driving/1,2;3,4/extra"), "InvalidUrl")
        XCTAssertEqual(code("/match/v1/driving/1,2;3,4"), "InvalidService")
        XCTAssertEqual(code("/route/v5/driving/1,2;3,4"), "InvalidVersion")
        XCTAssertEqual(code("/route/v1/cycling/1,2;3,4"), "InvalidOptions")
        XCTAssertEqual(code("/route/v1/driving/"), "InvalidQuery")
        XCTAssertEqual(code("/route/v1/driving/1,2;3"), "InvalidQuery")
        XCTAssertEqual(code("/route/v1/driving/1,2;;3,4"), "InvalidQuery")
        XCTAssertEqual(code("/route/v1/driving/a,b;3,4"), "InvalidQuery")
        XCTAssertEqual(code("/route/v1/driving/nan,2;3,4"), "InvalidQuery")
        XCTAssertEqual(code("/route/v1/driving/polyline(~~~~"), "InvalidQuery")
        XCTAssertEqual(code("/route/v1/driving/181,2;3,4"), "InvalidValue")
        XCTAssertEqual(code("/route/v1/driving/1,-90.5;3,4"), "InvalidValue")
        XCTAssertNil(code("/route/v1/driving/180,90;-180,-90"))
    }

    func testOptionValuesAreChecked() throws {
        let r = try parse("/table/v1/car/1,2;3,4;5,6?sources=0;2&destinations=all&radiuses=10;unlimited;&steps=yes")
        XCTAssertEqual(try r.indices("sources"), [0, 2])
        XCTAssertEqual(try r.indices("destinations"), [0, 1, 2])
        var limits = ServiceLimits()
        limits.defaultRadius = 500; limits.maximumRadius = 5000
        XCTAssertEqual(try r.radiuses(limits: limits), [10, 5000, 500])
        XCTAssertThrowsError(try r.bool("steps", default: false)) { XCTAssertEqual(($0 as? OSRMError)?.code, "InvalidQuery") }
        XCTAssertThrowsError(try r.requireOnly(["sources", "destinations", "radiuses"])) {
            XCTAssertEqual(($0 as? OSRMError)?.code, "InvalidOptions")
            XCTAssertTrue("\($0)".contains("steps"))
        }
        let bad = try parse("/table/v1/car/1,2;3,4?sources=0;7&radiuses=1")
        XCTAssertThrowsError(try bad.indices("sources")) { XCTAssertEqual(($0 as? OSRMError)?.code, "InvalidValue") }
        XCTAssertThrowsError(try bad.radiuses(limits: limits)) { XCTAssertEqual(($0 as? OSRMError)?.code, "InvalidOptions") }
    }
}
