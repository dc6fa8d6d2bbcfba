import Foundation
import Graph
import Transit
#if canImport(Glibc)
import Glibc
#endif

// The `gtfs-feed` target, and the timetable build the `gtfs-zip` target ends with: a whole feed through the reader
// and the timetable builder over a small road graph (the Monaco cut of Tests/FuzzRegressionTests/Graphs), then,
// when it builds, written into a graph file, opened and planned by transit.

extension FuzzTarget {
    /// The files of the tiny feed (Tests/FuzzRegressionTests/Graphs/monaco-tiny-gtfs), in the order the first byte of
    /// a `gtfs-feed` input picks them.
    public static let feedFiles = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
                                   "calendar_dates.txt", "frequencies.txt", "transfers.txt", "shapes.txt"]

    /// The tiny feed's files by name (shapes.txt absent: an input may add it), read once.
    nonisolated(unsafe) static var tinyFeed: [String: [UInt8]]? = nil
    /// The Monaco cut imported once per process (with its hierarchy, as `wayfinder import` makes it): its path and graph.
    nonisolated(unsafe) static var tinyGraph: (path: String, graph: RoadGraph)? = nil

    /// A file or folder of Tests/FuzzRegressionTests/Graphs.
    static func fuzzGraphsURL(_ name: String) -> URL? { packageURL("Tests/FuzzRegressionTests/Graphs/\(name)") }

    /// The tiny feed's files by name, as committed (nil when its folder is not found).
    public static func tinyFeedFiles() -> [String: [UInt8]]? {
        guard let folder = fuzzGraphsURL("monaco-tiny-gtfs") else { return nil }
        var files: [String: [UInt8]] = [:]
        for name in feedFiles {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) { files[name] = Array(data) }
        }
        return files
    }

    /// Makes the tiny feed and graph the feed targets share; false when their files are not found.
    static func prepareFeed() -> Bool {
        if tinyFeed == nil { tinyFeed = tinyFeedFiles() }
        if tinyGraph == nil, let osm = fuzzGraphsURL("monaco-tiny.osm") {
            let path = scratchPath("tiny-roads.wfg")
            if (try? GraphImporter().run(input: osm.path, output: path)) != nil, let graph = try? RoadGraph(path: path) {
                tinyGraph = (path, graph)
            }
        }
        return tinyFeed != nil && tinyGraph != nil
    }

    /// A `gtfs-feed` input: its first byte picks a file of the tiny feed (modulo their number), the rest of it
    /// replaces that file; the feed then goes through `buildAndPlan`.
    static func gtfsFeed(_ data: UnsafeRawBufferPointer) {
        guard let first = data.first, prepareFeed(), var files = tinyFeed else { return }
        files[feedFiles[Int(first) % feedFiles.count]] = Array(data.dropFirst())
        buildAndPlan(files: files)
    }

    /// The feed made of `files` (a folder on the scratch file system) read and built into a timetable over the tiny
    /// graph; when it builds, written into a graph file with the roads, opened and planned by transit. Returns how
    /// many of `planTransit`'s queries answered (0 when the feed was refused).
    @discardableResult
    public static func buildAndPlan(files: [String: [UInt8]]) -> Int {
        guard prepareFeed(), let tiny = tinyGraph else { return 0 }
        let folder = scratchPath("feed")
        try? FileManager.default.removeItem(atPath: folder)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return 0 }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, bytes) in files {
            guard FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes)) else { return 0 }
        }
        return buildAndPlan(feed: folder, over: tiny.path)
    }

    /// The feed at `feed` (a folder or a zip) imported over the graph file at `graphPath` into a scratch graph file,
    /// which is then opened and planned by transit; how many of `planTransit`'s queries answered.
    static func buildAndPlan(feed: String, over graphPath: String) -> Int {
        var importer = TransitImporter()
        // Small limits, so that a hostile feed reaches them quickly (a run of the fuzzer is a few milliseconds).
        importer.limits.maxRows = 20_000
        let output = scratchPath("feed-graph.wfg")
        defer { unlink(output) }
        guard (try? importer.run(feeds: [feed], graphPath: graphPath, output: output)) != nil,
              let graph = try? RoadGraph(path: output) else { return 0 }
        return planTransit(on: graph)
    }
}
