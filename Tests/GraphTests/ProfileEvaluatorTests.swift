import Foundation
import XCTest
import OSM
@testable import Graph
import TestSupport

/// `ProfileEvaluator` and `TravelProfile` on their own (no import): the verdict for a tag set, `maxspeed` parsing,
/// node blocking, and profiles as data (JSON tables, a user's own profile, invalid profile sets).
final class ProfileEvaluatorTests: XCTestCase {
    private let car = ProfileEvaluator(.car)
    private let foot = ProfileEvaluator(.foot)

    private func tags(_ dictionary: [String: String]) -> [OSMTag] {
        dictionary.keys.sorted().map { OSMTag(key: $0, value: dictionary[$0]!) }
    }

    /// `parseMaxspeed`: numbers, `mph`, `km/h`, spaces optional; nil for everything else.
    func testParseMaxspeed() {
        let valid: [(String, Double)] = [
            ("50", 50), ("7.5", 7.5), ("130", 130), ("50 km/h", 50), ("50km/h", 50), ("30 mph", 30 * 1.609344),
            ("30mph", 30 * 1.609344), (" 40 ", 40), ("0.5", 0.5), ("300", 300), ("186 mph", 186 * 1.609344),
        ]
        for (text, kmh) in valid {
            XCTAssertEqual(ProfileEvaluator.parseMaxspeed(text) ?? -1, kmh, accuracy: 1e-9, text)
        }
        for text in ["", " ", "none", "signals", "walk", "DE:urban", "DE:rural", "RU:living_street", "fast", "50;30", "50,5",
                     "-20", "0", "0.0", "km/h", "mph", "50 knots", "50 kmh", "fifty", "1e3", "inf", "nan", "５０", "50 mph mph",
                     // Over 300 km/h: a mistake, not a limit (40 digits made the import trap on an infinite speed).
                     "300.5", "1000", "187 mph", String(repeating: "9", count: 41), String(repeating: "9", count: 400)] {
            XCTAssertNil(ProfileEvaluator.parseMaxspeed(text), "'\(text)'")
        }
    }

    /// Verdicts for typical tag sets, in km/h per direction.
    func testCarVerdicts() {
        XCTAssertEqual(car.evaluate(way: tags(["highway": "primary"])), .routable(forward: 65, backward: 65))
        XCTAssertEqual(car.evaluate(way: tags(["highway": "motorway"])), .routable(forward: 90, backward: nil))
        XCTAssertEqual(car.evaluate(way: tags(["highway": "residential", "oneway": "-1"])), .routable(forward: nil, backward: 25))
        XCTAssertEqual(car.evaluate(way: tags(["highway": "residential", "maxspeed": "50"])), .routable(forward: 40, backward: 40))
        XCTAssertEqual(car.evaluate(way: tags(["highway": "footway"])), .unroutable)
        XCTAssertEqual(car.evaluate(way: tags(["highway": "residential", "oneway": "reversible"])), .unroutable)
        XCTAssertEqual(car.evaluate(way: tags(["highway": "residential", "motor_vehicle": "forestry"])), .unroutable)
        XCTAssertEqual(car.evaluate(way: tags(["building": "yes"])), .unroutable)
    }

    /// Foot verdicts.
    func testFootVerdicts() {
        XCTAssertEqual(foot.evaluate(way: tags(["highway": "steps"])), .routable(forward: 3, backward: 3))
        XCTAssertEqual(foot.evaluate(way: tags(["highway": "primary", "oneway": "yes", "maxspeed": "100"])), .routable(forward: 5, backward: 5))
        XCTAssertEqual(foot.evaluate(way: tags(["highway": "path", "oneway:foot": "yes"])), .routable(forward: 5, backward: nil))
        XCTAssertEqual(foot.evaluate(way: tags(["public_transport": "platform"])), .routable(forward: 5, backward: 5))
        XCTAssertEqual(foot.evaluate(way: tags(["highway": "motorway"])), .unroutable)
        XCTAssertEqual(foot.evaluate(way: tags(["highway": "residential", "access": "private"])), .unroutable)
        XCTAssertEqual(foot.evaluate(way: tags(["highway": "residential", "access": "private", "foot": "permissive"])), .routable(forward: 5, backward: 5))
    }

