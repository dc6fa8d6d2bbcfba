import XCTest
@testable import Graph
import TestSupport

/// The car rules of `profiles.md`, each checked end to end: tags on a drawn way, imported, and the stored travel
/// times compared with haversine length / speed (within 1 ms).
///
/// Most tests use `twoStreets`:
///
///     a-----b      the way under test, ab
///
///     c-----d      a residential street, so that the import never lacks roads
final class CarProfileTests: XCTestCase {

    // MARK: Speeds

    /// Every routable highway value drives at its table speed, both ways (motorways one-way, see below).
    func testHighwaySpeedTable() throws {
        let table: [(String, Double)] = [
            ("motorway", 90), ("motorway_link", 45), ("trunk", 85), ("trunk_link", 40),
            ("primary", 65), ("primary_link", 30), ("secondary", 55), ("secondary_link", 25),
            ("tertiary", 40), ("tertiary_link", 20), ("unclassified", 25), ("residential", 25),
            ("living_street", 10), ("service", 15),
        ]
        for (highway, kmh) in table {
            let map = try singleWayMap(["highway": highway, "oneway": "no"])
            XCTAssertSpeeds(map, "ab", "car", forward: kmh, backward: kmh)
            XCTAssertEqual(map.graph.wayClasses[try XCTUnwrap(map.wayIndex("ab"))], HighwayClass(highway: highway).rawValue, highway)
            XCTAssertNotEqual(HighwayClass(highway: highway), .other, highway)
        }
    }

    /// A way with shape points takes its whole length (through every node) at the table speed.
    func testTimeCoversTheWholePolyline() throws {
        let map = try DrawnMap("""
            a     c
             \\   / \\
              \\ /   \\
               b     d---e
            """, ways: [("abcde", ["highway": "primary"])])
        XCTAssertEqual(map.edgePaths, ["abcde"])
        XCTAssertSpeeds(map, "abcde", "car", forward: 65, backward: 65)
    }

    /// Highway values not in the table, and ways without `highway`, are not for cars.
    func testOtherHighwayValuesAreNotRoutable() throws {
        for highway in ["footway", "path", "cycleway", "steps", "pedestrian", "track", "bridleway", "corridor", "platform",
                        "bus_guideway", "raceway", "road", "escape", "busway", "elevator", "services", "rest_area", "Primary", ""] {
            let map = try singleWayMap(["highway": highway])
            XCTAssertClosed(map, "ab", "car")
        }
        let untagged = try singleWayMap(["name": "Somewhere"])
        XCTAssertClosed(untagged, "ab", "car")
        XCTAssertEqual(untagged.statistics.waysNotRoads, 1)
    }

    /// `highway=construction|proposed|abandoned` are closed, even with allowing access tags.
    func testConstructionProposedAbandonedAreNotRoutable() throws {
        for highway in ["construction", "proposed", "abandoned"] {
            let map = try singleWayMap(["highway": highway, "construction": "residential", "access": "yes", "motorcar": "yes"])
            XCTAssertClosed(map, "ab", "car")
            XCTAssertClosed(map, "ab", "foot")
            XCTAssertEqual(map.statistics.waysUnroutable, 1, highway)
        }
    }

    /// `area=yes`, `impassable=yes` and `route=ferry` close a road to cars.
    func testExcludingTags() throws {
        for tags in [["area": "yes"], ["impassable": "yes"], ["route": "ferry"]] {
            let map = try singleWayMap(["highway": "residential"].merging(tags) { a, _ in a })
            XCTAssertClosed(map, "ab", "car")
        }
        // Other values of the same keys do not.
        for tags in [["area": "no"], ["impassable": "no"], ["route": "bus"]] {
            let map = try singleWayMap(["highway": "residential"].merging(tags) { a, _ in a })
            XCTAssertSpeeds(map, "ab", "car", forward: 25, backward: 25)
        }
    }

    // MARK: maxspeed

    /// A valid `maxspeed` replaces the table speed, times 0.8: plain km/h, `km/h`, `mph` (× 1.609344), spaces optional,
    /// even above the table speed.
    func testValidMaxspeedForms() throws {
        let cases: [(String, Double)] = [
            ("50", 50), ("50 km/h", 50), ("50km/h", 50), ("30 mph", 30 * 1.609344), ("30mph", 30 * 1.609344),
            ("7.5", 7.5), ("120", 120), (" 60 ", 60),
        ]
        for (value, kmh) in cases {
            let map = try singleWayMap(["highway": "residential", "maxspeed": value])
            XCTAssertSpeeds(map, "ab", "car", forward: kmh * 0.8, backward: kmh * 0.8)
            XCTAssertEqual(map.statistics.maxspeedIgnored, 0, value)
            // Walkers do not care.
            XCTAssertSpeeds(map, "ab", "foot", forward: 5, backward: 5)
        }
    }

