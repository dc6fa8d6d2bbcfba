import Foundation
import Routing

/// One job of a batch file: an id, a travel mode, an optional departure or arrival, and two or more stops.
public struct BatchJob: Equatable, Sendable {
    /// The job's id, as given in the input (unique per file, used by `--resume` and `--shard`).
    public var id: String
    /// "car" or "foot" (nil: the batch's default mode).
    public var mode: String?
    /// When to leave, or when to arrive (at most one of them).
    public var depart: Date?
    public var arrive: Date?
    /// The stops, in order.
    public var stops: [Coordinate]
    /// The input line the job came from (1-based), for error messages.
    public var line: Int

    public init(id: String, mode: String? = nil, depart: Date? = nil, arrive: Date? = nil, stops: [Coordinate], line: Int) {
        self.id = id; self.mode = mode; self.depart = depart; self.arrive = arrive; self.stops = stops; self.line = line
    }
}
