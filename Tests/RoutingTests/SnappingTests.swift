import Foundation
import XCTest
import Graph
@testable import Routing
import TestSupport

/// Snapping stops to the road network (docs/profiles.md, "Snapping a query coordinate"): the nearest point of the
/// nearest usable segment, partial edges costing their fraction of the edge's time, stops on nodes, the distance
/// limit, and the island rule (the nearest road first; off a small island only when a leg finds no route). Maps are drawn on a 10 m grid.
final class SnappingTests: XCTestCase {
    static let residential = ["highway": "residential"]

    // MARK: Nearest point of the nearest segment

    /// The long street a–x–y–b (x and y are shape points) passes 12 m north of the query; the dead end c, a node,
    /// lies 18 m south of it.
    static let streetAndDeadEnd = """
        a---x-----y---------b
                            |
                            |
              c             |
              |             |
              d-------------e
        """

    func testSnapsToTheNearestPointOfTheNearestSegmentNotTheNearestNode() throws {
        let map = try DrawnMap(Self.streetAndDeadEnd, ways: [("axyb", Self.residential), ("be", Self.residential), ("edc", Self.residential)], hierarchy: true)
        let router = try map.router("car")
        let foot = map.point("a", "b", 0.3)
        let query = DrawnMap.offset(foot, north: -12)
        let snapped = try XCTUnwrap(router.snapper.snap(query))
        XCTAssertEqual(snapped.distance, 12, accuracy: 0.01)
        XCTAssertEqual(snapped.location.distance(to: foot), 0, accuracy: 0.01)
        XCTAssertEqual(snapped.query, query)
        let (e, backwards) = try XCTUnwrap(edge(map, "axyb"))
        XCTAssertEqual(snapped.edge, e)
        XCTAssertEqual(snapped.fraction, backwards ? 0.7 : 0.3, accuracy: 1e-4, "fraction of the edge's length")
        // On the segment x–y (the second of a–x–y–b), a third of the way along it.
        XCTAssertEqual(snapped.segment, 1)
        XCTAssertEqual(snapped.segmentFraction, backwards ? 2.0 / 3 : 1.0 / 3, accuracy: 1e-4)
        // The way's dead end c is nearer than a or b, but farther than the street.
        XCTAssertLessThan(query.distance(to: map.coordinate("c")), query.distance(to: map.coordinate("a")))
        XCTAssertEqual(query.distance(to: map.coordinate("c")), 18, accuracy: 0.01)
        // The route from the query starts at the snapped point.
        let (routes, waypoints) = try map.routes("car", [query, map.coordinate("b")])
        XCTAssertEqual(waypoints[0].location.distance(to: foot), 0, accuracy: 0.01)
        XCTAssertEqual(waypoints[0].snappingDistance, 12, accuracy: 0.01)
        XCTAssertEqual(routes[0].distance, 140, accuracy: 0.05)
        XCTAssertEqual(routes[0].polyline.first!.distance(to: foot), 0, accuracy: 0.01)
    }

    func testSnapsOnlyToRoadsTheModeMayUse() throws {
        // a–b is a footway 5 m from the query, c–d a street 15 m from it.
        let map = try DrawnMap("""
            a-------b

            c-------d
            """, ways: [("ab", ["highway": "footway"]), ("cd", Self.residential), ("ac", ["highway": "footway"])], hierarchy: true)
        let query = DrawnMap.offset(map.point("a", "b", 0.5), north: -5)
        let car = try XCTUnwrap(try map.router("car").snapper.snap(query))
        XCTAssertEqual(car.distance, 15, accuracy: 0.01)
        XCTAssertEqual(car.location.distance(to: map.point("c", "d", 0.5)), 0, accuracy: 0.01)
        let foot = try XCTUnwrap(try map.router("foot").snapper.snap(query))
        XCTAssertEqual(foot.distance, 5, accuracy: 0.01)
        XCTAssertEqual(foot.location.distance(to: map.point("a", "b", 0.5)), 0, accuracy: 0.01)
    }

    // MARK: Partial edges

    /// The 200 m street a–b and a way round the block a–c–d–b (240 m).
    static let longBlock = """
        a-------------------b
        |                   |
        c-------------------d
        """

