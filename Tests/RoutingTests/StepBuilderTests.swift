import Foundation
import XCTest
import Graph
@testable import Routing
import TestSupport

/// Turn-by-turn steps on small drawn maps (10 m per character), with hand-built traversals.
final class StepBuilderTests: XCTestCase {
    // MARK: Maps

    /// Main Street runs west–east through x, Elm Street north–south.
    static let plus = """
              n
              |
              |
        w-----x-----e
              |
              |
              s
        """

    func plusMap(elm: [String: String] = ["highway": "residential", "name": "Elm Street"],
                 eastName: String? = nil) throws -> DrawnMap {
        var ways: [(String, [String: String])] = [("nxs", elm)]
        if let eastName {
            ways += [("wx", ["highway": "residential", "name": "Main Street"]), ("xe", ["highway": "residential", "name": eastName])]
        } else {
            ways += [("wxe", ["highway": "residential", "name": "Main Street"])]
        }
        return try DrawnMap(Self.plus, ways: ways)
    }

    /// Eight roads meet at x, coming in from w: straight (e), slight (q, r), plain (n, s) and sharp (p, u) turns.
    static let star = """
            p   n

                    q

        w-------x-------e

                    r

            u   s
        """

    func starMap() throws -> DrawnMap {
        let arms: [(String, String)] = [("wx", "West Road"), ("xe", "East Road"), ("xq", "Q Street"), ("xr", "R Street"),
                                        ("xn", "N Street"), ("xs", "S Street"), ("xp", "P Street"), ("xu", "U Street")]
        return try DrawnMap(Self.star, ways: arms.map { ($0.0, ["highway": "residential", "name": $0.1]) })
    }

    /// A roundabout (b c e g, counter-clockwise) with four two-way arms.
    static let roundabout = """
                  a
                  |
                  |
                  b
                /   \\
              /       \\
        d---c           g---h
              \\       /
                \\   /
                  e
                  |
                  |
                  f
        """

    func roundaboutMap(westArm: (String, [String: String]) = ("cd", ["highway": "residential", "name": "West Road"])) throws -> DrawnMap {
        try DrawnMap(Self.roundabout, ways: [
            ("bcegb", ["highway": "primary", "junction": "roundabout", "name": "Ring"]),
            ("ab", ["highway": "residential", "name": "North Road"]),
            westArm,
            ("ef", ["highway": "residential", "name": "South Road"]),
            ("gh", ["highway": "residential", "name": "East Road"]),
        ])
    }

    // MARK: Helpers

    /// Asserts that the steps' distances and times add up to the traversals'.
    func assertSums(_ steps: [RouteStep], _ traversals: [EdgeTraversal], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(steps.reduce(0) { $0 + $1.distance }, traversals.reduce(0) { $0 + $1.distance }, accuracy: 1e-6,
                       "distance", file: file, line: line)
        XCTAssertEqual(steps.reduce(0) { $0 + $1.expectedTravelTime }, traversals.reduce(0) { $0 + $1.duration }, accuracy: 1e-6,
                       "time", file: file, line: line)
    }

    /// "type modifier" of every step, e.g. ["depart", "turn left", "arrive"] (modifiers of depart/arrive left out).
    func kinds(_ steps: [RouteStep]) -> [String] {
        steps.map { step in
            guard step.maneuver != .depart && step.maneuver != .arrive, let modifier = step.modifier else { return step.maneuver.rawValue }
            return "\(step.maneuver.rawValue) \(modifier.rawValue)" + (step.exit.map { " exit-\($0)" } ?? "")
        }
    }

    func assertClose(_ a: Coordinate, _ b: Coordinate, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThan(a.distance(to: b), 0.01, "\(a) is not \(b)", file: file, line: line)
    }

    // MARK: Depart, arrive, sums

