import Foundation
import Wayfinder

/// The `--gtfs FEED` options of `wayfinder import` (the importer builds the timetable over the graph in memory and
/// writes it with the roads, once) and the lines that describe a timetable.
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

    /// The summary lines of the timetable an import built, and the seconds it took.
    static func summary(_ timetable: TimetableSummary, seconds: Double) -> String {
        var lines = TransitReport.lines(timetable)
        lines.append("  transit time  " + String(format: "%.2f s", seconds))
        return lines.joined(separator: "\n")
    }
}

/// Lines describing a timetable, for the import summary and `wayfinder info`.
enum TransitReport {
    static func lines(_ t: TimetableSummary) -> [String] {
        var lines: [String] = []
        lines.append("  transit       \(t.feeds.count) feed\(t.feeds.count == 1 ? "" : "s"): \(t.feeds.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))")
        lines.append("    agencies    \(t.agencies.map { "\($0.name) (\($0.timeZone))" }.joined(separator: ", "))")
        lines.append("    stops       \(Format.count(t.stops)) (\(Format.count(t.stopsOffNetwork)) farther than 1000 m from a walkable road)")
        lines.append("    routes      \(Format.count(t.routes)), \(Format.count(t.patterns)) stop patterns")
        lines.append("    trips       \(Format.count(t.tripsRead)) read, \(Format.count(t.runs)) runs (frequencies expanded), \(Format.count(t.stopTimes)) stop times")
        lines.append("    transfers   \(Format.count(t.transfers)) (walks of at most \(Int(t.transferWalkLimit)) m along the foot graph, same-stop and transfers.txt)")
        lines.append("    service     \(t.firstDay) to \(t.lastDay)")
        if t.skipped.isEmpty {
            lines.append("    skipped     nothing")
        } else {
            lines.append("    skipped     \(Format.count(t.skipped.reduce(0) { $0 + $1.count })) rows or trips:")
            for s in t.skipped {
                lines.append("      \(Format.count(s.count)) \(s.reason) (e.g. \(s.examples.joined(separator: "; ")))")
            }
        }
        return lines
    }
}
