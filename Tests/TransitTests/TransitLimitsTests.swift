import Foundation
import Graph
import Routing
import XCTest
import TestSupport
@testable import Transit

/// Hostile transit parameters: any walking radius is safe for the stop grid, and a deadline stops the walk
/// searches and RAPTOR from inside (a query past it throws `timedOut`, never answers from a cut-off search).
final class TransitLimitsTests: XCTestCase {
    let north = Coordinate(latitude: 39.48577, longitude: -87.39769)
    let south = Coordinate(latitude: 39.4565472, longitude: -87.4164615)

    func testStopGridTakesAnyRadius() {
        var rng = SplitMix64(state: 7)
        let count = 500
        let lats = (0..<count).map { _ in Int32.random(in: 394_000_000...396_000_000, using: &rng) }
        let lons = (0..<count).map { _ in Int32.random(in: -875_000_000 ... -873_000_000, using: &rng) }
        let grid = StopGrid(latitudes: lats, longitudes: lons)
        // Once crashed with "Double value cannot be converted to Int64" (and 1e7 m scanned for 40 s).
        for radius in [1e308, .infinity, 1e7, 1e12] {
            let started = Date()
            XCTAssertEqual(grid.stops(near: 39.47, -87.40, within: radius).count, count, "\(radius)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 1, "\(radius)")
        }
        for radius in [-1, -Double.infinity, .nan] { XCTAssertTrue(grid.stops(near: 39.47, -87.40, within: radius).isEmpty, "\(radius)") }
        XCTAssertTrue(grid.stops(near: .nan, -87.40, within: 1000).isEmpty)
        XCTAssertTrue(grid.stops(near: 39.47, .infinity, within: 1000).isEmpty)
        // Every radius finds exactly the stops within it, by grid cells or by the scan of all stops.
        for _ in 0..<200 {
            let lat = Double.random(in: 39.38...39.62, using: &rng), lon = Double.random(in: -87.52 ... -87.28, using: &rng)
            let radius = [Double.random(in: 0...3000, using: &rng), Double.random(in: 0...60_000, using: &rng)].randomElement(using: &rng)!
            let found = grid.stops(near: lat, lon, within: radius)
            let distances = (0..<count).map { Geo.distance(lat1: lat, lon1: lon, lat2: Double(lats[$0]) * 1e-7, lon2: Double(lons[$0]) * 1e-7) }
            let expected = (0..<count).filter { distances[$0] <= radius }
            XCTAssertEqual(found.map(\.stop), expected, "\(lat),\(lon) within \(radius)")
            // The distances are `Geo.distance`'s, bit for bit (the grid keeps the stops' cosines, not its own formula).
            for f in found where f.distance != distances[f.stop] { XCTFail("stop \(f.stop): \(f.distance) m, not \(distances[f.stop]) m") }
        }
    }

    func testDeadlineStopsWalkSearchesAndRaptor() throws {
        let router = try TerreHaute.router()
        let start = try XCTUnwrap(router.footRouter.snapper.snap(north)), end = try XCTUnwrap(router.footRouter.snapper.snap(south))
        let origin = SearchEndpoint(start, in: router.graph), destination = SearchEndpoint(end, in: router.graph)
        let past = Date(timeIntervalSinceNow: -1)
        // A 10 km walk reaches most stops; past its deadline the search settles at most a thousand nodes.
        let full = router.walks(at: origin, towards: false, maxWalk: 10_000)
        let cut = router.walks(at: origin, towards: false, maxWalk: 10_000, deadline: past)
        XCTAssertGreaterThan(full.count, 50)
        XCTAssertLessThan(cut.count, full.count / 2)

        let t = instant("2017-05-10T09:00:00", zone: "America/New_York")
        let around = try router.days(around: t)
        let egress = router.walks(at: destination, towards: true, maxWalk: 10_000)
        var query = RaptorQuery(access: full.map { ($0.stop, $0.seconds) }, egress: egress.map { ($0.stop, $0.seconds) },
                                departure: t, maxRides: 7, dayStarts: around.dayStarts, active: around.active)
        XCTAssertFalse(router.forward.search(query).isEmpty)
        query.deadline = past
        // The feed has few patterns: the check (every 256 pattern scans) may come after the search found journeys,
        // so what counts is that it returns, and that the router refuses to answer from it.
        _ = router.forward.search(query)
        var options = TransitOptions(maxWalk: 10_000)
        options.deadline = past
        XCTAssertThrowsError(try router.plan(from: north, to: south, departure: Date(timeIntervalSince1970: TimeInterval(t)), options: options)) {
            XCTAssertEqual($0 as? TransitError, .timedOut)
        }
        options.deadline = Date(timeIntervalSinceNow: 60)
        XCTAssertNoThrow(try router.plan(from: north, to: south, departure: Date(timeIntervalSince1970: TimeInterval(t)), options: options))
    }

    /// A query past its deadline keeps no stop's egress table (a table cut short would give later queries wrong walks),
    /// and the next query builds them and answers as a router that never saw the deadline.
    func testDeadlineKeepsNoEgressTableCutShort() throws {
        let graph = try SampleGraph.terreHauteTransit().graph
        let router = try TransitRouter(graph: graph), untouched = try TransitRouter(graph: graph)
        let departure = Date(timeIntervalSince1970: TimeInterval(instant("2017-05-10T09:00:00", zone: "America/New_York")))
        var options = TransitOptions()
        options.deadline = Date(timeIntervalSinceNow: -1)
        XCTAssertThrowsError(try router.plan(from: north, to: south, departure: departure, options: options)) {
            XCTAssertEqual($0 as? TransitError, .timedOut)
        }
        XCTAssertThrowsError(try router.earliestArrivals(from: north, departure: departure, to: [south, north], options: options))
        XCTAssertEqual(router.keptEgressTables, 0, "tables built past the deadline are not kept")
        let answer = try router.plan(from: north, to: south, departure: departure)
        XCTAssertGreaterThan(router.keptEgressTables, 0)
        XCTAssertEqual(answer.primary, try untouched.plan(from: north, to: south, departure: departure).primary)
        XCTAssertEqual(try router.earliestArrivals(from: north, departure: departure, to: [south, north]).map { try? $0.get() },
                       try untouched.earliestArrivals(from: north, departure: departure, to: [south, north]).map { try? $0.get() })
    }
}
