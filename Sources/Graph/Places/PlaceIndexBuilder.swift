/// Builds the place index from collected places: the text and category tables and the token index (every folded
/// token of every name, address and category value, with the places it occurs in).
///
/// Deterministic: the same places in the same order give the same arrays. Linear in the text's size, plus sorting
/// the distinct tokens.
public struct PlaceIndexBuilder {
    /// Most places an index holds (postings keep the place number in 30 bits).
    public static let maximumPlaces = 1 << 30

    /// Why the index cannot be built.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    /// The index of `places`, numbered in the given order.
    public func build(_ places: [CollectedPlace]) throws(Failure) -> PlaceIndexData {
        guard places.count < Self.maximumPlaces else {
            throw Failure(description: "\(places.count) places are more than a place index holds (\(Self.maximumPlaces))")
        }
        var data = PlaceIndexData()
        data.latitudes.reserveCapacity(places.count)
        data.longitudes.reserveCapacity(places.count)
        // Categories, numbered in (key, value) order.
        var categoryKeys = Set<CategoryKey>()
        for place in places { categoryKeys.insert(CategoryKey(key: place.categoryKey, value: place.categoryValue)) }
        let sortedCategories = categoryKeys.sorted()
        var categoryNumber: [CategoryKey: UInt32] = [:]
        for (i, category) in sortedCategories.enumerated() {
            categoryNumber[category] = UInt32(i)
            data.categoryText.append(contentsOf: category.key.utf8); data.categoryTextStart.append(UInt32(data.categoryText.count))
            data.categoryText.append(contentsOf: category.value.utf8); data.categoryTextStart.append(UInt32(data.categoryText.count))
        }
        data.categoryCounts = [UInt32](repeating: 0, count: sortedCategories.count)

        // Postings per token: the place's best field (lowest number) for each token it holds.
        var table = TokenTable()
        for (number, place) in places.enumerated() {
            let p = UInt32(number)
            data.latitudes.append(place.latitudeE7)
            data.longitudes.append(place.longitudeE7)
            data.osmIDs.append(place.osmID)
            data.sources.append(place.source.rawValue)
            let category = categoryNumber[CategoryKey(key: place.categoryKey, value: place.categoryValue)]!
            data.categories.append(category)
            data.categoryCounts[Int(category)] += 1
            let fields = [place.name, place.otherNames.joined(separator: String(PlaceField.nameSeparator)), place.houseNumber,
                          place.street, place.postcode, place.city, place.reference]
            for field in fields {
                data.text.append(contentsOf: field.utf8)
                guard data.text.count <= Int(UInt32.max) else { throw Failure(description: "the places' names and addresses exceed 4 GiB") }
                data.textStart.append(UInt32(data.text.count))
            }
            func add(_ text: String, _ field: PlaceTokenField) {
                PlaceTextFolding.forEachToken(in: text) { token in
                    let t = table.id(of: token)
                    table.postings[t].add(p << 2 | field.rawValue)
                }
            }
            add(place.name, .name)
            for other in place.otherNames { add(other, .otherName) }
            add(place.reference, .otherName)
            add(place.street, .address); add(place.houseNumber, .address); add(place.postcode, .address); add(place.city, .address)
            add(place.categoryValue, .category)
        }
        let sortedTokens = table.sortedIDs()
        for t in sortedTokens {
            table.withToken(t) { token in
                data.tokens.append(contentsOf: token)
                data.tokenSignatures.append(PlaceTextFolding.signature(token))
            }
            data.tokenStart.append(UInt32(data.tokens.count))
            data.postings.append(contentsOf: table.postings[t])
            guard data.postings.count <= Int(UInt32.max) else { throw Failure(description: "the place index exceeds 2^32 postings") }
            data.postingStart.append(UInt32(data.postings.count))
        }
        return data
    }

    private struct CategoryKey: Hashable, Comparable {
        var key: String
        var value: String
        static func < (a: CategoryKey, b: CategoryKey) -> Bool {
            a.key.utf8.lexicographicallyPrecedes(b.key.utf8) || (a.key == b.key && a.value.utf8.lexicographicallyPrecedes(b.value.utf8))
        }
    }
}

/// The distinct tokens met so far, each stored once in one byte array and found by an open-addressing hash of its
/// bytes (FNV-1a): no array allocated, and no SipHash, per token met, which a dictionary keyed by byte arrays cost.
private struct TokenTable {
    /// The tokens' bytes, one after another; token t is `bytes[starts[t]..<starts[t + 1]]`.
    var bytes: [UInt8] = []
    var starts: [Int] = [0]
    /// Each token's postings (`place << 2 | field`), in place order.
    var postings: [[UInt32]] = []
    /// Token number + 1 per slot (0: empty); the slot count is a power of two, at most half full.
    private var slots = [Int](repeating: 0, count: 1024)

    private static func hash(_ token: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    /// Calls `body` with the bytes of token t.
    func withToken<R>(_ t: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[starts[t]..<starts[t + 1]])) }
    }

    /// The number of `token`, added (with no postings) when new.
    mutating func id(of token: UnsafeBufferPointer<UInt8>) -> Int {
        let mask = slots.count - 1
        var slot = Self.hash(token) & mask
        while slots[slot] != 0 {
            let t = slots[slot] - 1
            if withToken(t, { $0.elementsEqual(token) }) { return t }
            slot = (slot + 1) & mask
        }
        let t = postings.count
        bytes.append(contentsOf: token)
        starts.append(bytes.count)
        postings.append([])
        slots[slot] = t + 1
        if 2 * postings.count > slots.count { grow() }
        return t
    }

    /// Doubles the slots and places every token again.
    private mutating func grow() {
        slots = [Int](repeating: 0, count: 2 * slots.count)
        let mask = slots.count - 1
        for t in postings.indices {
            var slot = withToken(t) { Self.hash($0) } & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = t + 1
        }
    }

    /// The token numbers in byte order of their tokens.
    func sortedIDs() -> [Int] {
        bytes.withUnsafeBufferPointer { all in
            postings.indices.sorted { a, b in
                UnsafeBufferPointer(rebasing: all[starts[a]..<starts[a + 1]])
                    .lexicographicallyPrecedes(UnsafeBufferPointer(rebasing: all[starts[b]..<starts[b + 1]]))
            }
        }
    }
}

private extension Array where Element == UInt32 {
    /// Appends `posting` (`place << 2 | field`), or keeps the lower field when the last posting is the same place's.
    mutating func add(_ posting: UInt32) {
        if let last = last, last >> 2 == posting >> 2 {
            if last & 3 > posting & 3 { self[count - 1] = posting }
        } else {
            append(posting)
        }
    }
}
