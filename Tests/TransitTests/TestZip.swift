import CZlib
import Foundation

/// Writes zip archives for tests, honest or hostile: deflated or stored members, ZIP64 records, lying sizes and
/// CRC-32s, the encryption flag. (A copy lives in WayfinderCLITests/TestZip.swift.)
struct TestZip {
    struct Entry {
        var name: String
        var data: [UInt8]
        var deflate = true
        /// General-purpose flags (bit 0: encrypted).
        var flags = 0
        /// What the directory claims, when not the truth.
        var declaredSize: Int? = nil
        var declaredCRC: UInt32? = nil
        /// Sizes and offset in a ZIP64 extra field (0xffffffff in the 32-bit fields).
        var zip64 = false
        /// Keep only this many compressed bytes (a cut-off member whose uncompressed size is declared as if complete).
        var truncateCompressedTo: Int? = nil
    }

    /// The archive's bytes; `zip64End` adds the ZIP64 end records (and 0xffff in the classic one).
    static func build(_ entries: [Entry], zip64End: Bool = false) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var out: [UInt8] = [], central: [UInt8] = []
        for entry in entries {
            var body = entry.deflate ? deflate(entry.data) : entry.data
            if let cut = entry.truncateCompressedTo { body = Array(body.prefix(cut)) }
            let compressedSize = body.count
            let size = entry.declaredSize ?? entry.data.count
            let crc = Int(entry.declaredCRC ?? crc32(entry.data))
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

    /// Raw deflate (no header), as zip members hold it.
    static func deflate(_ data: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(data.count))) + 64)
        var input = data
        let written: Int = input.withUnsafeMutableBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                stream.next_in = inp.baseAddress; stream.avail_in = UInt32(inp.count)
                stream.next_out = o.baseAddress; stream.avail_out = UInt32(o.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
                return o.count - Int(stream.avail_out)
            }
        }
        return Array(out.prefix(written))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        UInt32(data.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) })
    }
}
