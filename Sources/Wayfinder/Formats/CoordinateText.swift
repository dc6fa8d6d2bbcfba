import Foundation
import Graph

/// Why a text is not a `lat,lon` coordinate.
public struct CoordinateParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text given.
    public let text: String
    /// What is wrong ("latitude 95 is outside ±90").
    public let reason: String
    public var description: String { "'\(text)' \(reason)" }
}

extension Coordinate {
    /// Reads `lat,lon` in decimal degrees ("43.7393,7.4277"; spaces around the numbers allowed). Only plain decimal
    /// numbers are taken (no `nan`, `inf` or hexadecimal); latitude within ±90, longitude within ±180.
    public init(parsing text: String) throws(CoordinateParseError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(Self.trimmingSpaces)
        guard parts.count == 2, let lat = Self.decimal(parts[0]), let lon = Self.decimal(parts[1]) else {
            throw CoordinateParseError(text: text, reason: "is not lat,lon (e.g. 39.4667,-87.4139)")
        }
        try self.init(checkedLatitude: lat, longitude: lon, text: text, latitudeText: parts[0], longitudeText: parts[1])
    }

    /// A coordinate from two numbers, refused when outside ±90 / ±180 or not finite.
    public init(checkedLatitude latitude: Double, longitude: Double) throws(CoordinateParseError) {
        try self.init(checkedLatitude: latitude, longitude: longitude, text: "\(latitude),\(longitude)",
                      latitudeText: "\(latitude)", longitudeText: "\(longitude)")
    }

    private init(checkedLatitude lat: Double, longitude lon: Double, text: String, latitudeText: String, longitudeText: String) throws(CoordinateParseError) {
        guard lat.isFinite, lon.isFinite else { throw CoordinateParseError(text: text, reason: "is not lat,lon (e.g. 39.4667,-87.4139)") }
        guard abs(lat) <= 90 else { throw CoordinateParseError(text: text, reason: "has latitude \(latitudeText), outside ±90") }
        guard abs(lon) <= 180 else { throw CoordinateParseError(text: text, reason: "has longitude \(longitudeText), outside ±180") }
        self.init(latitude: lat, longitude: lon)
    }

    /// `part` without the spaces around it, the scalars `CharacterSet.whitespaces` trims (`isTrimmedSpace`), tested
    /// with the standard library's own tables rather than a character set built on first use.
    static func trimmingSpaces(_ part: Substring) -> String {
        let scalars = part.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmedSpace($0) }), let last = scalars.lastIndex(where: { !isTrimmedSpace($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// The members of Foundation's `CharacterSet.whitespaces`: general category Zs, the tab and U+200B ZERO WIDTH SPACE.
    static func isTrimmedSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// A plain decimal number: optional sign, digits with at most one point, an optional exponent.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 }) else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// "43.73930,7.42770": five decimals, as messages and hints write a point.
    public var shortText: String {
        FixedDecimal.string(latitude, decimals: 5, trimmingZeros: false) + "," + FixedDecimal.string(longitude, decimals: 5, trimmingZeros: false)
    }
}

extension OfflineMap {
    /// The box the graph's nodes lie in (south-west and north-east corners), from the import's figures.
    public var coverage: BoundingBox {
        let s = graph.metadata.statistics
        return BoundingBox(minLatitude: Geo.degrees(s.minLatitude), minLongitude: Geo.degrees(s.minLongitude),
                           maxLatitude: Geo.degrees(s.maxLatitude), maxLongitude: Geo.degrees(s.maxLongitude))
    }

    /// A hint for a stop that found no road: when it lies outside the graph's box but would lie inside it with
    /// latitude and longitude swapped, says so; otherwise, when it lies outside the box, gives the box.
    public func coordinateHint(for stop: Coordinate) -> String? {
        let box = coverage
        func inside(_ lat: Double, _ lon: Double) -> Bool {
            lat >= box.minLatitude && lat <= box.maxLatitude && lon >= box.minLongitude && lon <= box.maxLongitude
        }
        guard !inside(stop.latitude, stop.longitude) else { return nil }
        let area = "the graph covers \(Coordinate(latitude: box.minLatitude, longitude: box.minLongitude).shortText) – \(Coordinate(latitude: box.maxLatitude, longitude: box.maxLongitude).shortText) (lat,lon)"
        if inside(stop.longitude, stop.latitude) {
            return "did you swap latitude and longitude? \(stop.shortText) lies outside the graph, \(Coordinate(latitude: stop.longitude, longitude: stop.latitude).shortText) inside; \(area)"
        }
        return "\(stop.shortText) lies outside the graph: \(area)"
    }
}
