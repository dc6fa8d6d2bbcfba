/// Writes JSON text (RFC 8259) into a byte buffer, value by value: commas and colons are placed for the caller,
/// strings are escaped, numbers are written rounded to fixed decimals (`FixedDecimal`) and a number that is not
/// finite is refused (JSON has none). The one JSON writer of Wayfinder: `JSONValue` documents, the CLI's outputs,
/// batch rows and the server's OSRM responses all end here.
///
/// Keys are written in the order given; Wayfinder's convention, which `JSONValue` applies, is sorted keys.
public struct JSONWriter: Sendable {
    /// Why a value cannot be written.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// NaN or an infinity: JSON has no such number (write `null` for a missing figure instead).
        case nonFiniteNumber(String)

        public var description: String {
            switch self {
            case .nonFiniteNumber(let text): return "JSON has no number \(text): write null for a figure that has no value"
            }
        }
    }

    /// The text written so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Per open array or object: whether it holds a value already (so the next one needs a comma).
    private var open: [Bool] = []
    /// A key was just written: its value follows without a comma.
    private var afterKey = false

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Hands over the bytes written without copying them; the writer is empty after.
    public mutating func takeBytes() -> [UInt8] {
        let out = bytes
        bytes = []; open.removeAll(keepingCapacity: true); afterKey = false
        return out
    }

    /// Empties the buffer (keeping its capacity), to write the next document.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true); open.removeAll(keepingCapacity: true); afterKey = false }

    private mutating func separate() {
        if afterKey { afterKey = false; return }
        if let last = open.indices.last {
            if open[last] { bytes.append(UInt8(ascii: ",")) }
            open[last] = true
        }
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); open.append(false) }
    public mutating func endObject() { open.removeLast(); bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); open.append(false) }
    public mutating func endArray() { open.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// An object member's key; its value is the next thing written.
    public mutating func key(_ key: String) {
        separate()
        Self.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func null() { separate(); bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
    public mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8)) }
    public mutating func int(_ value: Int) { separate(); FixedDecimal.append(value, to: &bytes) }
    public mutating func string(_ value: String) { separate(); Self.appendString(value, to: &bytes) }
    /// A string given as its UTF-8 bytes (an encoded polyline, say), escaped as `string(_:)` escapes.
    public mutating func string(utf8 value: [UInt8]) {
        separate()
        value.withUnsafeBufferPointer { Self.appendString(utf8: $0, to: &bytes) }
    }

    /// A number rounded to `decimals` places (trailing zeros left out); throws for NaN and infinities.
    public mutating func number(_ value: Double, decimals: Int) throws(Failure) {
        guard value.isFinite else { throw .nonFiniteNumber("\(value)") }
        separate()
        FixedDecimal.append(value, decimals: decimals, to: &bytes)
    }

    /// A number, or `null` when there is none (nil or not finite): for figures that may be missing.
    public mutating func numberOrNull(_ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { null(); return }
        separate()
        FixedDecimal.append(value, decimals: decimals, to: &bytes)
    }

    /// Text that is already JSON (a document written by another writer), inserted as one value.
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json) }

    /// A JSON string literal of `s`: `"` and `\` escaped, control characters as `\n`, `\t`, `\r`, `\b`, `\f` or
    /// `\u00XX`, and U+2028 and U+2029 as `\u2028`/`\u2029` (valid JSON but line ends in JavaScript); everything else
    /// as its UTF-8 bytes (characters beyond U+FFFF included: a Swift string holds no lone surrogate).
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// `appendString(_:to:)` for a string given as UTF-8 bytes.
    static func appendString(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
            let byte = utf8[i]
            // Most bytes need no escape: skip them in a run, copied at once.
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2 { i += 1; continue }
            var escape: (UInt8, UInt16)? = nil   // short escape letter, or 0 and a code for \uXXXX
            var length = 1
            switch byte {
            case UInt8(ascii: "\""): escape = (UInt8(ascii: "\""), 0)
            case UInt8(ascii: "\\"): escape = (UInt8(ascii: "\\"), 0)
            case 0x0A: escape = (UInt8(ascii: "n"), 0)
            case 0x0D: escape = (UInt8(ascii: "r"), 0)
            case 0x09: escape = (UInt8(ascii: "t"), 0)
            case 0x08: escape = (UInt8(ascii: "b"), 0)
            case 0x0C: escape = (UInt8(ascii: "f"), 0)
            case 0..<0x20: escape = (0, UInt16(byte))
            case 0xE2 where i + 2 < n && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9):
                escape = (0, utf8[i + 2] == 0xA8 ? 0x2028 : 0x2029); length = 3
            default: break
            }
            guard let (letter, code) = escape else { i += 1; continue }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            out.append(UInt8(ascii: "\\"))
            if letter != 0 {
                out.append(letter)
            } else {
                out.append(UInt8(ascii: "u"))
                for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int((code >> UInt16(shift)) & 0xF)]) }
            }
            i += length
            runStart = i
        }
        if runStart < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<n])) }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
