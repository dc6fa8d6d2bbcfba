import Foundation
import Graph
import Routing
import Transit

/// `wayfinder info GRAPH`: header, sections, counts, bounding box and profiles of a graph file.
enum InfoCommand {
    static let usage = """
    usage: wayfinder info GRAPH.wfg [--no-verify]

    Prints a graph file's header, sections, counts, bounding box and profiles.

      GRAPH.wfg     the graph file (from wayfinder import)
      --no-verify   skip reading every section to check its CRC-32 (header checks still run)
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: [], switches: ["--no-verify", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard args.positionals.count == 1 else { throw CommandError.usage("info takes one graph file\n\n\(usage)") }
        let graph: RoadGraph
        do {
            let file = try GraphFile(path: args.positionals[0])
            // Checksums first (unless --no-verify), then the structural checks every open runs.
            graph = try RoadGraph(file: file, verifyingChecksums: !args.has("--no-verify"))
            // The hierarchies and the timetable get the checks a route or a server would run on them.
            for profile in graph.profiles {
                guard let ch = try ContractionHierarchy(graph: graph, profile: profile.profile.name) else { continue }
                try ch.validate(against: HierarchyStates(space: SearchGraph(graph: graph, profile: profile)), path: file.path, profile: profile.profile.name)
            }
            if Timetable.isPresent(in: file) { _ = try Timetable(file: file) }
        } catch {
            throw CommandError(message: error.description, exitCode: ExitCode.badInput)
        }
        print(report(graph, verified: !args.has("--no-verify")))
    }

    static func report(_ graph: RoadGraph, verified: Bool) -> String {
        let file = graph.file, meta = graph.metadata, s = meta.statistics
        var lines: [String] = []
        lines.append("\(file.path)")
        lines.append("  format        Wayfinder graph, version \(file.version), \(Format.bytes(Int64(file.size))) (\(Format.count(file.size)) bytes), little-endian")
        lines.append("  written by    \(meta.generator)")
        lines.append("  checksums     " + (verified ? "all \(file.sections.count) sections match their CRC-32" : "not verified (--no-verify)"))
        lines.append("  graph         \(Format.count(graph.nodeCount)) nodes, \(Format.count(graph.edgeCount)) edges, \(Format.count(graph.shapeLatitudes.count)) shape points, \(Format.count(graph.wayOSMIDs.count)) ways, \(Format.count(graph.stringStart.count - 1)) strings")
        lines.append("  bounding box  \(Format.degrees(s.minLatitude)),\(Format.degrees(s.minLongitude)) – \(Format.degrees(s.maxLatitude)),\(Format.degrees(s.maxLongitude)) (lat,lon)")
        lines.append("  source        \(Format.count(s.nodesRead)) nodes, \(Format.count(s.waysRead)) ways, \(Format.count(s.relationsRead)) relations read")
        lines.append("  profiles      \(graph.profiles.map(\.profile.name).joined(separator: ", "))")
        for (p, profile) in graph.profiles.enumerated() {
            let figures = p < s.profiles.count ? s.profiles[p] : ImportStatistics.ProfileFigures(name: profile.profile.name)
            lines.append("    \(profile.profile.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(Format.count(figures.nodes)) nodes, \(Format.count(figures.edges)) edges (\(Format.count(figures.directedEdges)) directed), " + String(format: "%.1f km", figures.kilometres) + ", \(Format.count(profile.restrictionCount)) restriction paths")
        }
        lines.append("  spatial index \(Format.count(graph.spatialIndex.items.count)) items (runs of up to \(SpatialIndexData.segmentsPerItem) segments), \(graph.spatialIndex.levelCount) levels")
        let landmarks = graph.profiles.map { "\($0.profile.name) \($0.landmarkCount)" }.joined(separator: ", ")
        lines.append("  landmarks     \(landmarks)" + (graph.profiles.allSatisfy { $0.landmarkCount == 0 } ? " (imported with --no-landmarks: searches use the great-circle bound only)" : ""))
        var hierarchies: [String] = []
        for profile in graph.profiles {
            let name = profile.profile.name
            guard let ch = try? ContractionHierarchy(graph: graph, profile: name) else { continue }
            let shortcuts = (0..<ch.up.count).reduce(0) { $0 + (ch.up[$1].isShortcut ? 1 : 0) } + (0..<ch.down.count).reduce(0) { $0 + (ch.down[$1].isShortcut ? 1 : 0) }
            hierarchies.append("\(name) \(Format.count(ch.vertexCount)) vertices, \(Format.count(ch.arcCount)) arcs (\(Format.count(shortcuts)) shortcuts)")
        }
        lines.append("  hierarchies   " + (hierarchies.isEmpty ? "none (imported with --no-ch: routes use A*, matrices one search per source)" : hierarchies.joined(separator: "; ")))
        if let timetable = try? Timetable(file: file) { lines += TransitReport.lines(timetable.metadata, timetable: timetable) }
        lines.append("  sections")
        lines.append("    " + "name".padding(toLength: 18, withPad: " ", startingAt: 0) + "offset".leftPadded(12) + "bytes".leftPadded(14) + "elements".leftPadded(12) + "  crc32")
        for section in file.sections {
            lines.append("    " + section.name.padding(toLength: 18, withPad: " ", startingAt: 0)
                         + Format.count(section.offset).leftPadded(12) + Format.count(section.length).leftPadded(14)
                         + Format.count(section.length / max(1, section.elementSize)).leftPadded(12)
                         + "  " + String(format: "%08x", section.crc32))
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
