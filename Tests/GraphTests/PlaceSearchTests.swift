import Foundation
import XCTest
import OSM
@testable import Graph
import TestSupport

/// A graph file imported with its place index, in a temporary folder removed with it.
final class PlaceImport {
    let folder: URL
    let graphPath: String
    let collector: PlaceCollector
    let index: PlaceIndex
    let searcher: PlaceSearcher
    let seconds: Double

    /// Imports `input` (an OSM file) with places.
    init(input: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        graphPath = folder.appendingPathComponent("map.wfg").path
        collector = PlaceCollector()
        var importer = GraphImporter()
        importer.buildLandmarks = false
        importer.places = collector
        importer.extensions = [PlaceIndexExtension(collector: collector)]
        let start = Date()
        _ = try importer.run(input: input, output: graphPath)
        seconds = Date().timeIntervalSince(start)
        index = try PlaceIndex(path: graphPath)
        searcher = PlaceSearcher(index: index)
    }

    /// Writes `xml` to the folder and imports it with places.
    convenience init(xml: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-places-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("map.osm").path
        try xml.write(toFile: path, atomically: false, encoding: .utf8)
        try self.init(input: path)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The places found for `text`, as decoded places.
    func search(_ text: String, category: String? = nil, near: (latitude: Double, longitude: Double)? = nil, limit: Int = 10) throws -> [Place] {
        try searcher.search(PlaceQuery(text, category: category, near: near, limit: limit)).map { index.place($0.place) }
    }
}

/// Place search on drawn maps: every name is found, one typo is tolerated in words of 5+ letters, accents and case
/// are folded, areas and multipolygons get their centroid, categories and distances rank as documented.
final class PlaceSearchTests: XCTestCase {
    static let drawing = """
        a-------b-------c-------d
        |       |       |       |
        |   e   |   f   g   h   |
        |       |       |       |
        i-------j-------k-------l
        |   m-----n     |
        |   |     |     |   s
        |   o-----p     |
        q---------------r
        """

    /// Ways: streets (two pieces of "Hauptstraße"), a park drawn as a closed way, a school as a multipolygon
    /// whose outer way has no tags; nodes: shops, a restaurant, a station, an addressed house, an unnamed bench.
    nonisolated(unsafe) static let ways: [DrawnMap.Way] = [
        .init("abcd", ["highway": "residential", "name": "Hauptstraße"]),
        .init("ijkl", ["highway": "residential", "name": "Hauptstraße"]),
        .init("aiq", ["highway": "residential", "name": "Bergweg"]),
        .init("bj", ["highway": "service"]),
        .init("ckr", ["highway": "tertiary", "name": "Rue de l'Église"]),
        .init("dl", ["highway": "footway"]),
        .init("qr", ["highway": "primary", "name": "Bismarckstraße"]),
        .init("mnpom", ["leisure": "park", "name": "Stadtgarten Süd"]),
        .init("jkrqj", [:], id: 900),
    ]
    static let nodes: [Character: [String: String]] = [
        "e": ["amenity": "restaurant", "name": "Zum Goldenen Löwen", "addr:street": "Hauptstraße", "addr:housenumber": "12",
              "addr:postcode": "69117", "addr:city": "Heidelberg", "name:en": "The Golden Lion"],
        "f": ["amenity": "cafe", "name": "Café Müller"],
        "g": ["shop": "supermarket", "name": "Spar"],
        "h": ["shop": "supermarket", "name": "Spar"],
        "s": ["railway": "station", "name": "Bismarckplatz", "public_transport": "station"],
        "l": ["addr:street": "Hauptstraße", "addr:housenumber": "7a"],
        "c": ["amenity": "bench"],
    ]
    nonisolated(unsafe) static let relations: [DrawnMap.Relation] = [
        .init(members: [.wayID(900, role: "outer")], tags: ["type": "multipolygon", "amenity": "school", "name": "Realschule Nord"]),
    ]

    static func drawnXML(order: DrawnMap.ElementOrder = .sorted) -> String {
        DrawnMap.xml(cells: DrawnMap.parse(drawing), ways: ways, nodeTags: nodes, relations: relations, omitted: [], order: order)
    }

