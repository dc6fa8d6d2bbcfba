import Foundation
import Graph
import Wayfinder

/// `/roads?bbox=minLon,minLat,maxLon,maxLat&zoom=Z`: the road network inside a box as simplified lines, for the
/// map page. Zoomed out, only major roads come back and lines are simplified to about one pixel.
enum RoadsEndpoint {
    /// The classes drawn at each zoom: tier t appears from zoom `tierZoom[t]` on.
    static let tierZoom = [0, 11, 13, 15]

    /// The tier of a highway class: 0 motorways, trunks and primaries; 1 secondaries and tertiaries;
    /// 2 residential and other streets; 3 service roads, tracks and paths.
    static func tier(_ c: HighwayClass) -> Int {
        switch c {
        case .motorway, .motorwayLink, .trunk, .trunkLink, .primary, .primaryLink: return 0
        case .secondary, .secondaryLink, .tertiary, .tertiaryLink: return 1
        case .unclassified, .residential, .livingStreet, .pedestrian, .other: return 2
        default: return 3
        }
    }

    static func respond(_ request: HTTPRequest, graph: RoadGraph, limits: ServiceLimits) throws(OSRMError) -> JSONValue {
        var options: [String: String] = [:]
        for (name, value) in request.query { options[name] = value }
        for name in options.keys.sorted() where name != "bbox" && name != "zoom" {
            throw .invalidOptions("unknown option '\(name)' for roads (accepted: bbox, zoom)")
        }
        guard let text = options["bbox"] else { throw .invalidQuery("roads needs bbox=minLon,minLat,maxLon,maxLat") }
        // Exactly four finite numbers (a fifth value, or one that does not parse, is not dropped silently).
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count == 4, text.split(separator: ",", omittingEmptySubsequences: false).count == 4 else { throw .invalidQuery("bbox must be minLon,minLat,maxLon,maxLat, got '\(text)'") }
        let (minLon, minLat, maxLon, maxLat) = (numbers[0], numbers[1], numbers[2], numbers[3])
        guard minLon <= maxLon, minLat <= maxLat, abs(minLon) <= 180, abs(maxLon) <= 180, abs(minLat) <= 90, abs(maxLat) <= 90 else {
            throw .invalidValue("bbox \(text) is not a box within ±180 longitude and ±90 latitude (min before max)")
        }
        var zoom = 16.0
        if let z = options["zoom"] {
            guard let value = Double(z), value.isFinite, value >= 0, value <= 24 else { throw .invalidQuery("zoom must be a number from 0 to 24, got '\(z)'") }
            zoom = value
        }
        let maxTier = tierZoom.lastIndex { Double($0) <= zoom } ?? 0
        let metresPerPixel = 156_543.03 * cos((minLat + maxLat) / 2 * Double.pi / 180) / pow(2, zoom)

        let box = (Int32(max(-90, minLat) * 1e7), Int32(max(-180, minLon) * 1e7), Int32(min(90, maxLat) * 1e7), Int32(min(180, maxLon) * 1e7))
        var edges = edgesIntersecting(graph, box)
        edges.sort()
        var roads: [JSONValue] = []
        var truncated = false
        var previous = -1
        for e in edges where e != previous {
            previous = e
            let highway = HighwayClass(rawValue: graph.wayClasses[Int(graph.edgeWay[e])]) ?? .other
            guard tier(highway) <= maxTier else { continue }
            // The index's leaf boxes hold 16 runs each: keep only edges whose own box meets the query's.
            let points = graph.coordinates(ofEdge: e)
            guard let edgeBox = BoundingBox(points), edgeBox.maxLatitude >= minLat, edgeBox.minLatitude <= maxLat,
                  edgeBox.maxLongitude >= minLon, edgeBox.minLongitude <= maxLon else { continue }
            if roads.count >= limits.maximumRoadEdges { truncated = true; break }
            let line = GeometrySimplifier.simplify(points, tolerance: metresPerPixel)
            roads.append(.array([.int(tier(highway)), .string(PolylineEncoder.encode(line, precision: 5))]))
        }
        return .object([("code", .string("Ok")), ("zoom", .number(zoom)), ("tiers", .int(maxTier + 1)),
                        ("truncated", .bool(truncated)), ("roads", .array(roads))])
    }

    /// Edges with a segment run whose box meets `box` (latitude/longitude in 1e-7 degrees), from the spatial index;
    /// an edge may appear more than once.
    static func edgesIntersecting(_ graph: RoadGraph, _ box: (Int32, Int32, Int32, Int32)) -> [Int] {
        let index = graph.spatialIndex
        guard index.levelCount > 0 else { return [] }
        let n = SpatialIndexData.nodeSize
        func meets(_ b: Int) -> Bool {
            !(index.boxes[4 * b + 2] < box.0 || index.boxes[4 * b] > box.2 || index.boxes[4 * b + 3] < box.1 || index.boxes[4 * b + 1] > box.3)
        }
        var result: [Int] = []
        let top = index.levelCount - 1
        var stack: [(level: Int, box: Int)] = []
        for b in Int(index.levelStart[top])..<Int(index.levelStart[top + 1]) where meets(b) { stack.append((top, b - Int(index.levelStart[top]))) }
        while let (level, b) = stack.popLast() {
            if level == 0 {
                for i in (b * n)..<min(index.items.count, b * n + n) { result.append(graph.edge(ofSegment: index.items[i]).edge) }
            } else {
                let base = Int(index.levelStart[level - 1]), count = Int(index.levelStart[level]) - base
                for child in (b * n)..<min(count, b * n + n) where meets(base + child) { stack.append((level - 1, child)) }
            }
        }
        return result
    }
}
