#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A graph file mapped into memory: header and section table checked, sections handed out in place.
///
/// Opening reads only the 4 KiB header, so it takes the same time whatever the file's size;
/// `verifyChecksums()` reads every section and compares its CRC-32. `RoadGraph(file:)` runs it (and validates the
/// indices the engines follow) before anything reads a section, so routing never sees an unchecked byte.
public final class GraphFile: @unchecked Sendable {
    public let path: String
    /// The format version found in the header.
    public let version: UInt32
    /// Size of the file in bytes.
    public let size: Int
    /// The section table, in file order.
    public let sections: [GraphSection]
    private let base: UnsafeRawPointer
    private let sectionsByName: [String: GraphSection]
    private let verification = NSLock()
    private var checksumsVerified = false

    /// Maps `path` and checks magic, version, header checksum, size and section bounds (header only: the sections'
    /// contents are checked by `verifyChecksums()`, which `RoadGraph` runs before first use).
    ///
    /// Every value of the header is treated as untrusted: sizes and offsets are converted and added with overflow
    /// checks and compared with the file's real size before any range is formed.
    public init(path: String) throws(GraphFileError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .cannotOpen(path: path, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotOpen(path: path, message: String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .cannotOpen(path: path, message: "is a directory") }
        guard let size = Int(exactly: info.st_size), size >= 0 else { throw .cannotOpen(path: path, message: "no file size") }
        guard size >= GraphFileFormat.fixedHeaderSize else {
            // Empty, or the start of a graph file (the magic intact): truncated. Anything else: not a graph file.
            var head = [UInt8](repeating: 0, count: 8)
            if size == 0 || (size >= 8 && pread(fd, &head, 8, 0) == 8 && head == GraphFileFormat.magic) {
                throw .truncated(path: path, expectedBytes: GraphFileFormat.headerSize, actualBytes: size)
            }
            throw .notAGraphFile(path: path)
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw .cannotOpen(path: path, message: String(cString: strerror(errno)))
        }
        let base = UnsafeRawPointer(mapped)
        func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
            T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        do {
            guard (0..<8).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == GraphFileFormat.magic[$0] }) else {
                throw GraphFileError.notAGraphFile(path: path)
            }
            let version = load(8, as: UInt32.self)
            guard version == GraphFileFormat.version else {
                throw GraphFileError.unsupportedVersion(path: path, found: version, supported: GraphFileFormat.version)
            }
            let rawSize = load(16, as: UInt64.self)
            guard size >= GraphFileFormat.headerSize else {
                throw GraphFileError.truncated(path: path, expectedBytes: max(Int(clamping: rawSize), GraphFileFormat.headerSize), actualBytes: size)
            }
            var header = [UInt8](UnsafeRawBufferPointer(start: base, count: GraphFileFormat.headerSize))
            for i in 24..<28 { header[i] = 0 }
            let headerIntact = header.withUnsafeBytes({ GraphFileFormat.crc32($0) }) == load(24, as: UInt32.self)
            let count = Int(load(12, as: UInt32.self))
            /// The table's entries, bounds unchecked (nil when the header does not check out).
            func entries() -> [GraphSection]? {
                guard headerIntact, count <= GraphFileFormat.maxSections else { return nil }
                return (0..<count).map { i in
                    let entry = GraphFileFormat.fixedHeaderSize + i * GraphFileFormat.entrySize
                    let nameBytes = (0..<GraphFileFormat.maxNameLength).map { header[entry + $0] }.prefix { $0 != 0 }
                    return GraphSection(
                        name: String(decoding: nameBytes, as: UTF8.self),
                        offset: Int(clamping: load(entry + 24, as: UInt64.self)), length: Int(clamping: load(entry + 32, as: UInt64.self)),
                        crc32: load(entry + 40, as: UInt32.self), elementSize: Int(load(entry + 44, as: UInt32.self)))
                }
            }
            guard let recordedSize = Int(exactly: rawSize) else {
                throw GraphFileError.corrupt(path: path, message: "\(size) bytes, the header says \(rawSize)")
            }
            guard size >= recordedSize else {
                // Name the first section the cut reaches, when the header can be trusted to say where they lie.
                let cut = entries()?.first { section in
                    let (end, overflow) = section.offset.addingReportingOverflow(section.length)
                    return overflow || end > size
                }
                throw GraphFileError.truncated(path: path, expectedBytes: recordedSize, actualBytes: size, section: cut?.name)
            }
            guard size == recordedSize else {
                throw GraphFileError.corrupt(path: path, message: "\(size) bytes, the header says \(recordedSize)")
            }
            guard headerIntact else { throw GraphFileError.headerChecksumMismatch(path: path) }
            guard count <= GraphFileFormat.maxSections else { throw GraphFileError.corrupt(path: path, message: "section count \(count)") }
            var sections: [GraphSection] = []
            for i in 0..<count {
                let entry = GraphFileFormat.fixedHeaderSize + i * GraphFileFormat.entrySize
                let nameBytes = (0..<GraphFileFormat.maxNameLength).map { header[entry + $0] }.prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                let rawOffset = load(entry + 24, as: UInt64.self), rawLength = load(entry + 32, as: UInt64.self)
                let elementSize = Int(load(entry + 44, as: UInt32.self))
                // Convert and add with overflow checks before comparing with the real size.
                guard let offset = Int(exactly: rawOffset), let length = Int(exactly: rawLength),
                      case let (end, overflow) = offset.addingReportingOverflow(length), !overflow,
                      offset >= GraphFileFormat.headerSize, offset % GraphFileFormat.sectionAlignment == 0, end <= size,
                      elementSize > 0, length % elementSize == 0 else {
                    throw GraphFileError.corrupt(path: path, message: "section '\(name)' lies outside the file or is misaligned (offset \(rawOffset), \(rawLength) bytes, \(elementSize)-byte elements, in a file of \(size) bytes)")
                }
                sections.append(GraphSection(name: name, offset: offset, length: length, crc32: load(entry + 40, as: UInt32.self), elementSize: elementSize))
            }
            self.version = version
            self.size = size
            self.sections = sections
            self.base = base
            sectionsByName = Dictionary(sections.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        } catch let error as GraphFileError {
            munmap(mapped, size)
            throw error
        } catch {
            munmap(mapped, size)
            throw .corrupt(path: path, message: "\(error)")
        }
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// Whether the file has a section of this name.
    public func has(_ name: String) -> Bool { sectionsByName[name] != nil }

    /// The bytes of a section, in place.
    public func bytes(_ name: String) throws(GraphFileError) -> UnsafeRawBufferPointer {
        guard let section = sectionsByName[name] else { throw .missingSection(path: path, section: name) }
        return UnsafeRawBufferPointer(start: base + section.offset, count: section.length)
    }

    /// A section as a typed buffer over the mapped memory (no copy).
    public func array<T: BitwiseCopyable>(_ name: String, of type: T.Type = T.self) throws(GraphFileError) -> UnsafeBufferPointer<T> {
        guard let section = sectionsByName[name] else { throw .missingSection(path: path, section: name) }
        guard section.elementSize == MemoryLayout<T>.stride else {
            throw .corrupt(path: path, message: "section '\(name)' has \(section.elementSize)-byte elements, expected \(MemoryLayout<T>.stride)")
        }
        return UnsafeBufferPointer(start: (base + section.offset).assumingMemoryBound(to: T.self), count: section.length / section.elementSize)
    }

    /// Reads every section and compares its CRC-32 with the table's; throws on the first mismatch, naming the section.
    /// The work is done once per opened file: later calls (another `RoadGraph` over the same file) return at once.
    public func verifyChecksums() throws(GraphFileError) {
        verification.lock()
        defer { verification.unlock() }
        if checksumsVerified { return }
        for section in sections where section.length > 0 {
            let crc = GraphFileFormat.crc32(UnsafeRawBufferPointer(start: base + section.offset, count: section.length))
            if crc != section.crc32 { throw .checksumMismatch(path: path, section: section.name) }
        }
        checksumsVerified = true
    }

    /// Whether `verifyChecksums()` has run and found every section intact.
    public var isVerified: Bool {
        verification.lock()
        defer { verification.unlock() }
        return checksumsVerified
    }
}
