import XCTest
@testable import Graph
import TestSupport

/// Turn restrictions for cars: relations turned into paths of directed edges, written here as the graph-node letters
/// they run through (`"no:abd"`: arriving a→b, leaving b→d; see `DrawnMap.restrictions`).
final class RestrictionTests: XCTestCase {
    /// A crossing at b: coming from a (west), d is a left turn, e a right turn, c straight on.
    let crossing = """
            d
            |
        a---b---c
            |
            e
        """
    let arms: [(String, [String: String])] = [
        ("ab", ["highway": "residential"]), ("bc", ["highway": "residential"]),
        ("bd", ["highway": "residential"]), ("be", ["highway": "residential"]),
    ]

    private func crossingMap(_ relations: [DrawnMap.Relation]) throws -> DrawnMap {
        try DrawnMap(crossing, ways: arms, relations: relations)
    }

    // MARK: Via node

    /// Every `no_*` value forbids the path from→to at the via node.
    func testProhibitoryValues() throws {
        for value in ["no_left_turn", "no_right_turn", "no_straight_on", "no_u_turn", "no_entry", "no_exit"] {
            let map = try crossingMap([.restriction(value, from: "ab", via: "b", to: "bd")])
            XCTAssertEqual(map.restrictions("car"), ["no:abd"], value)
            XCTAssertEqual(Array(map.profile("car").restrictionKinds), [RestrictionKind.prohibitory.rawValue], value)
            XCTAssertEqual(map.statistics.profiles[0].restrictionsViaNode, 1)
            XCTAssertEqual(map.statistics.restrictionsSkipped, 0)
        }
    }

    /// Every `only_*` value makes its path mandatory.
    func testMandatoryValues() throws {
        for value in ["only_left_turn", "only_right_turn", "only_straight_on", "only_u_turn"] {
            let map = try crossingMap([.restriction(value, from: "ab", via: "b", to: "bc")])
            XCTAssertEqual(map.restrictions("car"), ["only:abc"], value)
            XCTAssertEqual(Array(map.profile("car").restrictionKinds), [RestrictionKind.mandatory.rawValue], value)
        }
    }

    /// The stored path really is [arriving edge, leaving edge] as directed edges, whatever the ways' drawing direction.
    func testDirectedEdgesOfAViaNodeRestriction() throws {
        // Ways drawn towards b and away from it.
        let map = try DrawnMap(crossing, ways: [("ba", ["highway": "residential"]), ("bc", ["highway": "residential"]),
                                                ("db", ["highway": "residential"]), ("be", ["highway": "residential"])],
                               relations: [.restriction("no_left_turn", from: "ba", via: "b", to: "db")])
        let ba = try XCTUnwrap(map.edge("ba")), db = try XCTUnwrap(map.edge("db"))
        XCTAssertEqual(map.profile("car").restrictionCount, 1)
        let path = Array(map.profile("car").restrictionPath)
        XCTAssertEqual(path, [directedEdge(UInt32(ba.index), reversed: !ba.reversed), directedEdge(UInt32(db.index), reversed: !db.reversed)])
        XCTAssertEqual(map.restrictions("car"), ["no:abd"])
    }

    /// A `from` or `to` way passing through the via node contributes both of its edges there.
    func testWaysPassingThroughTheViaNode() throws {
        let map = try DrawnMap(crossing, ways: [("abc", ["highway": "primary"]), ("dbe", ["highway": "residential"])],
                               relations: [.restriction("no_left_turn", from: "abc", via: "b", to: "dbe")])
        XCTAssertEqual(map.restrictions("car"), ["no:abd", "no:abe", "no:cbd", "no:cbe"])
        XCTAssertEqual(map.statistics.profiles[0].restrictionsViaNode, 1, "one relation")
    }

    /// `no_u_turn` with the same way as `from` and `to` forbids only turning back on the same edge.
    func testUTurnOnOneWay() throws {
        let map = try DrawnMap(crossing, ways: [("abc", ["highway": "primary"]), ("dbe", ["highway": "residential"])],
                               relations: [.restriction("no_u_turn", from: "abc", via: "b", to: "abc")])
        XCTAssertEqual(map.restrictions("car"), ["no:aba", "no:cbc"])
    }

