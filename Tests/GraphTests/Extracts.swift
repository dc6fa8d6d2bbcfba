import Foundation
import XCTest
@testable import Graph

/// A real OSM extract from `Data/`, imported once per test run and shared by the tests that read it.
final class ImportedExtract: @unchecked Sendable {
    /// The OSM input.
    let inputPath: String
    /// Where the graph was written (in a temporary folder removed by `removeAll()`).
    let graphPath: String
    /// What the importer returned.
    let statistics: ImportStatistics
    /// The opened graph.
    let graph: RoadGraph
    /// Seconds the import took.
    let importSeconds: Double

    private init(name: String) throws {
        inputPath = ImportedExtract.dataFolder.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: inputPath) else { throw XCTSkip("missing extract \(inputPath)") }
        graphPath = ImportedExtract.folder.appendingPathComponent(name + ".wfg").path
        let start = Date()
        statistics = try GraphImporter().run(input: inputPath, output: graphPath)
        importSeconds = Date().timeIntervalSince(start)
        graph = try RoadGraph(path: graphPath)
    }

    /// The repository's `Data` folder, found from this source file's place (`Tests/GraphTests/`).
    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data")

    /// The temporary folder holding the shared imports, removed when the test bundle finishes.
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-graphtests-extracts-\(getpid())")
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
    nonisolated(unsafe) private static var cache: [String: ImportedExtract] = [:]

    /// The extract `name` of `Data/`, imported on first use.
    static func named(_ name: String) throws -> ImportedExtract {
        lock.lock()
        defer { lock.unlock() }
        if let found = cache[name] { return found }
        let imported = try ImportedExtract(name: name)
        cache[name] = imported
        return imported
    }

    /// Monaco (`Data/monaco.osm.gz`).
    static func monaco() throws -> ImportedExtract { try named("monaco.osm.gz") }
    /// Terre Haute, Indiana (`Data/terre-haute.osm.gz`).
    static func terreHaute() throws -> ImportedExtract { try named("terre-haute.osm.gz") }
}
