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

    /// The `places.*` sections.
    public func sectionNames(for graph: RoadGraph) -> [String] { Self.sectionNames }

    /// Builds the index of the collected places (the graph itself is not read).
    public func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        collector.finishReading()
        do { return try PlaceIndexBuilder().build(collector.places) } catch { throw GraphExtensionError(error.description) }
    }
}

extension PlaceIndexData: GraphExtensionSections {}
