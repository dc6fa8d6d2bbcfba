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

    /// Builds the index of the collected places and appends its sections (the graph itself is not read).
    public func extend(_ graph: RoadGraph, writer: GraphFileWriter, phase: (String) -> Void) throws {
        phase("indexing places")
        try write(to: writer)
    }

    /// Builds the index and appends its sections to `writer`; returns the number of places indexed.
    @discardableResult
    public func write(to writer: GraphFileWriter) throws -> Int {
        collector.finishReading()
        let data: PlaceIndexData
        do { data = try PlaceIndexBuilder().build(collector.places) } catch { throw GraphExtensionError(error.description) }
        try data.write(to: writer)
        return data.count
    }
}
