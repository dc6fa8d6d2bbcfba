/// The import step that writes the place index: built from what a `PlaceCollector` gathered while the OSM input was
/// read (and any GTFS stops added to it since), as the `places.*` sections of the graph file.
///
/// Wiring: give the importer the collector (`GraphImporter.places`), so the collector sees every element, and add
/// this extension after any step that adds transit stops.
public struct PlaceIndexExtension: GraphExtension {
    /// The sections this extension writes.
    public static let sectionNames = PlaceSectionName.all
    public let collector: PlaceCollector

    public init(collector: PlaceCollector) { self.collector = collector }

    public var phase: String { "indexing places" }

    /// The `places.*` sections (whatever the graph).
    public func sectionNames(for graph: RoadGraph) -> [String] { Self.sectionNames }

    /// Builds the index of the collected places (the graph itself is not read).
    public func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        try PlaceIndexSections(data: buildData())
    }

    /// Builds the index and appends its sections to `writer`; returns the number of places indexed.
    @discardableResult
    public func write(to writer: some GraphSectionSink) throws -> Int {
        let data = try buildData()
        try data.write(to: writer)
        return data.count
    }

    /// The index data of what the collector gathered.
    func buildData() throws -> PlaceIndexData {
        collector.finishReading()
        do { return try PlaceIndexBuilder().build(collector.places) } catch { throw GraphExtensionError(error.description) }
    }
}

/// A built place index, ready to be written.
struct PlaceIndexSections: GraphExtensionSections {
    let data: PlaceIndexData
    func write(to sink: some GraphSectionSink) throws(GraphFileError) { try data.write(to: sink) }
}
