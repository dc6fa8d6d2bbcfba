import Foundation
import Wayfinder

/// `wayfinder import INPUT -o OUTPUT.wfg`: OSM XML (plain, gzip, bzip2) or PBF ("-" for stdin) to a graph file.
enum ImportCommand {
    static let usage = """
    usage: wayfinder import INPUT [-o OUTPUT.wfg] [--gtfs FEED]… [--profiles FILE.json] [--no-landmarks] [--no-ch] [--quiet]
                            [--gtfs-max-member-size SIZE] [--gtfs-max-ratio N] [--gtfs-max-rows N]

    Builds a graph file for the car and foot profiles from an OSM extract.

      INPUT            OSM XML (.osm, .osm.gz, .osm.bz2) or OSM PBF (.osm.pbf), told from the first bytes; - reads stdin
      -o, --output     the graph file to write (default: INPUT's name with .wfg, in the current folder); an existing
                       path must be a regular file (a device, FIFO or folder is refused, exit 4)
      --gtfs FEED      a GTFS feed (.zip or folder) whose timetable joins the graph file; may be repeated
      --profiles FILE  a JSON array of profile tables to build instead of the default car and foot
      --no-landmarks   skip the ALT landmark tables (used by alternatives and when there is no hierarchy)
      --no-ch          skip the contraction hierarchies: a smaller file and a quicker import, slower routes and no fast matrices
      -q, --quiet      no progress bar, only the summary
      --gtfs-max-member-size SIZE  largest file of a feed once unzipped, bytes (K, M, G suffixes), 1K to 4G (default 4G)
      --gtfs-max-ratio N   largest compression ratio of a zip member over 16 MiB, N:1, 2 to 100000 (default 100; real
                           feeds: 3 to 20, zip bombs: up to 1032)
      --gtfs-max-rows N    most rows of one feed file, and most stop times (frequencies expanded), transfer
                           pairs (stations expanded) and walking transfers of a feed, 1 to 2000000000 (default 100000000)

    SIGINT or SIGTERM removes the temporary files beside the output; those of killed imports are removed by the next
    import into the same folder.
    """