    /// Every name of the drawn map, with the element that carries it.
    static var names: [(name: String, source: PlaceSource, id: Int64)] {
        var result: [(String, PlaceSource, Int64)] = []
        for (letter, tags) in nodes { if let name = tags["name"] { result.append((name, .node, DrawnMap.osmID(of: letter))) } }
        for (i, way) in ways.enumerated() { if let name = way.tags["name"] { result.append((name, .way, DrawnMap.wayID(ways, i))) } }
        for (i, relation) in relations.enumerated() { if let name = relation.tags["name"] { result.append((name, .relation, relation.id ?? Int64(201 + i))) } }
        return result
    }

    func testEveryNameIsFoundAndEveryElementIndexed() throws {
        let map = try PlaceImport(xml: Self.drawnXML())
        // 7 tagged nodes (the bench too: a category of its own), 6 named ways, 1 relation; the untagged outer way, the
        // unnamed service road and footway are no places.
        XCTAssertEqual(map.index.count, 7 + 6 + 1)
        XCTAssertEqual(map.collector.placesWithoutPosition, 0)
        for (name, source, id) in Self.names {
            let found = try map.search(name, limit: 20)
            XCTAssertTrue(found.contains { $0.name == name && $0.source == source && ($0.osmID == id || source == .way) },
                          "'\(name)' (\(source.name) \(id)) not found: \(found.map(\.name))")
            XCTAssertEqual(found.first?.name, name, "'\(name)' is not the best answer: \(found.map(\.name))")
        }
    }

    func testOneTypoInWordsOfFiveOrMoreLetters() throws {
        let map = try PlaceImport(xml: Self.drawnXML())
        var tried = 0
        for (name, _, _) in Self.names {
            for word in name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init) where word.count >= 5 {
                for typo in Self.typos(of: word) {
                    let query = name.replacingOccurrences(of: word, with: typo)
                    let found = try map.search(query, limit: 20)
                    XCTAssertTrue(found.contains { $0.name == name }, "'\(query)' (a typo of '\(name)') finds \(found.map(\.name))")
                    tried += 1
                }
            }
        }
        XCTAssertGreaterThan(tried, 40)
    }

    /// One deletion, one insertion, one substitution and one transposition, each in the middle of `word`.
    static func typos(of word: String) -> [String] {
        var letters = Array(word)
        let middle = letters.count / 2
        var result: [String] = []
        var deleted = letters; deleted.remove(at: middle); result.append(String(deleted))
        var inserted = letters; inserted.insert("x", at: middle); result.append(String(inserted))
        var substituted = letters; substituted[middle] = substituted[middle] == "q" ? "z" : "q"; result.append(String(substituted))
        letters.swapAt(middle - 1, middle)
        if letters != Array(word) { result.append(String(letters)) }
        return result
    }

    func testFoldingPrefixesAndNearSpellings() throws {
        let map = try PlaceImport(xml: Self.drawnXML())
        XCTAssertEqual(try map.search("bismarkplatz").first?.name, "Bismarckplatz")
        XCTAssertEqual(try map.search("BISMARCKPLATZ").first?.name, "Bismarckplatz")
        XCTAssertEqual(try map.search("bism").map(\.name).sorted(), ["Bismarckplatz", "Bismarckstraße"])
        XCTAssertEqual(try map.search("cafe muller").first?.name, "Café Müller")
        XCTAssertEqual(try map.search("Hauptstrasse 12").first?.name, "Zum Goldenen Löwen")
        XCTAssertEqual(try map.search("golden lion").first?.name, "Zum Goldenen Löwen", "name:en is searched")
        XCTAssertEqual(try map.search("eglise").first?.name, "Rue de l'Église")
        XCTAssertEqual(try map.search("Hauptstraße 7a").first?.houseNumber, "7a")
        XCTAssertTrue(try map.search("zzzzzz").isEmpty)
        XCTAssertTrue(try map.search("löwen bergweg").isEmpty, "every word must match")
        // The two pieces of Hauptstraße 40 m apart are one answer.
        XCTAssertEqual(try map.search("hauptstrasse", category: "residential").count, 1)
        XCTAssertEqual(PlaceTextFolding.folded("Straße Ærø Œuvre ŁÓDŹ"), "strasse aero oeuvre lodz")
    }

