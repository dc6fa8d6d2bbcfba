import Foundation
import Graph
import Routing
import XCTest
import TestSupport

/// The contraction hierarchy's answers against plain Dijkstra on a real extract with one-ways and turn
/// restrictions (north of Bayreuth), point to point and as matrices.
final class HierarchyCorrectnessTests: XCTestCase {
    /// One hierarchy per profile of the shared Bayreuth graph, built once.
    nonisolated(unsafe) static var searches: [String: HierarchySearch] = [:]

    func hierarchy(_ name: String) throws -> HierarchySearch {
        if let search = Self.searches[name] { return search }
        let graph = try SearchCorrectnessTests.bayreuth()
        let space = SearchGraph(graph: graph, profile: try XCTUnwrap(graph.profile(named: name)))
        let built = HierarchyBuilder(space: space).build()
        let search = try XCTUnwrap(HierarchySearch(states: HierarchyStates(space: space), hierarchy: ContractionHierarchy(built)))
        Self.searches[name] = search
        return search
    }

    /// Random stops in the dense part of the extract, snapped for the profile.
    func stops(_ count: Int, profile: ProfileGraph, seed: UInt64) throws -> [SearchEndpoint] {
        let graph = try SearchCorrectnessTests.bayreuth()
        let snapper = Snapper(graph: graph, profile: profile)
        var random = SplitMix64(state: seed)
        var result: [SearchEndpoint] = []
        while result.count < count {
            let c = Coordinate(latitude: Double.random(in: 49.960...50.050, using: &random), longitude: Double.random(in: 11.460...11.629, using: &random))
            if let s = snapper.snap(c) { result.append(SearchEndpoint(s, in: graph)) }
        }
        return result
    }

    /// 1000 random pairs (50 starts × 20 targets): the hierarchy's time equals Dijkstra's (one one-to-many Dijkstra
    /// per start, over the same restriction-aware states), its path is connected, open to the profile and timed as
    /// the result says, and it is mostly the very path A* finds (equal-time paths may differ).
    func compare(profile name: String, seed: UInt64) throws {
        let graph = try SearchCorrectnessTests.bayreuth()
        let search = try hierarchy(name)
        let profile = search.space.profile
        let dijkstra = OneToManySearch(space: search.space)
        let aStar = RouteSearch(space: search.space)
        let starts = try stops(50, profile: profile, seed: seed), targets = try stops(20, profile: profile, seed: seed &+ 1)
        var routed = 0, samePath = 0, restricted = 0
        for (i, start) in starts.enumerated() {
            let expected = dijkstra.routes(from: start, to: targets)
            for (j, target) in targets.enumerated() {
                let found = search.route(from: start, to: target)
                XCTAssertEqual(found == nil, expected[j] == nil, "pair \(i)→\(j): reachability differs")
                guard let found, let expected = expected[j] else { continue }
                routed += 1
                XCTAssertEqual(found.duration, expected.duration, accuracy: 0.1, "pair \(i)→\(j)")
                XCTAssertEqual(found.distance, found.traversals.reduce(0) { $0 + $1.distance }, accuracy: 0.001)
                for (x, y) in zip(found.traversals, found.traversals.dropFirst()) {
                    let head = x.reversed ? graph.edgeFrom[x.edge] : graph.edgeTo[x.edge]
                    let tail = y.reversed ? graph.edgeTo[y.edge] : graph.edgeFrom[y.edge]
                    XCTAssertEqual(head, tail, "pair \(i)→\(j): traversals do not connect")
                }
                for t in found.traversals {
                    XCTAssertNotEqual(t.reversed ? profile.timeBackward[t.edge] : profile.timeForward[t.edge], closedEdge, "closed direction used")
                    for r in 0..<profile.restrictionCount where profile.restriction(r).path.contains(UInt32(t.edge) << 1) { restricted += 1 }
                }
                if aStar.route(from: start, to: target)?.traversals == found.traversals { samePath += 1 }
            }
        }
        XCTAssertGreaterThan(routed, 800, "most random pairs are connected")
        XCTAssertGreaterThanOrEqual(Double(samePath), 0.95 * Double(routed), "the hierarchy mostly finds A*'s very path")
        if name == "car" { XCTAssertGreaterThan(restricted, 0, "some routes pass edges with turn restrictions") }
    }

