import Foundation
import XCTest
import Graph
import Routing
import Transit

/// The repository's root folder (where `Data/` lives), found from this source file's place.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The path of sample `name` in the repository's `Data/` folder.
public func sample(_ name: String) -> String { packageRoot.appendingPathComponent("Data/\(name)").path }

/// The development workspace's larger extracts and feeds (`osm/`, `gtfs/`): `WAYFINDER_SHARED_DATA`, else
/// `../shared/data` beside the repository. Tests that read them skip when a file is absent.
public var sharedData: String {
    ProcessInfo.processInfo.environment["WAYFINDER_SHARED_DATA"] ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data").path
}

/// A sample of `Data/` imported once per test process and shared by every test that reads it — the one
/// "import a sample once" fixture of the test targets. Imports live in a temporary folder removed when the
/// test bundle finishes.
public final class SampleGraph: @unchecked Sendable {
    /// What to import: an OSM sample, optionally with a GTFS feed, landmarks and the contraction hierarchy.
    public struct Recipe: Hashable, Sendable {
        public var osm: String
        public var gtfs: String?
        public var landmarks: Bool
        public var hierarchy: Bool

        /// Sample `osm` of `Data/`, with the feed `gtfs` of `Data/` if given.
        public init(osm: String, gtfs: String? = nil, landmarks: Bool = true, hierarchy: Bool = false) {
            self.osm = osm; self.gtfs = gtfs; self.landmarks = landmarks; self.hierarchy = hierarchy
        }

        /// A file name that tells the recipe.
        var fileName: String {
            [osm, gtfs ?? "", landmarks ? "lm" : "", hierarchy ? "ch" : ""].filter { !$0.isEmpty }.joined(separator: "+") + ".wfg"
        }
    }

    /// The OSM input.
    public let inputPath: String
    /// Where the graph was written.
    public let graphPath: String
    /// What the road importer returned.
    public let statistics: ImportStatistics
    /// The opened graph.
    public let graph: RoadGraph
    /// Seconds the road import took (the transit step not included).
    public let importSeconds: Double

    private init(_ recipe: Recipe) throws {
        inputPath = sample(recipe.osm)
        guard FileManager.default.fileExists(atPath: inputPath) else { throw XCTSkip("missing sample \(inputPath)") }
        graphPath = Self.folder.appendingPathComponent(recipe.fileName).path
        var importer = GraphImporter()
        importer.buildLandmarks = recipe.landmarks
        if recipe.hierarchy { importer.extensions = [HierarchyExtension()] }
        let start = Date()
        statistics = try importer.run(input: inputPath, output: graphPath)
        importSeconds = Date().timeIntervalSince(start)
        if let gtfs = recipe.gtfs {
            _ = try TransitImporter().run(feeds: [sample(gtfs)], graphPath: graphPath, output: graphPath)
        }
        graph = try RoadGraph(path: graphPath)
    }

    /// The temporary folder holding the shared imports, removed when the test bundle finishes.
    public static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-samples-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        XCTestObservationCenter.shared.addTestObserver(FolderRemover(url))
        return url
    }()

    /// Removes a folder at the end of the test run.
    private final class FolderRemover: NSObject, XCTestObservation {
        let url: URL
        init(_ url: URL) { self.url = url }
        func testBundleDidFinish(_ testBundle: Bundle) { try? FileManager.default.removeItem(at: url) }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [Recipe: SampleGraph] = [:]

    /// The sample made by `recipe`, imported on first use.
    public static func imported(_ recipe: Recipe) throws -> SampleGraph {
        lock.lock()
        defer { lock.unlock() }
        if let found = cache[recipe] { return found }
        let imported = try SampleGraph(recipe)
        cache[recipe] = imported
        return imported
    }

    /// Sample `name` of `Data/` (roads only, with landmarks), imported on first use.
    public static func named(_ name: String) throws -> SampleGraph { try imported(Recipe(osm: name)) }
    /// Monaco (`Data/monaco.osm.gz`).
    public static func monaco() throws -> SampleGraph { try named("monaco.osm.gz") }
    /// Terre Haute, Indiana (`Data/terre-haute.osm.gz`).
    public static func terreHaute() throws -> SampleGraph { try named("terre-haute.osm.gz") }
    /// Terre Haute with its GTFS feed (`Data/terre-haute-gtfs.zip`), without landmarks (for speed).
    public static func terreHauteTransit() throws -> SampleGraph {
        try imported(Recipe(osm: "terre-haute.osm.gz", gtfs: "terre-haute-gtfs.zip", landmarks: false))
    }
}
