import Foundation
import Graph
import OSM
import Routing

/// A tiny OSM map drawn as ASCII art and imported into a graph, for tests in the style of OSRM's cucumber
/// features and Valhalla's gurka tests — the one drawn-map helper of every test target:
///
///     let map = try DrawnMap("""
///         a---b---c
///             |
///             d
///         """,
///         ways: [("abc", ["highway": "primary", "oneway": "yes"]),
///                ("bd", ["highway": "residential"])])
///     XCTAssertSpeeds(map, "ab", "car", forward: 65, backward: nil)
///     let route = try map.route("car", from: "c", to: "d")
///
/// Every ASCII letter or digit of the drawing is an OSM node; every other character (`-`, `|`, `/`, spaces…) is
/// decoration. A node sits `gridMetres` east per column and south per line of the top-left cell at
/// (`originLatitude`, `originLongitude`). Node ids follow the letter (`a` is 1, `b` is 2, … see `nodeAlphabet`),
/// ways are numbered 101, 102… in the order given (unless given an id) and relations 201, 202….
///
/// The map writes OSM XML into a fresh temporary folder, runs `GraphImporter` on it (with the contraction hierarchy
/// when `hierarchy` is set, so routes can be checked against the plain search), opens the result as a `RoadGraph`
/// and answers in letters (DrawnMap+Graph, +Routing, +Steps). The folder is removed when the map is released.
public final class DrawnMap {
    /// Position of the drawing's top-left cell, degrees.
    public static let originLatitude = 49.0
    public static let originLongitude = 8.0
    /// The characters that name nodes; a node's OSM id is its position here plus one.
    public static let nodeAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// The sphere of `docs/profiles.md`, used for expected lengths (independently of the graph code's `Geo`).
    public static let earthRadius = 6_371_008.8
    /// Metres per degree of latitude on that sphere.
    public static var metresPerDegree: Double { earthRadius * Double.pi / 180 }

    /// A way of the map: its nodes as a string of letters, its tags, and optionally a chosen OSM id.
    public struct Way {
        public var nodes: String
        public var tags: [String: String]
        public var id: Int64?
        /// A way through the letters of `nodes`, in order.
        public init(_ nodes: String, _ tags: [String: String], id: Int64? = nil) {
            self.nodes = nodes; self.tags = tags; self.id = id
        }
    }

    /// A relation of the map: members named by the map's letters and ways, plus tags.
    public struct Relation {
        /// One relation member.
        public enum Member {
            /// The (first) way of the map whose node string is this.
            case way(String, role: String)
            /// A way by raw OSM id (e.g. one absent from the map).
            case wayID(Int64, role: String)
            /// The node of this letter.
            case node(Character, role: String)
            /// A node by raw OSM id (e.g. one absent from the map).
            case nodeID(Int64, role: String)
        }
        public var members: [Member]
        public var tags: [String: String]
        public var id: Int64?

        /// A relation of these members and tags (numbered 201, 202… in order unless given an id).
        public init(members: [Member], tags: [String: String], id: Int64? = nil) {
            self.members = members; self.tags = tags; self.id = id
        }

        /// A via-node turn restriction: `value` (e.g. `no_left_turn`) from way `from` through node `via` onto way `to`.
        /// `type` is the relation type (unless `tags` gives one); `tags` are added (`except`, `restriction:motorcar`…);
        /// a nil `value` leaves out the `restriction` tag (for relations that carry only `restriction:motorcar`).
        public static func restriction(_ value: String?, from: String, via: Character, to: String,
                                       type: String = "restriction", tags: [String: String] = [:]) -> Relation {
            var all = tags
            all["type"] = all["type"] ?? type
            if let value { all["restriction"] = value }
            return Relation(members: [.way(from, role: "from"), .node(via, role: "via"), .way(to, role: "to")], tags: all)
        }

