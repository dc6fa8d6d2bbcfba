import Foundation
import XCTest
import OSM
import Graph
@testable import Routing

/// A tiny OSM map drawn as ASCII art, imported into a graph and routed on, for the routing behaviour tests
/// (adapted from `Tests/GraphTests/AsciiMap.swift`; test targets cannot import each other):
///
///     let map = try RoutingMap("""
///         a---b---c
///             |
///             d
///         """,
///         ways: [("abc", ["highway": "residential", "oneway": "yes"]),
///                ("bd", ["highway": "residential"])])
///     let route = try map.route("car", from: "c", to: "d")
///     XCTAssertEqual(map.letters(of: route), "...")
///
/// Every ASCII letter or digit of the drawing is an OSM node; everything else is decoration. A node sits
/// `gridMetres` east per column and south per line of the top-left cell at (49°N, 8°E). Node ids follow the
/// letter (`a` is 1, … see `nodeAlphabet`), ways are numbered 101, 102… in the order given, relations 201, 202….
/// The map writes OSM XML into a fresh temporary folder, runs `GraphImporter`, opens the `RoadGraph` and
/// answers in letters: coordinates, points between letters, expected lengths and times, the letters a route
/// passes. The folder is removed when the map is released.
final class RoutingMap {
    static let originLatitude = 49.0
    static let originLongitude = 8.0
    /// The characters that name nodes; a node's OSM id is its position here plus one.
    static let nodeAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// The sphere of `docs/profiles.md`, used for expected lengths (independently of `Geo`).
    static let earthRadius = 6_371_008.8
    static var metresPerDegree: Double { earthRadius * Double.pi / 180 }

    /// A relation of the map, its members named by letters (nodes) and node strings (ways).
    struct Relation {
        enum Member {
            case way(String, role: String)
            case node(Character, role: String)
            /// A way by raw OSM id (e.g. one absent from the map).
            case wayID(Int64, role: String)
        }
        var members: [Member]
        var tags: [String: String]

        /// A via-node turn restriction `value` from way `from` through node `via` onto way `to`.
        static func restriction(_ value: String, from: String, via: Character, to: String, tags: [String: String] = [:]) -> Relation {
            var all = tags
            all["type"] = all["type"] ?? "restriction"
            all["restriction"] = value
            return Relation(members: [.way(from, role: "from"), .node(via, role: "via"), .way(to, role: "to")], tags: all)
        }

        /// A via-way turn restriction `value` from way `from`, along `viaWays` in order, onto way `to`.
        static func restriction(_ value: String, from: String, viaWays: [String], to: String, tags: [String: String] = [:]) -> Relation {
            var all = tags
            all["type"] = "restriction"
            all["restriction"] = value
            return Relation(members: [.way(from, role: "from")] + viaWays.map { .way($0, role: "via") } + [.way(to, role: "to")], tags: all)
        }
    }

    /// Metres between neighbouring grid cells, across and down.
    let gridMetres: Double
    /// Grid position of each letter.
    let cells: [Character: (line: Int, column: Int)]
    let ways: [(String, [String: String])]
    let directory: URL
    let graph: RoadGraph
    /// What the importer returned.
    let statistics: ImportStatistics
    /// The OSM XML file written for the map.
    let osmPath: String
    private var routers: [String: Router] = [:]

