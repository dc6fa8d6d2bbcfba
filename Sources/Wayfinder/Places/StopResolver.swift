import Foundation
import Graph

/// A stop given as text, resolved to a point: `lat,lon`, a name of a places file, or a place of the map's index.
public struct ResolvedStop: Sendable, Equatable {
    /// Where the point came from.
    public enum Source: String, Sendable {
        /// The text was `lat,lon`.
        case coordinate
        /// The text is a name of the places file given (`--places`).
        case placesFile
        /// The text was searched in the map's place index; `place` is the one taken.
        case placeIndex
    }
    /// The text given ("Bismarckplatz", "49.41,8.69").
    public var text: String
    /// Where the stop is.
    public var coordinate: Coordinate
    public var source: Source
    /// The place the name was taken to be (`.placeIndex` only); its `distance` is from the point it was chosen near.
    public var place: MapItem?

    /// A stop at `coordinate`, from `source`.
    public init(text: String, coordinate: Coordinate, source: Source, place: MapItem? = nil) {
        self.text = text; self.coordinate = coordinate; self.source = source; self.place = place
    }

    /// The stop as a line of text output, for a stop found by name: `Bismarckplatz → "Bismarckplatz" (bus_stop),
    /// 49.40935,8.69253`; nil for a stop given as `lat,lon` or from a places file.
    public var resolutionLine: String? {
        guard let place else { return nil }
        return "\(text) → \"\(place.title)\" (\(place.category)), \(place.coordinate.shortText)"
    }
}

/// Why a stop's text gives no point, in words a user can act on.
public struct StopResolutionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// The text is two numbers but not a coordinate on Earth ("95,8").
        case invalidCoordinate(CoordinateParseError)
        /// No place of the index matches the name; `suggestions` are the nearest spellings it has.
        case noMatch(suggestions: [String])
        /// `strictNames`: several places far apart match the name equally well (up to 10 of them, nearest first).
        case ambiguous(candidates: [MapItem], count: Int)
        /// A name was given but the map has no place index (and no places file names it).
        case noPlaceIndex(path: String)
        /// The place index could not be read.
        case damagedIndex(String)
    }
    /// The text given.
    public var text: String
    public var reason: Reason
    /// The stop's position (0-based) in the list it came from, when it came from one.
    public var stopIndex: Int?
    /// The places file and line the name is on, when it came from one.
    public var file: String?
    public var line: Int?

    public init(text: String, reason: Reason, stopIndex: Int? = nil) { self.text = text; self.reason = reason; self.stopIndex = stopIndex }

    /// ` (did you mean "A", "B"?)` for names to suggest; empty for none.
    public static func didYouMean(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))?)"
    }

    public var description: String {
        let stop = file.map { "\($0):\(line.map(String.init) ?? ""): " } ?? stopIndex.map { "stop \($0 + 1) " } ?? ""
        switch reason {
        case let .invalidCoordinate(error): return stop + error.description
        case let .noMatch(suggestions):
            let hint = suggestions.isEmpty ? "; `wayfinder places --graph G WORDS` searches the map's places" : Self.didYouMean(suggestions)
            return "\(stop)'\(text)' is not lat,lon and no place on the map has that name\(hint)"
        case let .ambiguous(candidates, count):
            let lines = candidates.map { c in
                let away = c.distance.map { ", " + TextEncoder.formatDistance($0) + " away" } ?? ""
                return "  \"\(c.title)\" (\(c.category)), \(c.coordinate.shortText)\(away)"
            }
            let more = count > candidates.count ? "\n  … and \(count - candidates.count) more" : ""
            return "\(stop)'\(text)' names \(count) places more than \(Int(StopResolver.ambiguityDistance)) m apart equally well (--strict-names); "
                + "give a fuller name or lat,lon:\n" + lines.joined(separator: "\n") + more
        case let .noPlaceIndex(path):
            return "\(stop)'\(text)' is not lat,lon (e.g. 39.4667,-87.4139), and \(path) has no place index to look names up in (import it again with this version of wayfinder)"
        case let .damagedIndex(message): return "\(stop)'\(text)' could not be looked up: the place index is damaged: \(message)"
        }
    }
}

