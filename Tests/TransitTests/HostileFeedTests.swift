import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import Transit
import TestSupport

/// Zip archives and feeds that lie, are corrupt or are built to exhaust memory: each is refused with an error that
/// says what is wrong (and which limit to raise), and reading them allocates nothing near what they claim.
final class HostileFeedTests: XCTestCase {
    static let sample = packageRoot.appendingPathComponent("Data/terre-haute-gtfs.zip").path

    /// The members of the bundled Terre Haute feed, read with the real reader.
    func sampleMembers() throws -> [(name: String, data: [UInt8])] {
        let zip = try ZipArchive(path: Self.sample)
        return try zip.names.sorted().map { ($0, try XCTUnwrap(try zip.contents(of: $0))) }
    }

    /// The sample feed rebuilt by `TestZip`, with `change` applied to the entry named `name`.
    func sampleZip(changing name: String? = nil, zip64End: Bool = false, _ change: (inout TestZip.Entry) -> Void = { _ in }) throws -> [UInt8] {
        let entries = try sampleMembers().map { member -> TestZip.Entry in
            var entry = TestZip.Entry(name: member.name, data: member.data)
            if name == nil || member.name == name { change(&entry) }
            return entry
        }
        return TestZip.build(entries, zip64End: zip64End)
    }

    func message(_ body: () throws -> Any?) -> String {
        do { _ = try body(); return "no error" } catch { return "\(error)" }
    }

    /// Peak resident memory of this process so far, bytes.
    func peakRSS() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    func testRebuiltSampleReadsTheSameAndEveryCRCIsChecked() throws {
        let members = try sampleMembers()
        XCTAssertEqual(members.count, 21)
        let zip = try ZipArchive(bytes: try sampleZip(), path: "rebuilt.zip")
        for member in members { XCTAssertEqual(try zip.contents(of: member.name), member.data, member.name) }
        // Stored members are checked too.
        let stored = try ZipArchive(bytes: try sampleZip { $0.deflate = false }, path: "stored.zip")
        XCTAssertEqual(try stored.contents(of: "stops.txt"), members.first { $0.name == "stops.txt" }?.data)
    }

    func testZIP64ArchivesAndMembersAreRead() throws {
        let bytes = try sampleZip(zip64End: true) { $0.zip64 = true }
        let zip = try ZipArchive(bytes: bytes, path: "zip64.zip")
        XCTAssertEqual(zip.names.count, 21)
        for member in try sampleMembers() { XCTAssertEqual(try zip.contents(of: member.name), member.data, member.name) }
        // The whole feed builds from it, as from the original.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zip64-\(UUID().uuidString).zip")
        try Data(bytes).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        var a = TimetableBuilder(), b = TimetableBuilder()
        XCTAssertEqual(try a.build(feeds: [folder.path]).tripCount, try b.build(feeds: [Self.sample]).tripCount)
    }

    func testEncryptedMemberIsRefusedByName() throws {
        let zip = try ZipArchive(bytes: try sampleZip(changing: "stop_times.txt") { $0.flags = 1 }, path: "locked.zip")
        XCTAssertNotNil(try zip.contents(of: "stops.txt"))
        let text = message { try zip.contents(of: "stop_times.txt") }
        XCTAssertTrue(text.contains("stop_times.txt is encrypted; encrypted zips are not supported"), text)
    }

    func testCRCMismatchIsCorruption() throws {
        let zip = try ZipArchive(bytes: try sampleZip(changing: "stop_times.txt") { $0.declaredCRC = 0x1234_5678 }, path: "bad.zip")
        let text = message { try zip.contents(of: "stop_times.txt") }
        XCTAssertTrue(text.contains("stop_times.txt fails its CRC-32 check (08036de9, its directory says 12345678)"), text)
        let stored = try ZipArchive(bytes: try sampleZip(changing: "stops.txt") { $0.deflate = false; $0.declaredCRC = 1 }, path: "bad.zip")
        XCTAssertTrue(message { try stored.contents(of: "stops.txt") }.contains("fails its CRC-32 check"))
    }

    func testTruncatedMemberSaysSo() throws {
        let zip = try ZipArchive(bytes: try sampleZip(changing: "stop_times.txt") { $0.truncateCompressedTo = 5000 }, path: "cut.zip")
        let text = message { try zip.contents(of: "stop_times.txt") }
        XCTAssertTrue(text.contains("stop_times.txt is truncated: its deflate stream ends before it is complete"), text)
    }