    func testPartOfAnEdgeCostsItsFractionOfTheEdgeTime() throws {
        let map = try DrawnMap(Self.longBlock, ways: [("ab", Self.residential), ("acdb", Self.residential)], hierarchy: true)
        let p = map.point("a", "b", 0.25), q = map.point("a", "b", 0.75)
        for (profile, kmh) in [("car", Speed.residential), ("foot", Speed.foot)] {
            let edgeTime = map.seconds("ab", kmh: kmh)
            for (from, to) in [(p, q), (q, p)] {
                let route = try map.route(profile, [from, to])
                XCTAssertEqual(route.expectedTravelTime, 0.5 * edgeTime, accuracy: 0.005, profile)
                XCTAssertEqual(route.distance, 100, accuracy: 0.01, profile)
                XCTAssertEqual(route.polyline.count, 2, profile)
                XCTAssertEqual(route.polyline.first!.distance(to: from), 0, accuracy: 0.01)
                XCTAssertEqual(route.polyline.last!.distance(to: to), 0, accuracy: 0.01)
                let traversals = route.legs[0].traversals
                XCTAssertEqual(traversals.count, 1)
                XCTAssertEqual(abs(traversals[0].endFraction - traversals[0].startFraction), 0.5, accuracy: 1e-6)
            }
        }
        // Unequal parts: 10 % of the edge, from a node to a point and from a point to a node.
        let tenth = map.point("a", "b", 0.1)
        XCTAssertEqual(try map.route("car", [map.coordinate("a"), tenth]).expectedTravelTime, 0.1 * map.seconds("ab", kmh: Speed.residential), accuracy: 0.005)
        XCTAssertEqual(try map.route("car", [tenth, map.coordinate("a")]).expectedTravelTime, 0.1 * map.seconds("ab", kmh: Speed.residential), accuracy: 0.005)
        XCTAssertEqual(try map.route("car", [tenth, map.coordinate("b")]).expectedTravelTime, 0.9 * map.seconds("ab", kmh: Speed.residential), accuracy: 0.005)
        XCTAssertEqual(try map.route("car", [map.coordinate("b"), tenth]).expectedTravelTime, 0.9 * map.seconds("ab", kmh: Speed.residential), accuracy: 0.005)
        // From off the edge: into it from a (via the block) and from b.
        let c = map.coordinate("c")
        XCTAssertEqual(try map.route("car", [c, tenth]).expectedTravelTime, map.seconds("ca", kmh: Speed.residential) + 0.1 * map.seconds("ab", kmh: Speed.residential), accuracy: 0.005)
        let d = map.coordinate("d"), nine = map.point("a", "b", 0.9)
        XCTAssertEqual(try map.route("car", [d, nine]).expectedTravelTime, map.seconds("db", kmh: Speed.residential) + 0.1 * map.seconds("ab", kmh: Speed.residential), accuracy: 0.005)
    }

    func testPartialEdgesOnAOneWay() throws {
        let map = try DrawnMap(Self.longBlock, ways: [("ab", Self.residential.merging(["oneway": "yes"]) { $1 }), ("acdb", Self.residential)], hierarchy: true)
        let p = map.point("a", "b", 0.25), q = map.point("a", "b", 0.75)
        let edgeTime = map.seconds("ab", kmh: Speed.residential)
        let forward = try map.route("car", [p, q])
        XCTAssertEqual(forward.expectedTravelTime, 0.5 * edgeTime, accuracy: 0.005)
        // Backwards: on to b, round the block, then from a to p.
        let backward = try map.route("car", [q, p])
        XCTAssertRoute(map, backward, letters: "bdca", seconds: 0.25 * edgeTime + map.seconds("bdca", kmh: Speed.residential) + 0.25 * edgeTime, accuracy: 0.005)
        XCTAssertEqual(backward.distance, 50 + 240 + 50, accuracy: 0.05)
        // On foot the one-way does not apply.
        XCTAssertEqual(try map.route("foot", [q, p]).expectedTravelTime, 0.5 * map.seconds("ab", kmh: Speed.foot), accuracy: 0.005)
    }

