import Foundation
import XCTest
import Graph
import Routing

/// Lookups by letter in the imported graph: nodes, edges, travel times, restrictions, expected lengths.
extension DrawnMap {
    /// Fixed-point position of the node drawn as `letter`, as the file stores it.
    public func fixedPoint(_ letter: Character) -> (latitude: Int32, longitude: Int32) {
        guard let cell = cells[letter] else { preconditionFailure("'\(letter)' is not drawn") }
        return Self.fixedPoint(line: cell.line, column: cell.column, gridMetres: gridMetres)
    }

    /// Position of the node drawn as `letter`, as the graph stores it.
    public func coordinate(_ letter: Character) -> Coordinate {
        let point = fixedPoint(letter)
        return Coordinate(latitudeE7: point.latitude, longitudeE7: point.longitude)
    }

    /// The graph node of `letter`, or nil when the letter is a shape point or not in the graph at all.
    public func node(_ letter: Character) -> Int? { graph.nodeOSMIDs.firstIndex(of: Self.osmID(of: letter)) }

    /// Whether `letter` became a graph node.
    public func isGraphNode(_ letter: Character) -> Bool { node(letter) != nil }

    /// The letter of graph node `n` ("?" if it is not a drawn node).
    public func letter(ofNode n: Int) -> Character {
        let id = graph.nodeOSMIDs[n]
        return id >= 1 && id <= Int64(Self.nodeAlphabet.count) ? Self.nodeAlphabet[Int(id - 1)] : "?"
    }

    /// The letter drawn at a fixed-point position ("?" if none).
    public func letter(at point: (latitude: Int32, longitude: Int32)) -> Character {
        for letter in cells.keys {
            let c = fixedPoint(letter)
            if c.latitude == point.latitude && c.longitude == point.longitude { return letter }
        }
        return "?"
    }

    /// The letter drawn exactly at `c`, if any.
    public func letter(at c: Coordinate) -> Character? { cells.keys.first { coordinate($0) == c } }

    /// The flags of the graph node of `letter` (nil if it is no graph node).
    public func flags(_ letter: Character) -> UInt8? { node(letter).map { graph.nodeFlags[$0] } }

    /// The graph of profile `name` (the test fails hard if the map was not built with it).
    public func profile(_ name: String) -> ProfileGraph {
        guard let profile = graph.profile(named: name) else { preconditionFailure("no profile \(name) in the map") }
        return profile
    }

    /// Whether the node of `letter` is closed to profile `name` (a barrier it cannot pass).
    public func isBlocked(_ letter: Character, _ name: String) -> Bool {
        guard let flags = flags(letter) else { return false }
        return profile(name).isBlocked(flags)
    }

