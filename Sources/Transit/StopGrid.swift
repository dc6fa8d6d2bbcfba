import Foundation
import Graph

/// A grid over the stops (cells of 0.01° latitude by 0.01° longitude) to find the stops near a point: the cells in
/// key order, each with its stops, so a row of cells is one binary search and a scan.
public struct StopGrid: Sendable {
    private let latitudes: [Int32]
    private let longitudes: [Int32]
    /// Each stop's latitude in degrees and its cosine, as `Geo.distance` computes them (the same distances, bit for bit).
    private let degreesLatitude: [Double]
    private let cosineLatitude: [Double]
    /// The non-empty cells' keys, ascending; `cellStops[cellStart[i]..<cellStart[i + 1]]` are cell i's stops.
    private let cellKeys: [Int64]
    private let cellStart: [Int32]
    private let cellStops: [Int32]
    private static let cellE7: Int64 = 100_000

    /// Indexes the stops at the given positions (1e-7 degrees).
    public init(latitudes: [Int32], longitudes: [Int32]) {
        self.latitudes = latitudes
        self.longitudes = longitudes
        degreesLatitude = latitudes.map(Geo.degrees)
        cosineLatitude = degreesLatitude.map { cos($0 * (Double.pi / 180)) }
        let keyed = latitudes.indices.map { (Self.key(Self.cell(latitudes[$0]), Self.cell(longitudes[$0])), Int32($0)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var keys: [Int64] = [], start: [Int32] = [], stops: [Int32] = []
        for (key, s) in keyed {
            if keys.last != key { keys.append(key); start.append(Int32(stops.count)) }
            stops.append(s)
        }
        start.append(Int32(stops.count))
        cellKeys = keys; cellStart = start; cellStops = stops
    }

    private static func cell(_ e7: Int32) -> Int64 { Int64(e7) >= 0 ? Int64(e7) / cellE7 : (Int64(e7) - cellE7 + 1) / cellE7 }
    /// Cells ordered by row, then column (both offset to be non-negative: keys grow with each).
    private static func key(_ a: Int64, _ b: Int64) -> Int64 { (a + (1 << 31)) << 32 | (b + (1 << 31)) }

    /// The index of the first cell whose key is at least `key`.
    private func firstCell(atLeast key: Int64) -> Int {
        var low = 0, high = cellKeys.count
        while low < high {
            let mid = (low + high) >> 1
            if cellKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The stops whose great-circle distance from (latitude, longitude) is at most `radius` metres, with that distance,
    /// by stop number. A negative or NaN radius, or a point off the globe, finds none; any radius is safe (a huge one
    /// checks every stop).
    /// - Complexity: one binary search per row of cells within the radius, and a distance per stop in the radius's
    ///   bounding box (stops outside it are farther by a lower bound on the haversine distance).
    public func stops(near latitude: Double, _ longitude: Double, within radius: Double) -> [(stop: Int, distance: Double)] {
        guard radius >= 0, abs(latitude) < 200, abs(longitude) < 200 else { return [] }
        let cosine = max(0.05, cos(latitude * .pi / 180))
        // Cells on each side, as doubles: a radius of 1e308 m must neither overflow the cell arithmetic nor scan more
        // cells than the grid holds (then every stop is checked instead).
        let latSpan = (radius / 1111.9).rounded(.up) + 1, lonSpan = (radius / (1111.9 * cosine)).rounded(.up) + 1
        var found: [(stop: Int, distance: Double)] = []
        if (2 * latSpan + 1) * (2 * lonSpan + 1) > Double(max(cellKeys.count, latitudes.count)) {
            for s in latitudes.indices {
                let d = Geo.distance(lat1: latitude, lon1: longitude, lat2: Geo.degrees(latitudes[s]), lon2: Geo.degrees(longitudes[s]))
                if d <= radius { found.append((s, d)) }
            }
            return found
        }
        // The haversine distance is at least R·|Δφ|, and at least 2R·√(cos φ₁·cos φ₂)·|sin(Δλ/2)| where cos φ₂ is at
        // least its least value over the latitudes within R·|Δφ| ≤ radius: a stop beyond either bound (with a margin for
        // rounding) is farther than the radius, and only the others get their distance.
        let rad = Double.pi / 180
        let margin = radius * (1 + 1e-9) + 1e-6
        let latLimitUnits = margin / Geo.earthRadius / rad / Geo.degreesPerUnit
        let farthestLatitude = min(90, abs(latitude) + margin / Geo.earthRadius / rad)
        let cosProduct = cos(latitude * rad) * cos(farthestLatitude * rad)
        let sinLimit = cosProduct > 0 ? margin / (2 * Geo.earthRadius * cosProduct.squareRoot()) : 2
        let lonLimitUnits = sinLimit >= 1 ? Double.infinity : 2 * asin(sinLimit) / rad / Geo.degreesPerUnit
        let cosine0 = cos(latitude * rad)
        let latUnits = latitude / Geo.degreesPerUnit, lonUnits = longitude / Geo.degreesPerUnit
        let latCells = Int64(latSpan), lonCells = Int64(lonSpan)
        let cLat = Self.cell(Geo.units(latitude)), cLon = Self.cell(Geo.units(longitude))
        for a in (cLat - latCells)...(cLat + latCells) {
            let last = Self.key(a, cLon + lonCells)
            var i = firstCell(atLeast: Self.key(a, cLon - lonCells))
            while i < cellKeys.count && cellKeys[i] <= last {
                for k in Int(cellStart[i])..<Int(cellStart[i + 1]) {
                    let s = Int(cellStops[k])
                    if abs(Double(latitudes[s]) - latUnits) > latLimitUnits || abs(Double(longitudes[s]) - lonUnits) > lonLimitUnits { continue }
                    // `Geo.distance`, term for term, with the stop's cosine looked up and the point's computed once.
                    let dLat = (degreesLatitude[s] - latitude) * rad, dLon = (Geo.degrees(longitudes[s]) - longitude) * rad
                    let a = sin(dLat / 2) * sin(dLat / 2) + cosine0 * cosineLatitude[s] * sin(dLon / 2) * sin(dLon / 2)
                    let d = 2 * Geo.earthRadius * asin(min(1, sqrt(a)))
                    if d <= radius { found.append((s, d)) }
                }
                i += 1
            }
        }
        found.sort { $0.stop < $1.stop }
        return found
    }
}
