import Foundation
import XCTest

/// `wayfinder places` on Monaco: a restaurant found with one typo, the category filter, ranking by `--near`, the
/// category list, GeoJSON, and refused options.
final class PlacesCommandTests: CLITestCase {
    func testSearchFilterNearAndCategories() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        let typo = try run(["places", "--graph", graph, "--format", "json", "Vechia Firenze"])
        XCTAssertEqual(typo.status, 0, typo.stderr)
        let found = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(typo.stdout.utf8)) as? [String: Any])?["places"] as? [[String: Any]])
        XCTAssertEqual(found.first?["name"] as? String, "Vecchia Firenze")
        XCTAssertEqual(found.first?["osm_id"] as? Int, 1661139837)

        // Category only, near Planet Pasta: it comes first, every answer a restaurant, with distances.
        let near = try run(["places", "--graph", graph, "--category", "restaurant", "--near", "43.7336948,7.4203091", "--limit", "4", "--format", "geojson"])
        XCTAssertEqual(near.status, 0, near.stderr)
        let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(collection["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 4)
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(properties.first?["name"] as? String, "Planet Pasta")
        XCTAssertTrue(properties.allSatisfy { $0["osm_value"] as? String == "restaurant" && $0["distance"] is Double })
        // The same words rank differently with --near: "pizza" near Pizza Pino gives Pizza Pino first.
        let pino = try run(["places", "--graph", graph, "--near", "43.7327812,7.4194336", "pizza"])
        XCTAssertTrue(pino.stdout.hasPrefix("Pizza Pino"), pino.stdout)
        // --near takes a place name as a stop does: the same answers as near its point, and the output says which it took.
        let named = try run(["places", "--graph", graph, "--near", "Pizza Pino", "pizza"])
        XCTAssertEqual(named.status, 0, named.stderr)
        let lines = named.stdout.split(separator: "\n", maxSplits: 1).map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("Pizza Pino → \"Pizza Pino\" (restaurant), 43.73278,7.41943"), named.stdout)
        let pinoPoint = try run(["places", "--graph", graph, "--near", "43.73278120,7.41943360", "pizza"])
        XCTAssertEqual(lines[1], pinoPoint.stdout)
        let namedJSON = try run(["places", "--graph", graph, "--near", "Pizza Pino", "--format", "json", "pizza"])
        XCTAssertTrue(namedJSON.stdout.hasPrefix("{"), "the line saying which place was taken goes to standard error: \(namedJSON.stdout)")
        XCTAssertTrue(namedJSON.stderr.hasPrefix("Pizza Pino →"), namedJSON.stderr)

        // Too far from every name for the search (three typos): it says so, and suggests the nearest spellings.
        let none = try run(["places", "--graph", graph, "Kasinnno"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stdout.hasPrefix("no places match (did you mean \"Casino\""), none.stdout)

        let categories = try run(["places", "--graph", graph, "--categories"])
        XCTAssertEqual(categories.status, 0, categories.stderr)
        XCTAssertTrue(categories.stdout.contains("amenity=restaurant"), categories.stdout)
    }

    func testRefusals() throws {
        let graph = tmp("monaco.wfg")
        try importMonaco(to: graph)
        for (arguments, message) in [(["--limit", "0", "x"], "--limit"), (["--near", "91,0", "x"], "--near"), (["--near", "Kasinnno Pizzza", "x"], "did you mean"),
                                     (["--category", "restaurent"], "restaurant"), (["--format", "xml", "x"], "--format"), ([String](), "give words")] {
            let result = try run(["places", "--graph", graph] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let missing = try run(["places", "--graph", tmp("none.wfg"), "x"])
        XCTAssertEqual(missing.status, 3, missing.stderr)
    }
}