/// Turns stop texts into points, the one way every front end (route, eta, matrix, trip, batch) and the Swift API
/// read a stop: `lat,lon` first; else a name of the places file, when one is given; else a search of the map's
/// place index for the name, taking the best match near the previous stop. Names before the first stop given as a
/// point are looked up near that point (in `Casino, 43.7312,7.4203` the casino nearest the second stop), and only
/// when no stop is a point near the map's centre.
///
/// Route relations are never taken (their centre is a point somewhere along the line). "Best" is, in order: a match of the whole name (the name or one of its other names folds to exactly the words
/// given) before any other; then the higher text score (`PlaceMatch.textScore`: exact words before beginnings
/// before near spellings, the name before other names before the address); then the kind of place, the distance
/// to the reference point and the words its name has beyond those given together: the place search's standing
/// (`PlaceProminence.standing`: a station before the pedestrian square of its name next to it, the nearer of two alike)
/// less `unsaidWordPenalty` a word ("Port Hercule" is the marina "Port Hercule de Monaco" before the pool "Piscine
/// (Rainer III) du Port Hercule" nearer the reference, a station's bonus outweighs a word).
/// With `strictNames`, a name whose best matches (the same whole-name rank and text score) lie more than
/// `ambiguityDistance` apart is an error listing them (same-named platforms of one station are not ambiguous).
public struct StopResolver: Sendable {
    public let map: OfflineMap
    /// Names of a places file (`name,lat,lon`), looked up before the place index.
    public var places: [String: Coordinate]
    /// Refuse a name that several places far apart match equally well.
    public var strictNames: Bool

    /// How far apart two equally good matches must lie to make a name ambiguous, metres.
    public static let ambiguityDistance = 200.0
    /// Candidates taken from each of the two searches (near the reference point, and anywhere).
    static let candidateLimit = 50
    /// What each word a candidate's name has beyond the words given costs its standing: the distance penalty of a
    /// third farther away (`PlaceSearcher.distancePenalty`), a third of a station's bonus.
    static let unsaidWordPenalty = 0.02

    /// A resolver on `map`, with an optional places file's names.
    public init(map: OfflineMap, places: [String: Coordinate] = [:], strictNames: Bool = false) {
        self.map = map; self.places = places; self.strictNames = strictNames
    }

    /// The map's centre (`OfflineMap.centre`: where most of its roads are), the reference point of a first stop.
    public var mapCentre: Coordinate { map.centre }

    /// Resolves a list of stops in order, each name near the stop before it (the first near `start`, else near the
    /// first stop given as a point, else the map's centre). Errors carry the stop's position.
    public func resolve(_ texts: [String], near start: Coordinate? = nil) throws(StopResolutionError) -> [ResolvedStop] {
        var result: [ResolvedStop] = []
        var previous = start ?? texts.lazy.compactMap { text in places[text] ?? (try? Coordinate(parsing: text)) }.first
        for (i, text) in texts.enumerated() {
            do {
                let stop = try resolve(text, near: previous)
                result.append(stop)
                previous = stop.coordinate
            } catch {
                var e = error
                e.stopIndex = i
                throw e
            }
        }
        return result
    }

    /// The places of a places file's rows: a row with a coordinate as it is, a name alone searched near the row
    /// before it (the first near `start`, else near the file's first coordinate, else the map's centre). Errors
    /// name the file and line.
    public func resolve(rows: [PlacesFileRow], file: String, near start: Coordinate? = nil) throws(StopResolutionError) -> [ETAPlace] {
        var result: [ETAPlace] = []
        var previous = start ?? rows.lazy.compactMap(\.coordinate).first
        for (i, row) in rows.enumerated() {
            if let c = row.coordinate {
                result.append(ETAPlace(name: row.name, coordinate: c, subtitle: row.subtitle))
                previous = c
                continue
            }
            do {
                let stop = try resolve(row.name, near: previous)
                result.append(ETAPlace(name: row.name, coordinate: stop.coordinate, subtitle: row.subtitle, place: stop.place))
                previous = stop.coordinate
            } catch {
                var e = error
                e.stopIndex = i; e.file = file; e.line = row.line
                throw e
            }
        }
        return result
    }

    /// Resolves one stop's text; a name is searched near `reference` (nil: the map's centre).
    public func resolve(_ text: String, near reference: Coordinate? = nil) throws(StopResolutionError) -> ResolvedStop {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        do { return ResolvedStop(text: text, coordinate: try Coordinate(parsing: trimmed), source: .coordinate) } catch {
            // Two numbers that are not a coordinate are a wrong coordinate, not a name.
            if !error.reason.hasPrefix("is not") { throw StopResolutionError(text: text, reason: .invalidCoordinate(error)) }
        }
        if let c = places[text] ?? places[trimmed] { return ResolvedStop(text: text, coordinate: c, source: .placesFile) }
        return try search(trimmed, given: text, near: reference ?? mapCentre)
    }

