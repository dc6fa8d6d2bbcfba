import Foundation
import Graph

/// Bearings of polylines and the classification of the angle between two bearings, as turn-by-turn steps use them.
///
/// A *deviation* is the change of direction from an incoming to an outgoing bearing, in degrees within
/// `-180 ... 180`: negative turns left, positive turns right, 0 goes straight on.
public enum TurnAngle {
    /// How far along a road its direction at a junction is measured, metres: long enough to smooth out the
    /// last little kink of the drawn geometry, short enough to stay on the approach to the junction.
    public static let bearingWindow = 15.0

    /// Upper bounds (exclusive) of the absolute deviation for each class; from `uturnFrom` on it is a U-turn.
    public static let straightBelow = 20.0
    public static let slightBelow = 50.0
    public static let turnBelow = 120.0
    public static let uturnFrom = 170.0

    /// The deviation from `before` to `after` (both degrees clockwise from north), in `-180 ... 180`.
    public static func deviation(from before: Double, to after: Double) -> Double {
        // The remainder is exact and leaves a difference within ±360 as it is: only larger ones need the division.
        var delta = after - before
        if !(abs(delta) < 360) { delta = delta.truncatingRemainder(dividingBy: 360) }
        if delta > 180 { delta -= 360 }
        if delta <= -180 { delta += 360 }
        return delta
    }

    /// The modifier for a deviation: straight below 20°, slight below 50°, plain below 120°, sharp below 170°,
    /// U-turn from 170° on.
    public static func modifier(forDeviation deviation: Double) -> ManeuverModifier {
        let size = abs(deviation)
        let left = deviation < 0
        switch size {
        case ..<straightBelow: return .straight
        case ..<slightBelow: return left ? .slightLeft : .slightRight
        case ..<turnBelow: return left ? .left : .right
        case ..<uturnFrom: return left ? .sharpLeft : .sharpRight
        default: return .uturn
        }
    }

    /// A bearing as the whole degrees of a step, in `0 ... 359`.
    public static func wholeDegrees(_ bearing: Double) -> Int {
        let rounded = Int(bearing.rounded())
        return ((rounded % 360) + 360) % 360
    }

    /// The direction of travel leaving `points[0]`: the bearing from the first point to the point `window`
    /// metres along the polyline (or its last point when shorter); nil when the polyline has no length.
    public static func initialBearing(of points: [Coordinate], window: Double = bearingWindow) -> Double? {
        initialBearing(along: points, window: window)
    }

    /// The direction of travel arriving at the polyline's last point: the bearing from the point `window`
    /// metres before the end (or the first point when shorter) to the last point; nil when it has no length.
    public static func finalBearing(of points: [Coordinate], window: Double = bearingWindow) -> Double? {
        finalBearing(along: points, window: window)
    }

    /// `initialBearing(of:)` over any run of points (a slice of a leg's points, an edge's polyline read in place).
    @inline(__always)
    static func initialBearing<Points: Collection>(along points: Points, window: Double = bearingWindow) -> Double? where Points.Element == Coordinate {
        guard let first = points.first, let far = point(along: points, at: window), far != first else { return nil }
        return first.bearing(to: far)
    }

    /// `finalBearing(of:)` over any run of points.
    @inline(__always)
    static func finalBearing<Points: BidirectionalCollection>(along points: Points, window: Double = bearingWindow) -> Double? where Points.Element == Coordinate {
        guard let last = points.last, let far = point(along: points.reversed(), at: window), far != last else { return nil }
        return far.bearing(to: last)
    }

    /// Haversine length of a polyline, metres.
    public static func length(of points: [Coordinate]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// Whether `length(of:)` of the points would be at least `minimum`: the same sum, stopped as soon as it gets there.
    static func hasLength<Points: Collection>(_ points: Points, atLeast minimum: Double) -> Bool where Points.Element == Coordinate {
        guard var previous = points.first else { return 0 >= minimum }
        var total = 0.0
        if total >= minimum { return true }
        for next in points.dropFirst() {
            total += previous.distance(to: next)
            if total >= minimum { return true }
            previous = next
        }
        return false
    }

    /// The point `distance` metres along a polyline, or its last point when it is shorter; nil when empty.
    static func point<Points: Collection>(along points: Points, at distance: Double) -> Coordinate? where Points.Element == Coordinate {
        guard var previous = points.first else { return nil }
        var travelled = 0.0
        for next in points.dropFirst() {
            let span = previous.distance(to: next)
            if span > 0 && travelled + span >= distance {
                let t = (distance - travelled) / span
                return Coordinate(latitude: previous.latitude + t * (next.latitude - previous.latitude),
                                  longitude: previous.longitude + t * (next.longitude - previous.longitude))
            }
            travelled += span
            previous = next
        }
        return previous
    }

    /// The eight-point compass name of a bearing ("north", "northeast"…), as in "Head north".
    public static func compassName(_ bearing: Double) -> String {
        let names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        let normalized = (bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return names[Int((normalized + 22.5) / 45) % 8]
    }

    /// Which side of a road a point lies on, seen along `bearing` from `location` on the road: `.left` or `.right`
    /// when it is off to one side, `.straight` when it lies ahead or behind, nil when it is within `tolerance`
    /// metres (on the road itself).
    public static func side(of point: Coordinate, from location: Coordinate, travelling bearing: Double,
                            tolerance: Double = 1) -> ManeuverModifier? {
        let metresPerDegree = Geo.earthRadius * Double.pi / 180
        let east = (point.longitude - location.longitude) * metresPerDegree * cos(location.latitude * Double.pi / 180)
        let north = (point.latitude - location.latitude) * metresPerDegree
        guard (east * east + north * north).squareRoot() >= tolerance else { return nil }
        let rad = bearing * Double.pi / 180
        let along = sin(rad) * east + cos(rad) * north
        // Positive when the point is counter-clockwise from the direction of travel, i.e. on the left.
        let across = sin(rad) * north - cos(rad) * east
        let angle = abs(atan2(across, along)) * 180 / Double.pi
        if angle < 15 || angle > 165 { return .straight }
        return across > 0 ? .left : .right
    }
}
