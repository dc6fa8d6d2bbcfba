import Foundation
import XCTest
@testable import Graph

/// A way that runs back and forth along one segment (1,2,1,2,…) imports in linear time: the segment becomes one
/// edge per direction, not one parallel edge per pass (contraction was quadratic in them: 20k passes 4.3 s, 40k 20.8 s).
final class RepeatedSegmentTests: XCTestCase {
    func testAWayAlternatingBetweenTwoNodesGivesOneEdgePerDirection() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repeated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let passes = 200_000
        var xml = "<osm version=\"0.6\">\n<node id=\"1\" lat=\"43.7300\" lon=\"7.4200\"/>\n<node id=\"2\" lat=\"43.7310\" lon=\"7.4210\"/>\n"
        xml += "<node id=\"3\" lat=\"43.7320\" lon=\"7.4220\"/>\n<way id=\"10\">"
        xml.reserveCapacity(passes * 14)
        for i in 0..<passes { xml += i % 2 == 0 ? "<nd ref=\"1\"/>" : "<nd ref=\"2\"/>" }
        xml += "<tag k=\"highway\" v=\"residential\"/></way>\n"
        xml += "<way id=\"11\"><nd ref=\"2\"/><nd ref=\"3\"/><tag k=\"highway\" v=\"residential\"/></way>\n</osm>\n"
        let input = folder.appendingPathComponent("repeated.osm").path
        try xml.write(toFile: input, atomically: true, encoding: .utf8)
        let started = Date()
        let statistics = try GraphImporter().run(input: input, output: folder.appendingPathComponent("repeated.wfg").path)
        let elapsed = Date().timeIntervalSince(started)
        // 1→2 and 2→1 once each, then 2→3: three edges; every further pass is merged.
        XCTAssertEqual(statistics.graphEdges, 3)
        XCTAssertEqual(statistics.repeatedSegmentsMerged, passes - 1 - 2)
        XCTAssertLessThan(elapsed, 60, "a 200,000-pass way took \(elapsed) s to import")
        let graph = try RoadGraph(path: folder.appendingPathComponent("repeated.wfg").path)
        XCTAssertEqual(graph.edgeCount, 3)
    }
}