    /// The 2,845-byte zip: a central directory claiming 4 GiB per member.
    func testDeclaredSizesAreNotTrusted() throws {
        let bytes = try sampleZip { $0.declaredSize = 0xffff_fff0 }
        let before = peakRSS()
        let zip = try ZipArchive(bytes: bytes, path: "liar.zip")
        // Refused by the compression ratio before any inflating…
        let text = message { try zip.contents(of: "stop_times.txt") }
        XCTAssertTrue(text.contains("its directory declares 4.0 GiB uncompressed from "), text)
        XCTAssertTrue(text.contains("more than the 100:1 allowed: a zip bomb, or a corrupt directory (raise it with import --gtfs-max-ratio)"), text)
        // …and with that check off, inflated into a growing buffer that ends at the true size.
        let lenient = try ZipArchive(bytes: bytes, path: "liar.zip", limits: GTFSLimits(maxCompressionRatio: .max))
        for name in ["stop_times.txt", "shapes.txt", "agency.txt"] {
            let text = message { try lenient.contents(of: name) }
            XCTAssertTrue(text.contains("\(name) inflates to only "), text)
            XCTAssertTrue(text.contains("not the 4294967280 its directory declares: the zip is corrupt"), text)
        }
        // The old reader allocated (and zeroed) the declared 4 GiB per member.
        XCTAssertLessThan(peakRSS() - before, 64 << 20, "reading the lying zip raised the peak RSS by \((peakRSS() - before) >> 20) MiB")
    }

    func testZipBombIsRefusedAndCapped() throws {
        // 48 MiB of one stop-times row, deflated about 1,000:1.
        let row = Array("T1,08:00:00,08:00:00,A,1\n".utf8)
        let big = Array(String(repeating: String(decoding: row, as: UTF8.self), count: (48 << 20) / row.count).utf8)
        let bomb = [TestZip.Entry(name: "stop_times.txt", data: big)]
        let bombZip = TestZip.build(bomb)
        XCTAssertLessThan(bombZip.count, 200_000)
        let zip = try ZipArchive(bytes: bombZip, path: "bomb.zip")
        let text = message { try zip.contents(of: "stop_times.txt") }
        XCTAssertTrue(text.contains("a ratio of") && text.contains("more than the 100:1 allowed"), text)
        // With the ratio check off, the size cap holds, before inflating.
        let capped = try ZipArchive(bytes: bombZip, path: "bomb.zip", limits: GTFSLimits(maxFileBytes: 32 << 20, maxCompressionRatio: .max))
        let cappedText = message { try capped.contents(of: "stop_times.txt") }
        XCTAssertTrue(cappedText.contains("declares \(big.count) bytes (\(GTFSLimits.bytes(big.count))) uncompressed, more than the 32 MiB a feed file may have (raise it with import --gtfs-max-member-size)"), cappedText)
        // A directory that declares 1 MiB for the bomb: inflating stops one byte past the declared size.
        var liar = bomb[0]; liar.declaredSize = 1 << 20
        let lying = try ZipArchive(bytes: TestZip.build([liar]), path: "liar.zip", limits: GTFSLimits(maxCompressionRatio: .max))
        let lyingText = message { try lying.contents(of: "stop_times.txt") }
        XCTAssertTrue(lyingText.contains("inflates to more than 1048576 bytes, not the 1048576 its directory declares: the zip is corrupt or a zip bomb"), lyingText)
        // Honest, within the limits: read whole.
        let honest = try ZipArchive(bytes: bombZip, path: "bomb.zip", limits: GTFSLimits(maxCompressionRatio: 2000))
        XCTAssertEqual(try honest.contents(of: "stop_times.txt")?.count, big.count)
    }

