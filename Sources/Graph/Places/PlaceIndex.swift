/// The place index of an opened graph file: typed views straight into the mapped memory, checked at open.
///
/// `init(file:)` verifies the file's checksums (once per file) and then every count, offset and index the search
/// follows, so a corrupt or hand-made section is refused naming it (`GraphFileError.invalidSection`), never read past.
public struct PlaceIndex: @unchecked Sendable {
    /// The mapped file (kept alive as long as the views are used).
    public let file: GraphFile
    public let latitudes: UnsafeBufferPointer<Int32>
    public let longitudes: UnsafeBufferPointer<Int32>
    public let osmIDs: UnsafeBufferPointer<Int64>
    public let sources: UnsafeBufferPointer<UInt8>
    public let categories: UnsafeBufferPointer<UInt32>
    public let textStart: UnsafeBufferPointer<UInt32>
    public let text: UnsafeBufferPointer<UInt8>
    public let categoryTextStart: UnsafeBufferPointer<UInt32>
    public let categoryText: UnsafeBufferPointer<UInt8>
    public let categoryCounts: UnsafeBufferPointer<UInt32>
    public let tokenStart: UnsafeBufferPointer<UInt32>
    public let tokens: UnsafeBufferPointer<UInt8>
    public let tokenSignatures: UnsafeBufferPointer<UInt64>
    public let postingStart: UnsafeBufferPointer<UInt32>
    public let postings: UnsafeBufferPointer<UInt32>

    /// Whether `file` holds a place index (made by an import with places).
    public static func isPresent(in file: GraphFile) -> Bool { file.has(PlaceSectionName.latitudes) }

    /// Opens the place index of `file`: checksums (`GraphFile.verifyChecksums()`, unless `verifyingChecksums` is false),
    /// then the structure (`validateStructure()`). Throws `missingSection` when the file has no place index.
    public init(file: GraphFile, verifyingChecksums: Bool = true) throws(GraphFileError) {
        if verifyingChecksums { try file.verifyChecksums() }
        typealias S = PlaceSectionName
        self.file = file
        latitudes = try file.array(S.latitudes)
        longitudes = try file.array(S.longitudes)
        osmIDs = try file.array(S.osmIDs)
        sources = try file.array(S.sources)
        categories = try file.array(S.categories)
        textStart = try file.array(S.textStart)
        text = try file.array(S.text)
        categoryTextStart = try file.array(S.categoryTextStart)
        categoryText = try file.array(S.categoryText)
        categoryCounts = try file.array(S.categoryCounts)
        tokenStart = try file.array(S.tokenStart)
        tokens = try file.array(S.tokens)
        tokenSignatures = try file.array(S.tokenSignatures)
        postingStart = try file.array(S.postingStart)
        postings = try file.array(S.postings)
        try validateStructure()
    }

    /// Opens the place index of the graph file at `path` (see `init(file:)`).
    public init(path: String) throws(GraphFileError) { try self.init(file: GraphFile(path: path)) }

    /// Number of places.
    public var count: Int { latitudes.count }
    /// Number of categories.
    public var categoryCount: Int { categoryCounts.count }
    /// Number of distinct tokens.
    public var tokenCount: Int { tokenSignatures.count }

    /// Checks every section against the others, naming the first at fault. Linear in the index's size.
    public func validateStructure() throws(GraphFileError) {
        let check = SectionValidator(path: file.path)
        typealias S = PlaceSectionName
        let p = latitudes.count, c = categoryCounts.count, t = tokenSignatures.count
        try check.require(p < PlaceIndexBuilder.maximumPlaces, S.latitudes, "has \(p) places, more than an index can number")
        try check.count(longitudes, S.longitudes, p, "one per place")
        try check.count(osmIDs, S.osmIDs, p, "one per place")
        try check.count(sources, S.sources, p, "one per place")
        try check.count(categories, S.categories, p, "one per place")
        try check.coordinates(latitudes, S.latitudes, limit: RoadGraph.latitudeLimit)
        try check.coordinates(longitudes, S.longitudes, limit: RoadGraph.longitudeLimit)
        for (i, source) in sources.enumerated() where PlaceSource(rawValue: source) == nil {
            throw check.failure(S.sources, "element \(i) is \(source), not a place source (0–3)")
        }
        try check.below(categories, c, S.categories, "the categories")
        try check.offsets(textStart, S.textStart, slices: p * PlaceField.count, total: text.count, "place field")
        try check.offsets(categoryTextStart, S.categoryTextStart, slices: 2 * c, total: categoryText.count, "category key and value")
        try check.offsets(tokenStart, S.tokenStart, slices: t, total: tokens.count, "token")
        try check.offsets(postingStart, S.postingStart, slices: t, total: postings.count, "token")
        // Tokens: not empty, not longer than folding makes them, in strictly increasing byte order (the search's binary search).
        for i in 0..<t {
            let length = Int(tokenStart[i + 1]) - Int(tokenStart[i])
            try check.require(length > 0 && length <= PlaceTextFolding.maximumTokenLength + 4, S.tokenStart,
                              "gives token \(i) \(length) bytes (1 to \(PlaceTextFolding.maximumTokenLength + 4))")
            if i > 0 {
                try check.require(compare(token: i - 1, with: token(i)) < 0, S.tokens, "is not in strictly increasing order at token \(i)")
            }
        }
        for (i, posting) in postings.enumerated() where Int(posting >> 2) >= p {
            throw check.failure(S.postings, "element \(i) names place \(posting >> 2), not below \(p) (the places)")
        }
    }

