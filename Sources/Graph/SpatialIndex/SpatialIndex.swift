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

/// The edge each spatial-index item belongs to and the item's first segment position along it, with boxes of the
/// items and of the index's tree over only the items whose edge passes a filter (a profile's usable roads), worked
/// out once in one pass over the items (about a millisecond on a city). A query looks edges up instead of a binary
/// search over the edges per item, and its walk passes over items, leaves and branches that hold no road it may
/// snap to or lie too far, in place of the file's boxes over every road of every profile.
public struct SpatialIndexItemEdges: Sendable {
    /// Edge of item i.
    public let edges: [UInt32]
    /// Position along its edge of item i's first segment.
    public let positions: [UInt32]
    /// Box of item i's segments (min latitude, min longitude, max latitude, max longitude, 1e-7 degrees); empty
    /// (min above max) where its edge did not pass the filter.
    public let itemBoxes: [Int32]
    /// The tree's boxes laid out as the file's (`SpatialIndex.boxes`, `levelStart`), each over only the kept items
    /// below it; empty where it holds none.
    public let nodeBoxes: [Int32]

    /// The table for `graph`'s index (its items are checked to name segments when the file is opened), keeping the
    /// items whose edge passes `keep`. A query given the table must filter out every edge `keep` rejects.
    public init(graph: RoadGraph, keeping keep: (Int) -> Bool = { _ in true }) {
        let segmentCount = graph.edgeCount + graph.shapeLatitudes.count
        var edgeOfSegment = [UInt32](repeating: 0, count: segmentCount)
        for e in 0..<graph.edgeCount {
            let first = Int(graph.edgeShapeStart[e]) + e, end = min(segmentCount, Int(graph.edgeShapeStart[e + 1]) + e + 1)
            if first < end { for s in first..<end { edgeOfSegment[s] = UInt32(e) } }
        }
        let index = graph.spatialIndex
        let items = index.items
        var edges = [UInt32](repeating: 0, count: items.count), positions = [UInt32](repeating: 0, count: items.count)
        var itemBoxes = [Int32](repeating: 0, count: 4 * items.count)
        let empty = (Int32.max, Int32.max, Int32.min, Int32.min)
        @inline(__always) func union(_ a: (Int32, Int32, Int32, Int32), _ b: (Int32, Int32, Int32, Int32)) -> (Int32, Int32, Int32, Int32) {
            (min(a.0, b.0), min(a.1, b.1), max(a.2, b.2), max(a.3, b.3))
        }
        let nodeLatitudes = graph.nodeLatitudes, nodeLongitudes = graph.nodeLongitudes
        let shapeLatitudes = graph.shapeLatitudes, shapeLongitudes = graph.shapeLongitudes
        for i in 0..<items.count {
            let segment = Int(items[i])
            // Segment ids of edge e start at edgeShapeStart[e] + e; the binary search of `edge(ofSegment:)` gives the same.
            let e = segment < segmentCount ? Int(edgeOfSegment[segment]) : graph.edge(ofSegment: items[i]).edge
            let first = Int(graph.edgeShapeStart[e]), last = Int(graph.edgeShapeStart[e + 1])
            let position = segment - first - e
            edges[i] = UInt32(e)
            positions[i] = UInt32(position)
            var box = empty
            let end = min(position + SpatialIndexData.segmentsPerItem, last - first + 1)
            if keep(e) && position < end {
                // Points position...end of the edge's polyline (0 is its `from` node, last - first + 1 its `to` node).
                for k in position...end {
                    if k == 0 {
                        let n = Int(graph.edgeFrom[e])
                        box = union(box, (nodeLatitudes[n], nodeLongitudes[n], nodeLatitudes[n], nodeLongitudes[n]))
                    } else if first + k - 1 < last {
                        let lat = shapeLatitudes[first + k - 1], lon = shapeLongitudes[first + k - 1]
                        box = union(box, (lat, lon, lat, lon))
                    } else {
                        let n = Int(graph.edgeTo[e])
                        box = union(box, (nodeLatitudes[n], nodeLongitudes[n], nodeLatitudes[n], nodeLongitudes[n]))
                    }
                }
            }
            itemBoxes[4 * i] = box.0; itemBoxes[4 * i + 1] = box.1; itemBoxes[4 * i + 2] = box.2; itemBoxes[4 * i + 3] = box.3
        }
        // Each level's boxes over the level below (items below the leaves), as the builder groups them.
        let n = SpatialIndexData.nodeSize
        var nodeBoxes = [Int32](repeating: 0, count: index.boxes.count)
        for level in 0..<index.levelCount {
            let base = Int(index.levelStart[level]), count = Int(index.levelStart[level + 1]) - base
            let below = level == 0 ? 0 : Int(index.levelStart[level - 1])
            let childCount = level == 0 ? items.count : base - below
            for b in 0..<count {
                var box = empty
                for child in (b * n)..<min(childCount, b * n + n) {
                    if level == 0 {
                        let c = 4 * child
                        box = union(box, (itemBoxes[c], itemBoxes[c + 1], itemBoxes[c + 2], itemBoxes[c + 3]))
                    } else {
                        let c = 4 * (below + child)
                        box = union(box, (nodeBoxes[c], nodeBoxes[c + 1], nodeBoxes[c + 2], nodeBoxes[c + 3]))
                    }
                }
                let at = 4 * (base + b)
                nodeBoxes[at] = box.0; nodeBoxes[at + 1] = box.1; nodeBoxes[at + 2] = box.2; nodeBoxes[at + 3] = box.3
            }
        }
        self.edges = edges
        self.positions = positions
        self.itemBoxes = itemBoxes
        self.nodeBoxes = nodeBoxes
    }
}

