import Foundation
import Graph
import Transit

/// The `--gtfs FEED` part of `wayfinder import`: the feeds are added to the freshly built graph, and only the file
/// holding both reaches the output path.
enum TransitImportStep {
    /// Takes every `--gtfs FEED` (or `--gtfs=FEED`) out of `arguments`; the rest go to the usual option parser.
    static func extractFeeds(_ arguments: [String]) throws -> (arguments: [String], feeds: [String]) {
        var rest: [String] = [], feeds: [String] = []
        var i = 0
        while i < arguments.count {
            if arguments[i] == "--gtfs" {
                guard i + 1 < arguments.count else { throw CommandError.usage("--gtfs needs a feed (a GTFS .zip or folder)") }
                feeds.append(arguments[i + 1]); i += 2; continue
            }
            if arguments[i].hasPrefix("--gtfs=") { feeds.append(String(arguments[i].dropFirst(7))); i += 1; continue }
            rest.append(arguments[i]); i += 1
        }
        // Fail before the (long) road import when a feed is not there.
        for feed in feeds where !FileManager.default.fileExists(atPath: feed) {
            throw CommandError(message: "cannot read GTFS feed \(feed): no such file or folder", exitCode: ExitCode.badInput)
        }
        return (rest, feeds)
    }

    /// The feed limits of `--gtfs-max-member-size`, `--gtfs-max-ratio` and `--gtfs-max-rows`, range-checked.
    static func limits(_ args: ArgumentList) throws -> GTFSLimits {
        var limits = GTFSLimits()
        if let text = args.value("--gtfs-max-member-size") {
            limits.maxFileBytes = try OptionValue.bytes(text, option: "--gtfs-max-member-size", range: GTFSLimits.fileBytesRange)
        }
        if let text = args.value("--gtfs-max-ratio") {
            limits.maxCompressionRatio = try OptionValue.integer(text, option: "--gtfs-max-ratio", range: GTFSLimits.compressionRatioRange)
        }
        if let text = args.value("--gtfs-max-rows") {
            limits.maxRows = try OptionValue.integer(text, option: "--gtfs-max-rows", range: GTFSLimits.rowsRange)
        }
        return limits
    }

    /// Where the road graph goes before the timetable joins it: a hidden file beside the output (`.NAME.roads-PID`).
    static func roadsPath(for output: String) -> String { TemporaryFiles.path(for: output, kind: "roads") }

    /// Adds the feeds to the graph at `roads`, writes `output`, removes `roads`; returns the summary lines.
    static func addTimetable(feeds: [String], roads: String, output: String, limits: GTFSLimits = GTFSLimits()) throws -> String {
        defer { unlink(roads); TemporaryFiles.unregister(roads) }
        let started = Date()
        let timetable: Timetable
        var importer = TransitImporter()
        importer.limits = limits
        do { timetable = try importer.run(feeds: feeds, graphPath: roads, output: output) } catch {
            switch error {
            case .graph(.cannotCreate), .graph(.writeFailed): throw CommandError(message: error.description, exitCode: ExitCode.outputFailed)
            default: throw CommandError(message: error.description, exitCode: ExitCode.badInput)
            }
        }
        var lines = TransitReport.lines(timetable.metadata, timetable: timetable)
        lines.append("  transit time  " + String(format: "%.2f s", Date().timeIntervalSince(started)))
        return lines.joined(separator: "\n")
    }
}

/// Lines describing a timetable, for the import summary and `wayfinder info`.
enum TransitReport {
    static func lines(_ meta: TransitMetadata, timetable: Timetable) -> [String] {
        var lines: [String] = []
        lines.append("  transit       \(meta.feeds.count) feed\(meta.feeds.count == 1 ? "" : "s"): \(meta.feeds.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))")
        lines.append("    agencies    \(meta.agencies.map { "\($0.name) (\($0.timeZone))" }.joined(separator: ", "))")
        lines.append("    stops       \(Format.count(timetable.stopCount)) (\(Format.count(meta.stopsOffNetwork)) farther than 1000 m from a walkable road)")
        lines.append("    routes      \(Format.count(meta.routes.count)), \(Format.count(timetable.patternCount)) stop patterns")
        lines.append("    trips       \(Format.count(meta.tripsRead)) read, \(Format.count(timetable.tripCount)) runs (frequencies expanded), \(Format.count(timetable.arrivals.count)) stop times")
        lines.append("    transfers   \(Format.count(timetable.transferTo.count)) (walks of at most \(Int(meta.transferWalkLimit)) m along the foot graph, same-stop and transfers.txt)")
        lines.append("    service     \(ServiceDay.iso(meta.firstDay)) to \(ServiceDay.iso(meta.lastDay))")
        if meta.skipped.isEmpty {
            lines.append("    skipped     nothing")
        } else {
            lines.append("    skipped     \(Format.count(meta.skipped.reduce(0) { $0 + $1.count })) rows or trips:")
            for s in meta.skipped {
                lines.append("      \(Format.count(s.count)) \(s.reason) (e.g. \(s.examples.joined(separator: "; ")))")
            }
        }
        return lines
    }
}
