import Graph

extension RoadGraph {
    /// The full polyline of edge e, both end nodes included, in its stored direction.
    public func coordinates(ofEdge e: Int) -> [Coordinate] {
        polyline(ofEdge: e).map { Coordinate(latitudeE7: $0.latitude, longitudeE7: $0.longitude) }
    }

    /// Cumulative haversine distance at every point of edge e's polyline (0 at `from`, the edge's length at `to`).
    public func cumulativeDistances(ofEdge e: Int) -> [Double] {
        let points = polyline(ofEdge: e)
        var result = [0.0]
        result.reserveCapacity(points.count)
        for i in 1..<points.count {
            result.append(result[i - 1] + Geo.distance(lat1: points[i - 1].latitude, lon1: points[i - 1].longitude,
                                                       lat2: points[i].latitude, lon2: points[i].longitude))
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
        let points = coordinates(ofEdge: traversal.edge)
        let cumulative = cumulativeDistances(ofEdge: traversal.edge)
        let total = cumulative[cumulative.count - 1]
        let a = min(traversal.startFraction, traversal.endFraction) * total
        let b = max(traversal.startFraction, traversal.endFraction) * total
        var result = [Self.interpolate(points, cumulative, at: a)]
        for i in 0..<points.count where cumulative[i] > a && cumulative[i] < b { result.append(points[i]) }
        let last = Self.interpolate(points, cumulative, at: b)
        if result.count == 1 || result[result.count - 1] != last { result.append(last) }
        if result.count == 2 && result[0] == result[1] && a == b { result.removeLast() }
        return traversal.reversed ? result.reversed() : result
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

    /// The highway class of the way edge e belongs to.
    public func highwayClass(ofEdge e: Int) -> HighwayClass {
        HighwayClass(rawValue: wayClasses[Int(edgeWay[e])]) ?? .other
    }
}
