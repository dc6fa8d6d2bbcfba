import Foundation
import Graph
import Transit
import Wayfinder

/// The transit part of `wayfinder demo`: the Terre Haute sample's GTFS feed joins its graph, and a bus trip on a
/// weekday inside the feed's service range (2015-01-01 to 2017-12-30) is planned.
enum DemoTransit {
    /// The feed bundled with a sample map, if any.
    static let feeds = ["terre-haute.osm.gz": "terre-haute-gtfs.zip"]

    /// The feed of `sample` in the data folder, when it has one and it is there.
    static func feed(for sample: String, data: String) -> String? {
        guard let name = feeds[sample] else { return nil }
        let path = (data as NSString).appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Whether the cached graph already holds a timetable (when the sample has a feed).
    static func isFresh(graph: String, sample: String, data: String) -> Bool {
        guard feed(for: sample, data: data) != nil else { return true }
        guard let file = try? GraphFile(path: graph) else { return false }
        return Timetable.isPresent(in: file)
    }

    /// Adds the sample's feed to its freshly imported graph.
    static func addTimetable(graph: String, sample: String, data: String) throws {
        guard let feed = feed(for: sample, data: data) else { return }
        let started = Date()
        do { try TransitImporter().run(feeds: [feed], graphPath: graph, output: graph) } catch {
            throw CommandError(message: error.description, exitCode: ExitCode.badInput)
        }
        print(String(format: "  timetable of %@ added in %.2f s", (feed as NSString).lastPathComponent, Date().timeIntervalSince(started)))
    }

    /// Plans the sample's transit trip and prints its legs.
    static func showTrip(graph path: String, sample: String) throws {
        guard feeds[sample] != nil, let map = try? OfflineMap(contentsOf: URL(fileURLWithPath: path)), map.hasTimetable else { return }
        let zone = TimeZone(identifier: "America/New_York")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let departure = calendar.date(from: DateComponents(year: 2017, month: 5, day: 10, hour: 9))!
        let stops = [("13th & Plum", Coordinate(latitude: 39.48577, longitude: -87.39769)),
                     ("1st & Farrington", Coordinate(latitude: 39.4565472, longitude: -87.4164615))]
        let request = DirectionsRequest(stops: stops.map(\.1), transportType: .transit, departureDate: departure, timeZone: zone)
        let started = Date()
        do {
            let trip = try Directions(request, map: map).calculateTransit()
            let milliseconds = Date().timeIntervalSince(started) * 1000
            print("  By bus (Terre Haute Transit, Wednesday 10 May 2017): \(stops.map(\.0).joined(separator: " → "))"
                  + String(format: " (computed in %.1f ms)", milliseconds))
            for line in TransitTextEncoder().encode(trip).split(separator: "\n").dropFirst() { print("    \(line)") }
        } catch {
            print("    transit: \(error)")
        }
    }
}
