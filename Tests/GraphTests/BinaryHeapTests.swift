import XCTest
@testable import Graph

/// The heap every search pops from: the smallest key first, and among equal keys the very pair a plain heap that
/// swaps at every level gives (searches break ties by the heap's order, so the order may not change with its code).
final class BinaryHeapTests: XCTestCase {
    /// The textbook heap, swapping a pair with its parent or smaller child level by level: the reference.
    private struct SwappingHeap {
        var keys: [Int] = [], elements: [Int] = []

        mutating func push(_ key: Int, _ element: Int) {
            keys.append(key); elements.append(element)
            var i = keys.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if !(keys[i] < keys[parent]) { break }
                keys.swapAt(i, parent); elements.swapAt(i, parent)
                i = parent
            }
        }

        mutating func pop() -> (key: Int, element: Int)? {
            guard !keys.isEmpty else { return nil }
            let top = (keys[0], elements[0])
            let lastKey = keys.removeLast(), lastElement = elements.removeLast()
            guard !keys.isEmpty else { return top }
            keys[0] = lastKey; elements[0] = lastElement
            var i = 0
            while true {
                let left = 2 * i + 1, right = left + 1
                var smallest = i
                if left < keys.count && keys[left] < keys[smallest] { smallest = left }
                if right < keys.count && keys[right] < keys[smallest] { smallest = right }
                if smallest == i { break }
                keys.swapAt(i, smallest); elements.swapAt(i, smallest)
                i = smallest
            }
            return top
        }
    }

    /// Random pushes and pops over few distinct keys (many ties) pop the same pairs, in the same order, as the
    /// swapping heap; the keys come out in order.
    func testPopsTheSamePairsAsASwappingHeap() {
        var rng = SplitMix64(state: 15)
        for round in 0..<200 {
            var heap = BinaryHeap<Int, Int>(), reference = SwappingHeap()
            let distinctKeys = 1 + round % 9
            var lastPopped = Int.min
            for step in 0..<400 {
                if Int.random(in: 0..<3, using: &rng) < 2 {
                    let key = Int.random(in: 0..<distinctKeys, using: &rng)
                    heap.push(key, step); reference.push(key, step)
                    lastPopped = Int.min
                } else {
                    let popped = heap.pop(), expected = reference.pop()
                    XCTAssertEqual(popped?.key, expected?.key, "round \(round), step \(step)")
                    XCTAssertEqual(popped?.element, expected?.element, "round \(round), step \(step)")
                    if let popped { XCTAssertGreaterThanOrEqual(popped.key, lastPopped); lastPopped = popped.key }
                }
                XCTAssertEqual(heap.count, reference.keys.count)
            }
            while let expected = reference.pop() {
                let popped = heap.pop()
                XCTAssertEqual(popped?.key, expected.key)
                XCTAssertEqual(popped?.element, expected.element)
            }
            XCTAssertNil(heap.pop())
            XCTAssertTrue(heap.isEmpty)
        }
    }

    /// A heap emptied with `removeAll` starts again as a new one.
    func testRemoveAllEmptiesTheHeap() {
        var heap = BinaryHeap<Double, Int32>(capacity: 4)
        for k in [3.0, 1.0, 2.0] { heap.push(k, Int32(k)) }
        heap.removeAll()
        XCTAssertNil(heap.pop())
        heap.push(5, 5); heap.push(4, 4)
        XCTAssertEqual(heap.pop()?.element, 4)
        XCTAssertEqual(heap.pop()?.element, 5)
    }
}
