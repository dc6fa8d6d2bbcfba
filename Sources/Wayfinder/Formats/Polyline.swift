import Foundation

/// Google's encoded polyline algorithm: coordinates as (latitude, longitude) pairs, each rounded to `precision`
/// decimals (5 for Google, 6 for "polyline6"), delta-coded and written as printable ASCII ('?'...'~').
public enum PolylineEncoder {
    /// Why a string is not an encoded polyline. Offsets count UTF-8 bytes from the string's start.
    public enum DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A byte outside '?' (63) ... '~' (126).
        case invalidCharacter(offset: Int)
        /// The string ends inside a value (its last byte still has the continuation bit set).
        case truncated(offset: Int)
        /// The string holds an odd number of values: a latitude without its longitude.
        case missingLongitude(offset: Int)
        /// A value, or a running coordinate, does not fit in 64 bits.
        case overflow(offset: Int)

        public var description: String {
            switch self {
            case .invalidCharacter(let o): return "invalid encoded polyline: unexpected character at byte \(o)"
            case .truncated(let o): return "invalid encoded polyline: truncated value starting at byte \(o)"
            case .missingLongitude(let o): return "invalid encoded polyline: latitude without a longitude at byte \(o)"
            case .overflow(let o): return "invalid encoded polyline: value too large at byte \(o)"
            }
        }
    }

    /// Encodes `coordinates` (latitude first in each pair); `precision` is the number of decimals kept, 0...10.
    /// Coordinates must be finite.
    public static func encode(_ coordinates: [Coordinate], precision: Int = 5) -> String {
        String(decoding: encodedBytes(coordinates, precision: precision), as: UTF8.self)
    }

    /// `encode(_:precision:)` as ASCII bytes, for writers that append them (`JSONWriter.string(utf8:)`).
    public static func encodedBytes(_ coordinates: [Coordinate], precision: Int = 5) -> [UInt8] {
        precondition((0...10).contains(precision), "polyline precision must be 0...10")
        let factor = pow(10, Double(precision))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(coordinates.count * 8)
        var previousLatitude = 0, previousLongitude = 0
        for c in coordinates {
            let latitude = scaled(c.latitude, factor), longitude = scaled(c.longitude, factor)
            append(latitude - previousLatitude, to: &bytes)
            append(longitude - previousLongitude, to: &bytes)
            previousLatitude = latitude; previousLongitude = longitude
        }
        return bytes
    }

    /// Decodes an encoded polyline written with `precision` decimals (0...10); throws `DecodingError` when malformed.
    public static func decode(_ text: String, precision: Int = 5) throws -> [Coordinate] {
        precondition((0...10).contains(precision), "polyline precision must be 0...10")
        let factor = pow(10, Double(precision))
        let bytes = Array(text.utf8)
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(bytes.count / 6)
        var index = 0, latitude = 0, longitude = 0
        while index < bytes.count {
            let start = index
            let dLatitude = try readValue(bytes, &index)
            guard index < bytes.count else { throw DecodingError.missingLongitude(offset: start) }
            let dLongitude = try readValue(bytes, &index)
            let (lat, o1) = latitude.addingReportingOverflow(dLatitude)
            let (lon, o2) = longitude.addingReportingOverflow(dLongitude)
            guard !o1 && !o2 else { throw DecodingError.overflow(offset: start) }
            latitude = lat; longitude = lon
            coordinates.append(Coordinate(latitude: Double(latitude) / factor, longitude: Double(longitude) / factor))
        }
        return coordinates
    }

    private static func scaled(_ value: Double, _ factor: Double) -> Int {
        let x = (value * factor).rounded()
        precondition(x.isFinite && abs(x) < 1e15, "polyline coordinates must be finite degrees")
        return Int(x)
    }

    /// Appends one signed value: zig-zag (left shift, inverted when negative), then 5-bit chunks, low first,
    /// 0x20 marking "more follows", each offset by 63.
    private static func append(_ value: Int, to bytes: inout [UInt8]) {
        var v = UInt(bitPattern: value < 0 ? ~(value << 1) : value << 1)
        while v >= 0x20 {
            bytes.append(UInt8((0x20 | (v & 0x1F)) + 63))
            v >>= 5
        }
        bytes.append(UInt8(v + 63))
    }

    private static func readValue(_ bytes: [UInt8], _ index: inout Int) throws -> Int {
        let start = index
        var result: UInt = 0
        var shift: UInt = 0
        while true {
            guard index < bytes.count else { throw DecodingError.truncated(offset: start) }
            let byte = bytes[index]
            guard byte >= 63 && byte <= 126 else { throw DecodingError.invalidCharacter(offset: index) }
            guard shift < 60 else { throw DecodingError.overflow(offset: start) }
            let chunk = UInt(byte - 63)
            result |= (chunk & 0x1F) << shift
            shift += 5
            index += 1
            if chunk < 0x20 { break }
        }
        let magnitude = Int(bitPattern: result >> 1)
        return result & 1 != 0 ? ~magnitude : magnitude
    }
}
