import Foundation
import XCTest
import Graph
@testable import Routing
import TestSupport

/// How routes behave on small drawn maps: one-ways, roundabouts, barriers, turn restrictions (via node and via way),
/// U-turns, multi-stop legs, alternatives and straight lines. Every map is drawn on a 10 m grid (one column east,
/// one line south); expected durations are the drawn lengths over the profile's speeds (docs/profiles.md).
final class RouterBehaviourTests: XCTestCase {
    static let residential = ["highway": "residential"]
    static func residential(_ extra: [String: String]) -> [String: String] { residential.merging(extra) { $1 } }

    // MARK: One-ways and roundabouts

    /// A one-way block: `ab` runs from a to b only; `acdb` goes round the block both ways.
    static let block = """
        a-------b
        |       |
        c-------d
        """

    func testCarCannotDriveAgainstAOneWayAndGoesAround() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential(["oneway": "yes"])), ("acdb", Self.residential)], hierarchy: true)
        XCTAssertRoute(map, try map.route("car", from: "a", to: "b"), letters: "ab", seconds: map.seconds("ab", kmh: Speed.residential))
        XCTAssertRoute(map, try map.route("car", from: "b", to: "a"), letters: "bdca", seconds: map.seconds("bdca", kmh: Speed.residential))
    }

    func testOnewayMinusOneRunsAgainstTheDrawing() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential(["oneway": "-1"])), ("acdb", Self.residential)], hierarchy: true)
        XCTAssertRoute(map, try map.route("car", from: "a", to: "b"), letters: "acdb", seconds: map.seconds("acdb", kmh: Speed.residential))
        XCTAssertRoute(map, try map.route("car", from: "b", to: "a"), letters: "ba", seconds: map.seconds("ba", kmh: Speed.residential))
    }

    func testFootIgnoresOneway() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential(["oneway": "yes"])), ("acdb", Self.residential)], hierarchy: true)
        XCTAssertRoute(map, try map.route("foot", from: "b", to: "a"), letters: "ba", seconds: map.seconds("ba", kmh: Speed.foot))
    }

    func testOnewayFootIsHonouredOnFoot() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", ["highway": "footway", "oneway:foot": "yes"]), ("acdb", ["highway": "footway"])], hierarchy: true)
        XCTAssertRoute(map, try map.route("foot", from: "a", to: "b"), letters: "ab", seconds: map.seconds("ab", kmh: Speed.foot))
        XCTAssertRoute(map, try map.route("foot", from: "b", to: "a"), letters: "bdca", seconds: map.seconds("bdca", kmh: Speed.foot))
    }

    /// A roundabout drawn counter-clockwise from b: b → a → h → g → f → e → d → c → b, with arms x (north),
    /// y (west) and z (east).
    static let roundabout = """
              x
              |
          a---b---c
          |       |
        y-h       d-z
          |       |
          g---f---e
        """

    func roundaboutMap() throws -> DrawnMap {
        try DrawnMap(Self.roundabout, ways: [
            ("bahgfedcb", ["highway": "tertiary", "junction": "roundabout"]),
            ("xb", Self.residential), ("yh", Self.residential), ("dz", Self.residential),
        ], hierarchy: true)
    }

    func testRoundaboutIsDrivenInItsDirectionOnly() throws {
        let map = try roundaboutMap()
        // x → z: three quarters of the way round, since b → c → d would go against the roundabout.
        XCTAssertRoute(map, try map.route("car", from: "x", to: "z"), letters: "xbahgfedz",
                       seconds: map.seconds("xb", kmh: Speed.residential) + map.seconds("bahgfed", kmh: Speed.tertiary)
                           + map.seconds("dz", kmh: Speed.residential))
        // z → x: the short way, with the roundabout.
        XCTAssertRoute(map, try map.route("car", from: "z", to: "x"), letters: "zdcbx",
                       seconds: map.seconds("zd", kmh: Speed.residential) + map.seconds("dcb", kmh: Speed.tertiary)
                           + map.seconds("bx", kmh: Speed.residential))
        // y → x: h → g → … → b, not h → a → b.
        XCTAssertEqual(map.letters(of: try map.route("car", from: "y", to: "x")), "yhgfedcbx")
    }

    func testWalkersCrossTheRoundaboutEitherWay() throws {
        let map = try roundaboutMap()
        XCTAssertRoute(map, try map.route("foot", from: "x", to: "z"), letters: "xbcdz", seconds: map.seconds("xbcdz", kmh: Speed.foot))
    }

    // MARK: Barriers

    /// A street a–b–c with a node b that may hold a barrier, and a way round the block a–d–e–c.
    static let barrierBlock = """
        a---b---c
        |       |
        d-------e
        """

    func barrierMap(_ barrier: [String: String], aroundTheBlock: Bool = true) throws -> DrawnMap {
        var ways = [("abc", Self.residential)]
        if aroundTheBlock { ways.append(("adec", Self.residential)) }
        return try DrawnMap(Self.barrierBlock, ways: ways, nodes: ["b": barrier], hierarchy: true)
    }

    func testCarCannotPassABollardAndGoesAround() throws {
        let map = try barrierMap(["barrier": "bollard"])
        XCTAssertRoute(map, try map.route("car", from: "a", to: "c"), letters: "adec", seconds: map.seconds("adec", kmh: Speed.residential))
        XCTAssertRoute(map, try map.route("car", from: "c", to: "a"), letters: "ceda", seconds: map.seconds("ceda", kmh: Speed.residential))
        // A stop beyond the bollard, seen from the same street: reached only round the block.
        let before = map.point("a", "b", 0.5), beyond = map.point("b", "c", 0.5)
        XCTAssertRoute(map, try map.route("car", [before, beyond]), letters: "adec",
                       seconds: map.seconds("adec", kmh: Speed.residential) + map.seconds("ab", kmh: Speed.residential)) // half of a–b, half of b–c
    }

    func testWalkersPassABollardAndAGate() throws {
        for barrier in ["bollard", "gate", "lift_gate", "block"] {
            let map = try barrierMap(["barrier": barrier])
            XCTAssertRoute(map, try map.route("foot", from: "a", to: "c"), letters: "abc", seconds: map.seconds("abc", kmh: Speed.foot))
        }
    }

    func testCarsPassAGate() throws {
        for barrier in ["gate", "lift_gate", "toll_booth", "cattle_grid"] {
            let map = try barrierMap(["barrier": barrier])
            XCTAssertRoute(map, try map.route("car", from: "a", to: "c"), letters: "abc", seconds: map.seconds("abc", kmh: Speed.residential))
        }
    }

    func testFenceBlocksWalkersAndCars() throws {
        let map = try barrierMap(["barrier": "fence"])
        XCTAssertRoute(map, try map.route("foot", from: "a", to: "c"), letters: "adec", seconds: map.seconds("adec", kmh: Speed.foot))
        XCTAssertRoute(map, try map.route("car", from: "a", to: "c"), letters: "adec", seconds: map.seconds("adec", kmh: Speed.residential))
    }

    func testFootNoOnANodeBlocksWalkers() throws {
        let map = try barrierMap(["barrier": "gate", "foot": "no"])
        XCTAssertEqual(map.letters(of: try map.route("foot", from: "a", to: "c")), "adec")
        XCTAssertEqual(map.letters(of: try map.route("car", from: "a", to: "c")), "abc")
    }

    func testBollardThatAllowsCarsIsPassable() throws {
        let map = try barrierMap(["barrier": "bollard", "motor_vehicle": "yes"])
        XCTAssertEqual(map.letters(of: try map.route("car", from: "a", to: "c")), "abc")
    }

    func testStopBeyondABollardWithNoWayRoundIsUnreachableByCar() throws {
        let map = try barrierMap(["barrier": "bollard"], aroundTheBlock: false)
        let before = map.point("a", "b", 0.5), beyond = map.point("b", "c", 0.5)
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", [before, beyond]) },
                       .noRoute(leg: 0, from: before, to: beyond, profile: "car"))
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", from: "a", to: "c") },
                       .noRoute(leg: 0, from: map.coordinate("a"), to: map.coordinate("c"), profile: "car"))
        // The bollard itself may be the end of a route, and walkers get through.
        XCTAssertRoute(map, try map.route("car", from: "a", to: "b"), letters: "ab", seconds: map.seconds("ab", kmh: Speed.residential))
        XCTAssertRoute(map, try map.route("foot", [before, beyond]), letters: "b", seconds: map.seconds("abc", kmh: Speed.foot) / 2)
    }

    /// A car arriving at a bollard may turn back there: coming up from s it may not turn left at y, so it drives
    /// to the bollard b, turns and comes back past y to the stop on a–y. (The dead end s is two-way: a one-way
    /// leading out of a dead end would be a one-way trap, an island the snapper avoids.)
    func testCarTurnsBackAtABollard() throws {
        let map = try DrawnMap("""
            a---y---b---c
                |
                s
            """, ways: [("ay", Self.residential), ("yb", Self.residential), ("bc", Self.residential), ("sy", Self.residential)],
            nodes: ["b": ["barrier": "bollard"]],
            relations: [.restriction("no_left_turn", from: "sy", via: "y", to: "ay")], hierarchy: true)
        let start = map.point("s", "y", 0.5), stop = map.point("a", "y", 0.5)
        XCTAssertRoute(map, try map.route("car", [start, stop]), letters: "yby",
                       seconds: map.seconds("sy", kmh: Speed.residential) / 2 + 2 * map.seconds("yb", kmh: Speed.residential)
                           + map.seconds("ya", kmh: Speed.residential) / 2)
    }

    /// A stop on the bollard itself ends the leg there, from either side; the next leg leaves it back the way the
    /// car came (it may turn at the bollard), never past it.
    func testStopOnABollardIsLeftTheWayTheCarCame() throws {
        let map = try barrierMap(["barrier": "bollard"])
        let route = try map.route("car", [map.coordinate("a"), map.coordinate("b"), map.coordinate("c")])
        XCTAssertEqual(map.letters(of: route.legs[0].geometry), "ab")
        XCTAssertEqual(map.letters(of: route.legs[1].geometry), "badec")
        XCTAssertRoute(map, route, letters: "abadec", seconds: map.seconds("abadec", kmh: Speed.residential))
        let back = try map.route("car", [map.coordinate("c"), map.coordinate("b"), map.coordinate("a")])
        XCTAssertEqual(map.letters(of: back), "cbceda")
        // Twice the same stop on the bollard: still on the side the car came from.
        let twice = try map.route("car", [map.coordinate("a"), map.coordinate("b"), map.coordinate("b"), map.coordinate("c")])
        XCTAssertEqual(twice.legs[1].distance, 0)
        XCTAssertEqual(map.letters(of: twice.legs[2].geometry), "badec")
        // On foot the bollard is no barrier.
        XCTAssertEqual(map.letters(of: try map.route("foot", [map.coordinate("a"), map.coordinate("b"), map.coordinate("c")])), "abc")
    }

    /// A stop just outside a bend snaps exactly onto the bollard at the bend; a car that came from a cannot carry on to c.
    func testStopSnappedOntoABollardAtABendDoesNotLetTheCarThrough() throws {
        let map = try DrawnMap("""
            a-------b
                    |
                    |
                    c
            """, ways: [("abc", Self.residential)], nodes: ["b": ["barrier": "bollard"]], hierarchy: true)
        let corner = DrawnMap.offset(map.coordinate("b"), north: 5, east: 5)
        let snapped = try XCTUnwrap(try map.router("car").snapper.snap(corner))
        XCTAssertEqual(snapped.location, map.coordinate("b"))
        let stops = [map.coordinate("a"), corner, map.coordinate("c")]
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", stops) }, .noRoute(leg: 1, from: corner, to: map.coordinate("c"), profile: "car"))
        XCTAssertEqual(try map.route("car", [map.coordinate("a"), corner, map.coordinate("a")]).distance, 160, accuracy: 0.05)
        XCTAssertEqual(try map.route("foot", stops).distance, 110, accuracy: 0.05)
    }

    // MARK: Via-node turn restrictions

    /// The dead end s–x joins the street a–x–b–c; d is a dead end off b. The start is half-way along s–x, the
    /// stop half-way along a–x: left at x is the direct way (30 m). Turning back at s does not help: the car
    /// still arrives at x from s.
    static let junction = """
        a---x---b---c
            |   |
            s   d
        """
    static let junctionWays: [(String, [String: String])] = [
        ("ax", residential), ("xb", residential), ("bc", residential), ("bd", residential), ("sx", residential),
    ]

    func junctionRoute(_ relations: [DrawnMap.Relation], profile: String = "car") throws -> (DrawnMap, Route) {
        let map = try DrawnMap(Self.junction, ways: Self.junctionWays, relations: relations, hierarchy: true)
        return (map, try map.route(profile, [map.point("s", "x", 0.5), map.point("a", "x", 0.5)]))
    }

    /// Seconds of a junction route: half of s–x, then whole edges, then half of x–a.
    func junctionSeconds(_ map: DrawnMap, _ whole: String, kmh: Double = Speed.residential) -> Double {
        map.seconds("sx", kmh: kmh) / 2 + (whole.count > 1 ? map.seconds(whole, kmh: kmh) : 0) + map.seconds("xa", kmh: kmh) / 2
    }

    func testUnrestrictedJunctionTurnsLeft() throws {
        let (map, route) = try junctionRoute([])
        XCTAssertRoute(map, route, letters: "x", seconds: junctionSeconds(map, "x"))
    }

    /// no_left_turn: the car goes on to b; it may not turn back at the junction b, so it turns at the nearest dead
    /// end, d, and comes back through x (a car turns back only at a dead end).
    func testNoLeftTurnTakesADetourToTheNearestDeadEnd() throws {
        let (map, route) = try junctionRoute([.restriction("no_left_turn", from: "sx", via: "x", to: "ax")])
        XCTAssertRoute(map, route, letters: "xbdbx", seconds: junctionSeconds(map, "xbdbx"))
        XCTAssertEqual(route.distance, 10 + 40 + 20 + 20 + 40 + 20, accuracy: 0.05)
        // On foot a walker may turn anywhere, and the restriction does not apply anyway.
        XCTAssertEqual(map.letters(of: try map.route("foot", [map.point("s", "x", 0.5), map.point("a", "x", 0.5)])), "x")
    }

    func testRestrictionTypeMotorcarIsHonoured() throws {
        let (map, route) = try junctionRoute([.restriction("no_left_turn", from: "sx", via: "x", to: "ax", tags: ["type": "restriction:motorcar"])])
        XCTAssertEqual(map.letters(of: route), "xbdbx")
    }

    /// no_u_turn at b as well: no change, a car may not turn back at the junction b anyway; it turns at the dead end d.
    func testNoUTurnMovesTheTurnElsewhere() throws {
        let (map, route) = try junctionRoute([
            .restriction("no_left_turn", from: "sx", via: "x", to: "ax"),
            .restriction("no_u_turn", from: "xb", via: "b", to: "xb"),
        ])
        XCTAssertRoute(map, route, letters: "xbdbx", seconds: junctionSeconds(map, "xbdbx"))
    }

    /// only_straight_on from x–b at b onto b–c: neither the right turn to d nor the U-turn at b is allowed,
    /// so the car turns at c.
    func testOnlyStraightOnForbidsOtherExitsAndTheUTurn() throws {
        let (map, route) = try junctionRoute([
            .restriction("no_left_turn", from: "sx", via: "x", to: "ax"),
            .restriction("only_straight_on", from: "xb", via: "b", to: "bc"),
        ])
        XCTAssertRoute(map, route, letters: "xbcbx", seconds: junctionSeconds(map, "xbcbx"))
    }

    func testOnlyStraightOnDoesNotApplyFromOtherWays() throws {
        // Coming from c (not from x–b), the car may turn into d at b.
        let map = try DrawnMap(Self.junction, ways: Self.junctionWays,
                                 relations: [.restriction("only_straight_on", from: "xb", via: "b", to: "bc")], hierarchy: true)
        XCTAssertRoute(map, try map.route("car", from: "c", to: "d"), letters: "cbd", seconds: map.seconds("cbd", kmh: Speed.residential))
        // From x–b it may not: x → b → c, turn, → b → d.
        XCTAssertRoute(map, try map.route("car", [map.point("x", "b", 0.5), map.coordinate("d")]), letters: "bcbd",
                       seconds: map.seconds("xb", kmh: Speed.residential) / 2 + map.seconds("bcbd", kmh: Speed.residential))
    }

    func testExceptMotorcarExemptsCars() throws {
        for except in ["motorcar", "bicycle;motorcar", "motor_vehicle"] {
            let (map, route) = try junctionRoute([.restriction("no_left_turn", from: "sx", via: "x", to: "ax", tags: ["except": except])])
            XCTAssertEqual(map.letters(of: route), "x", "except=\(except)")
        }
        let (map, route) = try junctionRoute([.restriction("no_left_turn", from: "sx", via: "x", to: "ax", tags: ["except": "bicycle"])])
        XCTAssertEqual(map.letters(of: route), "xbdbx", "except=bicycle does not exempt cars")
    }

    func testWalkersIgnoreTurnRestrictions() throws {
        let (map, route) = try junctionRoute([.restriction("no_left_turn", from: "sx", via: "x", to: "ax")], profile: "foot")
        XCTAssertRoute(map, route, letters: "x", seconds: junctionSeconds(map, "x", kmh: Speed.foot))
    }

    // MARK: Via-way turn restrictions

    /// f–a–b–g along the top, b–d–e down the right, a–c–e round the left and bottom. By car f → d goes
    /// f a b d (140 m); the way round the left is f a c e d (180 m); through g it is f a b g b d (220 m).
    static let viaWayMap = """
        f---a-------b---g
            |       |
            |       d
            |       |
            c-------e
        """

    func viaWayMap(_ relations: [DrawnMap.Relation], withLeftSide: Bool = true) throws -> DrawnMap {
        var ways: [(String, [String: String])] = [("fa", Self.residential), ("ab", Self.residential), ("bg", Self.residential),
                                                  ("bd", Self.residential), ("de", Self.residential)]
        if withLeftSide { ways += [("ac", Self.residential), ("ce", Self.residential)] }
        return try DrawnMap(Self.viaWayMap, ways: ways, relations: relations, hierarchy: true)
    }

    func testUnrestrictedViaWayMap() throws {
        let map = try viaWayMap([])
        XCTAssertRoute(map, try map.route("car", from: "f", to: "d"), letters: "fabd", seconds: map.seconds("fabd", kmh: Speed.residential))
    }

    func testViaWayNoRightTurnTakesTheDetour() throws {
        let map = try viaWayMap([.restriction("no_right_turn", from: "fa", viaWays: ["ab"], to: "bd")])
        XCTAssertRoute(map, try map.route("car", from: "f", to: "d"), letters: "faced", seconds: map.seconds("faced", kmh: Speed.residential))
        // The same turn at b without having come along f–a is allowed…
        XCTAssertRoute(map, try map.route("car", [map.point("a", "b", 0.5), map.coordinate("d")]), letters: "bd",
                       seconds: map.seconds("ab", kmh: Speed.residential) / 2 + map.seconds("bd", kmh: Speed.residential))
        // …and so is carrying on along the via way.
        XCTAssertRoute(map, try map.route("car", from: "f", to: "g"), letters: "fabg", seconds: map.seconds("fabg", kmh: Speed.residential))
        // Coming along a–b from another way than f–a, turning into d is fine.
        XCTAssertRoute(map, try map.route("car", [map.point("a", "c", 0.25), map.coordinate("d")]), letters: "abd",
                       seconds: map.seconds("ac", kmh: Speed.residential) / 4 + map.seconds("abd", kmh: Speed.residential))
    }

    /// A stop part-way along the forbidden "to" way is reached the long way round too (the search's partial target edge).
    func testViaWayRestrictionAppliesToAStopOnTheToWay() throws {
        let map = try viaWayMap([.restriction("no_right_turn", from: "fa", viaWays: ["ab"], to: "bd")])
        let stop = map.point("b", "d", 0.5)
        XCTAssertRoute(map, try map.route("car", [map.coordinate("f"), stop]), letters: "faced",
                       seconds: map.seconds("faced", kmh: Speed.residential) + map.seconds("db", kmh: Speed.residential) / 2)
        let unrestricted = try viaWayMap([])
        XCTAssertRoute(unrestricted, try unrestricted.route("car", [unrestricted.coordinate("f"), stop]), letters: "fab",
                       seconds: unrestricted.seconds("fab", kmh: Speed.residential) + unrestricted.seconds("bd", kmh: Speed.residential) / 2)
    }

    func testViaWayOnlyStraightOnTakesTheDetour() throws {
        let map = try viaWayMap([.restriction("only_straight_on", from: "fa", viaWays: ["ab"], to: "bg")])
        XCTAssertRoute(map, try map.route("car", from: "f", to: "d"), letters: "faced", seconds: map.seconds("faced", kmh: Speed.residential))
        XCTAssertRoute(map, try map.route("car", [map.point("a", "b", 0.5), map.coordinate("d")]), letters: "bd",
                       seconds: map.seconds("ab", kmh: Speed.residential) / 2 + map.seconds("bd", kmh: Speed.residential))
    }

    /// With no way round the left, only_straight_on sends the car on to g, where it turns back to b and d.
    func testViaWayOnlyStraightOnWithoutDetourTurnsBeyond() throws {
        let map = try viaWayMap([.restriction("only_straight_on", from: "fa", viaWays: ["ab"], to: "bg")], withLeftSide: false)
        XCTAssertRoute(map, try map.route("car", from: "f", to: "d"), letters: "fabgbd", seconds: map.seconds("fabgbd", kmh: Speed.residential))
        let unrestricted = try viaWayMap([], withLeftSide: false)
        XCTAssertEqual(unrestricted.letters(of: try unrestricted.route("car", from: "f", to: "d")), "fabd")
    }

    func testViaWayExceptMotorcarIsIgnoredByCars() throws {
        let map = try viaWayMap([.restriction("no_right_turn", from: "fa", viaWays: ["ab"], to: "bd", tags: ["except": "motorcar"])])
        XCTAssertEqual(map.letters(of: try map.route("car", from: "f", to: "d")), "fabd")
    }

    func testViaWayRestrictionsDoNotApplyOnFoot() throws {
        let map = try viaWayMap([.restriction("no_right_turn", from: "fa", viaWays: ["ab"], to: "bd")])
        XCTAssertRoute(map, try map.route("foot", from: "f", to: "d"), letters: "fabd", seconds: map.seconds("fabd", kmh: Speed.foot))
    }

    /// The search (A* with the landmark bound, the restriction automaton) against the plain reference Dijkstra between
    /// every pair of endpoints of the maps above: a third and two thirds along every edge, and every graph node.
    func testSearchAgreesWithReferenceOnEveryMap() throws {
        let maps = [
            try viaWayMap([.restriction("no_right_turn", from: "fa", viaWays: ["ab"], to: "bd")]),
            try viaWayMap([.restriction("only_straight_on", from: "fa", viaWays: ["ab"], to: "bg")], withLeftSide: false),
            try DrawnMap(Self.junction, ways: Self.junctionWays, relations: [
                .restriction("no_left_turn", from: "sx", via: "x", to: "ax"), .restriction("only_straight_on", from: "xb", via: "b", to: "bc"),
            ], hierarchy: true),
            try DrawnMap(Self.junction, ways: Self.junctionWays, relations: [
                .restriction("no_left_turn", from: "sx", via: "x", to: "ax"), .restriction("no_u_turn", from: "xb", via: "b", to: "xb"),
            ], hierarchy: true),
            try barrierMap(["barrier": "bollard"]),
            try barrierMap(["barrier": "bollard"], aroundTheBlock: false),
            try DrawnMap(Self.block, ways: [("ab", Self.residential(["oneway": "yes"])), ("acdb", Self.residential)], hierarchy: true),
            try roundaboutMap(),
        ]
        var compared = 0, routed = 0
        for map in maps {
            for profile in ["car", "foot"] {
                let router = try map.router(profile)
                let reference = ReferenceDijkstra(space: router.search.space)
                var endpoints: [SearchEndpoint] = []
                for e in 0..<map.graph.edgeCount where router.snapper.isUsable(e) {
                    for f in [1.0 / 3, 2.0 / 3] {
                        endpoints.append(SearchEndpoint(edge: e, fraction: f, node: nil, coordinate: map.graph.point(onEdge: e, atFraction: f)))
                    }
                }
                for n in 0..<map.graph.nodeCount {
                    let c = Coordinate(latitudeE7: map.graph.nodeLatitudes[n], longitudeE7: map.graph.nodeLongitudes[n])
                    if let snapped = router.snapper.snap(c), snapped.distance == 0 { endpoints.append(SearchEndpoint(snapped, in: map.graph)) }
                }
                for start in endpoints {
                    for target in endpoints {
                        let fast = router.search.route(from: start, to: target)
                        let slow = reference.duration(from: start, to: target)
                        XCTAssertEqual(fast?.duration ?? -1, slow ?? -1, accuracy: 0.001, "\(profile): \(start) → \(target)")
                        if let fast { XCTAssertEqual(fast.duration, fast.traversals.reduce(0) { $0 + $1.duration }, accuracy: 1e-9) }
                        compared += 1
                        if fast != nil { routed += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 2000)
        XCTAssertGreaterThan(routed, compared / 2)
        XCTAssertLessThan(routed, compared, "some pairs are cut off by the bollard")
    }

    // MARK: U-turns and legs

    /// Start and stop on the same slow edge: leaving it backwards, taking the fast road round and coming back in from
    /// the far end beats crawling along it.
    func testSameEdgeStopsMayGoRoundWhenThatIsFaster() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", ["highway": "living_street"]), ("acdb", ["highway": "primary"])], hierarchy: true)
        let start = map.point("a", "b", 0.1), stop = map.point("a", "b", 0.9)
        let slow = map.seconds("ab", kmh: 10)
        let round = 0.1 * slow + map.seconds("acdb", kmh: Speed.primary) + 0.1 * slow
        XCTAssertLessThan(round, 0.8 * slow)
        XCTAssertRoute(map, try map.route("car", [start, stop]), letters: "acdb", seconds: round)
        // On foot both are 5 km/h: straight along a–b.
        XCTAssertEqual(try map.route("foot", [start, stop]).distance, 0.8 * map.length("ab"), accuracy: 0.01)
    }

    /// Stops a, the dead end e, then c: the car reverses at e at no cost.
    func testDeadEndStopThenBackAtNoCost() throws {
        let map = try DrawnMap("""
            a-------b-------c
                    |
                    e
            """, ways: [("abc", Self.residential), ("be", Self.residential)], hierarchy: true)
        let (routes, _) = try map.routes("car", [map.coordinate("a"), map.coordinate("e"), map.coordinate("c")])
        let route = routes[0]
        XCTAssertEqual(route.legs.count, 2)
        XCTAssertEqual(map.letters(of: route.legs[0].geometry), "abe")
        XCTAssertEqual(map.letters(of: route.legs[1].geometry), "ebc")
        XCTAssertRoute(map, route, letters: "abebc", seconds: map.seconds("abebc", kmh: Speed.residential))
    }

    /// A stop behind the previous one on a two-way street: the next leg simply leaves the other way.
    func testEachLegLeavesItsStopEitherWayOnATwoWayStreet() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential), ("acdb", Self.residential)], hierarchy: true)
        let stops = [map.point("a", "b", 0.2), map.point("a", "b", 0.8), map.point("a", "b", 0.5)]
        let (routes, _) = try map.routes("car", stops)
        let route = routes[0], edge = map.seconds("ab", kmh: Speed.residential)
        XCTAssertEqual(route.legs.count, 2)
        XCTAssertEqual(route.legs[0].expectedTravelTime, 0.6 * edge, accuracy: 0.01)
        XCTAssertEqual(route.legs[1].expectedTravelTime, 0.3 * edge, accuracy: 0.01)
        XCTAssertEqual(route.legs[1].distance, 0.3 * map.length("ab"), accuracy: 0.01)
        XCTAssertEqual(route.legs[1].geometry.first!.distance(to: stops[1]), 0, accuracy: 0.01)
        XCTAssertEqual(route.legs[1].geometry.last!.distance(to: stops[2]), 0, accuracy: 0.01)
        XCTAssertEqual(route.legs[1].geometry.count, 2, "straight back along a–b: \(route.legs[1].geometry)")
    }

    /// On a one-way street the next leg may only leave forwards, and goes round the block.
    func testALegLeavesAOneWayStopForwardsOnly() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential(["oneway": "yes"])), ("acdb", Self.residential)], hierarchy: true)
        let stops = [map.point("a", "b", 0.2), map.point("a", "b", 0.8), map.point("a", "b", 0.5)]
        let route = try map.route("car", stops)
        let edge = map.seconds("ab", kmh: Speed.residential)
        XCTAssertEqual(route.legs[1].expectedTravelTime, 0.2 * edge + map.seconds("bdca", kmh: Speed.residential) + 0.5 * edge, accuracy: 0.01)
        XCTAssertEqual(map.letters(of: route.legs[1].geometry), "bdca")
    }

    // MARK: Multi-stop routes

    static let mainStreet = """
        a-----------b-----------c-----------d
                    |
                    e
        """

    func testThreeStopsMakeTwoLegsAndWaypoints() throws {
        let map = try DrawnMap(Self.mainStreet, ways: [("abcd", Self.residential(["name": "Main Street"])), ("be", Self.residential(["name": "Side Street"]))], hierarchy: true)
        let roadA = map.point("a", "b", 0.5), roadB = map.point("b", "c", 0.5), roadC = map.point("c", "d", 0.75)
        let stops = [DrawnMap.offset(roadA, north: 4), DrawnMap.offset(roadB, north: -6), roadC]
        let (routes, waypoints) = try map.routes("car", stops)
        XCTAssertEqual(routes.count, 1)
        let route = routes[0]
        XCTAssertEqual(route.legs.count, 2)
        let unit = map.seconds("ab", kmh: Speed.residential)   // 120 m
        XCTAssertEqual(route.legs[0].expectedTravelTime, unit, accuracy: 0.01)
        XCTAssertEqual(route.legs[1].expectedTravelTime, 1.25 * unit, accuracy: 0.01)
        XCTAssertEqual(route.legs[0].distance, 120, accuracy: 0.05)
        XCTAssertEqual(route.legs[1].distance, 150, accuracy: 0.05)
        XCTAssertEqual(route.expectedTravelTime, route.legs[0].expectedTravelTime + route.legs[1].expectedTravelTime, accuracy: 1e-9)
        XCTAssertEqual(route.distance, route.legs[0].distance + route.legs[1].distance, accuracy: 1e-9)
        XCTAssertEqual(route.name, "Main Street")
        // Waypoints: the query, where it snapped on the road, how far that is, the road's name.
        XCTAssertEqual(waypoints.count, 3)
        for (waypoint, (query, road, distance)) in zip(waypoints, [(stops[0], roadA, 4.0), (stops[1], roadB, 6.0), (stops[2], roadC, 0.0)]) {
            XCTAssertEqual(waypoint.query, query)
            XCTAssertEqual(waypoint.location.distance(to: road), 0, accuracy: 0.02)
            XCTAssertEqual(waypoint.snappingDistance, distance, accuracy: 0.02)
            XCTAssertEqual(waypoint.name, "Main Street")
        }
        // Legs join at the middle stop; the polyline runs from the first snapped stop to the last.
        XCTAssertEqual(route.legs[0].geometry.last!.distance(to: route.legs[1].geometry.first!), 0, accuracy: 0.001)
        XCTAssertEqual(route.polyline.first!.distance(to: waypoints[0].location), 0, accuracy: 0.001)
        XCTAssertEqual(route.polyline.last!.distance(to: waypoints[2].location), 0, accuracy: 0.001)
        XCTAssertEqual(map.letters(of: route), "bc")
        for leg in route.legs {
            XCTAssertFalse(leg.steps.isEmpty)
            for point in leg.geometry { XCTAssertTrue(contains(leg.boundingBox, point)) }
        }
        for point in route.polyline { XCTAssertTrue(contains(route.boundingBox, point)) }
    }

    func testIdenticalStopsMakeAZeroLengthLeg() throws {
        let map = try DrawnMap(Self.mainStreet, ways: [("abcd", Self.residential), ("be", Self.residential)], hierarchy: true)
        let a = map.point("a", "b", 0.5), c = map.point("c", "d", 0.5)
        let route = try map.route("car", [a, a, c])
        XCTAssertEqual(route.legs.count, 2)
        XCTAssertEqual(route.legs[0].distance, 0)
        XCTAssertEqual(route.legs[0].expectedTravelTime, 0)
        XCTAssertEqual(route.legs[1].distance, 240, accuracy: 0.05)
        XCTAssertEqual(route.distance, route.legs[1].distance, accuracy: 1e-9)
        // The same on a graph node, and a route whose every stop is the same place.
        let onNode = try map.route("car", [map.coordinate("b"), map.coordinate("b"), map.coordinate("e")])
        XCTAssertEqual(onNode.legs[0].distance, 0)
        XCTAssertEqual(onNode.legs[1].distance, 20, accuracy: 0.01)
        let nowhere = try map.route("car", [c, c])
        XCTAssertEqual(nowhere.distance, 0)
        XCTAssertEqual(nowhere.expectedTravelTime, 0)
        XCTAssertGreaterThanOrEqual(nowhere.polyline.count, 1)
    }

    func testDisconnectedStopsNameTheLeg() throws {
        let map = try DrawnMap("""
            a-----b-----c                       x-----y

            d-----e
            """, ways: [("abc", Self.residential), ("ad", Self.residential), ("de", Self.residential), ("xy", Self.residential)], hierarchy: true)
        let stops = [map.point("a", "b", 0.5), map.point("b", "c", 0.5), map.point("x", "y", 0.5)]
        let error = DrawnMap.routingError { try map.route("car", stops) }
        XCTAssertEqual(error, .noRoute(leg: 1, from: stops[1], to: stops[2], profile: "car"))
        XCTAssertTrue(error?.description.contains("leg 2") ?? false, error?.description ?? "no error")
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", [map.coordinate("x"), map.coordinate("e")]) },
                       .noRoute(leg: 0, from: map.coordinate("x"), to: map.coordinate("e"), profile: "car"))
    }

    func testTooFewStopsAndUnknownProfile() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential)], hierarchy: true)
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", [map.coordinate("a")]) }, .tooFewStops(1))
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", []) }, .tooFewStops(0))
        XCTAssertEqual(DrawnMap.routingError { try Router(graph: map.graph, profile: "bike") }, .unknownProfile("bike", available: ["car", "foot"]))
        let bad = Coordinate(latitude: 95, longitude: 8)
        XCTAssertEqual(DrawnMap.routingError { try map.route("car", [map.coordinate("a"), bad]) }, .invalidCoordinate(stop: 1, bad))
    }

    // MARK: Alternatives

    /// Three ways from s to t: straight along c–d (240 m), or over the top c–a–b–d or the bottom c–e–f–d (280 m).
    static let threePaths = """
            a---------------b
            |               |
        s---c---------------d---t
            |               |
            e---------------f
        """

    func testAlternativesAreReallyDifferentAndNotMuchSlower() throws {
        let map = try DrawnMap(Self.threePaths, ways: [("sc", Self.residential), ("cd", Self.residential), ("dt", Self.residential),
                                                         ("cabd", Self.residential), ("cefd", Self.residential)], hierarchy: true)
        let stops = [map.coordinate("s"), map.coordinate("t")]
        let (routes, _) = try map.routes("car", stops, options: RouteOptions(alternatives: 2))
        XCTAssertEqual(routes.count, 3)
        XCTAssertEqual(map.letters(of: routes[0]), "scdt")
        XCTAssertEqual(Set(routes.dropFirst().map { map.letters(of: $0) }), ["scabdt", "scefdt"])
        XCTAssertEqual(routes[0].expectedTravelTime, map.seconds("scdt", kmh: Speed.residential), accuracy: 0.01)
        for route in routes.dropFirst() {
            XCTAssertEqual(route.expectedTravelTime, map.seconds("scabdt", kmh: Speed.residential), accuracy: 0.01)
        }
        assertAlternativesRules(routes)
        // Asked for one, one comes.
        XCTAssertEqual(try map.routes("car", stops, options: RouteOptions(alternatives: 1)).routes.count, 2)
        // None unless asked.
        XCTAssertEqual(try map.routes("car", stops).routes.count, 1)
        // Multi-stop routes get none.
        XCTAssertEqual(try map.routes("car", stops + [map.coordinate("a")], options: RouteOptions(alternatives: 2)).routes.count, 1)
    }

    func testNoAlternativeWhenOnlyOnePathExists() throws {
        let map = try DrawnMap(Self.threePaths, ways: [("sc", Self.residential), ("cd", Self.residential), ("dt", Self.residential)], hierarchy: true)
        let (routes, _) = try map.routes("car", [map.coordinate("s"), map.coordinate("t")], options: RouteOptions(alternatives: 3))
        XCTAssertEqual(routes.count, 1)
    }

    /// A detour round a short stretch near the end is fast enough (440 m against 400 m) but shares 82 % of its length
    /// with the best route: not offered.
    func testNoAlternativeThatMostlySharesTheBestRoute() throws {
        let map = try DrawnMap("""
            s-------------------------------c---d---t
                                            |   |
                                            e---f
            """, ways: [("sc", Self.residential), ("cd", Self.residential), ("dt", Self.residential), ("cefd", Self.residential)], hierarchy: true)
        let stops = [map.coordinate("s"), map.coordinate("t")]
        XCTAssertEqual(try map.routes("car", stops, options: RouteOptions(alternatives: 2)).routes.count, 1)
        // Without s–c (and with a longer c–d) most of the route is the detour (180 m against 140 m): then it is offered.
        let short = try DrawnMap("""
            c---------d---t
            |         |
            e---------f
            """, ways: [("cd", Self.residential), ("dt", Self.residential), ("cefd", Self.residential)], hierarchy: true)
        let routes = try short.routes("car", [short.coordinate("c"), short.coordinate("t")], options: RouteOptions(alternatives: 2)).routes
        XCTAssertEqual(routes.map { short.letters(of: $0) }, ["cdt", "cefdt"])
        assertAlternativesRules(routes)
    }

    func testNoAlternativeWhenTheOtherPathsAreTooSlow() throws {
        // Over the top and the bottom at 10 km/h: more than 1.4 × the best time.
        let slow = ["highway": "living_street"]
        let map = try DrawnMap(Self.threePaths, ways: [("sc", Self.residential), ("cd", Self.residential), ("dt", Self.residential),
                                                         ("cabd", slow), ("cefd", slow)], hierarchy: true)
        let (routes, _) = try map.routes("car", [map.coordinate("s"), map.coordinate("t")], options: RouteOptions(alternatives: 2))
        XCTAssertEqual(routes.count, 1)
        // On foot every way is 5 km/h: the two detours are offered.
        let walks = try map.routes("foot", [map.coordinate("s"), map.coordinate("t")], options: RouteOptions(alternatives: 2)).routes
        XCTAssertEqual(walks.count, 3)
        assertAlternativesRules(walks)
    }

    /// Every alternative takes at most 1.4 × the best time and shares at most 70 % of its length with each other route.
    func assertAlternativesRules(_ routes: [Route], file: StaticString = #filePath, line: UInt = #line) {
        func edges(_ route: Route) -> Set<Int> { Set(route.legs.flatMap(\.traversals).map(\.edge)) }
        for (i, route) in routes.enumerated().dropFirst() {
            XCTAssertLessThanOrEqual(route.expectedTravelTime, routes[0].expectedTravelTime * 1.4, file: file, line: line)
            XCTAssertGreaterThanOrEqual(route.expectedTravelTime, routes[0].expectedTravelTime, file: file, line: line)
            for (j, other) in routes.enumerated() where j != i {
                let shared = route.legs.flatMap(\.traversals).filter { edges(other).contains($0.edge) }.reduce(0) { $0 + $1.distance }
                XCTAssertLessThanOrEqual(shared, 0.7 * route.distance, "route \(i) shares \(shared) m of \(route.distance) m with route \(j)",
                                         file: file, line: line)
            }
        }
    }

    // MARK: Straight lines

    func testStraightLinesAreGreatCircles() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential)], hierarchy: true)
        // Stops far from any road are fine: nothing is snapped.
        let stops = [Coordinate(latitude: 49.0, longitude: 8.0), Coordinate(latitude: 49.05, longitude: 8.02),
                     Coordinate(latitude: 48.5, longitude: 9.3), Coordinate(latitude: 48.5, longitude: 9.3)]
        let (routes, waypoints) = try map.routes("car", stops, options: RouteOptions(straightLines: true))
        XCTAssertEqual(routes.count, 1)
        let route = routes[0]
        XCTAssertEqual(route.legs.count, 3)
        var total = 0.0
        for (k, leg) in route.legs.enumerated() {
            let expected = DrawnMap.haversine(stops[k], stops[k + 1])
            total += expected
            XCTAssertEqual(leg.distance, expected, accuracy: 1e-6 * max(1, expected), "leg \(k)")
            XCTAssertEqual(leg.geometry.first, stops[k])
            XCTAssertEqual(leg.geometry.last, stops[k + 1])
            // The points lie on the great circle: the pieces add up to the whole, none much longer than a kilometre.
            let pieces = zip(leg.geometry, leg.geometry.dropFirst()).map { DrawnMap.haversine($0, $1) }
            XCTAssertEqual(pieces.reduce(0, +), expected, accuracy: 0.01, "leg \(k)")
            for piece in pieces { XCTAssertLessThanOrEqual(piece, 1000.01) }
            XCTAssertTrue(leg.steps.isEmpty)
        }
        XCTAssertGreaterThan(route.legs[1].geometry.count, 100, "a 120 km leg has a point every kilometre")
        XCTAssertEqual(route.distance, total, accuracy: 1e-6 * total)
        XCTAssertEqual(route.polyline.first, stops[0])
        XCTAssertEqual(route.polyline.last, stops[3])
        XCTAssertEqual(route.legs[2].distance, 0)
        XCTAssertEqual(waypoints.map(\.location), stops)
        XCTAssertEqual(waypoints.map(\.snappingDistance), [0, 0, 0, 0])
        for point in route.polyline { XCTAssertTrue(contains(route.boundingBox, point)) }
    }

    func testStraightLinesRejectInvalidStops() throws {
        let map = try DrawnMap(Self.block, ways: [("ab", Self.residential)], hierarchy: true)
        let bad = Coordinate(latitude: 10, longitude: 200)
        XCTAssertEqual(DrawnMap.routingError { try map.routes("car", [map.coordinate("a"), bad], options: RouteOptions(straightLines: true)) },
                       .invalidCoordinate(stop: 1, bad))
        XCTAssertEqual(DrawnMap.routingError { try map.routes("car", [bad], options: RouteOptions(straightLines: true)) }, .tooFewStops(1))
    }

    func contains(_ box: BoundingBox, _ point: Coordinate) -> Bool {
        box.minLatitude <= point.latitude && point.latitude <= box.maxLatitude && box.minLongitude <= point.longitude && point.longitude <= box.maxLongitude
    }
}
