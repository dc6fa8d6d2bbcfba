import Foundation
import XCTest
@testable import Graph
import TestSupport

/// `RoadGraph.nearestSegments` (a best-first search over the file's packed R-tree) against a brute-force scan of
/// every segment, on the Monaco extract and on drawn maps.
final class SpatialIndexTests: XCTestCase {

    /// One segment of an edge's polyline.
    struct Segment {
        var edge: Int
        var position: Int
        var a: (latitude: Int32, longitude: Int32)
        var b: (latitude: Int32, longitude: Int32)
    }

    /// Every segment of every edge, in edge order.
    static func allSegments(_ graph: RoadGraph) -> [Segment] {
        var segments: [Segment] = []
        for e in 0..<graph.edgeCount {
            let points = graph.polyline(ofEdge: e)
            for k in 1..<points.count { segments.append(Segment(edge: e, position: k - 1, a: points[k - 1], b: points[k])) }
        }
        return segments
    }

    /// Distance in metres from (latitude, longitude) to a segment, by perpendicular distance in the local
    /// equirectangular projection around the query point (the rule of `profiles.md`), written out here independently.
    static func distance(latitude: Double, longitude: Double, to segment: Segment) -> Double {
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        let cosine = cos(latitude * Double.pi / 180)
        func project(_ p: (latitude: Int32, longitude: Int32)) -> (x: Double, y: Double) {
            ((Double(p.longitude) * 1e-7 - longitude) * cosine * metresPerDegree, (Double(p.latitude) * 1e-7 - latitude) * metresPerDegree)
        }
        let a = project(segment.a), b = project(segment.b)
        let dx = b.x - a.x, dy = b.y - a.y
        let squared = dx * dx + dy * dy
        let t = squared > 0 ? min(1, max(0, -(a.x * dx + a.y * dy) / squared)) : 0
        let px = a.x + t * dx, py = a.y + t * dy
        return (px * px + py * py).squareRoot()
    }

    /// Whether profile p may use edge e in some direction.
    static func usable(_ profile: ProfileGraph, _ e: Int) -> Bool {
        profile.timeForward[e] != closedEdge || profile.timeBackward[e] != closedEdge
    }

    /// Compares `nearestSegments` with brute force for `queries` random points around the extract's box:
    /// the k nearest distances agree within 1e-6 m, and every returned candidate is what it says it is.
    private func compareWithBruteForce(_ graph: RoadGraph, queries: Int, seed: UInt64, count: Int,
                                       maxDistance: Double = .infinity, filter: ((Int) -> Bool)?) {
        let segments = Self.allSegments(graph)
        let allowed = filter.map { f in segments.filter { f($0.edge) } } ?? segments
        XCTAssertFalse(allowed.isEmpty)
        let s = graph.metadata.statistics
        var generator = SplitMix64(seed: seed)
        let margin = 5_000_000 // 0.005 degree, about 500 m beyond the box
        for q in 0..<queries {
            let latitude = Double(Int.random(in: Int(s.minLatitude) - margin...Int(s.maxLatitude) + margin, using: &generator)) * 1e-7
            let longitude = Double(Int.random(in: Int(s.minLongitude) - margin...Int(s.maxLongitude) + margin, using: &generator)) * 1e-7
            let found = graph.nearestSegments(latitude: latitude, longitude: longitude, count: count, maxDistance: maxDistance,
                                              filter: filter ?? { _ in true })
            var expected = allowed.map { Self.distance(latitude: latitude, longitude: longitude, to: $0) }.filter { $0 <= maxDistance }
            expected.sort()
            expected = Array(expected.prefix(count))
            XCTAssertEqual(found.count, expected.count, "query \(q) at \(latitude), \(longitude)")
            for (candidate, distance) in zip(found, expected) {
                XCTAssertEqual(candidate.distance, distance, accuracy: 1e-6, "query \(q) at \(latitude), \(longitude)")
            }
            for candidate in found {
                if let filter { XCTAssertTrue(filter(candidate.edge), "query \(q): a filtered-out edge was returned") }
                let points = graph.polyline(ofEdge: candidate.edge)
                XCTAssertLessThan(candidate.segment, points.count - 1)
                let segment = Segment(edge: candidate.edge, position: candidate.segment, a: points[candidate.segment], b: points[candidate.segment + 1])
                XCTAssertEqual(Self.distance(latitude: latitude, longitude: longitude, to: segment), candidate.distance, accuracy: 1e-6,
                               "query \(q): the candidate's own segment is at the distance it reports")
                XCTAssertTrue((0...1).contains(candidate.segmentFraction))
                // The snapped point lies on the segment, `segmentFraction` along it.
                let lat = Double(segment.a.latitude) * 1e-7 + candidate.segmentFraction * Double(segment.b.latitude - segment.a.latitude) * 1e-7
                let lon = Double(segment.a.longitude) * 1e-7 + candidate.segmentFraction * Double(segment.b.longitude - segment.a.longitude) * 1e-7
                XCTAssertEqual(candidate.latitude, lat, accuracy: 1e-9)
                XCTAssertEqual(candidate.longitude, lon, accuracy: 1e-9)
            }
            XCTAssertEqual(found.map(\.distance), found.map(\.distance).sorted(), "nearest first")
        }
    }

    /// Monaco: 300 random points, nearest segment of all edges.
    func testNearestSegmentMatchesBruteForceOnMonaco() throws {
        let monaco = try SampleGraph.monaco()
        compareWithBruteForce(monaco.graph, queries: 300, seed: 11, count: 1, filter: nil)
    }