    func testRowAndSizeLimitsOfFolderFeeds() throws {
        let files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\nT1,08:20:00,08:20:00,C,3\n")
        let path = try writeFeed(files)
        var builder = TimetableBuilder()
        XCTAssertEqual(try builder.build(feeds: [path], limits: GTFSLimits(maxRows: 5)).tripCount, 1)
        let rows = message { try builder.build(feeds: [path], limits: GTFSLimits(maxRows: 4)) }
        XCTAssertTrue(rows.contains(": stops.txt: it has more than 4 rows (raise the limit with import --gtfs-max-rows)"), rows)
        let size = message { try builder.build(feeds: [path], limits: GTFSLimits(maxFileBytes: 100)) }
        XCTAssertTrue(size.contains(": stops.txt: it has 149 bytes, more than the 100 bytes a feed file may have (raise it with import --gtfs-max-member-size)"), size)
        // Columns past the header's last are not kept; a header of 10,001 columns is refused.
        let table = try CSVTable(bytes: Array("a,b\n1,2,3,4,5\n6\n".utf8), feed: "f", file: "x.txt")
        XCTAssertEqual(table.string(0, 1), "2"); XCTAssertEqual(table.string(0, 2), ""); XCTAssertEqual(table.string(1, 0), "6")
        let wide = message { try CSVTable(bytes: Array((String(repeating: "c,", count: 10_000) + "c\n").utf8), feed: "f", file: "x.txt") }
        XCTAssertTrue(wide.contains("x.txt: its header has more than 10000 columns"), wide)
    }

    /// A few lines of frequencies.txt can ask for billions of runs (a headway of a second over two days, repeated):
    /// the stop times they expand to count against the rows a feed may have, and are counted before any run is made.
    func testFrequenciesMayNotExpandPastTheRowLimit() throws {
        var files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\nT1,08:20:00,08:20:00,C,3\n")
        files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs\n" + String(repeating: "T1,00:00:00,47:59:59,1\n", count: 400)
        var builder = TimetableBuilder()
        let before = peakRSS()
        let refused = message { try builder.build(feeds: [try writeFeed(files)]) }
        XCTAssertTrue(refused.contains(": frequencies.txt: expanding its frequencies makes more than 100000000 stop times (trip 'T1' alone 69119600 runs of 3 stops), more than a feed may have (raise the limit with import --gtfs-max-rows)"), refused)
        XCTAssertLessThan(peakRSS() - before, 200 << 20, "refused before the runs are made")
        // Within the limit, every run is made: 12 runs of 3 stops are 36 stop times, one more than a limit of 35.
        files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs\nT1,08:00:00,09:00:00,300\n"
        XCTAssertEqual(try builder.build(feeds: [try writeFeed(files)], limits: GTFSLimits(maxRows: 36)).tripCount, 12)
        let limit = message { try builder.build(feeds: [try writeFeed(files)], limits: GTFSLimits(maxRows: 35)) }
        XCTAssertTrue(limit.contains("frequencies.txt: expanding its frequencies makes more than 35 stop times (trip 'T1' alone 12 runs of 3 stops)"), limit)
    }