    func testPartialEdgeCostUsesLengthAlongABentEdge() throws {
        // a–k–b bends at the shape point k: 40 m east, then 30 m south. The stop at k is 4/7 of the way.
        let map = try DrawnMap("""
            a---k
                |
                |
                b
            """, ways: [("akb", Self.residential)], hierarchy: true)
        let route = try map.route("car", [map.coordinate("a"), map.coordinate("k")])
        XCTAssertEqual(route.distance, 40, accuracy: 0.01)
        XCTAssertEqual(route.expectedTravelTime, map.seconds("ak", kmh: Speed.residential), accuracy: 0.005)
        let snapped = try XCTUnwrap(try map.router("car").snapper.snap(map.coordinate("k")))
        XCTAssertNil(SearchEndpoint(snapped, in: map.graph).node, "a shape point is no graph node")
        XCTAssertEqual(min(snapped.fraction, 1 - snapped.fraction), 3.0 / 7, accuracy: 1e-4)
    }

    // MARK: Stops on nodes

    func testStopExactlyOnANodeStartsThereFreeToUseAnyEdge() throws {
        // Left from a–b into b–d is forbidden; a stop exactly on b is not arriving along a–b.
        let map = try DrawnMap("""
                d
                |
            a---b---c
            """, ways: [("ab", Self.residential), ("bc", Self.residential), ("bd", Self.residential)],
            relations: [.restriction("no_left_turn", from: "ab", via: "b", to: "bd")], hierarchy: true)
        let router = try map.router("car")
        let snapped = try XCTUnwrap(router.snapper.snap(map.coordinate("b")))
        XCTAssertEqual(snapped.distance, 0)
        XCTAssertEqual(snapped.location, map.coordinate("b"))
        XCTAssertEqual(SearchEndpoint(snapped, in: map.graph).node, map.node("b"))
        XCTAssertTrue(snapped.fraction == 0 || snapped.fraction == 1)
        XCTAssertRoute(map, try map.route("car", from: "b", to: "d"), letters: "bd", seconds: map.seconds("bd", kmh: Speed.residential))
        XCTAssertRoute(map, try map.route("car", from: "b", to: "a"), letters: "ba", seconds: map.seconds("ba", kmh: Speed.residential))
        XCTAssertRoute(map, try map.route("car", from: "b", to: "c"), letters: "bc", seconds: map.seconds("bc", kmh: Speed.residential))
        // Just short of b on a–b, the car arrives along a–b: on to c, turn, back to b, then d.
        let short = map.point("a", "b", 0.9)
        XCTAssertRoute(map, try map.route("car", [short, map.coordinate("d")]), letters: "bcbd",
                       seconds: 0.1 * map.seconds("ab", kmh: Speed.residential) + map.seconds("bcbd", kmh: Speed.residential))
        // Ending on b: every edge into b may be the last.
        XCTAssertRoute(map, try map.route("car", from: "d", to: "b"), letters: "db", seconds: map.seconds("db", kmh: Speed.residential))
    }

    // MARK: Distance limit

    func testTooFarFromAnyRoadIsNoRoadNamingTheStop() throws {
        let map = try DrawnMap(Self.longBlock, ways: [("ab", Self.residential)], hierarchy: true)
        let near = DrawnMap.offset(map.point("a", "b", 0.5), north: 900)
        let far = DrawnMap.offset(map.point("a", "b", 0.5), north: 1100)
        let snapped = try XCTUnwrap(try map.router("car").snapper.snap(near))
        XCTAssertEqual(snapped.distance, 900, accuracy: 0.1)
        XCTAssertEqual(try map.routes("car", [near, map.coordinate("a")]).waypoints[0].snappingDistance, 900, accuracy: 0.1)

        let error = DrawnMap.routingError { try map.route("car", [map.coordinate("a"), near, far]) }
        XCTAssertEqual(error, .noRoad(stop: 2, coordinate: far, profile: "car", maxDistance: 1000))
        let text = error?.description ?? ""
        XCTAssertTrue(text.contains("stop 3"), text)
        XCTAssertTrue(text.contains(String(format: "%.6f,%.6f", far.latitude, far.longitude)), text)
        XCTAssertTrue(text.contains("1000 m"), text)
        XCTAssertEqual(DrawnMap.routingError { try map.route("foot", [far, map.coordinate("a")]) },
                       .noRoad(stop: 0, coordinate: far, profile: "foot", maxDistance: 1000))
        // The limit is configurable.
        let options = RouteOptions(maxSnappingDistance: 500)
        XCTAssertEqual(DrawnMap.routingError { try map.routes("car", [map.coordinate("a"), near], options: options) },
                       .noRoad(stop: 1, coordinate: near, profile: "car", maxDistance: 500))
        XCTAssertNoThrow(try map.routes("car", [map.coordinate("a"), far], options: RouteOptions(maxSnappingDistance: 1200)))
    }

