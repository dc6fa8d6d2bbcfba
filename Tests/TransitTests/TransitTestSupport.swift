import Foundation
import Graph
import Routing
@testable import Transit

/// The package's root folder (Data/ lives there).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The Terre Haute sample map with its GTFS feed, imported once per test run (without landmarks, for speed).
enum TerreHaute {
    nonisolated(unsafe) private static var cached: TransitRouter?
    private static let lock = NSLock()

    static func router() throws -> TransitRouter {
        lock.lock(); defer { lock.unlock() }
        if let cached { return cached }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-transit-tests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("terre-haute.wfg").path
        var importer = GraphImporter()
        importer.buildLandmarks = false
        _ = try importer.run(input: packageRoot.appendingPathComponent("Data/terre-haute.osm.gz").path, output: path)
        try TransitImporter().run(feeds: [packageRoot.appendingPathComponent("Data/terre-haute-gtfs.zip").path], graphPath: path, output: path)
        let router = try TransitRouter(graph: RoadGraph(path: path))
        cached = router
        return router
    }
}

/// A deterministic random number generator (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
