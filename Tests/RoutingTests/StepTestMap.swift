import Foundation
import XCTest
import OSM
import Graph
@testable import Routing

/// A tiny OSM map drawn as ASCII art and imported into a graph, for the step builder's tests (the approach of
/// `Tests/GraphTests/AsciiMap.swift`, trimmed to what routing tests need):
///
///     let map = try StepTestMap("""
///         a---b---c
///             |
///             d
///         """,
///         ways: [("abc", ["highway": "residential", "name": "Main Street"]),
///                ("bd", ["highway": "residential", "name": "Elm Street"])])
///     let route = map.traversals(["ab", "bd"], profile: "car")
///
/// Every ASCII letter or digit of the drawing is an OSM node, placed `gridMetres` east per column and south per
/// line of the top-left cell; everything else is decoration. Ways are numbered 101, 102… in the order given.
/// The map writes OSM XML into a fresh temporary folder, imports it with `GraphImporter`, opens the `RoadGraph`
/// and builds whole- or part-edge traversals from strings of letters. The folder is removed with the map.
final class StepTestMap {
    /// Metres between neighbouring grid cells, across and down.
    static let gridMetres = 10.0
    static let originLatitude = 49.0
    static let originLongitude = 8.0
    /// The characters that name nodes; a node's OSM id is its position here plus one.
    static let nodeAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// Grid position of each letter.
    let cells: [Character: (line: Int, column: Int)]
    let directory: URL
    let graph: RoadGraph

