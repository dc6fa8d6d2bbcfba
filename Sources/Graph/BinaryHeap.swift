/// A binary min-heap of (key, element) pairs: the priority queue of every search in the project.
///
/// Keys and elements live in two plain arrays. Ties are not broken by anything but the order of operations,
/// so the same pushes and pops always give the same results.
public struct BinaryHeap<Key: Comparable, Element> {
    @usableFromInline var keys: [Key] = []
    @usableFromInline var elements: [Element] = []

    @inlinable public init() {}

    /// An empty heap with room for `capacity` pairs before it grows.
    @inlinable public init(capacity: Int) {
        keys.reserveCapacity(capacity)
        elements.reserveCapacity(capacity)
    }

    @inlinable public var isEmpty: Bool { keys.isEmpty }
    @inlinable public var count: Int { keys.count }

    /// The smallest key, without removing it.
    @inlinable public var peekKey: Key? { keys.first }

    /// Empties the heap, keeping its storage for reuse.
    @inlinable public mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        elements.removeAll(keepingCapacity: true)
    }

    /// Adds `element` with priority `key`.
    @inlinable public mutating func push(_ key: Key, _ element: Element) {
        keys.append(key)
        elements.append(element)
        var i = keys.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if !(keys[i] < keys[parent]) { break }
            keys.swapAt(i, parent)
            elements.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the pair with the smallest key.
    @inlinable public mutating func pop() -> (key: Key, element: Element)? {
        guard let key = keys.first, let element = elements.first else { return nil }
        let lastKey = keys.removeLast(), lastElement = elements.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey
            elements[0] = lastElement
            var i = 0
            let count = keys.count
            while true {
                let left = 2 * i + 1, right = left + 1
                var smallest = i
                if left < count && keys[left] < keys[smallest] { smallest = left }
                if right < count && keys[right] < keys[smallest] { smallest = right }
                if smallest == i { break }
                keys.swapAt(i, smallest)
                elements.swapAt(i, smallest)
                i = smallest
            }
        }
        return (key, element)
    }
}