    /// Unparsable values are reported to the caller (the importer counts them).
    func testBadValuesAreReported() {
        var reported: [String] = []
        _ = car.evaluate(way: tags(["highway": "primary", "maxspeed": "fast", "maxspeed:forward": "50;30", "oneway": "perhaps"])) { key, value in
            reported.append("\(key)=\(value)")
        }
        XCTAssertEqual(reported.sorted(), ["maxspeed:forward=50;30", "maxspeed=fast", "oneway=perhaps"])
        // Valid OSM values without a number are ignored on purpose, not reported.
        reported = []
        _ = car.evaluate(way: tags(["highway": "primary", "maxspeed": "walk", "maxspeed:forward": "none", "maxspeed:backward": "DE:urban"])) { key, value in
            reported.append("\(key)=\(value)")
        }
        XCTAssertEqual(reported, [])
        reported = []
        _ = car.evaluate(way: tags(["highway": "primary", "maxspeed": "50", "oneway": "yes"])) { key, value in reported.append(key) }
        XCTAssertEqual(reported, [])
    }

    /// The access hierarchy as `accessDenies` reads it: the most specific key present decides; nil when none is present.
    func testAccessDenies() {
        XCTAssertNil(car.accessDenies(tags(["highway": "primary", "foot": "no"])))
        XCTAssertEqual(car.accessDenies(tags(["access": "no", "vehicle": "yes"])), false)
        XCTAssertEqual(car.accessDenies(tags(["access": "yes", "motorcar": "delivery"])), true)
        XCTAssertEqual(foot.accessDenies(tags(["access": "no"])), true)
        XCTAssertEqual(foot.accessDenies(tags(["access": "no", "foot": "yes"])), false)
        XCTAssertEqual(foot.accessDenies(tags(["access": "agricultural"])), false)
    }

    /// Node blocking for each profile.
    func testBlocksNode() {
        XCTAssertTrue(car.blocks(node: tags(["barrier": "bollard"])))
        XCTAssertFalse(car.blocks(node: tags(["barrier": "bollard", "motor_vehicle": "yes"])))
        XCTAssertFalse(car.blocks(node: tags(["barrier": "lift_gate"])))
        XCTAssertFalse(car.blocks(node: tags(["foot": "no"])))
        XCTAssertTrue(foot.blocks(node: tags(["barrier": "wall"])))
        XCTAssertTrue(foot.blocks(node: tags(["foot": "no"])))
        XCTAssertFalse(foot.blocks(node: tags(["barrier": "bollard"])))
        XCTAssertFalse(foot.blocks(node: tags(["highway": "crossing"])))
    }

    /// Profiles are data: the default tables survive a JSON round trip unchanged.
    func testProfilesRoundTripThroughJSON() throws {
        let data = try JSONEncoder().encode([TravelProfile.car, TravelProfile.foot])
        let decoded = try JSONDecoder().decode([TravelProfile].self, from: data)
        XCTAssertEqual(decoded, [.car, .foot])
    }

    /// A user's own table drives the import like the defaults do: here a bicycle profile.
    func testCustomProfileTable() throws {
        var bike = TravelProfile.foot
        bike.name = "bike"
        bike.highwaySpeeds = ["cycleway": 18, "residential": 15, "steps": 2]
        bike.accessRules = [.init(key: "bicycle", denyingValues: ["no", "dismount"]), .init(key: "access", denyingValues: ["no"])]
        bike.oneway = .init(keys: ["oneway:bicycle", "oneway"], impliedByRoundabout: true, impliedHighways: [], reversibleIsUnroutable: true)
        bike.blockingBarriers = ["fence", "wall", "stile"]
        let map = try DrawnMap("""
            a---b---c
                |
                d---e
            """, ways: [("abc", ["highway": "cycleway"]), ("bd", ["highway": "residential", "oneway": "yes"]),
                        ("de", ["highway": "residential", "bicycle": "dismount"])],
            nodes: ["c": ["barrier": "stile"]], profiles: [bike])
        XCTAssertEqual(map.graph.profiles.map(\.profile.name), ["bike"])
        XCTAssertEqual(map.graph.metadata.profiles, [bike])
        XCTAssertSpeeds(map, "ab", "bike", forward: 18, backward: 18)
        XCTAssertSpeeds(map, "bd", "bike", forward: 15, backward: nil)
        XCTAssertClosed(map, "de", "bike")
        XCTAssertTrue(map.isBlocked("c", "bike"))
        XCTAssertTrue(map.graph.file.has("bike.time_fwd"))
        XCTAssertFalse(map.graph.file.has("car.time_fwd"))
    }