    /// With the same way as `from` and `to` passing through the via node, any other restriction than a U-turn is about
    /// going on along the way: `only_straight_on` must not force a U-turn, `no_straight_on` must not forbid one.
    func testStraightOnAlongOneWay() throws {
        let ways: [(String, [String: String])] = [("abc", ["highway": "primary"]), ("dbe", ["highway": "residential"])]
        let only = try DrawnMap(crossing, ways: ways, relations: [.restriction("only_straight_on", from: "abc", via: "b", to: "abc")])
        XCTAssertEqual(only.restrictions("car"), ["only:abc", "only:cba"])
        let no = try DrawnMap(crossing, ways: ways, relations: [.restriction("no_straight_on", from: "abc", via: "b", to: "abc")])
        XCTAssertEqual(no.restrictions("car"), ["no:abc", "no:cba"])
        let onlyUTurn = try DrawnMap(crossing, ways: ways, relations: [.restriction("only_u_turn", from: "abc", via: "b", to: "abc")])
        XCTAssertEqual(onlyUTurn.restrictions("car"), ["only:aba", "only:cbc"])
    }

    /// A via node that would otherwise be a shape point becomes a graph node.
    func testViaNodeBecomesAGraphNode() throws {
        let map = try DrawnMap("a---b---c", ways: [("abc", ["highway": "primary"])],
                               relations: [.restriction("no_u_turn", from: "abc", via: "b", to: "abc")])
        XCTAssertEqual(map.edgePaths, ["ab", "bc"])
        XCTAssertEqual(map.restrictions("car"), ["no:aba", "no:cbc"])
    }

    /// `except` naming motorcar or motor_vehicle exempts cars; other exceptions do not.
    func testExceptExemptsCars() throws {
        for except in ["motorcar", "motor_vehicle", "bicycle;motorcar", "psv; motor_vehicle"] {
            let map = try crossingMap([.restriction("no_left_turn", from: "ab", via: "b", to: "bd", tags: ["except": except])])
            XCTAssertEqual(map.restrictions("car"), [], except)
            XCTAssertEqual(map.statistics.restrictionsExempt, 1, except)
            XCTAssertEqual(map.statistics.restrictionsSkipped, 0, except)
        }
        for except in ["psv", "bicycle;hgv", "motorcycle", "motorcars"] {
            let map = try crossingMap([.restriction("no_left_turn", from: "ab", via: "b", to: "bd", tags: ["except": except])])
            XCTAssertEqual(map.restrictions("car"), ["no:abd"], except)
            XCTAssertEqual(map.statistics.restrictionsExempt, 0, except)
        }
    }

    /// `type=restriction:motorcar` relations apply, and `restriction:motorcar` is read before `restriction`.
    func testMotorcarSpecificRestrictions() throws {
        let typed = try crossingMap([.restriction("no_right_turn", from: "ab", via: "b", to: "be", type: "restriction:motorcar")])
        XCTAssertEqual(typed.restrictions("car"), ["no:abe"])
        let keyed = try crossingMap([.restriction(nil, from: "ab", via: "b", to: "be", tags: ["restriction:motorcar": "only_right_turn"])])
        XCTAssertEqual(keyed.restrictions("car"), ["only:abe"])
        let both = try crossingMap([.restriction("no_right_turn", from: "ab", via: "b", to: "be", tags: ["restriction:motorcar": "only_right_turn"])])
        XCTAssertEqual(both.restrictions("car"), ["only:abe"])
        // Restrictions for other vehicles, or other relation types, are not for cars (and not counted as skipped).
        let hgv = try crossingMap([.restriction(nil, from: "ab", via: "b", to: "be", tags: ["restriction:hgv": "no_right_turn"])])
        XCTAssertEqual(hgv.restrictions("car"), [])
        XCTAssertEqual(hgv.statistics.restrictionsSkipped, 0)
        let other = try crossingMap([.restriction("no_right_turn", from: "ab", via: "b", to: "be", type: "restriction:hgv")])
        XCTAssertEqual(other.restrictions("car"), [])
        let multipolygon = try crossingMap([.restriction("no_right_turn", from: "ab", via: "b", to: "be", type: "multipolygon")])
        XCTAssertEqual(multipolygon.restrictions("car"), [])
    }