    /// Draws, writes and imports a map; throws what the importer throws. Letters in `omit` are drawn (and may be
    /// used by ways) but their `<node>` is left out of the file, as in an extract clipped from a larger one.
    init(_ drawing: String, ways: [(String, [String: String])], nodes: [Character: [String: String]] = [:],
         relations: [Relation] = [], gridMetres: Double = 10, profiles: [TravelProfile] = [.car, .foot], omit: String = "") throws {
        self.gridMetres = gridMetres
        var cells: [Character: (line: Int, column: Int)] = [:]
        for (line, text) in drawing.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, character) in text.enumerated() where character.isASCII && (character.isLetter || character.isNumber) {
                precondition(cells[character] == nil, "'\(character)' is drawn twice")
                cells[character] = (line, column)
            }
        }
        self.cells = cells
        self.ways = ways
        for (letters, _) in ways {
            for letter in letters { precondition(cells[letter] != nil, "way \(letters) uses '\(letter)', which is not drawn") }
        }
        for letter in nodes.keys { precondition(cells[letter] != nil, "tags given for '\(letter)', which is not drawn") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-routingmap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let osmPath = folder.appendingPathComponent("map.osm").path, graphPath = folder.appendingPathComponent("map.wfg").path
        do {
            let xml = Self.xml(cells: cells, gridMetres: gridMetres, ways: ways, nodeTags: nodes, relations: relations, omitted: Set(omit))
            try xml.write(toFile: osmPath, atomically: false, encoding: .utf8)
            // With contraction hierarchies, so every route below is checked against the plain search too.
            var importer = GraphImporter(profiles: profiles)
            importer.extensions = [HierarchyExtension()]
            statistics = try importer.run(input: osmPath, output: graphPath)
            graph = try RoadGraph(path: graphPath)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        directory = folder
        self.osmPath = osmPath
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    // MARK: Drawing and XML

    static func osmID(of letter: Character) -> Int64 {
        guard let index = nodeAlphabet.firstIndex(of: letter) else { preconditionFailure("'\(letter)' cannot name a node") }
        return Int64(index + 1)
    }

    /// Fixed-point (1e-7 degree) position of a grid cell.
    static func fixedPoint(line: Int, column: Int, gridMetres: Double) -> (latitude: Int32, longitude: Int32) {
        let latitude = originLatitude - Double(line) * gridMetres / metresPerDegree
        let longitude = originLongitude + Double(column) * gridMetres / (metresPerDegree * cos(originLatitude * Double.pi / 180))
        return (Int32((latitude * 1e7).rounded()), Int32((longitude * 1e7).rounded()))
    }

    static func degrees(_ value: Int32) -> String {
        let magnitude = abs(Int64(value))
        let fraction = String(magnitude % 10_000_000)
        return (value < 0 ? "-" : "") + "\(magnitude / 10_000_000)." + String(repeating: "0", count: 7 - fraction.count) + fraction
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func xml(cells: [Character: (line: Int, column: Int)], gridMetres: Double, ways: [(String, [String: String])],
                    nodeTags: [Character: [String: String]], relations: [Relation], omitted: Set<Character> = []) -> String {
        func tagLines(_ tags: [String: String]) -> String {
            tags.keys.sorted().map { "    <tag k=\"\(escape($0))\" v=\"\(escape(tags[$0]!))\"/>\n" }.joined()
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"RoutingMap\">\n"
        for letter in cells.keys.sorted(by: { osmID(of: $0) < osmID(of: $1) }) where !omitted.contains(letter) {
            let point = fixedPoint(line: cells[letter]!.line, column: cells[letter]!.column, gridMetres: gridMetres)
            let head = "  <node id=\"\(osmID(of: letter))\" lat=\"\(degrees(point.latitude))\" lon=\"\(degrees(point.longitude))\""
            if let tags = nodeTags[letter], !tags.isEmpty {
                text += head + ">\n" + tagLines(tags) + "  </node>\n"
            } else {
                text += head + "/>\n"
            }
        }
        for (index, (letters, tags)) in ways.enumerated() {
            text += "  <way id=\"\(101 + index)\">\n"
            for letter in letters { text += "    <nd ref=\"\(osmID(of: letter))\"/>\n" }
            text += tagLines(tags) + "  </way>\n"
        }
        for (index, relation) in relations.enumerated() {
            text += "  <relation id=\"\(201 + index)\">\n"
            for member in relation.members {
                switch member {
                case let .way(letters, role):
                    guard let w = ways.firstIndex(where: { $0.0 == letters }) else { preconditionFailure("no way \(letters) for a relation") }
                    text += "    <member type=\"way\" ref=\"\(101 + w)\" role=\"\(escape(role))\"/>\n"
                case let .node(letter, role):
                    text += "    <member type=\"node\" ref=\"\(osmID(of: letter))\" role=\"\(escape(role))\"/>\n"
                case let .wayID(id, role):
                    text += "    <member type=\"way\" ref=\"\(id)\" role=\"\(escape(role))\"/>\n"
                }
            }
            text += tagLines(relation.tags) + "  </relation>\n"
        }
        return text + "</osm>\n"
    }

    // MARK: Places

    /// Position of the node drawn as `letter`, as the graph stores it.
    func coordinate(_ letter: Character) -> Coordinate {
        guard let cell = cells[letter] else { preconditionFailure("'\(letter)' is not drawn") }
        let point = Self.fixedPoint(line: cell.line, column: cell.column, gridMetres: gridMetres)
        return Coordinate(latitudeE7: point.latitude, longitudeE7: point.longitude)
    }

    /// The point at `fraction` of the straight line from letter `a` to letter `b`.
    func point(_ a: Character, _ b: Character, _ fraction: Double) -> Coordinate {
        let p = coordinate(a), q = coordinate(b)
        return Coordinate(latitude: p.latitude + fraction * (q.latitude - p.latitude),
                          longitude: p.longitude + fraction * (q.longitude - p.longitude))
    }

    /// `c` moved `north` and `east` metres.
    static func offset(_ c: Coordinate, north: Double = 0, east: Double = 0) -> Coordinate {
        Coordinate(latitude: c.latitude + north / metresPerDegree,
                   longitude: c.longitude + east / (metresPerDegree * cos(c.latitude * Double.pi / 180)))
    }

    /// The graph node of `letter`, nil when it is a shape point or unused.
    func node(_ letter: Character) -> Int? { graph.nodeOSMIDs.firstIndex(of: Self.osmID(of: letter)) }

    /// The letter drawn at `c` exactly, if any.
    func letter(at c: Coordinate) -> Character? {
        cells.keys.first { coordinate($0) == c }
    }

    // MARK: Expected lengths and times

    /// Haversine metres between two coordinates, computed here independently of the graph code.
    static func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
        let rad = Double.pi / 180
        let lat1 = a.latitude * rad, lat2 = b.latitude * rad
        let dLat = lat2 - lat1, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// Metres along the polyline through the letters of `path`.
    func length(_ path: String) -> Double {
        let points = path.map(coordinate)
        return zip(points, points.dropFirst()).reduce(0) { $0 + Self.haversine($1.0, $1.1) }
    }

    /// Seconds to cover `path` at `kmh`.
    func seconds(_ path: String, kmh: Double) -> Double { length(path) / (kmh / 3.6) }

    // MARK: Routing

    /// The router of profile `name` (one per map and profile).
    func router(_ name: String, hierarchy: Bool = true) throws -> Router {
        let key = hierarchy ? name : name + "/plain"
        if let router = routers[key] { return router }
        let router = try Router(graph: graph, profile: name, useHierarchy: hierarchy)
        if hierarchy { XCTAssertNotNil(router.hierarchy, "the map's graph has a contraction hierarchy") }
        routers[key] = router
        return router
    }

    /// The routes through `stops` for profile `name`, over the contraction hierarchy; the best route must equal the
    /// plain A*'s (time, length and path), or both must fail alike.
    func routes(_ name: String, _ stops: [Coordinate], options: RouteOptions = RouteOptions(),
                file: StaticString = #filePath, line: UInt = #line) throws -> (routes: [Route], waypoints: [Waypoint]) {
        let plain = Result { try router(name, hierarchy: false).routes(through: stops, options: options) }
        let viaHierarchy = Result { try router(name).routes(through: stops, options: options) }
        switch (viaHierarchy, plain) {
        case let (.success(a), .success(b)):
            XCTAssertEqual(a.routes[0].expectedTravelTime, b.routes[0].expectedTravelTime, accuracy: 0.001, "hierarchy and A* times", file: file, line: line)
            XCTAssertEqual(a.routes[0].distance, b.routes[0].distance, accuracy: 0.001, "hierarchy and A* lengths", file: file, line: line)
            XCTAssertEqual(a.routes[0].polyline, b.routes[0].polyline, "hierarchy and A* paths", file: file, line: line)
        case let (.failure(a), .failure(b)):
            XCTAssertEqual("\(a)", "\(b)", "hierarchy and A* fail alike", file: file, line: line)
        default:
            XCTFail("the hierarchy and A* disagree: \(viaHierarchy) vs \(plain)", file: file, line: line)
        }
        return try viaHierarchy.get()
    }

    /// The best route through `stops` for profile `name`.
    func route(_ name: String, _ stops: [Coordinate]) throws -> Route {
        try routes(name, stops).routes[0]
    }

    /// The best route from the node drawn as `from` to the one drawn as `to` (the stops lie exactly on them).
    func route(_ name: String, from: Character, to: Character) throws -> Route {
        try route(name, [coordinate(from), coordinate(to)])
    }

    /// The letters a geometry passes through exactly (graph nodes and shape points), in order, repeats collapsed.
    func letters(of geometry: [Coordinate]) -> String {
        var text = ""
        for point in geometry {
            guard let letter = letter(at: point) else { continue }
            if text.last != letter { text.append(letter) }
        }
        return text
    }

    func letters(of route: Route) -> String { letters(of: route.polyline) }

    /// The routing error a throwing call ends with (nil when it does not throw, or throws something else).
    static func routingError<T>(_ body: () throws -> T) -> RoutingError? {
        do { _ = try body(); return nil } catch let error as RoutingError { return error } catch { return nil }
    }
}

/// Asserts a route's letters and duration (seconds, within `accuracy`) and that its distance and time are the
/// sums over its legs.
func XCTAssertRoute(_ map: RoutingMap, _ route: Route, letters: String, seconds: Double, accuracy: Double = 0.01,
                    file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(map.letters(of: route), letters, "route letters", file: file, line: line)
    XCTAssertEqual(route.expectedTravelTime, seconds, accuracy: accuracy, "route time along \(map.letters(of: route))", file: file, line: line)
    XCTAssertEqual(route.expectedTravelTime, route.legs.reduce(0) { $0 + $1.expectedTravelTime }, accuracy: 1e-9, file: file, line: line)
    XCTAssertEqual(route.distance, route.legs.reduce(0) { $0 + $1.distance }, accuracy: 1e-9, file: file, line: line)
}

/// Car and foot speeds of the default profiles (docs/profiles.md), km/h.
enum Speed {
    static let residential = 25.0
    static let tertiary = 40.0
    static let primary = 65.0
    static let service = 15.0
    static let foot = 5.0
}
