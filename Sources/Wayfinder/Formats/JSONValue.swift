/// A JSON document built as a value and written by `JSONWriter`, with Wayfinder's conventions: object keys in
/// sorted order (Unicode code points), numbers rounded to the decimals given and a number that is not finite
/// written `null` (a figure that has no value), compact or indented by two spaces.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number rounded to `decimals` places; not finite → `null`.
    case number(Double, decimals: Int)
    case string(String)
    case array([JSONValue])
    /// Members; the writer puts them in sorted key order whatever order they are given in.
    case object([(String, JSONValue)])
    /// Text that is already JSON, inserted as it is (a document another encoder wrote).
    case raw([UInt8])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.encoded() == b.encoded() }

    /// A `{"latitude","longitude"}` object, 7 decimals (≈ 1 cm).
    public static func coordinateObject(_ c: Coordinate) -> JSONValue {
        .object([("latitude", .number(c.latitude, decimals: 7)), ("longitude", .number(c.longitude, decimals: 7))])
    }

    /// A GeoJSON position, [longitude, latitude], 7 decimals.
    public static func position(_ c: Coordinate) -> JSONValue {
        .array([.number(c.longitude, decimals: 7), .number(c.latitude, decimals: 7)])
    }

    /// A GeoJSON LineString geometry (RFC 7946) through `points`.
    public static func lineString(_ points: [Coordinate]) -> JSONValue {
        .object([("type", .string("LineString")), ("coordinates", .array(points.map(position)))])
    }

    /// The compact UTF-8 text.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, pretty: false, depth: 0)
        return out
    }

    /// Appends the compact UTF-8 text to `out`.
    public func write(to out: inout [UInt8]) { write(to: &out, pretty: false, depth: 0) }

    /// The document as text: compact, or indented by two spaces with arrays of plain values kept on one line.
    public func serialized(pretty: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, pretty: pretty, depth: 0)
        return String(decoding: out, as: UTF8.self)
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object, .raw: return false
        default: return true
        }
    }

    private func write(to out: inout [UInt8], pretty: Bool, depth: Int) {
        switch self {
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let b): out.append(contentsOf: b ? Array("true".utf8) : Array("false".utf8))
        case .int(let i): FixedDecimal.append(i, to: &out)
        case .number(let x, let decimals):
            if !FixedDecimal.append(x, decimals: decimals, to: &out) { out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
        case .string(let s): JSONWriter.appendString(s, to: &out)
        case .raw(let bytes): out.append(contentsOf: bytes)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: [0x5B, 0x5D]); return }
            let inline = !pretty || items.allSatisfy(\.isScalar)
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")); if inline && pretty { out.append(0x20) } }
                if !inline { Self.newline(&out, depth + 1) }
                item.write(to: &out, pretty: pretty, depth: depth + 1)
            }
            if !inline { Self.newline(&out, depth) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { out.append(contentsOf: [0x7B, 0x7D]); return }
            out.append(UInt8(ascii: "{"))
            func member(_ i: Int, _ key: String, _ value: JSONValue) {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(&out, depth + 1) }
                JSONWriter.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                value.write(to: &out, pretty: pretty, depth: depth + 1)
            }
            if Self.isSorted(members) {
                for (i, (key, value)) in members.enumerated() { member(i, key, value) }
            } else {
                for (i, (key, value)) in members.sorted(by: { Self.precedes($0.0, $1.0) }).enumerated() { member(i, key, value) }
            }
            if pretty { Self.newline(&out, depth) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Code-point order of keys (UTF-8 byte order is code-point order).
    static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    private static func isSorted(_ members: [(String, JSONValue)]) -> Bool {
        var i = 1
        while i < members.count { if !precedes(members[i - 1].0, members[i].0) { return false }; i += 1 }
        return true
    }

    private static func newline(_ out: inout [UInt8], _ depth: Int) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
    }
}