    /// Several restrictions are kept sorted by path (for binary search on the arriving edge); identical ones once.
    func testSeveralRestrictionsSortedAndDeduplicated() throws {
        let map = try crossingMap([
            .restriction("no_left_turn", from: "ab", via: "b", to: "bd"),
            .restriction("no_right_turn", from: "ab", via: "b", to: "be"),
            .restriction("only_straight_on", from: "bc", via: "b", to: "ab"),
            .restriction("only_left_turn", from: "be", via: "b", to: "bc"),
            .restriction("no_left_turn", from: "ab", via: "b", to: "bd"),
        ])
        XCTAssertEqual(map.restrictions("car"), ["no:abd", "no:abe", "only:cba", "only:ebc"])
        let car = map.profile("car")
        let paths = (0..<car.restrictionCount).map { car.restriction($0).path }
        for r in 1..<paths.count {
            XCTAssertFalse(paths[r].lexicographicallyPrecedes(paths[r - 1]), "restrictions sorted by path")
        }
        XCTAssertEqual(Array(car.restrictionStart), [0, 2, 4, 6, 8])
    }

    // MARK: Via way

    /// A via-way restriction's path is the arriving edge, the via way's edges and the leaving edge.
    ///
    ///     a---b---c---d
    ///         |   |
    ///         e   f
    func testViaWayRestriction() throws {
        let drawing = """
            a---b---c---d
                |   |
                e   f
            """
        for via in ["bc", "cb"] {
            let map = try DrawnMap(drawing, ways: [
                ("ab", ["highway": "primary"]), (via, ["highway": "primary"]), ("cd", ["highway": "primary"]),
                ("be", ["highway": "residential"]), ("cf", ["highway": "residential"]),
            ], relations: [
                .restriction("no_right_turn", from: "ab", viaWays: [via], to: "cf"),
                .restriction("only_left_turn", from: "cd", viaWays: [via], to: "be"),
            ])
            XCTAssertEqual(map.restrictions("car"), ["no:abcf", "only:dcbe"], "via drawn as \(via)")
            XCTAssertEqual(map.statistics.profiles[0].restrictionsViaWay, 2)
            XCTAssertEqual(map.statistics.profiles[0].restrictionsViaNode, 0)
            XCTAssertEqual(map.statistics.restrictionsSkipped, 0)
        }
    }

    /// Via ways chain in member order; a via way split by an intersection contributes all its edges.
    ///
    ///     a---b---c---d---g
    ///         |   |   |
    ///         e   h   f
    func testViaWayChains() throws {
        let drawing = """
            a---b---c---d---g
                |   |   |
                e   h   f
            """
        let chain = try DrawnMap(drawing, ways: [
            ("ab", ["highway": "primary"]), ("bc", ["highway": "primary"]), ("cd", ["highway": "primary"]), ("dg", ["highway": "primary"]),
            ("be", ["highway": "residential"]), ("ch", ["highway": "residential"]), ("df", ["highway": "residential"]),
        ], relations: [.restriction("no_right_turn", from: "be", viaWays: ["bc", "cd"], to: "df")])
        XCTAssertEqual(chain.restrictions("car"), ["no:ebcdf"])

        let split = try DrawnMap(drawing, ways: [
            ("ab", ["highway": "primary"]), ("bcd", ["highway": "primary"]), ("dg", ["highway": "primary"]),
            ("be", ["highway": "residential"]), ("ch", ["highway": "residential"]), ("df", ["highway": "residential"]),
        ], relations: [.restriction("no_straight_on", from: "ab", viaWays: ["bcd"], to: "dg")])
        XCTAssertEqual(split.restrictions("car"), ["no:abcdg"])
        XCTAssertEqual(split.profile("car").restrictionPath.count, 4)

        // The same via way drawn from d to b: its edges are driven backwards, in reverse order.
        let reversed = try DrawnMap(drawing, ways: [
            ("ab", ["highway": "primary"]), ("dcb", ["highway": "primary"]), ("dg", ["highway": "primary"]),
            ("be", ["highway": "residential"]), ("ch", ["highway": "residential"]), ("df", ["highway": "residential"]),
        ], relations: [.restriction("no_straight_on", from: "ab", viaWays: ["dcb"], to: "dg"),
                       .restriction("only_right_turn", from: "dg", viaWays: ["dcb"], to: "be")])
        XCTAssertEqual(reversed.restrictions("car"), ["no:abcdg", "only:gdcbe"])
    }

