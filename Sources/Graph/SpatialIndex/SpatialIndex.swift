import Foundation

/// The packed Hilbert R-tree of a graph file, read in place.
public struct SpatialIndex: @unchecked Sendable {
    public let items: UnsafeBufferPointer<UInt32>
    public let boxes: UnsafeBufferPointer<Int32>
    public let levelStart: UnsafeBufferPointer<UInt32>

    /// Number of levels (leaves are level 0, the root the last).
    public var levelCount: Int { max(0, levelStart.count - 1) }
}

/// A query point's nearest point on a segment of an edge.
public struct SnapCandidate: Equatable, Sendable {
    /// The edge and the segment along it (0 is from its `from` node).
    public var edge: Int
    public var segment: Int
    /// Distance from the query point, metres (local equirectangular projection).
    public var distance: Double
    /// The snapped point, degrees.
    public var latitude: Double
    public var longitude: Double
    /// Where the snapped point lies on its segment, 0 at the segment's start and 1 at its end.
    public var segmentFraction: Double
}

/// The edge each spatial-index item belongs to and the item's first segment position along it, worked out once
/// in one pass over the edges (about half a millisecond on a city), so a query looks them up instead of a binary
/// search over the edges per item.
public struct SpatialIndexItemEdges: Sendable {
    /// Edge of item i.
    public let edges: [UInt32]
    /// Position along its edge of item i's first segment.
    public let positions: [UInt32]

    /// The table for `graph`'s index (its items are checked to name segments when the file is opened).
    public init(graph: RoadGraph) {
        let segmentCount = graph.edgeCount + graph.shapeLatitudes.count
        var edgeOfSegment = [UInt32](repeating: 0, count: segmentCount)
        for e in 0..<graph.edgeCount {
            let first = Int(graph.edgeShapeStart[e]) + e, end = min(segmentCount, Int(graph.edgeShapeStart[e + 1]) + e + 1)
            if first < end { for s in first..<end { edgeOfSegment[s] = UInt32(e) } }
        }
        let items = graph.spatialIndex.items
        var edges = [UInt32](repeating: 0, count: items.count), positions = [UInt32](repeating: 0, count: items.count)
        for i in 0..<items.count {
            let segment = Int(items[i])
            // Segment ids of edge e start at edgeShapeStart[e] + e; the binary search of `edge(ofSegment:)` gives the same.
            let e = segment < segmentCount ? Int(edgeOfSegment[segment]) : graph.edge(ofSegment: items[i]).edge
            edges[i] = UInt32(e)
            positions[i] = UInt32(segment - Int(graph.edgeShapeStart[e]) - e)
        }
        self.edges = edges
        self.positions = positions
    }
}

extension RoadGraph {
    /// The `count` nearest segments to (latitude, longitude) whose edge passes `filter`, nearest first,
    /// no farther than `maxDistance` metres; found through the spatial index (best-first over the tree).
    public func nearestSegments(latitude: Double, longitude: Double, count: Int = 1, maxDistance: Double = .infinity,
                                itemEdges: SpatialIndexItemEdges? = nil, filter: (Int) -> Bool = { _ in true }) -> [SnapCandidate] {
        let index = spatialIndex
        guard index.levelCount > 0, count > 0 else { return [] }
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let cosine = cos(latitude * Double.pi / 180)
        // Local equirectangular projection centred on the query point, metres.
        @inline(__always) func project(_ lat: Int32, _ lon: Int32) -> (Double, Double) {
            ((Geo.degrees(lon) - longitude) * cosine * metresPerDegree, (Geo.degrees(lat) - latitude) * metresPerDegree)
        }
        func boxDistance(_ b: Int) -> Double {
            let (x0, y0) = project(index.boxes[4 * b], index.boxes[4 * b + 1])
            let (x1, y1) = project(index.boxes[4 * b + 2], index.boxes[4 * b + 3])
            let dx = max(x0, 0, -x1), dy = max(y0, 0, -y1)
            return (dx * dx + dy * dy).squareRoot()
        }
        var heap = BinaryHeap<Double, (level: Int, box: Int)>()
        let top = index.levelCount - 1
        for b in Int(index.levelStart[top])..<Int(index.levelStart[top + 1]) { heap.push(boxDistance(b), (top, b - Int(index.levelStart[top]))) }
        var found: [SnapCandidate] = []
        var worst = maxDistance
        let n = SpatialIndexData.nodeSize
        while let (bound, entry) = heap.pop() {
            if bound > worst { break }
            if entry.level == 0 {
                for i in (entry.box * n)..<min(index.items.count, entry.box * n + n) {
                    let (edge, firstPosition) = itemEdges.map { (Int($0.edges[i]), Int($0.positions[i])) } ?? self.edge(ofSegment: index.items[Int(i)])
                    guard filter(edge) else { continue }
                    let first = Int(edgeShapeStart[edge]), last = Int(edgeShapeStart[edge + 1])
                    for position in firstPosition..<min(firstPosition + SpatialIndexData.segmentsPerItem, last - first + 1) {
                    let a = position == 0 ? (nodeLatitudes[Int(edgeFrom[edge])], nodeLongitudes[Int(edgeFrom[edge])])
                                          : (shapeLatitudes[first + position - 1], shapeLongitudes[first + position - 1])
                    let b = first + position < last ? (shapeLatitudes[first + position], shapeLongitudes[first + position])
                                                    : (nodeLatitudes[Int(edgeTo[edge])], nodeLongitudes[Int(edgeTo[edge])])
                    let (ax, ay) = project(a.0, a.1), (bx, by) = project(b.0, b.1)
                    let dx = bx - ax, dy = by - ay
                    let lengthSquared = dx * dx + dy * dy
                    let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
                    let px = ax + t * dx, py = ay + t * dy
                    let distance = (px * px + py * py).squareRoot()
                    guard distance <= worst else { continue }
                    let candidate = SnapCandidate(
                        edge: edge, segment: position, distance: distance,
                        latitude: latitude + py / metresPerDegree,
                        longitude: longitude + (cosine > 0 ? px / (cosine * metresPerDegree) : 0),
                        segmentFraction: t)
                    let at = found.firstIndex { ($0.distance, $0.edge, $0.segment) > (distance, edge, position) } ?? found.count
                    found.insert(candidate, at: at)
                    if found.count > count { found.removeLast() }
                    if found.count == count { worst = min(worst, found.last!.distance) }
                    }
                }
            } else {
                let below = entry.level - 1
                let base = Int(index.levelStart[below])
                let childCount = Int(index.levelStart[below + 1]) - base
                for child in (entry.box * n)..<min(childCount, entry.box * n + n) {
                    let d = boxDistance(base + child)
                    if d <= worst { heap.push(d, (below, child)) }
                }
            }
        }
        return found
    }
}
