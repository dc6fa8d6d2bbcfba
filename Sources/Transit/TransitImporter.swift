import Foundation
import Graph

/// The timetable as an import step: reads the GTFS feeds, snaps the stops and walks the transfers on the foot graph
/// of the graph in memory, and writes the `transit.*` sections (`GraphImporter` writes them with the rest, once).
public struct TimetableExtension: GraphExtension {
    /// The feeds (GTFS .zip files or folders), read in order.
    public var feeds: [String]
    /// Longest walking transfer between stops, metres.
    public var transferWalkLimit: Double = 500
    /// What reading each feed may cost (file size, compression ratio, rows).
    public var limits = GTFSLimits()

    /// The step for `feeds`, with the default 500 m transfer walks and feed limits.
    public init(feeds: [String]) { self.feeds = feeds }

    public var phase: String { "timetable" }

    /// The timetable's sections (`TransitSectionName`).
    public func sectionNames(for graph: RoadGraph) -> [String] { TransitSectionName.ordered }

    /// Builds the timetable over `graph` (a `Timetable`); throws `TransitError`.
    public func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        try timetable(over: graph)
    }

    /// The timetable of the feeds over `graph`, transfers included.
    public func timetable(over graph: RoadGraph) throws(TransitError) -> Timetable {
        var builder = TimetableBuilder()
        var timetable: Timetable
        do { timetable = try builder.build(feeds: feeds, limits: limits) } catch { throw .feed(error) }
        guard timetable.tripCount > 0 else {
            throw .noTrips(feeds: feeds, tripsRead: timetable.metadata.tripsRead, skipped: timetable.metadata.skipped)
        }
        var transfers = try TransferBuilder(graph: graph)
        transfers.walkLimit = transferWalkLimit
        try transfers.build(&timetable, rules: builder.transferRules, maxTransfers: limits.maxRows)
        return timetable
    }
}

/// Adds GTFS timetables to an existing graph file (`wayfinder demo`, tests): the `TimetableExtension` over the opened
/// file, and a new file holding the graph's sections and the timetable's (temporary file, then rename: the target
/// is either the complete new file or untouched). An import adds the timetable in memory instead, writing once.
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
        var step = TimetableExtension(feeds: feeds)
        step.transferWalkLimit = transferWalkLimit
        step.limits = limits
        let timetable = try step.timetable(over: graph)
        do {
            let writer = try GraphFileWriter(path: output)
            try writer.appendSections(of: graph.file, except: TransitSectionName.all)
            try timetable.write(to: writer)
            try writer.finish()
        } catch { throw .graph(error) }
        return timetable
    }
}
