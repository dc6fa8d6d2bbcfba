import Foundation

/// A place search: words to match (any order, each a whole word, a word's beginning or a near spelling), and the
/// optional category, point of reference and number of answers.
public struct PlaceQuery: Sendable {
    /// The words; case and accents do not matter ("bismarkplatz" finds "Bismarckplatz").
    public var text: String
    /// Only places of this category: its value (`restaurant`) or `key=value` (`amenity=restaurant`).
    public var category: String?
    /// Rank nearer places higher: latitude and longitude in degrees.
    public var near: (latitude: Double, longitude: Double)?
    /// Most answers.
    public var limit: Int

    /// A query for `text`, optionally by category and near a point.
    public init(_ text: String, category: String? = nil, near: (latitude: Double, longitude: Double)? = nil, limit: Int = 10) {
        self.text = text; self.category = category; self.near = near; self.limit = limit
    }
}

/// One answer of a place search.
public struct PlaceMatch: Equatable, Sendable {
    /// The place's number in the index (`PlaceIndex.place(_:)`).
    public var place: Int
    /// How well it matches, higher is better: the text match (1 for every word exact in the name) plus the kind of
    /// place's bonus (`PlaceProminence`: a town, a station) less a penalty that grows with the logarithm of the
    /// distance to `near`; browsing a category near a point (no words), the distance penalty alone.
    public var score: Double
    /// Metres from `near` (nil without one).
    public var distance: Double?
    /// The text match alone, without the distance penalty: the mean over the query's words of the best token
    /// quality (1 exact, less for a beginning or a near spelling) times the field's weight (name 1, other names 0.9,
    /// address 0.8, category 0.7). Places with the same name have the same text score.
    public var textScore: Double = 0
}

/// Why a search could not run.
public enum PlaceSearchError: Error, Equatable, CustomStringConvertible {
    /// The category is not in the index; `suggestions` are the nearest category names it has.
    case unknownCategory(String, suggestions: [String])
    /// Neither words nor a category were given.
    case emptyQuery

    public var description: String {
        switch self {
        case let .unknownCategory(name, suggestions):
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: ", "))?)"
            return "no place has category '\(name)'\(hint); `places --categories` lists them"
        case .emptyQuery: return "give words to search for, a category, or both"
        }
    }
}

/// Searches a place index: for each word of the query, the index tokens it matches (the word itself; what it
/// abbreviates or its abbreviations, `PlaceAbbreviations`: "av" and "avenida"; tokens it begins,
/// for words of 3+ letters and for the last word; tokens within one edit — insertion, deletion, substitution or
/// transposition of neighbours — for words of 5+ letters (4 in the query when the token has 5: a deletion), two edits for 9+; for the last word also tokens whose
/// beginning is that near), then the places that hold a match for every word, ranked by how well and where they
/// match (name, other names, address, category), by the kind of place (`PlaceProminence`) and by distance to `near`;
/// one answer stands for the pieces of one street or one transit stop.
///
/// Holds its own work arrays (one slot per place, reused: nothing allocated per place scored); one searcher per thread.
public final class PlaceSearcher {
    public let index: PlaceIndex

    // Per place: the search that last touched it, how many query words it has matched, and its score so far.
    @exclusivity(unchecked) private var stamp: [UInt32]
    @exclusivity(unchecked) private var matched: [UInt8]
    @exclusivity(unchecked) private var score: [Float]
    @exclusivity(unchecked) private var touched: [Int32] = []
    @exclusivity(unchecked) private var currentStamp: UInt32 = 0
    // The matching tokens of every query word, back to back: (token, quality).
    @exclusivity(unchecked) private var matchTokens: [Int32] = []
    @exclusivity(unchecked) private var matchQualities: [Float] = []
    @exclusivity(unchecked) private var allowed: [Bool]
    @exclusivity(unchecked) private var rows: [Int32] = Array(repeating: 0, count: 3 * (PlaceTextFolding.maximumTokenLength + 8))
    @exclusivity(unchecked) private var best: [(rank: Float, text: Float, place: Int32)] = []
    /// Per category: its bonus in the ranking (`PlaceProminence.bonus`) and whether it is a piece of a transit stop.
    private let prominence: [Float]
    private let stopPiece: [Bool]
    /// Per category: how far around a settlement of it (`place=town`…) its places lie, metres; 0 for other kinds.
    let settlementRadius: [Double]

