import Foundation
import Graph
import Routing
@testable import Transit
import TestSupport

/// A transit router over the Terre Haute sample with its GTFS feed (TestSupport's shared import), made once.
enum TerreHaute {
    nonisolated(unsafe) private static var cached: TransitRouter?
    private static let lock = NSLock()

    static func router() throws -> TransitRouter {
        lock.lock(); defer { lock.unlock() }
        if let cached { return cached }
        let router = try TransitRouter(graph: SampleGraph.terreHauteTransit().graph)
        cached = router
        return router
    }
}

/// A GTFS feed written as a folder of text files, for unit tests.
func writeFeed(_ files: [String: String]) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-feed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    return folder.path
}

/// Unix seconds of a local wall-clock time in a zone.
func instant(_ text: String, zone: String) -> Int {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: zone)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    return Int(formatter.date(from: text)!.timeIntervalSince1970)
}

/// A timetable built from a small feed (a folder), with transfers from explicit walks instead of a foot graph, and
/// searches over it: enough to test the timetable's semantics without a map.
struct TinyNetwork {
    let timetable: Timetable
    let window: ServiceWindow
    let forward: RaptorSearch
    let backward: RaptorSearch

    init(_ files: [String: String], walks: [(String, String, Int32)] = []) throws {
        var builder = TimetableBuilder()
        var timetable = try builder.build(feeds: [try writeFeed(files)])
        var lists: [[Int: (time: Int32, distance: Float)]] = Array(repeating: [:], count: timetable.stopCount)
        for (a, b, seconds) in walks { lists[try Self.stop(a, timetable)][try Self.stop(b, timetable)] = (seconds, Float(seconds)) }
        TransferBuilder.assemble(&timetable, walks: lists, rules: builder.transferRules)
        self.timetable = timetable
        window = ServiceWindow(timetable.metadata)
        forward = RaptorSearch(timetable: SearchTimetable(timetable, reversed: false, zoneOfRoute: window.zoneOfRoute), serviceCount: window.calendar.count)
        backward = RaptorSearch(timetable: SearchTimetable(timetable, reversed: true, zoneOfRoute: window.zoneOfRoute), serviceCount: window.calendar.count)
    }

    static func stop(_ id: String, _ timetable: Timetable) throws -> Int {
        guard let s = timetable.metadata.stopIDs.firstIndex(of: id) else { throw GTFSError.missingFile(feed: "test", file: "stop \(id)") }
        return s
    }

    /// Earliest arrival (Unix seconds) from stop `a` to stop `b` leaving at `time` (local "yyyy-MM-ddTHH:mm:ss").
    func earliest(_ a: String, _ b: String, at time: String, maxRides: Int = 7) throws -> Int? {
        let zone = timetable.metadata.agencies[0].timeZone
        let q = try window.query(reversed: false, time: instant(time, zone: zone), access: [(try Self.stop(a, timetable), 0)],
                                 egress: [(try Self.stop(b, timetable), 0)], maxRides: maxRides)
        return forward.search(q).last?.arrival
    }

    /// Latest departure from `a` still reaching `b` by `time`.
    func latest(_ a: String, _ b: String, by time: String, maxRides: Int = 7) throws -> Int? {
        let zone = timetable.metadata.agencies[0].timeZone
        let q = try window.query(reversed: true, time: -instant(time, zone: zone), access: [(try Self.stop(b, timetable), 0)],
                                 egress: [(try Self.stop(a, timetable), 0)], maxRides: maxRides)
        return backward.search(q).last.map { -$0.arrival }
    }
}

/// A minimal valid feed: one agency, stops A–D on a line, one daily service for 2016; add trips and stop times.
func feed(zone: String = "Europe/Berlin", trips: String, stopTimes: String, extra: [String: String] = [:]) -> [String: String] {
    var files = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA1,Test Transit,http://example.org,\(zone)\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,49.40,8.60\nB,Bravo,49.41,8.61\nB2,Bravo Platform 2,49.4101,8.6101\nC,Charlie,49.42,8.62\nD,Delta,49.43,8.63\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A1,1,One,3\nR2,A1,2,Two,0\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,20160101,20161231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\n" + trips,
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + stopTimes,
    ]
    for (name, text) in extra { files[name] = text }
    return files
}
