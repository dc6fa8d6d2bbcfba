import Foundation

/// The sections of a graph file held in memory, in file order, while an import builds them: the roads first, then
/// what each extension adds (landmarks, hierarchies, a timetable). `roadGraph()` gives the engines' view of it, as
/// opening the written file would, and `write(to:)` writes it in one go.
public final class InMemoryGraphFile: GraphSectionSink {
    /// One section's bytes, in memory of its own (aligned as a section in a file is).
    final class Storage {
        let bytes: UnsafeMutableRawBufferPointer
        init(copying source: UnsafeRawBufferPointer) {
            bytes = .allocate(byteCount: max(source.count, 1), alignment: GraphFileFormat.sectionAlignment)
            if source.count > 0 { bytes.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: source.count) }
        }
        deinit { bytes.deallocate() }
    }

    /// A section: its name, bytes per element and bytes.
    struct Section {
        let name: String
        let elementSize: Int
        let count: Int
        let storage: Storage
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage.bytes.baseAddress, count: count) }
    }

    /// The path the file will have (named in errors).
    public let path: String
    private(set) var sections: [Section] = []
    private var positions: [String: Int] = [:]
    /// Names added since `startRecording()`.
    private var recorded: [String] = []

    /// An empty graph to be written to `path`.
    public init(path: String) { self.path = path }

    /// The section names, in file order.
    public var sectionNames: [String] { sections.map(\.name) }

    /// Adds a section, or replaces the one of the same name in its place.
    public func append(_ name: String, bytes: UnsafeRawBufferPointer, elementSize: Int) throws(GraphFileError) {
        precondition(name.utf8.count <= GraphFileFormat.maxNameLength, "section name too long: \(name)")
        let section = Section(name: name, elementSize: elementSize, count: bytes.count, storage: Storage(copying: bytes))
        recorded.append(name)
        if let i = positions[name] {
            sections[i] = section
        } else {
            precondition(sections.count < GraphFileFormat.maxSections, "too many sections")
            positions[name] = sections.count
            sections.append(section)
        }
    }

    /// Starts noting the names of the sections added, for `stopRecording()`.
    func startRecording() { recorded = [] }

    /// The names of the sections added since `startRecording()`.
    func stopRecording() -> [String] { defer { recorded = [] }; return recorded }

    /// The graph as the engines see an opened file: typed views over these sections, checked for structure as every
    /// open is (`RoadGraph.validateStructure()`); the checksums are not computed, the bytes being this process's own.
    public func roadGraph() throws(GraphFileError) -> RoadGraph {
        try RoadGraph(file: GraphFile(memory: self))
    }

    /// The section table these sections get in a file: offsets after the header, aligned (checksums 0: `write(to:)`
    /// computes them), and the file size.
    func layout() -> (sections: [GraphSection], size: Int) {
        var offset = GraphFileFormat.headerSize
        var table: [GraphSection] = []
        for section in sections {
            offset += (GraphFileFormat.sectionAlignment - offset % GraphFileFormat.sectionAlignment) % GraphFileFormat.sectionAlignment
            table.append(GraphSection(name: section.name, offset: offset, length: section.count, crc32: 0, elementSize: section.elementSize))
            offset += section.count
        }
        return (table, offset)
    }

    /// Appends every section, in order, to `writer` (which the caller then finishes).
    public func write(to writer: GraphFileWriter) throws(GraphFileError) {
        for section in sections { try writer.append(section.name, bytes: section.bytes, elementSize: section.elementSize) }
    }
}
