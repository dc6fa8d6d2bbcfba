import Foundation
import Graph
import Routing
import XCTest
@testable import Transit

/// RAPTOR's earliest arrival equals the plain connection scan's over the same timetable, walks and transfers.
final class RaptorReferenceTests: XCTestCase {
    func testEarliestArrivalEqualsConnectionScanOnRandomQueries() throws {
        let router = try TerreHaute.router()
        let tt = router.timetable
        XCTAssertGreaterThan(tt.tripCount, 100)
        let reference = ConnectionScan(timetable: router.forward.timetable, serviceCount: router.calendar.count)
        var rng = SplitMix64(state: 42)
        var compared = 0, withRide = 0
        // Weekdays and Saturdays of 2017 (the feed runs 2015-01-01 to 2017-12-30).
        let firstDay = ServiceDay.number(year: 2017, month: 3, day: 1)
        while compared < 250 {
            let a = Int.random(in: 0..<tt.stopCount, using: &rng), b = Int.random(in: 0..<tt.stopCount, using: &rng)
            func jitter(_ s: Int) -> Coordinate {
                Coordinate(latitude: Double(tt.stopLatitudes[s]) * 1e-7 + Double.random(in: -0.004...0.004, using: &rng),
                           longitude: Double(tt.stopLongitudes[s]) * 1e-7 + Double.random(in: -0.004...0.004, using: &rng))
            }
            let origin = jitter(a), destination = jitter(b)
            guard let start = router.footRouter.snapper.snap(origin), let end = router.footRouter.snapper.snap(destination) else { continue }
            let day = firstDay + Int.random(in: 0..<200, using: &rng)
            let seconds = Int.random(in: (5 * 3600)...(21 * 3600), using: &rng)
            let t = ServiceDay.start(day, in: router.zones[0]) + seconds
            let access = router.walks(at: SearchEndpoint(start, in: router.graph), towards: false, maxWalk: 1000)
            let egress = router.walks(at: SearchEndpoint(end, in: router.graph), towards: true, maxWalk: 1000)
            let around = try router.days(around: t)
            let query = RaptorQuery(access: access.map { ($0.stop, $0.seconds) }, egress: egress.map { ($0.stop, $0.seconds) },
                                    departure: t, maxRides: 12, dayStarts: around.dayStarts, active: around.active)
            let raptor = router.forward.search(query).last?.arrival
            let csa = reference.earliestArrival(query)
            XCTAssertEqual(raptor, csa, "query \(compared): \(origin) → \(destination) at \(t)")
            compared += 1
            if raptor != nil { withRide += 1 }
        }
        XCTAssertGreaterThan(withRide, 100, "most random queries should find a ride")
    }

    func testArriveByFindsTheLatestDepartureThatStillArrives() throws {
        let router = try TerreHaute.router()
        let tt = router.timetable
        var rng = SplitMix64(state: 7)
        let day = ServiceDay.number(year: 2017, month: 5, day: 10)
        var checked = 0
        for _ in 0..<60 {
            let a = Int.random(in: 0..<tt.stopCount, using: &rng), b = Int.random(in: 0..<tt.stopCount, using: &rng)
            guard a != b else { continue }
            let t = ServiceDay.start(day, in: router.zones[0]) + Int.random(in: (6 * 3600)...(18 * 3600), using: &rng)
            let around = try router.days(around: t)
            let forward = router.forward.search(RaptorQuery(access: [(a, 0)], egress: [(b, 0)], departure: t, maxRides: 7,
                                                            dayStarts: around.dayStarts, active: around.active))
            guard let arrival = forward.last?.arrival else { continue }
            // Arrive by that arrival: the latest departure is at or after t, and leaving then arrives in time.
            let backward = router.backward.search(RaptorQuery(access: [(b, 0)], egress: [(a, 0)], departure: -arrival, maxRides: 7,
                                                              dayStarts: around.dayStarts.map { -$0 }, active: around.active))
            let latest = try XCTUnwrap(backward.last.map { -$0.arrival })
            XCTAssertGreaterThanOrEqual(latest, t)
            let again = router.forward.search(RaptorQuery(access: [(a, 0)], egress: [(b, 0)], departure: latest, maxRides: 7,
                                                          dayStarts: around.dayStarts, active: around.active))
            XCTAssertEqual(again.last?.arrival, arrival)
            // One second later, the arrival is later.
            let later = router.forward.search(RaptorQuery(access: [(a, 0)], egress: [(b, 0)], departure: latest + 1, maxRides: 7,
                                                          dayStarts: around.dayStarts, active: around.active))
            XCTAssertGreaterThan(later.last?.arrival ?? Int.max, arrival)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20)
    }
}
