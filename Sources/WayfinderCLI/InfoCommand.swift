import Foundation
import Wayfinder

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
        let report: MapFileReport
        do {
            // Checksums first (unless --no-verify), then the structural checks every open runs, and those a route or a
            // server would run on the hierarchies and the timetable.
            report = try MapFileReport(contentsOf: URL(fileURLWithPath: args.positionals[0]), verifyingChecksums: !args.has("--no-verify"))
        } catch {
            throw CommandError(message: error.description, exitCode: ExitCode.badInput)
        }
        print(lines(report).joined(separator: "\n"))
    }

    /// The printed lines of a report.
    static func lines(_ r: MapFileReport) -> [String] {
        let s = r.statistics
        var lines: [String] = []
        lines.append("\(r.path)")
        lines.append("  format        Wayfinder graph, version \(r.formatVersion), \(Format.bytes(Int64(r.fileBytes))) (\(Format.count(r.fileBytes)) bytes), little-endian")
        lines.append("  written by    \(r.generator)")
        lines.append("  checksums     " + (r.checksumsVerified ? "all \(r.sections.count) sections match their CRC-32" : "not verified (--no-verify)"))
        lines.append("  graph         \(Format.count(r.nodeCount)) nodes, \(Format.count(r.edgeCount)) edges, \(Format.count(r.shapePointCount)) shape points, \(Format.count(r.wayCount)) ways, \(Format.count(r.stringCount)) strings")
        lines.append("  bounding box  \(Format.degrees(s.minLatitude)),\(Format.degrees(s.minLongitude)) – \(Format.degrees(s.maxLatitude)),\(Format.degrees(s.maxLongitude)) (lat,lon)")
        lines.append("  source        \(Format.count(s.nodesRead)) nodes, \(Format.count(s.waysRead)) ways, \(Format.count(s.relationsRead)) relations read")
        lines.append("  profiles      \(r.profiles.map(\.figures.name).joined(separator: ", "))")
        for profile in r.profiles {
            let figures = profile.figures
            lines.append("    \(figures.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(Format.count(figures.nodes)) nodes, \(Format.count(figures.edges)) edges (\(Format.count(figures.directedEdges)) directed), " + String(format: "%.1f km", figures.kilometres) + ", \(Format.count(profile.restrictionPaths)) restriction paths")
        }
        lines.append("  spatial index \(Format.count(r.spatialIndex.items)) items (runs of up to \(r.spatialIndex.segmentsPerItem) segments), \(r.spatialIndex.levels) levels")
        let landmarks = r.profiles.map { "\($0.figures.name) \($0.landmarks)" }.joined(separator: ", ")
        lines.append("  landmarks     \(landmarks)" + (r.profiles.allSatisfy { $0.landmarks == 0 } ? " (imported with --no-landmarks: searches use the great-circle bound only)" : ""))
        let hierarchies = r.profiles.compactMap { p in
            p.hierarchy.map { "\(p.figures.name) \(Format.count($0.vertices)) vertices, \(Format.count($0.arcs)) arcs (\(Format.count($0.shortcuts)) shortcuts)" }
        }
        lines.append("  hierarchies   " + (hierarchies.isEmpty ? "none (imported with --no-ch: routes use A*, matrices one search per source)" : hierarchies.joined(separator: "; ")))
        if let timetable = r.timetable { lines += TransitReport.lines(timetable) }
        lines.append("  sections")
        lines.append("    " + "name".padding(toLength: 18, withPad: " ", startingAt: 0) + "offset".leftPadded(12) + "bytes".leftPadded(14) + "elements".leftPadded(12) + "  crc32")
        for section in r.sections {
            lines.append("    " + section.name.padding(toLength: 18, withPad: " ", startingAt: 0)
                         + Format.count(section.offset).leftPadded(12) + Format.count(section.length).leftPadded(14)
                         + Format.count(section.elementCount).leftPadded(12)
                         + "  " + String(format: "%08x", section.crc32))
        }
        return lines
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
