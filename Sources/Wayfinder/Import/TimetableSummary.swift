import Transit

/// The figures of a timetable in a graph file: what the import summary and `wayfinder info` show.
public struct TimetableSummary: Sendable, Equatable {
    /// One kind of row or trip left out, how many, and a few examples.
    public struct Skipped: Sendable, Equatable {
        public let reason: String
        public let count: Int
        public let examples: [String]
    }

    /// The feeds, as given to the import.
    public let feeds: [String]
    /// An agency: its name and time zone.
    public struct Agency: Sendable, Equatable {
        public let name: String
        public let timeZone: String
    }

    /// The feeds' agencies.
    public let agencies: [Agency]
    public let stops: Int
    /// Stops farther than 1000 m from a walkable road.
    public let stopsOffNetwork: Int
    public let routes: Int
    /// Stop patterns (trips with the same stops).
    public let patterns: Int
    /// Trips read from the feeds, and runs (frequencies expanded) kept.
    public let tripsRead: Int
    public let runs: Int
    public let stopTimes: Int
    public let transfers: Int
    /// Longest walking transfer, metres.
    public let transferWalkLimit: Double
    /// First and last service day, ISO 8601 (YYYY-MM-DD).
    public let firstDay: String
    public let lastDay: String
    public let skipped: [Skipped]

    /// The figures of `timetable`.
    public init(_ timetable: Timetable) {
        let meta = timetable.metadata
        feeds = meta.feeds
        agencies = meta.agencies.map { Agency(name: $0.name, timeZone: $0.timeZone) }
        stops = timetable.stopCount
        stopsOffNetwork = meta.stopsOffNetwork
        routes = meta.routes.count
        patterns = timetable.patternCount
        tripsRead = meta.tripsRead
        runs = timetable.tripCount
        stopTimes = timetable.arrivals.count
        transfers = timetable.transferTo.count
        transferWalkLimit = meta.transferWalkLimit
        firstDay = ServiceDay.iso(meta.firstDay)
        lastDay = ServiceDay.iso(meta.lastDay)
        skipped = meta.skipped.map { Skipped(reason: $0.reason, count: $0.count, examples: $0.examples) }
    }
}
