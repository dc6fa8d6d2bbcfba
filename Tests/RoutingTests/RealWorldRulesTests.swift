import Foundation
import XCTest
import Graph
@testable import Routing
import TestSupport

/// The rules that make answers hold on real data (docs/profiles.md): the nearest road first, off a small island
/// only for a leg with no route; U-turns by car only at dead ends (a clipped way's cut end included); clipped
/// ways and the restrictions they break. Maps on a 10 m grid; every route is checked against the hierarchy (by
/// `DrawnMap`) and against `IndependentReference`, which reads the map's OSM file on its own.
final class RealWorldRulesTests: XCTestCase {
    static let residential = ["highway": "residential"]
    static func residential(_ extra: [String: String]) -> [String: String] { residential.merging(extra) { $1 } }

    /// The car profile as it was before the U-turn rule: turning back anywhere (to show what the rule prevents).
    static var carTurningAnywhere: TravelProfile {
        var car = TravelProfile.car
        car.uTurns = .anywhere
        return car
    }

    /// The seconds `IndependentReference` gives for the leg from `a` to `b` (nil: no route).
    func referenceSeconds(_ map: DrawnMap, _ mode: IndependentReference.Mode, _ a: Coordinate, _ b: Coordinate) throws -> Double? {
        let reference = try IndependentReference(path: map.osmPath)
        let net = reference.network(mode)
        let from = try XCTUnwrap(reference.stop(net, latitude: a.latitude, longitude: a.longitude))
        let to = try XCTUnwrap(reference.stop(net, latitude: b.latitude, longitude: b.longitude))
        return reference.leg(net, from: from, to: to)
    }

    /// Asserts the engine's route (or its absence) from `a` to `b` agrees with the reference.
    func assertReferenceAgrees(_ map: DrawnMap, _ mode: IndependentReference.Mode, _ a: Coordinate, _ b: Coordinate,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try referenceSeconds(map, mode, a, b)
        let found = try? map.router(mode.rawValue).routes(through: [a, b]).routes[0].expectedTravelTime
        XCTAssertEqual(found == nil, expected == nil, "engine \(String(describing: found)), reference \(String(describing: expected))", file: file, line: line)
        if let found, let expected { XCTAssertEqual(found, expected, accuracy: 0.01, file: file, line: line) }
    }

    // MARK: Nearest road first

    /// A one-way loop p→q→r→s→p entered from the street at b by the one-way b→p: reachable, but no way back, so it is
    /// a small island (its own strongly connected part). A stop 3 m from p–q and 17 m from the street stays on p–q
    /// when the leg reaches it; only the leg leaving it, which has no route from there, starts from the street.
    static let oneWayLoop = """
        w---a-------b-------c---v
                    |
                    p-------q
                    |       |
                    s-------r
        """

    func oneWayLoopMap() throws -> DrawnMap {
        try DrawnMap(Self.oneWayLoop, ways: [("wa", Self.residential), ("abc", Self.residential), ("cv", Self.residential),
                                              ("bp", Self.residential(["oneway": "yes"])), ("pqrsp", Self.residential(["oneway": "yes"]))], hierarchy: true)
    }

    func testOneWayLoopNextToTheStreetKeepsTheNearestRoadWhenItIsReached() throws {
        let map = try oneWayLoopMap()
        let stop = DrawnMap.offset(map.point("p", "q", 0.5), north: 3)
        let router = try map.router("car")
        let snapped = try XCTUnwrap(router.snapper.snapStop(stop))
        XCTAssertEqual(snapped.nearest.distance, 3, accuracy: 0.01)
        XCTAssertFalse(router.snapper.isOnMainNetwork(snapped.nearest.edge), "the loop is a small island")
        XCTAssertEqual(try XCTUnwrap(snapped.offIsland).distance, 17, accuracy: 0.01)
        // To the stop: the nearest road is reached, so it is kept (the old rule moved the stop to the street).
        let (routes, waypoints) = try map.routes("car", [map.coordinate("a"), stop])
        XCTAssertRoute(map, routes[0], letters: "abp", seconds: map.seconds("abp", kmh: Speed.residential) + map.seconds("pq", kmh: Speed.residential) / 2)
        XCTAssertEqual(waypoints[1].snappingDistance, 3, accuracy: 0.01)
        try assertReferenceAgrees(map, .car, map.coordinate("a"), stop)
        // From the stop: no route leaves the loop, so this leg starts from the street, 40 m east of b.
        let (back, stops) = try map.routes("car", [stop, map.coordinate("a")])
        XCTAssertRoute(map, back[0], letters: "ba", seconds: map.seconds("ba", kmh: Speed.residential) + map.seconds("bc", kmh: Speed.residential) / 2)
        XCTAssertEqual(stops[0].snappingDistance, 17, accuracy: 0.01)
        try assertReferenceAgrees(map, .car, stop, map.coordinate("a"))
        // There and back again: each leg on its own.
        let round = try map.route("car", [map.coordinate("a"), stop, map.coordinate("a")])
        XCTAssertEqual(round.legs.count, 2)
        XCTAssertEqual(round.legs[0].distance, 80 + 20 + 40, accuracy: 0.05)
        XCTAssertEqual(round.legs[1].distance, 40 + 80, accuracy: 0.05)
        // The matrix and ETA entries are legs too.
        let matrix = try router.matrix(sources: [map.coordinate("a"), stop], destinations: [map.coordinate("a"), stop])
        XCTAssertEqual(try XCTUnwrap(matrix.matrix.duration(0, 1)), routes[0].expectedTravelTime, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(matrix.matrix.duration(1, 0)), back[0].expectedTravelTime, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(matrix.matrix.duration(1, 1)), 0, accuracy: 0.01)
    }