extension RoadGraph {
    /// The `count` nearest segments to (latitude, longitude) whose edge passes `filter`, nearest first,
    /// no farther than `maxDistance` metres; found through the spatial index (best-first over the tree).
    ///
    /// `itemEdges`, when given, must keep every edge `filter` passes: its boxes then stand for the file's, and items
    /// are passed over by their own boxes too. Either way the answer is the same: the nearest segments by (distance,
    /// edge, segment) among all that pass, as every segment that could be one of them is measured.
    public func nearestSegments(latitude: Double, longitude: Double, count: Int = 1, maxDistance: Double = .infinity,
                                itemEdges: SpatialIndexItemEdges? = nil, filter: (Int) -> Bool = { _ in true }) -> [SnapCandidate] {
        let index = spatialIndex
        guard index.levelCount > 0, count > 0 else { return [] }
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let cosine = cos(latitude * Double.pi / 180)
        // Local equirectangular projection centred on the query point, metres.
        @inline(__always) func project(_ lat: Int32, _ lon: Int32) -> (Double, Double) {
            ((Double(lon) * 1e-7 - longitude) * cosine * metresPerDegree, (Double(lat) * 1e-7 - latitude) * metresPerDegree)
        }
        @inline(__always) func distance(toBox b: Int, in boxes: UnsafeBufferPointer<Int32>) -> Double {
            let (x0, y0) = project(boxes[4 * b], boxes[4 * b + 1])
            let (x1, y1) = project(boxes[4 * b + 2], boxes[4 * b + 3])
            let dx = max(x0, 0, -x1), dy = max(y0, 0, -y1)
            return (dx * dx + dy * dy).squareRoot()
        }
        // With the table, boxes hold only the kept items (empty boxes hold none and are passed over), and a box is
        // passed over only when it lies beyond the worst distance kept by a margin that covers the rounding of the
        // segment distances, so no segment the walk over the file's boxes would keep is missed.
        @inline(__always) func beyond(_ bound: Double, _ worst: Double) -> Bool {
            itemEdges == nil ? bound > worst : bound > worst * (1 + 1e-9) + 1e-6
        }
        return (itemEdges?.nodeBoxes ?? []).withUnsafeBufferPointer { tableBoxes in
        (itemEdges?.itemBoxes ?? []).withUnsafeBufferPointer { itemBoxes in
        let boxes = itemEdges == nil ? index.boxes : tableBoxes
        @inline(__always) func isEmpty(_ b: Int, _ boxes: UnsafeBufferPointer<Int32>) -> Bool { boxes[4 * b] > boxes[4 * b + 2] }
        var heap = BinaryHeap<Double, (level: Int, box: Int)>()
        let top = index.levelCount - 1
        for b in Int(index.levelStart[top])..<Int(index.levelStart[top + 1]) where !isEmpty(b, boxes) {
            heap.push(distance(toBox: b, in: boxes), (top, b - Int(index.levelStart[top])))
        }
        var found: [SnapCandidate] = []
        var worst = maxDistance
        let n = SpatialIndexData.nodeSize
        while let (bound, entry) = heap.pop() {
            if beyond(bound, worst) { break }
            if entry.level == 0 {
                for i in (entry.box * n)..<min(index.items.count, entry.box * n + n) {
                    if itemEdges != nil && (isEmpty(i, itemBoxes) || beyond(distance(toBox: i, in: itemBoxes), worst)) { continue }
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
                for child in (entry.box * n)..<min(childCount, entry.box * n + n) where !isEmpty(base + child, boxes) {
                    let d = distance(toBox: base + child, in: boxes)
                    if !beyond(d, worst) { heap.push(d, (below, child)) }
                }
            }
        }
        return found
        }
        }
    }
}