    func testCategoriesNearAndPositions() throws {
        let map = try PlaceImport(xml: Self.drawnXML())
        let categories = map.index.categoryList()
        XCTAssertEqual(categories.first { $0.value == "supermarket" }, PlaceCategory(key: "shop", value: "supermarket", count: 2))
        XCTAssertEqual(categories.first { $0.value == "bench" }?.count, 1)
        XCTAssertEqual(categories.first { $0.value == "address" }?.key, "addr")
        XCTAssertEqual(categories.reduce(0) { $0 + $1.count }, map.index.count)
        // Near g, g's Spar comes first; near h, h's.
        for letter: Character in ["g", "h"] {
            let (latitude, longitude) = Self.degrees(letter)
            let found = try map.searcher.search(PlaceQuery("spar", near: (latitude, longitude)))
            XCTAssertEqual(found.count, 2)
            XCTAssertEqual(map.index.osmIDs[found[0].place], DrawnMap.osmID(of: letter))
            XCTAssertLessThan(found[0].distance!, 1)
        }
        // A category alone lists its places by distance; unknown categories suggest near spellings.
        let (latitude, longitude) = Self.degrees("h")
        XCTAssertEqual(try map.search("", category: "shop=supermarket", near: (latitude, longitude)).map(\.osmID),
                       [DrawnMap.osmID(of: "h"), DrawnMap.osmID(of: "g")])
        XCTAssertEqual(try map.search("", category: "restaurant").map(\.name), ["Zum Goldenen Löwen"])
        XCTAssertTrue(try map.search("spar", category: "cafe").isEmpty)
        XCTAssertThrowsError(try map.searcher.search(PlaceQuery("x", category: "restaurnt"))) { error in
            XCTAssertEqual(error as? PlaceSearchError, .unknownCategory("restaurnt", suggestions: ["restaurant"]))
        }
        XCTAssertThrowsError(try map.searcher.search(PlaceQuery(" - "))) { XCTAssertEqual($0 as? PlaceSearchError, .emptyQuery) }
        // The park's point is the mean of m, n, p, o; the school's that of its outer way j, k, r, q; a street's its middle node.
        let park = try XCTUnwrap(map.search("stadtgarten").first)
        let parkCentre = Self.mean("mnpo")
        XCTAssertEqual(park.latitude, parkCentre.latitude, accuracy: 1e-6)
        XCTAssertEqual(park.longitude, parkCentre.longitude, accuracy: 1e-6)
        let school = try XCTUnwrap(map.search("realschule").first)
        XCTAssertEqual(school.source, .relation)
        XCTAssertEqual(school.latitude, Self.mean("jkrq").latitude, accuracy: 1e-6)
        XCTAssertEqual(school.longitude, Self.mean("jkrq").longitude, accuracy: 1e-6)
        let street = try XCTUnwrap(map.search("bergweg").first)
        XCTAssertEqual(street.latitude, Self.degrees("i").latitude, accuracy: 1e-7)
        let restaurant = try XCTUnwrap(map.search("löwen").first)
        XCTAssertEqual(restaurant.address, "Hauptstraße 12, 69117 Heidelberg")
        XCTAssertEqual(restaurant.category, "restaurant")
        XCTAssertEqual(restaurant.categoryKey, "amenity")
    }

