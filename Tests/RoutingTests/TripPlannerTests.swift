import Foundation
import Graph
import Routing
import XCTest

/// The stop-order optimiser: the exact solver against brute force on random small instances, the heuristic
/// never worse than the given order, and the fixed first (and last) stops.
final class TripPlannerTests: XCTestCase {
    /// Random asymmetric times (one-ways make them so), sometimes with legs that have no route.
    func randomTimes(_ n: Int, _ random: inout SplitMix64, holes: Bool = false) -> [[Double?]] {
        let points = (0..<n).map { _ in (Double.random(in: 0...1000, using: &random), Double.random(in: 0...1000, using: &random)) }
        return (0..<n).map { i in (0..<n).map { j in
            if i == j { return 0 }
            if holes && Double.random(in: 0...1, using: &random) < 0.05 { return nil }
            let d = ((points[i].0 - points[j].0) * (points[i].0 - points[j].0) + (points[i].1 - points[j].1) * (points[i].1 - points[j].1)).squareRoot()
            return d * Double.random(in: 1...1.4, using: &random)
        } }
    }

    /// The least total over every order of the stops after the first (the last fixed too for `.endFixed`).
    func bruteForce(_ times: [[Double?]], _ planner: TripPlanner) -> Double {
        let n = times.count
        var middle = planner.shape == .endFixed ? Array(1..<(n - 1)) : Array(1..<n)
        var best = Double.infinity
        func permute(_ k: Int) {
            if k == middle.count {
                var order = [0] + middle
                if planner.shape == .endFixed { order.append(n - 1) }
                best = min(best, planner.total(of: order) { times[$0][$1] })
                return
            }
            for i in k..<middle.count {
                middle.swapAt(k, i)
                permute(k + 1)
                middle.swapAt(k, i)
            }
        }
        permute(0)
        return best
    }

    func testExactSolverMatchesBruteForceOnRandomSmallInstances() {
        var random = SplitMix64(state: 11)
        for shape in [TripPlanner.Shape.open, .roundtrip, .endFixed] {
            let planner = TripPlanner(shape: shape)
            for instance in 0..<30 {
                let n = 3 + instance % 6   // 3 to 8 stops
                let times = randomTimes(n, &random, holes: instance % 3 == 0)
                let order = planner.order(count: n) { times[$0][$1] }
                XCTAssertEqual(order.first, 0)
                XCTAssertEqual(Set(order), Set(0..<n))
                if shape == .endFixed { XCTAssertEqual(order.last, n - 1) }
                XCTAssertEqual(planner.total(of: order) { times[$0][$1] }, bruteForce(times, planner), accuracy: 1e-6, "\(shape) instance \(instance)")
            }
        }
    }

    func testTwelveStopsAreSolvedExactly() {
        var random = SplitMix64(state: 12)
        let times = randomTimes(12, &random)
        let planner = TripPlanner(shape: .roundtrip)
        let order = planner.order(count: 12) { times[$0][$1] }
        // Exact: no single swap of two stops after the first improves it.
        let total = planner.total(of: order) { times[$0][$1] }
        for a in 1..<12 { for b in (a + 1)..<12 {
            var swapped = order
            swapped.swapAt(a, b)
            XCTAssertGreaterThanOrEqual(planner.total(of: swapped) { times[$0][$1] }, total - 1e-6)
        } }
    }

    func testHeuristicIsNeverWorseThanTheGivenOrderAndBeatsItOnRandomStops() {
        var random = SplitMix64(state: 13)
        for shape in [TripPlanner.Shape.open, .roundtrip, .endFixed] {
            let planner = TripPlanner(shape: shape)
            for n in [13, 40, 150] {
                let times = randomTimes(n, &random, holes: n == 40)
                let order = planner.order(count: n) { times[$0][$1] }
                XCTAssertEqual(order.first, 0)
                XCTAssertEqual(order.count, n)
                XCTAssertEqual(Set(order), Set(0..<n))
                if shape == .endFixed { XCTAssertEqual(order.last, n - 1) }
                let found = planner.total(of: order) { times[$0][$1] }
                let given = planner.total(of: Array(0..<n)) { times[$0][$1] }
                XCTAssertLessThanOrEqual(found, given, "\(shape) \(n)")
                if n == 150 { XCTAssertLessThan(found, given * 0.5, "random points in random order are far from the best") }
            }
        }
        // A given order that is already the best stays as good.
        let line: [[Double?]] = (0..<20).map { i in (0..<20).map { j in Double(abs(i - j)) } }
        let planner = TripPlanner(shape: .open)
        XCTAssertEqual(planner.total(of: planner.order(count: 20) { line[$0][$1] }) { line[$0][$1] }, 19)
    }

    func testTwoStopsAndThreeStops() {
        let planner = TripPlanner(shape: .open)
        XCTAssertEqual(planner.order(count: 2) { _, _ in 1 }, [0, 1])
        let times: [[Double?]] = [[0, 10, 1], [10, 0, 1], [1, 1, 0]]
        XCTAssertEqual(planner.order(count: 3) { times[$0][$1] }, [0, 2, 1])
    }
}
