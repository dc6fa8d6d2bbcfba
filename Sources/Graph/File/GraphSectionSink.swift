/// Where sections of a graph file go: the file being written (`GraphFileWriter`) or the graph held in memory during
/// an import (`InMemoryGraphFile`), so the graph and its extensions write their sections the same way to either.
public protocol GraphSectionSink {
    /// Adds a section holding `bytes`, `elementSize` bytes per element (a sink that already holds a section of that
    /// name replaces it in its place; a file being written appends).
    func append(_ name: String, bytes: UnsafeRawBufferPointer, elementSize: Int) throws(GraphFileError)
}

extension GraphSectionSink {
    /// Adds an array as a section of its elements' raw little-endian bytes.
    public func append<T: BitwiseCopyable>(_ name: String, _ array: [T]) throws(GraphFileError) {
        let outcome = array.withUnsafeBytes { raw in
            Result { () throws(GraphFileError) in try append(name, bytes: raw, elementSize: MemoryLayout<T>.stride) }
        }
        try outcome.get()
    }
}