    /// The kind of place counts beside the text and the distance: a village before a post office of its name, a
    /// station before its platforms and stop positions, which it stands for (one answer per stop within 400 m, the
    /// platforms' names holding the station's words); a category browsed near a point comes nearest first, whatever
    /// the names' lengths. 50 m between cells.
    func testKindsOfPlacesAndPiecesOfOneStop() throws {
        let drawing = """
            a-----------------------b
            s t u       v           x
            o           p  q        y
            """
        let nodes: [Character: [String: String]] = [
            "s": ["railway": "station", "public_transport": "station", "name": "Neckartor"],
            "t": ["public_transport": "stop_position", "name": "Neckartor"],
            "u": ["public_transport": "platform", "highway": "bus_stop", "name": "Neckartor Bstg A"],
            "v": ["public_transport": "platform", "name": "Neckartor"],
            "o": ["amenity": "parking", "name": "Neckartor"],
            "x": ["place": "village", "name": "Lindau"],
            "y": ["amenity": "post_office", "name": "Lindau"],
            "p": ["amenity": "restaurant", "name": "Gasthaus zum Goldenen Hirschen"],
            "q": ["amenity": "restaurant", "name": "Ox"],
        ]
        let xml = DrawnMap.xml(cells: DrawnMap.parse(drawing), gridMetres: 50, ways: [.init("ab", ["highway": "residential", "name": "Uferweg"])],
                               nodeTags: nodes, relations: [])
        let map = try PlaceImport(xml: xml)
        func ids(_ places: [Place]) -> [Int64] { places.map(\.osmID) }
        // The station stands for t and u (within 400 m); v, 600 m away, is a stop of its own; the car park comes last.
        XCTAssertEqual(ids(try map.search("Neckartor")), ["s", "v", "o"].map(DrawnMap.osmID(of:)))
        XCTAssertEqual(ids(try map.search("Neckartor", near: Self.degrees(in: drawing, "v", gridMetres: 50))), ["v", "s", "o"].map(DrawnMap.osmID(of:)))
        XCTAssertEqual(ids(try map.search("Neckartor Bstg")), [DrawnMap.osmID(of: "u")], "a platform searched by its own name")
        XCTAssertEqual(ids(try map.search("Lindau")), ["x", "y"].map(DrawnMap.osmID(of:)))
        // From o, 600 m from p and 750 m from q: nearest first (p's longer name does not push it behind q).
        let browse = try map.search("", category: "restaurant", near: Self.degrees(in: drawing, "o", gridMetres: 50))
        XCTAssertEqual(ids(browse), ["p", "q"].map(DrawnMap.osmID(of:)))
    }

    /// A town named in the query: places whose address names it match every word as before, and places around a
    /// settlement of that name (3 km around a village) whose own text holds the other words follow, the name first or
    /// last; a misspelt or partial town name is no locality, nor is a street or a café. 500 m between cells.
    func testALocalityNamedInTheQuery() throws {
        let drawing = """
            a-------------------b
            v   p   q       w  r
            """
        let nodes: [Character: [String: String]] = [
            "v": ["place": "village", "name": "Schaan"],
            "w": ["place": "village", "name": "Vaduz"],
            "p": ["amenity": "cafe", "name": "La Piazza", "addr:street": "Landstrasse", "addr:housenumber": "5"],
            "q": ["amenity": "restaurant", "name": "Linde", "addr:street": "Landstrasse", "addr:housenumber": "5", "addr:city": "Schaan"],
            "r": ["amenity": "cafe", "name": "Rheinblick", "addr:street": "Landstrasse", "addr:housenumber": "5"],
        ]
        let xml = DrawnMap.xml(cells: DrawnMap.parse(drawing), gridMetres: 500, ways: [.init("ab", ["highway": "residential", "name": "Landstrasse"])],
                               nodeTags: nodes, relations: [])
        let map = try PlaceImport(xml: xml)
        func ids(_ text: String, limit: Int = 10) throws -> [Int64] { try map.search(text, limit: limit).map(\.osmID) }
        let (p, q, r, v) = (DrawnMap.osmID(of: "p"), DrawnMap.osmID(of: "q"), DrawnMap.osmID(of: "r"), DrawnMap.osmID(of: "v"))
        // q names Schaan in its address (4 km away: found by its text); p lies 2 km from Schaan; r near Vaduz.
        XCTAssertEqual(try ids("Landstrasse 5 Schaan"), [q, p])
        XCTAssertEqual(try ids("Landstrasse 5, Schaan"), [q, p])
        XCTAssertEqual(try ids("Schaan, Landstrasse 5"), [q, p])
        XCTAssertEqual(try ids("Landstrasse 5 Vaduz"), [r])
        XCTAssertEqual(try ids("cafe schaan"), [p], "a category word around the village")
        XCTAssertEqual(try ids("Landstrasse 5 Schaan", limit: 1), [q], "places holding every word come first")
        XCTAssertEqual(try ids("Landstrasse 5 Schan"), [q], "a misspelt town is matched in addresses only")
        XCTAssertEqual(try ids("Landstrasse 5 Scha"), [q], "a town's beginning is no locality")
        XCTAssertEqual(try ids("Piazza Landstrasse"), [p], "a street's name is no locality")
        XCTAssertEqual(try ids("Schaan"), [v, q], "the village, then the place whose address names it")
        XCTAssertEqual(Set(try ids("Landstrasse 5")), [p, q, r])
        // The town's word counts as an exact word of the address: both text scores are those of three address words.
        let located = try map.searcher.search(PlaceQuery("Landstrasse 5 Schaan"))
        XCTAssertEqual(located.map(\.textScore), [0.8, 0.8].map { Double(Float($0)) })
    }

