import XCTest
import Wayfinder

final class TextEncoderTests: XCTestCase {
    func testETA() {
        let eta = Fixtures.result().eta
        XCTAssertEqual(eta.distance, 12345.7, accuracy: 1e-9)
        XCTAssertEqual(TextEncoder().encodeETA(eta), "12.3 km, 14 min; depart 08:30, arrive 08:44 (2026-12-01T08:44:10-05:00)")
        let short = ETASummary(distance: 640, expectedTravelTime: 20, expectedDepartureDate: Fixtures.departure,
                               expectedArrivalDate: Fixtures.departure.addingTimeInterval(20), timeZone: TimeZone(secondsFromGMT: 3600)!)
        XCTAssertEqual(TextEncoder().encodeETA(short), "640 m, <1 min; depart 14:30, arrive 14:30 (2026-12-01T14:30:20+01:00)")
    }

    func testFormats() {
        XCTAssertEqual(TextEncoder.formatDistance(0), "0 m")
        XCTAssertEqual(TextEncoder.formatDistance(849.6), "850 m")
        XCTAssertEqual(TextEncoder.formatDistance(999.6), "1.0 km")
        XCTAssertEqual(TextEncoder.formatDistance(12345.7), "12.3 km")
        XCTAssertEqual(TextEncoder.formatDistance(123_456.7), "123.5 km")
        XCTAssertEqual(TextEncoder.formatDuration(0), "0 s")
        XCTAssertEqual(TextEncoder.formatDuration(44.6), "45 s")
        XCTAssertEqual(TextEncoder.formatDuration(850), "14 min 10 s")
        XCTAssertEqual(TextEncoder.formatDuration(3725), "1 h 2 min 5 s")
        XCTAssertEqual(TextEncoder.formatShortDuration(0), "0 min")
        XCTAssertEqual(TextEncoder.formatShortDuration(29), "<1 min")
        XCTAssertEqual(TextEncoder.formatShortDuration(850), "14 min")
        XCTAssertEqual(TextEncoder.formatShortDuration(4440), "1 h 14 min")
        XCTAssertEqual(TextEncoder.formatShortDuration(7200), "2 h")
    }

    func testSummaryContent() {
        let text = TextEncoder().encode(Fixtures.result(alternatives: 1))
        let lines = text.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], "Wayfinder car route: 3 stops, 2 routes")
        XCTAssertEqual(lines[1], "Depart 2026-12-01T08:30:00-05:00, arrive 2026-12-01T08:44:10-05:00")
        XCTAssertTrue(lines.contains("Route 1: Market Street, Main Street"))
        XCTAssertTrue(lines.contains("  Distance  12.3 km"))
        XCTAssertTrue(lines.contains("  Time      14 min 10 s"))
        XCTAssertTrue(lines.contains("  Arrive    2026-12-01T08:44:10-05:00"))
        XCTAssertTrue(lines.contains("  Arrive    2026-12-01T08:45:10-05:00"), "the alternative arrives a minute later")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  1  Main Street") && $0.contains("40.000010, -75.000020") && $0.hasSuffix("2 m") })
        XCTAssertTrue(lines.contains { $0.contains("(unnamed road)") && $0.hasSuffix("11 m") })
        XCTAssertTrue(lines.contains { $0.contains("Turn right onto Market Street") && $0.hasSuffix("4.4 km  5 min 30 s") })
        XCTAssertTrue(text.hasSuffix("\n"))
        XCTAssertFalse(lines.contains { $0.hasSuffix(" ") }, "no trailing spaces")
    }

    func testTablesAreAligned() {
        let text = TextEncoder().encode(Fixtures.result())
        let blocks = text.components(separatedBy: "\n\n")
        // Every table (a block whose first line is a header starting with two spaces) has right-aligned last
        // columns, so all its lines are equally long, and each column starts at the header's column.
        let tables = blocks.map { $0.split(separator: "\n").map(String.init) }.filter { $0.first?.hasPrefix("  #") == true || $0.first?.hasPrefix("  Leg") == true }
        XCTAssertEqual(tables.count, 2, text)
        for table in tables {
            let header = table[0]
            XCTAssertTrue(table.allSatisfy { $0.count == header.count }, "ragged table:\n\(table.joined(separator: "\n"))")
        }
        let steps = tables[1]
        XCTAssertEqual(steps.count, 7)
        let instructionColumn = steps[0].range(of: "Instruction")!.lowerBound
        let offset = steps[0].distance(from: steps[0].startIndex, to: instructionColumn)
        for row in steps.dropFirst() {
            let cell = row.dropFirst(offset)
            XCTAssertTrue(cell.first.map { $0 != " " } ?? false, "instruction not aligned: \(row)")
            XCTAssertEqual(row[row.index(row.startIndex, offsetBy: offset - 1)], " ")
        }
    }

    func testStraightLinesAndControlCharacters() {
        var result = Fixtures.result(straightLines: true)
        result.waypoints[0].name = "Line\nBreak\tTab"
        let text = TextEncoder().encode(result)
        XCTAssertTrue(text.contains("Straight lines between stops (great circle); no turn-by-turn steps."))
        XCTAssertTrue(text.contains("Line Break Tab"))
        XCTAssertFalse(text.contains("Instruction"))
        XCTAssertTrue(text.contains("  Leg  From  To"))
        XCTAssertFalse(TextEncoder(includeSteps: false).encode(Fixtures.result()).contains("Instruction"))
        XCTAssertEqual(TextEncoder().encode(Fixtures.result(alternatives: 2)), TextEncoder().encode(Fixtures.result(alternatives: 2)))
    }
}
