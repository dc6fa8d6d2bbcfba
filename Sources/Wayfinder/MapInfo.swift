import Foundation
import Graph
import Routing
import Transit

/// What an offline map holds: the file, the program that wrote it, its extent and size, its profiles and timetable.
public struct MapInfo: Equatable, Sendable {
    /// One travel profile of the file.
    public struct Profile: Equatable, Sendable {
        /// "car" or "foot".
        public var name: String
        /// ALT landmarks stored for its searches (0 when imported with `--no-landmarks`).
        public var landmarks: Int
        /// Whether the file holds a contraction hierarchy for it.
        public var hasHierarchy: Bool
    }

    /// The timetable's zone and the days on which any of its trips runs (`yyyy-MM-dd`).
    public struct Timetable: Equatable, Sendable {
        public var timeZone: TimeZone
        public var firstDate: String
        public var lastDate: String
    }

    public var url: URL
    /// The file's size in bytes and its format version.
    public var fileBytes: Int
    public var formatVersion: Int
    /// The program that wrote the file ("wayfinder 0.1.0").
    public var generator: String
    /// The box the graph's nodes lie in.
    public var coverage: BoundingBox
    public var nodeCount: Int
    public var edgeCount: Int
    public var profiles: [Profile]
    /// The timetable, when the file has one that opens (nil otherwise).
    public var timetable: Timetable?
}

/// The version of this library, as graph files it writes name it.
public let wayfinderLibraryVersion = wayfinderVersion

extension OfflineMap {
    /// The file's figures (opening the timetable, when there is one, to read its zone and days).
    public var info: MapInfo {
        let profiles = graph.profiles.map { p in
            MapInfo.Profile(name: p.profile.name, landmarks: p.landmarkCount,
                            hasHierarchy: graph.file.has(HierarchySectionNames(p.profile.name).rank))
        }
        let timetable = (try? transitRouter()).map {
            MapInfo.Timetable(timeZone: $0.timeZone, firstDate: ServiceDay.iso($0.window.firstDay), lastDate: ServiceDay.iso($0.window.lastDay))
        }
        return MapInfo(url: url, fileBytes: graph.file.size, formatVersion: Int(graph.file.version), generator: graph.metadata.generator,
                       coverage: coverage, nodeCount: graph.nodeCount, edgeCount: graph.edgeCount, profiles: profiles, timetable: timetable)
    }
}
