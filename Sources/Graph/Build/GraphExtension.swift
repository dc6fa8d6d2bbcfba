/// A part of the graph file built after the roads, from the graph in memory (and inputs of its own): the landmark
/// tables, the contraction hierarchies, a timetable. It names its sections, builds them from the graph as it stands
/// (the roads and every extension before it), and the built value writes them. `GraphImporter` runs its extensions
/// in order over an `InMemoryGraphFile` and writes the file once, holding all.
public protocol GraphExtension {
    /// What a progress display says while it builds ("preprocessing: landmarks").
    var phase: String { get }
    /// The sections it writes for `graph`, in the order it writes them. A name the graph already holds is replaced
    /// in its place (the landmark tables fill the empty ones of the roads); new names follow the graph's sections.
    func sectionNames(for graph: RoadGraph) -> [String]
    /// Builds the sections from `graph`; throws, in words a user can act on, when its inputs do not allow it.
    func build(from graph: RoadGraph) throws -> any GraphExtensionSections
}

/// What a `GraphExtension` built, ready to be written.
public protocol GraphExtensionSections {
    /// Writes the sections, each once, named as the extension's `sectionNames(for:)` says.
    func write(to sink: some GraphSectionSink) throws(GraphFileError)
}

/// Why a graph extension could not be built, in words a user can act on.
public struct GraphExtensionError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