    func testCarHierarchyMatchesDijkstraOn1000RandomPairs() throws { try compare(profile: "car", seed: 42) }

    func testFootHierarchyMatchesDijkstraOn1000RandomPairs() throws { try compare(profile: "foot", seed: 7) }

    /// Every entry of a 30 × 40 matrix equals the point-to-point answer (time, and length of that route), and
    /// unreachable pairs are nil.
    func testMatrixEntriesEqualPointToPointRoutes() throws {
        for name in ["car", "foot"] {
            let search = try hierarchy(name)
            let sources = try stops(30, profile: search.space.profile, seed: 5), destinations = try stops(40, profile: search.space.profile, seed: 6)
            // Duplicates are allowed.
            let matrix = MatrixSearch(search: search).matrix(from: sources + [sources[0]], to: destinations + [sources[0]], threads: 2)
            XCTAssertEqual(matrix.sourceCount, 31)
            XCTAssertEqual(matrix.destinationCount, 41)
            for (i, a) in (sources + [sources[0]]).enumerated() {
                for (j, b) in (destinations + [sources[0]]).enumerated() {
                    let single = search.route(from: a, to: b)
                    XCTAssertEqual(matrix.duration(i, j) == nil, single == nil, "\(name) \(i)→\(j)")
                    guard let single, let duration = matrix.duration(i, j), let distance = matrix.distance(i, j) else { continue }
                    XCTAssertEqual(duration, single.duration, accuracy: 0.1, "\(name) \(i)→\(j)")
                    XCTAssertEqual(distance, single.distance, accuracy: max(1, single.distance * 0.02), "\(name) \(i)→\(j)")
                }
            }
            XCTAssertEqual(matrix.duration(30, 40), 0, "a place to itself")
        }
    }

    /// Pairs with no route are nil in the matrix, not errors: a one-way's wrong direction and a separate road.
    func testUnreachablePairsAreNil() throws {
        let map = try DrawnMap("""
            a---b


            c---d
            """, ways: [("ab", ["highway": "residential", "oneway": "yes"]), ("cd", ["highway": "residential"])], gridMetres: 100, hierarchy: true)
        let router = try map.router("car")
        XCTAssertNotNil(router.hierarchy)
        let result = try router.matrix(sources: [map.coordinate("a"), map.coordinate("c"), map.coordinate("b")],
                                       destinations: [map.coordinate("b"), map.coordinate("d"), map.coordinate("a")])
        let m = result.matrix
        XCTAssertEqual(try XCTUnwrap(m.duration(0, 0)), map.seconds("ab", kmh: Speed.residential), accuracy: 0.5)
        XCTAssertNil(m.duration(0, 1), "a to d: another road")
        XCTAssertEqual(m.duration(0, 2), 0)
        XCTAssertNil(m.duration(1, 0))
        XCTAssertNotNil(m.duration(1, 1))
        XCTAssertNil(m.duration(2, 2), "b to a: against the one-way")
        XCTAssertNil(m.distance(2, 2))
        // A trip through such places names the leg with no route.
        XCTAssertThrowsError(try router.trip(through: [map.coordinate("a"), map.coordinate("b"), map.coordinate("d")]))
        // The size limit is checked before any work.
        XCTAssertThrowsError(try router.matrix(sources: Array(repeating: map.coordinate("a"), count: 3), destinations: [map.coordinate("b")],
                                               options: MatrixOptions(maxSources: 2))) { error in
            XCTAssertTrue("\(error)".contains("larger than the limit"), "\(error)")
        }
    }

    /// The hierarchy is deterministic: the same graph gives the same arcs.
    func testBuildIsDeterministic() throws {
        let graph = try SearchCorrectnessTests.bayreuth()
        let space = SearchGraph(graph: graph, profile: try XCTUnwrap(graph.profile(named: "car")))
        let a = HierarchyBuilder(space: space).build(), b = HierarchyBuilder(space: space).build()
        XCTAssertEqual(a.up, b.up)
        XCTAssertEqual(a.down, b.down)
        XCTAssertGreaterThan(a.shortcutCount, 0)
    }
}
