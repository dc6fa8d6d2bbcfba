import Foundation

/// A position in degrees (WGS 84).
public struct Coordinate: Equatable, Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
    /// A coordinate from the graph's fixed-point 1e-7 degree integers.
    public init(latitudeE7: Int32, longitudeE7: Int32) {
        latitude = Geo.degrees(latitudeE7)
        longitude = Geo.degrees(longitudeE7)
    }
    /// Great-circle distance in metres (haversine, radius 6 371 008.8 m).
    public func distance(to other: Coordinate) -> Double {
        Geo.distance(lat1: latitude, lon1: longitude, lat2: other.latitude, lon2: other.longitude)
    }
    /// Initial bearing towards `other`, degrees clockwise from north in 0..<360.
    public func bearing(to other: Coordinate) -> Double {
        let rad = Double.pi / 180
        let lat1 = latitude * rad, lat2 = other.latitude * rad, dLon = (other.longitude - longitude) * rad
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) / rad
        return degrees < 0 ? degrees + 360 : degrees
    }
}

/// The graph's fixed-point coordinates: 1e-7 degrees in an `Int32` (about 1 cm), the one conversion every module uses.
extension Geo {
    /// Degrees of a fixed-point value (1e-7 degrees a unit).
    @inlinable @inline(__always)
    public static func degrees<Units: BinaryInteger>(_ units: Units) -> Double { Double(units) * 1e-7 }

    /// The fixed-point value (1e-7 degrees a unit, rounded to nearest) of `degrees`, which must lie within ±214 degrees.
    @inlinable @inline(__always)
    public static func units(_ degrees: Double) -> Int32 { Int32((degrees * 1e7).rounded()) }
}
