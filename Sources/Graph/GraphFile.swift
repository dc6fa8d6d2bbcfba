#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A graph file mapped into memory: header and section table checked, sections handed out in place (or, during an
/// import, the sections of an `InMemoryGraphFile`, laid out as the file they will be written as).
///
/// Opening reads only the 4 KiB header, so it takes the same time whatever the file's size;
/// `verifyChecksums()` reads every section and compares its CRC-32. `RoadGraph(file:)` turns on verification on
/// access instead (`verifyOnAccess()`): each section's CRC-32 is compared the first time `bytes`/`array` hand it
/// out, so routing never sees an unchecked byte and a command reads only the sections it uses, once.
public final class GraphFile: @unchecked Sendable {
    public let path: String
    /// The format version found in the header.
    public let version: UInt32
    /// Size of the file in bytes.
    public let size: Int
    /// The section table, in file order.
    public let sections: [GraphSection]
    /// Where each section's bytes start (in the mapping, or in the memory of an `InMemoryGraphFile`), by name.
    private let starts: [String: (section: GraphSection, start: UnsafeRawPointer)]
    /// Where each section of `sections` starts, in table order.
    private let sectionStarts: [UnsafeRawPointer]
    /// The mapping to unmap on release (nil for sections held in memory).
    private let mapping: UnsafeMutableRawPointer?
    /// What keeps sections held in memory alive.
    private let owner: [AnyObject]
    private let verification = NSLock()
    private var checksumsVerified = false
    /// Whether `bytes`/`array` verify a section's CRC-32 the first time they hand it out.
    private var verifiesOnAccess = false
    /// The sections whose CRC-32 has been compared and matched.
    private var verifiedSections: Set<String> = []

    /// Maps `path` and checks magic, version, header checksum, size and section bounds (header only: the sections'
    /// contents are checked by `verifyChecksums()`, or section by section on first access once `RoadGraph` turns
    /// on `verifyOnAccess()`).
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
        typealias F = GraphFileFormat.Field
        do {
            guard (0..<8).allSatisfy({ base.load(fromByteOffset: F.magic + $0, as: UInt8.self) == GraphFileFormat.magic[$0] }) else {
                throw GraphFileError.notAGraphFile(path: path)
            }
            // The fixed header is there (size >= fixedHeaderSize); the table only when size >= headerSize.
            let fixed = UnsafeRawBufferPointer(start: base, count: GraphFileFormat.fixedHeaderSize)
            let version = GraphFileFormat.load(fixed, at: F.version, as: UInt32.self)
            guard version == GraphFileFormat.version else {
                throw GraphFileError.unsupportedVersion(path: path, found: version, supported: GraphFileFormat.version)
            }
            let rawSize = GraphFileFormat.load(fixed, at: F.fileSize, as: UInt64.self)
            guard size >= GraphFileFormat.headerSize else {
                throw GraphFileError.truncated(path: path, expectedBytes: max(Int(clamping: rawSize), GraphFileFormat.headerSize), actualBytes: size)
            }
            let header = UnsafeRawBufferPointer(start: base, count: GraphFileFormat.headerSize)
            let headerIntact = GraphFileFormat.headerChecksum(header) == GraphFileFormat.load(header, at: F.headerCRC, as: UInt32.self)
            let count = Int(GraphFileFormat.load(header, at: F.sectionCount, as: UInt32.self))
            /// The table's entries, bounds unchecked (nil when the header does not check out).
            func entries() -> [GraphFileFormat.RawEntry]? {
                guard headerIntact, count <= GraphFileFormat.maxSections else { return nil }
                return (0..<count).map { GraphFileFormat.RawEntry(header, index: $0) }
            }
            guard let recordedSize = Int(exactly: rawSize) else {
                throw GraphFileError.corrupt(path: path, message: "\(size) bytes, the header says \(rawSize)")
            }
            guard size >= recordedSize else {
                // Name the first section the cut reaches, when the header can be trusted to say where they lie.
                let cut = entries()?.first { entry in
                    let (end, overflow) = entry.offset.addingReportingOverflow(entry.length)
                    return overflow || end > UInt64(size)
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
                let entry = GraphFileFormat.RawEntry(header, index: i)
                let elementSize = Int(entry.elementSize)
                // Convert and add with overflow checks before comparing with the real size.
                guard let offset = Int(exactly: entry.offset), let length = Int(exactly: entry.length),
                      case let (end, overflow) = offset.addingReportingOverflow(length), !overflow,
                      offset >= GraphFileFormat.headerSize, offset % GraphFileFormat.sectionAlignment == 0, end <= size,
                      elementSize > 0, length % elementSize == 0 else {
                    throw GraphFileError.corrupt(path: path, message: "section '\(entry.name)' lies outside the file or is misaligned (offset \(entry.offset), \(entry.length) bytes, \(elementSize)-byte elements, in a file of \(size) bytes)")
                }
                sections.append(GraphSection(name: entry.name, offset: offset, length: length, crc32: entry.crc32, elementSize: elementSize))
            }
            self.version = version
            self.size = size
            self.sections = sections
            mapping = mapped
            owner = []
            sectionStarts = sections.map { base + $0.offset }
            starts = Dictionary(sections.map { ($0.name, ($0, base + $0.offset)) }, uniquingKeysWith: { a, _ in a })
        } catch let error as GraphFileError {
            munmap(mapped, size)
            throw error
        } catch {
            munmap(mapped, size)
            throw .corrupt(path: path, message: "\(error)")
        }
    }