    static func run(_ arguments: [String]) throws {
        let (arguments, feeds) = try TransitImportStep.extractFeeds(arguments)
        let args = try ArgumentList(arguments, valued: ["-o", "--output", "--profiles", "--gtfs-max-member-size", "--gtfs-max-ratio", "--gtfs-max-rows"],
                                    switches: ["-q", "--quiet", "--no-landmarks", "--no-ch", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard args.positionals.count == 1 else { throw CommandError.usage("import takes one input file\n\n\(usage)") }
        let input = args.positionals[0]
        guard let output = args.value("-o") ?? args.value("--output") ?? defaultOutput(for: input) else {
            throw CommandError.usage("reading standard input needs -o OUTPUT.wfg")
        }
        var options = MapImporter.Options()
        options.feedLimits = try TransitImportStep.limits(args)
        options.transitFeeds = feeds
        options.landmarks = !args.has("--no-landmarks")
        options.contractionHierarchies = !args.has("--no-ch")
        let profilesFile = args.value("--profiles")
        if let file = profilesFile {
            do { options.profilesJSON = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw CommandError(message: "cannot read profiles from \(file): \(error)", exitCode: ExitCode.badInput)
            }
        }
        // Refused before the signal thread starts and before any work (the importer checks again).
        if let refusal = MapImporter.outputRefusal(output) { throw CommandError(message: refusal, exitCode: ExitCode.outputFailed) }
        CleanupOnSignal.install()
        let display = TerminalProgress(quiet: args.has("-q") || args.has("--quiet"))
        let started = Date()
        let phases = PhaseClock()
        let report: MapImporter.Report
        do {
            report = try MapImporter(options: options).run(input: input, output: output) { progress in
                switch progress {
                case let .reading(raw, total, xml, elements):
                    let seconds = max(display.elapsed, 0.001)
                    var line = "reading "
                    if let total, total > 0 {
                        let fraction = Double(raw) / Double(total)
                        let left = fraction > 0.001 ? seconds * (1 - fraction) / fraction : .nan
                        line += "\(TerminalProgress.bar(fraction)) \(Format.bytes(raw))/\(Format.bytes(total)) \(Int(fraction * 100))%"
                        line += String(format: "  %.1f MB/s", Double(raw) / seconds / 1e6)
                        line += String(format: "  %.0fk el/s", Double(elements) / seconds / 1e3)
                        line += "  left \(Format.duration(left))"
                    } else {
                        line += "\(Format.bytes(raw))" + String(format: "  %.1f MB/s", Double(raw) / seconds / 1e6)
                        line += String(format: "  %.0fk el/s", Double(elements) / seconds / 1e3)
                    }
                    if xml != raw { line += String(format: "  (XML %.1f MB/s)", Double(xml) / seconds / 1e6) }
                    display.show(line)
                case let .phase(name):
                    phases.start(name)
                    display.show("building: \(name)…", force: true)
                }
            }
        } catch {
            display.finish()
            switch error {
            case .output: throw CommandError(message: error.description, exitCode: ExitCode.outputFailed)
            case .input: throw CommandError(message: error.description, exitCode: ExitCode.badInput)
            case let .unreadableProfiles(message):
                throw CommandError(message: "cannot read profiles from \(profilesFile ?? "-"): \(message)", exitCode: ExitCode.badInput)
            case let .invalidProfiles(message):
                // Only a profiles file can hold invalid tables (the defaults are valid): bad input, named.
                throw CommandError(message: "\(profilesFile ?? "profiles"): \(message)", exitCode: ExitCode.badInput)
            }
        }
        phases.start(nil)
        display.finish()
        let wall = Date().timeIntervalSince(started)
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? 0
        // Seconds spent in each "preprocessing: …" phase (landmarks, contraction hierarchies), timed apart.
        let preprocessing = phases.durations.compactMap { phase -> (name: String, seconds: Double)? in
            phase.name.hasPrefix("preprocessing: ") ? (String(phase.name.dropFirst("preprocessing: ".count)), phase.seconds) : nil
        }
        print(summary(report.statistics, input: input, output: output, fileSize: fileSize, wall: wall, peak: peakMemoryBytes(), preprocessing: preprocessing))
        if let timetable = report.timetable {
            let seconds = phases.durations.first { $0.name == "timetable" }?.seconds ?? 0
            print(TransitImportStep.summary(timetable, seconds: seconds))
        }
        print("  places        \(Format.count(report.placesIndexed)) indexed (\(Format.count(report.placeCategories)) categories)")
    }

    static func defaultOutput(for input: String) -> String? {
        guard input != "-" else { return nil }
        var name = (input as NSString).lastPathComponent
        for suffix in [".pbf", ".gz", ".bz2", ".xml", ".osm"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name + ".wfg"
    }

    /// The end-of-import report: what was read, built, skipped, and what it cost.
    static func summary(_ s: ImportStatistics, input: String, output: String, fileSize: Int64, wall: Double, peak: Int64, preprocessing: [(name: String, seconds: Double)] = []) -> String {
        var lines: [String] = []
        lines.append("Imported \(input == "-" ? "standard input" : input) → \(output)")
        lines.append("  read          \(Format.count(s.nodesRead)) nodes, \(Format.count(s.waysRead)) ways, \(Format.count(s.relationsRead)) relations")
        var skipped = "\(Format.count(s.waysNotRoads)) not roads, \(Format.count(s.waysUnroutable)) unroutable"
        if s.waysDuplicate > 0 { skipped += ", \(Format.count(s.waysDuplicate)) duplicate ids" }
        if s.waysWithoutGeometry > 0 { skipped += ", \(Format.count(s.waysWithoutGeometry)) with fewer than 2 nodes present" }
        lines.append("  ways skipped  \(skipped)")
        lines.append("  missing nodes \(Format.count(s.waysWithMissingNodes)) ways lost \(Format.count(s.segmentsDropped)) segments to nodes absent from the extract")
        if s.repeatedSegmentsMerged > 0 {
            lines.append("  repeated      \(Format.count(s.repeatedSegmentsMerged)) segments a way ran along again in the same direction, kept once")
        }
        if s.nodesDuplicate > 0 { lines.append("  nodes skipped \(Format.count(s.nodesDuplicate)) duplicate ids") }
        lines.append("  tag values    \(Format.count(s.maxspeedIgnored)) maxspeed and \(Format.count(s.onewayIgnored)) oneway values not understood (profile default used)")
        let why = s.restrictionSkips.map { "\(Format.count($0.missingMember)) with a member missing from the file, \(Format.count($0.disconnected)) whose ways no longer meet, \(Format.count($0.malformed)) malformed" } ?? "members missing or not connected, unknown value"
        lines.append("  restrictions  \(Format.count(s.restrictionsSkipped)) skipped (\(why)), \(Format.count(s.restrictionsExempt)) exempting the mode")
        for p in s.profiles {
            var line = "  \(p.name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(Format.count(p.nodes)) nodes, \(Format.count(p.edges)) edges (\(Format.count(p.directedEdges)) directed), "
            line += String(format: "%.1f km of road", p.kilometres)
            if p.restrictionsViaNode + p.restrictionsViaWay > 0 || p.name == "car" {
                line += ", \(Format.count(p.restrictionsViaNode)) via-node and \(Format.count(p.restrictionsViaWay)) via-way restrictions"
            }
            lines.append(line)
        }
        lines.append("  graph         \(Format.count(s.graphNodes)) nodes, \(Format.count(s.graphEdges)) edges, \(Format.count(s.shapePoints)) shape points")
        let directed = s.profiles.reduce(0) { $0 + $1.directedEdges }
        let perEdge = directed > 0 ? String(format: " (%.1f bytes per directed edge)", Double(fileSize) / Double(directed)) : ""
        lines.append("  file          \(Format.bytes(fileSize))\(perEdge)")
        var time = "  time          " + String(format: "%.2f s", wall)
        if !preprocessing.isEmpty {
            time += " (of which preprocessing " + preprocessing.map { String(format: "%.2f s %@", $0.seconds, $0.name) }.joined(separator: ", ") + ")"
        }
        lines.append(time + ", peak memory \(Format.bytes(peak))")
        return lines.joined(separator: "\n")
    }
}

/// The time spent in each build phase of an import, as the progress reports them.
final class PhaseClock: @unchecked Sendable {
    private(set) var durations: [(name: String, seconds: Double)] = []
    private var open: (name: String, started: Date)?

    /// Ends the phase in progress and starts `name` (nil: none).
    func start(_ name: String?) {
        let now = Date()
        if let open { durations.append((open.name, now.timeIntervalSince(open.started))) }
        open = name.map { ($0, now) }
    }
}
