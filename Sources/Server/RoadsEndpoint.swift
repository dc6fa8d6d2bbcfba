import Foundation
import Wayfinder

/// `/roads?bbox=minLon,minLat,maxLon,maxLat&zoom=Z`: the road network inside a box as simplified lines, for the
/// map page. Zoomed out, only major roads come back and lines are simplified to about one pixel.
enum RoadsEndpoint {
    /// The classes drawn at each zoom: tier t appears from zoom `tierZoom[t]` on.
    static let tierZoom = [0, 11, 13, 15]

    static func respond(_ request: HTTPRequest, map: OfflineMap, limits: ServiceLimits) throws(OSRMError) -> JSONValue {
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

        let box = BoundingBox(minLatitude: minLat, minLongitude: minLon, maxLatitude: maxLat, maxLongitude: maxLon)
        let found = map.roads(in: box, maximumTier: maxTier, limit: limits.maximumRoadEdges)
        let truncated = found.truncated
        let roads: [JSONValue] = found.roads.map { road in
            .array([.int(road.tier), .string(PolylineEncoder.encode(GeometrySimplifier.simplify(road.coordinates, tolerance: metresPerPixel), precision: 5))])
        }
        return .object([("code", .string("Ok")), ("zoom", .number(zoom, decimals: 3)), ("tiers", .int(maxTier + 1)),
                        ("truncated", .bool(truncated)), ("roads", .array(roads))])
    }
}
