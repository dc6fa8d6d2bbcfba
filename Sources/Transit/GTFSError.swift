/// Why a GTFS feed could not be read: the feed, file, line and column at fault, in words a user can act on.
public enum GTFSError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, message: String)
    case badZip(path: String, message: String)
    case missingFile(feed: String, file: String)
    case missingColumn(feed: String, file: String, column: String)
    case malformedCSV(feed: String, file: String, line: Int, message: String)
    case unknownTimeZone(feed: String, file: String, line: Int, zone: String)
    case noService(feed: String)
    /// A file of the feed goes beyond one of `GTFSLimits` (its size, compression ratio, rows or columns).
    case limitExceeded(feed: String, file: String, message: String)

    public var description: String {
        switch self {
        case let .cannotRead(path, message): return "cannot read GTFS feed \(path): \(message)"
        case let .badZip(path, message): return "GTFS feed \(path) is not a readable zip: \(message)"
        case let .missingFile(feed, file): return "GTFS feed \(feed) has no \(file) (a required file)"
        case let .missingColumn(feed, file, column): return "GTFS feed \(feed): \(file) has no column '\(column)' (a required column)"
        case let .malformedCSV(feed, file, line, message): return "GTFS feed \(feed): \(file) line \(line): \(message)"
        case let .unknownTimeZone(feed, file, line, zone):
            return "GTFS feed \(feed): \(file) line \(line): agency_timezone '\(zone)' is not a time zone of the system's tzdata"
        case let .noService(feed): return "GTFS feed \(feed) has neither calendar.txt nor calendar_dates.txt (one is required)"
        case let .limitExceeded(feed, file, message): return "GTFS feed \(feed): \(file): \(message)"
        }
    }
}
