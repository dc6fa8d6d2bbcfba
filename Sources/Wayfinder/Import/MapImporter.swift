import Foundation
import Graph
import Routing
import Transit

/// Imports an OSM extract (XML, gzip, bzip2 or PBF), with GTFS feeds if given, into a graph file: the roads of each
/// profile, then the extensions built from the graph in memory (ALT landmarks, contraction hierarchies, the
/// timetable), written once into a temporary file beside the output and renamed into place.
///
/// An output that exists and is not a regular file is refused before any work; temporary files of killed imports
/// into the same folder are swept first; `removeTemporaryFilesForExit()` is for a signal handler.
public struct MapImporter {
    /// What to build.
    public struct Options: Sendable {
        /// The profile tables as JSON (an array, as `docs/profiles.md` describes); nil: the standard car and foot.
        public var profilesJSON: Data?
        /// Whether to build the ALT landmark tables (used by alternatives and when there is no hierarchy).
        public var landmarks = true
        /// Whether to build the contraction hierarchies (fast routes and matrices; a larger file, a longer import).
        public var contractionHierarchies = true
        /// GTFS feeds (.zip files or folders) whose timetable joins the graph, read in order.
        public var transitFeeds: [String] = []
        /// What reading each feed may cost.
        public var feedLimits = GTFSLimits()

        /// Car and foot, landmarks and hierarchies, no timetable.
        public init() {}
    }

    /// Progress as the import goes: reading (raw and XML bytes, elements), then the build phases by name
    /// ("building edges"…, "preprocessing: landmarks", "preprocessing: contraction hierarchies", "timetable",
    /// "writing").
    public enum Progress: Sendable {
        case reading(rawBytes: Int64, totalRawBytes: Int64?, xmlBytes: Int64, elements: Int)
        case phase(String)
    }

    /// What an import read and built.
    public struct Report: Sendable {
        /// The figures of the road import (also stored in the file).
        public let statistics: ImportStatistics
        /// The timetable's figures, when feeds were given.
        public let timetable: TimetableSummary?
        /// How many places the search index holds (OSM elements and GTFS stops).
        public let placesIndexed: Int
        /// How many categories those places fall into.
        public let placeCategories: Int
    }

    public var options: Options

    /// An importer with `options`.
    public init(options: Options = Options()) { self.options = options }

    /// Reads `input` (a path, "-" for standard input) and writes the graph file `output`; throws `MapImportError`.
    public func run(input: String, output: String, progress: @escaping (Progress) -> Void = { _ in }) throws(MapImportError) -> Report {
        if let refusal = Self.outputRefusal(output) { throw .output(refusal) }
        var profiles: [TravelProfile] = [.car, .foot]
        if let json = options.profilesJSON {
            do { profiles = try JSONDecoder().decode([TravelProfile].self, from: json) } catch { throw .unreadableProfiles("\(error)") }
        }
        var importer = GraphImporter(profiles: profiles)
        importer.buildLandmarks = options.landmarks
        if options.contractionHierarchies { importer.extensions.append(HierarchyExtension()) }
        if !options.transitFeeds.isEmpty {
            var timetable = TimetableExtension(feeds: options.transitFeeds)
            timetable.limits = options.feedLimits
            importer.extensions.append(timetable)
        }
        // The place index comes last: the timetable step's stops join it first (see `BuiltTimetable.note`).
        let places = PlaceCollector()
        importer.places = places
        importer.extensions.append(PlaceIndexExtension(collector: places))
        let timetable = BuiltTimetable(places: places)
        do {
            let statistics = try importer.run(input: input, output: output, built: { timetable.note($0) }) { step in
                switch step {
                case let .reading(raw, total, xml, elements): progress(.reading(rawBytes: raw, totalRawBytes: total, xmlBytes: xml, elements: elements))
                case let .phase(name): progress(.phase(name))
                }
            }
            // Read back from the file written: the counts the index really holds.
            let index = try? PlaceIndex(file: GraphFile(path: output), verifyingChecksums: false)
            return Report(statistics: statistics, timetable: timetable.summary,
                          placesIndexed: index?.count ?? 0, placeCategories: index?.categoryCount ?? 0)
        } catch {
            throw MapImportError(error)
        }
    }

    /// Why `path` cannot be an import's output (it exists and is not a regular file), or nil when it can.
    public static func outputRefusal(_ path: String) -> String? { OutputPath.refusal(path) }

    /// Removes the temporary files of imports running in this process and keeps new ones from being noted: for a
    /// SIGINT or SIGTERM handler's thread just before the process ends.
    public static func removeTemporaryFilesForExit() { TemporaryFiles.removeAllForExit() }
}

/// Keeps the summary of the timetable an import built, and adds its stops to the place index being gathered.
private final class BuiltTimetable {
    var summary: TimetableSummary?
    let places: PlaceCollector
    init(places: PlaceCollector) { self.places = places }
    func note(_ sections: any GraphExtensionSections) {
        guard let timetable = sections as? Timetable else { return }
        summary = TimetableSummary(timetable)
        let names = timetable.metadata.stopNames, ids = timetable.metadata.stopIDs
        for stop in 0..<timetable.stopCount where !names[stop].isEmpty {
            places.addTransitStop(name: names[stop], latitudeE7: timetable.stopLatitudes[stop],
                                  longitudeE7: timetable.stopLongitudes[stop], stopID: ids[stop])
        }
    }
}

/// Why an import failed, in words a user can act on.
public enum MapImportError: Error, CustomStringConvertible, Equatable {
    /// The output cannot be written (not a regular file, no such folder, no space…).
    case output(String)
    /// The input (OSM or GTFS) cannot be read, or holds nothing to import.
    case input(String)
    /// The profile tables are not JSON profile tables.
    case unreadableProfiles(String)
    /// The profile tables are read but not valid (names, count).
    case invalidProfiles(String)

    public var description: String {
        switch self {
        case let .output(message), let .input(message), let .unreadableProfiles(message), let .invalidProfiles(message): return message
        }
    }

    init(_ failure: GraphImporter.Failure) {
        switch failure {
        case let .output(error): self = .output(error.description)
        case .input, .noRoads, .extensionFailed: self = .input(failure.description)
        case let .invalidProfile(message): self = .invalidProfiles(message)
        case let .extensionError(error):
            switch error as? TransitError {
            case .graph(.cannotCreate)?, .graph(.writeFailed)?: self = .output(failure.description)
            default: self = .input(failure.description)
            }
        }
    }
}
