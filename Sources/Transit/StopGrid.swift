import Foundation
import Graph

/// A grid over the stops (cells of 0.01° latitude by 0.01° longitude) to find the stops near a point.
public struct StopGrid: Sendable {
    private let latitudes: [Int32]
    private let longitudes: [Int32]
    private let cells: [Int64: [Int32]]
    private static let cellE7: Int64 = 100_000

    /// Indexes the stops at the given positions (1e-7 degrees).
    public init(latitudes: [Int32], longitudes: [Int32]) {
        self.latitudes = latitudes
        self.longitudes = longitudes
        var cells: [Int64: [Int32]] = [:]
        for s in latitudes.indices { cells[Self.key(Self.cell(latitudes[s]), Self.cell(longitudes[s])), default: []].append(Int32(s)) }
        self.cells = cells
    }

    private static func cell(_ e7: Int32) -> Int64 { Int64(e7) >= 0 ? Int64(e7) / cellE7 : (Int64(e7) - cellE7 + 1) / cellE7 }
    private static func key(_ a: Int64, _ b: Int64) -> Int64 { a << 32 ^ (b & 0xffff_ffff) }

    /// The stops whose great-circle distance from (latitude, longitude) is at most `radius` metres, with that distance.
    /// A negative or NaN radius, or a point off the globe, finds none; any radius is safe (a huge one checks every stop).
    public func stops(near latitude: Double, _ longitude: Double, within radius: Double) -> [(stop: Int, distance: Double)] {
        guard radius >= 0, abs(latitude) < 200, abs(longitude) < 200 else { return [] }
        let cosine = max(0.05, cos(latitude * .pi / 180))
        // Cells on each side, as doubles: a radius of 1e308 m must neither overflow the cell arithmetic nor scan more
        // cells than the grid holds (then every stop is checked instead).
        let latSpan = (radius / 1111.9).rounded(.up) + 1, lonSpan = (radius / (1111.9 * cosine)).rounded(.up) + 1
        var found: [(Int, Double)] = []
        func consider(_ s: Int32) {
            let d = Geo.distance(lat1: latitude, lon1: longitude, lat2: Geo.degrees(latitudes[Int(s)]), lon2: Geo.degrees(longitudes[Int(s)]))
            if d <= radius { found.append((Int(s), d)) }
        }
        if (2 * latSpan + 1) * (2 * lonSpan + 1) > Double(max(cells.count, latitudes.count)) {
            for s in latitudes.indices { consider(Int32(s)) }
            return found.sorted { $0.0 < $1.0 }
        }
        let latCells = Int64(latSpan), lonCells = Int64(lonSpan)
        let cLat = Self.cell(Geo.units(latitude)), cLon = Self.cell(Geo.units(longitude))
        for a in (cLat - latCells)...(cLat + latCells) {
            for b in (cLon - lonCells)...(cLon + lonCells) {
                for s in cells[Self.key(a, b)] ?? [] { consider(s) }
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
