import Graph

/// The place index as the import's last step, left out (and the reason kept) when its sections would not fit in
/// the graph file's section table (`GraphFileFormat.maxSections`) after the roads, hierarchies and timetable.
final class FittingPlaceIndex: GraphExtension {
    let index: PlaceIndexExtension
    /// Why the index was left out, when it was.
    private(set) var skipped: String?

    init(collector: PlaceCollector) { index = PlaceIndexExtension(collector: collector) }

    var phase: String { index.phase }

    func sectionNames(for graph: RoadGraph) -> [String] {
        let present = graph.file.sections.count, needed = PlaceIndexExtension.sectionNames.count
        guard present + needed <= GraphFileFormat.maxSections else {
            skipped = "the file's section table is full (\(present) sections, the index needs \(needed) more, at most \(GraphFileFormat.maxSections))"
            return []
        }
        skipped = nil
        return index.sectionNames(for: graph)
    }

    func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        if skipped != nil { return NoSections() }
        return try index.build(from: graph)
    }
}

/// Nothing to write.
private struct NoSections: GraphExtensionSections {
    func write(to sink: some GraphSectionSink) throws(GraphFileError) {}
}