    /// The bytes of token `t`.
    @inline(__always) public func token(_ t: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: tokens[Int(tokenStart[t])..<Int(tokenStart[t + 1])])
    }

    /// Byte order of token `t` against `other`: negative, 0 or positive.
    @inline(__always) func compare(token t: Int, with other: UnsafeBufferPointer<UInt8>) -> Int {
        let start = Int(tokenStart[t]), length = Int(tokenStart[t + 1]) - start
        let common = min(length, other.count)
        var k = 0
        while k < common {
            let a = tokens[start + k], b = other[k]
            if a != b { return a < b ? -1 : 1 }
            k += 1
        }
        return length - other.count
    }

    /// The first token not before `key` in byte order.
    func lowerBound(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var low = 0, high = tokenCount
        while low < high {
            let mid = (low + high) / 2
            if compare(token: mid, with: key) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The token that is exactly `word`, or nil when the index has none.
    func exactToken(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        let t = lowerBound(word)
        guard t < tokenCount, compare(token: t, with: word) == 0 else { return nil }
        return t
    }

    /// The UTF-8 bytes of field `field` of place `place`.
    @inline(__always) public func bytes(of field: PlaceField, place: Int) -> UnsafeBufferPointer<UInt8> {
        let i = place * PlaceField.count + field.rawValue
        return UnsafeBufferPointer(rebasing: text[Int(textStart[i])..<Int(textStart[i + 1])])
    }

    /// Field `field` of place `place` as a string.
    public func string(_ field: PlaceField, place: Int) -> String { String(decoding: bytes(of: field, place: place), as: UTF8.self) }

    /// Category `c`'s OSM key and value.
    public func category(_ c: Int) -> (key: String, value: String) {
        func part(_ i: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: categoryText[Int(categoryTextStart[i])..<Int(categoryTextStart[i + 1])]), as: UTF8.self)
        }
        return (part(2 * c), part(2 * c + 1))
    }

    /// Every category with its number of places, by key then value.
    public func categoryList() -> [PlaceCategory] {
        (0..<categoryCount).map { c in
            let (key, value) = category(c)
            return PlaceCategory(key: key, value: value, count: Int(categoryCounts[c]))
        }
    }

    /// Place `i` in full.
    public func place(_ i: Int) -> Place {
        let (key, value) = category(Int(categories[i]))
        let others = string(.otherNames, place: i)
        return Place(
            index: i, source: PlaceSource(rawValue: sources[i]) ?? .node, osmID: osmIDs[i],
            latitude: Geo.degrees(latitudes[i]), longitude: Geo.degrees(longitudes[i]),
            name: string(.name, place: i), otherNames: others.isEmpty ? [] : others.split(separator: PlaceField.nameSeparator).map(String.init),
            categoryKey: key, category: value,
            houseNumber: string(.houseNumber, place: i), street: string(.street, place: i), postcode: string(.postcode, place: i),
            city: string(.city, place: i), reference: string(.reference, place: i))
    }
}

/// A category of places and how many the index holds.
public struct PlaceCategory: Equatable, Sendable {
    /// The OSM key (`amenity`) and value (`restaurant`).
    public var key: String
    public var value: String
    public var count: Int
}

/// One place of the index, decoded.
public struct Place: Equatable, Sendable {
    /// Its number in the index.
    public var index: Int
    public var source: PlaceSource
    /// The OSM id (0 for a GTFS stop).
    public var osmID: Int64
    /// The representative point, degrees.
    public var latitude: Double
    public var longitude: Double
    public var name: String
    public var otherNames: [String]
    public var categoryKey: String
    public var category: String
    public var houseNumber: String
    public var street: String
    public var postcode: String
    public var city: String
    /// The GTFS `stop_id` of a transit stop ("" otherwise).
    public var reference: String

    /// What to call the place: its name, else its address ("Street 12"), else its category.
    public var title: String {
        if !name.isEmpty { return name }
        let address = [street, houseNumber].filter { !$0.isEmpty }.joined(separator: " ")
        return address.isEmpty ? category : address
    }

    /// The address on one line ("Street 12, 9490 Vaduz"); "" when there is none.
    public var address: String {
        let line1 = [street, houseNumber].filter { !$0.isEmpty }.joined(separator: " ")
        let line2 = [postcode, city].filter { !$0.isEmpty }.joined(separator: " ")
        return [line1, line2].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
