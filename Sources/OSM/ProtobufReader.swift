/// Why protobuf bytes could not be read: what was wrong, in words.
public struct ProtobufError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How a protobuf field's value is laid out on the wire.
public enum ProtobufWireType: UInt8, Sendable {
    case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
}

/// Reads the protobuf wire format (varints, zigzag, length-delimited fields) from memory, without a schema.
///
/// A reader is a cursor over bytes it does not own: the buffer must outlive it. Every read checks the bounds and
/// throws a `ProtobufError` on truncated or malformed input, never reading past the end.
public struct ProtobufReader {
    @usableFromInline var position: UnsafePointer<UInt8>
    @usableFromInline let end: UnsafePointer<UInt8>

    public init(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, bytes.count > 0 {
            position = base.assumingMemoryBound(to: UInt8.self)
            end = position + bytes.count
        } else {
            // An empty message: any non-null pointer with position == end.
            position = UnsafePointer(bitPattern: 1)!
            end = position
        }
    }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { position >= end }

    /// Bytes left to read.
    @inlinable public var remaining: Int { end - position }

    /// A base-128 varint, up to 10 bytes.
    @inlinable @inline(__always)
    public mutating func varint() throws(ProtobufError) -> UInt64 {
        if position < end, position.pointee < 0x80 {
            let value = UInt64(position.pointee)
            position += 1
            return value
        }
        return try varintSlow()
    }

    @usableFromInline
    mutating func varintSlow() throws(ProtobufError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var p = position
        while true {
            guard p < end else { throw ProtobufError("truncated varint") }
            let byte = p.pointee
            p += 1
            // The tenth byte may only hold the top bit: anything more (or an eleventh byte) overflows 64 bits.
            if shift == 63 && byte > 1 { throw ProtobufError("varint longer than 64 bits") }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        position = p
        return value
    }

    /// Undoes zigzag encoding (`sint32`, `sint64`).
    @inlinable @inline(__always)
    public static func zigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// A `sint64` (zigzag varint).
    @inlinable @inline(__always)
    public mutating func sint64() throws(ProtobufError) -> Int64 { Self.zigzag(try varint()) }

    /// An `int64` (two's complement varint).
    @inlinable @inline(__always)
    public mutating func int64() throws(ProtobufError) -> Int64 { Int64(bitPattern: try varint()) }

    /// An `int32` (sign-extended varint); throws when the value does not fit 32 bits.
    @inlinable
    public mutating func int32() throws(ProtobufError) -> Int32 {
        let value = Int64(bitPattern: try varint())
        guard let narrow = Int32(exactly: value) else { throw ProtobufError("int32 value \(value) out of range") }
        return narrow
    }

    /// A `uint32` varint; throws when the value does not fit 32 bits.
    @inlinable
    public mutating func uint32() throws(ProtobufError) -> UInt32 {
        let value = try varint()
        guard let narrow = UInt32(exactly: value) else { throw ProtobufError("uint32 value \(value) out of range") }
        return narrow
    }

    /// The next field's number and wire type, or nil at the end of the message.
    @inlinable
    public mutating func field() throws(ProtobufError) -> (number: Int, wireType: ProtobufWireType)? {
        guard position < end else { return nil }
        let key = try varint()
        guard let wireType = ProtobufWireType(rawValue: UInt8(key & 7)) else {
            throw ProtobufError("unknown wire type \(key & 7)")
        }
        let number = key >> 3
        guard number >= 1, number <= 536_870_911 else { throw ProtobufError("invalid field number \(number)") }
        return (Int(number), wireType)
    }

    /// A length-delimited value (bytes, string, embedded message or packed repeated field), as a slice of the buffer.
    @inlinable
    public mutating func lengthDelimited() throws(ProtobufError) -> UnsafeRawBufferPointer {
        let length = try varint()
        if length > UInt64(Int64.max) { throw ProtobufError("negative length \(Int64(bitPattern: length))") }
        guard length <= UInt64(end - position) else {
            throw ProtobufError("length \(length) runs past the end (\(end - position) bytes left)")
        }
        let slice = UnsafeRawBufferPointer(start: position, count: Int(length))
        position += Int(length)
        return slice
    }

    /// Skips a value of `wireType` (groups, deprecated in proto3 and unused by any format read here, are refused).
    @inlinable
    public mutating func skip(_ wireType: ProtobufWireType) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try varint()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup, .endGroup: throw ProtobufError("groups are not supported")
        }
    }

    @inlinable
    mutating func advance(_ count: Int) throws(ProtobufError) {
        guard end - position >= count else { throw ProtobufError("truncated \(count)-byte fixed value") }
        position += count
    }

    /// A fixed 32-bit little-endian value.
    @inlinable
    public mutating func fixed32() throws(ProtobufError) -> UInt32 {
        guard end - position >= 4 else { throw ProtobufError("truncated 4-byte fixed value") }
        let value = UnsafeRawPointer(position).loadUnaligned(as: UInt32.self)
        position += 4
        return UInt32(littleEndian: value)
    }

    /// A fixed 64-bit little-endian value.
    @inlinable
    public mutating func fixed64() throws(ProtobufError) -> UInt64 {
        guard end - position >= 8 else { throw ProtobufError("truncated 8-byte fixed value") }
        let value = UnsafeRawPointer(position).loadUnaligned(as: UInt64.self)
        position += 8
        return UInt64(littleEndian: value)
    }

    // MARK: repeated scalar fields, packed or not

    /// Appends the values of a repeated `sint64` field: a packed run (length-delimited) or one value (varint).
    @inlinable
    public mutating func appendSInt64s(_ wireType: ProtobufWireType, to values: inout [Int64]) throws(ProtobufError) {
        switch wireType {
        case .varint: values.append(try sint64())
        case .lengthDelimited:
            var packed = ProtobufReader(try lengthDelimited())
            while !packed.isAtEnd { values.append(try packed.sint64()) }
        default: throw ProtobufError("repeated sint64 field with wire type \(wireType.rawValue)")
        }
    }

    /// Appends the values of a repeated `uint32` field, packed or not.
    @inlinable
    public mutating func appendUInt32s(_ wireType: ProtobufWireType, to values: inout [UInt32]) throws(ProtobufError) {
        switch wireType {
        case .varint: values.append(try uint32())
        case .lengthDelimited:
            var packed = ProtobufReader(try lengthDelimited())
            while !packed.isAtEnd { values.append(try packed.uint32()) }
        default: throw ProtobufError("repeated uint32 field with wire type \(wireType.rawValue)")
        }
    }

    /// Appends the values of a repeated `int32` (or enum) field, packed or not.
    @inlinable
    public mutating func appendInt32s(_ wireType: ProtobufWireType, to values: inout [Int32]) throws(ProtobufError) {
        switch wireType {
        case .varint: values.append(try int32())
        case .lengthDelimited:
            var packed = ProtobufReader(try lengthDelimited())
            while !packed.isAtEnd { values.append(try packed.int32()) }
        default: throw ProtobufError("repeated int32 field with wire type \(wireType.rawValue)")
        }
    }

    /// Appends the values of a repeated `bool` field, packed or not.
    @inlinable
    public mutating func appendBools(_ wireType: ProtobufWireType, to values: inout [Bool]) throws(ProtobufError) {
        switch wireType {
        case .varint: values.append(try varint() != 0)
        case .lengthDelimited:
            var packed = ProtobufReader(try lengthDelimited())
            while !packed.isAtEnd { values.append(try packed.varint() != 0) }
        default: throw ProtobufError("repeated bool field with wire type \(wireType.rawValue)")
        }
    }

    /// Checks that a field of a scalar type arrives as a varint.
    @inlinable
    public static func expect(_ wireType: ProtobufWireType, _ expected: ProtobufWireType, field: Int, in message: StaticString) throws(ProtobufError) {
        if wireType != expected { throw ProtobufError("\(message) field \(field) has wire type \(wireType.rawValue), expected \(expected.rawValue)") }
    }
}

