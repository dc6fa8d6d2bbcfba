import Foundation
import Graph

/// The middle of a map's roads: the median latitude and the median longitude of its graph's nodes, so that the few
/// long ways an extract keeps whole (a motorway, a ferry reaching 50 km out of a city) do not pull it away from
/// where the roads are, as the middle of the bounding box would.
enum MapCentre {
    /// Nodes looked at: every node of a map up to this many, else as many spread evenly over the node order.
    static let sampleLimit = 1 << 16

    /// The centre of `graph`'s nodes (0,0 for a graph without nodes).
    /// - Complexity: O(s log s) for the s ≤ `sampleLimit` nodes sampled.
    static func of(_ graph: RoadGraph) -> Coordinate {
        let count = graph.nodeCount
        guard count > 0 else { return Coordinate(latitude: 0, longitude: 0) }
        let stride = max(1, (count + sampleLimit - 1) / sampleLimit)
        var latitudes: [Int32] = [], longitudes: [Int32] = []
        latitudes.reserveCapacity(count / stride + 1); longitudes.reserveCapacity(count / stride + 1)
        var n = 0
        while n < count {
            latitudes.append(graph.nodeLatitudes[n]); longitudes.append(graph.nodeLongitudes[n])
            n += stride
        }
        latitudes.sort(); longitudes.sort()
        let middle = latitudes.count / 2
        return Coordinate(latitudeE7: latitudes[middle], longitudeE7: longitudes[middle])
    }
}

extension OfflineMap {
    /// Where most of the map's roads are (`MapCentre`): the point a name is looked up near when nothing else in the
    /// request is a point. Computed once per map.
    public var centre: Coordinate { centreSlot.value { MapCentre.of(graph) } }
}
