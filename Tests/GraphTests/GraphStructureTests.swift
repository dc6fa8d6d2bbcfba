import Foundation
import XCTest
import OSM
@testable import Graph
import TestSupport

/// The shape of the graph: which way nodes become graph nodes (intersections, way ends, loops) and which stay
/// shape points, edge geometry and length, missing nodes, duplicate ways, labels, and input order.
final class GraphStructureTests: XCTestCase {

    // MARK: The test helper itself

    /// The helper's grid: 10 m per column and per line, rows going south, ids fixed by letter.
    func testAsciiMapGridIsTenMetresPerCell() throws {
        let map = try DrawnMap("""
            a-b
            c
            """, ways: [("abc", ["highway": "residential"])])
        XCTAssertEqual(map.length("ab"), 20, accuracy: 0.01)
        XCTAssertEqual(map.length("ac"), 10, accuracy: 0.01)
        XCTAssertGreaterThan(map.fixedPoint("a").latitude, map.fixedPoint("c").latitude, "lines go south")
        XCTAssertLessThan(map.fixedPoint("a").longitude, map.fixedPoint("b").longitude, "columns go east")
        XCTAssertEqual(DrawnMap.osmID(of: "a"), 1)
        XCTAssertEqual(DrawnMap.osmID(of: "c"), 3)
        XCTAssertTrue(map.xml.contains("<node id=\"1\" lat=\"49.0000000\" lon=\"8.0000000\"/>"), map.xml)
        XCTAssertTrue(map.xml.contains("<way id=\"101\">"), map.xml)
        XCTAssertEqual(DrawnMap.degrees(-123), "-0.0000123")
        XCTAssertEqual(DrawnMap.degrees(490_001_234), "49.0001234")
    }

    // MARK: Graph nodes and shape points

    /// Intersections and way ends become graph nodes; a node used by a single way in its middle is a shape point.
    func testIntersectionsAndWayEndsAreGraphNodesOthersAreShapePoints() throws {
        let map = try DrawnMap("""
            a---b---c
                |
                d
                |
                e---f
            """, ways: [
                ("abc", ["highway": "primary"]),
                ("bde", ["highway": "residential"]),
                ("ef", ["highway": "residential"]),
            ])
        XCTAssertEqual(map.graphNodeLetters, "abcef")
        XCTAssertFalse(map.isGraphNode("d"))
        XCTAssertEqual(map.edgePaths, ["ab", "bc", "bde", "ef"])
        XCTAssertEqual(map.statistics.graphNodes, 5)
        XCTAssertEqual(map.statistics.graphEdges, 4)
        XCTAssertEqual(map.statistics.shapePoints, 1)
        XCTAssertEqual(map.graph.shapeLatitudes.count, 1)
        // The edge keeps the way's node order: b → d → e.
        let bde = try XCTUnwrap(map.edge("bde"))
        XCTAssertFalse(bde.reversed)
    }

    /// A dead end is a graph node with a single edge; a node where three ways meet has three.
    func testDeadEndsHaveOneEdgeJunctionsSeveral() throws {
        let map = try DrawnMap("""
            a---b---c
                |
                d
            """, ways: [("ab", ["highway": "residential"]), ("bc", ["highway": "residential"]), ("bd", ["highway": "residential"])])
        let car = map.profile("car")
        func degree(_ letter: Character) -> Int {
            guard let n = map.node(letter) else { return -1 }
            return Int(car.firstIncidence[n + 1] - car.firstIncidence[n])
        }
        XCTAssertEqual(degree("a"), 1)
        XCTAssertEqual(degree("c"), 1)
        XCTAssertEqual(degree("d"), 1)
        XCTAssertEqual(degree("b"), 3)
    }

    /// A way crossing another in their middles splits both at the crossing node.
    func testCrossingWaysAreSplitAtTheSharedNode() throws {
        let map = try DrawnMap("""
                a
                |
            b---c---d
                |
                e
            """, ways: [("ace", ["highway": "residential"]), ("bcd", ["highway": "residential"])])
        XCTAssertEqual(map.graphNodeLetters, "abcde")
        XCTAssertEqual(map.edgePaths, ["ac", "bc", "cd", "ce"])
    }

