import OSM

/// The category keys of `PlaceCollector` (`keyRanks`) in a small open-addressing table looked up by a key's length
/// and first byte: a key that is not a category key is mostly refused without comparing strings, and none is hashed,
/// which matters because every tag of every element of the input is looked up.
struct CategoryKeyTable {
    /// A category key and how a tag with it ranks.
    struct Entry {
        let key: String
        let length: Int
        let first: UInt8
        /// The key's rank in `keyRanks` (below 100: it can make a place of its own).
        let rank: Int
        /// Its rank when it does not (100 + its place among the fallback keys, 150 when it is not one).
        let fallbackRank: Int
        /// The values with which it makes a place of its own (nil: every value).
        let ownValues: [String]?
        /// Whether the key is `highway` (roads keep no way mean, see `PlaceCollector.collect(way:collector:)`).
        let isHighway: Bool

        /// The rank of a tag with this key and `value`, and whether it makes a place of its own.
        @inline(__always)
        func rank(of value: String) -> (rank: Int, own: Bool) {
            guard rank < 100 else { return (fallbackRank, false) }
            if let ownValues, !ownValues.contains(value) { return (fallbackRank, false) }
            return (rank, true)
        }
    }

    private let entries: [Entry]
    /// Entry numbers by slot, -1 for an empty slot; a power of two at least twice the number of keys.
    private let slots: [Int16]

    /// The table of the keys of `ranks`, ranked as `PlaceCollector.category(of:)` ranks them.
    init(ranks: [String: Int], fallbackKeys: [String], ownValues: [String: Set<String>]) {
        var entries: [Entry] = []
        for key in ranks.keys.sorted() {
            let utf8 = Array(key.utf8)
            entries.append(Entry(key: key, length: utf8.count, first: utf8.first ?? 0, rank: ranks[key]!,
                                 fallbackRank: 100 + (fallbackKeys.firstIndex(of: key) ?? 50),
                                 ownValues: ownValues[key].map { $0.sorted() }, isHighway: key == "highway"))
        }
        var size = 16
        while size < 2 * entries.count { size *= 2 }
        var slots = [Int16](repeating: -1, count: size)
        for (number, entry) in entries.enumerated() {
            var slot = Self.slot(length: entry.length, first: entry.first, size: size)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int16(number)
        }
        self.entries = entries
        self.slots = slots
    }

    @inline(__always)
    private static func slot(length: Int, first: UInt8, size: Int) -> Int {
        (length &* 7 &+ Int(first)) & (size - 1)
    }

    /// The entry of `key` (whose UTF-8 length and first byte the caller has), nil when it is not a category key.
    @inline(__always)
    func entry(_ key: String, length: Int, first: UInt8) -> Entry? {
        let size = slots.count
        var slot = Self.slot(length: length, first: first, size: size)
        while true {
            let number = Int(slots[slot])
            if number < 0 { return nil }
            let entry = entries[number]
            if entry.length == length, entry.first == first, entry.key == key { return entry }
            slot = (slot + 1) & (size - 1)
        }
    }
}

/// The best category tag met so far among an element's tags: the lowest rank, the first of equal ranks.
struct CategoryChoice {
    /// The position of the chosen tag among the element's tags (nil: no category key met).
    private(set) var tag: Int? = nil
    private(set) var rank = Int.max
    /// Whether the chosen tag makes the element a place of its own.
    private(set) var own = false

    /// Takes the tag at position `position` with a key of `entry` and `value` if it ranks before the chosen one.
    @inline(__always)
    mutating func consider(_ entry: CategoryKeyTable.Entry, value: String, at position: Int) {
        let (rank, own) = entry.rank(of: value)
        if tag == nil || rank < self.rank { tag = position; self.rank = rank; self.own = own }
    }

    /// Takes `tag`, at `position`, if its key is a category key and it ranks before the chosen one.
    mutating func consider(_ tag: OSMTag, at position: Int) {
        let utf8 = tag.key.utf8
        guard let first = utf8.first, let entry = PlaceCollector.categoryKeys.entry(tag.key, length: utf8.count, first: first) else { return }
        consider(entry, value: tag.value, at: position)
    }
}
