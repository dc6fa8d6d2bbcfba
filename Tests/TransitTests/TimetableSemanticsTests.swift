import Foundation
import XCTest
@testable import Transit

/// The timetable model of docs/transit.md on small feeds: calendars, frequencies, times past midnight, daylight
/// saving, interpolation, transfers and arrive-by.
final class TimetableSemanticsTests: XCTestCase {
    func testCalendarDatesRemoveAndAddDays() throws {
        let net = try TinyNetwork(feed(trips: "R1,DAILY,T1,East\nR1,EXTRA,T2,East\n",
                                       stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\nT2,09:00:00,09:00:00,A,1\nT2,09:10:00,09:10:00,B,2\n",
                                       extra: ["calendar_dates.txt": "service_id,date,exception_type\nDAILY,20160510,2\nEXTRA,20160511,1\n"]))
        let zone = "Europe/Berlin"
        // 10 May: the daily service is removed and EXTRA does not run (only on 11 May): the next trip is the 11th's.
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-05-10T07:00:00"), instant("2016-05-11T08:10:00", zone: zone))
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-05-09T07:00:00"), instant("2016-05-09T08:10:00", zone: zone))
        // 11 May: the daily trip, and the service that exists only in calendar_dates.txt.
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-05-11T08:30:00"), instant("2016-05-11T09:10:00", zone: zone))
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-05-12T08:30:00"), instant("2016-05-13T08:10:00", zone: zone))
    }

    func testFrequenciesRunEveryHeadwayAndTheTemplateDoesNotRunByItself() throws {
        let net = try TinyNetwork(feed(trips: "R1,DAILY,F1,East\n",
                                       stopTimes: "F1,05:00:00,05:00:00,A,1\nF1,05:07:00,05:08:00,B,2\nF1,05:15:00,05:15:00,C,3\n",
                                       extra: ["frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nF1,07:00:00,08:00:00,600,0\n"]))
        XCTAssertEqual(net.timetable.tripCount, 6)   // 07:00, 07:10, … 07:50 (departing before 08:00)
        let zone = "Europe/Berlin"
        XCTAssertEqual(try net.earliest("A", "C", at: "2016-06-01T05:00:00"), instant("2016-06-01T07:15:00", zone: zone))
        XCTAssertEqual(try net.earliest("A", "C", at: "2016-06-01T07:00:01"), instant("2016-06-01T07:25:00", zone: zone))
        XCTAssertEqual(try net.earliest("B", "C", at: "2016-06-01T07:48:00"), instant("2016-06-01T07:55:00", zone: zone))
        XCTAssertEqual(try net.earliest("A", "C", at: "2016-06-01T07:50:01"), instant("2016-06-02T07:15:00", zone: zone))
    }

    func testTimesPastMidnightBelongToTheServiceDayBefore() throws {
        let net = try TinyNetwork(feed(trips: "R1,WEEKDAY,N1,Night\n",
                                       stopTimes: "N1,25:10:00,25:10:00,A,1\nN1,25:30:00,25:30:00,B,2\n",
                                       extra: ["calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWEEKDAY,1,0,0,0,0,0,0,20160101,20161231\n"]))
        let zone = "Europe/Berlin"
        // Monday 6 June's trip runs at 01:10 on Tuesday 7 June; Tuesday's own service does not run.
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-06-07T00:30:00"), instant("2016-06-07T01:30:00", zone: zone))
        // Once it has left, the next one is a week later: beyond the days the search considers.
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-06-07T01:11:00"), nil)
    }