    /// What is no place one goes to is not indexed: a bus route and its route master (whose centre lies anywhere
    /// along the line), a TMC location, a building level, an associatedStreet repeating its street, a railway switch
    /// numbered "69", an unaddressed level crossing; the stop area, its platform, a multipolygon and the street are.
    /// A misspelt stop name finds the stop, not the line that serves it. 50 m between cells.
    func testGroupingRelationsAndRailwayEquipmentAreNoPlaces() throws {
        let drawing = """
            a-----------------b
            s   w   z
            g---h
            |   |
            j---i
            """
        let nodes: [Character: [String: String]] = [
            "s": ["public_transport": "platform", "highway": "bus_stop", "name": "Bismarckplatz"],
            "w": ["railway": "switch", "name": "69", "ref": "69"],
            "z": ["railway": "level_crossing", "name": "Bismarckplatz"],
        ]
        let ways: [DrawnMap.Way] = [
            .init("ab", ["highway": "residential", "name": "Uferweg"]),
            .init("ghijg", [:], id: 950),
        ]
        let relations: [DrawnMap.Relation] = [
            .init(members: [.way("ab", role: ""), .node("s", role: "platform")],
                  tags: ["type": "route", "route": "bus", "ref": "39", "name": "Bus 39: Bismarckplatz => Königstuhl"]),
            .init(members: [.wayID(950, role: "")], tags: ["type": "route_master", "route_master": "bus", "name": "Bus 39"]),
            .init(members: [.node("s", role: "")], tags: ["type": "TMC", "name": "Bismarckplatz"]),
            .init(members: [.wayID(950, role: "")], tags: ["type": "level", "level": "0", "name": "Erdgeschoss"]),
            .init(members: [.way("ab", role: "street")], tags: ["type": "associatedStreet", "name": "Uferweg"]),
            .init(members: [.node("s", role: "platform")],
                  tags: ["type": "public_transport", "public_transport": "stop_area", "name": "Bismarckplatz"], id: 301),
            .init(members: [.wayID(950, role: "outer")], tags: ["type": "multipolygon", "shop": "department_store", "name": "Kaufhof"], id: 302),
        ]
        let xml = DrawnMap.xml(cells: DrawnMap.parse(drawing), gridMetres: 50, ways: ways, nodeTags: nodes, relations: relations)
        let map = try PlaceImport(xml: xml)
        let indexed = (0..<map.index.count).map { map.index.place($0) }.map { "\($0.source.name) \($0.name)" }.sorted()
        XCTAssertEqual(indexed, ["node Bismarckplatz", "relation Bismarckplatz", "relation Kaufhof", "way Uferweg"])
        let found = try map.search("bismarkplatz")
        XCTAssertFalse(found.isEmpty)
        XCTAssertTrue(found.allSatisfy { $0.name == "Bismarckplatz" }, "\(found.map(\.name))")
        XCTAssertEqual(try map.search("Bus 39").filter { $0.name.hasPrefix("Bus") }.map(\.name), [])
        XCTAssertEqual(try map.search("Erdgeschoss").map(\.name), [])
        XCTAssertEqual(try map.search("69").map(\.name), [])
        XCTAssertEqual(try map.search("Uferweg").map(\.source), [.way])
        XCTAssertEqual(try map.search("Kaufhof").first?.source, .relation)
    }

