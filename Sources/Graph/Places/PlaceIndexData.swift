/// Section names of the place index (`docs/graph-format.md`, *Place sections*).
public enum PlaceSectionName {
    public static let latitudes = "places.lat"
    public static let longitudes = "places.lon"
    public static let osmIDs = "places.osm_id"
    public static let sources = "places.source"
    public static let categories = "places.category"
    public static let textStart = "places.text0"
    public static let text = "places.text"
    public static let categoryTextStart = "places.cat_text0"
    public static let categoryText = "places.cat_text"
    public static let categoryCounts = "places.cat_count"
    public static let tokenStart = "places.token0"
    public static let tokens = "places.tokens"
    public static let tokenSignatures = "places.token_sig"
    public static let postingStart = "places.post0"
    public static let postings = "places.post"

    /// Every section of the index, in the order they are written.
    public static let all = [latitudes, longitudes, osmIDs, sources, categories, textStart, text, categoryTextStart, categoryText,
                             categoryCounts, tokenStart, tokens, tokenSignatures, postingStart, postings]
}

/// The text fields stored per place, in order: place p's field f is text `p × count + f`.
public enum PlaceField: Int, CaseIterable, Sendable {
    case name = 0, otherNames, houseNumber, street, postcode, city, reference
    /// Fields per place.
    public static let count = 7
    /// Separator of the names in `otherNames`.
    public static let nameSeparator: Character = ";"
}

/// What a posting says about where its token occurs in the place (its low two bits).
public enum PlaceTokenField: UInt32, Sendable {
    /// The `name`.
    case name = 0
    /// Another name or the GTFS stop id.
    case otherName = 1
    /// Street, house number, postcode or city.
    case address = 2
    /// The category's value (`restaurant`).
    case category = 3
}

/// The place index as plain arrays (structure of arrays), as `PlaceIndexBuilder` makes it and the file stores it.
public struct PlaceIndexData: Sendable, Equatable {
    /// Per place: position (1e-7 degrees), OSM id, source (`PlaceSource`), category number.
    public var latitudes: [Int32] = []
    public var longitudes: [Int32] = []
    public var osmIDs: [Int64] = []
    public var sources: [UInt8] = []
    public var categories: [UInt32] = []
    /// Text `i` is `text[textStart[i] ..< textStart[i + 1]]` (UTF-8); place p's field f is text `p × PlaceField.count + f`.
    public var textStart: [UInt32] = [0]
    public var text: [UInt8] = []
    /// Category c's key is category text `2c`, its value `2c + 1`.
    public var categoryTextStart: [UInt32] = [0]
    public var categoryText: [UInt8] = []
    /// Places per category.
    public var categoryCounts: [UInt32] = []
    /// Distinct folded tokens in byte order: token t is `tokens[tokenStart[t] ..< tokenStart[t + 1]]`.
    public var tokenStart: [UInt32] = [0]
    public var tokens: [UInt8] = []
    /// Each token's character set (`PlaceTextFolding.signature`).
    public var tokenSignatures: [UInt64] = []
    /// Token t's places are `postings[postingStart[t] ..< postingStart[t + 1]]`, each `place << 2 | PlaceTokenField`, by place.
    public var postingStart: [UInt32] = [0]
    public var postings: [UInt32] = []

    public init() {}

    /// Number of places.
    public var count: Int { latitudes.count }

    /// Appends the index's sections to `writer` (a file being written, or the graph in memory).
    public func write(to writer: some GraphSectionSink) throws(GraphFileError) {
        typealias S = PlaceSectionName
        try writer.append(S.latitudes, latitudes)
        try writer.append(S.longitudes, longitudes)
        try writer.append(S.osmIDs, osmIDs)
        try writer.append(S.sources, sources)
        try writer.append(S.categories, categories)
        try writer.append(S.textStart, textStart)
        try writer.append(S.text, text)
        try writer.append(S.categoryTextStart, categoryTextStart)
        try writer.append(S.categoryText, categoryText)
        try writer.append(S.categoryCounts, categoryCounts)
        try writer.append(S.tokenStart, tokenStart)
        try writer.append(S.tokens, tokens)
        try writer.append(S.tokenSignatures, tokenSignatures)
        try writer.append(S.postingStart, postingStart)
        try writer.append(S.postings, postings)
    }
}
