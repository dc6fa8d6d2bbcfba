import Foundation
import Graph
import Routing
import XCTest

/// The one-to-many search against `RouteSearch.route` for each pair: random targets from a few sources on Monaco
/// and north of Bayreuth (one-ways, turn restrictions, barriers), both profiles, plus targets on nodes, on the
/// start's own edge, on the start itself and unreachable ones.
final class OneToManyTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-onetomany-\(getpid())")
    nonisolated(unsafe) static var graphs: [String: RoadGraph] = [:]

    static func graph(_ name: String) throws -> RoadGraph {
        if let graph = graphs[name] { return graph }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let input = root.appendingPathComponent("Data/\(name).osm.gz").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("\(name).wfg").path
        _ = try GraphImporter().run(input: input, output: output)
        let opened = try RoadGraph(path: output)
        graphs[name] = opened
        return opened
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }


    /// Random sources, each with ~100 random targets (some moved exactly onto a node, some on the source's edge,
    /// one the source itself); every target's duration equals `RouteSearch`'s within 0.1 s, reachability agrees,
    /// and distances agree for most targets (they may differ where two routes tie on time).
    func compare(_ extract: String, profile name: String, box: (ClosedRange<Double>, ClosedRange<Double>), sources: Int = 3,
                 targets: Int = 100, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        let graph = try Self.graph(extract)
        let profile = try XCTUnwrap(graph.profile(named: name))
        let space = SearchGraph(graph: graph, profile: profile)
        let single = RouteSearch(space: space)
        let many = OneToManySearch(space: space)
        let snapper = Snapper(graph: graph, profile: profile)
        var random = SplitMix64(state: seed)
        func randomEndpoint() -> SearchEndpoint? {
            let c = Coordinate(latitude: Double.random(in: box.0, using: &random), longitude: Double.random(in: box.1, using: &random))
            guard let snapped = snapper.snap(c) else { return nil }
            return SearchEndpoint(snapped, in: graph)
        }
        var compared = 0, reached = 0, distancesEqual = 0, onNodes = 0, sameEdge = 0
        for _ in 0..<sources {
            // Sources on the main network, so that most targets are reachable (a random point's nearest road may lie
            // on a small island, and the raw search does not move it).
            var source: SearchEndpoint?
            while source == nil || !snapper.isOnMainNetwork(source!.edge) { source = randomEndpoint() }
            let start = source!
            var list: [SearchEndpoint] = [start]
            // Targets on the start's own edge, ahead and behind.
            for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let e = start.edge
                let node: Int? = fraction == 0 ? Int(graph.edgeFrom[e]) : fraction == 1 ? Int(graph.edgeTo[e]) : nil
                list.append(SearchEndpoint(edge: e, fraction: fraction, node: node, coordinate: start.coordinate))
                sameEdge += 1
            }
            while list.count < targets {
                guard var target = randomEndpoint() else { continue }
                if Int.random(in: 0..<5, using: &random) == 0 {
                    // Exactly on the edge's from node.
                    let n = Int(graph.edgeFrom[target.edge])
                    target = SearchEndpoint(edge: target.edge, fraction: 0, node: n,
                                            coordinate: Coordinate(latitudeE7: graph.nodeLatitudes[n], longitudeE7: graph.nodeLongitudes[n]))
                    onNodes += 1
                }
                list.append(target)
            }
            let results = many.routes(from: start, to: list)
            XCTAssertEqual(results.count, list.count, file: file, line: line)
            for (i, target) in list.enumerated() {
                compared += 1
                let expected = single.route(from: start, to: target)
                XCTAssertEqual(results[i] == nil, expected == nil, "\(extract) \(name) target \(i): reachability differs", file: file, line: line)
                guard let got = results[i], let expected else { continue }
                reached += 1
                XCTAssertEqual(got.duration, expected.duration, accuracy: 0.1, "\(extract) \(name) target \(i) \(target)", file: file, line: line)
                if abs(got.distance - expected.distance) < 0.5 { distancesEqual += 1 }
                // Dijkstra for the pair picks the very same route among ties.
                if let plain = single.route(from: start, to: target, useHeuristic: false) {
                    XCTAssertEqual(got.duration, plain.duration, accuracy: 1e-6, file: file, line: line)
                    XCTAssertEqual(got.distance, plain.distance, accuracy: 0.01, "\(extract) \(name) target \(i)", file: file, line: line)
                }
            }
            XCTAssertEqual(results[0], OneToManyEntry(duration: 0, distance: 0), "the start itself", file: file, line: line)
            // Per-target bounds: every route shorter than its bound comes out the same; longer ones may be nil.
            var rng = SplitMix64(state: seed ^ 0x5eed)
            let bounds = list.indices.map { i in i % 3 == 0 ? Double.infinity : Double(Int.random(in: 0...900, using: &rng)) }
            let bounded = many.routes(from: start, to: list, within: bounds)
            for i in list.indices {
                if let full = results[i], full.duration < bounds[i] {
                    XCTAssertEqual(bounded[i], full, "\(extract) \(name) target \(i) within \(bounds[i]) s", file: file, line: line)
                } else if results[i] == nil {
                    XCTAssertNil(bounded[i], file: file, line: line)
                } else if let got = bounded[i] {
                    XCTAssertEqual(got, results[i], "a route found beyond its bound is still the fastest", file: file, line: line)
                }
            }
        }
        XCTAssertGreaterThan(reached, compared * 7 / 10, "most targets are reachable", file: file, line: line)
        XCTAssertGreaterThan(distancesEqual, reached * 9 / 10, "distances match the route's where it is unique", file: file, line: line)
        XCTAssertGreaterThan(onNodes, 0, file: file, line: line)
        XCTAssertGreaterThan(sameEdge, 0, file: file, line: line)
    }

    static let monacoBox = (43.725...43.748, 7.410...7.437)
    static let bayreuthBox = (49.960...50.050, 11.460...11.629)

    func testMonacoCar() throws { try compare("monaco", profile: "car", box: Self.monacoBox, seed: 1) }
    func testMonacoFoot() throws { try compare("monaco", profile: "foot", box: Self.monacoBox, seed: 2) }
    func testBayreuthCar() throws { try compare("north-bayreuth", profile: "car", box: Self.bayreuthBox, seed: 3) }
    func testBayreuthFoot() throws { try compare("north-bayreuth", profile: "foot", box: Self.bayreuthBox, seed: 4) }

    func testEmptyTargetsAndSettlingStopsEarly() throws {
        let graph = try Self.graph("north-bayreuth")
        let profile = try XCTUnwrap(graph.profile(named: "car"))
        let space = SearchGraph(graph: graph, profile: profile)
        let many = OneToManySearch(space: space)
        let snapper = Snapper(graph: graph, profile: profile)
        let a = SearchEndpoint(try XCTUnwrap(snapper.snap(Coordinate(latitude: 50.00, longitude: 11.55))), in: graph)
        let near = SearchEndpoint(try XCTUnwrap(snapper.snap(Coordinate(latitude: 50.003, longitude: 11.552))), in: graph)
        XCTAssertEqual(many.routes(from: a, to: []), [])
        let nearOnly = many.routesCountingSettled(from: a, to: [near])
        let everything = many.routesCountingSettled(from: a, to: [near, SearchEndpoint(try XCTUnwrap(snapper.snap(Coordinate(latitude: 50.045, longitude: 11.47))), in: graph)])
        XCTAssertNotNil(nearOnly.results[0])
        XCTAssertEqual(nearOnly.results[0], everything.results[0])
        XCTAssertLessThan(nearOnly.settled, everything.settled, "a near target alone settles fewer states")
    }
}