    /// Draws, writes and imports a map.
    init(_ drawing: String, ways: [(String, [String: String])], profiles: [TravelProfile] = [.car, .foot]) throws {
        var cells: [Character: (line: Int, column: Int)] = [:]
        for (line, text) in drawing.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, character) in text.enumerated() where character.isASCII && (character.isLetter || character.isNumber) {
                precondition(cells[character] == nil, "'\(character)' is drawn twice")
                cells[character] = (line, column)
            }
        }
        self.cells = cells
        for (letters, _) in ways {
            for letter in letters { precondition(cells[letter] != nil, "way \(letters) uses '\(letter)', which is not drawn") }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-steptests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let osmPath = folder.appendingPathComponent("map.osm").path, graphPath = folder.appendingPathComponent("map.wfg").path
        do {
            try Self.xml(cells: cells, ways: ways).write(toFile: osmPath, atomically: false, encoding: .utf8)
            _ = try GraphImporter(profiles: profiles).run(input: osmPath, output: graphPath)
            graph = try RoadGraph(path: graphPath)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        directory = folder
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// OSM id of the node drawn as `letter`.
    static func osmID(of letter: Character) -> Int64 {
        guard let index = nodeAlphabet.firstIndex(of: letter) else { preconditionFailure("'\(letter)' cannot name a node") }
        return Int64(index + 1)
    }

    /// Fixed-point (1e-7 degree) position of a grid cell.
    static func fixedPoint(line: Int, column: Int) -> (latitude: Int32, longitude: Int32) {
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let latitude = originLatitude - Double(line) * gridMetres / metresPerDegree
        let longitude = originLongitude + Double(column) * gridMetres / (metresPerDegree * cos(originLatitude * Double.pi / 180))
        return (Int32((latitude * 1e7).rounded()), Int32((longitude * 1e7).rounded()))
    }

    /// A fixed-point coordinate as OSM writes it.
    static func degrees(_ value: Int32) -> String {
        let magnitude = abs(Int64(value))
        let fraction = String(magnitude % 10_000_000)
        return (value < 0 ? "-" : "") + "\(magnitude / 10_000_000)." + String(repeating: "0", count: 7 - fraction.count) + fraction
    }

    /// The OSM XML document of a map.
    static func xml(cells: [Character: (line: Int, column: Int)], ways: [(String, [String: String])]) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"StepTestMap\">\n"
        for letter in cells.keys.sorted(by: { osmID(of: $0) < osmID(of: $1) }) {
            let point = fixedPoint(line: cells[letter]!.line, column: cells[letter]!.column)
            text += "  <node id=\"\(osmID(of: letter))\" lat=\"\(degrees(point.latitude))\" lon=\"\(degrees(point.longitude))\"/>\n"
        }
        for (index, (letters, tags)) in ways.enumerated() {
            text += "  <way id=\"\(101 + index)\">\n"
            for letter in letters { text += "    <nd ref=\"\(osmID(of: letter))\"/>\n" }
            for key in tags.keys.sorted() { text += "    <tag k=\"\(escape(key))\" v=\"\(escape(tags[key]!))\"/>\n" }
            text += "  </way>\n"
        }
        return text + "</osm>\n"
    }

    // MARK: Lookups by letter

    /// Position of the node drawn as `letter`, degrees.
    func coordinate(_ letter: Character) -> Coordinate {
        guard let cell = cells[letter] else { preconditionFailure("'\(letter)' is not drawn") }
        let point = Self.fixedPoint(line: cell.line, column: cell.column)
        return Coordinate(latitudeE7: point.latitude, longitudeE7: point.longitude)
    }

    /// The graph node of `letter`, nil when it is only a shape point.
    func node(_ letter: Character) -> Int? { graph.nodeOSMIDs.firstIndex(of: Self.osmID(of: letter)) }

    /// The edge drawn by `path` (end letters and shape points), and whether it is stored from its last letter to its first.
    func edge(_ path: String) -> (index: Int, storedBackwards: Bool)? {
        let letters = Array(path)
        guard let a = node(letters.first!), let b = node(letters.last!) else { return nil }
        let points = letters.map(coordinate)
        for e in 0..<graph.edgeCount {
            let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
            let polyline = graph.coordinates(ofEdge: e)
            if from == a && to == b && polyline == points { return (e, false) }
            if from == b && to == a && polyline == points.reversed() { return (e, true) }
        }
        return nil
    }

    /// The traversal of the edge drawn by `path`, from its first letter towards its last, between the fractions
    /// `from` and `to` of its length (measured from the first letter), with the profile's time in that direction.
    func traversal(_ path: String, profile name: String = "car", from: Double = 0, to: Double = 1) -> EdgeTraversal {
        guard let (e, backwards) = edge(path) else { preconditionFailure("no edge \(path) in the map") }
        guard let profile = graph.profile(named: name) else { preconditionFailure("no profile \(name)") }
        let milliseconds = backwards ? profile.timeBackward[e] : profile.timeForward[e]
        precondition(milliseconds != closedEdge, "\(path) is closed to \(name)")
        let share = to - from
        let length = Double(graph.edgeLengthMillimetres[e]) / 1000
        return EdgeTraversal(edge: e, reversed: backwards,
                             startFraction: backwards ? 1 - from : from, endFraction: backwards ? 1 - to : to,
                             distance: length * share, duration: Double(milliseconds) / 1000 * share)
    }

    /// Whole-edge traversals along the edges drawn by `paths`, in order.
    func traversals(_ paths: [String], profile: String = "car") -> [EdgeTraversal] {
        paths.map { traversal($0, profile: profile) }
    }

    /// Where a traversal starts (`atEnd` false) or ends, as a snapped location whose query point lies `north` and
    /// `east` metres off the road.
    func snapped(_ traversal: EdgeTraversal, atEnd: Bool, north: Double = 0, east: Double = 0) -> SnappedLocation {
        let points = graph.coordinates(of: traversal)
        let location = atEnd ? points[points.count - 1] : points[0]
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let query = Coordinate(latitude: location.latitude + north / metresPerDegree,
                               longitude: location.longitude + east / (metresPerDegree * cos(location.latitude * Double.pi / 180)))
        let label = graph.label(ofEdge: traversal.edge)
        return SnappedLocation(query: query, location: location, distance: location.distance(to: query), edge: traversal.edge,
                               fraction: atEnd ? traversal.endFraction : traversal.startFraction, segment: 0, segmentFraction: 0,
                               name: label.name, ref: label.ref)
    }

    /// The steps of a leg along `traversals`, from the start of the first to the end of the last.
    func steps(_ traversals: [EdgeTraversal], profile: String? = "car", endNorth: Double = 0, endEast: Double = 0) -> [RouteStep] {
        let start = snapped(traversals[0], atEnd: false)
        let end = snapped(traversals[traversals.count - 1], atEnd: true, north: endNorth, east: endEast)
        return StepBuilder.steps(for: traversals, in: graph, from: start, to: end, profile: profile.flatMap { graph.profile(named: $0) })
    }
}
