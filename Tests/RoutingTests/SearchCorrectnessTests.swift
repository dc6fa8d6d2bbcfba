import Foundation
import Graph
import Routing
import XCTest

/// The A* search against the plain reference Dijkstra on many random stop pairs over a real extract with
/// one-ways and turn restrictions (north of Bayreuth: 38 via-node restrictions, motorways).
final class SearchCorrectnessTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-routingtests-\(getpid())")
    nonisolated(unsafe) static var graph: RoadGraph?

    static func bayreuth() throws -> RoadGraph {
        if let graph { return graph }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let input = root.appendingPathComponent("Data/north-bayreuth.osm.gz").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("bayreuth.wfg").path
        _ = try GraphImporter().run(input: input, output: output)
        let opened = try RoadGraph(path: output)
        graph = opened
        return opened
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }


    func compareOnRandomPairs(profile name: String, pairs: Int, seed: UInt64) throws {
        let graph = try Self.bayreuth()
        let profile = try XCTUnwrap(graph.profile(named: name))
        let space = SearchGraph(graph: graph, profile: profile)
        let search = RouteSearch(space: space)
        let reference = ReferenceDijkstra(space: space)
        let snapper = Snapper(graph: graph, profile: profile)
        var random = SplitMix64(state: seed)
        // The dense part of the extract (its 1st–99th percentile box).
        let latitudes = (49.960, 50.050), longitudes = (11.460, 11.629)
        func randomStop() -> SnappedLocation? {
            let c = Coordinate(latitude: Double.random(in: latitudes.0...latitudes.1, using: &random),
                               longitude: Double.random(in: longitudes.0...longitudes.1, using: &random))
            return snapper.snap(c)
        }
        var compared = 0, routed = 0, restrictedTurnsNearby = 0
        while compared < pairs {
            guard let a = randomStop(), let b = randomStop() else { continue }
            compared += 1
            let start = SearchEndpoint(a, in: graph), target = SearchEndpoint(b, in: graph)
            let fast = search.route(from: start, to: target)
            let slow = reference.duration(from: start, to: target)
            XCTAssertEqual(fast == nil, slow == nil, "pair \(compared): reachability differs \(a.location) → \(b.location)")
            guard let fast, let slow else { continue }
            routed += 1
            XCTAssertEqual(fast.duration, slow, accuracy: 0.1, "pair \(compared): \(a.location) → \(b.location)")
            // The route is a connected sequence of edges, each in a direction the profile may use.
            for (x, y) in zip(fast.traversals, fast.traversals.dropFirst()) {
                let head = x.reversed ? graph.edgeFrom[x.edge] : graph.edgeTo[x.edge]
                let tail = y.reversed ? graph.edgeTo[y.edge] : graph.edgeFrom[y.edge]
                XCTAssertEqual(head, tail, "pair \(compared): traversals do not connect")
            }
            for t in fast.traversals {
                XCTAssertNotEqual(t.reversed ? profile.timeBackward[t.edge] : profile.timeForward[t.edge], closedEdge, "closed direction used")
                for r in 0..<profile.restrictionCount where profile.restriction(r).path.contains(UInt32(t.edge) << 1) { restrictedTurnsNearby += 1 }
            }
            // Dijkstra without the bound gives the same time.
            let plain = search.route(from: start, to: target, useHeuristic: false)
            XCTAssertEqual(plain?.duration ?? -1, fast.duration, accuracy: 0.1)
        }
        XCTAssertGreaterThan(routed, pairs * 8 / 10, "most random pairs are connected")
        if name == "car" { XCTAssertGreaterThan(restrictedTurnsNearby, 0, "some routes pass edges with turn restrictions") }
    }

    func testCarMatchesReferenceOn1000RandomPairs() throws {
        try compareOnRandomPairs(profile: "car", pairs: 1000, seed: 42)
    }

    func testFootMatchesReferenceOn1000RandomPairs() throws {
        try compareOnRandomPairs(profile: "foot", pairs: 1000, seed: 7)
    }

    func testSearchIsDeterministic() throws {
        let graph = try Self.bayreuth()
        let profile = try XCTUnwrap(graph.profile(named: "car"))
        let search = RouteSearch(space: SearchGraph(graph: graph, profile: profile))
        let snapper = Snapper(graph: graph, profile: profile)
        let a = try XCTUnwrap(snapper.snap(Coordinate(latitude: 49.99, longitude: 11.50)))
        let b = try XCTUnwrap(snapper.snap(Coordinate(latitude: 50.03, longitude: 11.60)))
        let first = search.route(from: SearchEndpoint(a, in: graph), to: SearchEndpoint(b, in: graph))
        for _ in 0..<5 {
            XCTAssertEqual(search.route(from: SearchEndpoint(a, in: graph), to: SearchEndpoint(b, in: graph)), first)
        }
        XCTAssertNotNil(first)
    }
}