    /// Most query words used (later ones are ignored).
    public static let maximumWords = 12

    /// The quality of a token matched as what an abbreviation stands for, or the reverse (`PlaceAbbreviations`):
    /// below the word itself, above any beginning or near spelling.
    static let abbreviationQuality: Float = 0.95

    /// How much a match counts by where the token occurs (`PlaceTokenField` order).
    static let fieldWeights: [Float] = [1.0, 0.9, 0.8, 0.7]

    public init(index: PlaceIndex) {
        self.index = index
        stamp = Array(repeating: 0, count: index.count)
        matched = Array(repeating: 0, count: index.count)
        score = Array(repeating: 0, count: index.count)
        allowed = Array(repeating: false, count: index.categoryCount)
        let kinds = (0..<index.categoryCount).map { index.category($0) }
        prominence = kinds.map { PlaceProminence.bonus(key: $0.key, value: $0.value) }
        stopPiece = kinds.map { PlaceProminence.isTransitStop(key: $0.key, value: $0.value) }
        settlementRadius = kinds.map { PlaceLocality.radius(key: $0.key, value: $0.value) ?? 0 }
    }

    /// The places matching `query`, best first. When the places holding every word are fewer than the limit and the
    /// last words (or the first) name a town, village or suburb of the index exactly, the places holding the other
    /// words around it follow (`PlaceLocality`): "Landstrasse 5, Schaan" finds a café on Landstrasse 5 whose address
    /// names no town.
    public func search(_ query: PlaceQuery) throws(PlaceSearchError) -> [PlaceMatch] {
        let limit = max(0, query.limit)
        let filtering = query.category != nil
        if let category = query.category { try allowCategories(category) }
        var words = PlaceTextFolding.tokens(of: query.text)
        if words.count > Self.maximumWords { words.removeLast(words.count - Self.maximumWords) }
        if words.isEmpty && !filtering { throw .emptyQuery }
        if limit == 0 { return [] }
        let found = ranked(words, filtering: filtering, near: query.near, limit: limit)
        guard found.count < limit, let locality = locality(in: words) else { return found }
        var result = found
        for match in ranked(locality.rest, filtering: filtering, near: query.near, limit: limit, within: locality) where result.count < limit {
            if !result.contains(where: { $0.place == match.place }) { result.append(match) }
        }
        return result
    }

    /// The best `limit` places holding every word of `words` (or, with no words, every place of the allowed
    /// categories), ranked by text, kind and distance to `near`; `within` a locality, only the places around its
    /// settlements, ranked by the distance to the nearest of them, its words counted as exact words of the address.
    private func ranked(_ words: [[UInt8]], filtering: Bool, near: (latitude: Double, longitude: Double)?, limit: Int,
                        within locality: PlaceLocality? = nil) -> [PlaceMatch] {
        let cosine = near.map { cos($0.latitude * .pi / 180) } ?? 1
        best.removeAll(keepingCapacity: true)
        // Room for the answers that `answers` leaves out (pieces of one street or one stop).
        let keep = 2 * limit + 32
        let browsing = words.isEmpty
        func consider(_ place: Int, text: Float) {
            // Browsing a category near a point: nearest first. Else the text match, then the kind of place and the
            // distance; among equals the shorter name (the closer match).
            var rank: Float
            if browsing, near != nil {
                rank = 0
            } else {
                rank = text + prominence[Int(index.categories[place])] - 0.0005 * Float(min(index.bytes(of: .name, place: place).count, 100))
            }
            if let locality {
                var nearest = Double.infinity
                for centre in locality.centres {
                    let metres = distance(place, (centre.latitude, centre.longitude), centre.cosine)
                    if metres <= centre.radius { nearest = min(nearest, metres) }
                }
                guard nearest.isFinite else { return }
                rank -= Self.distancePenalty(nearest)
            } else if let near {
                rank -= Self.distancePenalty(distance(place, near, cosine))
            }
            if best.count == keep, rank <= best[keep - 1].rank { return }
            var position = best.count
            while position > 0, best[position - 1].rank < rank { position -= 1 }
            if best.count == keep { best.removeLast() }
            best.insert((rank, text, Int32(place)), at: position)
        }

        if words.isEmpty {
            for place in 0..<index.count where allowed[Int(index.categories[place])] { consider(place, text: 1) }
        } else {
            matchWords(words)
            // The town's words count as exact words of the address (as in a place whose address names the town).
            let located = Float(locality?.wordCount ?? 0)
            let credited = located * Self.fieldWeights[Int(PlaceTokenField.address.rawValue)], total = Float(words.count) + located
            for place in touched {
                let p = Int(place)
                guard Int(matched[p]) == words.count else { continue }
                if filtering, !allowed[Int(index.categories[p])] { continue }
                consider(p, text: (score[p] + credited) / total)
            }
        }
        return answers(limit: limit, near: near, cosine: cosine)
    }

