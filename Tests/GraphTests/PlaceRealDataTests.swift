import Foundation
import XCTest
@testable import Graph

/// The place index of real extracts: the counts of names, restaurants and house numbers agree with an independent
/// count over the XML (a Python `xml.etree.iterparse` script: every element with a `name`, with
/// `amenity=restaurant`, with `addr:housenumber`), and every name is found by searching for it, also with a typo and
/// with a word abbreviated ("Boulevard des Moulins" as "bd des moulins").
/// The named count leaves out what the index leaves out, counted by the same script: relations that group lines or
/// data (`type=route|network|TMC|level|associatedStreet|restriction…`; Liechtenstein 232 of 3,216 names with the
/// next, Monaco 28 of 594) and, unless addressed, railway switches, signals, crossings and things not built.
final class PlaceRealDataTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func input(_ path: String) throws -> String {
        let url = repository.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("missing extract \(url.path)") }
        return url.path
    }

    func testLiechtenstein() throws {
        let map = try PlaceImport(input: try Self.input("../shared/data/osm/liechtenstein.osm.bz2"))
        try check(map, names: 3_216 - 232, restaurants: 46, houseNumbers: 1_008)
    }

    func testMonaco() throws {
        let map = try PlaceImport(input: try Self.input("Data/monaco.osm.gz"))
        try check(map, names: 594 - 28, restaurants: 22, houseNumbers: 26)
    }

    private func check(_ map: PlaceImport, names: Int, restaurants: Int, houseNumbers: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let index = map.index
        let named = (0..<index.count).filter { !index.bytes(of: .name, place: $0).isEmpty }
        // Names of elements whose nodes and members all lie outside the extract have no position and are left out.
        XCTAssertEqual(named.count + map.collector.namedPlacesWithoutPosition, names, "names", file: file, line: line)
        XCTAssertLessThan(map.collector.namedPlacesWithoutPosition, names / 20, file: file, line: line)
        XCTAssertEqual(index.categoryList().first { $0.key == "amenity" && $0.value == "restaurant" }?.count, restaurants, file: file, line: line)
        XCTAssertEqual((0..<index.count).filter { !index.bytes(of: .houseNumber, place: $0).isEmpty }.count, houseNumbers, file: file, line: line)

        var unsearchable = 0, typoTried = 0, typoFound = 0
        var generator = SplitMix64(seed: 15)
        for place in named {
            let name = index.string(.name, place: place)
            if PlaceTextFolding.tokens(of: name).isEmpty { unsearchable += 1; continue }
            let found = try map.searcher.search(PlaceQuery(name, limit: 20)).map { index.string(.name, place: $0.place) }
            XCTAssertTrue(found.contains(name), "'\(name)' finds \(found)", file: file, line: line)
            // One typo in a random word of 5+ letters, for one name in four.
            guard generator.next() % 4 == 0 else { continue }
            let words = name.split(whereSeparator: { !$0.isLetter }).map(String.init).filter { $0.count >= 5 }
            guard !words.isEmpty else { continue }
            let word = words[Int(generator.next() % UInt64(words.count))]
            let typos = PlaceSearchTests.typos(of: word)
            let typo = typos[Int(generator.next() % UInt64(typos.count))]
            let query = name.replacingOccurrences(of: word, with: typo)
            typoTried += 1
            let answers = try map.searcher.search(PlaceQuery(query, limit: 20)).map { index.string(.name, place: $0.place) }
            if answers.contains(name) { typoFound += 1 } else { print("typo not found: '\(query)' for '\(name)': \(answers.prefix(5))") }
        }
        // Each name with a word that has an abbreviation ("Boulevard", "Avenue", "Saint", "Platz"), searched with it
        // abbreviated ("bd", "av", "st", "pl"), the other words as they are.
        var abbreviatedTried = 0, abbreviatedFound = 0
        let abbreviationOf = Dictionary(PlaceAbbreviations.groups.flatMap { group in group.words.map { ($0, group.abbreviations[0]) } },
                                        uniquingKeysWith: { first, _ in first })
        for place in named {
            let name = index.string(.name, place: place)
            let words = PlaceTextFolding.tokens(of: name).map { String(decoding: $0, as: UTF8.self) }
            guard let k = words.firstIndex(where: { abbreviationOf[$0] != nil }) else { continue }
            var query = words
            query[k] = abbreviationOf[words[k]]!
            abbreviatedTried += 1
            let answers = try map.searcher.search(PlaceQuery(query.joined(separator: " "), limit: 20)).map { index.string(.name, place: $0.place) }
            if answers.contains(name) { abbreviatedFound += 1 } else { print("abbreviation not found: '\(query.joined(separator: " "))' for '\(name)': \(answers.prefix(5))") }
        }
        // Each address without a town (street and house number, no addr:city), searched with the nearest village or
        // town around it: "Landstrasse 5 Schaan". Settlements and their reach as the README gives them (`places`), found here
        // by a plain scan of the index.
        let reach: [String: Double] = ["city": 15_000, "town": 6_000, "municipality": 5_000, "village": 3_000, "suburb": 3_000,
                                       "borough": 3_000, "quarter": 1_500, "neighbourhood": 1_000, "hamlet": 1_000]
        let settlements = (0..<index.count).compactMap { p -> (name: String, latitude: Double, longitude: Double, radius: Double)? in
            let place = index.place(p)
            guard place.categoryKey == "place", let radius = reach[place.category], !place.name.isEmpty else { return nil }
            return (place.name, place.latitude, place.longitude, radius)
        }
        var townlessTried = 0, townlessFound = 0
        for p in 0..<index.count {
            let place = index.place(p)
            guard !place.street.isEmpty, !place.houseNumber.isEmpty, place.city.isEmpty else { continue }
            let around = settlements.map { ($0, Geo.distance(lat1: place.latitude, lon1: place.longitude, lat2: $0.latitude, lon2: $0.longitude)) }
                .filter { $0.1 <= $0.0.radius }.min { $0.1 < $1.1 }
            guard let town = around?.0 else { continue }
            let query = "\(place.street) \(place.houseNumber), \(town.name)"
            townlessTried += 1
            let answers = try map.searcher.search(PlaceQuery(query, limit: 20)).map(\.place)
            if answers.contains(p) { townlessFound += 1 } else { print("address without a town not found: '\(query)' for place \(p) (\(place.title))") }
        }
        XCTAssertEqual(townlessFound, townlessTried, "addresses without a town found with the town around them", file: file, line: line)
        XCTAssertGreaterThan(abbreviatedTried, 10, file: file, line: line)
        XCTAssertEqual(abbreviatedFound, abbreviatedTried, "names found with a word abbreviated", file: file, line: line)
        XCTAssertLessThan(unsearchable, 5, file: file, line: line)
        XCTAssertGreaterThan(typoTried, names / 10, file: file, line: line)
        XCTAssertEqual(typoFound, typoTried, "names found with one typo", file: file, line: line)
        print("places: \(index.count) places, \(named.count) named, \(index.tokenCount) tokens, \(index.categoryCount) categories; typos found \(typoFound)/\(typoTried); abbreviated found \(abbreviatedFound)/\(abbreviatedTried); addresses without a town found with it \(townlessFound)/\(townlessTried); import \(map.seconds) s")
    }
}
