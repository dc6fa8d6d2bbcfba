import XCTest
import OSM
@testable import Graph
import TestSupport

/// The node id look-up (`IDIndex`, `OSMCollector.nodePosition(of:)`) against a plain search, on dense, sparse,
/// clustered, negative and unsorted ids, with ids present and absent.
final class IDIndexTests: XCTestCase {
    /// The position a plain scan gives: the first node with `id` in id order (the first in the file among duplicates).
    private func expected(_ id: Int64, in ids: [Int64]) -> Int? { ids.firstIndex(of: id) }

    private func check(_ ids: [Int64], sorted: Bool, queries: [Int64], file: StaticString = #filePath, line: UInt = #line) {
        let index = ids.withUnsafeBufferPointer { IDIndex(ids: $0, sorted: sorted) }
        ids.withUnsafeBufferPointer { buffer in
            for id in queries {
                XCTAssertEqual(index.position(of: id, in: buffer), expected(id, in: ids), "id \(id)", file: file, line: line)
            }
        }
    }

    private func queries(around ids: [Int64], random: inout SeededRandom) -> [Int64] {
        var queries = ids
        for id in ids.prefix(200) { queries += [id - 1, id + 1] }
        queries += [Int64.min, Int64.max, 0, -1, (ids.min() ?? 0) - 1, (ids.max() ?? 0) + 1]
        for _ in 0..<200 { queries.append(Int64(bitPattern: random.next()) >> Int64(random.below(63))) }
        return queries
    }

    /// Sorted ids grown past those the index was built on (nodes read after it, in order): covered and later ids
    /// are found, absent ones are not.
    func testGrownSortedIDs() {
        var random = SeededRandom(seed: 21)
        var ids: [Int64] = []
        var next: Int64 = -50
        for _ in 0..<3000 { next += Int64(random.below(40)) + 1; ids.append(next) }
        for covered in [1, 10, 1500, 2999, 3000] {
            let index = ids.withUnsafeBufferPointer { IDIndex(ids: UnsafeBufferPointer(rebasing: $0[0..<covered]), sorted: true) }
            ids.withUnsafeBufferPointer { buffer in
                for id in queries(around: ids, random: &random) {
                    XCTAssertEqual(index.position(of: id, inGrown: buffer), expected(id, in: ids), "id \(id), \(covered) covered")
                }
            }
        }
    }

    func testDenseSparseClusteredAndNegativeIDs() {
        var random = SeededRandom(seed: 15)
        var sets: [[Int64]] = [[], [7], Array(1...3000)]
        // Sparse over a range of 2^40, with dense runs (nodes drawn together) and a far outlier.
        var clustered: [Int64] = []
        var next: Int64 = 1
        while clustered.count < 5000 {
            next += Int64(random.below(1 << 28)) + 1
            for k in 0..<Int64(1 + random.below(400)) { clustered.append(next + k) }
            next += 400
        }
        clustered.append(1 << 40)
        sets.append(clustered)
        sets.append((-500...500).map { Int64($0) * 3 })
        sets.append([Int64.min + 1, -5, 0, 4, Int64.max - 1])
        for ids in sets {
            check(ids, sorted: true, queries: queries(around: ids, random: &random))
            // The same ids shuffled, with duplicates: looked up through their order.
            var shuffled = ids + ids.prefix(50)
            for i in shuffled.indices.reversed() where i > 0 { shuffled.swapAt(i, random.below(i + 1)) }
            check(shuffled, sorted: false, queries: queries(around: ids, random: &random))
        }
    }

    /// The collector's look-up follows nodes read after it was built (sorted and not) and a reordering.
    func testCollectorLookUpFollowsNewNodes() {
        let collector = OSMCollector(profiles: [.car])
        var random = SeededRandom(seed: 3)
        var read: [Int64] = []
        var id: Int64 = 100
        for round in 0..<40 {
            for _ in 0..<(1 + random.below(300)) {
                id += Int64(1 + random.below(round < 30 ? 5 : 100_000))
                // Out of order from round 35 on: the look-up goes over to an order.
                let nodeID = round >= 35 && random.below(4) == 0 ? id - Int64(random.below(5000)) : id
                collector.handle(node: OSMNode(id: nodeID, latitudeE7: 0, longitudeE7: 0))
                read.append(nodeID)
            }
            for _ in 0..<100 {
                let probe = random.below(3) == 0 ? Int64(random.below(Int(id) + 10)) : read[random.below(read.count)]
                XCTAssertEqual(collector.nodePosition(of: probe), read.firstIndex(of: probe), "round \(round), id \(probe)")
            }
        }
    }
}
