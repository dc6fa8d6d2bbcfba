import Foundation
import Graph
import Routing
import Transit

/// Travel times and distances from every source to every destination ("which of these 200 places is nearest by
/// road"), many-to-many over the graph's contraction hierarchy.
public struct MatrixRequest: Sendable {
    /// When the road searches give up (see `DirectionsRequest.deadline`). Default: never.
    public var deadline: SearchDeadline = .none
    public var sources: [ETAPlace]
    public var destinations: [ETAPlace]
    public var transportType: TransportType
    /// Farthest a place may lie from a road the mode may use, metres.
    public var maximumSnappingDistance: Double
    /// Most sources and destinations accepted (each side); larger requests are refused before any work.
    public var maximumSize: Int
    /// When to leave: required by transit (travel times depend on it), unused by road modes.
    public var departureDate: Date? = nil
    /// Limits of a transit request (most transfers, longest walk to and from stops).
    public var transitOptions = TransitOptions()

    public init(sources: [ETAPlace], destinations: [ETAPlace], transportType: TransportType = .automobile,
                maximumSnappingDistance: Double = 1000, maximumSize: Int = 10_000) {
        self.sources = sources; self.destinations = destinations; self.transportType = transportType
        self.maximumSnappingDistance = maximumSnappingDistance; self.maximumSize = maximumSize
    }
}

/// The answer to a matrix request: the places as given and as snapped, and the matrix (nil: no route).
public struct MatrixResponse: Sendable {
    public var sources: [ETAPlace]
    public var destinations: [ETAPlace]
    public var snappedSources: [Waypoint]
    public var snappedDestinations: [Waypoint]
    public var matrix: DistanceMatrix
    public var mode: String
}

/// Computes a matrix request on an offline map. Safe to use from many threads.
public struct Matrix: Sendable {
    public let request: MatrixRequest
    public let map: OfflineMap

    public init(_ request: MatrixRequest, map: OfflineMap) { self.request = request; self.map = map }

    /// The matrix; throws when a place is too far from a road, or the request is larger than its limit.
    public func calculate() throws(DirectionsError) -> MatrixResponse { try compute(Cancellation.never.with(request.deadline)) }

    /// The matrix; throws `.cancelled` when the task is cancelled (checked between blocks of sources).
    public func calculate() async throws(DirectionsError) -> MatrixResponse { try compute(Cancellation.task.with(request.deadline)) }

    func compute(_ cancel: Cancellation) throws(DirectionsError) -> MatrixResponse {
        let limit = request.maximumSize
        if request.sources.count > limit || request.destinations.count > limit {
            throw .routing(.tooBig("a matrix of \(request.sources.count) × \(request.destinations.count) places is larger than the limit of \(limit) × \(limit)"))
        }
        if request.transportType == .transit { return try computeTransit(cancel) }
        let type = request.transportType, radius = request.maximumSnappingDistance
        let from = try map.snap(request.sources.map(\.coordinate), transportType: type, maximumDistance: radius, role: .source)
        try cancel.check()
        let to = try map.snap(request.destinations.map(\.coordinate), transportType: type, maximumDistance: radius, role: .destination)
        let matrix = try map.matrix(from: from, to: to, cancel: cancel)
        return MatrixResponse(sources: request.sources, destinations: request.destinations, snappedSources: from.map(\.waypoint),
                              snappedDestinations: to.map(\.waypoint), matrix: matrix, mode: type.profileName)
    }
}

extension OfflineMap {
    /// Durations and distances from every snapped source to every snapped destination (nil: no route), each entry
    /// as the leg between its two places would be. All places must be snapped for one transport type.
    public func matrix(from sources: [SnappedPlace], to destinations: [SnappedPlace],
                       deadline: SearchDeadline = .none) throws(DirectionsError) -> DistanceMatrix {
        try matrix(from: sources, to: destinations, cancel: Cancellation.never.with(deadline))
    }

    /// The matrix between snapped places; throws `.cancelled` when the task is cancelled (checked between blocks of sources).
    public func matrix(from sources: [SnappedPlace], to destinations: [SnappedPlace]) async throws(DirectionsError) -> DistanceMatrix {
        try matrix(from: sources, to: destinations, cancel: Cancellation.task)
    }

    /// Sources per search when the work can be cancelled: large enough that the blocks cost little over one search.
    static let cancellableMatrixBlock = 256

    func matrix(from sources: [SnappedPlace], to destinations: [SnappedPlace], cancel: Cancellation) throws(DirectionsError) -> DistanceMatrix {
        let type = sources.first?.transportType ?? destinations.first?.transportType ?? .automobile
        let from = try stops(of: sources, for: type), to = try stops(of: destinations, for: type)
        let router = try router(for: type)
        try cancel.check()
        if cancel.canNeverCancel || from.count <= Self.cancellableMatrixBlock {
            let result: DistanceMatrix
            do { result = try router.matrix(from: from, to: to, deadline: cancel.deadline) } catch { throw .routing(error) }
            try cancel.check()
            return result
        }
        // In blocks of sources, checking for cancellation between them.
        var result = DistanceMatrix(sourceCount: from.count, destinationCount: to.count)
        var start = 0
        while start < from.count {
            let end = min(from.count, start + Self.cancellableMatrixBlock)
            let block: DistanceMatrix
            do { block = try router.matrix(from: Array(from[start..<end]), to: to, deadline: cancel.deadline) } catch { throw .routing(error) }
            for i in 0..<(end - start) {
                for j in 0..<to.count {
                    result.durations[(start + i) * to.count + j] = block.duration(i, j)
                    result.distances[(start + i) * to.count + j] = block.distance(i, j)
                }
            }
            try cancel.check()
            start = end
        }
        return result
    }
}
