/// A packed Hilbert R-tree over every edge segment (two consecutive points of an edge's polyline).
///
/// Segment ids: edge e's segments are `edgeShapeStart[e] + e ..< edgeShapeStart[e + 1] + e + 1`.
/// Level 0 boxes cover `nodeSize` consecutive items each; each higher level covers `nodeSize` boxes below.
public struct SpatialIndexData: Sendable {
    /// Entries per tree node.
    public static let nodeSize = 16
    /// Segment ids in Hilbert order of their midpoints.
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
        let segmentCount = graph.shapeLatitudes.count + edgeCount
        var keys = [UInt64](repeating: 0, count: segmentCount)
        var segmentBoxes = [Int32](repeating: 0, count: segmentCount * 4)
        for e in 0..<edgeCount {
            let first = Int(graph.edgeShapeStart[e]), last = Int(graph.edgeShapeStart[e + 1])
            var lat = graph.nodeLatitudes[Int(graph.edgeFrom[e])], lon = graph.nodeLongitudes[Int(graph.edgeFrom[e])]
            for k in first...last {
                let nextLat = k < last ? graph.shapeLatitudes[k] : graph.nodeLatitudes[Int(graph.edgeTo[e])]
                let nextLon = k < last ? graph.shapeLongitudes[k] : graph.nodeLongitudes[Int(graph.edgeTo[e])]
                let s = k + e
                segmentBoxes[4 * s] = min(lat, nextLat); segmentBoxes[4 * s + 1] = min(lon, nextLon)
                segmentBoxes[4 * s + 2] = max(lat, nextLat); segmentBoxes[4 * s + 3] = max(lon, nextLon)
                keys[s] = Geo.hilbertIndex(lat: Int32((Int64(lat) + Int64(nextLat)) / 2), lon: Int32((Int64(lon) + Int64(nextLon)) / 2))
                lat = nextLat; lon = nextLon
            }
        }
        var order = [UInt32](0..<UInt32(segmentCount))
        order.sort { a, b in keys[Int(a)] != keys[Int(b)] ? keys[Int(a)] < keys[Int(b)] : a < b }
        index.items = order
        keys = []

        // Leaves over items, then levels over boxes until one root remains.
        let n = SpatialIndexData.nodeSize
        var boxes: [Int32] = []
        var levelStart: [UInt32] = [0]
        var childCount = segmentCount
        func childBox(_ level: Int, _ i: Int) -> (Int32, Int32, Int32, Int32) {
            if level == 0 {
                let s = Int(order[i])
                return (segmentBoxes[4 * s], segmentBoxes[4 * s + 1], segmentBoxes[4 * s + 2], segmentBoxes[4 * s + 3])
            }
            let b = Int(levelStart[level - 1]) + i
            return (boxes[4 * b], boxes[4 * b + 1], boxes[4 * b + 2], boxes[4 * b + 3])
        }
        var level = 0
        while childCount > 0 {
            let parents = (childCount + n - 1) / n
            for parent in 0..<parents {
                var box = (Int32.max, Int32.max, Int32.min, Int32.min)
                for child in (parent * n)..<min(childCount, parent * n + n) {
                    let c = childBox(level, child)
                    box = (min(box.0, c.0), min(box.1, c.1), max(box.2, c.2), max(box.3, c.3))
                }
                boxes += [box.0, box.1, box.2, box.3]
            }
            levelStart.append(UInt32(boxes.count / 4))
            level += 1
            if parents == 1 { break }
            childCount = parents
        }
        index.boxes = boxes
        index.levelStart = levelStart
        return index
    }
}