    /// The best place of the index for the name `name` near `reference`.
    private func search(_ name: String, given text: String, near reference: Coordinate) throws(StopResolutionError) -> ResolvedStop {
        let pool: PlaceSearcherPool
        do { pool = try map.placeSearchers() } catch {
            switch error {
            case let .noPlaceIndex(path): throw StopResolutionError(text: text, reason: .noPlaceIndex(path: path))
            default: throw StopResolutionError(text: text, reason: .damagedIndex(error.description))
            }
        }
        let searcher = pool.borrow()
        defer { pool.giveBack(searcher) }
        let words = PlaceTextFolding.tokens(of: name)
        guard !words.isEmpty else { throw StopResolutionError(text: text, reason: .noMatch(suggestions: [])) }
        let near = (latitude: reference.latitude, longitude: reference.longitude)
        // The best matches near the reference and the best anywhere: a far exact match is not lost behind many
        // near partial ones, nor a near one behind many far ones.
        let local = (try? searcher.search(PlaceQuery(name, near: near, limit: Self.candidateLimit))) ?? []
        let anywhere = (try? searcher.search(PlaceQuery(name, limit: Self.candidateLimit))) ?? []
        let index = searcher.index
        var seen = Set<Int>()
        var candidates: [Candidate] = []
        for match in local + anywhere where seen.insert(match.place).inserted {
            let place = index.place(match.place)
            if !Self.canBeStop(place) { continue }
            let names = ([place.name] + place.otherNames).map { PlaceTextFolding.tokens(of: $0) }
            let whole = names.contains(words)
            // How many more words its closest name has than the text ("Port Hercule" is two short of "Port Hercule de
            // Monaco", four of "Piscine (Rainer III) du Port Hercule").
            let unsaid = names.filter { !$0.isEmpty }.map { max(0, $0.count - words.count) }.min() ?? 0
            let point = Coordinate(latitude: place.latitude, longitude: place.longitude)
            let metres = Self.metres(reference, point)
            candidates.append(Candidate(place: place, whole: whole, text: Int((match.textScore * 1000).rounded()),
                                        standing: PlaceProminence.standing(key: place.categoryKey, value: place.category, metres: metres)
                                            - Self.unsaidWordPenalty * Double(unsaid),
                                        distance: metres))
        }
        candidates.sort(by: Candidate.better)
        guard let best = candidates.first else {
            throw StopResolutionError(text: text, reason: .noMatch(suggestions: suggestions(for: name, searcher: searcher, near: near)))
        }
        if strictNames {
            let tied = candidates.filter { $0.whole == best.whole && $0.text == best.text }
            let bestPoint = best.coordinate
            if tied.contains(where: { Self.metres(bestPoint, $0.coordinate) > Self.ambiguityDistance }) {
                // One entry per group of places within the ambiguity distance of one already listed.
                var listed: [Candidate] = []
                for c in tied where !listed.contains(where: { Self.metres($0.coordinate, c.coordinate) <= Self.ambiguityDistance }) { listed.append(c) }
                throw StopResolutionError(text: text, reason: .ambiguous(candidates: listed.prefix(10).map { $0.item }, count: listed.count))
            }
        }
        return ResolvedStop(text: text, coordinate: best.coordinate, source: .placeIndex, place: best.item)
    }

    /// Up to 5 names of the map's place index spelt most like `name` (for a search that found nothing), searched near
    /// `reference` (nil: the map's centre); none when the map has no readable place index.
    public func suggestions(for name: String, near reference: Coordinate? = nil) -> [String] {
        guard let pool = try? map.placeSearchers() else { return [] }
        let searcher = pool.borrow()
        defer { pool.giveBack(searcher) }
        let point = reference ?? mapCentre
        return suggestions(for: name, searcher: searcher, near: (latitude: point.latitude, longitude: point.longitude))
    }