    /// Ways sharing only their end node meet there; a straight continuation without any junction still splits at
    /// the way ends.
    func testWaysJoinedEndToEndMeetAtTheirEnds() throws {
        let map = try DrawnMap("""
            a--b--c--d--e
            """, ways: [("abc", ["highway": "residential"]), ("cde", ["highway": "residential"])])
        XCTAssertEqual(map.graphNodeLetters, "ace")
        XCTAssertEqual(map.edgePaths, ["abc", "cde"])
    }

    /// A closed way (a loop back to its first node) is one edge from that node to itself.
    func testClosedWayIsALoopEdge() throws {
        let map = try DrawnMap("""
            a---b
            |   |
            d---c
            """, ways: [("abcda", ["highway": "residential"])])
        XCTAssertEqual(map.graphNodeLetters, "a")
        XCTAssertEqual(map.edgePaths, ["abcda"])
        XCTAssertSpeeds(map, "abcda", "car", forward: 25, backward: 25)
    }

    /// A node a way meets twice (a lollipop) is a graph node even without another way.
    func testNodeVisitedTwiceByOneWayIsAGraphNode() throws {
        let map = try DrawnMap("""
            a---b---c
                |   |
                e---d
            """, ways: [("abcdeb", ["highway": "residential"])])
        XCTAssertEqual(map.graphNodeLetters, "ab")
        XCTAssertEqual(map.edgePaths, ["ab", "bcdeb"])
    }

    /// A node repeated consecutively in a way is read once: no zero-length edge.
    func testRepeatedConsecutiveNodeIsReadOnce() throws {
        let map = try DrawnMap("a---b---c", ways: [("abbc", ["highway": "residential"])])
        XCTAssertEqual(map.edgePaths, ["abc"])
        XCTAssertEqual(map.graphNodeLetters, "ac")
    }

    /// Edge length is the haversine length through every node of the way, intermediate ones included, in millimetres.
    func testEdgeLengthFollowsEveryShapePoint() throws {
        let map = try DrawnMap("""
            a       c       e
              \\   /   \\   /
                b       d
            """, ways: [("abcde", ["highway": "residential"])])
        let edge = try XCTUnwrap(map.edge("abcde"))
        let expected = map.length("abcde")
        XCTAssertEqual(Double(map.graph.edgeLengthMillimetres[edge.index]), expected * 1000, accuracy: 1)
        // Much longer than the straight line: the shape points count.
        XCTAssertGreaterThan(expected, map.length("ae") + 10)
        XCTAssertSpeeds(map, "abcde", "car", forward: 25, backward: 25)
        XCTAssertSpeeds(map, "abcde", "foot", forward: 5, backward: 5)
    }

    /// Graph nodes keep their OSM id and position; ways their OSM id, name, ref and highway class.
    func testNodeAndWayAttributes() throws {
        let map = try DrawnMap("""
            a---b---c
                |
                d
            """, ways: [
                DrawnMap.Way("abc", ["highway": "primary", "name": "Hauptstraße", "ref": "B 3"], id: 7_000_000_001),
                DrawnMap.Way("bd", ["highway": "footway", "name": "Weg"], id: 42),
            ])
        let g = map.graph
        for letter in "abcd" {
            let n = try XCTUnwrap(map.node(letter))
            XCTAssertEqual(g.nodeOSMIDs[n], DrawnMap.osmID(of: letter))
            XCTAssertEqual(g.nodeLatitudes[n], map.fixedPoint(letter).latitude)
            XCTAssertEqual(g.nodeLongitudes[n], map.fixedPoint(letter).longitude)
        }
        XCTAssertEqual(Array(g.wayOSMIDs), [42, 7_000_000_001], "ways sorted by OSM id")
        XCTAssertEqual(g.string(g.wayNames[1]), "Hauptstraße")
        XCTAssertEqual(g.string(g.wayRefs[1]), "B 3")
        XCTAssertEqual(g.string(g.wayNames[0]), "Weg")
        XCTAssertEqual(g.wayRefs[0], 0, "no ref: string 0")
        XCTAssertEqual(g.string(0), "")
        XCTAssertEqual(g.wayClasses[1], HighwayClass.primary.rawValue)
        XCTAssertEqual(g.wayClasses[0], HighwayClass.footway.rawValue)
        let ab = try XCTUnwrap(map.edge("ab")), bd = try XCTUnwrap(map.edge("bd"))
        XCTAssertEqual(g.wayOSMIDs[Int(g.edgeWay[ab.index])], 7_000_000_001)
        XCTAssertEqual(g.wayOSMIDs[Int(g.edgeWay[bd.index])], 42)
    }

