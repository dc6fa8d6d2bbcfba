import Foundation
import Graph

extension OfflineMap {
    /// The box the graph's nodes lie in (south-west and north-east corners), from the import's figures.
    public var coverage: BoundingBox {
        let s = graph.metadata.statistics
        return BoundingBox(minLatitude: Double(s.minLatitude) * 1e-7, minLongitude: Double(s.minLongitude) * 1e-7,
                           maxLatitude: Double(s.maxLatitude) * 1e-7, maxLongitude: Double(s.maxLongitude) * 1e-7)
    }

    /// A hint for a stop that found no road: when it lies outside the graph's box but would lie inside it with
    /// latitude and longitude swapped, says so; otherwise, when it lies outside the box, gives the box.
    public func coordinateHint(for stop: Coordinate) -> String? {
        let box = coverage
        func inside(_ lat: Double, _ lon: Double) -> Bool {
            lat >= box.minLatitude && lat <= box.maxLatitude && lon >= box.minLongitude && lon <= box.maxLongitude
        }
        guard !inside(stop.latitude, stop.longitude) else { return nil }
        let area = "the graph covers \(Self.format(Coordinate(latitude: box.minLatitude, longitude: box.minLongitude))) – \(Self.format(Coordinate(latitude: box.maxLatitude, longitude: box.maxLongitude))) (lat,lon)"
        if inside(stop.longitude, stop.latitude) {
            return "did you swap latitude and longitude? \(Self.format(stop)) lies outside the graph, \(Self.format(Coordinate(latitude: stop.longitude, longitude: stop.latitude))) inside; \(area)"
        }
        return "\(Self.format(stop)) lies outside the graph: \(area)"
    }

    private static func format(_ c: Coordinate) -> String {
        String(format: "%.5f,%.5f", c.latitude, c.longitude)
    }
}