    /// The rank a place loses at `metres` from the point of the search: 0.15 per tenfold distance beyond 100 m.
    @inline(__always)
    static func distancePenalty(_ metres: Double) -> Float { 0.15 * Float(log10(1 + metres / 100)) }

    /// Every category with its number of places.
    public func categories() -> [PlaceCategory] { index.categoryList() }

    /// The index's tokens nearest in spelling to `word` (folded as the search folds it), at most `maxDistance` edits
    /// (optimal string alignment), nearest first, then the token naming most places: the spellings to suggest when
    /// a word matches nothing.
    public func closestTokens(to word: String, maxDistance: Int, limit: Int) -> [(token: String, distance: Int)] {
        guard let folded = PlaceTextFolding.tokens(of: word).first, limit > 0 else { return [] }
        var found: [(distance: Int, places: Int, token: Int)] = []
        rows.withUnsafeMutableBufferPointer { rows in
            folded.withUnsafeBufferPointer { target in
                for t in 0..<index.tokenCount {
                    let start = Int(index.tokenStart[t]), length = Int(index.tokenStart[t + 1]) - start
                    guard abs(length - target.count) <= maxDistance else { continue }
                    let token = UnsafeBufferPointer(rebasing: index.tokens[start..<(start + length)])
                    let d = Self.distances(target, token, limit: maxDistance, rows: rows).full
                    if d <= maxDistance { found.append((d, Int(index.postingStart[t + 1] - index.postingStart[t]), t)) }
                }
            }
        }
        found.sort { ($0.distance, -$0.places, $0.token) < ($1.distance, -$1.places, $1.token) }
        return found.prefix(limit).map { (String(decoding: index.token($0.token), as: UTF8.self), $0.distance) }
    }

    /// Finds the tokens each word matches, then scores the places holding a match for every word.
    private func matchWords(_ words: [[UInt8]]) {
        currentStamp &+= 1
        if currentStamp == 0 {  // wrapped: clear the stamps
            for i in stamp.indices { stamp[i] = 0 }
            currentStamp = 1
        }
        touched.removeAll(keepingCapacity: true)
        matchTokens.removeAll(keepingCapacity: true)
        matchQualities.removeAll(keepingCapacity: true)
        var starts: [Int] = [0]
        var work: [(postings: Int, word: Int)] = []
        for (w, word) in words.enumerated() {
            let before = matchTokens.count
            word.withUnsafeBufferPointer { findTokens($0, last: w == words.count - 1) }
            sortMatches(from: before)
            var postings = 0
            for k in before..<matchTokens.count {
                let t = Int(matchTokens[k])
                postings += Int(index.postingStart[t + 1] - index.postingStart[t])
            }
            starts.append(matchTokens.count)
            work.append((postings, w))
        }
        // The rarest word first: it names the fewest places, which the others can only confirm.
        work.sort { $0.postings < $1.postings || ($0.postings == $1.postings && $0.word < $1.word) }
        let mark = currentStamp
        for (step, item) in work.enumerated() {
            let level = UInt8(step)
            for k in starts[item.word]..<starts[item.word + 1] {
                let t = Int(matchTokens[k]), quality = matchQualities[k]
                for position in Int(index.postingStart[t])..<Int(index.postingStart[t + 1]) {
                    let posting = index.postings[position]
                    let p = Int(posting >> 2)
                    let value = quality * Self.fieldWeights[Int(posting & 3)]
                    if step == 0 {
                        if stamp[p] != mark {
                            stamp[p] = mark; matched[p] = 1; score[p] = value
                            touched.append(Int32(p))
                        }
                    } else if stamp[p] == mark, matched[p] == level {
                        matched[p] = level + 1
                        score[p] += value
                    }
                }
            }
        }
    }