    /// String 0 is the empty string ("no name"): ways without a name or ref point at it, named ways never do, and
    /// ways sharing a name share its string.
    func testStringTableKeepsStringZeroEmpty() throws {
        let map = try DrawnMap("""
            a---b---c---d---e
            """, ways: [
                DrawnMap.Way("ab", ["highway": "residential", "name": "Elm"], id: 1),
                DrawnMap.Way("bc", ["highway": "residential"], id: 2),
                DrawnMap.Way("cd", ["highway": "residential", "name": "Elm", "ref": "K 7"], id: 3),
                DrawnMap.Way("de", ["highway": "residential", "ref": "K 7"], id: 4),
            ])
        let g = map.graph
        XCTAssertEqual(g.string(0), "")
        XCTAssertEqual((0..<4).map { g.string(g.wayNames[$0]) }, ["Elm", "", "Elm", ""])
        XCTAssertEqual((0..<4).map { g.string(g.wayRefs[$0]) }, ["", "", "K 7", "K 7"])
        XCTAssertEqual(g.wayNames[1], 0)
        XCTAssertNotEqual(g.wayNames[0], 0)
        XCTAssertEqual(g.wayNames[0], g.wayNames[2])
        XCTAssertEqual(g.stringStart.count, 4, "three strings: \"\", Elm, K 7")
    }

    /// A map without any name or ref still has string 0.
    func testStringTableWithoutAnyName() throws {
        let map = try DrawnMap("a---b", ways: [("ab", ["highway": "residential"])])
        XCTAssertEqual(Array(map.graph.stringStart), [0, 0])
        XCTAssertEqual(map.graph.string(0), "")
        XCTAssertEqual(map.graph.string(map.graph.wayNames[0]), "")
    }

    /// Graph nodes are numbered along the Hilbert curve of their position.
    func testGraphNodesAreInHilbertOrder() throws {
        let map = try DrawnMap("""
            a---b---c---d
            |   |   |   |
            e---f---g---h
            |   |   |   |
            i---j---k---l
            """, ways: [
                ("abcd", ["highway": "residential"]), ("efgh", ["highway": "residential"]), ("ijkl", ["highway": "residential"]),
                ("aei", ["highway": "residential"]), ("bfj", ["highway": "residential"]), ("cgk", ["highway": "residential"]),
                ("dhl", ["highway": "residential"]),
            ])
        XCTAssertEqual(map.graph.nodeCount, 12)
        let keys = (0..<map.graph.nodeCount).map { Geo.hilbertIndex(lat: map.graph.nodeLatitudes[$0], lon: map.graph.nodeLongitudes[$0]) }
        XCTAssertEqual(keys, keys.sorted())
    }

    /// The bounding box of the statistics covers nodes and shape points.
    func testBoundingBoxCoversShapePoints() throws {
        let map = try DrawnMap("""
            a-------c
             \\     /
              \\   /
                b
            """, ways: [("abc", ["highway": "residential"])])
        XCTAssertFalse(map.isGraphNode("b"))
        let s = map.statistics
        XCTAssertEqual(s.minLatitude, map.fixedPoint("b").latitude)
        XCTAssertEqual(s.maxLatitude, map.fixedPoint("a").latitude)
        XCTAssertEqual(s.minLongitude, map.fixedPoint("a").longitude)
        XCTAssertEqual(s.maxLongitude, map.fixedPoint("c").longitude)
    }

    // MARK: Missing nodes

