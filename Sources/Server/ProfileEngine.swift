import Foundation
import Graph
import Wayfinder

/// One graph profile ready to serve: the router (snapping, routes, matrices over the contraction hierarchy).
/// Built once at start and shared by every worker thread.
public struct ProfileEngine: Sendable {
    /// The graph profile's name ("car", "foot").
    public let name: String
    /// OSRM's mode name for steps ("driving", "walking").
    public let mode: String
    public let router: Router

    /// Prepares profile `profile` of `graph`; throws when the graph has no such profile.
    public init(graph: RoadGraph, profile: String) throws(RoutingError) {
        name = profile
        mode = profile == "car" ? "driving" : "walking"
        router = try Router(graph: graph, profile: profile)
    }

    public var graph: RoadGraph { router.graph }

    /// Snaps each coordinate within its radius (its nearest road; off a small island, should a leg need it, only
    /// within the radius too); `NoSegment` names the first one too far from a usable road.
    public func snap(_ coordinates: [Coordinate], radiuses: [Double]?, defaultRadius: Double) throws(OSRMError) -> [SnappedStop] {
        var result: [SnappedStop] = []
        result.reserveCapacity(coordinates.count)
        for (i, c) in coordinates.enumerated() {
            let radius = radiuses?[i] ?? defaultRadius
            guard let snapped = router.snapper.snapStop(c, maxDistance: radius) else {
                throw .noSegment("coordinate \(i + 1) (\(c.longitude),\(c.latitude)) is more than \(Int(radius)) m from any road the \(name) profile may use")
            }
            result.append(snapped)
        }
        return result
    }
}

extension OSRMError {
    /// The OSRM error for a routing failure.
    init(_ error: RoutingError) {
        switch error {
        case .tooFewStops: self = .invalidQuery(error.description)
        case .invalidCoordinate: self = .invalidValue(error.description)
        case .noRoad: self = .noSegment(error.description)
        case .noRoute: self = .noRoute(error.description)
        case .unknownProfile: self = .invalidOptions(error.description)
        case .noRoadNear: self = .noSegment(error.description)
        case .tooBig: self = .tooBig(error.description)
        case .corruptGraph: self = .invalidQuery(error.description)
        case .timedOut, .cancelled: self = .timedOut(error.description)
        }
    }
}