    func testStraightAlongOneRoadIsDepartAndArrive() throws {
        let map = try plusMap()
        let route = map.traversals(["wx", "xe"])
        let steps = map.steps(route)
        XCTAssertEqual(kinds(steps), ["depart", "arrive"])
        let depart = steps[0], arrive = steps[1]
        XCTAssertEqual(depart.instructions, "Head east on Main Street")
        XCTAssertEqual(depart.name, "Main Street")
        XCTAssertEqual(depart.bearingBefore, 0)
        XCTAssertEqual(depart.bearingAfter, 90)
        assertClose(depart.location, map.coordinate("w"))
        XCTAssertEqual(depart.distance, 120, accuracy: 0.01)
        XCTAssertEqual(depart.geometry.count, 3)
        assertClose(depart.geometry.last!, map.coordinate("e"))
        XCTAssertEqual(arrive.instructions, "Arrive at your destination")
        XCTAssertEqual(arrive.distance, 0)
        XCTAssertEqual(arrive.expectedTravelTime, 0)
        XCTAssertEqual(arrive.bearingBefore, 90)
        XCTAssertEqual(arrive.bearingAfter, 0)
        XCTAssertEqual(arrive.name, "Main Street")
        assertClose(arrive.location, map.coordinate("e"))
        assertSums(steps, route)
    }

    func testPartialFirstAndLastEdges() throws {
        let map = try plusMap()
        let route = [map.traversal("wx", from: 0.5), map.traversal("xn", to: 0.5)]
        let steps = map.steps(route)
        XCTAssertEqual(kinds(steps), ["depart", "turn left", "arrive"])
        XCTAssertEqual(steps[0].distance, 30, accuracy: 0.01)
        XCTAssertEqual(steps[1].distance, 15, accuracy: 0.01)
        XCTAssertEqual(steps[0].geometry.count, 2)
        XCTAssertEqual(steps[0].geometry[0].distance(to: map.coordinate("w")), 30, accuracy: 0.01)
        XCTAssertEqual(steps[2].location.distance(to: map.coordinate("x")), 15, accuracy: 0.01)
        XCTAssertEqual(steps[1].bearingAfter, 0)
        assertSums(steps, route)
    }

    func testZeroLengthLegIsDepartAndArrive() throws {
        let map = try plusMap()
        let still = map.traversal("wx", from: 0.5, to: 0.5)
        let steps = map.steps([still])
        XCTAssertEqual(kinds(steps), ["depart", "arrive"])
        XCTAssertEqual(steps[0].distance, 0)
        XCTAssertEqual(steps[0].name, "Main Street")
        assertClose(steps[0].location, steps[1].location)
        XCTAssertEqual(steps[1].geometry.count, 2)

        let start = map.snapped(still, atEnd: false)
        let none = StepBuilder.steps(for: [], in: map.graph, from: start, to: start)
        XCTAssertEqual(kinds(none), ["depart", "arrive"])
        XCTAssertEqual(none[0].instructions, "Head out on Main Street")
    }

    func testArrivalSide() throws {
        let map = try plusMap()
        let route = map.traversals(["wx", "xe"])
        // Travelling east: north is on the left, south on the right.
        let left = map.steps(route, endNorth: 8)
        XCTAssertEqual(left.last?.instructions, "Arrive at your destination, on the left")
        XCTAssertEqual(left.last?.modifier, .left)
        let right = map.steps(route, endNorth: -8)
        XCTAssertEqual(right.last?.instructions, "Arrive at your destination, on the right")
        XCTAssertEqual(right.last?.modifier, .right)
        let onTheRoad = map.steps(route, endNorth: 0.2)
        XCTAssertEqual(onTheRoad.last?.instructions, "Arrive at your destination")
        XCTAssertNil(onTheRoad.last?.modifier)
    }

    // MARK: Turns

    func testPlusCrossingLeftAndRight() throws {
        let map = try plusMap()
        let left = map.steps(map.traversals(["wx", "xn"]))
        XCTAssertEqual(kinds(left), ["depart", "turn left", "arrive"])
        XCTAssertEqual(left[1].instructions, "Turn left onto Elm Street")
        XCTAssertEqual(left[1].name, "Elm Street")
        XCTAssertEqual(left[1].bearingBefore, 90)
        XCTAssertEqual(left[1].bearingAfter, 0)
        assertClose(left[1].location, map.coordinate("x"))
        XCTAssertEqual(left[0].distance, 60, accuracy: 0.01)
        XCTAssertEqual(left[1].distance, 30, accuracy: 0.01)
        assertClose(left[1].geometry.first!, map.coordinate("x"))
        assertClose(left[1].geometry.last!, map.coordinate("n"))

        let right = map.steps(map.traversals(["wx", "xs"]))
        XCTAssertEqual(kinds(right), ["depart", "turn right", "arrive"])
        XCTAssertEqual(right[1].instructions, "Turn right onto Elm Street")
        XCTAssertEqual(right[1].bearingAfter, 180)

        // Heading south, then east: a left turn.
        let southEast = map.steps(map.traversals(["nx", "xe"]))
        XCTAssertEqual(kinds(southEast), ["depart", "turn left", "arrive"])
        XCTAssertEqual(southEast[0].instructions, "Head south on Elm Street")
        XCTAssertEqual(southEast[1].instructions, "Turn left onto Main Street")
        assertSums(southEast, map.traversals(["nx", "xe"]))
    }

