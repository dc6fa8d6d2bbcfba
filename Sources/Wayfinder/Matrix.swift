import Foundation
import Graph
import Routing

/// Travel times and distances from every source to every destination ("which of these 200 places is nearest by
/// road"), many-to-many over the graph's contraction hierarchy.
public struct MatrixRequest: Sendable {
    public var sources: [ETAPlace]
    public var destinations: [ETAPlace]
    public var transportType: TransportType
    /// Farthest a place may lie from a road the mode may use, metres.
    public var maximumSnappingDistance: Double
    /// Most sources and destinations accepted (each side); larger requests are refused before any work.
    public var maximumSize: Int

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

/// Computes a matrix request on a graph. Safe to use from many threads.
public struct Matrix: Sendable {
    public let request: MatrixRequest
    public let graph: RoadGraph

    public init(_ request: MatrixRequest, graph: RoadGraph) { self.request = request; self.graph = graph }

    /// The matrix; throws when a place is too far from a road, or the request is larger than its limit.
    public func calculate() throws(DirectionsError) -> MatrixResponse {
        if request.transportType == .transit {
            throw .unsupported("a matrix by transit is not offered yet: transit times depend on the departure time; use eta --mode transit per pair")
        }
        do {
            let router = try RouterCache.shared.router(for: graph, profile: request.transportType.profileName)
            let options = MatrixOptions(maxSnappingDistance: request.maximumSnappingDistance, maxSources: request.maximumSize,
                                        maxDestinations: request.maximumSize)
            let result = try router.matrix(sources: request.sources.map(\.coordinate), destinations: request.destinations.map(\.coordinate), options: options)
            return MatrixResponse(sources: request.sources, destinations: request.destinations, snappedSources: result.sources,
                                  snappedDestinations: result.destinations, matrix: result.matrix, mode: request.transportType.profileName)
        } catch {
            throw .routing(error)
        }
    }
}