    /// Appends the tokens `word` matches with their quality.
    private func findTokens(_ word: UnsafeBufferPointer<UInt8>, last: Bool) {
        let n = word.count
        let low = index.lowerBound(word)
        var high = low
        // Exact and prefix matches are a run of the sorted tokens.
        let prefixes = last || n >= 3
        while high < index.tokenCount {
            let token = index.token(high)
            guard token.count >= n, memcmp(token.baseAddress!, word.baseAddress!, n) == 0 else { break }
            if token.count == n {
                matchTokens.append(Int32(high)); matchQualities.append(1)
            } else if prefixes {
                matchTokens.append(Int32(high)); matchQualities.append(0.7 + 0.2 * Float(n) / Float(token.count))
            }
            high += 1
        }
        // What an abbreviation stands for, and the abbreviations of a full word ("av" and "avenida"), exact only.
        for alternative in PlaceAbbreviations.alternatives(of: word) {
            guard let t = alternative.withUnsafeBufferPointer({ index.exactToken($0) }) else { continue }
            matchTokens.append(Int32(t)); matchQualities.append(Self.abbreviationQuality)
        }
        // Near spellings: not for numbers (house numbers, postcodes) nor short words.
        guard n >= 4, !word.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return }
        let limit = n >= 9 ? 2 : 1
        let signature = PlaceTextFolding.signature(word)
        rows.withUnsafeMutableBufferPointer { rows in
            for t in 0..<index.tokenCount where t < low || t >= high {
                let start = Int(index.tokenStart[t]), length = Int(index.tokenStart[t + 1]) - start
                // One edit in words of 5+ letters (the query's or the token's: a deletion may leave 4), two in 9+.
                guard length >= n - limit, max(length, n) >= 5 else { continue }
                let other = index.tokenSignatures[t]
                let whole = length <= n + limit && (signature ^ other).nonzeroBitCount <= 2 * limit
                let beginning = last && length > n && (signature & ~other).nonzeroBitCount <= limit
                guard whole || beginning else { continue }
                let token = UnsafeBufferPointer(rebasing: index.tokens[start..<(start + length)])
                let (full, prefix) = Self.distances(word, token, limit: limit, rows: rows)
                if whole, full <= limit {
                    matchTokens.append(Int32(t)); matchQualities.append(full == 1 ? 0.7 : 0.5)
                } else if beginning, prefix <= limit {
                    matchTokens.append(Int32(t)); matchQualities.append(prefix == 1 ? 0.55 : 0.4)
                }
            }
        }
    }

    /// Sorts the matches appended since `start` by quality, best first (so a place is credited its best match).
    private func sortMatches(from start: Int) {
        guard matchTokens.count - start > 1 else { return }
        var pairs = (start..<matchTokens.count).map { (matchQualities[$0], matchTokens[$0]) }
        pairs.sort { $0.0 > $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        for (k, pair) in pairs.enumerated() { matchQualities[start + k] = pair.0; matchTokens[start + k] = pair.1 }
    }

    /// Optimal-string-alignment distances (Levenshtein plus transposition of neighbours) from `a` to all of `b` and
    /// to the nearest beginning of `b`; values above `limit` are reported as `limit + 1`.
    static func distances(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int,
                          rows: UnsafeMutableBufferPointer<Int32>) -> (full: Int, prefix: Int) {
        let m = a.count, n = b.count, width = n + 1
        guard width * 3 <= rows.count else { return (limit + 1, limit + 1) }
        let over = Int32(limit + 1)
        var previous2 = rows.baseAddress!, previous = previous2 + width, current = previous + width
        for j in 0...n { previous[j] = Int32(j) }
        for i in 1...max(m, 1) where m > 0 {
            current[0] = Int32(i)
            var rowMinimum = current[0]
            let ai = a[i - 1]
            for j in 1...max(n, 1) where n > 0 {
                let cost: Int32 = ai == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, ai == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum >= over { return (limit + 1, limit + 1) }
            let spare = previous2
            previous2 = previous; previous = current; current = spare
        }
        // `previous` is the last row: the whole of b at its end, the best beginning of b at its minimum.
        var prefixMinimum = previous[0]
        for j in 0...n { prefixMinimum = min(prefixMinimum, previous[j]) }
        return (Int(min(previous[n], over)), Int(min(prefixMinimum, over)))
    }

    /// Marks the categories `name` names (a value, or `key=value`); throws with suggestions when none.
    private func allowCategories(_ name: String) throws(PlaceSearchError) {
        for c in allowed.indices { allowed[c] = false }
        let wanted = name.lowercased()
        var any = false
        for c in 0..<index.categoryCount {
            let (key, value) = index.category(c)
            if value.lowercased() == wanted || "\(key)=\(value)".lowercased() == wanted { allowed[c] = true; any = true }
        }
        guard any else {
            // Suggest the categories nearest in spelling.
            let target = Array(wanted.utf8)
            var scored: [(Int, String)] = []
            rows.withUnsafeMutableBufferPointer { rows in
                target.withUnsafeBufferPointer { target in
                    for c in 0..<index.categoryCount {
                        let value = Array(index.category(c).value.utf8)
                        let distance = value.withUnsafeBufferPointer { Self.distances(target, $0, limit: 3, rows: rows).full }
                        if distance <= 3 { scored.append((distance, index.category(c).value)) }
                    }
                }
            }
            var seen = Set<String>()
            let suggestions = scored.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }.map(\.1).filter { seen.insert($0).inserted }
            throw .unknownCategory(name, suggestions: Array(suggestions.prefix(3)))
        }
    }

    /// The best `limit` places kept, without repeated pieces of one street (ways of a `highway` category, the same
    /// name, within 1 km of an answer already given) or of one transit stop (platforms, stop positions, stations and
    /// the feeds' stops whose names hold every word of one given within `PlaceProminence.stopPieceRadius`: after
    /// "Bismarckplatz", "Heidelberg, Bismarckplatz Bstg A" is one of its platforms).
    private func answers(limit: Int, near: (latitude: Double, longitude: Double)?, cosine: Double) -> [PlaceMatch] {
        var result: [PlaceMatch] = []
        var stopWords: [Int: [[UInt8]]] = [:]
        func words(_ place: Int) -> [[UInt8]] {
            if let known = stopWords[place] { return known }
            let folded = PlaceTextFolding.tokens(of: String(decoding: index.bytes(of: .name, place: place), as: UTF8.self))
            stopWords[place] = folded
            return folded
        }
        for (rank, text, place) in best {
            let p = Int(place), category = Int(index.categories[p])
            let here = (Geo.degrees(index.latitudes[p]), Geo.degrees(index.longitudes[p])), hereCosine = cos(Geo.degrees(index.latitudes[p]) * .pi / 180)
            if index.sources[p] == PlaceSource.way.rawValue, isHighway(category) {
                let name = index.bytes(of: .name, place: p)
                let repeated = result.contains { answer in
                    index.categories[answer.place] == index.categories[p] && index.bytes(of: .name, place: answer.place).elementsEqual(name)
                        && distance(answer.place, here, hereCosine) < 1000
                }
                if repeated { continue }
            }
            if stopPiece[category], !index.bytes(of: .name, place: p).isEmpty {
                let repeated = result.contains { answer in
                    stopPiece[Int(index.categories[answer.place])] && distance(answer.place, here, hereCosine) < PlaceProminence.stopPieceRadius
                        && words(answer.place).allSatisfy(words(p).contains)
                }
                if repeated { continue }
            }
            result.append(PlaceMatch(place: p, score: Double(rank), distance: near.map { distance(p, $0, cosine) }, textScore: Double(text)))
            if result.count == limit { break }
        }
        return result
    }

    private func isHighway(_ category: Int) -> Bool {
        let start = Int(index.categoryTextStart[2 * category]), end = Int(index.categoryTextStart[2 * category + 1])
        return UnsafeBufferPointer(rebasing: index.categoryText[start..<end]).elementsEqual("highway".utf8)
    }

    /// Metres from place `p` to `point` (equirectangular: exact enough within a city, and cheap).
    @inline(__always)
    private func distance(_ p: Int, _ point: (latitude: Double, longitude: Double), _ cosine: Double) -> Double {
        let dLatitude = (Geo.degrees(index.latitudes[p]) - point.latitude) * .pi / 180
        let dLongitude = (Geo.degrees(index.longitudes[p]) - point.longitude) * .pi / 180 * cosine
        return 6_371_008.8 * (dLatitude * dLatitude + dLongitude * dLongitude).squareRoot()
    }
}