    // MARK: Islands

    /// The main network is the 200 m square a–b–f–e; c–d (30 m inside its top side) and g–h (in its middle) are
    /// small unconnected fragments.
    static let squareWithFragments = """
        a-------------------b
        |                   |
        |                   |
        |     c-------d     |
        |                   |
        |                   |
        |                   |
        |                   |
        |                   |
        |                   |
        |       g---h       |
        |                   |
        |                   |
        |                   |
        |                   |
        |                   |
        |                   |
        |                   |
        |                   |
        |                   |
        e-------------------f
        """

    func squareMap() throws -> DrawnMap {
        try DrawnMap(Self.squareWithFragments, ways: [("ab", Self.residential), ("bf", Self.residential), ("fe", Self.residential),
                                                         ("ea", Self.residential), ("cd", Self.residential), ("gh", Self.residential)], hierarchy: true)
    }

    /// 10 m from the fragment c–d, 20 m from a–b: the stop snaps to its nearest road, the fragment. A leg that finds
    /// no route from there (to the corner e) is searched again from a–b, within the 50 m tolerance; a leg that does
    /// find one (to d, on the fragment) keeps the nearest road.
    func testFragmentSlightlyCloserThanTheMainNetworkIsLeftOnlyWhenTheLegHasNoRoute() throws {
        let map = try squareMap()
        let query = DrawnMap.offset(map.point("a", "b", 0.5), north: -20)
        for profile in ["car", "foot"] {
            let router = try map.router(profile)
            let snapped = try XCTUnwrap(router.snapper.snap(query))
            XCTAssertEqual(snapped.distance, 10, accuracy: 0.01, profile)
            XCTAssertFalse(router.snapper.isOnMainNetwork(snapped.edge))
            let moved = try XCTUnwrap(router.snapper.offIsland(snapped), profile)
            XCTAssertEqual(moved.distance, 20, accuracy: 0.01, profile)
            XCTAssertEqual(moved.location.distance(to: map.point("a", "b", 0.5)), 0, accuracy: 0.01, profile)
            XCTAssertTrue(router.snapper.isOnMainNetwork(moved.edge))
            // Without the tolerance the stop cannot move.
            var strict = router.snapper
            strict.islandTolerance = 0
            XCTAssertNil(strict.offIsland(snapped))
        }
        // So the stop can be routed to the corner e, from a–b…
        let (routes, waypoints) = try map.routes("car", [query, map.coordinate("e")])
        XCTAssertEqual(routes[0].distance, 100 + 200, accuracy: 0.05)
        XCTAssertEqual(waypoints[0].location.distance(to: map.point("a", "b", 0.5)), 0, accuracy: 0.01)
        // …and to d from the fragment itself (its nearest road).
        let (within, stops) = try map.routes("car", [query, map.coordinate("d")])
        XCTAssertEqual(within[0].distance, 40, accuracy: 0.05)
        XCTAssertEqual(stops[0].snappingDistance, 10, accuracy: 0.01)
    }