    func testStarJunctionClassifiesEveryAngle() throws {
        let map = try starMap()
        let expected: [(String, String, String)] = [
            ("xq", "turn slight left", "Turn slight left onto Q Street"),
            ("xr", "turn slight right", "Turn slight right onto R Street"),
            ("xn", "turn left", "Turn left onto N Street"),
            ("xs", "turn right", "Turn right onto S Street"),
            ("xp", "turn sharp left", "Turn sharp left onto P Street"),
            ("xu", "turn sharp right", "Turn sharp right onto U Street"),
            // Straight on, the other roads bending off by 26° or more: the obvious way on, under a new name.
            ("xe", "new name straight", "Continue onto East Road"),
        ]
        for (arm, kind, text) in expected {
            let steps = map.steps(map.traversals(["wx", arm]))
            XCTAssertEqual(kinds(steps), ["depart", kind, "arrive"], arm)
            XCTAssertEqual(steps[1].instructions, text, arm)
        }
        let sharp = map.steps(map.traversals(["wx", "xu"]))
        XCTAssertEqual(sharp[1].bearingBefore, 90)
        XCTAssertEqual(sharp[1].bearingAfter, 225)
    }

    func testYFork() throws {
        let drawing = """
              b   c



                a



                s
            """
        let named = try DrawnMap(drawing, ways: [("sa", ["highway": "residential", "name": "Stem Road"]),
                                                     ("ab", ["highway": "residential", "name": "Left Fork"]),
                                                     ("ac", ["highway": "residential", "name": "Right Fork"])])
        let left = named.steps(named.traversals(["sa", "ab"]))
        XCTAssertEqual(kinds(left), ["depart", "turn slight left", "arrive"])
        XCTAssertEqual(left[1].instructions, "Turn slight left onto Left Fork")
        let right = named.steps(named.traversals(["sa", "ac"]))
        XCTAssertEqual(kinds(right), ["depart", "turn slight right", "arrive"])
        XCTAssertEqual(right[1].bearingAfter, 27)

        // The stem's road carries on to the right: keeping to it is announced, the other branch is a turn.
        let main = try DrawnMap(drawing, ways: [("sac", ["highway": "residential", "name": "Main Street"]),
                                                    ("ab", ["highway": "residential", "name": "Side Road"])])
        let stay = main.steps(main.traversals(["sa", "ac"]))
        XCTAssertEqual(kinds(stay), ["depart", "continue slight right", "arrive"])
        XCTAssertEqual(stay[1].instructions, "Keep right to stay on Main Street")
        let leave = main.steps(main.traversals(["sa", "ab"]))
        XCTAssertEqual(kinds(leave), ["depart", "turn slight left", "arrive"])
    }

    func testNewNameAndContinue() throws {
        let map = try DrawnMap("""
            a----b----c
                 |
                 |
                 d
            """, ways: [("abd", ["highway": "residential", "name": "Main Street"]),
                        ("bc", ["highway": "residential", "name": "Side Street"])])
        // Main Street turns right at b while Side Street goes on straight.
        let stay = map.steps(map.traversals(["ab", "bd"]))
        XCTAssertEqual(kinds(stay), ["depart", "continue right", "arrive"])
        XCTAssertEqual(stay[1].instructions, "Continue right to stay on Main Street")
        XCTAssertEqual(stay[1].name, "Main Street")
        // Straight on, the name changes.
        let straight = map.steps(map.traversals(["ab", "bc"]))
        XCTAssertEqual(kinds(straight), ["depart", "new name straight", "arrive"])
        XCTAssertEqual(straight[1].instructions, "Continue onto Side Street")
        assertSums(straight, map.traversals(["ab", "bc"]))

        // Straight through a crossing onto a differently named road.
        let plus = try plusMap(eastName: "High Street")
        let renamed = plus.steps(plus.traversals(["wx", "xe"]))
        XCTAssertEqual(kinds(renamed), ["depart", "new name straight", "arrive"])
        XCTAssertEqual(renamed[1].instructions, "Continue onto High Street")
    }

