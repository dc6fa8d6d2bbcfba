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

/// A finer spatial index over the roads of one profile, built in memory from the graph (a few milliseconds on a
/// city) for a snapper that answers many queries: a packed Hilbert R-tree like the file's (`SpatialIndexData`), but
/// over only the edges that pass a filter (a profile's usable roads), with items of at most `segmentsPerItem`
/// segments and `nodeSize` entries per node, each item with its own box and edge. A query over it measures far
/// fewer segments and boxes than over the file's tree of every road of every profile, and finds the same answer.
public struct SnapIndex: Sendable {
    /// Segments per item at most (runs start at multiples of it along their edge).
    public static let segmentsPerItem = 4
    /// Entries per tree node.
    public static let nodeSize = 8
    /// Edge of item i, and the position along it of the item's first segment (0 is from the edge's `from` node).
    public let edges: [UInt32]
    public let positions: [UInt32]
    /// Box of item i's segments, then the tree's boxes, leaves first (each over `nodeSize` items, each higher
    /// level over `nodeSize` boxes below): min latitude, min longitude, max latitude, max longitude, 1e-7 degrees.
    public let itemBoxes: [Int32]
    public let boxes: [Int32]
    /// Where each level's boxes start (in boxes), plus the total at the end.
    public let levelStart: [UInt32]

    /// The index of the edges of `graph` that pass `keep`. A query given the index must filter out every edge
    /// `keep` rejects (it sees no other).
    public init(graph: RoadGraph, keeping keep: (Int) -> Bool = { _ in true }) {
        let run = Self.segmentsPerItem
        var edges: [UInt32] = [], positions: [UInt32] = [], itemBoxes: [Int32] = []
        let expected = (graph.edgeCount + graph.shapeLatitudes.count) / Self.segmentsPerItem + graph.edgeCount
        edges.reserveCapacity(expected); positions.reserveCapacity(expected)
        itemBoxes.reserveCapacity(4 * expected)
        let nodeLatitudes = graph.nodeLatitudes, nodeLongitudes = graph.nodeLongitudes
        let shapeLatitudes = graph.shapeLatitudes, shapeLongitudes = graph.shapeLongitudes
        for e in 0..<graph.edgeCount where keep(e) {
            let first = Int(graph.edgeShapeStart[e]), last = Int(graph.edgeShapeStart[e + 1])
            let from = Int(graph.edgeFrom[e]), to = Int(graph.edgeTo[e])
            var lat = nodeLatitudes[from], lon = nodeLongitudes[from]
            var box = (lat, lon, lat, lon)
            // Segment k joins point k and point k + 1 of the polyline (point 0 the `from` node, last - first + 1 the `to` node).
            for k in 0...(last - first) {
                if k % run == 0 { box = (lat, lon, lat, lon) }
                let nextLat = first + k < last ? shapeLatitudes[first + k] : nodeLatitudes[to]
                let nextLon = first + k < last ? shapeLongitudes[first + k] : nodeLongitudes[to]
                box = (min(box.0, nextLat), min(box.1, nextLon), max(box.2, nextLat), max(box.3, nextLon))
                if k % run == run - 1 || k == last - first {
                    edges.append(UInt32(e))
                    positions.append(UInt32(k / run * run))
                    itemBoxes.append(box.0); itemBoxes.append(box.1); itemBoxes.append(box.2); itemBoxes.append(box.3)
                }
                lat = nextLat; lon = nextLon
            }
        }
        // In Hilbert order of the box centres on a 2^16 × 2^16 grid over the items' own extent (on a city a cell is
        // metres wide, so a leaf holds neighbouring segments; the world's grid has cells hundreds of metres wide),
        // ties in the order the items were made: one plain UInt64 sort of the key (under 2^32) above the item's number.
        @inline(__always) func centre(_ i: Int) -> (lat: Int64, lon: Int64) {
            ((Int64(itemBoxes[4 * i]) + Int64(itemBoxes[4 * i + 2])) / 2, (Int64(itemBoxes[4 * i + 1]) + Int64(itemBoxes[4 * i + 3])) / 2)
        }
        var minLat = Int64.max, maxLat = Int64.min, minLon = Int64.max, maxLon = Int64.min
        for i in edges.indices {
            let c = centre(i)
            minLat = min(minLat, c.lat); maxLat = max(maxLat, c.lat); minLon = min(minLon, c.lon); maxLon = max(maxLon, c.lon)
        }
        let latSpan = max(1, maxLat - minLat), lonSpan = max(1, maxLon - minLon)
        var sortKeys = [UInt64](repeating: 0, count: edges.count)
        for i in edges.indices {
            let c = centre(i)
            let key = Geo.hilbertIndex(x: UInt32((c.lon - minLon) * 65535 / lonSpan), y: UInt32((c.lat - minLat) * 65535 / latSpan))
            sortKeys[i] = key << 32 | UInt64(i)
        }
        sortKeys.sort()
        let order = sortKeys.map { Int($0 & 0xffff_ffff) }
        self.edges = order.map { edges[$0] }
        self.positions = order.map { positions[$0] }
        var sortedBoxes = [Int32](repeating: 0, count: itemBoxes.count)
        for (i, item) in order.enumerated() { for c in 0..<4 { sortedBoxes[4 * i + c] = itemBoxes[4 * item + c] } }
        self.itemBoxes = sortedBoxes

        (self.boxes, self.levelStart) = PackedRTreeLevels.build(leafCount: order.count, nodeSize: Self.nodeSize) { i in
            (sortedBoxes[4 * i], sortedBoxes[4 * i + 1], sortedBoxes[4 * i + 2], sortedBoxes[4 * i + 3])
        }
    }

