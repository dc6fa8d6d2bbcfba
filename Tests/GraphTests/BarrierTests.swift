import XCTest
@testable import Graph
import TestSupport

/// Barriers on nodes: which close a node to which mode, access tags on the node, and barrier nodes becoming graph
/// nodes. Every test uses a street through the node under test:
///
///     a---b---c     b is tagged
final class BarrierTests: XCTestCase {
    let street = "a---b---c"

    private func streetMap(_ nodeTags: [String: String], highway: String = "residential") throws -> DrawnMap {
        try DrawnMap(street, ways: [("abc", ["highway": highway])], nodes: ["b": nodeTags])
    }

    /// A barrier in the middle of a way splits it: the barrier node is a graph node, flagged as a barrier.
    func testBarrierNodeInTheMiddleOfAWayBecomesAGraphNode() throws {
        let map = try streetMap(["barrier": "gate"])
        XCTAssertEqual(map.graphNodeLetters, "abc")
        XCTAssertEqual(map.edgePaths, ["ab", "bc"])
        XCTAssertEqual(map.flags("b"), 0x80, "bit 7: has a barrier tag; passable for both profiles")
        XCTAssertEqual(map.flags("a"), 0)
        // Without the tag the node stays a shape point.
        let plain = try streetMap(["highway": "street_lamp"])
        XCTAssertEqual(plain.edgePaths, ["abc"])
    }

    /// `bollard|block|jersey_barrier|chain|fence|wall|planter|rope|log` close the node to cars.
    func testBlockingBarriersCloseTheNodeToCars() throws {
        for barrier in ["bollard", "block", "jersey_barrier", "chain", "fence", "wall", "planter", "rope", "log"] {
            let map = try streetMap(["barrier": barrier])
            XCTAssertTrue(map.isBlocked("b", "car"), barrier)
            XCTAssertEqual((map.flags("b") ?? 0) & 0x80, 0x80, barrier)
            XCTAssertFalse(map.isBlocked("a", "car"))
            // The edges themselves stay open: the node is what closes.
            XCTAssertSpeeds(map, "ab", "car", forward: 25, backward: 25)
        }
    }

    /// Every other barrier is passable by car.
    func testOtherBarriersArePassableByCar() throws {
        for barrier in ["gate", "lift_gate", "toll_booth", "cattle_grid", "border_control", "swing_gate", "kerb", "entrance", "yes"] {
            let map = try streetMap(["barrier": barrier])
            XCTAssertFalse(map.isBlocked("b", "car"), barrier)
            XCTAssertTrue(map.isGraphNode("b"), barrier)
        }
        // Even with a denying access tag: the rule lists the blocking barriers, the rest pass.
        XCTAssertFalse(try streetMap(["barrier": "gate", "access": "private"]).isBlocked("b", "car"))
    }

    /// An allowing access tag on the barrier node reopens it, read through the car hierarchy
    /// (motorcar > motor_vehicle > vehicle > access).
    func testNodeAccessReopensACarBarrier() throws {
        let cases: [([String: String], Bool)] = [
            (["access": "yes"], false),
            (["motorcar": "yes"], false),
            (["motor_vehicle": "destination"], false),
            (["vehicle": "permissive"], false),
            (["access": "no", "motorcar": "yes"], false),
            (["access": "no"], true),
            (["motorcar": "no", "access": "yes"], true),
            (["vehicle": "private", "access": "yes"], true),
            (["foot": "yes"], true),
            (["bicycle": "yes"], true),
        ]
        for (access, blocked) in cases {
            let map = try streetMap(["barrier": "bollard"].merging(access) { a, _ in a })
            XCTAssertEqual(map.isBlocked("b", "car"), blocked, "\(access)")
        }
    }

    /// Walkers pass every barrier except fences and walls; a `foot=no` node stops them.
    func testBarriersForWalkers() throws {
        for barrier in ["bollard", "block", "gate", "lift_gate", "chain", "stile", "kissing_gate", "cattle_grid"] {
            XCTAssertFalse(try streetMap(["barrier": barrier]).isBlocked("b", "foot"), barrier)
        }
        for barrier in ["fence", "wall"] {
            let map = try streetMap(["barrier": barrier])
            XCTAssertTrue(map.isBlocked("b", "foot"), barrier)
            XCTAssertEqual(map.flags("b"), 0x80 | 0b11, "closed to car (bit 0) and foot (bit 1)")
        }
        // Access on the node does not reopen a fence for walkers.
        XCTAssertTrue(try streetMap(["barrier": "fence", "foot": "yes"]).isBlocked("b", "foot"))
        let footNo = try streetMap(["barrier": "gate", "foot": "no"])
        XCTAssertTrue(footNo.isBlocked("b", "foot"))
        XCTAssertFalse(footNo.isBlocked("b", "car"))
    }

    /// `foot=no` on a node without any barrier still closes it to walkers, and makes it a graph node (no barrier bit).
    func testFootNoWithoutBarrier() throws {
        let map = try streetMap(["foot": "no"])
        XCTAssertEqual(map.edgePaths, ["ab", "bc"])
        XCTAssertEqual(map.flags("b"), 0b10)
        XCTAssertTrue(map.isBlocked("b", "foot"))
        XCTAssertFalse(map.isBlocked("b", "car"))
    }

    /// A bollard where a footway meets a street closes that intersection to cars, not to walkers.
    func testBarrierAtAnIntersection() throws {
        let map = try DrawnMap("""
            a---b---c
                |
                d
            """, ways: [("abc", ["highway": "residential"]), ("bd", ["highway": "footway"])],
            nodes: ["b": ["barrier": "bollard"]])
        XCTAssertEqual(map.graphNodeLetters, "abcd")
        XCTAssertTrue(map.isBlocked("b", "car"))
        XCTAssertFalse(map.isBlocked("b", "foot"))
    }

    /// A barrier node that no routable way uses does not enter the graph.
    func testBarrierOffTheRoadsIsIgnored() throws {
        let map = try DrawnMap("""
            a---b---c

            x---y
            """, ways: [("abc", ["highway": "residential"]), ("xy", ["barrier": "fence"])],
            nodes: ["y": ["barrier": "bollard"]])
        XCTAssertEqual(map.graphNodeLetters, "ac")
        XCTAssertNil(map.node("y"))
    }

    /// Node flag bits follow the profile order of the import.
    func testFlagBitsFollowProfileOrder() throws {
        let map = try DrawnMap(street, ways: [("abc", ["highway": "residential"])], nodes: ["b": ["barrier": "wall"]],
                               profiles: [.foot, .car])
        XCTAssertEqual(map.graph.profiles.map(\.profile.name), ["foot", "car"])
        XCTAssertEqual(map.flags("b"), 0x80 | 0b11)
        let bollard = try DrawnMap(street, ways: [("abc", ["highway": "residential"])], nodes: ["b": ["barrier": "bollard"]],
                                   profiles: [.foot, .car])
        XCTAssertEqual(bollard.flags("b"), 0x80 | 0b10, "car is profile 1 here")
        XCTAssertTrue(bollard.isBlocked("b", "car"))
        XCTAssertFalse(bollard.isBlocked("b", "foot"))
    }
}
