import Foundation
import Graph
@testable import Routing
import XCTest

/// The cheap answer paths against the straightforward computations they replace, on Monaco and north of Bayreuth:
/// a traversal's points laid out without distances for whole edges, snapping over the in-memory `SnapIndex`
/// against the file's index, the snapped fraction without the array, and `Router.eta` against the full route's totals.
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

    func testSnapIndexHoldsEveryKeptSegmentOnce() throws {
        for name in ["monaco", "north-bayreuth"] {
            let graph = try OneToManyTests.graph(name)
            let profile = try XCTUnwrap(graph.profile(named: "car"))
            let snapper = Snapper(graph: graph, profile: profile)
            let index = SnapIndex(graph: graph, keeping: snapper.isUsable)
            var held = Set<Int>()
            for i in 0..<index.edges.count {
                let e = Int(index.edges[i]), position = Int(index.positions[i])
                XCTAssertTrue(snapper.isUsable(e))
                let segments = Int(graph.edgeShapeStart[e + 1]) - Int(graph.edgeShapeStart[e]) + 1
                for s in position..<min(position + SnapIndex.segmentsPerItem, segments) {
                    XCTAssertTrue(held.insert(Int(graph.edgeShapeStart[e]) + e + s).inserted, "\(name) edge \(e) segment \(s) twice")
                }
            }
            var expected = 0
            for e in 0..<graph.edgeCount where snapper.isUsable(e) { expected += Int(graph.edgeShapeStart[e + 1]) - Int(graph.edgeShapeStart[e]) + 1 }
            XCTAssertEqual(held.count, expected, name)
        }
    }

    func testNearestSegmentsOverTheSnapIndexEqualTheFileIndex() throws {
        for name in ["monaco", "north-bayreuth"] {
            let graph = try OneToManyTests.graph(name)
            let profile = try XCTUnwrap(graph.profile(named: "car"))
            let snapper = Snapper(graph: graph, profile: profile)
            let index = SnapIndex(graph: graph, keeping: snapper.isUsable)
            var rng = SplitMix64(seed: 7)
            let lat = graph.nodeLatitudes.map { Double($0) * 1e-7 }, lon = graph.nodeLongitudes.map { Double($0) * 1e-7 }
            var found = 0
            for k in 0..<600 {
                let p = Coordinate(latitude: .random(in: lat.min()!...lat.max()!, using: &rng), longitude: .random(in: lon.min()!...lon.max()!, using: &rng))
                let count = k % 3 == 0 ? 5 : 1, limit = k % 2 == 0 ? 1000 : 150
                let main = { (e: Int) in snapper.isUsable(e) && snapper.isOnMainNetwork(e) }
                for filter in [snapper.isUsable, main] {
                    let fromFile = graph.nearestSegments(latitude: p.latitude, longitude: p.longitude, count: count, maxDistance: Double(limit), filter: filter)
                    let fromIndex = graph.nearestSegments(latitude: p.latitude, longitude: p.longitude, count: count, maxDistance: Double(limit),
                                                          snapIndex: index, filter: filter)
                    XCTAssertEqual(fromIndex, fromFile, "\(name) \(p)")
                    found += fromFile.count
                }
            }
            XCTAssertGreaterThan(found, 500, name)
        }
    }

    /// Checks that every leg of `found` gets the same points and steps with the leg tables as without them, and
    /// returns the steps (all legs').
    static func stepsAlikeWithAndWithoutTables(_ found: (results: [SearchResult], used: [SnappedLocation]), router: Router, tables: LegTables,
                                               _ message: String, file: StaticString = #filePath, line: UInt = #line) -> [RouteStep] {
        let graph = router.graph
        var steps: [RouteStep] = []
        for (k, result) in found.results.enumerated() {
            let points = LegPoints(result.traversals, in: graph)
            let recorded = LegPoints(result.traversals, in: graph, records: tables.records)
            XCTAssertEqual(recorded.points, points.points, message, file: file, line: line)
            XCTAssertEqual(recorded.ranges, points.ranges, message, file: file, line: line)
            let plain = StepBuilder.steps(for: result.traversals, points: points, in: graph, from: found.used[k], to: found.used[k + 1],
                                          profile: router.profile)
            let tabled = StepBuilder.steps(for: result.traversals, points: recorded, in: graph, from: found.used[k], to: found.used[k + 1],
                                           profile: router.profile, tables: tables)
            XCTAssertEqual(tabled, plain, message, file: file, line: line)
            steps += plain
        }
        return steps
    }

    func testLegTablesGiveTheSameSteps() throws {
        for name in ["monaco", "north-bayreuth"] {
            let graph = try OneToManyTests.graph(name)
            let router = try Router(graph: graph, profile: "car")
            let roundabouts = WayRoundabouts(graph: graph, profile: router.profile)
            for way in 0..<graph.wayNames.count {
                XCTAssertEqual(roundabouts.flow(ofWay: way), StepBuilder.roundaboutFlow(ofWay: way, in: graph, profile: router.profile), "\(name) way \(way)")
            }
            let tables = LegTables(graph: graph, profile: router.profile)
            var rng = SplitMix64(seed: 21)
            let lat = graph.nodeLatitudes.map { Double($0) * 1e-7 }, lon = graph.nodeLongitudes.map { Double($0) * 1e-7 }
            var steps = 0
            for _ in 0..<150 {
                let stops = (0..<2).map { _ in Coordinate(latitude: .random(in: lat.min()!...lat.max()!, using: &rng),
                                                          longitude: .random(in: lon.min()!...lon.max()!, using: &rng)) }
                guard let snapped = try? router.snapStops(stops), let found = try? router.searchLegs(through: snapped) else { continue }
                steps += Self.stepsAlikeWithAndWithoutTables(found, router: router, tables: tables, name).count
            }
            XCTAssertGreaterThan(steps, 300, name)
        }
    }

    /// A hub of 300 named streets: more exits than a record's 8-bit count holds, so the hub's edges get incomplete
    /// records and are described from the graph, with the same points and steps as without the tables.
    func testEdgesWithTooManyExitsAreDescribedFromTheGraph() throws {
        let spokes = 300, metresPerDegree = 6_371_008.8 * Double.pi / 180
        // The point `r` metres from the hub (49°N 8°E) along spoke k, turned `turn` radians.
        func point(spoke k: Int, metres r: Double, turn: Double) -> Coordinate {
            let angle = 2 * Double.pi * Double(k) / Double(spokes) + turn
            return Coordinate(latitude: 49 + r * cos(angle) / metresPerDegree, longitude: 8 + r * sin(angle) / (metresPerDegree * cos(49 * Double.pi / 180)))
        }
        var xml = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6'>\n<node id='1' lat='49.0' lon='8.0'/>\n"
        var ways = ""
        for k in 0..<spokes {
            // A kinked street: a shape point at 60 m, its end at 120 m, a little turned.
            for (j, (r, turn)) in [(60.0, 0.0), (120.0, 0.05)].enumerated() {
                let c = point(spoke: k, metres: r, turn: turn)
                xml += "<node id='\(10 + 2 * k + j)' lat='\(c.latitude)' lon='\(c.longitude)'/>\n"
            }
            ways += "<way id='\(1000 + k)'><nd ref='1'/><nd ref='\(10 + 2 * k)'/><nd ref='\(11 + 2 * k)'/>"
                + "<tag k='highway' v='residential'/><tag k='name' v='Street \(k)'/></way>\n"
        }
        xml += ways + "</osm>\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("hub.osm").path, output = folder.appendingPathComponent("hub.wfg").path
        try xml.write(toFile: input, atomically: true, encoding: .utf8)
        _ = try GraphImporter().run(input: input, output: output)
        let graph = try RoadGraph(path: output)
        let router = try Router(graph: graph, profile: "car")
        let tables = LegTables(graph: graph, profile: router.profile)
        let hub = try XCTUnwrap(graph.nodeOSMIDs.firstIndex(of: 1))
        XCTAssertEqual(graph.edgeCount, spokes)
        for e in 0..<graph.edgeCount {
            XCTAssertTrue(graph.edgeFrom[e] == hub || graph.edgeTo[e] == hub)
            XCTAssertNil(tables.records.record(e), "edge \(e) at a hub of \(spokes) exits has a complete record")
        }
        var rng = SplitMix64(seed: 5)
        var steps = 0
        for _ in 0..<40 {
            let (a, b) = (Int.random(in: 0..<spokes, using: &rng), Int.random(in: 0..<spokes, using: &rng))
            let stops = [a, b].map { point(spoke: $0, metres: 110, turn: 0.05) }
            let found = try router.searchLegs(through: try router.snapStops(stops))
            let plain = Self.stepsAlikeWithAndWithoutTables(found, router: router, tables: tables, "Street \(a) to Street \(b)")
            if a != b { XCTAssertTrue(plain.contains { $0.name == "Street \(b)" }, "\(plain.map(\.name))") }
            steps += plain.count
        }
        XCTAssertGreaterThan(steps, 40)
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
