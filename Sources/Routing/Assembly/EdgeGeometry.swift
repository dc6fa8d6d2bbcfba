import Graph

extension RoadGraph {
    /// Point `i` of edge e's polyline in its stored direction (0 is the `from` node, `shapePointCount(ofEdge:) + 1`
    /// the `to` node), without building the polyline.
    @inline(__always) func polylinePoint(ofEdge e: Int, _ i: Int, shapeStart first: Int, shapeEnd last: Int) -> Coordinate {
        if i == 0 { let n = Int(edgeFrom[e]); return Coordinate(latitudeE7: nodeLatitudes[n], longitudeE7: nodeLongitudes[n]) }
        if first + i - 1 < last { return Coordinate(latitudeE7: shapeLatitudes[first + i - 1], longitudeE7: shapeLongitudes[first + i - 1]) }
        let n = Int(edgeTo[e])
        return Coordinate(latitudeE7: nodeLatitudes[n], longitudeE7: nodeLongitudes[n])
    }

    /// The full polyline of edge e, both end nodes included, in its stored direction.
    public func coordinates(ofEdge e: Int) -> [Coordinate] {
        let first = Int(edgeShapeStart[e]), last = Int(edgeShapeStart[e + 1])
        let count = last - first + 2
        return [Coordinate](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count { buffer[i] = polylinePoint(ofEdge: e, i, shapeStart: first, shapeEnd: last) }
            initialized = count
        }
    }

    /// Cumulative haversine distance at every point of edge e's polyline (0 at `from`, the edge's length at `to`).
    public func cumulativeDistances(ofEdge e: Int) -> [Double] {
        let first = Int(edgeShapeStart[e]), last = Int(edgeShapeStart[e + 1])
        let count = last - first + 2
        var result = [0.0]
        result.reserveCapacity(count)
        var previous = polylinePoint(ofEdge: e, 0, shapeStart: first, shapeEnd: last)
        for i in 1..<count {
            let point = polylinePoint(ofEdge: e, i, shapeStart: first, shapeEnd: last)
            result.append(result[i - 1] + Geo.distance(lat1: previous.latitude, lon1: previous.longitude, lat2: point.latitude, lon2: point.longitude))
            previous = point
        }
        return result
    }

    /// The point at `fraction` of edge e's length from its `from` node.
    public func point(onEdge e: Int, atFraction fraction: Double) -> Coordinate {
        let points = coordinates(ofEdge: e)
        let cumulative = cumulativeDistances(ofEdge: e)
        return Self.interpolate(points, cumulative, at: fraction * cumulative[cumulative.count - 1])
    }

    /// The polyline of a traversal: from its start fraction to its end fraction, in travel order.
    public func coordinates(of traversal: EdgeTraversal) -> [Coordinate] {
        var result: [Coordinate] = []
        appendCoordinates(of: traversal, to: &result)
        return result
    }

    /// Appends the polyline of a traversal (exactly `coordinates(of:)`) to `points`.
    ///
    /// A whole edge (0→1 or 1→0) needs no distances: its points are the stored ones, less the repeats of its first
    /// point at the start and of its last at the end (the points no farther than 0 from either end, which the
    /// general case leaves out); only a partial edge measures its polyline to place its ends.
    public func appendCoordinates(of traversal: EdgeTraversal, to points: inout [Coordinate]) {
        let e = traversal.edge
        let first = Int(edgeShapeStart[e]), last = Int(edgeShapeStart[e + 1])
        let count = last - first + 2
        let lower = min(traversal.startFraction, traversal.endFraction), upper = max(traversal.startFraction, traversal.endFraction)
        let begin = points.count
        if lower == 0 && upper == 1 {
            let p0 = polylinePoint(ofEdge: e, 0, shapeStart: first, shapeEnd: last)
            let pn = polylinePoint(ofEdge: e, count - 1, shapeStart: first, shapeEnd: last)
            // Points strictly inside (0, length) by distance: after the first move away from p0, before the last move.
            var firstMove = 1
            while firstMove < count && polylinePoint(ofEdge: e, firstMove, shapeStart: first, shapeEnd: last) == p0 { firstMove += 1 }
            points.append(p0)
            if firstMove == count {
                // No length at all: the general case gives the single point.
            } else {
                var lastMove = count - 1
                while polylinePoint(ofEdge: e, lastMove - 1, shapeStart: first, shapeEnd: last) == pn { lastMove -= 1 }
                for i in firstMove..<lastMove { points.append(polylinePoint(ofEdge: e, i, shapeStart: first, shapeEnd: last)) }
                if points.count - begin == 1 || points[points.count - 1] != pn { points.append(pn) }
            }
        } else {
            let all = coordinates(ofEdge: e)
            let cumulative = cumulativeDistances(ofEdge: e)
            let total = cumulative[cumulative.count - 1]
            let a = lower * total, b = upper * total
            points.append(Self.interpolate(all, cumulative, at: a))
            for i in 0..<count where cumulative[i] > a && cumulative[i] < b { points.append(all[i]) }
            let end = Self.interpolate(all, cumulative, at: b)
            if points.count - begin == 1 || points[points.count - 1] != end { points.append(end) }
            if points.count - begin == 2 && points[begin] == points[begin + 1] && a == b { points.removeLast() }
        }
        if traversal.reversed { points[begin...].reverse() }
    }

    /// The point `distance` metres along a polyline with the given cumulative distances.
    static func interpolate(_ points: [Coordinate], _ cumulative: [Double], at distance: Double) -> Coordinate {
        if distance <= 0 { return points[0] }
        if distance >= cumulative[cumulative.count - 1] { return points[points.count - 1] }
        var i = 1
        while i < cumulative.count - 1 && cumulative[i] < distance { i += 1 }
        let span = cumulative[i] - cumulative[i - 1]
        let t = span > 0 ? (distance - cumulative[i - 1]) / span : 0
        return Coordinate(latitude: points[i - 1].latitude + t * (points[i].latitude - points[i - 1].latitude),
                          longitude: points[i - 1].longitude + t * (points[i].longitude - points[i - 1].longitude))
    }

    /// The name and ref of the way edge e belongs to.
    public func label(ofEdge e: Int) -> (name: String, ref: String) {
        let way = Int(edgeWay[e])
        return (string(wayNames[way]), string(wayRefs[way]))
    }

    /// Whether string `index` of the string table is empty (no name), without decoding it.
    @inline(__always) func isEmptyString(_ index: UInt32) -> Bool {
        stringStart[Int(index)] == stringStart[Int(index) + 1]
    }

    /// The highway class of the way edge e belongs to.
    public func highwayClass(ofEdge e: Int) -> HighwayClass {
        HighwayClass(rawValue: wayClasses[Int(edgeWay[e])]) ?? .other
    }
}

extension EdgeTraversal {
    /// Whether it travels its whole edge (0→1 or 1→0), the case `RoadGraph.appendCoordinates(of:to:)` lays out from
    /// the stored points alone.
    @inline(__always) var isWhole: Bool {
        min(startFraction, endFraction) == 0 && max(startFraction, endFraction) == 1
    }
}
