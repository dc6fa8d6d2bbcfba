import Foundation
import Graph
@testable import Routing
import XCTest

/// The cheap answer paths against the straightforward computations they replace, on Monaco and north of Bayreuth:
/// a traversal's points laid out without distances for whole edges, the spatial-index item table against the
/// binary search, the snapped fraction without the array, and `Router.eta` against the full route's totals.
final class AnswerEquivalenceTests: XCTestCase {
    /// The polyline of a traversal as first written: cumulative distances over the edge, interpolated ends.
    static func referenceCoordinates(of traversal: EdgeTraversal, in graph: RoadGraph) -> [Coordinate] {
        let points = graph.coordinates(ofEdge: traversal.edge)
        let cumulative = graph.cumulativeDistances(ofEdge: traversal.edge)
        let total = cumulative[cumulative.count - 1]
        let a = min(traversal.startFraction, traversal.endFraction) * total
        let b = max(traversal.startFraction, traversal.endFraction) * total
        var result = [RoadGraph.interpolate(points, cumulative, at: a)]
        for i in 0..<points.count where cumulative[i] > a && cumulative[i] < b { result.append(points[i]) }
        let last = RoadGraph.interpolate(points, cumulative, at: b)
        if result.count == 1 || result[result.count - 1] != last { result.append(last) }
        if result.count == 2 && result[0] == result[1] && a == b { result.removeLast() }
        return traversal.reversed ? result.reversed() : result
    }

    func testTraversalPointsEqualTheReferenceOnEveryEdge() throws {
        for name in ["monaco", "north-bayreuth"] {
            let graph = try OneToManyTests.graph(name)
            let spans: [(Double, Double)] = [(0, 1), (1, 0), (0.3, 0.7), (0.7, 0.2), (0, 0), (1, 1), (0.5, 0.5), (0, 0.4), (0.6, 1), (1, 0.25)]
            var compared = 0
            for e in 0..<graph.edgeCount {
                for (start, end) in spans {
                    let traversal = EdgeTraversal(edge: e, reversed: end < start, startFraction: start, endFraction: end, distance: 0, duration: 0)
                    var laidOut: [Coordinate] = [Coordinate(latitude: 1, longitude: 2)]
                    graph.appendCoordinates(of: traversal, to: &laidOut)
                    XCTAssertEqual(Array(laidOut.dropFirst()), Self.referenceCoordinates(of: traversal, in: graph), "\(name) edge \(e) \(start)→\(end)")
                    compared += 1
                }
            }
            XCTAssertGreaterThan(compared, 10_000)
        }
    }

    func testItemTableEqualsTheBinarySearch() throws {
        for name in ["monaco", "north-bayreuth"] {
            let graph = try OneToManyTests.graph(name)
            let table = SpatialIndexItemEdges(graph: graph)
            XCTAssertEqual(table.edges.count, graph.spatialIndex.items.count)
            for (i, segment) in graph.spatialIndex.items.enumerated() {
                let searched = graph.edge(ofSegment: segment)
                XCTAssertEqual(Int(table.edges[i]), searched.edge)
                XCTAssertEqual(Int(table.positions[i]), searched.position)
            }
        }
    }

    func testSnappingAndETAMatchTheFullRoute() throws {
        for name in ["monaco", "north-bayreuth"] {
            let graph = try OneToManyTests.graph(name)
            let router = try Router(graph: graph, profile: "car")
            var rng = SplitMix64(seed: 13)
            let lat = graph.nodeLatitudes.map { Double($0) * 1e-7 }, lon = graph.nodeLongitudes.map { Double($0) * 1e-7 }
            let box = (lat.min()!...lat.max()!, lon.min()!...lon.max()!)
            var routed = 0
            for _ in 0..<150 {
                let stops = (0..<2).map { _ in Coordinate(latitude: .random(in: box.0, using: &rng), longitude: .random(in: box.1, using: &rng)) }
                // The snapped fraction, against the cumulative-distance array it used to be computed from.
                for stop in stops {
                    guard let candidate = graph.nearestSegments(latitude: stop.latitude, longitude: stop.longitude, count: 1, maxDistance: 1000,
                                                                filter: router.snapper.isUsable).first,
                          let snapped = router.snapper.snap(stop) else { continue }
                    XCTAssertEqual(snapped.edge, candidate.edge)
                    let cumulative = graph.cumulativeDistances(ofEdge: candidate.edge)
                    let total = cumulative[cumulative.count - 1]
                    if snapped.fraction > 0 && snapped.fraction < 1 {
                        let along = cumulative[candidate.segment] + candidate.segmentFraction * (cumulative[candidate.segment + 1] - cumulative[candidate.segment])
                        XCTAssertEqual(snapped.fraction, total > 0 ? min(1, max(0, along / total)) : 0)
                    }
                }
                guard let full = try? router.routes(through: stops) else {
                    XCTAssertThrowsError(try router.eta(through: stops))
                    continue
                }
                let eta = try router.eta(through: stops)
                XCTAssertEqual(eta.distance, full.routes[0].distance)
                XCTAssertEqual(eta.expectedTravelTime, full.routes[0].expectedTravelTime)
                XCTAssertEqual(eta.waypoints, full.waypoints)
                routed += 1
            }
            XCTAssertGreaterThan(routed, 20, name)
        }
    }
}
