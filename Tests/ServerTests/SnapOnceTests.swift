import Foundation
import XCTest
import Server
@testable import Wayfinder

/// Each coordinate of a request is snapped once (the map counts its snaps in debug builds).
final class SnapOnceTests: XCTestCase {
    typealias F = ServerFixture

    #if DEBUG
    func testEveryServiceSnapsEachCoordinateOnce() throws {
        let (_, service) = try F.monaco()
        let four = [F.casino, F.port, F.fontvieille, F.larvotto].joined(separator: ";")
        for (target, expected) in [("/route/v1/driving/\(four)?steps=true", 4), ("/route/v1/driving/\(F.casino);\(F.port)?alternatives=2", 2),
                                   ("/trip/v1/driving/\(four)", 4), ("/trip/v1/driving/\(four)?roundtrip=false&source=any&destination=last", 4),
                                   ("/table/v1/driving/\(four)?sources=0;1", 4)] {
            let before = service.map.snapCount
            let answer = try ask(service, target)
            XCTAssertEqual(answer.code, "Ok", target)
            XCTAssertEqual(service.map.snapCount - before, expected, target)
        }
    }
    #endif

    func testTripWithOnlyTheLastStopFixedEndsThere() throws {
        let (_, service) = try F.monaco()
        let four = [F.casino, F.port, F.fontvieille, F.larvotto].joined(separator: ";")
        let answer = try ask(service, "/trip/v1/driving/\(four)?roundtrip=false&source=any&destination=last")
        XCTAssertEqual(answer.code, "Ok")
        let waypoints = try XCTUnwrap(answer["waypoints"] as? [[String: Any]])
        XCTAssertEqual(waypoints.compactMap { $0["waypoint_index"] as? Int }.sorted(), [0, 1, 2, 3])
        XCTAssertEqual(waypoints[3]["waypoint_index"] as? Int, 3, "the last coordinate is visited last")
    }
}