    /// Invalid profile sets are refused before anything is read: none, more than 7, bad or repeated names.
    func testInvalidProfileSetsAreRefused() throws {
        var bad = TravelProfile.car
        bad.name = "Car"
        var long = TravelProfile.car
        long.name = "abcdefghijk"  // 11: with `.ch_down_first` past the file's 24-byte section names (it trapped there)
        let eight = (0..<8).map { i -> TravelProfile in var p = TravelProfile.car; p.name = "p\(i)"; return p }
        for profiles in [[], eight, [bad], [long], [.car, .car]] {
            XCTAssertThrowsError(try GraphImporter(profiles: profiles).run(input: "/nonexistent.osm", output: "/nonexistent.wfg")) { error in
                guard case .invalidProfile? = error as? GraphImporter.Failure else { return XCTFail("expected .invalidProfile, got \(error)") }
            }
        }
    }

    /// A table's numbers are checked before anything is read: speeds from 0 (closed) to 300 km/h, a `maxspeed` factor
    /// over 0 and at most 2; the message names the profile, the field and the value. (A speed of 10^300 made the
    /// import trap writing the file's metadata.)
    func testProfileNumbersOutOfRangeAreRefused() throws {
        func table(_ change: (inout TravelProfile) -> Void) -> TravelProfile { var p = TravelProfile.car; change(&p); return p }
        let refused: [(TravelProfile, String)] = [
            (table { $0.highwaySpeeds["residential"] = 1e300 }, "highwaySpeeds 'residential' is 1e+300 km/h"),
            (table { $0.highwaySpeeds["residential"] = -5 }, "highwaySpeeds 'residential' is -5.0 km/h"),
            (table { $0.highwaySpeeds["motorway"] = 300.5 }, "highwaySpeeds 'motorway' is 300.5 km/h"),
            (table { $0.highwaySpeeds["motorway"] = .nan }, "highwaySpeeds 'motorway' is nan km/h"),
            (table { $0.defaultSpeed = -1 }, "defaultSpeed is -1.0 km/h"),
            (table { $0.defaultSpeed = .infinity }, "defaultSpeed is inf km/h"),
            (table { $0.maxspeed = .init(factor: 0) }, "maxspeed factor is 0.0"),
            (table { $0.maxspeed = .init(factor: 1e300) }, "maxspeed factor is 1e+300"),
        ]
        for (profile, expected) in refused {
            XCTAssertEqual(profile.numberProblem?.hasPrefix("profile 'car': \(expected)"), true, "\(String(describing: profile.numberProblem))")
            XCTAssertThrowsError(try GraphImporter(profiles: [profile]).run(input: "/nonexistent.osm", output: "/nonexistent.wfg")) { error in
                guard case let .invalidProfile(message)? = error as? GraphImporter.Failure else { return XCTFail("expected .invalidProfile, got \(error)") }
                XCTAssertTrue(message.contains(expected), message)
            }
        }
        // The edges of the ranges, and the defaults, pass.
        for profile in [TravelProfile.car, .foot, table { $0.highwaySpeeds["motorway"] = 300; $0.highwaySpeeds["service"] = 0 },
                        table { $0.maxspeed = .init(factor: 2) }, table { $0.maxspeed = nil }] {
            XCTAssertNil(profile.numberProblem)
        }
    }
}
