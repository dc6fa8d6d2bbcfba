import Foundation
import Graph
import Routing
import XCTest

/// A way through a node misplaced thousands of kilometres away (a data error: a node at 0,0 or a mistyped latitude)
/// gives edges of weeks of walking. Their sums in the preprocessing (landmark searches, contraction shortcuts and
/// witness searches) once wrapped round in 32 bits: out and back across such a node summed to a few seconds, so the
/// hierarchy routed a 70 s walk across the node, and a landmark search ran for over a minute on 29 nodes.
final class MisplacedNodeTests: XCTestCase {
    /// s and t 96 m apart with a footway between them, and two footways from s to F and from F to t, F 2,983 km
    /// north: each takes 2^31 ms and 5 s on foot, together 2^32 ms and 10 s, which wrapped round to 10 s. Three short
    /// spurs at s and at t make the hierarchy contract F before them (so the shortcut s → t across F is made).
    static let map = """
        <osm version="0.6">
          <node id="1" lat="43.7300000" lon="7.4200000"/>
          <node id="2" lat="43.7300000" lon="7.4212000"/>
          <node id="3" lat="70.5533371" lon="7.4206000"/>
          <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="footway"/></way>
          <way id="11"><nd ref="1"/><nd ref="3"/><tag k="highway" v="footway"/></way>
          <way id="12"><nd ref="3"/><nd ref="2"/><tag k="highway" v="footway"/></way>
        \((0..<3).map { k in
            """
              <node id="\(20 + k)" lat="\(43.7299 - 0.0001 * Double(k))" lon="7.4200000"/>
              <node id="\(30 + k)" lat="\(43.7299 - 0.0001 * Double(k))" lon="7.4212000"/>
              <way id="\(20 + k)"><nd ref="1"/><nd ref="\(20 + k)"/><tag k="highway" v="footway"/></way>
              <way id="\(30 + k)"><nd ref="2"/><nd ref="\(30 + k)"/><tag k="highway" v="footway"/></way>
            """
        }.joined(separator: "\n"))
        </osm>
        """

    func testAPathAcrossAMisplacedNodeIsNotShort() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-misplaced-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("map.osm").path, output = folder.appendingPathComponent("map.wfg").path
        try Self.map.write(toFile: input, atomically: true, encoding: .utf8)
        var importer = GraphImporter()
        importer.buildLandmarks = true
        importer.extensions = [HierarchyExtension()]
        let started = Date()
        _ = try importer.run(input: input, output: output)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the landmark searches ran on (a sum wrapped round)")
        let graph = try RoadGraph(path: output)

        // The test's premise: the two long edges' times sum past 2^32 ms and would wrap round to under the direct walk.
        let foot = try XCTUnwrap(graph.profiles.first { $0.profile.name == "foot" })
        let long = (0..<graph.edgeCount).filter { graph.edgeLengthMillimetres[$0] > 1_000_000_000 }
        XCTAssertEqual(long.count, 2)
        let (wrapped, overflow) = foot.timeForward[long[0]].addingReportingOverflow(foot.timeForward[long[1]])
        XCTAssertTrue(overflow)
        XCTAssertLessThan(wrapped, 30_000)

        let s = Coordinate(latitude: 43.73, longitude: 7.4201), t = Coordinate(latitude: 43.73, longitude: 7.4211)
        let hierarchy = try Router(graph: graph, profile: "foot")
        XCTAssertNotNil(hierarchy.hierarchy, "the file has the foot hierarchy")
        let landmarks = try Router(graph: graph, profile: "foot", useHierarchy: false)
        let snapped = try landmarks.snap([s, t])
        let start = SearchEndpoint(snapped[0], in: graph), end = SearchEndpoint(snapped[1], in: graph)
        let dijkstra = try XCTUnwrap(landmarks.search.route(from: start, to: end, useHeuristic: false))
        XCTAssertEqual(dijkstra.duration, 0.0804 / 5 * 3600, accuracy: 1, "the direct footway, about 58 s")
        for (name, router) in [("hierarchy", hierarchy), ("A* with landmarks", landmarks)] {
            for (from, to) in [(start, end), (end, start)] {
                let route = try XCTUnwrap(router.fastest(from: from, to: to), name)
                XCTAssertEqual(route.duration, dijkstra.duration, accuracy: 0.001, "\(name): \(route.duration) s")
                XCTAssertEqual(route.distance, dijkstra.distance, accuracy: 0.01, name)
            }
        }
    }
}
