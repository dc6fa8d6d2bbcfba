import Foundation
import Graph
import Routing
import XCTest
import TestSupport
@testable import Transit

/// One-to-many, departure windows, matrices and orders by transit equal the pair queries they stand for.
final class TransitManyTests: XCTestCase {
    /// Random points around the feed's stops, and a departure on a 2017 service day.
    private func randomCase(_ router: TransitRouter, _ rng: inout SplitMix64, places: Int) -> (origin: Coordinate, places: [Coordinate], departure: Date) {
        let tt = router.timetable
        func point() -> Coordinate {
            let s = Int.random(in: 0..<tt.stopCount, using: &rng)
            return Coordinate(latitude: Double(tt.stopLatitudes[s]) * 1e-7 + Double.random(in: -0.004...0.004, using: &rng),
                              longitude: Double(tt.stopLongitudes[s]) * 1e-7 + Double.random(in: -0.004...0.004, using: &rng))
        }
        let day = ServiceDay.number(year: 2017, month: 3, day: 1) + Int.random(in: 0..<200, using: &rng)
        let t = ServiceDay.start(day, in: router.zones[0]) + Int.random(in: (5 * 3600)...(21 * 3600), using: &rng)
        return (point(), (0..<places).map { _ in point() }, Date(timeIntervalSince1970: TimeInterval(t)))
    }