    /// Number of levels (leaves are level 0, the root the last).
    public var levelCount: Int { max(0, levelStart.count - 1) }
}

extension RoadGraph {
    /// The `count` nearest segments to (latitude, longitude) whose edge passes `filter`, nearest first,
    /// no farther than `maxDistance` metres; found through the spatial index (best-first over the tree).
    ///
    /// `snapIndex`, when given, is walked instead of the file's index; it must hold every edge `filter` passes.
    /// Either way the answer is the same: the nearest segments by (distance, edge, segment) among all that pass,
    /// as every segment that could be one of them is measured, with the same arithmetic.
    public func nearestSegments(latitude: Double, longitude: Double, count: Int = 1, maxDistance: Double = .infinity,
                                snapIndex: SnapIndex? = nil, filter: (Int) -> Bool = { _ in true }) -> [SnapCandidate] {
        guard count > 0 else { return [] }
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let cosine = cos(latitude * Double.pi / 180)
        // Local equirectangular projection centred on the query point, metres.
        @inline(__always) func project(_ lat: Int32, _ lon: Int32) -> (Double, Double) {
            ((Geo.degrees(lon) - longitude) * cosine * metresPerDegree, (Geo.degrees(lat) - latitude) * metresPerDegree)
        }
        @inline(__always) func distance(toBox b: Int, in boxes: UnsafeBufferPointer<Int32>) -> Double {
            let (x0, y0) = project(boxes[4 * b], boxes[4 * b + 1])
            let (x1, y1) = project(boxes[4 * b + 2], boxes[4 * b + 3])
            let dx = max(x0, 0, -x1), dy = max(y0, 0, -y1)
            return (dx * dx + dy * dy).squareRoot()
        }
        var found: [SnapCandidate] = []
        var worst = maxDistance
        /// Measures segments `firstPosition ..< firstPosition + segments` of `edge` (as far as it has them), keeping
        /// the nearest `count`.
        @inline(__always) func measure(edge: Int, from firstPosition: Int, segments: Int) {
            let first = Int(edgeShapeStart[edge]), last = Int(edgeShapeStart[edge + 1])
            for position in firstPosition..<min(firstPosition + segments, last - first + 1) {
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

        if let snapIndex {
            // A box is passed over only when it lies beyond the worst distance kept by a margin that covers the
            // rounding of the segment distances (and of comparing squares), so no segment the walk over the file's
            // boxes would keep is missed. Bounds are compared squared: no square root per box.
            @inline(__always) func squaredDistance(toBox b: Int, in boxes: UnsafeBufferPointer<Int32>) -> Double {
                let (x0, y0) = project(boxes[4 * b], boxes[4 * b + 1])
                let (x1, y1) = project(boxes[4 * b + 2], boxes[4 * b + 3])
                let dx = max(x0, 0, -x1), dy = max(y0, 0, -y1)
                return dx * dx + dy * dy
            }
            var limit = Double.infinity, limitOf = Double.nan
            @inline(__always) func beyond(_ squaredBound: Double) -> Bool {
                if limitOf != worst {
                    let margin = worst * (1 + 1e-9) + 1e-6
                    limit = margin * margin
                    limitOf = worst
                }
                return squaredBound > limit
            }
            guard snapIndex.levelCount > 0 else { return [] }
            snapIndex.boxes.withUnsafeBufferPointer { boxes in
            snapIndex.itemBoxes.withUnsafeBufferPointer { itemBoxes in
                let n = SnapIndex.nodeSize
                let itemCount = snapIndex.edges.count
                var heap = BinaryHeap<Double, (level: Int, box: Int)>(capacity: 64)
                let top = snapIndex.levelCount - 1
                let topStart = Int(snapIndex.levelStart[top])
                for b in topStart..<Int(snapIndex.levelStart[top + 1]) { heap.push(squaredDistance(toBox: b, in: boxes), (top, b - topStart)) }
                while let (bound, entry) = heap.pop() {
                    if beyond(bound) { break }
                    if entry.level == 0 {
                        for i in (entry.box * n)..<min(itemCount, entry.box * n + n) {
                            guard !beyond(squaredDistance(toBox: i, in: itemBoxes)) else { continue }
                            let edge = Int(snapIndex.edges[i])
                            guard filter(edge) else { continue }
                            measure(edge: edge, from: Int(snapIndex.positions[i]), segments: SnapIndex.segmentsPerItem)
                        }
                    } else {
                        let below = entry.level - 1
                        let base = Int(snapIndex.levelStart[below])
                        let childCount = Int(snapIndex.levelStart[below + 1]) - base
                        for child in (entry.box * n)..<min(childCount, entry.box * n + n) {
                            let d = squaredDistance(toBox: base + child, in: boxes)
                            if !beyond(d) { heap.push(d, (below, child)) }
                        }
                    }
                }
            }
            }
            return found
        }

        let index = spatialIndex
        guard index.levelCount > 0 else { return [] }
        var heap = BinaryHeap<Double, (level: Int, box: Int)>()
        let top = index.levelCount - 1
        for b in Int(index.levelStart[top])..<Int(index.levelStart[top + 1]) {
            heap.push(distance(toBox: b, in: index.boxes), (top, b - Int(index.levelStart[top])))
        }
        let n = SpatialIndexData.nodeSize
        while let (bound, entry) = heap.pop() {
            if bound > worst { break }
            if entry.level == 0 {
                for i in (entry.box * n)..<min(index.items.count, entry.box * n + n) {
                    let (edge, firstPosition) = self.edge(ofSegment: index.items[i])
                    guard filter(edge) else { continue }
                    measure(edge: edge, from: firstPosition, segments: SpatialIndexData.segmentsPerItem)
                }
            } else {
                let below = entry.level - 1
                let base = Int(index.levelStart[below])
                let childCount = Int(index.levelStart[below + 1]) - base
                for child in (entry.box * n)..<min(childCount, entry.box * n + n) {
                    let d = distance(toBox: base + child, in: index.boxes)
                    if d <= worst { heap.push(d, (below, child)) }
                }
            }
        }
        return found
    }
}
