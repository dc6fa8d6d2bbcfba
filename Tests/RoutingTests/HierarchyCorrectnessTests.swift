import Foundation
import Graph
@testable import Routing
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
        let built = try HierarchyBuilder(space: space).build()
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

    /// One-to-many routes (`HierarchySearch.routes(from:to:within:)`) are the pair search's very routes: the same
    /// edges, time and length for every target under its limit (a longer one may be nil), on the Bayreuth extract for
    /// both profiles and on a street grid, where equally fast paths abound.
    func testOneToManyRoutesAreThePairRoutes() throws {
        var random = SplitMix64(state: 99)
        for name in ["car", "foot"] {
            let search = try hierarchy(name)
            let starts = try stops(12, profile: search.space.profile, seed: 11), targets = try stops(60, profile: search.space.profile, seed: 12)
            for start in starts {
                let all = targets + [start, targets[0]]
                let limits = all.indices.map { $0 % 2 == 0 ? Double.infinity : Double.random(in: 0...900, using: &random) }
                try assertPairRoutes(search, from: start, to: all, within: limits, name)
            }
        }
        // A street grid mirrored about the equator: its junctions' many equally fast paths are found by the pair search
        // in its own order, and unpacked from the one-to-many trees they would often differ.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-many-routes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let graph = try RoadGraph(path: StreetGrid.importGraph(size: 14, into: folder, firstLatitude: -0.0009 * 6.5))
        let space = SearchGraph(graph: graph, profile: try XCTUnwrap(graph.profile(named: "foot")))
        let search = try XCTUnwrap(HierarchySearch(states: HierarchyStates(space: space), hierarchy: ContractionHierarchy(try HierarchyBuilder(space: space).build())))
        let snapper = Snapper(graph: graph, profile: space.profile)
        // Junctions and points part-way along the streets, so routes start and end on nodes and on edges.
        var points: [SearchEndpoint] = []
        for _ in 0..<60 {
            let c = Coordinate(latitude: -0.00585 + Double.random(in: 0...0.0117, using: &random), longitude: 7 + Double.random(in: 0...0.01651, using: &random))
            let node = Int.random(in: 0..<graph.nodeCount, using: &random)
            let onNode = Coordinate(latitudeE7: graph.nodeLatitudes[node], longitudeE7: graph.nodeLongitudes[node])
            for p in [c, onNode] { if let s = snapper.snap(p) { points.append(SearchEndpoint(s, in: graph)) } }
        }
        var pairSearches = 0, parted = 0
        for start in points.prefix(20) {
            pairSearches += try assertPairRoutes(search, from: start, to: points, within: Array(repeating: .infinity, count: points.count), "grid")
            let unresolved = try search.routes(from: start, to: points, within: Array(repeating: .infinity, count: points.count), resolvingTies: false).routes
            for (j, target) in points.enumerated() where unresolved[j]?.traversals != search.route(from: start, to: target)?.traversals { parted += 1 }
        }
        XCTAssertGreaterThan(pairSearches, 100, "ties are seen")
        XCTAssertGreaterThan(parted, 20, "tied routes taken from the trees would differ from the pair search's")
        XCTAssertThrowsError(try search.routes(from: points[0], to: points, within: Array(repeating: .infinity, count: points.count),
                                               deadline: SearchDeadline(seconds: 0))) { XCTAssertEqual($0 as? RoutingError, .timedOut) }
    }

    /// Asserts `routes(from:to:within:)` gives the pair routes; returns how many targets needed a pair search.
    @discardableResult
    private func assertPairRoutes(_ search: HierarchySearch, from start: SearchEndpoint, to targets: [SearchEndpoint], within limits: [Double],
                                  _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let (found, pairSearches) = try search.routes(from: start, to: targets, within: limits, resolvingTies: true)
        XCTAssertEqual(found.count, targets.count, file: file, line: line)
        for (j, target) in targets.enumerated() {
            let pair = search.route(from: start, to: target)
            if let route = found[j] {
                XCTAssertEqual(route.traversals, pair?.traversals, "\(name) target \(j): another path", file: file, line: line)
                XCTAssertEqual(route.duration, pair?.duration, "\(name) target \(j)", file: file, line: line)
                XCTAssertEqual(route.distance, pair?.distance, "\(name) target \(j)", file: file, line: line)
            } else if let pair, pair.duration < limits[j] - 1 {
                XCTFail("\(name) target \(j): no route under the limit, the pair search found one of \(pair.duration) s", file: file, line: line)
            }
        }
        return pairSearches
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
        let a = try HierarchyBuilder(space: space).build(), b = try HierarchyBuilder(space: space).build()
        XCTAssertEqual(a.up, b.up)
        XCTAssertEqual(a.down, b.down)
        XCTAssertGreaterThan(a.shortcutCount, 0)
    }

    /// A network far denser than roads (every node of one set joined to every node of another: its contraction grows
    /// with the fourth power of the nodes, hours at a few thousand) is refused once the contraction passes its budget,
    /// naming the profile and what to do; a real map is far inside the same budget, and its hierarchy the same.
    func testAContractionPastItsBudgetIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-dense-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var xml = "<osm version=\"0.6\">\n", way = 1
        for i in 0..<20 {
            xml += "<node id=\"\(i + 1)\" lat=\"\(43.70 + 0.002 * Double(i))\" lon=\"7.40\"/><node id=\"\(i + 101)\" lat=\"\(43.70 + 0.002 * Double(i))\" lon=\"7.43\"/>\n"
        }
        for i in 0..<20 {
            for j in 0..<20 {
                xml += "<way id=\"\(way)\"><nd ref=\"\(i + 1)\"/><nd ref=\"\(j + 101)\"/><tag k=\"highway\" v=\"residential\"/></way>\n"
                way += 1
            }
        }
        xml += "</osm>\n"
        let dense = folder.appendingPathComponent("dense.osm").path
        try xml.write(toFile: dense, atomically: true, encoding: .utf8)
        // A budget of 1,000 an arc: Bayreuth's car network takes a few hundred; the dense one passes it.
        var tight = HierarchyExtension()
        tight.workPerArc = 1000
        tight.workFloor = 0
        var importer = GraphImporter()
        importer.extensions = [tight]
        XCTAssertThrowsError(try importer.run(input: dense, output: folder.appendingPathComponent("dense.wfg").path)) { error in
            guard case let .extensionError(inner)? = error as? GraphImporter.Failure, let tooDense = inner as? HierarchyTooDense else {
                return XCTFail("expected HierarchyTooDense, got \(error)")
            }
            XCTAssertEqual(tooDense.budget, 1000 * tooDense.arcs)
            XCTAssertTrue(tooDense.description.contains("profile '"), tooDense.description)
            XCTAssertTrue(tooDense.description.contains("--no-ch"), tooDense.description)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("dense.wfg").path), "nothing is written")
        let graph = try SearchCorrectnessTests.bayreuth()
        let space = SearchGraph(graph: graph, profile: try XCTUnwrap(graph.profile(named: "car")))
        var builder = HierarchyBuilder(space: space)
        builder.workPerArc = 1000
        builder.workFloor = 0
        XCTAssertEqual(try builder.build().up, try HierarchyBuilder(space: space).build().up)
    }

    /// A profile name of the longest length allowed gives section names, its own and its hierarchy's, that fit the
    /// graph file's (a name of 11 or 12 letters, allowed before, trapped writing `<name>.ch_down_first`); such a
    /// profile imports with its hierarchy and routes.
    func testTheLongestProfileNameFitsEverySection() throws {
        let name = String(repeating: "p", count: GraphSectionName.maxProfileNameLength)
        let profile = GraphSectionName.Profile(name)
        let names = HierarchySectionNames(name).all + [profile.timeForward, profile.timeBackward, profile.firstIncidence, profile.incidence,
            profile.island, profile.landmarkFrom, profile.landmarkTo, profile.landmarkNodes, profile.restrictionKinds, profile.restrictionStart,
            profile.restrictionPath]
        XCTAssertEqual(names.map(\.utf8.count).max(), GraphFileFormat.maxNameLength)
        var table = TravelProfile.foot
        table.name = name
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-long-name-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("g.wfg").path
        var importer = GraphImporter(profiles: [table])
        importer.extensions = [HierarchyExtension()]
        _ = try importer.run(input: sample("monaco.osm.gz"), output: output)
        let router = try Router(graph: try RoadGraph(path: output), profile: name)
        XCTAssertNotNil(router.hierarchy)
        XCTAssertNoThrow(try router.routes(through: [Coordinate(latitude: 43.7384, longitude: 7.4246), Coordinate(latitude: 43.7315, longitude: 7.4197)]))
    }
}
