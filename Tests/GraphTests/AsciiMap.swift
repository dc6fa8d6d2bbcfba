import Foundation
import XCTest
import OSM
@testable import Graph

/// A tiny OSM map drawn as ASCII art and imported into a graph, for tests in the style of OSRM's cucumber
/// features and Valhalla's gurka tests:
///
///     let map = try AsciiMap("""
///         a---b---c
///             |
///             d
///         """,
///         ways: [("abc", ["highway": "primary", "oneway": "yes"]),
///                ("bd", ["highway": "residential"])])
///     XCTAssertSpeeds(map, "ab", "car", forward: 65, backward: nil)
///
/// Every ASCII letter or digit of the drawing is an OSM node; every other character (`-`, `|`, `/`, spaces…)
/// is decoration. A node's position comes from its place in the grid: `gridMetres` per character column
/// eastwards and per line southwards, starting at (`originLatitude`, `originLongitude`). Node ids are fixed by
/// the letter (`a` is 1, `b` is 2, … see `nodeAlphabet`), ways are numbered 101, 102… in the order given
/// (unless given an explicit id) and relations 201, 202….
///
/// The map writes OSM XML into a fresh temporary folder, runs `GraphImporter` on it, opens the result as a
/// `RoadGraph` and answers questions in terms of letters: which letters became graph nodes, the edge drawn by
/// a string of letters (end nodes and shape points), its travel time each way for a profile, and the turn
/// restrictions as letter paths. The folder is removed when the map is released.
final class AsciiMap {
    /// Metres between neighbouring grid cells, both across (columns) and down (lines).
    static let gridMetres = 10.0
    /// Position of the drawing's top-left cell, degrees.
    static let originLatitude = 49.0
    static let originLongitude = 8.0
    /// The characters that name nodes; a node's OSM id is its position here plus one.
    static let nodeAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// The sphere of `docs/profiles.md`, used for the expected lengths (independently of `Geo`).
    static let earthRadius = 6_371_008.8

    /// A way of the map: its nodes as a string of letters, its tags, and optionally a chosen OSM id.
    struct Way {
        var nodes: String
        var tags: [String: String]
        var id: Int64?
        /// A way through the letters of `nodes`, in order.
        init(_ nodes: String, _ tags: [String: String], id: Int64? = nil) {
            self.nodes = nodes; self.tags = tags; self.id = id
        }
    }

    /// A relation of the map: members named by the map's letters and ways, plus tags.
    struct Relation {
        /// One relation member.
        enum Member {
            /// The (first) way of the map whose node string is this.
            case way(String, role: String)
            /// A way by raw OSM id (e.g. one absent from the map).
            case wayID(Int64, role: String)
            /// The node of this letter.
            case node(Character, role: String)
            /// A node by raw OSM id (e.g. one absent from the map).
            case nodeID(Int64, role: String)
        }
        var members: [Member]
        var tags: [String: String]
        var id: Int64?

        init(members: [Member], tags: [String: String], id: Int64? = nil) {
            self.members = members; self.tags = tags; self.id = id
        }

        /// A via-node turn restriction: `value` (e.g. `no_left_turn`) from way `from` through node `via` onto way `to`.
        /// `type` is the relation type; `tags` are added (`except`, `restriction:motorcar`…); a nil `value` leaves out
        /// the `restriction` tag (for relations that carry only `restriction:motorcar`).
        static func restriction(_ value: String?, from: String, via: Character, to: String,
                                type: String = "restriction", tags: [String: String] = [:]) -> Relation {
            var all = tags
            all["type"] = type
            if let value { all["restriction"] = value }
            return Relation(members: [.way(from, role: "from"), .node(via, role: "via"), .way(to, role: "to")], tags: all)
        }

        /// A via-way turn restriction: from way `from`, along the ways `viaWays` in order, onto way `to`.
        static func restriction(_ value: String, from: String, viaWays: [String], to: String,
                                tags: [String: String] = [:]) -> Relation {
            var all = tags
            all["type"] = "restriction"
            all["restriction"] = value
            return Relation(members: [.way(from, role: "from")] + viaWays.map { .way($0, role: "via") } + [.way(to, role: "to")], tags: all)
        }
    }

