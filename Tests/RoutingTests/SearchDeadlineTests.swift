import Dispatch
import Foundation
import Graph
import Routing
import XCTest
import TestSupport

/// `SearchDeadline` inside every road search: a deadline already past (or a raised cancellation) stops each search
/// with `RoutingError.timedOut` (`.cancelled`) before it answers, a deadline that passes mid-search stops it there,
/// and `.none` or a far deadline changes no answer. On Monaco, imported once with its contraction hierarchy.
final class SearchDeadlineTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-deadline-\(getpid())")
    nonisolated(unsafe) static var opened: RoadGraph?

    static func monaco() throws -> RoadGraph {
        if let opened { return opened }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("monaco.wfg").path
        var importer = GraphImporter()
        importer.extensions = [HierarchyExtension()]
        _ = try importer.run(input: root.appendingPathComponent("Data/monaco.osm.gz").path, output: output)
        let graph = try RoadGraph(path: output)
        opened = graph
        return graph
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// Casino, port, Fontvieille, Larvotto.
    static let places = [Coordinate(latitude: 43.7395, longitude: 7.4270), Coordinate(latitude: 43.7312, longitude: 7.4197),
                         Coordinate(latitude: 43.7275, longitude: 7.4150), Coordinate(latitude: 43.7450, longitude: 7.4330)]
    static let past = SearchDeadline(uptimeNanoseconds: 0)

    /// Asserts that `body` throws `expected` (a routing error), naming `what` otherwise.
    func assertStops<T>(_ what: String, _ expected: RoutingError = .timedOut, line: UInt = #line, _ body: () throws(RoutingError) -> T) {
        do {
            _ = try body()
            XCTFail("\(what): answered past its deadline", line: line)
        } catch {
            XCTAssertEqual(error, expected, what, line: line)
        }
    }

    func testDeadlineValues() {
        XCTAssertFalse(SearchDeadline.none.canExpire)
        XCTAssertEqual(SearchDeadline.none.secondsLeft, .infinity)
        XCTAssertNoThrow(try SearchDeadline.none.check())
        XCTAssertFalse(SearchDeadline(seconds: .nan).canExpire)
        XCTAssertFalse(SearchDeadline(seconds: .infinity).canExpire)
        XCTAssertFalse(SearchDeadline(seconds: 2e9).canExpire)
        let soon = SearchDeadline(seconds: 60)
        XCTAssertTrue(soon.canExpire)
        XCTAssertGreaterThan(soon.secondsLeft, 59)
        XCTAssertLessThanOrEqual(soon.secondsLeft, 60)
        XCTAssertNoThrow(try soon.check())
        XCTAssertLessThan(SearchDeadline(seconds: -5).secondsLeft, 0)
        XCTAssertThrowsError(try SearchDeadline(seconds: -5).check()) { XCTAssertEqual($0 as? RoutingError, .timedOut) }
        XCTAssertThrowsError(try Self.past.check()) { XCTAssertEqual($0 as? RoutingError, .timedOut) }
        let flag = SearchCancellation()
        let cancellable = SearchDeadline(seconds: 60, cancellation: flag)
        XCTAssertNoThrow(try cancellable.check())
        flag.cancel()
        XCTAssertTrue(flag.isCancelled)
        XCTAssertThrowsError(try cancellable.check()) { XCTAssertEqual($0 as? RoutingError, .cancelled) }
        XCTAssertTrue(SearchDeadline(cancellation: SearchCancellation()).canExpire)
        XCTAssertTrue(RoutingError.timedOut.description.contains("time limit"))
        XCTAssertTrue(RoutingError.cancelled.description.contains("cancelled"))
    }

    /// Every search and every Router entry point, given a deadline already past, throws `.timedOut`; given a raised
    /// cancellation, `.cancelled`; given a deadline an hour away, answers exactly as without one.
    func testEverySearchStopsAtAPastDeadlineOrACancellation() throws {
        let graph = try Self.monaco()
        for useHierarchy in [true, false] {
            let router = try Router(graph: graph, profile: "car", useHierarchy: useHierarchy)
            XCTAssertEqual(router.hierarchy != nil, useHierarchy)
            let stops = try router.snapStops(Self.places)
            let endpoints = stops.map { SearchEndpoint($0.nearest, in: graph) }
            let cancelled = SearchCancellation()
            cancelled.cancel()
            let label = useHierarchy ? "hierarchy" : "no hierarchy"
            for (deadline, expected) in [(Self.past, RoutingError.timedOut), (SearchDeadline(cancellation: cancelled), .cancelled)] {
                assertStops("A* (\(label))", expected) { () throws(RoutingError) in try router.search.route(from: endpoints[0], to: endpoints[1], deadline: deadline) }
                assertStops("Dijkstra (\(label))", expected) { () throws(RoutingError) in
                    try router.search.route(from: endpoints[0], to: endpoints[1], useHeuristic: false, deadline: deadline)
                }
                assertStops("one-to-many (\(label))", expected) { () throws(RoutingError) in
                    try OneToManySearch(space: router.search.space).routes(from: endpoints[0], to: endpoints, deadline: deadline)
                }
                if let hierarchy = router.hierarchy {
                    assertStops("hierarchy route", expected) { () throws(RoutingError) in try hierarchy.route(from: endpoints[0], to: endpoints[1], deadline: deadline) }
                    assertStops("hierarchy time", expected) { () throws(RoutingError) in try hierarchy.time(from: endpoints[0], to: endpoints[1], deadline: deadline) }
                    assertStops("bucket matrix", expected) { () throws(RoutingError) in
                        try MatrixSearch(search: hierarchy).matrix(from: endpoints, to: endpoints, deadline: deadline)
                    }
                }
                assertStops("Router.fastest (\(label))", expected) { () throws(RoutingError) in try router.fastest(from: endpoints[0], to: endpoints[1], deadline: deadline) }
                assertStops("Router.routes (\(label))", expected) { () throws(RoutingError) in try router.routes(through: stops, deadline: deadline) }
                assertStops("Router.routes with alternatives (\(label))", expected) { () throws(RoutingError) in
                    try router.routes(through: Array(stops.prefix(2)), alternatives: 2, deadline: deadline)
                }
                assertStops("Router.routes(options:) (\(label))", expected) { () throws(RoutingError) in
                    try router.routes(through: Self.places, options: RouteOptions(deadline: deadline))
                }
                assertStops("Router.matrix (\(label))", expected) { () throws(RoutingError) in try router.matrix(from: stops, to: stops, deadline: deadline) }
                assertStops("Router.matrix(options:) (\(label))", expected) { () throws(RoutingError) in
                    try router.matrix(sources: Self.places, destinations: Self.places, options: MatrixOptions(deadline: deadline))
                }
                assertStops("Router.trip (\(label))", expected) { () throws(RoutingError) in
                    try router.trip(through: Self.places, options: MatrixOptions(deadline: deadline))
                }
            }
            // A far deadline answers as no deadline does.
            let far = SearchDeadline(seconds: 3600)
            XCTAssertEqual(try router.routes(through: stops, alternatives: 1, deadline: far).routes, try router.routes(through: stops, alternatives: 1).routes, label)
            XCTAssertEqual(try router.matrix(from: stops, to: stops, deadline: far), router.matrix(from: stops, to: stops), label)
            XCTAssertEqual(try router.trip(through: Self.places, options: MatrixOptions(deadline: far)).order, try router.trip(through: Self.places).order, label)
            XCTAssertEqual(try router.search.route(from: endpoints[0], to: endpoints[3], deadline: far), router.search.route(from: endpoints[0], to: endpoints[3]), label)
        }
    }

    /// The trip planner's large-trip heuristic stops at the deadline too (an exact trip is too quick to need to).
    func testTripPlannerStopsAtTheDeadline() throws {
        let n = 300
        var random = SplitMix64(state: 3)
        let times = (0..<(n * n)).map { _ in Double.random(in: 1...1000, using: &random) }
        let planner = TripPlanner(shape: .roundtrip)
        assertStops("trip planner") { () throws(RoutingError) in try planner.order(count: n, time: { times[$0 * n + $1] }, deadline: Self.past) }
        XCTAssertEqual(try planner.order(count: n, time: { times[$0 * n + $1] }, deadline: SearchDeadline(seconds: 3600)),
                       planner.order(count: n) { times[$0 * n + $1] })
    }

    /// A street grid of `size` × `size` junctions 100 m apart (a row and a column way through each), imported without
    /// a hierarchy: a graph large enough that its searches run many check intervals.
    static func grid(size: Int) throws -> RoadGraph {
        try RoadGraph(path: StreetGrid.importGraph(size: size, into: folder))
    }

    /// A deadline that passes while a search runs stops it there, well before the search would have ended: plain
    /// Dijkstra corner to corner of an 80 × 80 street grid, and the one-to-many search to targets on every 7th edge
    /// (it settles the whole grid), each timed without a deadline first and then given a tenth of that time.
    func testADeadlinePassingMidSearchStopsTheSearch() throws {
        let graph = try Self.grid(size: 80)
        let router = try Router(graph: graph, profile: "foot", useHierarchy: false)
        let snapped = try router.snapStops([Coordinate(latitude: 45, longitude: 7), Coordinate(latitude: 45 + 0.0009 * 79, longitude: 7 + 0.00127 * 79)])
        let start = SearchEndpoint(snapped[0].nearest, in: graph), end = SearchEndpoint(snapped[1].nearest, in: graph)
        let targets = stride(from: 0, to: graph.edgeCount, by: 7).map { e in
            let n = Int(graph.edgeFrom[e])
            return SearchEndpoint(edge: e, fraction: 0.5, node: nil, coordinate: Coordinate(latitudeE7: graph.nodeLatitudes[n], longitudeE7: graph.nodeLongitudes[n]))
        }
        let oneToMany = OneToManySearch(space: router.search.space)
        XCTAssertGreaterThan(oneToMany.routesCountingSettled(from: start, to: targets).settled, 20 * SearchDeadline.interval, "the graph is too small for this test")
        XCTAssertGreaterThan(try XCTUnwrap(router.search.route(from: start, to: end, useHeuristic: false)).settled, 20 * SearchDeadline.interval)
        func seconds(_ body: () -> Void) -> Double {
            let began = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        }
        let searches: [(String, (SearchDeadline) throws(RoutingError) -> Void)] = [
            ("Dijkstra", { deadline throws(RoutingError) in _ = try router.search.route(from: start, to: end, useHeuristic: false, deadline: deadline) }),
            ("one-to-many", { deadline throws(RoutingError) in _ = try oneToMany.routes(from: start, to: targets, deadline: deadline) }),
        ]
        for (name, search) in searches {
            let whole = seconds { try? search(.none) }
            let share = whole / 10
            var stopped: RoutingError? = nil
            let took = seconds {
                do throws(RoutingError) { try search(SearchDeadline(seconds: share)) } catch { stopped = error }
            }
            XCTAssertEqual(stopped, .timedOut, "\(name): the whole search takes \(whole) s, it was given \(share) s")
            XCTAssertLessThan(took, whole / 2, "\(name): stopped after \(took) s of \(whole) s")
        }
    }
}
