import Foundation
import Graph
import Routing
import Transit

/// Everything `wayfinder info` shows about a graph file — header, counts, profiles, hierarchies, timetable and
/// sections — read after the checks a route or a server would run on it (checksums unless declined).
public struct MapFileReport: Sendable {
    /// One profile's figures: from the import, plus what the file holds for it.
    public struct Profile: Sendable {
        /// The import's figures for the profile (nodes, edges, kilometres…).
        public var figures: ImportStatistics.ProfileFigures
        /// Turn-restriction paths stored for the profile.
        public var restrictionPaths: Int
        /// Landmarks stored for the profile's A* bound (0 when imported with --no-landmarks).
        public var landmarks: Int
        /// The contraction hierarchy's vertices, arcs and shortcuts, when the file has one for the profile.
        public var hierarchy: (vertices: Int, arcs: Int, shortcuts: Int)?
    }

    /// One section of the file: where it lies, how big it is and its CRC-32.
    public struct Section: Sendable {
        public var name: String
        public var offset: Int
        public var length: Int
        public var elementCount: Int
        public var crc32: UInt32
    }

    /// The file's path.
    public var path: String
    /// The file-format version and the size in bytes.
    public var formatVersion: Int
    public var fileBytes: Int
    /// The program that wrote the file.
    public var generator: String
    /// Whether every section's CRC-32 was checked.
    public var checksumsVerified: Bool
    public var nodeCount: Int
    public var edgeCount: Int
    public var shapePointCount: Int
    public var wayCount: Int
    public var stringCount: Int
    /// The import's figures (bounding box, elements read, per profile).
    public var statistics: ImportStatistics
    public var profiles: [Profile]
    /// Spatial-index items, segments per item and levels.
    public var spatialIndex: (items: Int, segmentsPerItem: Int, levels: Int)
    /// The timetable's summary, when the file has one.
    public var timetable: TimetableSummary?
    public var sections: [Section]

    /// Opens and checks the file at `url` — checksums (unless `verifyingChecksums` is false), the structure of the
    /// roads, every hierarchy and the timetable — and gathers its figures; throws the first fault, naming the section.
    public init(contentsOf url: URL, verifyingChecksums: Bool = true) throws(GraphFileError) {
        let file = try GraphFile(path: url.path)
        // Every section's checksum (a route checks only the sections it reads, on first access).
        if verifyingChecksums { try file.verifyChecksums() }
        let graph = try RoadGraph(file: file, verifyingChecksums: verifyingChecksums)
        var profiles: [Profile] = []
        for (p, profile) in graph.profiles.enumerated() {
            let name = profile.profile.name
            var hierarchy: (vertices: Int, arcs: Int, shortcuts: Int)?
            if let ch = try ContractionHierarchy(graph: graph, profile: name) {
                try ch.validate(against: HierarchyStates(space: SearchGraph(graph: graph, profile: profile)), path: file.path, profile: name)
                let shortcuts = ch.up.reduce(0) { $0 + ($1.isShortcut ? 1 : 0) } + ch.down.reduce(0) { $0 + ($1.isShortcut ? 1 : 0) }
                hierarchy = (ch.vertexCount, ch.arcCount, shortcuts)
            }
            let figures = p < graph.metadata.statistics.profiles.count ? graph.metadata.statistics.profiles[p] : ImportStatistics.ProfileFigures(name: name)
            profiles.append(Profile(figures: figures, restrictionPaths: profile.restrictionCount, landmarks: profile.landmarkCount, hierarchy: hierarchy))
        }
        timetable = Timetable.isPresent(in: file) ? TimetableSummary(try Timetable(file: file)) : nil
        path = file.path
        formatVersion = Int(file.version)
        fileBytes = file.size
        generator = graph.metadata.generator
        checksumsVerified = verifyingChecksums
        nodeCount = graph.nodeCount
        edgeCount = graph.edgeCount
        shapePointCount = graph.shapeLatitudes.count
        wayCount = graph.wayOSMIDs.count
        stringCount = graph.stringStart.count - 1
        statistics = graph.metadata.statistics
        self.profiles = profiles
        spatialIndex = (graph.spatialIndex.items.count, SpatialIndexData.segmentsPerItem, graph.spatialIndex.levelCount)
        sections = file.sections.map {
            Section(name: $0.name, offset: $0.offset, length: $0.length, elementCount: $0.length / max(1, $0.elementSize), crc32: $0.crc32)
        }
    }
}
