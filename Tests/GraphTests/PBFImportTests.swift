import Foundation
import XCTest
@testable import Graph
import TestSupport

/// Importing OSM PBF and the XML of the same data gives byte-identical graph files.
final class PBFImportTests: XCTestCase {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-pbf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Imports both inputs and checks the two graph files are the same bytes (and the figures the same).
    private func assertSameGraph(pbf: String, xml: String, buildLandmarks: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = try folder()
        var importer = GraphImporter()
        importer.buildLandmarks = buildLandmarks
        let fromPBF = try importer.run(input: pbf, output: out.appendingPathComponent("pbf.wfg").path)
        let fromXML = try importer.run(input: xml, output: out.appendingPathComponent("xml.wfg").path)
        XCTAssertEqual(fromPBF, fromXML, "\(pbf): import figures", file: file, line: line)
        let a = try Data(contentsOf: out.appendingPathComponent("pbf.wfg"))
        let b = try Data(contentsOf: out.appendingPathComponent("xml.wfg"))
        XCTAssertEqual(a.count, b.count, "\(pbf): file sizes", file: file, line: line)
        if a != b {
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            XCTFail("\(pbf) and \(xml) give graph files that differ from byte \(first)", file: file, line: line)
        }
        XCTAssertGreaterThan(fromPBF.graphEdges, 0, file: file, line: line)
    }

    func testMonacoPBFAndXMLGiveTheSameGraphFile() throws {
        let data = packageRoot.appendingPathComponent("Data")
        try assertSameGraph(pbf: data.appendingPathComponent("monaco.osm.pbf").path, xml: data.appendingPathComponent("monaco.osm.gz").path)
    }

    /// Every `NAME.osm.pbf` beside an XML `NAME.osm`, `.osm.gz` or `.osm.bz2` in the workspace's shared data folder
    /// (`WAYFINDER_OSM_PAIRS`, or `../shared/data/osm` beside the checkout); skipped when there is none. Debug builds
    /// leave out the landmark tables (slow unoptimised, and a function of the graph); `swift test -c release` builds them.
    func testSharedPBFAndXMLPairsGiveTheSameGraphFiles() throws {
        let root = packageRoot.appendingPathComponent("Data").deletingLastPathComponent()
        let folder = ProcessInfo.processInfo.environment["WAYFINDER_OSM_PAIRS"].map { URL(fileURLWithPath: $0) }
            ?? root.deletingLastPathComponent().appendingPathComponent("shared/data/osm")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw XCTSkip("no shared OSM folder at \(folder.path)")
        }
        var pairs: [(String, String)] = []
        for name in names.sorted() where name.hasSuffix(".osm.pbf") {
            let stem = String(name.dropLast(".pbf".count))
            if let xml = [stem, stem + ".gz", stem + ".bz2"].first(where: names.contains) {
                pairs.append((folder.appendingPathComponent(name).path, folder.appendingPathComponent(xml).path))
            }
        }
        if pairs.isEmpty { throw XCTSkip("no .osm.pbf with its XML in \(folder.path)") }
        #if DEBUG
        let landmarks = false
        #else
        let landmarks = true
        #endif
        for (pbf, xml) in pairs {
            let started = Date()
            try assertSameGraph(pbf: pbf, xml: xml, buildLandmarks: landmarks)
            print("PBF/XML pair \((pbf as NSString).lastPathComponent): identical graph files (\(String(format: "%.1f", Date().timeIntervalSince(started))) s)")
        }
    }
}