    func testFragmentMuchCloserKeepsTheStop() throws {
        let map = try squareMap()
        // 2 m from g–h, at least 80 m from the square.
        let query = DrawnMap.offset(map.point("g", "h", 0.5), north: -2)
        let snapped = try XCTUnwrap(try map.router("car").snapper.snap(query))
        XCTAssertEqual(snapped.distance, 2, accuracy: 0.01)
        XCTAssertEqual(snapped.location.distance(to: map.point("g", "h", 0.5)), 0, accuracy: 0.01)
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", [query, map.coordinate("e")]) },
                       .noRoute(leg: 0, from: query, to: map.coordinate("e"), profile: "car"))
        // Within the fragment routing works.
        XCTAssertEqual(try map.route("car", [query, map.coordinate("h")]).distance, 20, accuracy: 0.05)
    }

    /// A parking aisle c–q–d joined to the main street only through the bollard p: an island for cars, not for walkers.
    static let parkingLot = """
        e---a---------x---------b---f
                      |
                      p
                      |
              c-------q-------d
        """

    func parkingMap() throws -> DrawnMap {
        let service = ["highway": "service", "service": "parking_aisle"]
        return try DrawnMap(Self.parkingLot, ways: [("ea", Self.residential), ("ax", Self.residential), ("xb", Self.residential),
                                                      ("bf", Self.residential), ("xpq", ["highway": "service"]),
                                                      ("cq", service), ("qd", service)],
                              nodes: ["p": ["barrier": "bollard"]], hierarchy: true)
    }

    func testParkingAisleBehindABollardMovesCarsToTheStreetWhenTheLegHasNoRoute() throws {
        let map = try parkingMap()
        // 2 m south of the aisle, 42 m south of the street.
        let query = DrawnMap.offset(map.point("c", "q", 0.5), north: -2)
        let car = try XCTUnwrap(try map.router("car").snapper.snapStop(query))
        XCTAssertEqual(car.nearest.distance, 2, accuracy: 0.01)
        let street = try XCTUnwrap(car.offIsland)
        XCTAssertEqual(street.distance, 42, accuracy: 0.01)
        XCTAssertEqual(street.location.distance(to: map.point("a", "x", 0.6)), 0, accuracy: 0.01)
        // No car route leaves the aisle, so the leg starts from the street.
        let carRoute = try map.route("car", [query, map.coordinate("e")])
        XCTAssertRoute(map, carRoute, letters: "ae", seconds: 0.6 * map.seconds("ax", kmh: Speed.residential) + map.seconds("ae", kmh: Speed.residential))
        // Within the aisle the nearest road is kept.
        XCTAssertEqual(try map.route("car", [query, map.coordinate("d")]).distance, 40 + 80, accuracy: 0.05)

        let foot = try XCTUnwrap(try map.router("foot").snapper.snapStop(query))
        XCTAssertEqual(foot.nearest.distance, 2, accuracy: 0.01)
        XCTAssertNil(foot.offIsland, "for walkers the aisle is on the main network")
        let walk = try map.route("foot", [query, map.coordinate("e")])
        XCTAssertRoute(map, walk, letters: "qpxae", seconds: map.seconds("cq", kmh: Speed.foot) / 2 + map.seconds("qpxae", kmh: Speed.foot))
    }

    func testCarCannotLeaveTheAisleThroughTheBollard() throws {
        let map = try parkingMap()
        let router = try map.router("car")
        // The search itself, between the nearest roads: a stop on the aisle cannot reach the street.
        let strict = router.snapper
        let aisle = try XCTUnwrap(strict.snap(map.point("c", "q", 0.5)))
        let street = try XCTUnwrap(strict.snap(map.coordinate("e")))
        XCTAssertNil(router.search.route(from: SearchEndpoint(aisle, in: map.graph), to: SearchEndpoint(street, in: map.graph)))
        XCTAssertNil(router.search.route(from: SearchEndpoint(street, in: map.graph), to: SearchEndpoint(aisle, in: map.graph)))
        // A car may drive up to the bollard and no further.
        let bollard = try XCTUnwrap(strict.snap(map.coordinate("p")))
        XCTAssertNotNil(router.search.route(from: SearchEndpoint(street, in: map.graph), to: SearchEndpoint(bollard, in: map.graph)))
    }

    // MARK: Helpers

    /// The edge whose polyline runs through the letters of `path` (either way), and whether it is stored backwards.
    func edge(_ map: DrawnMap, _ path: String) -> (Int, Bool)? {
        let points = path.map(map.coordinate)
        for e in 0..<map.graph.edgeCount {
            let polyline = map.graph.coordinates(ofEdge: e)
            if polyline == points { return (e, false) }
            if polyline == points.reversed() { return (e, true) }
        }
        return nil
    }
}