    /// A way referencing a node missing from the extract keeps the rest of the way; the segments touching the missing
    /// node are dropped, and the nodes beside the gap become way ends.
    func testMissingNodeInTheMiddleSplitsTheWay() throws {
        let map = try DrawnMap("""
            a---b---x---c---d---e
            """, ways: [("abxcde", ["highway": "residential"])], omit: "x")
        XCTAssertEqual(map.edgePaths, ["ab", "cde"])
        XCTAssertEqual(map.graphNodeLetters, "abce")
        XCTAssertEqual(map.statistics.waysWithMissingNodes, 1)
        XCTAssertEqual(map.statistics.segmentsDropped, 2)
        XCTAssertEqual(map.statistics.waysWithoutGeometry, 0)
        XCTAssertSpeeds(map, "cde", "car", forward: 25, backward: 25)
    }

    /// Missing nodes at a way's ends drop one segment each.
    func testMissingNodesAtTheEnds() throws {
        let map = try DrawnMap("""
            x---a---b---c---y
            """, ways: [("xabcy", ["highway": "residential"])], omit: "xy")
        XCTAssertEqual(map.edgePaths, ["abc"])
        XCTAssertEqual(map.statistics.waysWithMissingNodes, 1)
        XCTAssertEqual(map.statistics.segmentsDropped, 2)
    }

    /// Two missing nodes in a row drop three segments; a way left with one node has no geometry at all.
    func testSeveralMissingNodesAndAWayWithoutGeometry() throws {
        let map = try DrawnMap("""
            a---x---y---b---c

            d---z
            """, ways: [("axybc", ["highway": "residential"]), ("dz", ["highway": "residential"])], omit: "xyz")
        XCTAssertEqual(map.edgePaths, ["bc"])
        XCTAssertFalse(map.isGraphNode("a"))
        XCTAssertFalse(map.isGraphNode("d"))
        XCTAssertEqual(map.statistics.waysWithMissingNodes, 2)
        XCTAssertEqual(map.statistics.segmentsDropped, 4)
        XCTAssertEqual(map.statistics.waysWithoutGeometry, 1)
    }

    /// An intersection node missing from the extract disconnects the ways that meet there.
    func testMissingIntersectionNode() throws {
        let map = try DrawnMap("""
            a---b---x---c
                    |
                    d
                    |
                    e
            """, ways: [("abxc", ["highway": "residential"]), ("xde", ["highway": "residential"])], omit: "x")
        XCTAssertEqual(map.edgePaths, ["ab", "de"])
        XCTAssertEqual(map.statistics.segmentsDropped, 3)
        XCTAssertEqual(map.statistics.waysWithMissingNodes, 2)
    }

    // MARK: Duplicates

    /// A way id given twice: the first copy is kept, the later one ignored and counted.
    func testDuplicateWayIDKeepsTheFirstCopy() throws {
        let map = try DrawnMap("""
            a---b---c
            |
            d---e
            """, ways: [
                DrawnMap.Way("abc", ["highway": "primary"], id: 5),
                DrawnMap.Way("ade", ["highway": "residential"], id: 5),
                DrawnMap.Way("ce", ["highway": "service"], id: 6),
            ])
        XCTAssertEqual(map.statistics.waysDuplicate, 1)
        XCTAssertEqual(Array(map.graph.wayOSMIDs), [5, 6])
        XCTAssertEqual(map.edgePaths, ["abc", "ce"])
        XCTAssertSpeeds(map, "abc", "car", forward: 65, backward: 65)
    }

    /// A node id given twice: the first position is kept and counted.
    func testDuplicateNodeIDKeepsTheFirstPosition() throws {
        // Write a file by hand: node 2 twice, the second copy far away.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-graphtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("dup.osm").path, output = directory.appendingPathComponent("dup.wfg").path
        try """
            <osm version="0.6">
              <node id="1" lat="49.0" lon="8.0"/>
              <node id="2" lat="49.001" lon="8.0"/>
              <node id="2" lat="50.0" lon="9.0"/>
              <way id="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
            </osm>
            """.write(toFile: input, atomically: false, encoding: .utf8)
        let statistics = try GraphImporter().run(input: input, output: output)
        XCTAssertEqual(statistics.nodesDuplicate, 1)
        let graph = try RoadGraph(path: output)
        let n = try XCTUnwrap(graph.nodeOSMIDs.firstIndex(of: 2))
        XCTAssertEqual(graph.nodeLatitudes[n], 490_010_000)
        XCTAssertEqual(graph.nodeLongitudes[n], 80_000_000)
    }