    func testGoingStraightIsAnnouncedWhereAnotherRoadAlsoGoesStraight() throws {
        // Branch Road leaves a only 11° off Main Street's straight line.
        let map = try DrawnMap("""
                bc




                a
                |
                |
                s
            """, ways: [("sab", ["highway": "residential", "name": "Main Street"]),
                        ("ac", ["highway": "residential", "name": "Branch Road"])])
        let steps = map.steps(map.traversals(["sa", "ab"]))
        XCTAssertEqual(kinds(steps), ["depart", "continue straight", "arrive"])
        XCTAssertEqual(steps[1].instructions, "Continue straight to stay on Main Street")
        XCTAssertEqual(steps[1].bearingAfter, 0)
    }

    func testNoStepWhereTheSameRoadIsMerelySplit() throws {
        let drawing = """
            a----b----c
                      |
                      |
                      d
            """
        let main: [String: String] = ["highway": "residential", "name": "Main Street"]
        let map = try DrawnMap(drawing, ways: [("ab", main), ("bc", main), ("cd", main)])
        let route = map.traversals(["ab", "bc", "cd"])
        let steps = map.steps(route)
        XCTAssertEqual(kinds(steps), ["depart", "arrive"])
        XCTAssertEqual(steps[0].geometry.count, 4)
        XCTAssertEqual(steps[1].bearingBefore, 180)
        assertSums(steps, route)

        // The road goes on as an unnamed footway: announced with the footway's generic name.
        let footway = try DrawnMap(drawing, ways: [("ab", main), ("bc", main), ("cd", ["highway": "footway"])])
        let walk = footway.steps(footway.traversals(["ab", "bc", "cd"], profile: "foot"), profile: "foot")
        XCTAssertEqual(kinds(walk), ["depart", "new name right", "arrive"])
        XCTAssertEqual(walk[1].instructions, "Continue right onto the footway")
        XCTAssertEqual(walk[1].name, "")
    }

    func testShortNameChangeThatChangesBackIsNotAnnounced() throws {
        // A 30 m bridge without a name in Main Street: one road.
        let short = try DrawnMap("""
            a-----b--c-----d
            """, ways: [("ab", ["highway": "residential", "name": "Main Street"]), ("bc", ["highway": "residential"]),
                        ("cd", ["highway": "residential", "name": "Main Street"])])
        let route = short.traversals(["ab", "bc", "cd"])
        let steps = short.steps(route)
        XCTAssertEqual(kinds(steps), ["depart", "arrive"])
        XCTAssertEqual(steps[0].name, "Main Street")
        assertSums(steps, route)

        // 150 m of another name is told.
        let long = try DrawnMap("""
            a-----b---------------c-----d
            """, ways: [("ab", ["highway": "residential", "name": "Main Street"]), ("bc", ["highway": "residential", "name": "Long Bridge"]),
                        ("cd", ["highway": "residential", "name": "Main Street"])])
        let told = long.steps(long.traversals(["ab", "bc", "cd"]))
        XCTAssertEqual(kinds(told), ["depart", "new name straight", "new name straight", "arrive"])
        XCTAssertEqual(told.map(\.instructions)[1...2], ["Continue onto Long Bridge", "Continue onto Main Street"])
    }

    func testUnnamedRoadsAndRefs() throws {
        let service = try plusMap(elm: ["highway": "service"])
        let steps = service.steps(service.traversals(["wx", "xn"]))
        XCTAssertEqual(steps[1].instructions, "Turn left onto the service road")
        XCTAssertEqual(steps[1].name, "")
        let fromService = service.steps(service.traversals(["sx", "xe"]))
        XCTAssertEqual(fromService[0].instructions, "Head north on the service road")

        let plain = try plusMap(elm: ["highway": "residential"])
        XCTAssertEqual(plain.steps(plain.traversals(["wx", "xs"]))[1].instructions, "Turn right")
        XCTAssertEqual(plain.steps(plain.traversals(["nx", "xw"]))[0].instructions, "Head south")

        let numbered = try plusMap(elm: ["highway": "primary", "ref": "A 5"])
        let onto = numbered.steps(numbered.traversals(["wx", "xn"]))
        XCTAssertEqual(onto[1].instructions, "Turn left onto A 5")
        XCTAssertEqual(onto[1].name, "A 5")
        XCTAssertEqual(onto[1].ref, "A 5")
    }

