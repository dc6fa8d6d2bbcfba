import XCTest
@testable import Graph
import TestSupport

/// The foot rules of `profiles.md` (with Wayfinder's readings from `docs/profiles.md`), end to end on drawn maps.
/// Most tests use `twoStreets` (way `ab` under test, `cd` a residential street).
final class FootProfileTests: XCTestCase {

    /// Every listed highway value is walkable at 5 km/h both ways; steps at 3 km/h.
    func testWalkableHighwaysAndSpeeds() throws {
        let walkable = ["footway", "pedestrian", "path", "living_street", "residential", "service", "unclassified",
                        "tertiary", "tertiary_link", "secondary", "secondary_link", "primary", "primary_link",
                        "trunk", "trunk_link", "track", "bridleway", "cycleway", "corridor", "platform"]
        for highway in walkable {
            XCTAssertSpeeds(try singleWayMap(["highway": highway]), "ab", "foot", forward: 5, backward: 5)
        }
        XCTAssertSpeeds(try singleWayMap(["highway": "steps"]), "ab", "foot", forward: 3, backward: 3)
    }

    /// Motorways and other unlisted values are not for walkers.
    func testMotorwaysAndUnlistedHighwaysAreNotWalkable() throws {
        for highway in ["motorway", "motorway_link", "bus_guideway", "raceway", "road", "construction", "proposed", "abandoned"] {
            XCTAssertClosed(try singleWayMap(["highway": highway]), "ab", "foot")
        }
        XCTAssertClosed(try singleWayMap(["name": "no highway tag"]), "ab", "foot")
    }

    /// Platforms tagged `railway=platform` or `public_transport=platform` are walkable, with or without `highway`,
    /// and stored with class `platform`.
    func testPlatforms() throws {
        for tags in [["railway": "platform"], ["public_transport": "platform"], ["railway": "platform", "highway": "bus_guideway"]] {
            let map = try singleWayMap(tags)
            XCTAssertSpeeds(map, "ab", "foot", forward: 5, backward: 5)
            XCTAssertClosed(map, "ab", "car")
            if tags["highway"] == nil {
                XCTAssertEqual(map.graph.wayClasses[try XCTUnwrap(map.wayIndex("ab"))], HighwayClass.platform.rawValue)
            }
        }
        XCTAssertClosed(try singleWayMap(["railway": "rail"]), "ab", "foot")
        XCTAssertClosed(try singleWayMap(["railway": "platform", "foot": "no"]), "ab", "foot")
    }

    /// `foot=yes|designated|permissive` opens any way that has a `highway` tag, even one not listed (and even a
    /// motorway: the explicit tag wins, as `docs/profiles.md` reads it); without `highway` it does nothing.
    func testFootPermissionOpensHighways() throws {
        for value in ["yes", "designated", "permissive"] {
            XCTAssertSpeeds(try singleWayMap(["highway": "bus_guideway", "foot": value]), "ab", "foot", forward: 5, backward: 5)
            XCTAssertSpeeds(try singleWayMap(["highway": "motorway", "foot": value]), "ab", "foot", forward: 5, backward: 5)
        }
        XCTAssertSpeeds(try singleWayMap(["highway": "steps", "foot": "yes"]), "ab", "foot", forward: 3, backward: 3)
        XCTAssertClosed(try singleWayMap(["building": "yes", "foot": "yes"]), "ab", "foot")
        XCTAssertClosed(try singleWayMap(["highway": "bus_guideway", "foot": "destination"]), "ab", "foot")
        // Only the foot tag opens: a general `access=yes` does not.
        XCTAssertClosed(try singleWayMap(["highway": "bus_guideway", "access": "yes"]), "ab", "foot")
        XCTAssertClosed(try singleWayMap(["highway": "motorway", "access": "designated"]), "ab", "foot")
        // Construction stays closed whatever the tags say.
        XCTAssertClosed(try singleWayMap(["highway": "construction", "foot": "yes"]), "ab", "foot")
    }

