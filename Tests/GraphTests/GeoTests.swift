import XCTest
@testable import Graph

/// The sphere's distances: the chord through `Geo.unitVector` is a lower bound on the haversine distance, and a
/// tight one at walking range.
final class GeoTests: XCTestCase {
    func testChordIsNeverLongerThanTheGreatCircleAndTightNearby() {
        var rng = SplitMix64(state: 11)
        for k in 0..<20_000 {
            let lat1 = Double.random(in: -90...90, using: &rng), lon1 = Double.random(in: -180...180, using: &rng)
            // Near pairs (up to ~10 km), far pairs, and pairs across the antimeridian and the poles.
            let (lat2, lon2): (Double, Double)
            switch k % 3 {
            case 0: (lat2, lon2) = (min(90, max(-90, lat1 + Double.random(in: -0.09...0.09, using: &rng))), lon1 + Double.random(in: -0.09...0.09, using: &rng))
            case 1: (lat2, lon2) = (Double.random(in: -90...90, using: &rng), Double.random(in: -180...180, using: &rng))
            default: (lat2, lon2) = (lat1 > 0 ? 90 - Double.random(in: 0...0.05, using: &rng) : -90, lon1 > 0 ? lon1 - 360 : lon1 + 180)
            }
            let arc = Geo.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            let chord = Geo.chord(Geo.unitVector(latitude: lat1, longitude: lon1), Geo.unitVector(latitude: lat2, longitude: lon2))
            // Rounding of either formula is far below a millimetre per kilometre.
            XCTAssertLessThanOrEqual(chord, arc * (1 + 1e-9) + 1e-6, "\(lat1),\(lon1) to \(lat2),\(lon2)")
            if arc < 10_000 { XCTAssertGreaterThanOrEqual(chord, arc * (1 - 1e-6) - 1e-6, "\(lat1),\(lon1) to \(lat2),\(lon2)") }
        }
        XCTAssertEqual(Geo.chord(Geo.unitVector(latitude: 49.4, longitude: 8.7), Geo.unitVector(latitude: 49.4, longitude: 8.7)), 0)
    }
}