    func testUTurn() throws {
        let map = try plusMap()
        let route = map.traversals(["wx", "xw"])
        let steps = map.steps(route)
        XCTAssertEqual(kinds(steps), ["depart", "uturn uturn", "arrive"])
        XCTAssertEqual(steps[1].instructions, "Make a U-turn")
        XCTAssertEqual(steps[1].bearingBefore, 90)
        XCTAssertEqual(steps[1].bearingAfter, 270)
        assertClose(steps[1].location, map.coordinate("x"))
        XCTAssertEqual(steps[2].bearingBefore, 270)
        assertSums(steps, route)

        // Turning back mid-way along an edge the route started on part-way.
        let partial = [map.traversal("xw", from: 0.5), map.traversal("wx", to: 0.25)]
        XCTAssertEqual(kinds(map.steps(partial)), ["depart", "uturn uturn", "arrive"])
    }

    // MARK: Roundabouts

    func testRoundaboutExitNumbers() throws {
        let map = try roundaboutMap()
        let cases: [([String], Int, String, ManeuverModifier)] = [
            (["ab", "bc", "cd"], 1, "West Road", .right),
            (["ab", "bc", "ce", "ef"], 2, "South Road", .straight),
            (["ab", "bc", "ce", "eg", "gh"], 3, "East Road", .left),
        ]
        for (paths, exit, road, modifier) in cases {
            let route = map.traversals(paths)
            let steps = map.steps(route)
            XCTAssertEqual(steps.map(\.maneuver), [.depart, .roundabout, .arrive], road)
            let step = steps[1]
            XCTAssertEqual(step.exit, exit, road)
            XCTAssertEqual(step.name, road)
            XCTAssertEqual(step.modifier, modifier, road)
            XCTAssertEqual(step.instructions, "Enter the roundabout and take the \(InstructionText.ordinal(exit)) exit onto \(road)")
            assertClose(step.location, map.coordinate("b"))
            XCTAssertEqual(step.bearingBefore, 180)
            // The step covers the ring and the road after it.
            XCTAssertEqual(step.distance, route.dropFirst().reduce(0) { $0 + $1.distance }, accuracy: 1e-6)
            assertClose(step.geometry.last!, map.coordinate(road == "West Road" ? "d" : road == "South Road" ? "f" : "h"))
            assertSums(steps, route)
        }
        XCTAssertEqual(map.steps(map.traversals(["ab", "bc", "ce", "ef"]))[1].instructions,
                       "Enter the roundabout and take the 2nd exit onto South Road")
    }

    func testRoundaboutAroundItsClosingNode() throws {
        let map = try roundaboutMap()
        // From the south, past g and b (where the ring way starts and ends), out at c.
        let steps = map.steps(map.traversals(["fe", "eg", "gb", "bc", "cd"]))
        XCTAssertEqual(kinds(steps), ["depart", "roundabout left exit-3", "arrive"])
        XCTAssertEqual(steps[1].instructions, "Enter the roundabout and take the 3rd exit onto West Road")
    }

    func testRoundaboutExitsCountOnlyWhatTheModeMayUse() throws {
        // The west arm only leads into the ring: no exit for cars, one for walkers.
        let map = try roundaboutMap(westArm: ("dc", ["highway": "residential", "name": "West Road", "oneway": "yes"]))
        let car = map.steps(map.traversals(["ab", "bc", "ce", "ef"]), profile: "car")
        XCTAssertEqual(car[1].exit, 1)
        XCTAssertEqual(car[1].instructions, "Enter the roundabout and take the 1st exit onto South Road")
        let everything = map.steps(map.traversals(["ab", "bc", "ce", "ef"]), profile: nil)
        XCTAssertEqual(everything[1].exit, 2)
        let foot = map.steps(map.traversals(["ab", "bc", "ce", "ef"], profile: "foot"), profile: "foot")
        XCTAssertEqual(foot[1].maneuver, .roundabout)
        XCTAssertEqual(foot[1].exit, 2)
    }

    func testRoundaboutAgainstItsTrafficIsNoRoundabout() throws {
        let map = try roundaboutMap()
        // A walker going clockwise (against the cars) is told about turns, not exits.
        let steps = map.steps(map.traversals(["ab", "bg", "gh"], profile: "foot"), profile: "foot")
        XCTAssertEqual(kinds(steps), ["depart", "turn left", "new name slight left", "arrive"])
        XCTAssertEqual(steps[1].instructions, "Turn left onto Ring")
    }

