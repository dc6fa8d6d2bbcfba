import Foundation
import XCTest
@testable import Transit
import TestSupport

/// Reading feeds: RFC 4180 CSV, zip archives (stored and deflated), required files and columns, bad rows.
final class FeedReadingTests: XCTestCase {
    func testCSVQuotesCommasNewlinesBOMAndCRLF() throws {
        let text = "\u{FEFF}stop_id,stop_name,extra\r\n\"S1\",\"Main St, North\",x\r\nS2,\"Say \"\"hi\"\"\r\nthere\",y\r\n\r\nS3,Plain\r\n"
        let table = try CSVTable(bytes: Array(text.utf8), feed: "f", file: "stops.txt")
        XCTAssertEqual(table.count, 3)
        XCTAssertEqual(table.columns["stop_id"], 0)   // the byte-order mark is not part of the first name
        XCTAssertEqual(table.string(0, table.columns["stop_name"]), "Main St, North")
        XCTAssertEqual(table.string(1, table.columns["stop_name"]), "Say \"hi\"\r\nthere")
        XCTAssertEqual(table.string(2, table.columns["extra"]), "")      // a short row: the missing field is empty
        XCTAssertEqual(table.string(2, table.columns["unknown"]), "")    // an absent column reads as empty
        XCTAssertEqual(table.line(2), 6)                                  // lines counted in the file, quoted breaks included
    }

    func testCSVUnterminatedQuoteNamesTheLine() {
        XCTAssertThrowsError(try CSVTable(bytes: Array("a,b\n1,2\n3,\"open\n".utf8), feed: "f", file: "x.txt")) { error in
            XCTAssertEqual(error as? GTFSError, .malformedCSV(feed: "f", file: "x.txt", line: 3, message: "a quoted field is never closed"))
        }
    }

    func testCSVWithLFOnlyAndNoFinalNewline() throws {
        let table = try CSVTable(bytes: Array("a,b\n1,2\n3,4".utf8), feed: "f", file: "x.txt")
        XCTAssertEqual(table.count, 2)
        XCTAssertEqual(table.int(1, table.columns["b"]), 4)
    }

    func testZipOfTheSampleFeed() throws {
        let zip = try ZipArchive(path: packageRoot.appendingPathComponent("Data/terre-haute-gtfs.zip").path)
        let stops = try XCTUnwrap(try zip.contents(of: "stops.txt"))
        let table = try CSVTable(bytes: stops, feed: "th", file: "stops.txt")
        XCTAssertEqual(table.count, 115)
        XCTAssertNil(try zip.contents(of: "no-such-file.txt"))
    }