    /// Abbreviations match what they stand for and full words their abbreviations ("Av." and "Avenida", "St." and
    /// "Sankt", "Hbf" and "Hauptbahnhof"), below the word itself: "Rue Basse" finds "Rue Basse" before "R Basse".
    func testAbbreviationsMatchTheWordsTheyStandFor() throws {
        let drawing = """
            a---b---c---d---e
            f---g---h---i---j
            k---l   s   t
            """
        let ways: [DrawnMap.Way] = [
            .init("ab", ["highway": "primary", "name": "Avenida Ipiranga"]),
            .init("bc", ["highway": "residential", "name": "Av Bastian"]),
            .init("cd", ["highway": "residential", "name": "Rua dos Andradas"]),
            .init("de", ["highway": "residential", "name": "Sankt-Vitus-Gasse"]),
            .init("fg", ["highway": "residential", "name": "Boulevard des Moulins"]),
            .init("gh", ["highway": "residential", "name": "Rue Basse"]),
            .init("hi", ["highway": "residential", "name": "R Basse"]),
            .init("ij", ["highway": "residential", "name": "Praça da Matriz"]),
            .init("kl", ["highway": "residential", "name": "Dr.-Ludwig-Straße"]),
        ]
        let nodes: [Character: [String: String]] = [
            "s": ["railway": "station", "public_transport": "station", "name": "Heidelberg Hbf"],
            "t": ["amenity": "restaurant", "name": "Chez Avenue"],
        ]
        let xml = DrawnMap.xml(cells: DrawnMap.parse(drawing), gridMetres: 50, ways: ways, nodeTags: nodes, relations: [])
        let map = try PlaceImport(xml: xml)
        func first(_ query: String) throws -> String? { try map.search(query).first?.name }
        XCTAssertEqual(try first("Av. Ipiranga"), "Avenida Ipiranga")
        XCTAssertEqual(try first("av ipir"), "Avenida Ipiranga", "an abbreviation, then a beginning")
        XCTAssertEqual(try first("Avenida Bastian"), "Av Bastian")
        XCTAssertEqual(try first("R. dos Andradas"), "Rua dos Andradas")
        XCTAssertEqual(try first("St. Vitus"), "Sankt-Vitus-Gasse")
        XCTAssertEqual(try first("Bd des Moulins"), "Boulevard des Moulins")
        XCTAssertEqual(try first("Pca da Matriz"), "Praça da Matriz")
        XCTAssertEqual(try first("Heidelberg Hauptbahnhof"), "Heidelberg Hbf")
        XCTAssertEqual(try first("Doktor Ludwig Str"), "Dr.-Ludwig-Straße")
        XCTAssertEqual(try map.search("Rue Basse").map(\.name), ["Rue Basse", "R Basse"], "the word itself first")
        XCTAssertEqual(try map.search("R Basse").map(\.name), ["R Basse", "Rue Basse"])
        // Every word must still match: "Chez Av" is only the restaurant, not the avenues.
        XCTAssertEqual(try map.search("Chez Av").map(\.name), ["Chez Avenue"])
    }

    /// Shuffled nodes and ways (not in id order) give the same places.
    func testElementOrderDoesNotChangeThePlaces() throws {
        let sorted = try PlaceImport(xml: Self.drawnXML())
        let shuffled = try PlaceImport(xml: Self.drawnXML(order: .shuffled(seed: 7)))
        func all(_ map: PlaceImport) -> [String] {
            (0..<map.index.count).map { let p = map.index.place($0); return "\(p.source.name) \(p.osmID) \(p.latitude) \(p.longitude) \(p.name)" }.sorted()
        }
        XCTAssertEqual(all(sorted), all(shuffled))
    }