    /// A `to` way touching the via way at both ends is left where the via way ends, not where it starts.
    ///
    ///     a---b---c
    ///         |   |
    ///         e---f
    func testViaWayLeavesAtItsFarEnd() throws {
        let map = try DrawnMap("""
            a---b---c
                |   |
                e---f
            """, ways: [("ab", ["highway": "primary"]), ("bc", ["highway": "primary"]), ("befc", ["highway": "residential"])],
            relations: [.restriction("no_right_turn", from: "ab", viaWays: ["bc"], to: "befc")])
        XCTAssertEqual(map.edgePaths, ["ab", "bc", "befc"])
        XCTAssertEqual(map.restrictions("car"), ["no:abcb"])
        let befc = try XCTUnwrap(map.edge("befc"))
        XCTAssertEqual(map.profile("car").restrictionPath.last, directedEdge(UInt32(befc.index), reversed: !befc.reversed),
                       "leaving c along f, e")
    }

    // MARK: Malformed

    /// Relations with missing members, members absent from the extract, or members that do not connect are skipped
    /// and counted; valid restrictions beside them are kept.
    func testMalformedRestrictionsAreSkippedAndCounted() throws {
        typealias R = DrawnMap.Relation
        let rt = ["type": "restriction", "restriction": "no_left_turn"]
        let cases: [(String, R)] = [
            ("no from", R(members: [.node("b", role: "via"), .way("bd", role: "to")], tags: rt)),
            ("no to", R(members: [.way("ab", role: "from"), .node("b", role: "via")], tags: rt)),
            ("no via", R(members: [.way("ab", role: "from"), .way("bd", role: "to")], tags: rt)),
            ("from way absent", R(members: [.wayID(999, role: "from"), .node("b", role: "via"), .way("bd", role: "to")], tags: rt)),
            ("to way absent", R(members: [.way("ab", role: "from"), .node("b", role: "via"), .wayID(999, role: "to")], tags: rt)),
            ("via node absent", R(members: [.way("ab", role: "from"), .nodeID(999, role: "via"), .way("bd", role: "to")], tags: rt)),
            ("via node off the roads", .restriction("no_left_turn", from: "ab", via: "x", to: "bd")),
            ("via node not on from", .restriction("no_left_turn", from: "bc", via: "d", to: "bd")),
            ("via node not on to", .restriction("no_left_turn", from: "ab", via: "a", to: "bd")),
            ("two via nodes", R(members: [.way("ab", role: "from"), .node("b", role: "via"), .node("c", role: "via"), .way("bd", role: "to")], tags: rt)),
            ("via node and via way", R(members: [.way("ab", role: "from"), .node("b", role: "via"), .way("bc", role: "via"), .way("bd", role: "to")], tags: rt)),
            ("via way not joining from", .restriction("no_left_turn", from: "ab", viaWays: ["ce"], to: "bd")),
            ("via way not joining to", .restriction("no_left_turn", from: "ab", viaWays: ["bc"], to: "bd")),
            ("via way absent", R(members: [.way("ab", role: "from"), .wayID(999, role: "via"), .way("bd", role: "to")], tags: rt)),
            ("unknown value", .restriction("no_parking", from: "ab", via: "b", to: "bd")),
        ]
        let ways: [(String, [String: String])] = arms + [("ce", ["highway": "residential"])]
        for (label, relation) in cases {
            let map = try DrawnMap("""
                    d
                    |
                a---b---c   x
                    |  /
                    e-
                """, ways: ways, relations: [relation, .restriction("no_u_turn", from: "bc", via: "b", to: "bc")])
            XCTAssertEqual(map.restrictions("car"), ["no:cbc"], label)
            XCTAssertEqual(map.statistics.restrictionsSkipped, 1, label)
            XCTAssertEqual(map.statistics.relationsRead, 2, label)
        }
    }
}
