import Foundation
import Graph

/// Where a map's roads are: the median latitude and longitude of its graph's nodes (the centre), and the box of the
/// middle 98 % of them in each direction (the view), so that the few long ways an extract keeps whole (a motorway, a
/// ferry reaching 50 km out of a city) pull neither away from the roads, as they pull the bounding box.
struct MapCentre: Sendable, Equatable {
    /// The median latitude and the median longitude of the nodes.
    var centre: Coordinate
    /// From the 1st to the 99th percentile of the nodes' latitudes and longitudes.
    var view: BoundingBox

    /// Nodes looked at: every node of a map up to this many, else as many spread evenly over the node order.
    static let sampleLimit = 1 << 16

    /// The centre and view of `graph`'s nodes (all at 0,0 for a graph without nodes).
    /// - Complexity: O(s log s) for the s ≤ `sampleLimit` nodes sampled.
    init(_ graph: RoadGraph) {
        let count = graph.nodeCount
        guard count > 0 else {
            centre = Coordinate(latitude: 0, longitude: 0)
            view = BoundingBox(minLatitude: 0, minLongitude: 0, maxLatitude: 0, maxLongitude: 0)
            return
        }
        let stride = max(1, (count + Self.sampleLimit - 1) / Self.sampleLimit)
        var latitudes: [Int32] = [], longitudes: [Int32] = []
        latitudes.reserveCapacity(count / stride + 1); longitudes.reserveCapacity(count / stride + 1)
        var n = 0
        while n < count {
            latitudes.append(graph.nodeLatitudes[n]); longitudes.append(graph.nodeLongitudes[n])
            n += stride
        }
        latitudes.sort(); longitudes.sort()
        let last = latitudes.count - 1, low = last / 100, high = last - last / 100
        centre = Coordinate(latitudeE7: latitudes[latitudes.count / 2], longitudeE7: longitudes[longitudes.count / 2])
        view = BoundingBox(minLatitude: Geo.degrees(latitudes[low]), minLongitude: Geo.degrees(longitudes[low]),
                           maxLatitude: Geo.degrees(latitudes[high]), maxLongitude: Geo.degrees(longitudes[high]))
    }
}

extension OfflineMap {
    /// Where most of the map's roads are (`MapCentre`): the point a name is looked up near when nothing else in the
    /// request is a point. Computed once per map.
    public var centre: Coordinate { roadSpread.centre }

    /// The box most of the map's roads lie in (`MapCentre`: the middle 98 % of its nodes each way), the view a map
    /// opens on. Computed once per map.
    public var view: BoundingBox { roadSpread.view }

    /// The map's `MapCentre`, computed at the first ask.
    private var roadSpread: MapCentre { centreSlot.value { MapCentre(graph) } }
}
