import Foundation
import Graph

/// Adds GTFS timetables to a graph file: reads the feeds, snaps the stops and walks the transfers on the file's
/// foot graph, and writes a new file holding the graph's sections and the timetable's (temporary file, then
/// rename: the target is either the complete new file or untouched).
public struct TransitImporter {
    /// Longest walking transfer between stops, metres.
    public var transferWalkLimit: Double = 500

    /// What reading each feed may cost (file size, compression ratio, rows).
    public var limits = GTFSLimits()

    /// An importer with the default 500 m transfer walks and feed limits.
    public init() {}

    /// Reads `feeds`, builds the timetable over the graph at `graphPath` and writes graph + timetable to `output`
    /// (which may be `graphPath` itself). Returns the timetable written.
    @discardableResult
    public func run(feeds: [String], graphPath: String, output: String) throws(TransitError) -> Timetable {
        let graph: RoadGraph
        do { graph = try RoadGraph(path: graphPath) } catch { throw .graph(error) }
        var builder = TimetableBuilder()
        var timetable: Timetable
        do { timetable = try builder.build(feeds: feeds, limits: limits) } catch { throw .feed(error) }
        guard timetable.tripCount > 0 else {
            throw .noTrips(feeds: feeds, tripsRead: timetable.metadata.tripsRead, skipped: timetable.metadata.skipped)
        }
        var transfers = try TransferBuilder(graph: graph)
        transfers.walkLimit = transferWalkLimit
        transfers.build(&timetable, rules: builder.transferRules)
        do {
            let writer = try GraphFileWriter(path: output)
            try writer.appendSections(of: graph.file, except: TransitSectionName.all)
            try timetable.write(to: writer)
            try writer.finish()
        } catch { throw .graph(error) }
        return timetable
    }
}
