import Graph

/// Why a timetable could not be imported or a transit query answered, with the limits or range at fault.
public enum TransitError: Error, Equatable, CustomStringConvertible {
    case feed(GTFSError)
    case graph(GraphFileError)
    case noFootProfile(path: String)
    case noTimetable(path: String)
    /// No trip of the feeds can be used: how many trips.txt rows were read, and what was skipped and why.
    case noTrips(feeds: [String], tripsRead: Int, skipped: [TransitMetadata.Skipped])
    case dateOutsideFeed(date: String, first: String, last: String)
    case tooFewStops(Int)
    case invalidCoordinate(stop: Int)
    case noRoad(stop: Int, maxDistance: Double)
    case noTransitRoute(leg: Int, maxTransfers: Int, maxWalk: Double)
    /// The query ran past `TransitOptions.deadline`.
    case timedOut
    /// A departure window that is not 0 to 24 hours long.
    case invalidDepartureWindow(seconds: Double)

    public var description: String {
        switch self {
        case let .feed(error): return error.description
        case let .graph(error): return "\(error)"
        case let .noFootProfile(path): return "\(path) has no foot profile: transit needs walking for access, egress and transfers"
        case let .noTimetable(path): return "\(path) holds no timetable: import it with --gtfs FEED.zip"
        case let .noTrips(feeds, tripsRead, skipped):
            var text = "the GTFS feed\(feeds.count == 1 ? "" : "s") \(feeds.joined(separator: ", ")) hold\(feeds.count == 1 ? "s" : "") no usable trip: "
            text += tripsRead == 0 ? "trips.txt gives no trip of a known route and service" : "\(tripsRead) trip\(tripsRead == 1 ? "" : "s") read, none with two or more usable stop times"
            if skipped.isEmpty { return text }
            return text + "; skipped: " + skipped.map { "\($0.count) × \($0.reason) (e.g. \($0.examples.joined(separator: "; ")))" }.joined(separator: "; ")
        case let .dateOutsideFeed(date, first, last):
            return "the query date \(date) lies outside the feed's service range \(first) to \(last)"
        case let .tooFewStops(n): return "a route needs at least two stops, got \(n)"
        case let .invalidCoordinate(stop): return "stop \(stop + 1) is not a valid coordinate"
        case let .noRoad(stop, maxDistance): return "stop \(stop + 1) is more than \(Int(maxDistance)) m from any road the foot profile may use"
        case let .noTransitRoute(leg, maxTransfers, maxWalk):
            return "no transit route for leg \(leg + 1) within the limits: at most \(maxTransfers) transfers, walks of at most \(Int(maxWalk)) m to and from stops (and no walking route either)"
        case .timedOut: return "the transit query ran past its time limit"
        case let .invalidDepartureWindow(seconds):
            return "a departure window must be 0 to 24 hours long (0s to 86400s), got \(seconds) s"
        }
    }
}