    /// The edge drawn by `path`: from its first letter to its last, through the others as shape points, in either
    /// stored orientation; `reversed` tells whether the edge is stored from the last letter to the first.
    public func edge(_ path: String) -> (index: Int, reversed: Bool)? {
        let letters = Array(path)
        precondition(letters.count >= 2, "an edge needs two letters")
        guard let a = node(letters.first!), let b = node(letters.last!) else { return nil }
        let points = letters.map(fixedPoint)
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
    public var edgePaths: [String] {
        (0..<graph.edgeCount).map { e in String(graph.polyline(ofEdge: e).map { letter(at: $0) }) }.sorted()
    }

    /// Letters of the graph nodes, sorted.
    public var graphNodeLetters: String { String((0..<graph.nodeCount).map { letter(ofNode: $0) }.sorted()) }

    /// Travel time in milliseconds along `path` (first letter to last) for profile `name`; nil when that direction
    /// is closed or there is no such edge.
    public func time(_ path: String, _ name: String) -> UInt32? {
        guard let (e, reversed) = edge(path) else { return nil }
        let profile = profile(name)
        let time = reversed ? profile.timeBackward[e] : profile.timeForward[e]
        return time == closedEdge ? nil : time
    }

    /// The haversine length in metres of the polyline through the letters of `path`, computed here independently
    /// of the graph code (sphere of radius 6 371 008.8 m, over the fixed-point positions).
    public func length(_ path: String) -> Double {
        let points = path.map(fixedPoint)
        return zip(points, points.dropFirst()).reduce(0) { $0 + Self.haversine($1.0, $1.1) }
    }

    /// Expected milliseconds to cover `path` at `kmh`.
    public func expectedMilliseconds(_ path: String, kmh: Double) -> Double { length(path) / (kmh / 3.6) * 1000 }

    /// Seconds to cover `path` at `kmh`.
    public func seconds(_ path: String, kmh: Double) -> Double { length(path) / (kmh / 3.6) }

    /// Haversine distance in metres between two fixed-point positions.
    public static func haversine(_ a: (latitude: Int32, longitude: Int32), _ b: (latitude: Int32, longitude: Int32)) -> Double {
        haversine(latitude: Double(a.latitude) * 1e-7, longitude: Double(a.longitude) * 1e-7,
                  latitude: Double(b.latitude) * 1e-7, longitude: Double(b.longitude) * 1e-7)
    }

    /// Haversine distance in metres between two coordinates.
    public static func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
        haversine(latitude: a.latitude, longitude: a.longitude, latitude: b.latitude, longitude: b.longitude)
    }

    private static func haversine(latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double) -> Double {
        let rad = Double.pi / 180
        let p1 = lat1 * rad, p2 = lat2 * rad
        let dLat = p2 - p1, dLon = (lon2 - lon1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(p1) * cos(p2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// The letters a directed edge runs between: (start, end).
    public func letters(ofDirected directed: UInt32) -> (Character, Character) {
        let e = Int(directed >> 1)
        let from = letter(ofNode: Int(graph.edgeFrom[e])), to = letter(ofNode: Int(graph.edgeTo[e]))
        return directed & 1 == 0 ? (from, to) : (to, from)
    }

    /// Profile `name`'s turn restrictions as `"no:abd"` / `"only:abd"`: the kind, then the graph-node letters the
    /// path runs through (arriving edge a→b, leaving edge b→d). A path whose edges do not join shows a `|`.
    public func restrictions(_ name: String) -> [String] {
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
    public func wayIndex(_ letters: String) -> Int? {
        guard let w = ways.firstIndex(where: { $0.nodes == letters }) else { return nil }
        return graph.wayOSMIDs.firstIndex(of: Self.wayID(ways, w))
    }

    /// The bytes of the graph file.
    public func graphBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: graphPath)) }
}

/// Asserts the travel speeds of profile `profile` along the edge drawn by `path`: `forward` is the speed from the
/// first letter to the last, `backward` the other way, in km/h, nil for a closed direction. The time stored must be
/// the haversine length of the letters divided by the speed, within 1 ms.
public func XCTAssertSpeeds(_ map: DrawnMap, _ path: String, _ profile: String, forward: Double?, backward: Double?,
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
public func XCTAssertClosed(_ map: DrawnMap, _ path: String, _ profile: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertSpeeds(map, path, profile, forward: nil, backward: nil, file: file, line: line)
}

/// The two-way drawing used by single-way tag tests: way `ab` under test, and `cd`, a residential street that keeps the
/// import from failing with "no roads" when `ab` is unroutable for every profile.
public let twoStreets = """
    a-----b

    c-----d
    """

/// Imports `twoStreets` with way `ab` tagged `tags` (and `cd` residential).
public func singleWayMap(_ tags: [String: String], nodes: [Character: [String: String]] = [:]) throws -> DrawnMap {
    try DrawnMap(twoStreets, ways: [("ab", tags), ("cd", ["highway": "residential"])], nodes: nodes)
}

/// Car and foot speeds of the default profiles (docs/profiles.md), km/h.
public enum Speed {
    public static let residential = 25.0
    public static let tertiary = 40.0
    public static let primary = 65.0
    public static let service = 15.0
    public static let foot = 5.0
}
