/// A step that adds its own sections to a freshly built graph file, such as contraction hierarchies or a
/// transit timetable: `GraphImporter` runs each over the written graph and writes one file holding all.
public protocol GraphExtension {
    /// Appends this step's sections for `graph` to `writer`; `phase` names what it is doing for progress displays.
    func extend(_ graph: RoadGraph, writer: GraphFileWriter, phase: (String) -> Void) throws
}

/// Why a graph extension could not be built, in words a user can act on.
public struct GraphExtensionError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
