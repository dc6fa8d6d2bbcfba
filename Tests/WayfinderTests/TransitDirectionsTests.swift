import Foundation
import Graph
import Transit
import Wayfinder
import XCTest

/// `transportType: .transit` through the public API, on the Terre Haute sample with its feed.
final class TransitDirectionsTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-transitapi-\(getpid())")

    static func graph() throws -> OfflineMap {
        let path = folder.appendingPathComponent("terre-haute.wfg").path
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")
            var importer = GraphImporter()
            importer.buildLandmarks = false
            _ = try importer.run(input: data.appendingPathComponent("terre-haute.osm.gz").path, output: path)
            try TransitImporter().run(feeds: [data.appendingPathComponent("terre-haute-gtfs.zip").path], graphPath: path, output: path)
        }
        return try OfflineMap(contentsOf: URL(fileURLWithPath: path))
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func request(departure: Date? = nil, arrival: Date? = nil) -> DirectionsRequest {
        DirectionsRequest(stops: [Coordinate(latitude: 39.48577, longitude: -87.39769), Coordinate(latitude: 39.4565472, longitude: -87.4164615)],
                          transportType: .transit, departureDate: departure, arrivalDate: arrival, timeZone: TimeZone(identifier: "America/New_York")!)
    }

    let nine = Date(timeIntervalSince1970: 1_494_421_200)   // 2017-05-10T09:00:00-04:00

    func testCalculateTransitAndItsRouteView() throws {
        let graph = try Self.graph()
        let trip = try Directions(request(departure: nine), map: graph).calculateTransit()
        XCTAssertGreaterThanOrEqual(trip.departure, nine)
        XCTAssertGreaterThan(trip.rides, 0)
        let response = try Directions(request(departure: nine), map: graph).calculate()
        XCTAssertEqual(response.mode, "transit")
        XCTAssertEqual(response.expectedArrivalDate, trip.arrival)
        XCTAssertTrue(response.routes[0].steps.contains { $0.instructions.hasPrefix("Take the bus") })
        let eta = try Directions(request(departure: nine), map: graph).calculateETA()
        XCTAssertEqual(eta.expectedArrivalDate, trip.arrival)
        // The encoders accept it.
        XCTAssertTrue(TransitJSONEncoder().encode(trip).contains("\"kind\":\"ride\""))
        XCTAssertTrue(TransitGeoJSONEncoder().encode(trip).hasPrefix("{\"type\":\"FeatureCollection\""))
        XCTAssertTrue(TransitGPXEncoder().encode(trip).contains("<trk>"))
    }

    func testArriveByAndErrors() throws {
        let graph = try Self.graph()
        let by = nine.addingTimeInterval(3600)
        let trip = try Directions(request(arrival: by), map: graph).calculateTransit()
        XCTAssertLessThanOrEqual(trip.arrival, by)
        XCTAssertThrowsError(try Directions(request(departure: Date(timeIntervalSince1970: 1_800_000_000)), map: graph).calculateTransit()) { error in
            guard case .transit(.dateOutsideFeed) = error as? DirectionsError else { return XCTFail("\(error)") }
        }
    }
}