    /// The names to suggest for a name that matches nothing: the places found with each word replaced by the
    /// index's nearest spellings (up to 3 edits), and by each word on its own, ranked by how few edits turn their
    /// folded name into the folded text given; up to 5.
    private func suggestions(for name: String, searcher: PlaceSearcher, near: (latitude: Double, longitude: Double)) -> [String] {
        let words = name.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let closest = words.map { searcher.closestTokens(to: $0, maxDistance: 3, limit: 3).map(\.token) }
        let corrected = zip(words, closest).map { word, tokens in tokens.first ?? word }
        var queries = [corrected.joined(separator: " ")]
        for (i, alternatives) in closest.enumerated() {
            for token in alternatives.dropFirst() {
                var query = corrected
                query[i] = token
                queries.append(query.joined(separator: " "))
            }
        }
        if words.count > 1 { queries += (words + corrected).filter { $0.count >= 3 } }
        var titles: [String] = []
        var seen = Set<[UInt8]>()
        for query in queries {
            for m in (try? searcher.search(PlaceQuery(query, near: near, limit: 10))) ?? [] {
                let place = searcher.index.place(m.place)
                guard Self.canBeStop(place) else { continue }
                let title = place.title
                if seen.insert(Self.folded(title)).inserted { titles.append(title) }
            }
        }
        let target = Self.folded(name)
        let ranked = titles.enumerated().map { (Self.editDistance(Self.folded($0.element), target), $0.offset, $0.element) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        return ranked.prefix(5).map(\.2)
    }

    /// Whether a place can stand for a stop: not a route relation ("Bus 39: Bismarckplatz => Rohrbach"), whose
    /// centre lies somewhere along a line that may be kilometres long.
    static func canBeStop(_ place: Place) -> Bool { place.categoryKey != "route" }

    /// The folded words of a text joined by spaces ("Stade Louis II" → "stade louis ii").
    static func folded(_ text: String) -> [UInt8] { Array(PlaceTextFolding.tokens(of: text).joined(separator: [0x20])) }

    /// Levenshtein distance between two byte strings.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count), current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Great-circle metres between two points.
    static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        Geo.distance(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
    }

    /// A place considered for a name, with what ranks it.
    private struct Candidate {
        var place: Place
        /// The whole name matches the words given.
        var whole: Bool
        /// The text score in thousandths (so equal scores compare equal).
        var text: Int
        /// The kind's bonus less the distance penalty (`PlaceProminence.standing`), higher first.
        var standing: Double
        /// Metres from the reference point.
        var distance: Double

        var coordinate: Coordinate { Coordinate(latitude: place.latitude, longitude: place.longitude) }
        var item: MapItem { MapItem(place, distance: distance) }

        static func better(_ a: Candidate, _ b: Candidate) -> Bool {
            if a.whole != b.whole { return a.whole }
            if a.text != b.text { return a.text > b.text }
            if a.standing != b.standing { return a.standing > b.standing }
            if a.distance != b.distance { return a.distance < b.distance }
            return a.place.index < b.place.index
        }
    }
}

extension OfflineMap {
    /// Resolves stops given as text (`lat,lon` or place names), each name near the stop before it; see `StopResolver`.
    public func resolveStops(_ texts: [String], places: [String: Coordinate] = [:], strictNames: Bool = false) throws(StopResolutionError) -> [ResolvedStop] {
        try StopResolver(map: self, places: places, strictNames: strictNames).resolve(texts)
    }
}

extension MapItem {
    /// The map item of an index place; `distance` from the point of the request.
    init(_ p: Place, distance: Double?) {
        let source: MapItem.Source = switch p.source {
        case .node: .node
        case .way: .way
        case .relation: .relation
        case .transitStop: .transitStop
        }
        self.init(name: p.name, category: p.category, categoryKey: p.categoryKey,
                  coordinate: Coordinate(latitude: p.latitude, longitude: p.longitude),
                  street: p.street, houseNumber: p.houseNumber, postcode: p.postcode, city: p.city,
                  source: source, osmID: p.osmID, stopID: source == .transitStop ? p.reference : nil, distance: distance)
    }

    /// What to call the place: its name, else its address, else its category.
    public var title: String {
        if !name.isEmpty { return name }
        let street = [self.street, houseNumber].filter { !$0.isEmpty }.joined(separator: " ")
        return street.isEmpty ? category : street
    }
}

extension ResolvedStop {
    /// The stop as a JSON outputs write it: `{"category","categoryKey","coordinate","name","searchText"}` for a stop
    /// found by name (`name` is the place's title, an address when it has no name); `null` otherwise.
    public var placeJSON: JSONValue {
        guard let place else { return .null }
        return .object([("name", .string(place.title)), ("category", .string(place.category)), ("categoryKey", .string(place.categoryKey)),
                        ("coordinate", .coordinateObject(place.coordinate)), ("searchText", .string(text))])
    }

    /// The `places` member of a JSON output, one entry per stop as given (`null` for a stop given as lat,lon or
    /// from a places file); no member at all when no stop was found by name.
    static func placesMember(_ stops: [ResolvedStop]) -> [(String, JSONValue)] {
        stops.contains { $0.place != nil } ? [("places", .array(stops.map(\.placeJSON)))] : []
    }
}