    /// Negative ids (as JOSM gives new objects) and ids beyond 32 bits sort and link like any other.
    func testNegativeAndLargeIDs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-graphtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("ids.osm").path, output = directory.appendingPathComponent("ids.wfg").path
        try """
            <osm version="0.6">
              <node id="-1" lat="49.0" lon="8.0"/>
              <node id="-2" lat="49.0" lon="8.001"/>
              <node id="-3" lat="49.0" lon="8.002"/>
              <node id="9000000000" lat="49.001" lon="8.001"/>
              <way id="-7"><nd ref="-1"/><nd ref="-2"/><nd ref="-3"/><tag k="highway" v="residential"/></way>
              <way id="8000000000"><nd ref="-2"/><nd ref="9000000000"/><tag k="highway" v="service"/></way>
            </osm>
            """.write(toFile: input, atomically: false, encoding: .utf8)
        let statistics = try GraphImporter().run(input: input, output: output)
        XCTAssertEqual(statistics.nodesDuplicate, 0)
        let graph = try RoadGraph(path: output)
        XCTAssertEqual(Set(graph.nodeOSMIDs), [-1, -2, -3, 9_000_000_000])
        XCTAssertEqual(Array(graph.wayOSMIDs), [-7, 8_000_000_000])
        XCTAssertEqual(graph.edgeCount, 3)
        let n2 = try XCTUnwrap(graph.nodeOSMIDs.firstIndex(of: -2))
        XCTAssertEqual(graph.nodeLongitudes[n2], 80_010_000)
        let car = try XCTUnwrap(graph.profile(named: "car"))
        XCTAssertEqual(car.firstIncidence[n2 + 1] - car.firstIncidence[n2], 3)
    }

    // MARK: Input order

    /// Nodes, ways and relations in any order (shuffled, or all mixed together) give a byte-identical graph file.
    /// The map has a bit of everything: shape points, names, one-ways, barriers, restrictions, a missing node (x).
    func testUnsortedInputGivesTheSameGraphAsSortedInput() throws {
        let drawing = """
            a---b---c---d
            |   |   |   |
            e---f---g---h
                |       |
                i---j---k
                        |
                        x---l
            """
        let ways: [(String, [String: String])] = [
            ("abcd", ["highway": "primary", "name": "Main"]), ("efgh", ["highway": "residential", "oneway": "yes"]),
            ("ae", ["highway": "service"]), ("bfi", ["highway": "footway"]), ("cg", ["highway": "tertiary", "maxspeed": "30"]),
            ("dhk", ["highway": "secondary", "ref": "S1"]), ("ijk", ["highway": "living_street"]), ("kxl", ["highway": "track"]),
        ]
        let nodes: [Character: [String: String]] = ["g": ["barrier": "bollard"], "j": ["barrier": "gate"]]
        let relations: [DrawnMap.Relation] = [
            .restriction("no_left_turn", from: "abcd", via: "c", to: "cg"),
            .restriction("only_straight_on", from: "ae", via: "e", to: "efgh"),
            .restriction("no_u_turn", from: "cg", viaWays: ["efgh"], to: "dhk"),
        ]
        func importMap(_ order: DrawnMap.ElementOrder) throws -> DrawnMap {
            try DrawnMap(drawing, ways: ways, nodes: nodes, relations: relations, omit: "x", order: order)
        }
        let sorted = try importMap(.sorted)
        XCTAssertEqual(sorted.restrictions("car"), ["no:bcg", "no:cghd", "no:cghk", "no:dcg", "only:aef"])
        for order in [DrawnMap.ElementOrder.shuffled(seed: 1), .shuffled(seed: 2), .interleaved(seed: 3), .interleaved(seed: 4)] {
            let other = try importMap(order)
            XCTAssertNotEqual(other.xml, sorted.xml)
            XCTAssertEqual(other.statistics, sorted.statistics, "\(order)")
            XCTAssertEqual(try other.graphBytes(), try sorted.graphBytes(), "\(order)")
        }
    }

    // MARK: Profiles over shared edges

    /// Each profile lists at a node exactly the edges it may use there, with the side the node is on.
    func testIncidenceListsHoldTheEdgesEachProfileMayUse() throws {
        let map = try DrawnMap("""
            a---b---c
                |
                d
            """, ways: [("abc", ["highway": "residential"]), ("bd", ["highway": "footway"])])
        let car = map.profile("car"), foot = map.profile("foot")
        func incident(_ profile: ProfileGraph, _ letter: Character) -> [String] {
            guard let n = map.node(letter) else { return ["\(letter) is no graph node"] }
            return (Int(profile.firstIncidence[n])..<Int(profile.firstIncidence[n + 1])).map { i -> String in
                let entry = profile.incidence[i], e = Int(entry >> 1)
                let this = entry & 1 == 0 ? map.graph.edgeFrom[e] : map.graph.edgeTo[e]
                XCTAssertEqual(Int(this), n, "side bit names this node")
                let other = entry & 1 == 0 ? map.graph.edgeTo[e] : map.graph.edgeFrom[e]
                return String(map.letter(ofNode: Int(other)))
            }.sorted()
        }
        XCTAssertEqual(incident(car, "b"), ["a", "c"])
        XCTAssertEqual(incident(foot, "b"), ["a", "c", "d"])
        XCTAssertEqual(incident(car, "d"), [])
        XCTAssertEqual(incident(foot, "d"), ["b"])
        XCTAssertEqual(map.statistics.profiles[0].edges, 2)
        XCTAssertEqual(map.statistics.profiles[0].nodes, 3)
        XCTAssertEqual(map.statistics.profiles[1].edges, 3)
        XCTAssertEqual(map.statistics.profiles[1].nodes, 4)
        XCTAssertClosed(map, "bd", "car")
        XCTAssertSpeeds(map, "bd", "foot", forward: 5, backward: 5)
    }

    /// Per-profile statistics: usable edges, directed edges and kilometres.
    func testProfileStatistics() throws {
        let map = try DrawnMap("""
            a---------b---------c
                      |
                      d
            """, ways: [("ab", ["highway": "residential", "oneway": "yes"]), ("bc", ["highway": "residential"]),
                        ("bd", ["highway": "steps"])])
        let car = map.statistics.profiles[0], foot = map.statistics.profiles[1]
        XCTAssertEqual(car.name, "car")
        XCTAssertEqual(car.edges, 2)
        XCTAssertEqual(car.directedEdges, 3)
        XCTAssertEqual(car.kilometres, (map.length("ab") + map.length("bc")) / 1000, accuracy: 1e-6)
        XCTAssertEqual(foot.name, "foot")
        XCTAssertEqual(foot.edges, 3)
        XCTAssertEqual(foot.directedEdges, 6)
        XCTAssertEqual(foot.kilometres, (map.length("ab") + map.length("bc") + map.length("bd")) / 1000, accuracy: 1e-6)
        XCTAssertEqual(map.statistics.nodesRead, 4)
        XCTAssertEqual(map.statistics.waysRead, 3)
        XCTAssertEqual(map.statistics.relationsRead, 0)
        XCTAssertEqual(map.graph.metadata.statistics, map.statistics)
    }

    /// Ways no profile can use are counted: with a `highway` tag as unroutable, without one as not roads.
    func testUnusableWaysAreCountedAndLeftOut() throws {
        let map = try DrawnMap("""
            a---b
            c---d
            e---f
            """, ways: [("ab", ["highway": "residential"]), ("cd", ["highway": "motorway", "access": "no"]),
                        ("ef", ["building": "yes"])])
        XCTAssertEqual(map.statistics.waysUnroutable, 1)
        XCTAssertEqual(map.statistics.waysNotRoads, 1)
        XCTAssertEqual(map.edgePaths, ["ab"])
        XCTAssertEqual(Array(map.graph.wayOSMIDs), [101])
    }
}
