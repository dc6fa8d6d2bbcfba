import Foundation
import Graph
import Routing
import XCTest
@testable import Transit

/// The island rule in transit (docs/transit.md, Walking): stops and platforms snap to their nearest foot road and are
/// never moved; the origin and destination move off a small island only when the query has no itinerary at all.
///
/// The map: a street of six 100 m blocks running east at 49.40°N 8.60°E; 20 m north of it two footway fragments joined
/// to nothing (islands for walkers): f1 at 100–140 m east with the platform P 3 m north of it, f2 at 300–340 m east.
/// One trip a day at 08:00 from P to the stop Q at the street's east end.
final class TransitIslandTests: XCTestCase {
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180
    static func point(north: Double, east: Double) -> Coordinate {
        Coordinate(latitude: 49.40 + north / metresPerDegree, longitude: 8.60 + east / (metresPerDegree * cos(49.40 * Double.pi / 180)))
    }

    nonisolated(unsafe) static var cached: TransitRouter?

    static func router() throws -> TransitRouter {
        if let cached { return cached }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-transit-islands-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func node(_ id: Int, _ c: Coordinate) -> String {
            "  <node id=\"\(id)\" lat=\"\(String(format: "%.7f", c.latitude))\" lon=\"\(String(format: "%.7f", c.longitude))\"/>\n"
        }
        func way(_ id: Int, _ nodes: [Int], _ highway: String) -> String {
            "  <way id=\"\(id)\">\n" + nodes.map { "    <nd ref=\"\($0)\"/>\n" }.joined() + "    <tag k=\"highway\" v=\"\(highway)\"/>\n  </way>\n"
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\">\n"
        for k in 0...6 { xml += node(1 + k, point(north: 0, east: Double(k) * 100)) }
        xml += node(11, point(north: 20, east: 100)) + node(12, point(north: 20, east: 140))
        xml += node(21, point(north: 20, east: 300)) + node(22, point(north: 20, east: 340))
        // The street as six ways, so its junctions are graph nodes and it is the largest part of the foot graph.
        for k in 0..<6 { xml += way(101 + k, [1 + k, 2 + k], "residential") }
        xml += way(111, [11, 12], "footway") + way(112, [21, 22], "footway") + "</osm>\n"
        let osm = folder.appendingPathComponent("map.osm").path, graph = folder.appendingPathComponent("map.wfg").path
        try xml.write(toFile: osm, atomically: false, encoding: .utf8)
        var importer = GraphImporter()
        importer.buildLandmarks = false
        _ = try importer.run(input: osm, output: graph)
        let p = point(north: 23, east: 120), q = point(north: 2, east: 590)
        let files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,P,1\nT1,08:05:00,08:05:00,Q,2\n",
                         extra: ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nP,Platform,\(p.latitude),\(p.longitude)\nQ,East End,\(q.latitude),\(q.longitude)\n"])
        try TransitImporter().run(feeds: [try writeFeed(files)], graphPath: graph, output: graph)
        let router = try TransitRouter(graph: RoadGraph(path: graph))
        cached = router
        return router
    }

    func date(_ text: String) -> Date { Date(timeIntervalSince1970: TimeInterval(instant(text, zone: "Europe/Berlin"))) }

    func testPlatformsStayOnTheirNearestFootRoad() throws {
        let router = try Self.router()
        let p = try XCTUnwrap(router.timetable.metadata.stopIDs.firstIndex(of: "P"))
        let platform = try XCTUnwrap(router.stopEndpoints[p])
        // On the fragment (3 m away), not moved to the street (23 m away), although the fragment is an island.
        XCTAssertEqual(platform.coordinate.distance(to: Self.point(north: 20, east: 120)), 0, accuracy: 0.05)
        XCTAssertFalse(router.footRouter.snapper.isOnMainNetwork(platform.edge))
    }

    func testAnOriginOnTheIslandOfAPlatformKeepsItsNearestRoadWhenThatGivesAnItinerary() throws {
        let router = try Self.router()
        // 2 m from the fragment f1: the walk to the platform is along the fragment, then the ride, then the street.
        let origin = Self.point(north: 22, east: 110), destination = Self.point(north: 2, east: 600)
        let plan = try router.plan(from: origin, to: destination, departure: date("2016-06-01T07:50:00"))
        XCTAssertEqual(plan.primary.rides, 1)
        let access = try XCTUnwrap(plan.primary.legs.first)
        XCTAssertEqual(access.kind, .walk)
        XCTAssertEqual(access.distance, 10, accuracy: 0.5, "along the fragment to the platform's point")
        XCTAssertGreaterThan(plan.primary.arrival, date("2016-06-01T08:05:00"))
        XCTAssertLessThan(plan.primary.arrival, date("2016-06-01T08:15:00"))
    }

    func testAnOriginOnAnIslandWithNoItineraryAtAllMovesToTheStreet() throws {
        let router = try Self.router()
        // 2 m from the fragment f2 (no stop, no way off it) and 18 m from the street: nothing from its nearest road, so
        // the query is planned again from the street, on foot.
        let origin = Self.point(north: 22, east: 320), destination = Self.point(north: 2, east: 600)
        let plan = try router.plan(from: origin, to: destination, departure: date("2016-06-01T09:00:00"))
        XCTAssertEqual(plan.primary.rides, 0)
        XCTAssertEqual(plan.primary.walkingDistance, 280, accuracy: 0.5)
        // The same from f1 at 09:00: the platform is on its island and tomorrow's 08:00 trip is an itinerary, so the
        // origin stays (the ride comes the next morning).
        let waiting = try router.plan(from: Self.point(north: 22, east: 110), to: destination, departure: date("2016-06-01T09:00:00"))
        XCTAssertEqual(waiting.primary.rides, 1)
        XCTAssertGreaterThan(waiting.primary.arrival, date("2016-06-02T08:00:00"))
    }
}
