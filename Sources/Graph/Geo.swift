import Foundation

/// Great-circle geometry on the sphere of `docs/profiles.md` (radius 6 371 008.8 m), over fixed-point coordinates.
public enum Geo {
    /// Mean Earth radius in metres.
    public static let earthRadius = 6_371_008.8
    /// Degrees per unit of the fixed-point coordinates.
    public static let degreesPerUnit = 1e-7

    /// Haversine distance in metres between two points given in 1e-7 degrees.
    @inlinable
    public static func distance(lat1: Int32, lon1: Int32, lat2: Int32, lon2: Int32) -> Double {
        distance(lat1: degrees(lat1), lon1: degrees(lon1), lat2: degrees(lat2), lon2: degrees(lon2))
    }

    /// Haversine distance in metres between two points given in degrees.
    @inlinable
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }

    /// The point on the unit sphere at a coordinate in degrees, for `chord(_:_:)`.
    @inlinable
    public static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let rad = Double.pi / 180, phi = latitude * rad, lambda = longitude * rad
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The straight-line (chord) distance in metres between two points of `unitVector(latitude:longitude:)`: never
    /// more than their great-circle distance (shorter by a factor 1 − d²/24R², under 1e-7 within 10 km), and no
    /// transcendental function, only a square root.
    @inlinable
    public static func chord(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return earthRadius * (d * d).sum().squareRoot()
    }

    /// Position of (x, y) on a Hilbert curve over a 2^16 × 2^16 grid, for locality-preserving orderings.
    @inlinable
    public static func hilbertIndex(x: UInt32, y: UInt32) -> UInt64 {
        var rx: UInt32 = 0, ry: UInt32 = 0, d: UInt64 = 0
        var x = x, y = y
        var s: UInt32 = 1 << 15
        while s > 0 {
            rx = (x & s) > 0 ? 1 : 0
            ry = (y & s) > 0 ? 1 : 0
            d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = s &- 1 &- x; y = s &- 1 &- y }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }

    /// Hilbert index of a fixed-point coordinate within the whole world.
    @inlinable
    public static func hilbertIndex(lat: Int32, lon: Int32) -> UInt64 {
        let x = UInt32((Int64(lon) + 1_800_000_000) * 65535 / 3_600_000_000)
        let y = UInt32((Int64(lat) + 900_000_000) * 65535 / 1_800_000_000)
        return hilbertIndex(x: x & 0xffff, y: y & 0xffff)
    }
}
