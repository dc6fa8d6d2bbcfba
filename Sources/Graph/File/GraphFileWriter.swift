#if canImport(Glibc)
import Glibc
#endif

/// Writes a graph file section by section into a temporary file beside the target, then renames it into place.
///
/// Nothing appears at the target path until `finish()` succeeds; an abandoned writer removes its temporary file.
public final class GraphFileWriter: GraphSectionSink {
    public let path: String
    private let temporaryPath: String
    @exclusivity(unchecked) private var fd: Int32
    @exclusivity(unchecked) private var offset: Int
    @exclusivity(unchecked) private var sections: [GraphSection] = []
    @exclusivity(unchecked) private var finished = false

    /// Creates the temporary file (`.NAME.tmp-PID`) in the target's folder; refuses a target that exists and is not
    /// a regular file (a device, FIFO, socket or folder), which the final rename would replace.
    public init(path: String) throws(GraphFileError) {
        self.path = path
        if let refusal = OutputPath.refusal(path) { throw .cannotCreate(path: path, message: refusal) }
        temporaryPath = TemporaryFiles.path(for: path, kind: "tmp")
        TemporaryFiles.register(temporaryPath)
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 {
            let message = String(cString: strerror(errno))
            TemporaryFiles.unregister(temporaryPath)
            throw .cannotCreate(path: path, message: message)
        }
        offset = 0
        try writeZeros(GraphFileFormat.headerSize)
    }

    deinit { if !finished { abandon() } }

    private func writeZeros(_ count: Int) throws(GraphFileError) {
        let zeros = [UInt8](repeating: 0, count: count)
        let failure = zeros.withUnsafeBytes { raw in Result { () throws(GraphFileError) in try writeAll(raw) } }
        try failure.get()
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(GraphFileError) {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                let message = String(cString: strerror(errno))
                abandon()
                throw .writeFailed(path: path, message: message)
            }
            done += n
        }
        offset += bytes.count
    }

    /// Appends a section holding `bytes`, `elementSize` bytes per element.
    public func append(_ name: String, bytes: UnsafeRawBufferPointer, elementSize: Int) throws(GraphFileError) {
        precondition(name.utf8.count <= GraphFileFormat.maxNameLength, "section name too long: \(name)")
        precondition(sections.count < GraphFileFormat.maxSections, "too many sections")
        let padding = (GraphFileFormat.sectionAlignment - offset % GraphFileFormat.sectionAlignment) % GraphFileFormat.sectionAlignment
        if padding > 0 { try writeZeros(padding) }
        let start = offset
        if bytes.count > 0 { try writeAll(bytes) }
        sections.append(GraphSection(name: name, offset: start, length: bytes.count,
                                     crc32: bytes.count > 0 ? GraphFileFormat.crc32(bytes) : 0, elementSize: elementSize))
    }

    /// Copies the sections of an existing graph file, in its order, except those named in `excluded`
    /// (to extend a file with new sections: copy it, append the new ones, finish).
    public func appendSections(of file: GraphFile, except excluded: Set<String> = []) throws(GraphFileError) {
        for section in file.sections where !excluded.contains(section.name) {
            try append(section.name, bytes: try file.bytes(section.name), elementSize: section.elementSize)
        }
    }

    /// Writes the header and section table, flushes, and renames the file into place.
    public func finish() throws(GraphFileError) {
        let header = GraphFileFormat.header(sections: sections, fileSize: offset)
        let written = header.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        if written != header.count {
            let message = String(cString: strerror(errno))
            abandon()
            throw .writeFailed(path: path, message: message)
        }
        if fsync(fd) != 0 || close(fd) != 0 {
            let message = String(cString: strerror(errno))
            fd = -1
            abandon()
            throw .writeFailed(path: path, message: message)
        }
        fd = -1
        if let refusal = OutputPath.refusal(path) {
            abandon()
            throw .writeFailed(path: path, message: refusal)
        }
        if rename(temporaryPath, path) != 0 {
            let message = String(cString: strerror(errno))
            abandon()
            throw .writeFailed(path: path, message: message)
        }
        TemporaryFiles.unregister(temporaryPath)
        finished = true
    }

    /// Gives up: closes and removes the temporary file, leaving any older file at the target untouched.
    public func abandon() {
        if fd >= 0 { close(fd); fd = -1 }
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
        finished = true
    }
}