    func testDaylightSavingDaysCountFromNoonMinusTwelveHours() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        // 30 October 2016 (25 hours): noon CET is 11:00 UTC, so the day starts at 23:00 UTC the evening before (01:00 CEST).
        XCTAssertEqual(ServiceDay.start(ServiceDay.number(year: 2016, month: 10, day: 30), in: berlin), instant("2016-10-29T23:00:00", zone: "UTC"))
        // 27 March 2016 (23 hours): noon CEST is 10:00 UTC, the day starts at 22:00 UTC (23:00 CET).
        XCTAssertEqual(ServiceDay.start(ServiceDay.number(year: 2016, month: 3, day: 27), in: berlin), instant("2016-03-26T22:00:00", zone: "UTC"))
        let net = try TinyNetwork(feed(trips: "R1,DAILY,T1,East\nR1,DAILY,T2,East\n",
                                       stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:20:00,08:20:00,B,2\nT2,01:30:00,01:30:00,C,1\nT2,01:40:00,01:40:00,D,2\n"))
        // On both change days 08:00 on the timetable is 08:00 on the clock…
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-10-30T07:00:00"), instant("2016-10-30T08:20:00", zone: "Europe/Berlin"))
        XCTAssertEqual(try net.earliest("A", "B", at: "2016-03-27T07:00:00"), instant("2016-03-27T08:20:00", zone: "Europe/Berlin"))
        // …but 01:40 counted from noon minus 12 h on the fall-back day is 02:40 summer time, 00:40 UTC.
        XCTAssertEqual(try net.earliest("C", "D", at: "2016-10-30T00:30:00"), instant("2016-10-30T00:40:00", zone: "UTC"))
    }

    func testMissingTimesAreInterpolatedByDistance() throws {
        let net = try TinyNetwork(feed(trips: "R1,DAILY,T1,East\n",
                                       stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,,,B,2\nT1,,,C,3\nT1,08:30:00,08:30:00,D,4\n"))
        // A, B, C, D are equally spaced: 08:10 and 08:20 (to the second, by straight-line distance).
        let times = net.timetable.arrivals.map { Int($0) }
        XCTAssertEqual(times.count, 4)
        XCTAssertEqual(Double(times[1] - 8 * 3600), 600, accuracy: 15)
        XCTAssertEqual(Double(times[2] - 8 * 3600), 1200, accuracy: 15)
    }

    /// Trip 1 A→B arrives 08:10; trip 2 leaves B at 08:12 for C (arrives 08:30); trip 3 leaves platform B2 at 08:20
    /// (arrives C 08:40); trip 4 leaves B at 08:32 (arrives C 08:50). B→B2 is a 120 s walk.
    private func transferFeed(_ transfers: String?) -> [String: String] {
        var extra: [String: String] = [:]
        if let transfers { extra["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + transfers }
        return feed(trips: "R1,DAILY,T1,East\nR2,DAILY,T2,North\nR2,DAILY,T3,North\nR2,DAILY,T4,North\n",
                    stopTimes: """
                    T1,08:00:00,08:00:00,A,1
                    T1,08:10:00,08:10:00,B,2
                    T2,08:12:00,08:12:00,B,1
                    T2,08:30:00,08:30:00,C,2
                    T3,08:20:00,08:20:00,B2,1
                    T3,08:40:00,08:40:00,C,2
                    T4,08:32:00,08:32:00,B,1
                    T4,08:50:00,08:50:00,C,2

                    """, extra: extra)
    }

    func testSameStopTransfersTakeNoTime() throws {
        let net = try TinyNetwork(transferFeed(nil), walks: [("B", "B2", 120)])
        XCTAssertEqual(try net.earliest("A", "C", at: "2016-06-01T07:55:00"), instant("2016-06-01T08:30:00", zone: "Europe/Berlin"))
        XCTAssertEqual(try net.earliest("A", "C", at: "2016-06-01T07:55:00", maxRides: 1), nil)
    }

    func testForbiddenTransfer() throws {
        let net = try TinyNetwork(transferFeed("B,B,3,\n"), walks: [("B", "B2", 120)])
        // Changing at B is forbidden: walk to B2 and take trip 3.
        XCTAssertEqual(try net.earliest("A", "C", at: "2016-06-01T07:55:00"), instant("2016-06-01T08:40:00", zone: "Europe/Berlin"))
        let both = try TinyNetwork(transferFeed("B,B,3,\nB,B2,3,\n"), walks: [("B", "B2", 120)])
        XCTAssertEqual(try both.earliest("A", "C", at: "2016-06-01T07:55:00"), nil)
    }

    func testMinimumTransferTime() throws {
        // 300 s at B: trip 2 (08:12) is missed; the walk to B2 (120 s) catches trip 3.
        let net = try TinyNetwork(transferFeed("B,B,2,300\n"), walks: [("B", "B2", 120)])
        XCTAssertEqual(try net.earliest("A", "C", at: "2016-06-01T07:55:00"), instant("2016-06-01T08:40:00", zone: "Europe/Berlin"))
        // 15 minutes to B2 as well: only trip 4 at 08:32 from B remains (08:10 + 300 s ≤ 08:32).
        let slow = try TinyNetwork(transferFeed("B,B,2,300\nB,B2,2,900\n"), walks: [("B", "B2", 120)])
        XCTAssertEqual(try slow.earliest("A", "C", at: "2016-06-01T07:55:00"), instant("2016-06-01T08:50:00", zone: "Europe/Berlin"))
        // A transfer allowed by transfers.txt without a walk found: straight line at 5 km/h.
        let far = try TinyNetwork(transferFeed("B,B,3,\nB,B2,1,\n"))
        XCTAssertNotNil(try far.earliest("A", "C", at: "2016-06-01T07:55:00"))
    }

    func testArriveByGivesTheLatestDeparture() throws {
        let net = try TinyNetwork(transferFeed(nil), walks: [("B", "B2", 120)])
        let zone = "Europe/Berlin"
        XCTAssertEqual(try net.latest("A", "C", by: "2016-06-01T08:45:00"), instant("2016-06-01T08:00:00", zone: zone))
        // From stop B itself (no transfer walk right after the start): trip 2.
        XCTAssertEqual(try net.latest("B", "C", by: "2016-06-01T08:45:00"), instant("2016-06-01T08:12:00", zone: zone))
        XCTAssertEqual(try net.latest("B", "C", by: "2016-06-01T08:50:00"), instant("2016-06-01T08:32:00", zone: zone))
        // Too early for that day's trips: the previous day's.
        XCTAssertEqual(try net.latest("A", "C", by: "2016-06-01T08:29:00"), instant("2016-05-31T08:00:00", zone: zone))
    }

    func testPickupAndDropOffRules() throws {
        let files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "", extra: [
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type\nT1,08:00:00,08:00:00,A,1,0,1\nT1,08:10:00,08:10:00,B,2,1,1\nT1,08:20:00,08:20:00,C,3,1,0\n",
        ])
        let net = try TinyNetwork(files)
        XCTAssertNotNil(try net.earliest("A", "C", at: "2016-06-01T07:00:00"))
        XCTAssertNil(try net.earliest("A", "B", at: "2016-06-01T07:00:00"))   // no alighting at B
        XCTAssertNil(try net.earliest("B", "C", at: "2016-06-01T07:00:00"))   // no boarding at B
    }

    func testQueryDateOutsideTheFeedIsAnError() throws {
        let net = try TinyNetwork(transferFeed(nil))
        XCTAssertThrowsError(try net.earliest("A", "C", at: "2026-12-01T08:30:00")) { error in
            XCTAssertEqual("\(error)", "the query date 2026-12-01 lies outside the feed's service range 2016-01-01 to 2016-12-31")
        }
    }
}

/// Local query times on daylight-saving changes.
final class LocalTimeTests: XCTestCase {
    func testAmbiguousTimeIsItsFirstOccurrenceAndSkippedTimeMovesForward() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let fall = ServiceDay.number(year: 2016, month: 10, day: 30), spring = ServiceDay.number(year: 2016, month: 3, day: 27)
        XCTAssertEqual(ServiceDay.instant(day: fall, secondOfDay: 2 * 3600 + 1800, in: berlin), instant("2016-10-30T00:30:00", zone: "UTC"))
        XCTAssertEqual(ServiceDay.instant(day: spring, secondOfDay: 2 * 3600 + 1800, in: berlin), instant("2016-03-27T01:30:00", zone: "UTC"))
        let plain = ServiceDay.number(year: 2016, month: 6, day: 1)
        XCTAssertEqual(ServiceDay.instant(day: plain, secondOfDay: 8 * 3600 + 1800, in: berlin), instant("2016-06-01T06:30:00", zone: "UTC"))
    }
}
