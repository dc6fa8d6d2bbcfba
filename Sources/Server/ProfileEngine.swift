import Foundation
import Wayfinder

/// One served profile of the map: its transport type and OSRM's names for it. The map's router does the work.
public struct ProfileEngine: Sendable {
    public let map: OfflineMap
    public let transportType: TransportType
    /// The graph profile's name ("car", "foot").
    public var name: String { transportType.profileName }
    /// OSRM's mode name for steps ("driving", "walking").
    public var mode: String { transportType == .automobile ? "driving" : "walking" }

    /// The profile `transportType` of `map`, its router built now (so a damaged hierarchy is reported at start).
    public init(map: OfflineMap, transportType: TransportType) throws(DirectionsError) {
        self.map = map
        self.transportType = transportType
        try map.prepare([transportType])
    }

    /// Snaps each coordinate once, within its radius (its nearest road; off a small island, should a leg need it,
    /// only within the radius too); `NoSegment` names the first one too far from a usable road.
    public func snap(_ coordinates: [Coordinate], radiuses: [Double]?, defaultRadius: Double) throws(OSRMError) -> [SnappedPlace] {
        do {
            return try map.snap(coordinates, transportType: transportType, maximumDistance: defaultRadius, radii: radiuses, role: .coordinate)
        } catch { throw OSRMError(error) }
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

    /// The OSRM error for a failed request of the Swift API.
    init(_ error: DirectionsError) {
        switch error {
        case let .routing(routing): self.init(routing)
        case let .transit(transit): self.init(transit: transit)
        case .conflictingDates, .unsupported: self = .invalidOptions(error.description)
        case .cancelled: self = .timedOut(error.description)
        }
    }
}
