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
        var postingsByToken: [[UInt8]: [UInt32]] = [:]
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
                    let posting = p << 2 | field.rawValue
                    postingsByToken[Array(token), default: []].add(posting)
                }
            }
            add(place.name, .name)
            for other in place.otherNames { add(other, .otherName) }
            add(place.reference, .otherName)
            add(place.street, .address); add(place.houseNumber, .address); add(place.postcode, .address); add(place.city, .address)
            add(place.categoryValue, .category)
        }
        let sortedTokens = postingsByToken.keys.sorted { $0.lexicographicallyPrecedes($1) }
        for token in sortedTokens {
            data.tokens.append(contentsOf: token)
            data.tokenStart.append(UInt32(data.tokens.count))
            data.tokenSignatures.append(token.withUnsafeBufferPointer { PlaceTextFolding.signature($0) })
            data.postings.append(contentsOf: postingsByToken[token]!)
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