    /// Unparsable `maxspeed` values keep the table speed and are counted.
    func testInvalidMaxspeedIsIgnoredAndCounted() throws {
        for value in ["fast", "50;30", "-20", "0", "km/h", "mph", "fifty", "de:urban", "DEU:urban", "DE:", "Walk", "301",
                      String(repeating: "9", count: 41)] {
            let map = try singleWayMap(["highway": "primary", "maxspeed": value])
            XCTAssertSpeeds(map, "ab", "car", forward: 65, backward: 65)
            XCTAssertEqual(map.statistics.maxspeedIgnored, 1, value)
        }
    }

    /// Valid OSM `maxspeed` values without a number keep the table speed and are not reported as not understood.
    func testSymbolicMaxspeedIsIgnoredSilently() throws {
        for value in ["none", "signals", "walk", "variable", "national", "DE:urban", "RU:rural", "RU:living_street", "FR:zone30", "US-CA:school"] {
            let map = try singleWayMap(["highway": "primary", "maxspeed": value])
            XCTAssertSpeeds(map, "ab", "car", forward: 65, backward: 65)
            XCTAssertEqual(map.statistics.maxspeedIgnored, 0, value)
        }
    }

    /// `maxspeed:forward` / `maxspeed:backward` override `maxspeed` for their direction only.
    func testDirectionalMaxspeed() throws {
        let both = try singleWayMap(["highway": "primary", "maxspeed": "50", "maxspeed:forward": "30"])
        XCTAssertSpeeds(both, "ab", "car", forward: 24, backward: 40)
        let backwardOnly = try singleWayMap(["highway": "primary", "maxspeed:backward": "20 mph"])
        XCTAssertSpeeds(backwardOnly, "ab", "car", forward: 65, backward: 20 * 1.609344 * 0.8)
        let forwardOnly = try singleWayMap(["highway": "secondary", "maxspeed:forward": "100"])
        XCTAssertSpeeds(forwardOnly, "ab", "car", forward: 80, backward: 55)
        let split = try singleWayMap(["highway": "secondary", "maxspeed:forward": "70", "maxspeed:backward": "30"])
        XCTAssertSpeeds(split, "ab", "car", forward: 56, backward: 24)
        // An invalid directional value falls back to `maxspeed` (and is counted).
        let invalid = try singleWayMap(["highway": "primary", "maxspeed": "50", "maxspeed:forward": "fast"])
        XCTAssertSpeeds(invalid, "ab", "car", forward: 40, backward: 40)
        XCTAssertEqual(invalid.statistics.maxspeedIgnored, 1)
        // On a one-way street the closed direction stays closed.
        let oneway = try singleWayMap(["highway": "primary", "oneway": "yes", "maxspeed:backward": "30"])
        XCTAssertSpeeds(oneway, "ab", "car", forward: 65, backward: nil)
    }

    // MARK: One-way

    /// `oneway=yes|true|1` forward only; `-1|reverse` backward only; `no|false|0` both ways.
    func testOnewayValues() throws {
        for value in ["yes", "true", "1"] {
            XCTAssertSpeeds(try singleWayMap(["highway": "primary", "oneway": value]), "ab", "car", forward: 65, backward: nil)
        }
        for value in ["-1", "reverse"] {
            XCTAssertSpeeds(try singleWayMap(["highway": "primary", "oneway": value]), "ab", "car", forward: nil, backward: 65)
        }
        for value in ["no", "false", "0"] {
            XCTAssertSpeeds(try singleWayMap(["highway": "primary", "oneway": value]), "ab", "car", forward: 65, backward: 65)
        }
    }

    /// The one-way direction follows the way's node order, not the drawing: way `ba` drawn right to left.
    func testOnewayFollowsNodeOrder() throws {
        let map = try DrawnMap(twoStreets, ways: [("ba", ["highway": "primary", "oneway": "yes"]), ("cd", ["highway": "residential"])])
        XCTAssertSpeeds(map, "ba", "car", forward: 65, backward: nil)
        XCTAssertSpeeds(map, "ab", "car", forward: nil, backward: 65)
    }

    /// `oneway=reversible|alternating` are not routable by car (walkers still use them).
    func testReversibleAndAlternatingAreNotRoutable() throws {
        for value in ["reversible", "alternating"] {
            let map = try singleWayMap(["highway": "primary", "oneway": value])
            XCTAssertClosed(map, "ab", "car")
            XCTAssertSpeeds(map, "ab", "foot", forward: 5, backward: 5)
        }
    }

    /// An unknown `oneway` value counts as absent (two-way) and is counted.
    func testUnknownOnewayValueIsIgnoredAndCounted() throws {
        let map = try singleWayMap(["highway": "primary", "oneway": "maybe"])
        XCTAssertSpeeds(map, "ab", "car", forward: 65, backward: 65)
        XCTAssertEqual(map.statistics.onewayIgnored, 1)
        let roundabout = try singleWayMap(["highway": "primary", "junction": "roundabout", "oneway": "maybe"])
        XCTAssertSpeeds(roundabout, "ab", "car", forward: 65, backward: nil)
    }