    /// The order the elements are written in.
    enum ElementOrder {
        /// Nodes by id, then ways and relations in the order given (as OSM files are).
        case sorted
        /// Nodes, then ways, then relations, each kind shuffled (seeded, so repeatable).
        case shuffled(seed: UInt64)
        /// All elements shuffled together, ways and relations possibly before the nodes they use.
        case interleaved(seed: UInt64)
    }

    /// Grid position of each letter: line and column.
    let cells: [Character: (line: Int, column: Int)]
    let ways: [Way]
    let nodeTags: [Character: [String: String]]
    let relations: [Relation]
    /// Letters drawn (and usable in ways) whose `<node>` is left out of the file: "missing" nodes.
    let omitted: Set<Character>

    /// The folder holding the OSM file and the graph file.
    let directory: URL
    /// The OSM XML written for the map.
    let osmPath: String
    /// The graph file the importer wrote.
    let graphPath: String
    /// The XML text of `osmPath`.
    let xml: String
    /// What the importer returned.
    let statistics: ImportStatistics
    /// The imported graph.
    let graph: RoadGraph

    /// Draws, writes and imports a map; throws what the importer throws.
    ///
    /// - Parameters:
    ///   - drawing: the ASCII drawing; letters and digits are nodes.
    ///   - ways: the ways, each a string of letters and its tags.
    ///   - nodes: tags of nodes (barriers…), by letter.
    ///   - relations: relations (turn restrictions…).
    ///   - omit: letters whose `<node>` element is not written (ways referencing them reference a missing node).
    ///   - order: the order of the elements in the file.
    ///   - profiles: the profiles to import with.
    init(_ drawing: String, ways: [Way], nodes: [Character: [String: String]] = [:], relations: [Relation] = [],
         omit: String = "", order: ElementOrder = .sorted, profiles: [TravelProfile] = [.car, .foot]) throws {
        cells = Self.parse(drawing)
        self.ways = ways
        self.nodeTags = nodes
        self.relations = relations
        omitted = Set(omit)
        for way in ways {
            for letter in way.nodes { precondition(cells[letter] != nil, "way \(way.nodes) uses '\(letter)', which is not drawn") }
        }
        for letter in nodes.keys { precondition(cells[letter] != nil, "tags given for '\(letter)', which is not drawn") }
        for letter in omitted { precondition(cells[letter] != nil, "'\(letter)' is omitted but not drawn") }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-graphtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let osmPath = folder.appendingPathComponent("map.osm").path, graphPath = folder.appendingPathComponent("map.wfg").path
        let xml = Self.xml(cells: cells, ways: ways, nodeTags: nodes, relations: relations, omitted: omitted, order: order)
        do {
            try xml.write(toFile: osmPath, atomically: false, encoding: .utf8)
            statistics = try GraphImporter(profiles: profiles).run(input: osmPath, output: graphPath)
            graph = try RoadGraph(path: graphPath)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        directory = folder
        self.osmPath = osmPath
        self.graphPath = graphPath
        self.xml = xml
    }

    /// The same, with ways given as `(letters, tags)` pairs (numbered 101, 102… in order).
    convenience init(_ drawing: String, ways: [(String, [String: String])], nodes: [Character: [String: String]] = [:],
                     relations: [Relation] = [], omit: String = "", order: ElementOrder = .sorted,
                     profiles: [TravelProfile] = [.car, .foot]) throws {
        try self.init(drawing, ways: ways.map { Way($0.0, $0.1) }, nodes: nodes, relations: relations,
                      omit: omit, order: order, profiles: profiles)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    // MARK: Drawing and XML

    /// Grid positions of the letters of a drawing (a letter may appear only once).
    static func parse(_ drawing: String) -> [Character: (line: Int, column: Int)] {
        var cells: [Character: (line: Int, column: Int)] = [:]
        for (line, text) in drawing.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, character) in text.enumerated() where character.isASCII && (character.isLetter || character.isNumber) {
                precondition(cells[character] == nil, "'\(character)' is drawn twice")
                cells[character] = (line, column)
            }
        }
        return cells
    }

    /// OSM id of the node drawn as `letter`.
    static func osmID(of letter: Character) -> Int64 {
        guard let index = nodeAlphabet.firstIndex(of: letter) else { preconditionFailure("'\(letter)' cannot name a node") }
        return Int64(index + 1)
    }

