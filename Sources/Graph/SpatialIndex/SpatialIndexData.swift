/// A packed Hilbert R-tree over runs of edge segments (a segment joins two consecutive points of an edge's polyline).
///
/// Segment ids: edge e's segments are `edgeShapeStart[e] + e ..< edgeShapeStart[e + 1] + e + 1`.
/// An item is a run of up to `segmentsPerItem` segments of one edge, named by its first segment id; runs start
/// at multiples of `segmentsPerItem` along their edge. Level 0 boxes cover `nodeSize` consecutive items each;
/// each higher level covers `nodeSize` boxes below.
public struct SpatialIndexData: Sendable {
    /// Entries per tree node.
    public static let nodeSize = 16
    /// Segments per item at most.
    public static let segmentsPerItem = 8
    /// First segment ids of the items, in Hilbert order of their box centres.
    public var items: [UInt32] = []
    /// Boxes of all levels, leaves first: min latitude, min longitude, max latitude, max longitude (1e-7 degrees).
    public var boxes: [Int32] = []
    /// Where each level's boxes start (in boxes, not Int32s), plus the total at the end.
    public var levelStart: [UInt32] = [0]
    public init() {}
}

/// Builds the packed R-tree of `SpatialIndexData` from a graph's edges.
enum SpatialIndexBuilder {
    static func build(_ graph: GraphData) -> SpatialIndexData {
        var index = SpatialIndexData()
        let edgeCount = graph.edgeFrom.count
        let run = SpatialIndexData.segmentsPerItem
        var itemSegments: [UInt32] = []
        var keys: [UInt64] = []
        var segmentBoxes: [Int32] = []
        for e in 0..<edgeCount {
            let first = Int(graph.edgeShapeStart[e]), last = Int(graph.edgeShapeStart[e + 1])
            var lat = graph.nodeLatitudes[Int(graph.edgeFrom[e])], lon = graph.nodeLongitudes[Int(graph.edgeFrom[e])]
            var box = (Int32.max, Int32.max, Int32.min, Int32.min)
            for k in first...last {
                if (k - first) % run == 0 { box = (lat, lon, lat, lon) }
                let nextLat = k < last ? graph.shapeLatitudes[k] : graph.nodeLatitudes[Int(graph.edgeTo[e])]
                let nextLon = k < last ? graph.shapeLongitudes[k] : graph.nodeLongitudes[Int(graph.edgeTo[e])]
                box = (min(box.0, nextLat), min(box.1, nextLon), max(box.2, nextLat), max(box.3, nextLon))
                if (k - first) % run == run - 1 || k == last {
                    itemSegments.append(UInt32(first + e + (k - first) / run * run))
                    segmentBoxes += [box.0, box.1, box.2, box.3]
                    keys.append(Geo.hilbertIndex(lat: Int32((Int64(box.0) + Int64(box.2)) / 2), lon: Int32((Int64(box.1) + Int64(box.3)) / 2)))
                }
                lat = nextLat; lon = nextLon
            }
        }
        let segmentCount = itemSegments.count
        var positions = [UInt32](0..<UInt32(segmentCount))
        positions.sort { a, b in keys[Int(a)] != keys[Int(b)] ? keys[Int(a)] < keys[Int(b)] : a < b }
        index.items = positions.map { itemSegments[Int($0)] }
        let order = positions
        keys = []

        (index.boxes, index.levelStart) = PackedRTreeLevels.build(leafCount: segmentCount, nodeSize: SpatialIndexData.nodeSize) { i in
            let s = Int(order[i])
            return (segmentBoxes[4 * s], segmentBoxes[4 * s + 1], segmentBoxes[4 * s + 2], segmentBoxes[4 * s + 3])
        }
        return index
    }
}

/// The levels of a packed R-tree above its leaves: leaves grouped `nodeSize` at a time in their order, then those
/// nodes' boxes likewise, until one root remains. One builder for the file's index and a snapper's own.
enum PackedRTreeLevels {
    /// The nodes' boxes (min lat, min lon, max lat, max lon, level after level) and where each level starts, in boxes.
    /// - Complexity: O(leaves).
    static func build(leafCount: Int, nodeSize n: Int,
                      leafBox: (Int) -> (Int32, Int32, Int32, Int32)) -> (boxes: [Int32], levelStart: [UInt32]) {
        var boxes: [Int32] = [], levelStart: [UInt32] = [0]
        var childCount = leafCount, level = 0
        while childCount > 0 {
            let parents = (childCount + n - 1) / n
            boxes.reserveCapacity(boxes.count + 4 * parents)
            for parent in 0..<parents {
                var box = (Int32.max, Int32.max, Int32.min, Int32.min)
                for child in (parent * n)..<min(childCount, parent * n + n) {
                    let c: (Int32, Int32, Int32, Int32)
                    if level == 0 {
                        c = leafBox(child)
                    } else {
                        let b = 4 * (Int(levelStart[level - 1]) + child)
                        c = (boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3])
                    }
                    box = (min(box.0, c.0), min(box.1, c.1), max(box.2, c.2), max(box.3, c.3))
                }
                boxes.append(box.0); boxes.append(box.1); boxes.append(box.2); boxes.append(box.3)
            }
            levelStart.append(UInt32(boxes.count / 4))
            level += 1
            if parents == 1 { break }
            childCount = parents
        }
        return (boxes, levelStart)
    }
}