        /// A via-way turn restriction: from way `from`, along the ways `viaWays` in order, onto way `to`.
        public static func restriction(_ value: String, from: String, viaWays: [String], to: String,
                                       tags: [String: String] = [:]) -> Relation {
            var all = tags
            all["type"] = "restriction"
            all["restriction"] = value
            return Relation(members: [.way(from, role: "from")] + viaWays.map { .way($0, role: "via") } + [.way(to, role: "to")], tags: all)
        }
    }

    /// The order the elements are written in.
    public enum ElementOrder {
        /// Nodes by id, then ways and relations in the order given (as OSM files are).
        case sorted
        /// Nodes, then ways, then relations, each kind shuffled (seeded, so repeatable).
        case shuffled(seed: UInt64)
        /// All elements shuffled together, ways and relations possibly before the nodes they use.
        case interleaved(seed: UInt64)
    }

    /// Metres between neighbouring grid cells, both across (columns) and down (lines).
    public let gridMetres: Double
    /// Grid position of each letter: line and column.
    public let cells: [Character: (line: Int, column: Int)]
    public let ways: [Way]
    public let nodeTags: [Character: [String: String]]
    public let relations: [Relation]
    /// Letters drawn (and usable in ways) whose `<node>` is left out of the file, as in a clipped extract.
    public let omitted: Set<Character>
    /// The folder holding the OSM file and the graph file.
    public let directory: URL
    /// The OSM XML written for the map.
    public let osmPath: String
    /// The graph file the importer wrote.
    public let graphPath: String
    /// The XML text of `osmPath`.
    public let xml: String
    /// What the importer returned.
    public let statistics: ImportStatistics
    /// The imported graph.
    public let graph: RoadGraph
    /// Routers by profile name (and "/plain" for the one without the hierarchy), made on first use.
    var routers: [String: Router] = [:]

    /// Draws, writes and imports a map; throws what the importer throws.
    ///
    /// - Parameters:
    ///   - drawing: the ASCII drawing; letters and digits are nodes.
    ///   - ways: the ways, each a string of letters and its tags.
    ///   - nodes: tags of nodes (barriers…), by letter.
    ///   - relations: relations (turn restrictions…).
    ///   - omit: letters whose `<node>` element is not written (ways referencing them reference a missing node).
    ///   - order: the order of the elements in the file.
    ///   - gridMetres: metres between neighbouring cells.
    ///   - profiles: the profiles to import with.
    ///   - hierarchy: whether the import builds the contraction hierarchy (routing tests check it against A*).
    public init(_ drawing: String, ways: [Way], nodes: [Character: [String: String]] = [:], relations: [Relation] = [],
                omit: String = "", order: ElementOrder = .sorted, gridMetres: Double = 10,
                profiles: [TravelProfile] = [.car, .foot], hierarchy: Bool = false) throws {
        self.gridMetres = gridMetres
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

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-drawnmap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let osmPath = folder.appendingPathComponent("map.osm").path, graphPath = folder.appendingPathComponent("map.wfg").path
        let xml = Self.xml(cells: cells, gridMetres: gridMetres, ways: ways, nodeTags: nodes, relations: relations,
                           omitted: omitted, order: order)
        do {
            try xml.write(toFile: osmPath, atomically: false, encoding: .utf8)
            var importer = GraphImporter(profiles: profiles)
            if hierarchy { importer.extensions = [HierarchyExtension()] }
            statistics = try importer.run(input: osmPath, output: graphPath)
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
    public convenience init(_ drawing: String, ways: [(String, [String: String])], nodes: [Character: [String: String]] = [:],
                            relations: [Relation] = [], omit: String = "", order: ElementOrder = .sorted,
                            gridMetres: Double = 10, profiles: [TravelProfile] = [.car, .foot], hierarchy: Bool = false) throws {
        try self.init(drawing, ways: ways.map { Way($0.0, $0.1) }, nodes: nodes, relations: relations, omit: omit,
                      order: order, gridMetres: gridMetres, profiles: profiles, hierarchy: hierarchy)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
