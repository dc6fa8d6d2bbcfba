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
                    XCTAssertThrowsError(try answers[i].get()) { XCTAssertEqual($0 as? TransitError, error) }
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

    /// An extract and its feed from ../shared/data (or WAYFINDER_SHARED_DATA), imported as a user imports them (no
    /// landmarks, to save time; the foot hierarchy kept); nil when the data is absent.
    private static func sharedRouter(osm: String, feed: String) -> Result<TransitRouter, Error>? {
        let osm = sharedData + "/osm/" + osm, gtfs = sharedData + "/gtfs/" + feed
        guard FileManager.default.fileExists(atPath: osm), FileManager.default.fileExists(atPath: gtfs) else { return nil }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-many-\(feed)-\(getpid()).wfg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        return Result {
            var importer = GraphImporter()
            importer.buildLandmarks = false
            _ = try importer.run(input: osm, output: path)
            _ = try TransitImporter().run(feeds: [gtfs], graphPath: path, output: path)
            return try TransitRouter(graph: try RoadGraph(path: path))
        }
    }

    /// Heidelberg with the VRN feed, imported once for the tests that use it.
    private static let heidelberg = sharedRouter(osm: "heidelberg.osm.pbf", feed: "vrn-heidelberg-cut.zip")
    /// The Rhein-Neckar extract with the rnv feed (the largest shared feed: 2,057 stops, 424,266 stop times).
    private static let rnv = sharedRouter(osm: "rhein-neckar-rnv.osm.pbf", feed: "rnv-2016.zip")

    private func heidelbergRouter() throws -> TransitRouter {
        guard let router = Self.heidelberg else { throw XCTSkip("no heidelberg.osm.pbf and vrn-heidelberg-cut.zip in \(sharedData)") }
        return try router.get()
    }

    /// From `origins` random points near random stops (±`spread`°), one-to-many to `places` such points at a random
    /// moment 06:00–20:00 of the `days` days from `firstDay`: each answer's arrival and rides are the pair query's, and
    /// its walking distance when the pair walks; with `refine`, the refined answer is the pair's primary itinerary.
    private func checkEachPairQuery(_ router: TransitRouter, seed: UInt64, origins: Int, places count: Int, spread: Double,
                                    firstDay: Int, days: Int, refine: Bool = false) throws -> (checked: Int, byTransit: Int, walking: Int) {
        let tt = router.timetable
        var rng = SplitMix64(state: seed)
        var checked = 0, byTransit = 0, walking = 0
        for _ in 0..<origins {
            func point() -> Coordinate {
                let s = Int.random(in: 0..<tt.stopCount, using: &rng)
                return Coordinate(latitude: Double(tt.stopLatitudes[s]) * 1e-7 + Double.random(in: -spread...spread, using: &rng),
                                  longitude: Double(tt.stopLongitudes[s]) * 1e-7 + Double.random(in: -spread...spread, using: &rng))
            }
            let day = firstDay + Int.random(in: 0..<days, using: &rng)
            let t = Date(timeIntervalSince1970: TimeInterval(ServiceDay.start(day, in: router.zones[0]) + Int.random(in: (6 * 3600)...(20 * 3600), using: &rng)))
            let origin = point(), places = (0..<count).map { _ in point() }
            guard let answers = try? router.earliestArrivals(from: origin, departure: t, to: places) else { continue }
            let refined = refine ? try router.earliestArrivals(from: origin, departure: t, to: places, refine: true) : nil
            for (i, place) in places.enumerated() {
                guard let pair = try? router.plan(from: origin, to: place, departure: t).primary else {
                    XCTAssertThrowsError(try answers[i].get(), "\(origin) → \(place) at \(t)"); continue
                }
                let answer = try answers[i].get()
                XCTAssertEqual(answer.arrival, pair.arrival, "\(origin) → \(place) at \(t)")
                XCTAssertEqual(answer.rides, pair.rides, "\(origin) → \(place) at \(t)")
                if let refined { XCTAssertEqual(try refined[i].get().itinerary, pair, "\(origin) → \(place) at \(t): the refined itinerary is the pair's") }
                if pair.rides == 0 { walking += 1; XCTAssertEqual(answer.walkingDistance, pair.walkingDistance) } else { byTransit += 1 }
                checked += 1
            }
        }
        return (checked, byTransit, walking)
    }

    /// The same on Heidelberg: a dense foot network where the egress walks are cut short and many places are quicker
    /// on foot.
    func testEarliestArrivalsEqualEachPairQueryInHeidelberg() throws {
        let router = try heidelbergRouter()
        let (checked, byTransit, walking) = try checkEachPairQuery(router, seed: 42, origins: 6, places: 40, spread: 0.003,
                                                                   firstDay: ServiceDay.number(year: 2022, month: 9, day: 12), days: 30)
        XCTAssertGreaterThan(byTransit, 20, "places reached by a ride")
        XCTAssertGreaterThan(walking, 5, "places quicker on foot")
        XCTAssertGreaterThan(checked, 100)
    }

    /// The same on the rnv feed over the Rhein-Neckar extract: the largest shared feed, trams and buses across
    /// Mannheim, Heidelberg and Ludwigshafen, places far apart (most reached by rides, some with several transfers);
    /// the refined answers too, and a half-hour departure window per origin against one pair query per departure.
    func testEarliestArrivalsAndWindowsEqualEachPairQueryOnRnv() throws {
        guard let rnv = Self.rnv else { throw XCTSkip("no rhein-neckar-rnv.osm.pbf and rnv-2016.zip in \(sharedData)") }
        let router = try rnv.get()
        let firstDay = ServiceDay.number(year: 2016, month: 10, day: 24)
        let (checked, byTransit, walking) = try checkEachPairQuery(router, seed: 7, origins: 3, places: 30, spread: 0.003,
                                                                   firstDay: firstDay, days: 40, refine: true)
        XCTAssertGreaterThan(byTransit, 45, "places reached by a ride")
        XCTAssertGreaterThan(checked, 60)
        print("rnv: \(checked) places checked, \(byTransit) by transit, \(walking) on foot")
        var rng = SplitMix64(state: 8), departures = 0
        let tt = router.timetable
        for _ in 0..<3 {
            let a = Int.random(in: 0..<tt.stopCount, using: &rng), b = Int.random(in: 0..<tt.stopCount, using: &rng)
            let origin = Coordinate(latitudeE7: tt.stopLatitudes[a], longitudeE7: tt.stopLongitudes[a])
            let destination = Coordinate(latitudeE7: tt.stopLatitudes[b], longitudeE7: tt.stopLongitudes[b])
            let day = firstDay + Int.random(in: 0..<40, using: &rng)
            let start = Date(timeIntervalSince1970: TimeInterval(ServiceDay.start(day, in: router.zones[0]) + Int.random(in: (7 * 3600)...(19 * 3600), using: &rng)))
            guard let window = try? router.departureWindow(from: origin, to: destination, departure: start, window: 1800) else { continue }
            // A dense network's window holds dozens of departures (every stop within the walk limit): a dozen are checked.
            let stride = max(1, window.departures.count / 12)
            for (k, d) in window.departures.enumerated() where k % stride == 0 || k == window.departures.count - 1 {
                XCTAssertEqual(d.arrival, try router.plan(from: origin, to: destination, departure: d.departure).primary.arrival, "leaving \(d.departure)")
                departures += 1
            }
        }
        XCTAssertGreaterThan(departures, 6, "half-hour windows on rnv hold several departures")
        print("rnv: \(departures) departures of three windows checked")
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