    func testLegEndingOrStartingOnRoundabout() throws {
        let map = try roundaboutMap()
        let into = [map.traversal("ab"), map.traversal("bc", to: 0.5)]
        let entering = map.steps(into)
        XCTAssertEqual(kinds(entering), ["depart", "roundabout right", "arrive"])
        XCTAssertNil(entering[1].exit)
        XCTAssertEqual(entering[1].name, "Ring")
        XCTAssertEqual(entering[1].instructions, "Enter the roundabout")
        assertSums(entering, into)

        let outOf = [map.traversal("bc", from: 0.5), map.traversal("ce"), map.traversal("ef")]
        let leaving = map.steps(outOf)
        XCTAssertEqual(leaving.map(\.maneuver), [.depart, .exitRoundabout, .arrive])
        XCTAssertEqual(leaving[0].name, "Ring")
        XCTAssertEqual(leaving[1].exit, 2)
        XCTAssertEqual(leaving[1].instructions, "Take the 2nd exit onto South Road")
        assertClose(leaving[1].location, map.coordinate("e"))
        assertSums(leaving, outOf)
    }

    func testRoundaboutDetection() throws {
        let map = try roundaboutMap()
        let ring = try XCTUnwrap(map.edge("bc")).index
        let arm = try XCTUnwrap(map.edge("ab")).index
        let car = map.graph.profile(named: "car")
        XCTAssertEqual(StepBuilder.roundaboutFlow(ofWay: Int(map.graph.edgeWay[ring]), in: map.graph, profile: car), false)
        XCTAssertNil(StepBuilder.roundaboutFlow(ofWay: Int(map.graph.edgeWay[arm]), in: map.graph, profile: car))
        XCTAssertEqual(StepBuilder.edgeRange(ofWay: Int(map.graph.edgeWay[ring]), in: map.graph)?.count, 4)

        // A closed ring that is two-way for every mode is an ordinary street.
        let loop = try DrawnMap(Self.roundabout, ways: [("bcegb", ["highway": "residential", "name": "Ring"]),
                                                           ("ab", ["highway": "residential", "name": "North Road"])])
        let loopEdge = try XCTUnwrap(loop.edge("bcegb")).index
        XCTAssertNil(StepBuilder.roundaboutFlow(ofWay: Int(loop.graph.edgeWay[loopEdge]), in: loop.graph, profile: nil))
    }

    // MARK: Rules and text

    func testManeuverRules() {
        // Same road, no other way out: nothing, however it bends.
        XCTAssertNil(StepBuilder.maneuver(deviation: 95, alternatives: [], sameRoad: true, reversal: false))
        // Same road, the obvious way on: nothing; a real turn at a junction: continue.
        XCTAssertNil(StepBuilder.maneuver(deviation: 10, alternatives: [90], sameRoad: true, reversal: false))
        XCTAssertTrue(StepBuilder.maneuver(deviation: 90, alternatives: [0], sameRoad: true, reversal: false)! == (.continue, .right))
        XCTAssertTrue(StepBuilder.maneuver(deviation: 0, alternatives: [10], sameRoad: true, reversal: false)! == (.continue, .straight))
        XCTAssertNil(StepBuilder.maneuver(deviation: 0, alternatives: [25], sameRoad: true, reversal: false))
        XCTAssertTrue(StepBuilder.maneuver(deviation: 3, alternatives: [-12], sameRoad: false, reversal: false)! == (.turn, .straight))
        // Another road.
        XCTAssertTrue(StepBuilder.maneuver(deviation: 5, alternatives: [-90, 90], sameRoad: false, reversal: false)! == (.newName, .straight))
        XCTAssertTrue(StepBuilder.maneuver(deviation: -90, alternatives: [], sameRoad: false, reversal: false)! == (.newName, .left))
        XCTAssertTrue(StepBuilder.maneuver(deviation: -90, alternatives: [0], sameRoad: false, reversal: false)! == (.turn, .left))
        // Reversing.
        XCTAssertTrue(StepBuilder.maneuver(deviation: 0, alternatives: [], sameRoad: true, reversal: true)! == (.uturn, .uturn))
        XCTAssertTrue(StepBuilder.maneuver(deviation: 175, alternatives: [90], sameRoad: false, reversal: false)! == (.uturn, .uturn))
    }

