import Foundation
import Graph
import Routing
import XCTest
@testable import Transit

/// Whole itineraries on the Terre Haute sample: legs, times, walking only, arrive-by, limits and errors.
final class TransitRouterTests: XCTestCase {
    let zone = "America/New_York"
    // 13th & Plum to University Apartments/1st & Farrington: about 4 km apart, buses every hour or so.
    let north = Coordinate(latitude: 39.48577, longitude: -87.39769)
    let south = Coordinate(latitude: 39.4565472, longitude: -87.4164615)

    func date(_ text: String) -> Date { Date(timeIntervalSince1970: TimeInterval(instant(text, zone: zone))) }

    func testDepartAtItineraryIsConsistent() throws {
        let router = try TerreHaute.router()
        let plan = try router.plan(from: north, to: south, departure: date("2017-05-10T09:00:00"))
        let best = plan.primary
        XCTAssertGreaterThan(best.rides, 0)
        XCTAssertGreaterThanOrEqual(best.departure, date("2017-05-10T09:00:00"))
        // Legs follow one another in time, rides carry their line and stops.
        for (a, b) in zip(best.legs, best.legs.dropFirst()) { XCTAssertLessThanOrEqual(a.arrival, b.departure) }
        for leg in best.legs where leg.kind == .ride {
            let ride = try XCTUnwrap(leg.ride)
            XCTAssertEqual(ride.agency, "Terre Haute Transit")
            XCTAssertEqual(ride.mode, "bus")
            XCTAssertGreaterThan(ride.numberOfStops, 0)
            XCTAssertFalse(leg.from.name.isEmpty)
            XCTAssertGreaterThanOrEqual(leg.geometry.count, 2)
        }
        XCTAssertEqual(best.rides, best.legs.filter { $0.kind == .ride }.count)
        // The Pareto set: fewer rides arrive later.
        for (a, b) in zip(plan.itineraries, plan.itineraries.dropFirst()) {
            XCTAssertLessThan(a.rides, b.rides)
            XCTAssertGreaterThan(a.arrival, b.arrival)
        }
        // Leaving any later than the itinerary does, one arrives later (it leaves as late as it can).
        let later = try router.plan(from: north, to: south, departure: best.departure.addingTimeInterval(1))
        XCTAssertGreaterThanOrEqual(later.primary.arrival, best.arrival)
    }

    func testRideGeometryFollowsTheShape() throws {
        let router = try TerreHaute.router()
        let plan = try router.plan(from: north, to: south, departure: date("2017-05-10T09:00:00"))
        let ride = try XCTUnwrap(plan.primary.legs.first { $0.kind == .ride })
        // The feed has shapes.txt: far more points than the stops passed, all near the stops' line.
        XCTAssertGreaterThan(ride.geometry.count, ride.ride!.numberOfStops + 5)
        XCTAssertEqual(ride.geometry.first, ride.from.coordinate)
        XCTAssertEqual(ride.geometry.last, ride.to.coordinate)
        XCTAssertLessThan(ride.distance, 4 * ride.from.coordinate.distance(to: ride.to.coordinate) + 2000)
    }

    func testMaxWalkAlsoLimitsTransferWalks() throws {
        let router = try TerreHaute.router()
        var rng = SplitMix64(state: 3)
        let tt = router.timetable
        let t = ServiceDay.start(ServiceDay.number(year: 2017, month: 5, day: 10), in: router.zones[0]) + 9 * 3600
        var constrained = 0
        for _ in 0..<40 {
            let a = Int.random(in: 0..<tt.stopCount, using: &rng), b = Int.random(in: 0..<tt.stopCount, using: &rng)
            var q = try router.window.query(reversed: false, time: t, access: [(a, 0)], egress: [(b, 0)], maxRides: 7)
            let free = router.forward.search(q).last?.arrival
            q.maxTransferDistance = 0
            let sameStopOnly = router.forward.search(q)
            if let last = sameStopOnly.last {
                XCTAssertGreaterThanOrEqual(last.arrival, free ?? Int.max)
                for part in last.parts { if case let .transfer(from, to, _) = part { XCTAssertEqual(from, to) } }
            }
            if sameStopOnly.last?.arrival != free { constrained += 1 }
        }
        XCTAssertGreaterThan(constrained, 0, "walking transfers should matter for some pairs")
    }

    func testArriveByLeavesAsLateAsPossible() throws {
        let router = try TerreHaute.router()
        let by = date("2017-05-10T10:00:00")
        let plan = try router.plan(from: north, to: south, arrival: by)
        XCTAssertLessThanOrEqual(plan.primary.arrival, by)
        // Leaving at that departure, the depart-at search arrives by the same time.
        let forward = try router.plan(from: north, to: south, departure: plan.primary.departure)
        XCTAssertLessThanOrEqual(forward.primary.arrival, by)
    }

    func testWalkingOnlyWhenItIsQuicker() throws {
        let router = try TerreHaute.router()
        let near = Coordinate(latitude: 39.4670, longitude: -87.4110)
        let plan = try router.plan(from: near, to: Coordinate(latitude: 39.4660, longitude: -87.4130), departure: date("2017-05-10T09:00:00"))
        XCTAssertEqual(plan.itineraries.count, 1)
        XCTAssertEqual(plan.primary.rides, 0)
        XCTAssertEqual(plan.primary.legs.first?.kind, .walk)
        XCTAssertFalse(plan.primary.legs[0].steps.isEmpty)
    }

    func testWithoutWalksToStopsOnlyWalkingRemains() throws {
        let router = try TerreHaute.router()
        var options = TransitOptions()
        options.maxWalk = 0
        // No stop within 0 m: walking only is offered, whatever its length, since nothing else exists.
        let plan = try router.plan(from: Coordinate(latitude: 39.4701, longitude: -87.3880), to: south,
                                   departure: date("2017-05-10T09:00:00"), options: options)
        XCTAssertEqual(plan.primary.rides, 0)
        XCTAssertGreaterThan(plan.primary.walkingDistance, 2000)
    }

    func testNoTransitRouteMessageNamesTheLimits() {
        let text = TransitError.noTransitRoute(leg: 0, maxTransfers: 2, maxWalk: 400).description
        XCTAssertTrue(text.hasPrefix("no transit route for leg 1"), text)
        XCTAssertTrue(text.contains("at most 2 transfers"), text)
        XCTAssertTrue(text.contains("at most 400 m"), text)
    }

    func testDateOutsideTheFeed() throws {
        let router = try TerreHaute.router()
        XCTAssertThrowsError(try router.plan(from: north, to: south, departure: date("2026-12-01T08:30:00"))) { error in
            XCTAssertEqual(error as? TransitError, .dateOutsideFeed(date: "2026-12-01", first: "2015-01-01", last: "2017-12-30"))
        }
    }

    func testTripThroughThreeStopsChainsTheLegs() throws {
        let router = try TerreHaute.router()
        let middle = Coordinate(latitude: 39.4667, longitude: -87.4106)
        let trip = try router.trip(through: [north, middle, south], departure: date("2017-05-10T09:00:00"))
        XCTAssertEqual(trip.plans.count, 2)
        XCTAssertGreaterThanOrEqual(trip.plans[1].primary.departure, trip.plans[0].primary.arrival)
    }
}
