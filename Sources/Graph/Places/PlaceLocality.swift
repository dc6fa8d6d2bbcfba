import Foundation

/// The town, village or suburb that some words of a place search name, and the words left to search around it: in
/// "Landstrasse 5 Schaan", the village Schaan and "landstrasse 5". Many OSM places give no town in their address
/// (`addr:city`), so a search that wants every word in the place's own text misses them; around a settlement named
/// exactly, the other words find them.
struct PlaceLocality {
    /// The settlements of that name (several towns may share one): point, its latitude's cosine, and how far around
    /// it a place may lie, metres.
    var centres: [(latitude: Double, longitude: Double, cosine: Double, radius: Double)]
    /// The query's other words, to search around the centres.
    var rest: [[UInt8]]
    /// How many of the query's words name the settlement.
    var wordCount: Int

    /// Most settlements of one name kept.
    static let maximumCentres = 8
    /// Most words a settlement's name may have.
    static let maximumWords = 3

    /// How far around a settlement of category `key=value` its places lie, metres (about its built-up area's
    /// reach: a city 15 km, a village 3 km); nil for other kinds of place.
    static func radius(key: String, value: String) -> Double? {
        guard key == "place" else { return nil }
        switch value {
        case "city": return 15_000
        case "town": return 6_000
        case "municipality": return 5_000
        case "village", "suburb", "borough": return 3_000
        case "quarter": return 1_500
        case "neighbourhood", "hamlet": return 1_000
        default: return nil
        }
    }
}

extension PlaceSearcher {
    /// The locality of a query of two or more words: its last one to three words naming a settlement exactly (the
    /// longest such run first), else its first one to three; nil when neither does. At least one word is left.
    func locality(in words: [[UInt8]]) -> PlaceLocality? {
        let n = words.count
        guard n >= 2 else { return nil }
        let longest = min(PlaceLocality.maximumWords, n - 1)
        for k in stride(from: longest, through: 1, by: -1) {
            if let centres = settlements(named: Array(words[(n - k)...])) {
                return PlaceLocality(centres: centres, rest: Array(words[..<(n - k)]), wordCount: k)
            }
        }
        for k in stride(from: longest, through: 1, by: -1) {
            if let centres = settlements(named: Array(words[..<k])) {
                return PlaceLocality(centres: centres, rest: Array(words[k...]), wordCount: k)
            }
        }
        return nil
    }

    /// The settlements (`PlaceLocality.radius`) whose name or another name folds to exactly `words`, up to
    /// `PlaceLocality.maximumCentres`; nil when there is none. Exact tokens only: a binary search per word and one
    /// posting list, so a query that names no settlement costs next to nothing.
    private func settlements(named words: [[UInt8]]) -> [(latitude: Double, longitude: Double, cosine: Double, radius: Double)]? {
        var rarest = -1, fewest = Int.max
        for word in words {
            guard let t = word.withUnsafeBufferPointer({ index.exactToken($0) }) else { return nil }
            let postings = Int(index.postingStart[t + 1] - index.postingStart[t])
            if postings < fewest { fewest = postings; rarest = t }
        }
        guard rarest >= 0 else { return nil }
        var centres: [(latitude: Double, longitude: Double, cosine: Double, radius: Double)] = []
        var seen = Set<Int>()
        for position in Int(index.postingStart[rarest])..<Int(index.postingStart[rarest + 1]) {
            let posting = index.postings[position]
            guard posting & 3 <= PlaceTokenField.otherName.rawValue else { continue }
            let p = Int(posting >> 2)
            let radius = settlementRadius[Int(index.categories[p])]
            guard radius > 0, seen.insert(p).inserted else { continue }
            let place = index.place(p)
            guard ([place.name] + place.otherNames).contains(where: { PlaceTextFolding.tokens(of: $0) == words }) else { continue }
            centres.append((place.latitude, place.longitude, cos(place.latitude * .pi / 180), radius))
            if centres.count == PlaceLocality.maximumCentres { break }
        }
        return centres.isEmpty ? nil : centres
    }
}