/// Writes the protobuf wire format: enough to build test fixtures and the blobs of small PBF files.
public struct ProtobufWriter {
    public private(set) var bytes: [UInt8] = []
    public init() {}

    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    public static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    public mutating func key(_ field: Int, _ wireType: ProtobufWireType) { varint(UInt64(field) << 3 | UInt64(wireType.rawValue)) }

    /// A varint field (`int32`, `int64`, `uint32`, `bool`, enums; negative values take ten bytes).
    public mutating func int(_ field: Int, _ value: Int64) { key(field, .varint); varint(UInt64(bitPattern: value)) }
    /// A zigzag field (`sint32`, `sint64`).
    public mutating func sint(_ field: Int, _ value: Int64) { key(field, .varint); varint(Self.zigzag(value)) }
    /// A length-delimited field.
    public mutating func bytes(_ field: Int, _ value: [UInt8]) { key(field, .lengthDelimited); varint(UInt64(value.count)); bytes += value }
    public mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }
    /// An embedded message.
    public mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        build(&inner)
        bytes(field, inner.bytes)
    }
    /// A packed repeated field of varints.
    public mutating func packed(_ field: Int, _ values: [UInt64]) {
        var inner = ProtobufWriter()
        for value in values { inner.varint(value) }
        bytes(field, inner.bytes)
    }
    public mutating func packedSInt(_ field: Int, _ values: [Int64]) { packed(field, values.map(Self.zigzag)) }
    public mutating func packedInt(_ field: Int, _ values: [Int64]) { packed(field, values.map { UInt64(bitPattern: $0) }) }
    /// Raw bytes, as they are.
    public mutating func raw(_ value: [UInt8]) { bytes += value }
}
