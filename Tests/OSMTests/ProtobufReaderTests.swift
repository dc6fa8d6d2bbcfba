import OSM
import XCTest

/// `ProtobufReader`: the wire format (varints, zigzag, keys, lengths, skipping), and its refusal of bad bytes.
final class ProtobufReaderTests: XCTestCase {
    private func read<T>(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws(ProtobufError) -> T) throws(ProtobufError) -> T {
        var result: Result<T, ProtobufError>!
        bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(raw)
            do throws(ProtobufError) { result = .success(try body(&reader)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    private func error(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws(ProtobufError) -> Void) -> String? {
        do throws(ProtobufError) {
            try read(bytes, body)
            XCTFail("expected a ProtobufError for \(bytes)")
            return nil
        } catch {
            return error.message
        }
    }

    func testVarints() throws {
        let cases: [(UInt64, [UInt8])] = [
            (0, [0x00]), (1, [0x01]), (127, [0x7f]), (128, [0x80, 0x01]), (300, [0xac, 0x02]),
            (1 << 32, [0x80, 0x80, 0x80, 0x80, 0x10]),
            (UInt64.max, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
        ]
        for (value, bytes) in cases {
            XCTAssertEqual(try read(bytes) { (r) throws(ProtobufError) in try r.varint() }, value)
            var writer = ProtobufWriter()
            writer.varint(value)
            XCTAssertEqual(writer.bytes, bytes, "writer for \(value)")
            XCTAssertEqual(try read(bytes) { (r) throws(ProtobufError) -> Bool in _ = try r.varint(); return r.isAtEnd }, true)
        }
        // A redundant (non-minimal) encoding is still the value.
        XCTAssertEqual(try read([0x81, 0x80, 0x00]) { (r) throws(ProtobufError) in try r.varint() }, 1)
    }

    func testBadVarints() {
        XCTAssertEqual(error([]) { (r) throws(ProtobufError) in _ = try r.varint() }, "truncated varint")
        XCTAssertEqual(error([0x80, 0x80]) { (r) throws(ProtobufError) in _ = try r.varint() }, "truncated varint")
        XCTAssertEqual(error([UInt8](repeating: 0xff, count: 10) + [0x01]) { (r) throws(ProtobufError) in _ = try r.varint() }, "varint longer than 64 bits")
        XCTAssertEqual(error([UInt8](repeating: 0x80, count: 10) + [0x00]) { (r) throws(ProtobufError) in _ = try r.varint() }, "varint longer than 64 bits")
    }

    func testZigzagAndSignedTypes() throws {
        for value: Int64 in [0, -1, 1, -2, 2, 63, -64, 1 << 40, -(1 << 40), Int64.max, Int64.min] {
            XCTAssertEqual(ProtobufReader.zigzag(ProtobufWriter.zigzag(value)), value)
            var writer = ProtobufWriter()
            writer.varint(ProtobufWriter.zigzag(value))
            XCTAssertEqual(try read(writer.bytes) { (r) throws(ProtobufError) in try r.sint64() }, value)
        }
        XCTAssertEqual(ProtobufWriter.zigzag(-1), 1)
        XCTAssertEqual(ProtobufWriter.zigzag(1), 2)
        // int32: negative values are sign-extended to ten bytes.
        var writer = ProtobufWriter()
        writer.varint(UInt64(bitPattern: -5))
        XCTAssertEqual(writer.bytes.count, 10)
        XCTAssertEqual(try read(writer.bytes) { (r) throws(ProtobufError) in try r.int32() }, -5)
        XCTAssertEqual(try read(writer.bytes) { (r) throws(ProtobufError) in try r.int64() }, -5)
        XCTAssertEqual(error([0x80, 0x80, 0x80, 0x80, 0x10]) { (r) throws(ProtobufError) in _ = try r.int32() }, "int32 value 4294967296 out of range")
        XCTAssertEqual(error([0x80, 0x80, 0x80, 0x80, 0x10]) { (r) throws(ProtobufError) in _ = try r.uint32() }, "uint32 value 4294967296 out of range")
    }

    func testFieldsAndSkipping() throws {
        var writer = ProtobufWriter()
        writer.int(1, 150)
        writer.string(2, "testing")
        writer.key(3, .fixed32); writer.raw([1, 2, 3, 4])
        writer.key(4, .fixed64); writer.raw([1, 0, 0, 0, 0, 0, 0, 0])
        writer.sint(536_870_911, -3) // the highest field number
        XCTAssertEqual(Array(writer.bytes.prefix(3)), [0x08, 0x96, 0x01], "the protobuf documentation's first example")
        let fields = try read(writer.bytes) { (r) throws(ProtobufError) -> [Int] in
            var seen: [Int] = []
            while let (number, wire) = try r.field() {
                seen.append(number)
                switch number {
                case 1: XCTAssertEqual(try r.varint(), 150)
                case 2: XCTAssertEqual(String(decoding: try r.lengthDelimited(), as: UTF8.self), "testing")
                case 3: XCTAssertEqual(try r.fixed32(), 0x0403_0201)
                case 4: XCTAssertEqual(try r.fixed64(), 1)
                default: XCTAssertEqual(try r.sint64(), -3); XCTAssertEqual(wire, .varint)
                }
            }
            return seen
        }
        XCTAssertEqual(fields, [1, 2, 3, 4, 536_870_911])
        // Skipping every field leaves the reader at the end.
        XCTAssertTrue(try read(writer.bytes) { (r) throws(ProtobufError) -> Bool in
            while let (_, wire) = try r.field() { try r.skip(wire) }
            return r.isAtEnd
        })
    }

    func testBadKeysAndLengths() {
        XCTAssertEqual(error([0x0e]) { (r) throws(ProtobufError) in _ = try r.field() }, "unknown wire type 6")
        XCTAssertEqual(error([0x0f]) { (r) throws(ProtobufError) in _ = try r.field() }, "unknown wire type 7")
        XCTAssertEqual(error([0x00]) { (r) throws(ProtobufError) in _ = try r.field() }, "invalid field number 0")
        XCTAssertEqual(error([0x0b]) { (r) throws(ProtobufError) in
            let (_, wire) = try r.field()!
            try r.skip(wire)
        }, "groups are not supported")
        XCTAssertEqual(error([0x05, 1, 2, 3]) { (r) throws(ProtobufError) in _ = try r.lengthDelimited() }, "length 5 runs past the end (3 bytes left)")
        var negative = ProtobufWriter()
        negative.varint(UInt64(bitPattern: -2))
        XCTAssertEqual(error(negative.bytes) { (r) throws(ProtobufError) in _ = try r.lengthDelimited() }, "negative length -2")
        XCTAssertEqual(error([1, 2, 3]) { (r) throws(ProtobufError) in _ = try r.fixed32() }, "truncated 4-byte fixed value")
        XCTAssertEqual(error([1, 2, 3]) { (r) throws(ProtobufError) in try r.skip(.fixed64) }, "truncated 8-byte fixed value")
    }

    func testRepeatedFieldsPackedOrNot() throws {
        var writer = ProtobufWriter()
        writer.packedSInt(1, [5, -3, 1 << 33])
        writer.sint(1, -7)                      // the same field once more, unpacked
        writer.packed(2, [1, 300])
        writer.int(2, 7)
        writer.packedInt(3, [-1, 2])
        writer.packed(4, [1, 0, 1])
        let (s, u, i, b) = try read(writer.bytes) { (r) throws(ProtobufError) in
            var s: [Int64] = [], u: [UInt32] = [], i: [Int32] = [], b: [Bool] = []
            while let (number, wire) = try r.field() {
                switch number {
                case 1: try r.appendSInt64s(wire, to: &s)
                case 2: try r.appendUInt32s(wire, to: &u)
                case 3: try r.appendInt32s(wire, to: &i)
                default: try r.appendBools(wire, to: &b)
                }
            }
            return (s, u, i, b)
        }
        XCTAssertEqual(s, [5, -3, 1 << 33, -7])
        XCTAssertEqual(u, [1, 300, 7])
        XCTAssertEqual(i, [-1, 2])
        XCTAssertEqual(b, [true, false, true])
        // A packed run cut in the middle of a varint.
        XCTAssertEqual(error([0x0a, 0x02, 0x01, 0x80]) { (r) throws(ProtobufError) in
            var values: [Int64] = []
            let (_, wire) = try r.field()!
            try r.appendSInt64s(wire, to: &values)
        }, "truncated varint")
        XCTAssertEqual(error([0x0d, 0, 0, 0, 0]) { (r) throws(ProtobufError) in
            var values: [UInt32] = []
            let (_, wire) = try r.field()!
            try r.appendUInt32s(wire, to: &values)
        }, "repeated uint32 field with wire type 5")
    }

    func testEmptyBuffer() throws {
        XCTAssertNil(try read([]) { (r) throws(ProtobufError) in try r.field() })
        XCTAssertEqual(try read([]) { (r) throws(ProtobufError) in r.remaining }, 0)
    }
}