    func testStoredZipMember() throws {
        // A zip holding one stored (uncompressed) member, built by hand.
        let name = Array("agency.txt".utf8), body = Array("agency_name,agency_timezone\nX,UTC\n".utf8)
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xff) } }
        let crc = Int(TestZip.crc32(body))
        var bytes: [UInt8] = [0x50, 0x4b, 0x03, 0x04] + le(10, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4)
        bytes += le(body.count, 4) + le(body.count, 4) + le(name.count, 2) + le(0, 2) + name + body
        let central = bytes.count
        bytes += [0x50, 0x4b, 0x01, 0x02] + le(20, 2) + le(10, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4)
        bytes += le(body.count, 4) + le(body.count, 4) + le(name.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(0, 4) + name
        let size = bytes.count - central
        bytes += [0x50, 0x4b, 0x05, 0x06] + le(0, 2) + le(0, 2) + le(1, 2) + le(1, 2) + le(size, 4) + le(central, 4) + le(0, 2)
        let zip = try ZipArchive(bytes: bytes, path: "hand.zip")
        XCTAssertEqual(try zip.contents(of: "agency.txt"), body)
    }

    func testNotAZip() {
        XCTAssertThrowsError(try ZipArchive(bytes: Array("hello".utf8) + [UInt8](repeating: 0, count: 40), path: "x.zip")) { error in
            guard case .badZip = error as? GTFSError else { return XCTFail("\(error)") }
        }
    }

    func testMissingRequiredFileAndColumnAreNamed() throws {
        var files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n")
        files["stops.txt"] = nil
        var builder = TimetableBuilder()
        XCTAssertThrowsError(try builder.build(feeds: [try writeFeed(files)])) { error in
            guard case let .missingFile(_, file) = error as? GTFSError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, "stops.txt")
        }
        files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n")
        files["stops.txt"] = "stop_id,stop_name,stop_lon\nA,Alpha,8.6\n"
        XCTAssertThrowsError(try builder.build(feeds: [try writeFeed(files)])) { error in
            guard case let .missingColumn(_, file, column) = error as? GTFSError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, "stops.txt")
            XCTAssertEqual(column, "stop_lat")
            XCTAssertTrue("\(error)".contains("stops.txt has no column 'stop_lat'"))
        }
        files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n")
        files["agency.txt"] = "agency_name,agency_timezone\nX,Mars/Olympus\n"
        XCTAssertThrowsError(try builder.build(feeds: [try writeFeed(files)])) { error in
            XCTAssertEqual(error as? GTFSError, .unknownTimeZone(feed: error.feedPath, file: "agency.txt", line: 2, zone: "Mars/Olympus"))
        }
    }

    func testBadRowsAreSkippedCountedAndListed() throws {
        let files = feed(trips: "R1,DAILY,T1,East\nR1,DAILY,T2,East\nR1,DAILY,T3,East\nR9,DAILY,T4,East\n", stopTimes: """
            T1,08:00:00,08:00:00,A,1
            T1,08:10:00,08:10:00,B,2
            T1,8:1x:00,08:15:00,C,3
            T2,09:00:00,09:00:00,A,1
            T2,08:50:00,08:50:00,B,2
            T3,10:00:00,10:00:00,A,1
            T3,10:10:00,10:10:00,NOWHERE,2
            T3,10:20:00,10:20:00,C,3
            TX,10:00:00,10:00:00,A,1

            """)
        var builder = TimetableBuilder()
        let timetable = try builder.build(feeds: [try writeFeed(files)])
        let reasons = Dictionary(timetable.metadata.skipped.map { ($0.reason, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(reasons["stop time with an unparsable time"]?.count, 1)
        XCTAssertEqual(reasons["trip whose times go backwards"]?.count, 1)
        XCTAssertEqual(reasons["stop time at an unknown stop"]?.count, 1)
        XCTAssertEqual(reasons["stop time of an unknown trip"]?.count, 1)
        XCTAssertEqual(reasons["trip of an unknown route"]?.count, 1)
        XCTAssertEqual(reasons["stop time at an unknown stop"]?.examples, ["stop_times.txt line 8: stop_id 'NOWHERE'"])
        XCTAssertEqual(timetable.tripCount, 2)   // T1 (A, B) and T3 (A, C)
    }

    func testParentStationsNameTheirStopsAndStandForThemInTransfers() throws {
        var files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,P1,2\n",
                         extra: ["transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nST,ST,2,240\n"])
        files["stops.txt"]! += "ST,Central Station,49.5,8.5,1,\nP1,,49.5001,8.5001,0,ST\n"
        files["stops.txt"] = files["stops.txt"]!.replacingOccurrences(of: "stop_id,stop_name,stop_lat,stop_lon\n", with: "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n")
        let net = try TinyNetwork(files)
        let p1 = try TinyNetwork.stop("P1", net.timetable)
        XCTAssertEqual(net.timetable.metadata.stopNames[p1], "Central Station")
        let range = Int(net.timetable.transferStart[p1])..<Int(net.timetable.transferStart[p1 + 1])
        XCTAssertEqual(range.map { net.timetable.transferTime[$0] }, [240])
    }

    func testTimetableSurvivesTheGraphFileRoundTrip() throws {
        let router = try TerreHaute.router()
        let again = try Timetable(file: router.graph.file)
        XCTAssertEqual(again, router.timetable)
        XCTAssertNil(again.consistencyProblem())
        XCTAssertEqual(again.metadata.agencies.map(\.timeZone), ["America/New_York"])
        XCTAssertEqual(ServiceDay.iso(again.metadata.firstDay), "2015-01-01")
    }
}

private extension Error {
    var feedPath: String {
        if case let .unknownTimeZone(feed, _, _, _) = self as? GTFSError { return feed }
        return ""
    }
}

/// A trip without a headsign is signed with its last stop.
final class HeadsignTests: XCTestCase {
    func testATripWithoutHeadsignHeadsForItsLastStop() throws {
        let path = try writeFeed(feed(trips: "R1,DAILY,T1,\nR1,DAILY,T2,East\n",
                                      stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,C,2\nT2,09:00:00,09:00:00,A,1\nT2,09:10:00,09:10:00,B,2\n"))
        var builder = TimetableBuilder()
        let timetable = try builder.build(feeds: [path])
        let signs = (0..<timetable.tripCount).map { timetable.metadata.headsigns[Int(timetable.tripHeadsign[$0])] }
        XCTAssertEqual(Set(signs), ["Charlie", "East"])
    }
}

/// Several feeds merged into one timetable.
final class MultipleFeedTests: XCTestCase {
    func testTwoFeedsKeepTheirIdsApartAndTheirZones() throws {
        let first = try writeFeed(feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n"))
        let second = try writeFeed(feed(zone: "Europe/London", trips: "R1,DAILY,T1,West\n",
                                        stopTimes: "T1,09:00:00,09:00:00,A,1\nT1,09:30:00,09:30:00,C,2\n"))
        var builder = TimetableBuilder()
        let timetable = try builder.build(feeds: [first, second])
        XCTAssertEqual(timetable.metadata.feeds.count, 2)
        XCTAssertEqual(timetable.stopCount, 10)
        XCTAssertTrue(timetable.metadata.stopIDs.contains("A") && timetable.metadata.stopIDs.contains("1:A"))
        XCTAssertEqual(timetable.tripCount, 2)
        XCTAssertEqual(Set(timetable.metadata.headsigns), ["East", "West"])
        let window = ServiceWindow(timetable.metadata)
        XCTAssertEqual(window.zones.map(\.identifier), ["Europe/Berlin", "Europe/London"])
        XCTAssertEqual(window.zoneOfRoute, [0, 0, 1, 1])
        // The London trip's 09:00 is 09:00 in London (10:00 in Berlin).
        var t = timetable
        TransferBuilder.assemble(&t, walks: [], rules: [])
        let search = RaptorSearch(timetable: SearchTimetable(t, reversed: false, zoneOfRoute: window.zoneOfRoute), serviceCount: window.calendar.count)
        let a = try XCTUnwrap(t.metadata.stopIDs.firstIndex(of: "1:A")), c = try XCTUnwrap(t.metadata.stopIDs.firstIndex(of: "1:C"))
        let q = try window.query(reversed: false, time: instant("2016-06-01T07:00:00", zone: "Europe/London"), access: [(a, 0)], egress: [(c, 0)], maxRides: 2)
        XCTAssertEqual(search.search(q).last?.arrival, instant("2016-06-01T09:30:00", zone: "Europe/London"))
    }
}
