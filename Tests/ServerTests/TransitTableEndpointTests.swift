import Foundation
import XCTest
@testable import Server
import Wayfinder
import TestSupport

/// `/transit/v1/table` on Terre Haute with its feed: each cell is the pair's own `/transit/v1` arrival counted from
/// `depart`, `sources`/`destinations` pick rows and columns, and the table's limits and a missing `depart` are refused.
final class TransitTableEndpointTests: XCTestCase {
    typealias F = TransitFixture
    /// North 3rd Street: a third place, reached on foot from the north.
    static let mid = "-87.4139,39.4667"
    static let depart = "2017-05-10T09:00"

    func testEachCellIsThePairsOwnArrivalFromTheDeparture() throws {
        let service = try F.terreHaute()
        let places = [F.north, F.south, Self.mid]
        let table = try ask(service, "/transit/v1/table/\(places.joined(separator: ";"))?depart=\(Self.depart)")
        XCTAssertEqual(table.status, 200, "\(table.object)")
        XCTAssertEqual(table.code, "Ok")
        let durations = try XCTUnwrap(table["durations"] as? [[Any]])
        XCTAssertEqual(durations.count, 3)
        XCTAssertEqual((table["sources"] as? [Any])?.count, 3)
        XCTAssertEqual((table["destinations"] as? [Any])?.count, 3)
        let start = try XCTUnwrap(ISO8601.date(from: Self.depart + ":00-04:00", timeZone: .current))
        var rode = false
        for (i, from) in places.enumerated() {
            XCTAssertEqual(durations[i][i] as? Double, 0)
            for (j, to) in places.enumerated() where i != j {
                let pair = try ask(service, "/transit/v1/\(from);\(to)?depart=\(Self.depart)")
                XCTAssertEqual(pair.code, "Ok", "\(pair.object)")
                let arrival = try XCTUnwrap(ISO8601.date(from: try XCTUnwrap(pair["expectedArrivalDate"] as? String), timeZone: .current))
                let cell = try XCTUnwrap(durations[i][j] as? Double, "\(i)→\(j): \(durations[i][j])")
                XCTAssertEqual(cell, arrival.timeIntervalSince(start), accuracy: 0.05, "\(i)→\(j)")
                if (pair["rides"] as? Int ?? 0) > 0 { rode = true }
            }
        }
        XCTAssertTrue(rode, "no pair rides a bus: the test would not show the timetable at work")
        let picked = try ask(service, "/transit/v1/table/\(places.joined(separator: ";"))?depart=\(Self.depart)&sources=0&destinations=1;2")
        let row = try XCTUnwrap(picked["durations"] as? [[Any]])
        XCTAssertEqual(row.count, 1)
        XCTAssertEqual(row[0].compactMap { $0 as? Double }, [1, 2].compactMap { durations[0][$0] as? Double })
    }

    func testMissingDepartureLimitsAndBadIndices() throws {
        let service = try F.terreHaute()
        let stops = "\(F.north);\(F.south);\(Self.mid)"
        for (query, code) in [("", "InvalidQuery"), ("?depart=\(Self.depart)&sources=5", "InvalidValue"),
                              ("?depart=\(Self.depart)&sources=x", "InvalidQuery"), ("?depart=\(Self.depart)&annotations=distance", "InvalidOptions"),
                              ("?depart=2019-05-10T09:00", "InvalidValue")] {
            let answer = try ask(service, "/transit/v1/table/\(stops)\(query)")
            XCTAssertEqual(answer.status, 400, query)
            XCTAssertEqual(answer.code, code, "\(query): \(answer.object)")
        }
        var limits = ServiceLimits()
        limits.maximumTableCells = 4
        let small = try WayfinderService(map: OfflineMap(contentsOf: URL(fileURLWithPath: SampleGraph.terreHauteTransit().graphPath)), limits: limits)
        let tooBig = try ask(small, "/transit/v1/table/\(stops)?depart=\(Self.depart)")
        XCTAssertEqual(tooBig.code, "TooBig", "\(tooBig.object)")
        let fits = try ask(small, "/transit/v1/table/\(stops)?depart=\(Self.depart)&sources=0;1&destinations=1;2")
        XCTAssertEqual(fits.code, "Ok", "\(fits.object)")
    }
}
