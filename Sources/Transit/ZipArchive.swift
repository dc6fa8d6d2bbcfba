import CZlib
import Foundation
import Graph

/// A zip archive read whole into memory: its central directory (ZIP64 included), and members decompressed on
/// demand (stored, or raw deflate through zlib's inflate) and checked against their CRC-32.
///
/// Sizes the archive declares are not trusted for allocation: a member inflates into a buffer that grows as output
/// arrives, never past the size its directory declares, and that size must stay within `limits` (file size, and
/// compression ratio against zip bombs). Encrypted members are refused.
public struct ZipArchive {
    /// One member of the archive as the central directory describes it.
    struct Member {
        var name: String
        var flags: Int
        var method: Int
        var crc32: UInt32
        var compressedSize: Int
        var size: Int
        var localHeaderOffset: Int
    }

    public let path: String
    public let limits: GTFSLimits
    private let bytes: [UInt8]
    private let members: [String: Member]

    /// The names of the archive's members, in no particular order.
    public var names: [String] { Array(members.keys) }

    /// Reads the archive at `path` and its central directory.
    public init(path: String, limits: GTFSLimits = GTFSLimits()) throws(GTFSError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .cannotRead(path: path, message: "cannot open the file") }
        try self.init(bytes: [UInt8](data), path: path, limits: limits)
    }

    /// Reads an archive from memory; `path` is used in error messages.
    public init(bytes: [UInt8], path: String, limits: GTFSLimits = GTFSLimits()) throws(GTFSError) {
        self.path = path
        self.bytes = bytes
        self.limits = limits
        let reader = Reader(bytes: bytes)
        // The end-of-central-directory record: the last 22 bytes, or earlier when a comment follows it.
        var end = -1
        var at = bytes.count - 22
        while at >= 0 && at >= bytes.count - 22 - 65_535 {
            if reader.u32(at) == 0x0605_4b50 { end = at; break }
            at -= 1
        }
        guard end >= 0 else { throw .badZip(path: path, message: "no zip end-of-central-directory record (not a zip file, or truncated)") }
        var count = reader.u16(end + 10)
        var entry = reader.u32(end + 16)
        if count == 0xffff || entry == 0xffff_ffff || reader.u32(end + 12) == 0xffff_ffff {
            // ZIP64: a locator just before the record points at the ZIP64 end-of-central-directory record.
            let locator = end - 20
            guard locator >= 0, reader.u32(locator) == 0x0706_4b50 else {
                throw .badZip(path: path, message: "the end record asks for ZIP64 but there is no ZIP64 locator (corrupt or truncated)")
            }
            let record = reader.u64(locator + 8)
            guard record >= 0, record + 56 <= bytes.count, reader.u32(record) == 0x0606_4b50 else {
                throw .badZip(path: path, message: "corrupt ZIP64 end-of-central-directory record")
            }
            count = reader.u64(record + 32)
            entry = reader.u64(record + 48)
        }
        var members: [String: Member] = [:]
        var index = 0
        while index < count {
            index += 1
            guard entry >= 0, entry <= bytes.count - 46, reader.u32(entry) == 0x0201_4b50 else {
                throw .badZip(path: path, message: "corrupt central directory at byte \(entry)")
            }
            let nameLength = reader.u16(entry + 28), extraLength = reader.u16(entry + 30), commentLength = reader.u16(entry + 32)
            let nameStart = entry + 46, extraStart = nameStart + nameLength
            guard extraStart + extraLength <= bytes.count else { throw .badZip(path: path, message: "corrupt central directory at byte \(entry)") }
            let name = String(decoding: bytes[nameStart..<extraStart], as: UTF8.self)
            var member = Member(name: name, flags: reader.u16(entry + 8), method: reader.u16(entry + 10), crc32: UInt32(reader.u32(entry + 16)),
                                compressedSize: reader.u32(entry + 20), size: reader.u32(entry + 24), localHeaderOffset: reader.u32(entry + 42))
            if member.size == 0xffff_ffff || member.compressedSize == 0xffff_ffff || member.localHeaderOffset == 0xffff_ffff {
                // ZIP64 sizes and offset sit in the extra field 0x0001, in this order, each only when its 32-bit field is 0xffffffff.
                var found = false
                var field = extraStart
                while field + 4 <= extraStart + extraLength {
                    let id = reader.u16(field), length = reader.u16(field + 2)
                    var value = field + 4
                    let valueEnd = min(value + length, extraStart + extraLength)
                    if id == 0x0001 {
                        found = true
                        func next() -> Int? { guard value + 8 <= valueEnd else { return nil }; defer { value += 8 }; return reader.u64(value) }
                        if member.size == 0xffff_ffff { guard let v = next() else { found = false; break }; member.size = v }
                        if member.compressedSize == 0xffff_ffff { guard let v = next() else { found = false; break }; member.compressedSize = v }
                        if member.localHeaderOffset == 0xffff_ffff { guard let v = next() else { found = false; break }; member.localHeaderOffset = v }
                        break
                    }
                    field += 4 + length
                }
                guard found else { throw .badZip(path: path, message: "\(name) asks for ZIP64 sizes but has no complete ZIP64 extra field (corrupt)") }
            }
            members[name] = member
            entry = extraStart + extraLength + commentLength
        }
        self.members = members
    }

    /// The member whose name is `name` or ends in `/name` (feeds zipped with their folder), if any.
    func member(named name: String) -> Member? {
        if let member = members[name] { return member }
        return members.values.filter { $0.name.hasSuffix("/" + name) }.min { $0.name.count < $1.name.count }
    }

    /// Whether the archive holds `name` (at its root or inside one folder).
    public func contains(_ name: String) -> Bool { member(named: name) != nil }

    /// The decompressed bytes of member `name`, or nil when the archive has no such member. Throws when the member
    /// is encrypted, corrupt (bad header, wrong size or CRC-32) or beyond `limits`.
    public func contents(of name: String) throws(GTFSError) -> [UInt8]? {
        guard let member = member(named: name) else { return nil }
        let reader = Reader(bytes: bytes)
        if member.flags & 0x41 != 0 {
            throw .badZip(path: path, message: "\(name) is encrypted; encrypted zips are not supported (unzip it with its password and zip it again without one)")
        }
        let local = member.localHeaderOffset
        guard local >= 0, local <= bytes.count - 30, reader.u32(local) == 0x0403_4b50 else {
            throw .badZip(path: path, message: "corrupt local header of \(name)")
        }
        let start = local + 30 + reader.u16(local + 26) + reader.u16(local + 28)
        guard start <= bytes.count, member.compressedSize <= bytes.count - start else {
            throw .badZip(path: path, message: "\(name) is truncated: its directory declares \(member.compressedSize) compressed bytes, the file holds \(max(0, bytes.count - start))")
        }
        if member.size > limits.maxFileBytes {
            throw .limitExceeded(feed: path, file: name, message: "its directory declares \(GTFSLimits.describe(member.size)) uncompressed, more than the \(GTFSLimits.bytes(limits.maxFileBytes)) a feed file may have (raise it with import --gtfs-max-member-size)")
        }
        let output: [UInt8]
        switch member.method {
        case 0:
            guard member.compressedSize == member.size else {
                throw .badZip(path: path, message: "\(name) is stored uncompressed but declares \(member.compressedSize) bytes stored and \(member.size) uncompressed (corrupt)")
            }
            output = Array(bytes[start..<(start + member.size)])
        case 8:
            let (most, overflow) = max(member.compressedSize, 1).multipliedReportingOverflow(by: limits.maxCompressionRatio)
            if member.size > GTFSLimits.ratioFloorBytes && !overflow && member.size > most {
                let ratio = member.size / max(member.compressedSize, 1)
                throw .limitExceeded(feed: path, file: name, message: "its directory declares \(GTFSLimits.bytes(member.size)) uncompressed from \(member.compressedSize) compressed bytes, a ratio of \(ratio):1, more than the \(limits.maxCompressionRatio):1 allowed: a zip bomb, or a corrupt directory (raise it with import --gtfs-max-ratio)")
            }
            output = try inflate(member, start: start)
        default:
            throw .badZip(path: path, message: "\(name) uses compression method \(member.method); only stored (0) and deflate (8) are supported")
        }
        let crc = output.withUnsafeBytes { GraphFileFormat.crc32($0) }
        guard crc == member.crc32 else {
            throw .badZip(path: path, message: "\(name) fails its CRC-32 check (\(Self.hex(crc)), its directory says \(Self.hex(member.crc32))): the zip is corrupt")
        }
        return output
    }

    /// Raw deflate (no zlib or gzip header) of the member's compressed bytes from `start`, into a buffer that grows
    /// as output arrives (never past the declared size plus one byte, which tells a member that inflates to more).
    private func inflate(_ member: Member, start: Int) throws(GTFSError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .badZip(path: path, message: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        let limit = member.size + 1
        var output = [UInt8](repeating: 0, count: min(limit, max(256 << 10, min(member.compressedSize, 1 << 28) * 4)))
        var produced = 0, consumed = 0
        while true {
            if produced == output.count {
                guard output.count < limit else { break }
                // Double the buffer (up to the declared size + 1): a new zeroed array holding the output so far.
                let count = output.count + min(limit - output.count, output.count)
                output = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    output.withUnsafeBytes { old in _ = memcpy(buffer.baseAddress!, old.baseAddress!, produced) }
                    _ = memset(buffer.baseAddress! + produced, 0, count - produced)
                    initialized = count
                }
            }
            let status: Int32 = bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    let inputLeft = member.compressedSize - consumed
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + start + consumed)
                    stream.avail_in = UInt32(min(inputLeft, Int(UInt32.max)))
                    stream.next_out = out.baseAddress! + produced
                    stream.avail_out = UInt32(min(out.count - produced, Int(UInt32.max)))
                    let inBefore = stream.avail_in, outBefore = stream.avail_out
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    consumed += Int(inBefore - stream.avail_in)
                    produced += Int(outBefore - stream.avail_out)
                    return status
                }
            }
            if status == Z_STREAM_END { break }
            if status == Z_OK || status == Z_BUF_ERROR {
                // No more input while the stream wants more: the member is cut short.
                if produced < output.count && consumed == member.compressedSize {
                    throw .badZip(path: path, message: "\(member.name) is truncated: its deflate stream ends before it is complete")
                }
                continue
            }
            let detail = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw .badZip(path: path, message: "\(member.name) does not decompress: \(detail)")
        }
        guard produced == member.size else {
            let more = produced > member.size
            throw .badZip(path: path, message: "\(member.name) inflates to \(more ? "more than" : "only") \(more ? member.size : produced) bytes, not the \(member.size) its directory declares: the zip is corrupt\(more ? " or a zip bomb" : "")")
        }
        output.removeLast(output.count - produced)
        return output
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Little-endian fields at byte offsets (offsets checked by the caller; out-of-range reads give 0).
    private struct Reader {
        let bytes: [UInt8]
        func u8(_ at: Int) -> Int { at >= 0 && at < bytes.count ? Int(bytes[at]) : 0 }
        func u16(_ at: Int) -> Int { u8(at) | u8(at + 1) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        /// A 64-bit field, clamped to 2^62 so that sums of offsets cannot overflow.
        func u64(_ at: Int) -> Int { u32(at + 4) >= 1 << 30 ? 1 << 62 : u32(at) | u32(at + 4) << 32 }
    }
}
