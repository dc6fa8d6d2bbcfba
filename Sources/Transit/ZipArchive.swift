import CZlib
import Foundation

/// A zip archive read whole into memory: its central directory, and members decompressed on demand
/// (stored, or raw deflate through zlib's inflate).
public struct ZipArchive {
    /// One member of the archive as the central directory describes it.
    struct Member {
        var name: String
        var method: UInt16
        var compressedSize: Int
        var size: Int
        var localHeaderOffset: Int
    }

    public let path: String
    private let bytes: [UInt8]
    private let members: [String: Member]

    /// The names of the archive's members, in no particular order.
    public var names: [String] { Array(members.keys) }

    /// Reads the archive at `path` and its central directory.
    public init(path: String) throws(GTFSError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .cannotRead(path: path, message: "cannot open the file") }
        try self.init(bytes: [UInt8](data), path: path)
    }

    /// Reads an archive from memory; `path` is used in error messages.
    public init(bytes: [UInt8], path: String) throws(GTFSError) {
        self.path = path
        self.bytes = bytes
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end-of-central-directory record: the last 22 bytes, or earlier when a comment follows it.
        var end = -1
        var at = bytes.count - 22
        while at >= 0 && at >= bytes.count - 22 - 65_535 {
            if bytes[at] == 0x50 && bytes[at + 1] == 0x4b && bytes[at + 2] == 0x05 && bytes[at + 3] == 0x06 { end = at; break }
            at -= 1
        }
        guard end >= 0 else { throw .badZip(path: path, message: "no zip end-of-central-directory record (not a zip file, or truncated)") }
        let count = u16(end + 10)
        var entry = u32(end + 16)
        guard count != 0xffff, entry != 0xffff_ffff else { throw .badZip(path: path, message: "ZIP64 archives are not supported") }
        var members: [String: Member] = [:]
        for _ in 0..<count {
            guard entry + 46 <= bytes.count, u32(entry) == 0x0201_4b50 else {
                throw .badZip(path: path, message: "corrupt central directory at byte \(entry)")
            }
            let nameLength = u16(entry + 28), extraLength = u16(entry + 30), commentLength = u16(entry + 32)
            guard entry + 46 + nameLength <= bytes.count else { throw .badZip(path: path, message: "corrupt central directory") }
            let name = String(decoding: bytes[(entry + 46)..<(entry + 46 + nameLength)], as: UTF8.self)
            members[name] = Member(name: name, method: UInt16(u16(entry + 10)), compressedSize: u32(entry + 20),
                                   size: u32(entry + 24), localHeaderOffset: u32(entry + 42))
            entry += 46 + nameLength + extraLength + commentLength
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

    /// The decompressed bytes of member `name`, or nil when the archive has no such member.
    public func contents(of name: String) throws(GTFSError) -> [UInt8]? {
        guard let member = member(named: name) else { return nil }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        let local = member.localHeaderOffset
        guard local + 30 <= bytes.count, bytes[local] == 0x50, bytes[local + 1] == 0x4b, bytes[local + 2] == 0x03, bytes[local + 3] == 0x04 else {
            throw .badZip(path: path, message: "corrupt local header of \(name)")
        }
        let start = local + 30 + u16(local + 26) + u16(local + 28)
        guard start + member.compressedSize <= bytes.count else { throw .badZip(path: path, message: "\(name) is truncated") }
        switch member.method {
        case 0:
            return Array(bytes[start..<(start + member.compressedSize)])
        case 8:
            return try inflate(start: start, count: member.compressedSize, size: member.size, name: name)
        default:
            throw .badZip(path: path, message: "\(name) uses compression method \(member.method); only stored and deflate are supported")
        }
    }

    /// Raw deflate (no zlib or gzip header) of `count` bytes from `start`, expected to give `size` bytes.
    private func inflate(start: Int, count: Int, size: Int, name: String) throws(GTFSError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .badZip(path: path, message: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + start)
                stream.avail_in = UInt32(count)
                stream.next_out = out.baseAddress!
                stream.avail_out = UInt32(out.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else {
            let detail = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw .badZip(path: path, message: "\(name) does not decompress: \(detail)")
        }
        if size == 0 { return [] }
        return output
    }
}