    /// A fragment f–g joined to nothing, 20 m below the block: a stop 5 m from it and 15 m from d–e has no route from
    /// its nearest road to the block, so the leg moves it to d–e (within 50 m more); to g it stays on the fragment.
    static let blockAndFragment = """
        a-------b-------c
        |               |
        d---------------e

            f-------g
        """

    func blockMap() throws -> DrawnMap {
        try DrawnMap(Self.blockAndFragment, ways: [("ab", Self.residential), ("bc", Self.residential), ("ce", Self.residential),
                                                    ("ed", Self.residential), ("da", Self.residential), ("fg", Self.residential)], hierarchy: true)
    }

    func testTrueIslandFallsBackToTheMainNetworkOnlyForTheLegThatNeedsIt() throws {
        let map = try blockMap()
        let stop = DrawnMap.offset(map.point("f", "g", 0.5), north: 5)
        for profile in ["car", "foot"] {
            let (routes, waypoints) = try map.routes(profile, [stop, map.coordinate("a")])
            XCTAssertEqual(waypoints[0].snappingDistance, 15, accuracy: 0.01, profile)
            XCTAssertEqual(waypoints[0].location.distance(to: map.point("d", "e", 0.5)), 0, accuracy: 0.01, profile)
            XCTAssertEqual(routes[0].distance, 80 + 20, accuracy: 0.05, profile)
            let within = try map.routes(profile, [stop, map.coordinate("g")])
            XCTAssertEqual(within.waypoints[0].snappingDistance, 5, accuracy: 0.01, profile)
            XCTAssertEqual(within.routes[0].distance, 40, accuracy: 0.05, profile)
        }
        try assertReferenceAgrees(map, .car, stop, map.coordinate("a"))
        try assertReferenceAgrees(map, .foot, map.coordinate("c"), stop)
        // A snapping limit (the server's radiuses) below the main network's distance keeps the stop where it is.
        let router = try map.router("car")
        XCTAssertNil(try XCTUnwrap(router.snapper.snapStop(stop, maxDistance: 10)).offIsland)
        XCTAssertEqual(DrawnMap.routingError { try router.routes(through: [stop, map.coordinate("a")], options: RouteOptions(maxSnappingDistance: 10)) },
                       .noRoute(leg: 0, from: stop, to: map.coordinate("a"), profile: "car"))
    }

    /// The same fragment 100 m below the block, a stop 2 m from it: the main network is beyond the 50 m tolerance, so
    /// the leg to it has no route, and the error names that leg.
    func testIslandBeyondTheToleranceHasNoRouteNamingTheLeg() throws {
        let map = try DrawnMap("""
            a-------b-------c
            |               |
            d---------------e









                f-------g
            """, ways: [("ab", Self.residential), ("bc", Self.residential), ("ce", Self.residential),
                        ("ed", Self.residential), ("da", Self.residential), ("fg", Self.residential)], hierarchy: true)
        let stop = DrawnMap.offset(map.point("f", "g", 0.5), north: 2)
        XCTAssertNil(try map.router("car").snapper.snapStop(stop)?.offIsland)
        let stops = [map.coordinate("a"), map.coordinate("c"), stop]
        let error = try XCTUnwrap(DrawnMap.routingError { try map.routes("car", stops) })
        XCTAssertEqual(error, .noRoute(leg: 1, from: map.coordinate("c"), to: stop, profile: "car"))
        XCTAssertTrue(error.description.contains("leg 2"), error.description)
        XCTAssertNil(try referenceSeconds(map, .car, map.coordinate("c"), stop))
        let matrix = try map.router("car").matrix(sources: [map.coordinate("a")], destinations: [stop])
        XCTAssertNil(matrix.matrix.duration(0, 0))
    }

