import CDeflate

/// Layout constants of the graph file (`docs/graph-format.md`).
public enum GraphFileFormat {
    /// First 8 bytes of every graph file.
    public static let magic: [UInt8] = Array("WAYFGRPH".utf8)
    /// The format version this build writes and reads. Version 2 enlarged the header from 4 KiB (84 sections, too few
    /// for two profiles with hierarchies, a timetable and the place index) to 16 KiB; the sections are as in version 1.
    public static let version: UInt32 = 2
    /// Bytes reserved at the start for the header and the section table; the first section starts here.
    public static let headerSize = 16384
    /// Bytes of the fixed header before the section table.
    public static let fixedHeaderSize = 64
    /// Bytes per section table entry.
    public static let entrySize = 48
    /// Longest section name (NUL-padded in its entry).
    public static let maxNameLength = 24
    /// Sections start at multiples of this.
    public static let sectionAlignment = 64
    /// Most sections a file can hold: 340 (an import writes at most about 170: 7 profiles of 16, the road graph, the
    /// timetable and the place index).
    public static let maxSections = (headerSize - fixedHeaderSize) / entrySize

    /// Byte offsets of the fixed header's fields (the one definition reader, writer and checks use).
    public enum Field {
        /// 8 bytes: `magic`.
        public static let magic = 0
        /// `UInt32`: the format version.
        public static let version = 8
        /// `UInt32`: the number of sections.
        public static let sectionCount = 12
        /// `UInt64`: the file size in bytes.
        public static let fileSize = 16
        /// `UInt32`: CRC-32 of the header (`headerSize` bytes) with these four bytes as zero.
        public static let headerCRC = 24
        /// `UInt32`: `headerSize`.
        public static let headerSize = 28
    }

    /// Byte offsets of a section table entry's fields, from the entry's start (`entryStart(_:)`).
    public enum EntryField {
        /// `maxNameLength` bytes: the name, ASCII, NUL-padded.
        public static let name = 0
        /// `UInt64`: the section's offset from the start of the file.
        public static let offset = 24
        /// `UInt64`: the section's length in bytes.
        public static let length = 32
        /// `UInt32`: CRC-32 of the section's bytes (0 for an empty one).
        public static let crc32 = 40
        /// `UInt32`: bytes per element.
        public static let elementSize = 44
    }

    /// Where the table entry of section `index` starts.
    public static func entryStart(_ index: Int) -> Int { fixedHeaderSize + index * entrySize }

    /// A little-endian integer of the header at `offset` (the header must hold it).
    public static func load<T: FixedWidthInteger>(_ header: UnsafeRawBufferPointer, at offset: Int, as type: T.Type = T.self) -> T {
        T(littleEndian: header.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// Stores a little-endian integer into the header at `offset`.
    public static func store<T: FixedWidthInteger>(_ value: T, into header: inout [UInt8], at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { header[offset + i] = byte } }
    }

    /// The header CRC-32 of `bytes` (at least `headerSize` of them): over the header with its own field as zero.
    public static func headerChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var header = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[0..<headerSize]))
        store(UInt32(0), into: &header, at: Field.headerCRC)
        return header.withUnsafeBytes { crc32($0) }
    }

    /// Recomputes the header CRC-32 of a file's bytes in place (as a writer does last; tools and tests that patch
    /// a header use it to make the checksum match).
    public static func resealHeader(_ bytes: inout [UInt8]) {
        let crc = bytes.withUnsafeBytes { headerChecksum($0) }
        store(crc, into: &bytes, at: Field.headerCRC)
    }

    /// One section table entry as stored, unchecked (offsets and lengths as the file says them).
    public struct RawEntry: Equatable, Sendable {
        public var name: String
        public var offset: UInt64
        public var length: UInt64
        public var crc32: UInt32
        public var elementSize: UInt32

        public init(name: String, offset: UInt64, length: UInt64, crc32: UInt32, elementSize: UInt32) {
            self.name = name
            self.offset = offset
            self.length = length
            self.crc32 = crc32
            self.elementSize = elementSize
        }

        /// Reads entry `index` of `header` (which must hold `headerSize` bytes).
        public init(_ header: UnsafeRawBufferPointer, index: Int) {
            let start = GraphFileFormat.entryStart(index)
            let nameBytes = UnsafeRawBufferPointer(rebasing: header[start..<(start + GraphFileFormat.maxNameLength)]).prefix { $0 != 0 }
            self.init(name: String(decoding: nameBytes, as: UTF8.self),
                      offset: GraphFileFormat.load(header, at: start + EntryField.offset),
                      length: GraphFileFormat.load(header, at: start + EntryField.length),
                      crc32: GraphFileFormat.load(header, at: start + EntryField.crc32),
                      elementSize: GraphFileFormat.load(header, at: start + EntryField.elementSize))
        }

        /// Writes this entry as entry `index` of `header`.
        public func store(into header: inout [UInt8], index: Int) {
            let start = GraphFileFormat.entryStart(index)
            for (j, byte) in name.utf8.prefix(GraphFileFormat.maxNameLength).enumerated() { header[start + j] = byte }
            GraphFileFormat.store(offset, into: &header, at: start + EntryField.offset)
            GraphFileFormat.store(length, into: &header, at: start + EntryField.length)
            GraphFileFormat.store(crc32, into: &header, at: start + EntryField.crc32)
            GraphFileFormat.store(elementSize, into: &header, at: start + EntryField.elementSize)
        }
    }

    /// The complete header (`headerSize` bytes, CRC-32 included) of a file of `fileSize` bytes holding `sections`.
    public static func header(sections: [GraphSection], fileSize: Int) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: headerSize)
        for (i, byte) in magic.enumerated() { header[Field.magic + i] = byte }
        store(version, into: &header, at: Field.version)
        store(UInt32(sections.count), into: &header, at: Field.sectionCount)
        store(UInt64(fileSize), into: &header, at: Field.fileSize)
        store(UInt32(headerSize), into: &header, at: Field.headerSize)
        for (i, section) in sections.enumerated() {
            RawEntry(name: section.name, offset: UInt64(section.offset), length: UInt64(section.length),
                     crc32: section.crc32, elementSize: UInt32(section.elementSize)).store(into: &header, index: i)
        }
        resealHeader(&header)
        return header
    }

    /// The CRC-32 of `bytes` (zlib's and gzip's: the same values as zlib's `crc32`), continuing from `crc`.
    /// libdeflate's, which folds with carry-less multiplication (PCLMULQDQ) where the CPU has it: about 20 GB/s
    /// against zlib's 4.5 GB/s on the development machine, which is most of checking a file's sections at open.
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return libdeflate_crc32(crc, base, bytes.count)
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
        case let .unsupportedVersion(path, found, supported) where found < supported:
            return "\(path) has graph format version \(found), written by an older wayfinder; this build reads version \(supported) (a larger section table): re-import the OSM data with this build"
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
