/// The small, descriptive part of a timetable, stored as JSON in the `transit.meta` section: feeds, agencies,
/// routes, stop names, headsigns, service calendars and the import's report.
public struct TransitMetadata: Codable, Equatable, Sendable {
    /// One transit agency (agency.txt row).
    public struct Agency: Codable, Equatable, Sendable {
        public var name: String
        public var url: String
        /// IANA time zone of its stop times.
        public var timeZone: String
        /// Index of the feed it came from.
        public var feed: Int
    }

    /// One line (routes.txt row).
    public struct Route: Codable, Equatable, Sendable {
        public var id: String
        public var agency: Int
        public var shortName: String
        public var longName: String
        /// GTFS route_type (0 tram, 1 subway, 2 rail, 3 bus, …; extended types kept as given).
        public var type: Int
        public var color: String
    }

    /// A service calendar: the days it runs, as a run of "0"/"1" from `firstDay` (a day number).
    public struct Service: Codable, Equatable, Sendable {
        public var id: String
        public var firstDay: Int
        public var days: String
        /// Whether the service runs on day number `day`.
        public func runs(on day: Int) -> Bool {
            let i = day - firstDay
            guard i >= 0, i < days.utf8.count else { return false }
            return days.utf8[days.utf8.index(days.utf8.startIndex, offsetBy: i)] == UInt8(ascii: "1")
        }
    }

    /// Rows skipped for one reason, with a few examples naming file and line.
    public struct Skipped: Codable, Equatable, Sendable {
        public var reason: String
        public var count: Int
        public var examples: [String]
    }

    public var feeds: [String] = []
    public var agencies: [Agency] = []
    public var routes: [Route] = []
    public var stopIDs: [String] = []
    public var stopNames: [String] = []
    public var headsigns: [String] = []
    public var services: [Service] = []
    /// First and last day number on which any trip runs.
    public var firstDay: Int = 0
    public var lastDay: Int = -1
    /// Number of trips read (before frequencies are expanded) and of stop times kept.
    public var tripsRead: Int = 0
    public var stopTimesRead: Int = 0
    /// Walking transfers were searched up to this many metres.
    public var transferWalkLimit: Double = 500
    /// Stops farther than the snapping limit from any walkable road (no walking to or from them).
    public var stopsOffNetwork: Int = 0
    public var skipped: [Skipped] = []

    /// Empty metadata (filled while reading the feeds).
    public init() {}
}
