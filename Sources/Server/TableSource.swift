import Foundation
import Routing

/// Durations (s) and distances (m) from each source to each destination; nil where no route connects them.
public struct TravelMatrix: Sendable, Equatable {
    public var durations: [[Double?]]
    public var distances: [[Double?]]
    public init(durations: [[Double?]], distances: [[Double?]]) { self.durations = durations; self.distances = distances }
}

/// Where `/table` (and `/trip`'s ordering) get their travel times from.
///
/// REPLACE AT MERGE: this is the one function to swap for the contraction-hierarchy many-to-many matrix. For now it
/// runs one `OneToManySearch` per source (exact, the same times as `/route`), checking the deadline between sources.
public enum TableSource {
    /// The travel matrix from `sources` to `destinations` on `engine`'s profile; throws `Timeout` past the deadline.
    public static func matrix(from sources: [SearchEndpoint], to destinations: [SearchEndpoint], engine: ProfileEngine,
                              deadline: RequestDeadline) throws(OSRMError) -> TravelMatrix {
        var durations: [[Double?]] = [], distances: [[Double?]] = []
        durations.reserveCapacity(sources.count); distances.reserveCapacity(sources.count)
        for source in sources {
            try deadline.check()
            let row = engine.oneToMany.routes(from: source, to: destinations)
            durations.append(row.map { $0?.duration })
            distances.append(row.map { $0?.distance })
        }
        return TravelMatrix(durations: durations, distances: distances)
    }
}
