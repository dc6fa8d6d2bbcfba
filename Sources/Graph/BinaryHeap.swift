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

    /// Adds `element` with priority `key`: it rises past every parent with a greater key.
    /// - Complexity: O(log n); the pair is moved into the hole once, no swaps.
    @inlinable public mutating func push(_ key: Key, _ element: Element) {
        keys.append(key)
        elements.append(element)
        keys.withUnsafeMutableBufferPointer { k in
            elements.withUnsafeMutableBufferPointer { e in
                var i = k.count - 1
                while i > 0 {
                    let parent = (i - 1) >> 1
                    if !(key < k[parent]) { break }
                    k[i] = k[parent]; e[i] = e[parent]
                    i = parent
                }
                k[i] = key; e[i] = element
            }
        }
    }

    /// Removes and returns the pair with the smallest key. The last pair fills the root's place and sinks, at each
    /// level to the left child when its key is less, then to the right child when its key is less still: among
    /// equal keys, the same pair comes out whatever the order of the storage's moves.
    /// - Complexity: O(log n); the pair is moved into the hole once, no swaps.
    @inlinable public mutating func pop() -> (key: Key, element: Element)? {
        guard let key = keys.first, let element = elements.first else { return nil }
        let lastKey = keys.removeLast(), lastElement = elements.removeLast()
        let count = keys.count
        if count > 0 {
            keys.withUnsafeMutableBufferPointer { k in
                elements.withUnsafeMutableBufferPointer { e in
                    var i = 0
                    while true {
                        let left = 2 * i + 1, right = left + 1
                        var smallest = i, least = lastKey
                        if left < count && k[left] < least { smallest = left; least = k[left] }
                        if right < count && k[right] < least { smallest = right }
                        if smallest == i { break }
                        k[i] = k[smallest]; e[i] = e[smallest]
                        i = smallest
                    }
                    k[i] = lastKey; e[i] = lastElement
                }
            }
        }
        return (key, element)
    }
}