    // MARK: U-turns

    /// f → t straight on from f–x along the via way x–y is forbidden (no_straight_on, via way). Turning back twice on
    /// the via street (at y, then at x) used to dodge it: arriving at y the second time came from x–y after a U-turn,
    /// not from f–x. A car now turns back only at a dead end, so it takes the long way round (360 m, not 320 m).
    static let viaWayDodge = """
        f---x-------y---t
            |       |
            |       |
            |       |
            |       |
            g       h
            |       |
            |       |
            |       |
            |       |
            k-------m
        """

    func viaWayDodgeMap(profiles: [TravelProfile] = [.car, .foot]) throws -> DrawnMap {
        try DrawnMap(Self.viaWayDodge, ways: [("fx", Self.residential), ("xy", Self.residential), ("yt", Self.residential),
                                               ("xgk", Self.residential), ("km", Self.residential), ("mhy", Self.residential)],
                       relations: [.restriction("no_straight_on", from: "fx", viaWays: ["xy"], to: "yt")], profiles: profiles, hierarchy: true)
    }

    func testViaWayRestrictionIsNoLongerDodgedWithTwoUTurns() throws {
        let map = try viaWayDodgeMap()
        let route = try map.route("car", from: "f", to: "t")
        XCTAssertRoute(map, route, letters: "fxgkmhyt", seconds: map.seconds("fxgkmhyt", kmh: Speed.residential))
        XCTAssertEqual(route.distance, 360, accuracy: 0.05)
        XCTAssertFalse(route.steps.contains { $0.maneuver == .uturn }, "\(route.steps.map(\.instructions))")
        try assertReferenceAgrees(map, .car, map.coordinate("f"), map.coordinate("t"))
        // Turning back anywhere, the car would dodge the restriction on the via street.
        let old = try viaWayDodgeMap(profiles: [Self.carTurningAnywhere, .foot])
        let dodge = try old.route("car", from: "f", to: "t")
        XCTAssertEqual(old.letters(of: dodge), "fxyxyt")
        XCTAssertEqual(dodge.distance, 320, accuracy: 0.05)
        XCTAssertEqual(dodge.steps.filter { $0.maneuver == .uturn }.count, 2)
        // Walkers ignore restrictions.
        XCTAssertEqual(map.letters(of: try map.route("foot", from: "f", to: "t")), "fxyt")
    }

    /// A car road x–b–c where a cycleway b–z joins at b: b has two car edges, so it is no dead end and a car may not
    /// turn back there. Barred from turning left at x (no_left_turn), the car coming up from s turns at the dead end c.
    static let cyclewayJunction = """
        a---x-------b---c
            |       |
            s       z
        """

    func testNoUTurnWhereACarRoadMeetsACycleway() throws {
        let ways: [(String, [String: String])] = [("ax", Self.residential), ("xb", Self.residential), ("bc", Self.residential),
                                                  ("sx", Self.residential), ("bz", ["highway": "cycleway"])]
        let relations: [DrawnMap.Relation] = [.restriction("no_left_turn", from: "sx", via: "x", to: "ax")]
        let map = try DrawnMap(Self.cyclewayJunction, ways: ways, relations: relations, hierarchy: true)
        let start = map.point("s", "x", 0.5), stop = map.point("a", "x", 0.5)
        let route = try map.route("car", [start, stop])
        XCTAssertRoute(map, route, letters: "xbcbx", seconds: map.seconds("sx", kmh: Speed.residential) / 2
                       + map.seconds("xbcbx", kmh: Speed.residential) + map.seconds("xa", kmh: Speed.residential) / 2)
        XCTAssertEqual(route.steps.filter { $0.maneuver == .uturn }.count, 1, "one U-turn, at the dead end c")
        try assertReferenceAgrees(map, .car, start, stop)
        // Turning back anywhere, the car would turn at the cycleway.
        let old = try DrawnMap(Self.cyclewayJunction, ways: ways, relations: relations, profiles: [Self.carTurningAnywhere, .foot], hierarchy: true)
        XCTAssertEqual(old.letters(of: try old.route("car", [start, stop])), "xbx")
        // Walkers turn anywhere (and ignore the restriction).
        XCTAssertEqual(map.letters(of: try map.route("foot", [start, stop])), "x")
    }

    /// The street x–b–c–m–n runs on beyond the edge of a clipped extract: with m missing from the file, c is the cut end
    /// of the way, a dead end, and the car (barred from turning left at x) turns there instead of at n.
    static let clippedStreet = """
        a---x-------b---c---m-------n
            |       |
            s       z
        """