    func testTurnAngleClassification() {
        XCTAssertEqual(TurnAngle.deviation(from: 350, to: 10), 20, accuracy: 1e-9)
        XCTAssertEqual(TurnAngle.deviation(from: 10, to: 350), -20, accuracy: 1e-9)
        XCTAssertEqual(TurnAngle.deviation(from: 90, to: 270), 180, accuracy: 1e-9)
        let expected: [(Double, ManeuverModifier)] = [
            (0, .straight), (19, .straight), (-19, .straight), (21, .slightRight), (-45, .slightLeft),
            (60, .right), (-119, .left), (121, .sharpRight), (-160, .sharpLeft), (172, .uturn), (-180, .uturn),
        ]
        for (deviation, modifier) in expected { XCTAssertEqual(TurnAngle.modifier(forDeviation: deviation), modifier, "\(deviation)") }
        XCTAssertEqual(TurnAngle.wholeDegrees(359.7), 0)
        XCTAssertEqual(TurnAngle.wholeDegrees(-0.4), 0)
        XCTAssertEqual(TurnAngle.compassName(0), "north")
        XCTAssertEqual(TurnAngle.compassName(350), "north")
        XCTAssertEqual(TurnAngle.compassName(135), "southeast")
        XCTAssertEqual(TurnAngle.compassName(269), "west")
    }

    func testBearingIsMeasuredOverTheLastMetresNotTheLastSegment() {
        // 100 m east, then a 2 m kink to the north-east just before the end.
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let scale = cos(49 * Double.pi / 180)
        func point(east: Double, north: Double) -> Coordinate {
            Coordinate(latitude: 49 + north / metresPerDegree, longitude: 8 + east / (metresPerDegree * scale))
        }
        let road = [point(east: 0, north: 0), point(east: 100, north: 0), point(east: 101.4, north: 1.4)]
        XCTAssertEqual(road[1].bearing(to: road[2]), 45, accuracy: 0.5)
        let final = TurnAngle.finalBearing(of: road)!
        XCTAssertEqual(final, 90, accuracy: 8)
        XCTAssertEqual(TurnAngle.modifier(forDeviation: TurnAngle.deviation(from: 90, to: final)), .straight)
        XCTAssertEqual(TurnAngle.initialBearing(of: road.reversed())!, 270, accuracy: 8)
        XCTAssertNil(TurnAngle.initialBearing(of: [road[0], road[0]]))
    }

    func testInstructionTexts() {
        XCTAssertEqual((1...5).map(InstructionText.ordinal), ["1st", "2nd", "3rd", "4th", "5th"])
        XCTAssertEqual([11, 12, 13, 21, 22, 101, 111].map(InstructionText.ordinal), ["11th", "12th", "13th", "21st", "22nd", "101st", "111th"])
        let avenue = StepBuilder.RoadLabel(name: "Wabash Avenue", ref: "US 41", highwayClass: .primary)
        XCTAssertEqual(InstructionText.depart(bearing: 2, road: avenue), "Head north on Wabash Avenue")
        XCTAssertEqual(InstructionText.turn(.slightRight, road: StepBuilder.RoadLabel(name: "", ref: "A 5", highwayClass: .motorway)),
                       "Turn slight right onto A 5")
        XCTAssertEqual(InstructionText.turn(.left, road: StepBuilder.RoadLabel(name: "", ref: "", highwayClass: .footway)),
                       "Turn left onto the footway")
        XCTAssertEqual(InstructionText.roundabout(exit: 2, road: StepBuilder.RoadLabel(name: "Boulevard X", ref: "", highwayClass: .primary)),
                       "Enter the roundabout and take the 2nd exit onto Boulevard X")
        XCTAssertEqual(InstructionText.roundabout(exit: 1, road: StepBuilder.RoadLabel(name: "", ref: "", highwayClass: .residential)),
                       "Enter the roundabout and take the 1st exit")
        XCTAssertEqual(InstructionText.uturn(road: avenue, sameRoad: true), "Make a U-turn")
        XCTAssertEqual(InstructionText.uturn(road: avenue, sameRoad: false), "Make a U-turn onto Wabash Avenue")
    }

    func testDeterministic() throws {
        let map = try roundaboutMap()
        let route = map.traversals(["ab", "bc", "ce", "eg", "gh"])
        XCTAssertEqual(map.steps(route), map.steps(route))
        XCTAssertEqual(map.steps(route, profile: nil), map.steps(route, profile: nil))
    }
}