    /// `foot=no|private|use_sidepath` close a way; so do `access=no|private` when `foot` is absent.
    func testFootAccess() throws {
        for value in ["no", "private", "use_sidepath"] {
            let map = try singleWayMap(["highway": "residential", "foot": value])
            XCTAssertClosed(map, "ab", "foot")
            XCTAssertSpeeds(map, "ab", "car", forward: 25, backward: 25)
        }
        for value in ["no", "private"] {
            XCTAssertClosed(try singleWayMap(["highway": "footway", "access": value]), "ab", "foot")
            // A foot tag, being more specific, decides.
            XCTAssertSpeeds(try singleWayMap(["highway": "footway", "access": value, "foot": "yes"]), "ab", "foot", forward: 5, backward: 5)
        }
        XCTAssertClosed(try singleWayMap(["highway": "footway", "access": "yes", "foot": "no"]), "ab", "foot")
        // Values not listed for walkers keep the way open.
        for tags in [["access": "agricultural"], ["access": "destination"], ["foot": "destination"], ["vehicle": "no"], ["motorcar": "no"]] {
            XCTAssertSpeeds(try singleWayMap(["highway": "residential"].merging(tags) { a, _ in a }), "ab", "foot", forward: 5, backward: 5)
        }
    }

    /// One-way tags do not apply on foot, except `oneway:foot`.
    func testOnewayOnlyThroughOnewayFoot() throws {
        for tags in [["oneway": "yes"], ["oneway": "-1"], ["junction": "roundabout"], ["oneway": "reversible"]] {
            XCTAssertSpeeds(try singleWayMap(["highway": "primary"].merging(tags) { a, _ in a }), "ab", "foot", forward: 5, backward: 5)
        }
        XCTAssertSpeeds(try singleWayMap(["highway": "footway", "oneway:foot": "yes"]), "ab", "foot", forward: 5, backward: nil)
        XCTAssertSpeeds(try singleWayMap(["highway": "footway", "oneway:foot": "-1"]), "ab", "foot", forward: nil, backward: 5)
        XCTAssertSpeeds(try singleWayMap(["highway": "primary", "oneway": "yes", "oneway:foot": "no"]), "ab", "foot", forward: 5, backward: 5)
        // Cars keep their one-way.
        XCTAssertSpeeds(try singleWayMap(["highway": "primary", "oneway": "yes", "oneway:foot": "no"]), "ab", "car", forward: 65, backward: nil)
    }

    /// `maxspeed` does not change the walking speed.
    func testMaxspeedDoesNotApply() throws {
        XCTAssertSpeeds(try singleWayMap(["highway": "residential", "maxspeed": "3"]), "ab", "foot", forward: 5, backward: 5)
    }

    /// An area (`area=yes`) is closed to cars; walkers go along its outline, a closed ring.
    func testAreasAreWalkedAlongTheirOutline() throws {
        let map = try DrawnMap("""
            a---b---e
            |   |
            d---c
            """, ways: [("abcda", ["highway": "pedestrian", "area": "yes"]), ("be", ["highway": "residential"])])
        XCTAssertEqual(map.edgePaths, ["ab", "bcda", "be"])
        XCTAssertSpeeds(map, "ab", "foot", forward: 5, backward: 5)
        XCTAssertSpeeds(map, "bcda", "foot", forward: 5, backward: 5)
        XCTAssertClosed(map, "ab", "car")
        XCTAssertClosed(map, "bcda", "car")
        XCTAssertSpeeds(map, "be", "car", forward: 25, backward: 25)
    }

    /// Ferries are out of scope for walkers too; `impassable=yes` is for vehicles only.
    func testFerryAndImpassable() throws {
        XCTAssertClosed(try singleWayMap(["highway": "footway", "route": "ferry"]), "ab", "foot")
        XCTAssertSpeeds(try singleWayMap(["highway": "residential", "impassable": "yes"]), "ab", "foot", forward: 5, backward: 5)
    }

    /// Turn restrictions are never kept for walkers.
    func testRestrictionsDoNotApplyOnFoot() throws {
        let map = try DrawnMap("""
            a---b---c
                |
                d
            """, ways: [("ab", ["highway": "residential"]), ("bc", ["highway": "residential"]), ("bd", ["highway": "residential"])],
            relations: [.restriction("no_right_turn", from: "ab", via: "b", to: "bd"),
                        .restriction("only_straight_on", from: "bd", via: "b", to: "bc")])
        XCTAssertEqual(map.restrictions("car"), ["no:abd", "only:dbc"])
        XCTAssertEqual(map.restrictions("foot"), [])
        XCTAssertEqual(map.statistics.profiles[1].restrictionsViaNode, 0)
    }
}
