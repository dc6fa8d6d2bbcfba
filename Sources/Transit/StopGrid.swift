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
    public func stops(near latitude: Double, _ longitude: Double, within radius: Double) -> [(stop: Int, distance: Double)] {
        let latCells = Int64((radius / 1111.9).rounded(.up)) + 1
        let cosine = max(0.05, cos(latitude * .pi / 180))
        let lonCells = Int64((radius / (1111.9 * cosine)).rounded(.up)) + 1
        let cLat = Self.cell(Int32((latitude * 1e7).rounded())), cLon = Self.cell(Int32((longitude * 1e7).rounded()))
        var found: [(Int, Double)] = []
        for a in (cLat - latCells)...(cLat + latCells) {
            for b in (cLon - lonCells)...(cLon + lonCells) {
                for s in cells[Self.key(a, b)] ?? [] {
                    let d = Geo.distance(lat1: latitude, lon1: longitude, lat2: Double(latitudes[Int(s)]) * 1e-7, lon2: Double(longitudes[Int(s)]) * 1e-7)
                    if d <= radius { found.append((Int(s), d)) }
                }
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