    /// Fixed-point (1e-7 degree) position of a grid cell.
    static func coordinate(line: Int, column: Int) -> (latitude: Int32, longitude: Int32) {
        let metresPerDegree = earthRadius * Double.pi / 180
        let latitude = originLatitude - Double(line) * gridMetres / metresPerDegree
        let longitude = originLongitude + Double(column) * gridMetres / (metresPerDegree * cos(originLatitude * Double.pi / 180))
        return (Int32((latitude * 1e7).rounded()), Int32((longitude * 1e7).rounded()))
    }

    /// A fixed-point coordinate as OSM writes it (`49.0001234`).
    static func degrees(_ value: Int32) -> String {
        let magnitude = abs(Int64(value))
        let fraction = String(magnitude % 10_000_000)
        return (value < 0 ? "-" : "") + "\(magnitude / 10_000_000)." + String(repeating: "0", count: 7 - fraction.count) + fraction
    }

    /// Escapes text for an XML attribute value.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func tagLines(_ tags: [String: String]) -> String {
        tags.keys.sorted().map { "    <tag k=\"\(escape($0))\" v=\"\(escape(tags[$0]!))\"/>\n" }.joined()
    }

    /// OSM id of way number `index` (0-based) of `ways`.
    static func wayID(_ ways: [Way], _ index: Int) -> Int64 { ways[index].id ?? Int64(101 + index) }

    /// The OSM XML document of a map.
    static func xml(cells: [Character: (line: Int, column: Int)], ways: [Way], nodeTags: [Character: [String: String]],
                    relations: [Relation], omitted: Set<Character>, order: ElementOrder) -> String {
        var nodes: [String] = []
        for letter in cells.keys.sorted(by: { osmID(of: $0) < osmID(of: $1) }) where !omitted.contains(letter) {
            let (latitude, longitude) = coordinate(line: cells[letter]!.line, column: cells[letter]!.column)
            let head = "  <node id=\"\(osmID(of: letter))\" lat=\"\(degrees(latitude))\" lon=\"\(degrees(longitude))\""
            if let tags = nodeTags[letter], !tags.isEmpty {
                nodes.append(head + ">\n" + tagLines(tags) + "  </node>\n")
            } else {
                nodes.append(head + "/>\n")
            }
        }
        var wayElements: [String] = []
        for (index, way) in ways.enumerated() {
            var text = "  <way id=\"\(wayID(ways, index))\">\n"
            for letter in way.nodes { text += "    <nd ref=\"\(osmID(of: letter))\"/>\n" }
            wayElements.append(text + tagLines(way.tags) + "  </way>\n")
        }
        var relationElements: [String] = []
        for (index, relation) in relations.enumerated() {
            var text = "  <relation id=\"\(relation.id ?? Int64(201 + index))\">\n"
            for member in relation.members {
                switch member {
                case let .way(letters, role):
                    guard let w = ways.firstIndex(where: { $0.nodes == letters }) else { preconditionFailure("no way \(letters) for a relation") }
                    text += "    <member type=\"way\" ref=\"\(wayID(ways, w))\" role=\"\(escape(role))\"/>\n"
                case let .wayID(id, role):
                    text += "    <member type=\"way\" ref=\"\(id)\" role=\"\(escape(role))\"/>\n"
                case let .node(letter, role):
                    text += "    <member type=\"node\" ref=\"\(osmID(of: letter))\" role=\"\(escape(role))\"/>\n"
                case let .nodeID(id, role):
                    text += "    <member type=\"node\" ref=\"\(id)\" role=\"\(escape(role))\"/>\n"
                }
            }
            relationElements.append(text + tagLines(relation.tags) + "  </relation>\n")
        }
        var elements: [String]
        switch order {
        case .sorted:
            elements = nodes + wayElements + relationElements
        case let .shuffled(seed):
            var generator = SplitMix64(seed: seed)
            elements = nodes.shuffled(using: &generator) + wayElements.shuffled(using: &generator) + relationElements.shuffled(using: &generator)
        case let .interleaved(seed):
            var generator = SplitMix64(seed: seed)
            elements = (nodes + wayElements + relationElements).shuffled(using: &generator)
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"AsciiMap\">\n" + elements.joined() + "</osm>\n"
    }

    // MARK: Lookups by letter

    /// Fixed-point position of the node drawn as `letter`.
    func coordinate(_ letter: Character) -> (latitude: Int32, longitude: Int32) {
        guard let cell = cells[letter] else { preconditionFailure("'\(letter)' is not drawn") }
        return Self.coordinate(line: cell.line, column: cell.column)
    }

    /// The graph node of `letter`, or nil when the letter is a shape point or not in the graph at all.
    func node(_ letter: Character) -> Int? {
        let id = Self.osmID(of: letter)
        return graph.nodeOSMIDs.firstIndex(of: id)
    }

    /// Whether `letter` became a graph node.
    func isGraphNode(_ letter: Character) -> Bool { node(letter) != nil }

    /// The letter of graph node `n` ("?" if it is not a drawn node).
    func letter(ofNode n: Int) -> Character {
        let id = graph.nodeOSMIDs[n]
        return id >= 1 && id <= Int64(Self.nodeAlphabet.count) ? Self.nodeAlphabet[Int(id - 1)] : "?"
    }

    /// The letter drawn at a fixed-point position ("?" if none).
    func letter(at point: (latitude: Int32, longitude: Int32)) -> Character {
        for (letter, cell) in cells {
            let c = Self.coordinate(line: cell.line, column: cell.column)
            if c.latitude == point.latitude && c.longitude == point.longitude { return letter }
        }
        return "?"
    }

    /// The flags of the graph node of `letter` (nil if it is no graph node).
    func flags(_ letter: Character) -> UInt8? { node(letter).map { graph.nodeFlags[$0] } }

    /// The graph of profile `name` (the test fails hard if the map was not built with it).
    func profile(_ name: String) -> ProfileGraph {
        guard let profile = graph.profile(named: name) else { preconditionFailure("no profile \(name) in the map") }
        return profile
    }

    /// Whether the node of `letter` is closed to profile `name` (a barrier it cannot pass).
    func isBlocked(_ letter: Character, _ name: String) -> Bool {
        guard let flags = flags(letter) else { return false }
        return profile(name).isBlocked(flags)
    }

    /// The edge drawn by `path`: from its first letter to its last, through the others as shape points, in either
    /// stored orientation; `reversed` tells whether the edge is stored from the last letter to the first.
    func edge(_ path: String) -> (index: Int, reversed: Bool)? {
        let letters = Array(path)
        precondition(letters.count >= 2, "an edge needs two letters")
        guard let a = node(letters.first!), let b = node(letters.last!) else { return nil }
        let points = letters.map(coordinate)
        func same(_ polyline: [(latitude: Int32, longitude: Int32)], _ expected: [(latitude: Int32, longitude: Int32)]) -> Bool {
            polyline.count == expected.count && zip(polyline, expected).allSatisfy { $0.latitude == $1.latitude && $0.longitude == $1.longitude }
        }
        for e in 0..<graph.edgeCount {
            let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
            if from == a && to == b && same(graph.polyline(ofEdge: e), points) { return (e, false) }
            if from == b && to == a && same(graph.polyline(ofEdge: e), points.reversed()) { return (e, true) }
        }
        return nil
    }

    /// Every edge of the graph as the letters of its polyline in stored order (end nodes and shape points), sorted.
    var edgePaths: [String] {
        (0..<graph.edgeCount).map { e in String(graph.polyline(ofEdge: e).map { letter(at: $0) }) }.sorted()
    }

    /// Letters of the graph nodes, sorted.
    var graphNodeLetters: String { String((0..<graph.nodeCount).map { letter(ofNode: $0) }.sorted()) }

    /// Travel time in milliseconds along `path` (first letter to last) for profile `name`; nil when that direction
    /// is closed or there is no such edge.
    func time(_ path: String, _ name: String) -> UInt32? {
        guard let (e, reversed) = edge(path) else { return nil }
        let profile = profile(name)
        let time = reversed ? profile.timeBackward[e] : profile.timeForward[e]
        return time == closedEdge ? nil : time
    }

    /// The haversine length in metres of the polyline through the letters of `path`, computed here independently
    /// of the graph code (sphere of radius 6 371 008.8 m, over the fixed-point positions).
    func length(_ path: String) -> Double {
        let points = path.map(coordinate)
        return zip(points, points.dropFirst()).reduce(0) { $0 + Self.haversine($1.0, $1.1) }
    }

    /// Expected milliseconds to cover `path` at `kmh`.
    func expectedMilliseconds(_ path: String, kmh: Double) -> Double { length(path) / (kmh / 3.6) * 1000 }

    /// Haversine distance in metres between two fixed-point positions.
    static func haversine(_ a: (latitude: Int32, longitude: Int32), _ b: (latitude: Int32, longitude: Int32)) -> Double {
        let rad = Double.pi / 180
        let lat1 = Double(a.latitude) * 1e-7 * rad, lat2 = Double(b.latitude) * 1e-7 * rad
        let dLat = lat2 - lat1, dLon = (Double(b.longitude) - Double(a.longitude)) * 1e-7 * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// The letters a directed edge runs between: (start, end).
    func letters(ofDirected directed: UInt32) -> (Character, Character) {
        let e = Int(directed >> 1)
        let from = letter(ofNode: Int(graph.edgeFrom[e])), to = letter(ofNode: Int(graph.edgeTo[e]))
        return directed & 1 == 0 ? (from, to) : (to, from)
    }

    /// Profile `name`'s turn restrictions as `"no:abd"` / `"only:abd"`: the kind, then the graph-node letters the
    /// path runs through (arriving edge a→b, leaving edge b→d). A path whose edges do not join shows a `|`.
    func restrictions(_ name: String) -> [String] {
        let profile = profile(name)
        return (0..<profile.restrictionCount).map { r in
            let (kind, path) = profile.restriction(r)
            var text = kind == .prohibitory ? "no:" : "only:"
            var last: Character? = nil
            for directed in path {
                let (start, end) = letters(ofDirected: directed)
                if last == nil { text.append(start) } else if last != start { text += "|"; text.append(start) }
                text.append(end)
                last = end
            }
            return text
        }.sorted()
    }

    /// The graph's index of the way whose node string is `letters` (its first such way).
    func wayIndex(_ letters: String) -> Int? {
        guard let w = ways.firstIndex(where: { $0.nodes == letters }) else { return nil }
        return graph.wayOSMIDs.firstIndex(of: Self.wayID(ways, w))
    }

    /// The bytes of the graph file.
    func graphBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: graphPath)) }
}