    /// A place section whose checksum matches but whose contents point outside the index is refused, naming it.
    func testCorruptSectionsAreRefused() throws {
        let map = try PlaceImport(xml: Self.drawnXML())
        let file = try GraphFile(path: map.graphPath)
        func rewritten(_ section: String, _ change: (inout [UInt8]) -> Void) throws -> String {
            let path = map.folder.appendingPathComponent("bad-\(section).wfg").path
            let writer = try GraphFileWriter(path: path)
            try writer.appendSections(of: file, except: [section])
            var bytes = Array(try file.bytes(section))
            change(&bytes)
            let size = file.sections.first { $0.name == section }!.elementSize
            try bytes.withUnsafeBytes { try writer.append(section, bytes: $0, elementSize: size) }
            try writer.finish()
            return path
        }
        func setUInt32(_ bytes: inout [UInt8], _ i: Int, _ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { for k in 0..<4 { bytes[4 * i + k] = $0[k] } }
        }
        let cases: [(String, (inout [UInt8]) -> Void, String)] = [
            (PlaceSectionName.postings, { setUInt32(&$0, 0, 0xFFFF_FFF0) }, "names place"),
            (PlaceSectionName.categories, { setUInt32(&$0, 1, 999) }, "not below"),
            (PlaceSectionName.textStart, { setUInt32(&$0, 3, 0xFFFF) }, "goes back"),
            (PlaceSectionName.tokenStart, { $0.removeLast(4) }, "elements"),
            (PlaceSectionName.tokens, { $0[0] = 0xFF }, "increasing order"),
            (PlaceSectionName.sources, { $0[0] = 9 }, "place source"),
            (PlaceSectionName.latitudes, { setUInt32(&$0, 0, 0x7FFF_FFFF) }, "outside"),
        ]
        for (section, change, problem) in cases {
            let path = try rewritten(section, change)
            XCTAssertThrowsError(try PlaceIndex(path: path), section) { error in
                guard case let .invalidSection(_, named, said)? = error as? GraphFileError else { return XCTFail("\(section): \(error)") }
                XCTAssertEqual(named, section)
                XCTAssertTrue(said.contains(problem), "\(section): \(said)")
            }
        }
        // A flipped byte fails its checksum.
        let flipped = map.folder.appendingPathComponent("flipped.wfg").path
        var data = try Data(contentsOf: URL(fileURLWithPath: map.graphPath))
        let text = file.sections.first { $0.name == PlaceSectionName.text }!
        data[text.offset] ^= 0x20
        try data.write(to: URL(fileURLWithPath: flipped))
        XCTAssertThrowsError(try PlaceIndex(path: flipped)) {
            XCTAssertEqual($0 as? GraphFileError, .checksumMismatch(path: flipped, section: PlaceSectionName.text))
        }
    }

    func testTransitStopsAreSearchable() throws {
        let collector = PlaceCollector()
        collector.addTransitStop(name: "Heidelberg Hauptbahnhof", latitudeE7: 494_040_000, longitudeE7: 86_750_000, stopID: "de:08221:1160")
        collector.addTransitStop(name: "Bismarckplatz", latitudeE7: 494_090_000, longitudeE7: 86_930_000, stopID: "de:08221:1138")
        let data = try PlaceIndexBuilder().build(collector.places)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-places-stops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stops.wfg").path
        let writer = try GraphFileWriter(path: path)
        try data.write(to: writer)
        try writer.finish()
        let searcher = PlaceSearcher(index: try PlaceIndex(path: path))
        let found = try searcher.search(PlaceQuery("hauptbanhof"))
        XCTAssertEqual(found.count, 1)
        let stop = searcher.index.place(found[0].place)
        XCTAssertEqual(stop.source, .transitStop)
        XCTAssertEqual(stop.reference, "de:08221:1160")
        XCTAssertEqual(stop.category, "stop")
        XCTAssertEqual(searcher.index.place(try searcher.search(PlaceQuery("1138"))[0].place).name, "Bismarckplatz")
    }

    static func degrees(_ letter: Character) -> (latitude: Double, longitude: Double) {
        let cell = DrawnMap.parse(drawing)[letter]!
        let (latitude, longitude) = DrawnMap.fixedPoint(line: cell.line, column: cell.column)
        return (Double(latitude) / 1e7, Double(longitude) / 1e7)
    }

    /// The point of `letter` in another drawing, `gridMetres` between cells.
    static func degrees(in drawing: String, _ letter: Character, gridMetres: Double) -> (latitude: Double, longitude: Double) {
        let cell = DrawnMap.parse(drawing)[letter]!
        let (latitude, longitude) = DrawnMap.fixedPoint(line: cell.line, column: cell.column, gridMetres: gridMetres)
        return (Double(latitude) / 1e7, Double(longitude) / 1e7)
    }

    static func mean(_ letters: String) -> (latitude: Double, longitude: Double) {
        let points = letters.map { degrees($0) }
        return (points.map(\.latitude).reduce(0, +) / Double(points.count), points.map(\.longitude).reduce(0, +) / Double(points.count))
    }
}