    /// The sections of a graph held in memory during an import, as the file they will be written as (offsets and
    /// size of that file; checksums taken as verified: the bytes are this process's own, computed when written).
    public init(memory graph: InMemoryGraphFile) {
        path = graph.path
        version = GraphFileFormat.version
        let layout = graph.layout()
        size = layout.size
        sections = layout.sections
        mapping = nil
        owner = graph.sections.map(\.storage)
        var starts: [String: (section: GraphSection, start: UnsafeRawPointer)] = [:]
        for (section, held) in zip(layout.sections, graph.sections) { starts[section.name] = (section, UnsafeRawPointer(held.storage.bytes.baseAddress!)) }
        self.starts = starts
        sectionStarts = graph.sections.map { UnsafeRawPointer($0.storage.bytes.baseAddress!) }
        checksumsVerified = true
    }

    deinit { if let mapping { munmap(mapping, size) } }

    /// Whether the file has a section of this name.
    public func has(_ name: String) -> Bool { starts[name] != nil }

    /// The bytes of a section, in place.
    public func bytes(_ name: String) throws(GraphFileError) -> UnsafeRawBufferPointer {
        guard let (section, start) = starts[name] else { throw .missingSection(path: path, section: name) }
        try verifyOnFirstAccess(section, at: start)
        return UnsafeRawBufferPointer(start: start, count: section.length)
    }

    /// A section as a typed buffer over the mapped memory (no copy).
    public func array<T: BitwiseCopyable>(_ name: String, of type: T.Type = T.self) throws(GraphFileError) -> UnsafeBufferPointer<T> {
        guard let (section, start) = starts[name] else { throw .missingSection(path: path, section: name) }
        guard section.elementSize == MemoryLayout<T>.stride else {
            throw .corrupt(path: path, message: "section '\(name)' has \(section.elementSize)-byte elements, expected \(MemoryLayout<T>.stride)")
        }
        try verifyOnFirstAccess(section, at: start)
        return UnsafeBufferPointer(start: start.assumingMemoryBound(to: T.self), count: section.length / section.elementSize)
    }

    /// Reads every section and compares its CRC-32 with the table's; throws on the first mismatch, naming the section.
    /// The work is done once per opened file: later calls (another `RoadGraph` over the same file) return at once.
    public func verifyChecksums() throws(GraphFileError) {
        verification.lock()
        defer { verification.unlock() }
        if checksumsVerified { return }
        for (section, start) in zip(sections, sectionStarts) where !verifiedSections.contains(section.name) {
            try compareChecksum(section, at: start)
        }
        checksumsVerified = true
    }

    /// From now on, `bytes` and `array` compare a section's CRC-32 the first time they hand it out (throwing
    /// `checksumMismatch` naming it). Called before any section is read (as `RoadGraph(file:)` does).
    public func verifyOnAccess() {
        verification.lock()
        defer { verification.unlock() }
        verifiesOnAccess = true
    }

    /// Compares the CRC-32 of `section` (starting at `start`) once, when verification on access is on.
    private func verifyOnFirstAccess(_ section: GraphSection, at start: UnsafeRawPointer) throws(GraphFileError) {
        verification.lock()
        defer { verification.unlock() }
        guard verifiesOnAccess, !checksumsVerified, !verifiedSections.contains(section.name) else { return }
        try compareChecksum(section, at: start)
    }

    /// Compares the CRC-32 of `section` (starting at `start`) with the table's and remembers a match (the lock is held).
    private func compareChecksum(_ section: GraphSection, at start: UnsafeRawPointer) throws(GraphFileError) {
        if section.length > 0 {
            let crc = GraphFileFormat.crc32(UnsafeRawBufferPointer(start: start, count: section.length))
            if crc != section.crc32 { throw .checksumMismatch(path: path, section: section.name) }
        }
        verifiedSections.insert(section.name)
    }

    /// Whether `verifyChecksums()` has run and found every section intact.
    public var isVerified: Bool {
        verification.lock()
        defer { verification.unlock() }
        return checksumsVerified
    }
}
