import Foundation
import Routing

/// Durations (s) and distances (m) from each source to each destination; nil where no route connects them.
public struct TravelMatrix: Sendable, Equatable {
    public var durations: [[Double?]]
    public var distances: [[Double?]]
    public init(durations: [[Double?]], distances: [[Double?]]) { self.durations = durations; self.distances = distances }
}

/// Where `/table` (and `/trip`'s ordering) get their travel times from: the router's many-to-many matrix
/// (bucket-based over the contraction hierarchy; one Dijkstra per source for a graph imported with `--no-ch`).
public enum TableSource {
    /// The travel matrix from `sources` to `destinations` on `engine`'s profile; throws `Timeout` past the deadline.
    /// Each entry is as the leg between its two places would be: between their nearest roads, or, when that finds no
    /// route, with each place moved off its small island.
    public static func matrix(from sources: [SnappedStop], to destinations: [SnappedStop], engine: ProfileEngine,
                              deadline: RequestDeadline) throws(OSRMError) -> TravelMatrix {
        try deadline.check()
        let matrix: DistanceMatrix
        do { matrix = try engine.router.matrix(from: sources, to: destinations, deadline: deadline.search) } catch {
            throw deadline.error(error, hint: "ask for fewer sources or destinations")
        }
        try deadline.check()
        let rows = 0..<sources.count, columns = 0..<destinations.count
        return TravelMatrix(durations: rows.map { i in columns.map { matrix.duration(i, $0) } },
                            distances: rows.map { i in columns.map { matrix.distance(i, $0) } })
    }
}
