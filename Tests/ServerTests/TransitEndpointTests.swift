import XCTest
@testable import Server
import Transit

/// `/transit/v1` on Terre Haute with its feed: real itineraries depart-at and arrive-by, `/info`'s flag, and the
/// errors (no timetable, date outside the feed, no route within the limits, bad coordinates and options).
final class TransitEndpointTests: XCTestCase {
    typealias F = TransitFixture

    private func primary(_ answer: JSONAnswer) throws -> [String: Any] {
        let legs = try XCTUnwrap(answer["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.count, 1)
        let best = try XCTUnwrap(legs[0]["best"] as? Int)
        let itineraries = try XCTUnwrap(legs[0]["itineraries"] as? [[String: Any]])
        return itineraries[best]
    }

    func testDepartAtGivesWalkAndRideLegs() throws {
        let service = try F.terreHaute()
        let answer = try ask(service, "/transit/v1/\(F.north);\(F.south)?depart=2017-05-10T09:00")
        XCTAssertEqual(answer.status, 200, "\(answer.object)")
        XCTAssertEqual(answer.code, "Ok")
        XCTAssertEqual(answer["mode"] as? String, "transit")
        let departure = try XCTUnwrap(answer["expectedDepartureDate"] as? String)
        XCTAssertGreaterThanOrEqual(departure, "2017-05-10T09:00:00-04:00")
        let itinerary = try primary(answer)
        let legs = try XCTUnwrap(itinerary["legs"] as? [[String: Any]])
        let kinds = legs.compactMap { $0["kind"] as? String }
        XCTAssertEqual(kinds.first, "walk")
        XCTAssertTrue(kinds.contains("ride"), "\(kinds)")
        let ride = try XCTUnwrap(legs.first { $0["kind"] as? String == "ride" })
        XCTAssertFalse((ride["routeShortName"] as? String ?? "").isEmpty && (ride["routeLongName"] as? String ?? "").isEmpty)
        XCTAssertFalse((ride["polyline"] as? String ?? "").isEmpty)
        // Legs follow one another in time.
        for (a, b) in zip(legs, legs.dropFirst()) {
            XCTAssertLessThanOrEqual(try XCTUnwrap(a["expectedArrivalDate"] as? String), try XCTUnwrap(b["expectedDepartureDate"] as? String))
        }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(answer["rides"] as? Int), 1)
    }

    func testArriveByArrivesInTime() throws {
        let service = try F.terreHaute()
        let answer = try ask(service, "/transit/v1/\(F.north);\(F.south)?arrive=2017-05-10T10:00")
        XCTAssertEqual(answer.code, "Ok", "\(answer.object)")
        let arrival = try XCTUnwrap(answer["expectedArrivalDate"] as? String)
        XCTAssertLessThanOrEqual(arrival, "2017-05-10T10:00:00-04:00")
        XCTAssertGreaterThan(arrival, "2017-05-10T08:00:00-04:00")
        let kinds = (try primary(answer)["legs"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        XCTAssertTrue(kinds.contains("ride"), "\(kinds)")
        // An offset in the time means the same instant.
        let offset = try ask(service, "/transit/v1/\(F.north);\(F.south)?arrive=2017-05-10T10:00:00-04:00")
        XCTAssertEqual(offset["expectedArrivalDate"] as? String, arrival)
    }

    func testInfoReportsTheTimetable() throws {
        let service = try F.terreHaute()
        let info = try ask(service, "/info")
        XCTAssertEqual(info["timetable"] as? Bool, true)
        XCTAssertTrue((info["services"] as? [String])?.contains("transit") ?? false)
        // The feed's zone and service range, which the map page's departure field defaults into.
        let range = try XCTUnwrap(info["transit"] as? [String: Any])
        XCTAssertEqual(range["timeZone"] as? String, "America/New_York")
        XCTAssertEqual(range["firstDate"] as? String, "2015-01-01")
        XCTAssertEqual(range["lastDate"] as? String, "2017-12-30")
        let (_, monaco) = try ServerFixture.monaco()
        let plain = try ask(monaco, "/info")
        XCTAssertEqual(plain["timetable"] as? Bool, false)
        XCTAssertNil(plain["transit"])
        XCTAssertFalse((plain["services"] as? [String])?.contains("transit") ?? true)
    }

    func testGraphWithoutTimetableRefusesTransitButServesRoutes() throws {
        let (_, monaco) = try ServerFixture.monaco()
        let answer = try ask(monaco, "/transit/v1/\(ServerFixture.casino);\(ServerFixture.port)?depart=2017-05-10T08:30")
        XCTAssertEqual(answer.status, 400)
        XCTAssertEqual(answer.code, "InvalidOptions")
        XCTAssertTrue((answer["message"] as? String ?? "").contains("no timetable"), "\(answer.object)")
        XCTAssertEqual(try ask(monaco, "/route/v1/driving/\(ServerFixture.casino);\(ServerFixture.port)").code, "Ok")
    }

    func testErrors() throws {
        let service = try F.terreHaute()
        let base = "/transit/v1/\(F.north);\(F.south)"
        let outside = try ask(service, base + "?depart=2019-05-10T08:30")
        XCTAssertEqual(outside.status, 400)
        XCTAssertEqual(outside.code, "InvalidValue")
        XCTAssertTrue((outside["message"] as? String ?? "").contains("2015-01-01 to 2017-12-30"), "\(outside.object)")

        // Walking only is the fallback, so Terre Haute always has some route: check how the router's refusal is reported.
        let refusal = OSRMError(transit: .noTransitRoute(leg: 0, maxTransfers: 1, maxWalk: 300))
        XCTAssertEqual(refusal.code, "NoRoute")
        XCTAssertEqual(refusal.status, 400)
        XCTAssertTrue(refusal.description.contains("at most 1 transfers") && refusal.description.contains("at most 300 m"), refusal.description)
        // With no walk allowed to the stops, the only itinerary is walking all the way.
        let limited = try ask(service, base + "?depart=2017-05-10T09:00&max_walk=0")
        XCTAssertEqual(limited["rides"] as? Int, 0, "\(limited.object)")

        for (query, code) in [("?depart=yesterday", "InvalidQuery"), ("?depart=2017-05-10T08:30&arrive=2017-05-10T10:00", "InvalidOptions"),
                              ("?max_transfers=9", "InvalidQuery"), ("?max_walk=-1", "InvalidQuery"), ("?steps=true", "InvalidOptions")] {
            let answer = try ask(service, base + query)
            XCTAssertEqual(answer.status, 400, query)
            XCTAssertEqual(answer.code, code, query)
        }
        XCTAssertEqual(try ask(service, "/transit/v1/-87.39769,95;\(F.south)?depart=2017-05-10T08:30").code, "InvalidValue")
        XCTAssertEqual(try ask(service, "/transit/v1/\(F.north)?depart=2017-05-10T08:30").code, "InvalidQuery")
        XCTAssertEqual(try ask(service, "/transit/v1/-80,30;\(F.south)?depart=2017-05-10T08:30").code, "NoSegment")
        XCTAssertEqual(try ask(service, "/transit/v2/\(F.north);\(F.south)").code, "InvalidVersion")
    }

    func testMaxWalkIsRangeCheckedAndTheTimeLimitHoldsInsideTheSearch() throws {
        let service = try F.terreHaute()
        let base = "/transit/v1/\(F.north);\(F.south)?depart=2017-05-10T09:00"
        // 1e308 once killed the server (SIGILL in the stop grid); 1e7 held both workers for 40 s.
        for value in ["1e308", "1e7", "10000.5", "inf", "nan", "-0.1", "ten"] {
            let answer = try ask(service, base + "&max_walk=\(value)")
            XCTAssertEqual(answer.status, 400, value)
            XCTAssertEqual(answer.code, "InvalidQuery", value)
            XCTAssertEqual(answer["message"] as? String, "max_walk must be a number of metres from 0 to 10000, got '\(value)'")
        }
        let started = Date()
        XCTAssertEqual(try ask(service, base + "&max_walk=10000").code, "Ok")
        let took = Date().timeIntervalSince(started)

        // With a time limit far shorter than that query, the searches stop at it: Timeout (503), promptly.
        var limits = ServiceLimits()
        limits.requestTimeLimit = 0.001
        let hurried = try WayfinderService(map: service.map, limits: limits)
        let start = Date()
        let answer = try ask(hurried, base + "&max_walk=10000")
        XCTAssertEqual(answer.status, 503, "\(answer.object)")
        XCTAssertEqual(answer.code, "Timeout")
        XCTAssertTrue((answer["message"] as? String ?? "").contains("max_walk"), "\(answer.object)")
        XCTAssertLessThan(Date().timeIntervalSince(start), max(0.5, took / 2))
    }
}
