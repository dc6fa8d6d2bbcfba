import CZlib

/// Layout constants of the graph file (`docs/graph-format.md`).
public enum GraphFileFormat {
    /// First 8 bytes of every graph file.
    public static let magic: [UInt8] = Array("WAYFGRPH".utf8)
    /// The format version this build writes and reads.
    public static let version: UInt32 = 1
    /// Bytes reserved at the start for the header and the section table; the first section starts here.
    public static let headerSize = 4096
    /// Bytes of the fixed header before the section table.
    public static let fixedHeaderSize = 64
    /// Bytes per section table entry.
    public static let entrySize = 48
    /// Longest section name (NUL-padded in its entry).
    public static let maxNameLength = 24
    /// Sections start at multiples of this.
    public static let sectionAlignment = 64
    /// Most sections a file can hold.
    public static let maxSections = (headerSize - fixedHeaderSize) / entrySize

    /// zlib's CRC-32 of `bytes`, continuing from `crc`.
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var value = UInt(crc)
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, 1 << 30)
            value = CZlib.crc32(value, bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Bytef.self), UInt32(chunk))
            offset += chunk
        }
        return UInt32(truncatingIfNeeded: value)
    }
}

/// Why a graph file could not be written or opened.
public enum GraphFileError: Error, Equatable, CustomStringConvertible {
    case cannotCreate(path: String, message: String)
    case writeFailed(path: String, message: String)
    case cannotOpen(path: String, message: String)
    case notAGraphFile(path: String)
    case unsupportedVersion(path: String, found: UInt32, supported: UInt32)
    /// The file is shorter than its header says; `section` is the first section it cuts short (nil when the header
    /// itself is cut, or does not check out).
    case truncated(path: String, expectedBytes: Int, actualBytes: Int, section: String? = nil)
    case headerChecksumMismatch(path: String)
    case checksumMismatch(path: String, section: String)
    case missingSection(path: String, section: String)
    case corrupt(path: String, message: String)
    /// A section whose checksum matches but whose contents the engines cannot use (an index out of range, offsets
    /// that go backwards, sizes that disagree): the file was not written by `wayfinder import`, or was tampered with.
    case invalidSection(path: String, section: String, problem: String)

    public var description: String {
        switch self {
        case let .cannotCreate(path, message): return "cannot create \(path): \(message)"
        case let .writeFailed(path, message): return "cannot write \(path): \(message)"
        case let .cannotOpen(path, message): return "cannot open graph \(path): \(message)"
        case let .notAGraphFile(path): return "\(path) is not a Wayfinder graph file (bad magic); make one with `wayfinder import`"
        case let .unsupportedVersion(path, found, supported):
            return "\(path) has graph format version \(found), this build reads version \(supported); re-import the OSM data with this build"
        case let .truncated(path, expected, actual, section):
            let cut = section.map { ", cutting section '\($0)' short" } ?? ""
            return "\(path) is truncated: \(actual) bytes, the header says \(expected)\(cut); re-import it"
        case let .headerChecksumMismatch(path): return "\(path) is corrupt: the header checksum does not match; re-import it"
        case let .checksumMismatch(path, section): return "\(path) is corrupt: checksum mismatch in section '\(section)'; re-import it"
        case let .missingSection(path, section): return "\(path) lacks section '\(section)'; re-import it with this build"
        case let .corrupt(path, message): return "\(path) is corrupt: \(message)"
        case let .invalidSection(path, section, problem): return "\(path) is corrupt: section '\(section)' \(problem); re-import it"
        }
    }
}

/// One entry of the section table.
public struct GraphSection: Equatable, Sendable {
    public var name: String
    public var offset: Int
    public var length: Int
    public var crc32: UInt32
    /// Bytes per element (1 for byte strings).
    public var elementSize: Int
}
