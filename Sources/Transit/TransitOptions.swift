import Foundation

/// The limits of a transit query (docs/transit.md's defaults).
public struct TransitOptions: Sendable, Equatable {
    /// Most transfers between rides (rides − 1); the model allows up to 6.
    public var maxTransfers: Int = 6
    /// Longest access or egress walk, and longest transfer walk (transfers are stored up to 500 m), metres.
    public var maxWalk: Double = 1000
    /// Farthest the origin or destination may lie from a walkable road, metres.
    public var maxSnappingDistance: Double = 1000
    /// When set, a query still searching at this moment stops and throws `TransitError.timedOut`.
    public var deadline: Date? = nil

    /// The largest `maxWalk` the command line and the server accept, metres.
    public static let maximumWalk: Double = 10_000

    /// The defaults of docs/transit.md unless given.
    public init(maxTransfers: Int = 6, maxWalk: Double = 1000, maxSnappingDistance: Double = 1000) {
        self.maxTransfers = maxTransfers; self.maxWalk = maxWalk; self.maxSnappingDistance = maxSnappingDistance
    }
}