    func testAClippedWayEndIsADeadEndWhereACarMayTurn() throws {
        let ways: [(String, [String: String])] = [("ax", Self.residential), ("xb", Self.residential), ("bcmn", Self.residential),
                                                  ("sx", Self.residential), ("bz", ["highway": "cycleway"])]
        let relations: [DrawnMap.Relation] = [.restriction("no_left_turn", from: "sx", via: "x", to: "ax")]
        let whole = try DrawnMap(Self.clippedStreet, ways: ways, relations: relations, hierarchy: true)
        // The same drawing, so the same points in both maps.
        let start = whole.point("s", "x", 0.5), stop = whole.point("a", "x", 0.5)
        XCTAssertEqual(whole.letters(of: try whole.route("car", [start, stop])), "xbcmnmcbx")
        let clipped = try DrawnMap(Self.clippedStreet, ways: ways, relations: relations, omit: "m", hierarchy: true)
        XCTAssertEqual(clipped.statistics.waysWithMissingNodes, 1)
        XCTAssertEqual(clipped.statistics.segmentsDropped, 2)
        let route = try clipped.route("car", [start, stop])
        XCTAssertRoute(clipped, route, letters: "xbcbx", seconds: clipped.seconds("sx", kmh: Speed.residential) / 2
                       + clipped.seconds("xbcbx", kmh: Speed.residential) + clipped.seconds("xa", kmh: Speed.residential) / 2)
        try assertReferenceAgrees(clipped, .car, start, stop)
        try assertReferenceAgrees(whole, .car, start, stop)
        // The piece beyond the gap, n alone, has no segment left: nothing of it remains.
        XCTAssertNil(clipped.node("n"))
    }

    // MARK: Restrictions broken by clipping

    /// only_straight_on from a–x at x onto x–y–b–e. In the whole file it forbids turning into c (the car goes on to
    /// the dead end e, turns and comes back); clipped so that y is missing, the to-way's piece left (b–e) no longer
    /// touches x: the restriction is skipped and counted, and the turn into c is free. A restriction whose to-way is
    /// not in the file at all is skipped too, counted as a missing member.
    static let cutToWay = """
        a---x---y---b---e
            |
            c
        """

    func testARestrictionWhoseToWayWasCutIsSkippedAndCounted() throws {
        let ways: [(String, [String: String])] = [("ax", Self.residential), ("xc", Self.residential), ("xybe", Self.residential)]
        let onlyStraightOn = DrawnMap.Relation.restriction("only_straight_on", from: "ax", via: "x", to: "xybe")
        let toAbsentWay = DrawnMap.Relation(members: [.way("ax", role: "from"), .node("x", role: "via"), .wayID(999, role: "to")],
                                              tags: ["type": "restriction", "restriction": "no_right_turn"])
        let whole = try DrawnMap(Self.cutToWay, ways: ways, relations: [onlyStraightOn, toAbsentWay], hierarchy: true)
        XCTAssertEqual(whole.statistics.restrictionsSkipped, 1)
        XCTAssertEqual(whole.statistics.restrictionSkips?.missingMember, 1)
        XCTAssertEqual(whole.route("car", from: "a", to: "c", or: -1), 40 + 120 + 120 + 20, accuracy: 0.05)

        let clipped = try DrawnMap(Self.cutToWay, ways: ways, relations: [onlyStraightOn, toAbsentWay], omit: "y", hierarchy: true)
        XCTAssertEqual(clipped.statistics.restrictionsSkipped, 2)
        XCTAssertEqual(clipped.statistics.restrictionSkips, {
            var skips = ImportStatistics.RestrictionSkips()
            skips.missingMember = 1
            skips.disconnected = 1
            return skips
        }())
        XCTAssertEqual(try XCTUnwrap(clipped.graph.profile(named: "car")).restrictionCount, 0)
        let route = try clipped.route("car", from: "a", to: "c")
        XCTAssertRoute(clipped, route, letters: "axc", seconds: clipped.seconds("axc", kmh: Speed.residential))
        try assertReferenceAgrees(clipped, .car, clipped.coordinate("a"), clipped.coordinate("c"))
        try assertReferenceAgrees(whole, .car, whole.coordinate("a"), whole.coordinate("c"))
    }
}

extension DrawnMap {
    /// The length of the best car route between two letters, or `missing` when there is none.
    func route(_ name: String, from: Character, to: Character, or missing: Double) -> Double {
        (try? route(name, from: from, to: to).distance) ?? missing
    }
}