    /// Roundabouts (`junction=roundabout|circular`) are one-way forward unless `oneway` says otherwise.
    func testRoundaboutsAreImpliedOneway() throws {
        let map = try DrawnMap("""
              b
             / \\
            a   c---e
             \\ /
              d
            """, ways: [("abcda", ["highway": "primary", "junction": "roundabout"]), ("ce", ["highway": "primary"])])
        XCTAssertEqual(map.edgePaths, ["abc", "cda", "ce"])
        XCTAssertSpeeds(map, "abc", "car", forward: 65, backward: nil)
        XCTAssertSpeeds(map, "cda", "car", forward: 65, backward: nil)
        XCTAssertSpeeds(map, "ce", "car", forward: 65, backward: 65)
        XCTAssertSpeeds(map, "abc", "foot", forward: 5, backward: 5)

        XCTAssertSpeeds(try singleWayMap(["highway": "primary", "junction": "circular"]), "ab", "car", forward: 65, backward: nil)
        XCTAssertSpeeds(try singleWayMap(["highway": "primary", "junction": "roundabout", "oneway": "no"]), "ab", "car", forward: 65, backward: 65)
        XCTAssertSpeeds(try singleWayMap(["highway": "primary", "junction": "roundabout", "oneway": "-1"]), "ab", "car", forward: nil, backward: 65)
        XCTAssertSpeeds(try singleWayMap(["highway": "primary", "junction": "spui"]), "ab", "car", forward: 65, backward: 65)
    }

    /// Motorways and motorway links are one-way forward unless `oneway` says otherwise; trunks are not.
    func testMotorwaysAreImpliedOneway() throws {
        XCTAssertSpeeds(try singleWayMap(["highway": "motorway"]), "ab", "car", forward: 90, backward: nil)
        XCTAssertSpeeds(try singleWayMap(["highway": "motorway_link"]), "ab", "car", forward: 45, backward: nil)
        XCTAssertSpeeds(try singleWayMap(["highway": "motorway", "oneway": "no"]), "ab", "car", forward: 90, backward: 90)
        XCTAssertSpeeds(try singleWayMap(["highway": "motorway_link", "oneway": "false"]), "ab", "car", forward: 45, backward: 45)
        XCTAssertSpeeds(try singleWayMap(["highway": "motorway", "oneway": "-1"]), "ab", "car", forward: nil, backward: 90)
        XCTAssertSpeeds(try singleWayMap(["highway": "trunk"]), "ab", "car", forward: 85, backward: 85)
    }

    /// `oneway:foot` is for walkers only.
    func testOnewayFootDoesNotAffectCars() throws {
        XCTAssertSpeeds(try singleWayMap(["highway": "primary", "oneway:foot": "yes"]), "ab", "car", forward: 65, backward: 65)
    }

    // MARK: Access

    /// Each denying value closes the road, under each access key.
    func testEveryDenyingAccessValue() throws {
        for key in ["access", "vehicle", "motor_vehicle", "motorcar"] {
            for value in ["no", "private", "agricultural", "forestry", "emergency", "delivery", "psv", "bus"] {
                let map = try singleWayMap(["highway": "residential", key: value])
                XCTAssertClosed(map, "ab", "car")
            }
        }
    }

    /// Allowing values (and unknown ones) keep the road open, under each key.
    func testAllowingAccessValues() throws {
        for key in ["access", "vehicle", "motor_vehicle", "motorcar"] {
            for value in ["yes", "permissive", "destination", "designated", "customers", "unknown_value"] {
                let map = try singleWayMap(["highway": "residential", key: value])
                XCTAssertSpeeds(map, "ab", "car", forward: 25, backward: 25)
            }
        }
    }

    /// The most specific key present decides: motorcar > motor_vehicle > vehicle > access.
    func testAccessHierarchy() throws {
        let open: Double? = 25
        let cases: [([String: String], Double?)] = [
            (["access": "no", "vehicle": "yes"], open),
            (["vehicle": "no", "motor_vehicle": "yes"], open),
            (["motor_vehicle": "no", "motorcar": "yes"], open),
            (["access": "no", "motorcar": "destination"], open),
            (["access": "private", "vehicle": "no", "motor_vehicle": "no", "motorcar": "permissive"], open),
            (["access": "yes", "vehicle": "no"], nil),
            (["vehicle": "yes", "motor_vehicle": "agricultural"], nil),
            (["motor_vehicle": "yes", "motorcar": "no"], nil),
            (["access": "yes", "vehicle": "yes", "motor_vehicle": "yes", "motorcar": "private"], nil),
            // Keys outside the car hierarchy do not count.
            (["access": "no", "foot": "yes", "bicycle": "yes", "hgv": "yes"], nil),
            (["motorcycle": "no", "hgv": "no", "foot": "no"], open),
        ]
        for (tags, kmh) in cases {
            let map = try singleWayMap(["highway": "residential"].merging(tags) { a, _ in a })
            XCTAssertSpeeds(map, "ab", "car", forward: kmh, backward: kmh)
        }
    }

    /// An allowing access tag does not make a non-road drivable.
    func testAccessDoesNotOpenOtherHighways() throws {
        XCTAssertClosed(try singleWayMap(["highway": "footway", "motorcar": "yes"]), "ab", "car")
        XCTAssertClosed(try singleWayMap(["highway": "track", "access": "yes"]), "ab", "car")
    }
}
