import Foundation
import Wayfinder

/// One job of a batch file: an id, a travel mode, an optional departure or arrival, and two or more stops.
public struct BatchJob: Equatable, Sendable {
    /// The job's id, as given in the input (unique per file, used by `--resume` and `--shard`).
    public var id: String
    /// "car", "foot" or "transit" (nil: the batch's default mode).
    public var mode: String?
    /// When to leave, or when to arrive (at most one of them).
    public var depart: Date?
    public var arrive: Date?
    /// The stops, in order.
    public var stops: [Coordinate]
    /// The input line the job came from (1-based), for error messages.
    public var line: Int
    /// Every stop as resolved, when any was given as a place name of the map (empty otherwise): rows say which
    /// place each name was taken to be.
    public var places: [ResolvedStop] = []

    public init(id: String, mode: String? = nil, depart: Date? = nil, arrive: Date? = nil, stops: [Coordinate], line: Int) {
        self.id = id; self.mode = mode; self.depart = depart; self.arrive = arrive; self.stops = stops; self.line = line
    }
}

/// What one job of a job file may hold, so that a hostile or broken file cannot make one row cost unbounded memory
/// or time (the job of 100,000 stops took 1.7 GB and 39 s; a 30 MB place name 650 MB). A row beyond a limit
/// fails alone (`bad_row`, naming the limit to raise: `batch --max-stops`, `--max-name-bytes`).
public struct BatchLimits: Sendable, Equatable {
    /// Most stops of one job. The default, 500, is what OSRM's route service and `serve` take per request.
    public var maxStops = 500
    /// Longest job id or place name (a stop given by name), bytes of UTF-8. The default, 1,024, holds the longest
    /// place names in use (Bangkok's ceremonial name is about 500 bytes in Thai script).
    public var maxNameBytes = 1024

    public static let stopsRange = 2...100_000
    public static let nameBytesRange = 16...(1 << 20)

    /// Longest line (or multi-line CSV record) of a job file, bytes: room for `maxStops` stops of
    /// `maxNameBytes` each, and 64 KiB for the other fields. Longer lines are not read into memory.
    public var maxRowBytes: Int { 65_536 + maxStops * (maxNameBytes + 2) }

    /// The defaults above unless given.
    public init(maxStops: Int = 500, maxNameBytes: Int = 1024) {
        self.maxStops = maxStops
        self.maxNameBytes = maxNameBytes
    }

    /// The largest limits the options take (for readers that only need ids, such as `merge`).
    public static let largest = BatchLimits(maxStops: stopsRange.upperBound, maxNameBytes: nameBytesRange.upperBound)
}