    /// A station stands for each of its stops in transfers.txt, so a few rows between a station of many stops and
    /// itself ask for millions of pairs: they count against the row limit before any is made.
    func testStationTransferRulesMayNotExpandPastTheRowLimit() throws {
        var files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n")
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon,parent_station,location_type\nA,Alpha,49.40,8.60,,0\nB,Bravo,49.41,8.61,,0\nP,Station,49.40,8.60,,1\n"
            + (0..<1000).map { "P\($0),Platform \($0),49.40,8.60,P,0\n" }.joined()
        files["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + String(repeating: "P,P,2,60\n", count: 200)
        var builder = TimetableBuilder()
        let before = peakRSS()
        let refused = message { try builder.build(feeds: [try writeFeed(files)]) }
        XCTAssertTrue(refused.contains(": transfers.txt: its rules make more than 100000000 stop-to-stop transfers (a station stands for each of its 1000 stops), more than a feed may have (raise the limit with import --gtfs-max-rows)"), refused)
        XCTAssertLessThan(peakRSS() - before, 200 << 20, "refused before the pairs are made")
        files["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nP,P,2,60\n"
        XCTAssertEqual(try builder.build(feeds: [try writeFeed(files)], limits: GTFSLimits(maxRows: 1_000_000)).tripCount, 1)
        XCTAssertEqual(builder.transferRules.count, 1_000_000)
        let limit = message { try builder.build(feeds: [try writeFeed(files)], limits: GTFSLimits(maxRows: 999_999)) }
        XCTAssertTrue(limit.contains("transfers.txt: its rules make more than 999999 stop-to-stop transfers"), limit)
    }

    /// Walking transfers grow with the square of the stops within walking range of each other: stops packed on one
    /// point make a walk from each to every other, and those walks count against the row limit as they are found.
    func testWalkingTransfersOfPackedStopsMayNotExceedTheRowLimit() throws {
        let graph = try SampleGraph.terreHauteTransit().graph
        var files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,S0,1\nT1,08:10:00,08:10:00,S1,2\n")
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\n" + (0..<40).map { "S\($0),Stop \($0),39.4667,-87.4139\n" }.joined()
        var builder = TimetableBuilder()
        let timetable = try builder.build(feeds: [try writeFeed(files)])
        let transfers = try TransferBuilder(graph: graph)
        var within = timetable
        try transfers.build(&within, rules: [], maxTransfers: 40 * 39)
        XCTAssertEqual(within.transferTo.count, 40 * 40, "each stop walks to the 39 others, and transfers at itself")
        var over = timetable
        let refused = message { try transfers.build(&over, rules: [], maxTransfers: 40 * 39 - 1) }
        XCTAssertTrue(refused.contains(": stops.txt: its stops make more than 1559 walking transfers of at most 500 m (stop 'S39' alone reaches 39 others), more than a feed may have rows (raise the limit with import --gtfs-max-rows)"), refused)
    }

    /// A min_transfer_time too large for the timetable's 32-bit seconds trapped the import (found by the gtfs-feed fuzz
    /// target); a negative one was taken as 0. Both are now a skipped row, like any other bad value.
    func testAMinTransferTimeOutOfRangeIsASkippedRow() throws {
        let files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n",
                         extra: ["transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nA,B,2,99999999999\nB,C,2,-5\nC,D,2,abc\nA,C,2,86400\nA,D,2,\n"])
        var builder = TimetableBuilder()
        let timetable = try builder.build(feeds: [try writeFeed(files)])
        XCTAssertEqual(timetable.metadata.skipped.map(\.reason), ["transfer with a bad min_transfer_time"])
        XCTAssertEqual(timetable.metadata.skipped.first?.count, 3)
        XCTAssertEqual(builder.transferRules.map(\.minimumTime), [86_400, nil])
    }

    func testNoUsableTripSaysWhy() throws {
        // Bad calendar dates: every service is dropped, then every trip.
        var files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n")
        files["calendar.txt"] = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,2016-01-01,2016-12-31\n"
        var builder = TimetableBuilder()
        var timetable = try builder.build(feeds: [try writeFeed(files)])
        XCTAssertEqual(timetable.tripCount, 0)
        var error = TransitError.noTrips(feeds: ["f.zip"], tripsRead: timetable.metadata.tripsRead, skipped: timetable.metadata.skipped)
        XCTAssertTrue(error.description.hasPrefix("the GTFS feed f.zip holds no usable trip: trips.txt gives no trip of a known route and service; skipped: "
                       + "1 × calendar row with bad dates (e.g. calendar.txt line 2: service 'DAILY'); 1 × trip of an unknown service (e.g. trips.txt line 2: service_id 'DAILY')"), error.description)
        // A repeated column: the first stop_id is empty, so every stop time is at an unknown stop.
        files = feed(trips: "R1,DAILY,T1,East\n", stopTimes: "T1,08:00:00,08:00:00,,1,A\nT1,08:10:00,08:10:00,,2,B\n")
        files["stop_times.txt"] = files["stop_times.txt"]!.replacingOccurrences(of: "stop_sequence\n", with: "stop_sequence,stop_id\n")
        timetable = try builder.build(feeds: [try writeFeed(files)])
        XCTAssertEqual(timetable.tripCount, 0)
        error = .noTrips(feeds: ["f.zip"], tripsRead: timetable.metadata.tripsRead, skipped: timetable.metadata.skipped)
        XCTAssertTrue(error.description.hasPrefix("the GTFS feed f.zip holds no usable trip: 1 trip read, none with two or more usable stop times; skipped: "
                                                  + "1 × repeated column (the first of the name is read) (e.g. stop_times.txt line 1: 'stop_id' in columns 4 and 6); "
                                                  + "2 × stop time at an unknown stop"), error.description)
        // Trips that no stop time names are counted too.
        files = feed(trips: "R1,DAILY,T1,East\nR1,DAILY,T2,East\n", stopTimes: "T1,08:00:00,08:00:00,A,1\nT1,08:10:00,08:10:00,B,2\n")
        timetable = try builder.build(feeds: [try writeFeed(files)])
        XCTAssertEqual(timetable.metadata.skipped.map(\.reason), ["trip without stop times"])
    }
}
