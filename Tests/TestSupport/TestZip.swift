import CZlib
import Foundation

/// Writes zip archives for tests, honest or hostile: deflated or stored members, members deflated from a repeated
/// chunk (zip bombs that never sit whole in memory), ZIP64 records, lying sizes and CRC-32s, the encryption flag;
/// and reads the members of a zip without the project's reader.
public struct TestZip {
    /// One member of an archive to build.
    public struct Entry {
        public var name: String
        public var data: [UInt8]
        /// The member's content is `data` repeated this many times (deflated chunk by chunk).
        public var repeats = 1
        public var deflate = true
        /// General-purpose flags (bit 0: encrypted).
        public var flags = 0
        /// What the directory claims, when not the truth.
        public var declaredSize: Int? = nil
        public var declaredCRC: UInt32? = nil
        /// Sizes and offset in a ZIP64 extra field (0xffffffff in the 32-bit fields).
        public var zip64 = false
        /// Keep only this many compressed bytes (a cut-off member whose uncompressed size is declared as if complete).
        public var truncateCompressedTo: Int? = nil

        /// A member named `name` holding `data` (repeated `repeats` times), with the given lies.
        public init(name: String, data: [UInt8], repeats: Int = 1, deflate: Bool = true, flags: Int = 0, declaredSize: Int? = nil,
                    declaredCRC: UInt32? = nil, zip64: Bool = false, truncateCompressedTo: Int? = nil) {
            self.name = name; self.data = data; self.repeats = repeats; self.deflate = deflate; self.flags = flags
            self.declaredSize = declaredSize; self.declaredCRC = declaredCRC; self.zip64 = zip64; self.truncateCompressedTo = truncateCompressedTo
        }
    }

    /// The archive's bytes; `zip64End` adds the ZIP64 end records (and 0xffff in the classic one).
    public static func build(_ entries: [Entry], zip64End: Bool = false) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var out: [UInt8] = [], central: [UInt8] = []
        for entry in entries {
            var body = entry.deflate ? deflate(entry.data, repeats: entry.repeats) : Array([[UInt8]](repeating: entry.data, count: entry.repeats).joined())
            if let cut = entry.truncateCompressedTo { body = Array(body.prefix(cut)) }
            let compressedSize = body.count
            let size = entry.declaredSize ?? entry.data.count * entry.repeats
            let crc = Int(entry.declaredCRC ?? crc32(entry.data, repeats: entry.repeats))
            let name = Array(entry.name.utf8)
            let method = entry.deflate ? 8 : 0
            let offset = out.count
            let extra: [UInt8] = entry.zip64 ? le(1, 2) + le(24, 2) + le(size, 8) + le(compressedSize, 8) + le(offset, 8) : []
            let localExtra: [UInt8] = entry.zip64 ? le(1, 2) + le(16, 2) + le(size, 8) + le(compressedSize, 8) : []
            let size32 = entry.zip64 ? 0xffff_ffff : size, compressed32 = entry.zip64 ? 0xffff_ffff : compressedSize
            out += [0x50, 0x4b, 0x03, 0x04] + le(entry.zip64 ? 45 : 20, 2) + le(entry.flags, 2) + le(method, 2) + le(0, 4) + le(crc, 4)
            out += le(compressed32, 4) + le(size32, 4) + le(name.count, 2) + le(localExtra.count, 2) + name + localExtra + body
            central += [0x50, 0x4b, 0x01, 0x02] + le(45, 2) + le(entry.zip64 ? 45 : 20, 2) + le(entry.flags, 2) + le(method, 2) + le(0, 4) + le(crc, 4)
            central += le(compressed32, 4) + le(size32, 4) + le(name.count, 2) + le(extra.count, 2) + le(0, 2) + le(0, 2) + le(0, 2)
            central += le(0, 4) + le(entry.zip64 ? 0xffff_ffff : offset, 4) + name + extra
        }
        let centralOffset = out.count
        out += central
        if zip64End {
            let record = out.count
            out += [0x50, 0x4b, 0x06, 0x06] + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4)
            out += le(entries.count, 8) + le(entries.count, 8) + le(central.count, 8) + le(centralOffset, 8)
            out += [0x50, 0x4b, 0x06, 0x07] + le(0, 4) + le(record, 8) + le(1, 4)
            out += [0x50, 0x4b, 0x05, 0x06] + le(0, 2) + le(0, 2) + le(0xffff, 2) + le(0xffff, 2) + le(0xffff_ffff, 4) + le(0xffff_ffff, 4) + le(0, 2)
        } else {
            out += [0x50, 0x4b, 0x05, 0x06] + le(0, 2) + le(0, 2) + le(entries.count, 2) + le(entries.count, 2) + le(central.count, 4) + le(centralOffset, 4) + le(0, 2)
        }
        return out
    }

    /// Raw deflate of `data` repeated `repeats` times, fed to zlib one chunk at a time.
    public static func deflate(_ data: [UInt8], repeats: Int = 1) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var input = data
        for k in 0..<repeats {
            input.withUnsafeMutableBufferPointer { inp in
                stream.next_in = inp.baseAddress; stream.avail_in = UInt32(inp.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { o in
                        stream.next_out = o.baseAddress; stream.avail_out = UInt32(o.count)
                        _ = CZlib.deflate(&stream, k == repeats - 1 ? Z_FINISH : Z_NO_FLUSH)
                        out += o[0..<(o.count - Int(stream.avail_out))]
                    }
                } while stream.avail_out == 0 || (k == repeats - 1 && stream.avail_in > 0)
            }
        }
        return out
    }

    /// The members of a (deflate or stored) zip file, read without the project's reader.
    public static func members(of path: String) throws -> [(name: String, data: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var end = bytes.count - 22
        while u32(end) != 0x0605_4b50 { end -= 1 }
        var entry = u32(end + 16)
        var members: [(String, [UInt8])] = []
        for _ in 0..<u16(end + 10) {
            let nameLength = u16(entry + 28), method = u16(entry + 10), compressed = u32(entry + 20), size = u32(entry + 24), local = u32(entry + 42)
            let name = String(decoding: bytes[(entry + 46)..<(entry + 46 + nameLength)], as: UTF8.self)
            let start = local + 30 + u16(local + 26) + u16(local + 28)
            var data = [UInt8](repeating: 0, count: size)
            if method == 0 { data = Array(bytes[start..<(start + size)]) } else {
                var stream = z_stream()
                inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                bytes.withUnsafeBufferPointer { inp in
                    data.withUnsafeMutableBufferPointer { o in
                        stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress! + start); stream.avail_in = UInt32(compressed)
                        stream.next_out = o.baseAddress; stream.avail_out = UInt32(o.count)
                        _ = inflate(&stream, Z_FINISH)
                    }
                }
                inflateEnd(&stream)
            }
            members.append((name, data))
            entry += 46 + nameLength + u16(entry + 30) + u16(entry + 32)
        }
        return members
    }

    /// The CRC-32 of `data` repeated `repeats` times.
    public static func crc32(_ data: [UInt8], repeats: Int = 1) -> UInt32 {
        var crc: UInt = 0
        for _ in 0..<repeats { crc = data.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, UInt32($0.count)) } }
        return UInt32(crc)
    }
}