    func testEarliestArrivalsEqualEachPairQuery() throws {
        let router = try TerreHaute.router()
        var rng = SplitMix64(state: 15)
        var checked = 0, byTransit = 0, walking = 0
        for _ in 0..<6 {
            let c = randomCase(router, &rng, places: 30)
            let answers = try router.earliestArrivals(from: c.origin, departure: c.departure, to: c.places)
            let refined = try router.earliestArrivals(from: c.origin, departure: c.departure, to: c.places, refine: true)
            XCTAssertEqual(answers.count, c.places.count)
            for (i, place) in c.places.enumerated() {
                let pair: TransitItinerary
                do { pair = try router.plan(from: c.origin, to: place, departure: c.departure).primary } catch {
                    XCTAssertThrowsError(try answers[i].get()) { XCTAssertEqual($0 as? TransitError, error as? TransitError) }
                    continue
                }
                let answer = try answers[i].get()
                XCTAssertEqual(answer.arrival, pair.arrival, "place \(i): \(c.origin) → \(place) at \(c.departure)")
                XCTAssertEqual(answer.rides, pair.rides, "place \(i)")
                XCTAssertEqual(try refined[i].get().itinerary, pair, "place \(i): the refined itinerary is the pair's")
                if pair.rides == 0 {
                    walking += 1
                    XCTAssertNil(answer.firstBoarding)
                    XCTAssertEqual(answer.walkingDistance, pair.walkingDistance)
                } else {
                    byTransit += 1
                    let boarding = try XCTUnwrap(answer.firstBoarding)
                    XCTAssertGreaterThanOrEqual(boarding.departure, c.departure)
                    XCTAssertLessThan(boarding.departure, answer.arrival)
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(byTransit, 40, "most random places should be reached by a ride")
        XCTAssertGreaterThan(checked, 100)
        _ = walking
    }

    /// Heidelberg with the VRN feed (../shared/data, or WAYFINDER_SHARED_DATA), imported once for the tests that use
    /// it; nil when the data is absent.
    private static let heidelberg: Result<TransitRouter, Error>? = {
        let osm = sharedData + "/osm/heidelberg.osm.pbf", gtfs = sharedData + "/gtfs/vrn-heidelberg-cut.zip"
        guard FileManager.default.fileExists(atPath: osm), FileManager.default.fileExists(atPath: gtfs) else { return nil }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-many-heidelberg-\(getpid()).wfg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        return Result {
            var importer = GraphImporter()
            importer.buildLandmarks = false
            _ = try importer.run(input: osm, output: path)
            _ = try TransitImporter().run(feeds: [gtfs], graphPath: path, output: path)
            return try TransitRouter(graph: try RoadGraph(path: path))
        }
    }()

    private func heidelbergRouter() throws -> TransitRouter {
        guard let router = Self.heidelberg else { throw XCTSkip("no heidelberg.osm.pbf and vrn-heidelberg-cut.zip in \(sharedData)") }
        return try router.get()
    }

    /// The same on Heidelberg: a dense foot network where the egress walks are cut short and many places are quicker
    /// on foot.
    func testEarliestArrivalsEqualEachPairQueryInHeidelberg() throws {
        let router = try heidelbergRouter()
        let tt = router.timetable
        var rng = SplitMix64(state: 42)
        var checked = 0, byTransit = 0, walking = 0
        for _ in 0..<6 {
            func point() -> Coordinate {
                let s = Int.random(in: 0..<tt.stopCount, using: &rng)
                return Coordinate(latitude: Double(tt.stopLatitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng),
                                  longitude: Double(tt.stopLongitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng))
            }
            let day = ServiceDay.number(year: 2022, month: 9, day: 12) + Int.random(in: 0..<30, using: &rng)
            let t = Date(timeIntervalSince1970: TimeInterval(ServiceDay.start(day, in: router.zones[0]) + Int.random(in: (6 * 3600)...(20 * 3600), using: &rng)))
            let origin = point(), places = (0..<40).map { _ in point() }
            guard let answers = try? router.earliestArrivals(from: origin, departure: t, to: places) else { continue }
            for (i, place) in places.enumerated() {
                guard let pair = try? router.plan(from: origin, to: place, departure: t).primary else {
                    XCTAssertThrowsError(try answers[i].get(), "\(origin) → \(place) at \(t)"); continue
                }
                let answer = try answers[i].get()
                XCTAssertEqual(answer.arrival, pair.arrival, "\(origin) → \(place) at \(t)")
                XCTAssertEqual(answer.rides, pair.rides, "\(origin) → \(place) at \(t)")
                if pair.rides == 0 { walking += 1; XCTAssertEqual(answer.walkingDistance, pair.walkingDistance) } else { byTransit += 1 }
                checked += 1
            }
        }
        XCTAssertGreaterThan(byTransit, 20, "places reached by a ride")
        XCTAssertGreaterThan(walking, 5, "places quicker on foot")
        XCTAssertGreaterThan(checked, 100)
    }

    func testDepartureWindowEqualsOneQueryPerDeparture() throws {
        let router = try TerreHaute.router()
        var rng = SplitMix64(state: 30)
        var cases = 0, departures = 0
        while cases < 8 {
            let c = randomCase(router, &rng, places: 1)
            guard let window = try? router.departureWindow(from: c.origin, to: c.places[0], departure: c.departure, window: 1800) else { continue }
            cases += 1
            XCTAssertEqual(window.departures.first?.departure, c.departure, "the window's start is a departure of its own")
            var previous: TransitDepartureWindow.Departure? = nil
            for d in window.departures {
                XCTAssertLessThanOrEqual(d.departure.timeIntervalSince(c.departure), 1800)
                XCTAssertEqual(d.arrival, try router.plan(from: c.origin, to: c.places[0], departure: d.departure).primary.arrival, "leaving \(d.departure)")
                if let previous { XCTAssertLessThan(previous.departure, d.departure); XCTAssertLessThanOrEqual(previous.arrival, d.arrival) }
                previous = d
                departures += 1
            }
            let times = window.departures.map(\.travelTime).sorted()
            XCTAssertEqual(window.best, times.first); XCTAssertEqual(window.worst, times.last)
            XCTAssertEqual(window.median, times[(times.count - 1) / 2])
        }
        XCTAssertGreaterThan(departures, 8 * 2, "a half-hour window holds several departures")
        XCTAssertThrowsError(try router.departureWindow(from: randomCase(router, &rng, places: 0).origin, to: randomCase(router, &rng, places: 0).origin,
                                                        departure: Date(), window: -1)) {
            XCTAssertEqual($0 as? TransitError, .invalidDepartureWindow(seconds: -1))
        }
    }

    /// From an origin on a small island of the foot network (a platform the nearest road, whose walks reach one stop
    /// with a few trips a day), the pair query leaves from the origin moved off the island: the window holds the
    /// moments that catch a vehicle from there too. Every minute of the window is checked: leaving then, the pair
    /// query arrives no earlier than the window's departure before it and takes no less than the window's best.
    func testDepartureWindowFromASmallIslandHoldsTheMovedOriginsDepartures() throws {
        let router = try heidelbergRouter()
        let origin = Coordinate(latitude: 49.40996, longitude: 8.69285)  // a platform of Bismarckplatz
        let destination = Coordinate(latitude: 49.4141167, longitude: 8.6710146)
        XCTAssertNotNil(try router.endpoint(origin, stop: 0, options: TransitOptions()).offIsland, "the origin lies on a small island")
        let day = ServiceDay.number(year: 2022, month: 7, day: 12)
        let start = Date(timeIntervalSince1970: TimeInterval(ServiceDay.start(day, in: router.zones[0]) + 18 * 3600))
        let window = try router.departureWindow(from: origin, to: destination, departure: start, window: 1800)
        XCTAssertGreaterThan(window.departures.count, 2, "departures from the moved origin's stops")
        for d in window.departures {
            XCTAssertEqual(d.arrival, try router.plan(from: origin, to: destination, departure: d.departure).primary.arrival, "leaving \(d.departure)")
        }
        for minute in 0...30 {
            let leaving = start.addingTimeInterval(TimeInterval(60 * minute))
            let arrival = try router.plan(from: origin, to: destination, departure: leaving).primary.arrival
            XCTAssertGreaterThanOrEqual(arrival.timeIntervalSince(leaving), window.best, "leaving \(leaving)")
            if let before = window.departures.last(where: { $0.departure <= leaving }) {
                XCTAssertGreaterThanOrEqual(arrival, before.arrival, "leaving \(leaving)")
            }
        }
    }

    func testMatrixRowsAndGreedyOrder() throws {
        let router = try TerreHaute.router()
        var rng = SplitMix64(state: 45)
        let c = randomCase(router, &rng, places: 5)
        let sources = [c.origin, Coordinate(latitude: 91, longitude: 0), c.places[0]]
        let matrix = try router.earliestArrivalMatrix(from: sources, to: c.places, departure: c.departure)
        XCTAssertEqual(matrix.count, 3)
        XCTAssertEqual(matrix[0].map { try? $0.get().arrival }, try router.earliestArrivals(from: c.origin, departure: c.departure, to: c.places).map { try? $0.get().arrival })
        for cell in matrix[1] { XCTAssertThrowsError(try cell.get()) { XCTAssertEqual($0 as? TransitError, .invalidCoordinate(stop: 1)) } }

        let order = try router.greedyOrder(start: c.origin, places: c.places, departure: c.departure)
        XCTAssertEqual(order.order.sorted(), Array(c.places.indices))
        // Each step goes to the place reached earliest from where the traveller is, leaving when they arrived there.
        var at = c.origin, clock = c.departure, left = Array(c.places.indices)
        for (k, next) in order.order.enumerated() {
            let leg = try router.plan(from: at, to: c.places[next], departure: clock).primary.arrival
            XCTAssertEqual(order.arrivals[k], leg)
            for other in left where other != next {
                if let alternative = try? router.plan(from: at, to: c.places[other], departure: clock).primary.arrival {
                    XCTAssertGreaterThanOrEqual(alternative, leg)
                }
            }
            left.removeAll { $0 == next }
            at = c.places[next]; clock = leg
        }
    }
}
