import Foundation
import Graph
import Routing

/// A coordinate matched to the road network of one transport type, ready to route from: snap once
/// (`OfflineMap.snap`), then hand the places to directions, matrices and trips without snapping again.
public struct SnappedPlace: Equatable, Sendable {
    /// The snapping itself (nearest road, and where the place moves off a small island should a leg need it).
    let stop: SnappedStop
    /// The transport type whose roads the place was matched to.
    public let transportType: TransportType

    init(_ stop: SnappedStop, transportType: TransportType) { self.stop = stop; self.transportType = transportType }

    /// The coordinate as asked.
    public var query: Coordinate { stop.nearest.query }
    /// The point on the road it snapped to.
    public var location: Coordinate { stop.nearest.location }
    /// Metres from `query` to `location`.
    public var distance: Double { stop.nearest.distance }
    /// The road's name, or its ref when unnamed ("" when neither).
    public var name: String { stop.nearest.name.isEmpty ? stop.nearest.ref : stop.nearest.name }
    /// The place as a route's waypoint.
    public var waypoint: Waypoint { Waypoint(query: query, location: location, snappingDistance: distance, name: name) }
}

/// What a batch of places is, for error messages ("stop 2", "source 3", "coordinate 1").
public enum PlaceRole: String, Sendable {
    case stop, source, destination, coordinate
}

extension OfflineMap {
    /// Snaps each coordinate for `transportType` within its own radius (`radii[i]`, metres, or `maximumDistance` when
    /// `radii` is nil or shorter); throws naming the first coordinate that is invalid or too far from a usable road.
    public func snap(_ coordinates: [Coordinate], transportType: TransportType = .automobile, maximumDistance: Double = 1000,
                     radii: [Double]? = nil, role: PlaceRole = .stop) throws(DirectionsError) -> [SnappedPlace] {
        if transportType == .transit {
            throw .unsupported("places are snapped for a road transport type (.automobile or .walking); transit snaps on foot itself")
        }
        let router = try router(for: transportType)
        var result: [SnappedPlace] = []
        result.reserveCapacity(coordinates.count)
        for (i, c) in coordinates.enumerated() {
            guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= 180 else {
                throw .routing(.invalidCoordinate(stop: i, c))
            }
            let radius = radii.flatMap { i < $0.count ? $0[i] : nil } ?? maximumDistance
            guard let stop = snapStop(c, router: router, maximumDistance: radius) else {
                if role == .stop {
                    throw .routing(.noRoad(stop: i, coordinate: c, profile: transportType.profileName, maxDistance: radius))
                }
                throw .routing(.noRoadNear(role: role.rawValue, index: i, coordinate: c, profile: transportType.profileName, maxDistance: radius))
            }
            result.append(SnappedPlace(stop, transportType: transportType))
        }
        return result
    }

    /// Snaps one coordinate for `transportType`; nil when it is invalid or no usable road lies within `maximumDistance` metres.
    public func snap(_ coordinate: Coordinate, transportType: TransportType = .automobile, maximumDistance: Double = 1000) throws(DirectionsError) -> SnappedPlace? {
        if transportType == .transit { throw .unsupported("places are snapped for a road transport type (.automobile or .walking)") }
        let router = try router(for: transportType)
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite, abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180 else { return nil }
        return snapStop(coordinate, router: router, maximumDistance: maximumDistance).map { SnappedPlace($0, transportType: transportType) }
    }

    /// The snapped stops of `places`, refused when one was snapped for another transport type or on another map's roads.
    func stops(of places: [SnappedPlace], for type: TransportType) throws(DirectionsError) -> [SnappedStop] {
        for place in places where place.transportType != type {
            throw .unsupported("a place snapped for \(place.transportType.rawValue) cannot be routed by \(type.rawValue): snap it for \(type.rawValue)")
        }
        for place in places where place.stop.nearest.edge >= graph.edgeCount {
            throw .unsupported("a snapped place lies on a road this map does not have: snap it on this map")
        }
        return places.map(\.stop)
    }
}