/// Asserts the travel speeds of profile `profile` along the edge drawn by `path`: `forward` is the speed from the
/// first letter to the last, `backward` the other way, in km/h, nil for a closed direction. The time stored must be
/// the haversine length of the letters divided by the speed, within 1 ms.
func XCTAssertSpeeds(_ map: AsciiMap, _ path: String, _ profile: String, forward: Double?, backward: Double?,
                     file: StaticString = #filePath, line: UInt = #line) {
    if forward != nil || backward != nil, map.edge(path) == nil {
        XCTFail("no edge \(path) in the graph; edges: \(map.edgePaths)", file: file, line: line)
        return
    }
    let reversedPath = String(path.reversed())
    for (label, letters, kmh) in [("forward", path, forward), ("backward", reversedPath, backward)] {
        let actual = map.time(letters, profile)
        switch (kmh, actual) {
        case (nil, nil): break
        case let (nil, time?):
            XCTFail("\(profile) \(label) along \(path): expected closed, got \(time) ms", file: file, line: line)
        case let (speed?, nil):
            XCTFail("\(profile) \(label) along \(path): expected \(speed) km/h, got closed", file: file, line: line)
        case let (speed?, time?):
            let expected = map.expectedMilliseconds(letters, kmh: speed)
            let actualSpeed = map.length(letters) / (Double(time) / 1000) * 3.6
            XCTAssertEqual(Double(time), expected, accuracy: 1,
                           "\(profile) \(label) along \(path): expected \(speed) km/h, got about \(actualSpeed) km/h", file: file, line: line)
        }
    }
}

/// Asserts that profile `profile` cannot use the edge drawn by `path` in either direction (or that there is no such edge).
func XCTAssertClosed(_ map: AsciiMap, _ path: String, _ profile: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertSpeeds(map, path, profile, forward: nil, backward: nil, file: file, line: line)
}

/// The two-way drawing used by single-way tag tests: way `ab` under test, and `cd`, a residential street that keeps the
/// import from failing with "no roads" when `ab` is unroutable for every profile.
let twoStreets = """
    a-----b

    c-----d
    """

/// Imports `twoStreets` with way `ab` tagged `tags` (and `cd` residential).
func singleWayMap(_ tags: [String: String], nodes: [Character: [String: String]] = [:]) throws -> AsciiMap {
    try AsciiMap(twoStreets, ways: [("ab", tags), ("cd", ["highway": "residential"])], nodes: nodes)
}