    /// Monaco: 300 random points, nearest segment among the edges cars may use, and among those walkers may use.
    func testNearestSegmentWithProfileFilterMatchesBruteForce() throws {
        let graph = try SampleGraph.monaco().graph
        let car = try XCTUnwrap(graph.profile(named: "car")), foot = try XCTUnwrap(graph.profile(named: "foot"))
        let carEdges = (0..<graph.edgeCount).filter { Self.usable(car, $0) }.count
        XCTAssertLessThan(carEdges, graph.edgeCount, "the filter must exclude something")
        compareWithBruteForce(graph, queries: 300, seed: 12, count: 1, filter: { Self.usable(car, $0) })
        compareWithBruteForce(graph, queries: 100, seed: 13, count: 1, filter: { Self.usable(foot, $0) })
    }

    /// Monaco: the 5 nearest segments, and a maximum distance.
    func testSeveralNearestAndMaximumDistance() throws {
        let graph = try SampleGraph.monaco().graph
        let car = try XCTUnwrap(graph.profile(named: "car"))
        compareWithBruteForce(graph, queries: 100, seed: 14, count: 5, filter: nil)
        compareWithBruteForce(graph, queries: 100, seed: 15, count: 3, maxDistance: 40, filter: { Self.usable(car, $0) })
    }

    /// Points on the graph: at a node the distance is 0; the middle of a segment snaps to it at fraction one half.
    func testPointsOnTheGraph() throws {
        let graph = try SampleGraph.monaco().graph
        for n in stride(from: 0, to: graph.nodeCount, by: max(1, graph.nodeCount / 50)) {
            let found = graph.nearestSegments(latitude: Double(graph.nodeLatitudes[n]) * 1e-7, longitude: Double(graph.nodeLongitudes[n]) * 1e-7)
            XCTAssertEqual(found.count, 1)
            XCTAssertEqual(found.first?.distance ?? 1, 0, accuracy: 1e-6, "node \(n)")
        }
    }

    /// On a drawn map: the snapped point is the perpendicular foot on the right segment; the filter skips the nearer
    /// footway; beyond `maxDistance` nothing is found.
    ///
    ///     a-------b        the query point is 10 m south of the middle of c-d, 20 m from a-b
    ///
    ///     c-------d        (c-d is a footway)
    ///         *
    func testSnappingOnADrawnMap() throws {
        let map = try DrawnMap("""
            a-------b

            c-------d
            """, ways: [("ab", ["highway": "residential"]), ("cd", ["highway": "footway"])])
        let graph = map.graph
        let car = map.profile("car")
        let query = DrawnMap.fixedPoint(line: 3, column: 4)
        let latitude = Double(query.latitude) * 1e-7, longitude = Double(query.longitude) * 1e-7
        let nearest = graph.nearestSegments(latitude: latitude, longitude: longitude, count: 2)
        XCTAssertEqual(nearest.count, 2)
        XCTAssertEqual(nearest[0].edge, map.edge("cd")?.index)
        XCTAssertEqual(nearest[0].distance, 10, accuracy: 0.01)
        XCTAssertEqual(nearest[0].segmentFraction, 0.5, accuracy: 1e-6)
        XCTAssertEqual(nearest[1].edge, map.edge("ab")?.index)
        XCTAssertEqual(nearest[1].distance, 30, accuracy: 0.01)
        let carOnly = graph.nearestSegments(latitude: latitude, longitude: longitude) { SpatialIndexTests.usable(car, $0) }
        XCTAssertEqual(carOnly.first?.edge, map.edge("ab")?.index)
        XCTAssertEqual(graph.nearestSegments(latitude: latitude, longitude: longitude, maxDistance: 9.9).count, 0)
        XCTAssertEqual(graph.nearestSegments(latitude: latitude, longitude: longitude, maxDistance: 10.1).count, 1)
        XCTAssertEqual(graph.nearestSegments(latitude: latitude, longitude: longitude, count: 0).count, 0)
        XCTAssertEqual(graph.nearestSegments(latitude: latitude, longitude: longitude, count: 10).map { $0.distance.rounded() }, [10, 30],
                       "asking for more segments than there are gives them all")
    }

    /// Long edges are indexed in runs of 8 segments: every segment of a 30-segment edge is found.
    func testLongEdgesAreIndexedThroughout() throws {
        // A zig-zag of 31 nodes: 30 segments in one edge.
        var top = "", bottom = ""
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDE")
        for (i, letter) in letters.enumerated() {
            if i % 2 == 0 { top += String(letter) + "   "; bottom += "    " } else { top += "    "; bottom += String(letter) + "   " }
        }
        let map = try DrawnMap(top + "\n" + bottom, ways: [(String(letters), ["highway": "residential"])])
        XCTAssertEqual(map.graph.edgeCount, 1)
        let segments = Self.allSegments(map.graph)
        XCTAssertEqual(segments.count, 30)
        for segment in segments {
            let latitude = (Double(segment.a.latitude) + Double(segment.b.latitude)) / 2e7
            let longitude = (Double(segment.a.longitude) + Double(segment.b.longitude)) / 2e7
            let found = map.graph.nearestSegments(latitude: latitude, longitude: longitude)
            XCTAssertEqual(found.first?.segment, segment.position)
            XCTAssertEqual(found.first?.distance ?? 1, 0, accuracy: 1e-6)
        }
        XCTAssertEqual(map.graph.spatialIndex.items.count, 4, "30 segments in runs of 8")
    }
}
