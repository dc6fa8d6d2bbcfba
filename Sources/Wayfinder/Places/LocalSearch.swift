import Foundation
import Graph

/// A place search on an offline map, shaped like MapKit's `MKLocalSearch.Request`: words, an optional category, a
/// point that ranks nearer places higher, and the number of answers.
public struct LocalSearchRequest: Sendable, Equatable {
    /// The words to find (any order; a word's beginning, one typo in words of 5+ letters or an abbreviation such as
    /// "Av." for "Avenida" still matches; case and accents do not matter; a town's name among them also finds the
    /// places around the town that hold the other words). May be empty when `category` is given.
    public var naturalLanguageQuery: String
    /// Only places of this category: an OSM tag value (`restaurant`) or `key=value` (`amenity=restaurant`);
    /// `OfflineMap.placeCategories` lists them.
    public var category: String?
    /// Rank nearer places higher, and give each answer's distance from here.
    public var near: Coordinate?
    /// Most answers, 1 to `LocalSearchRequest.maximumLimit`.
    public var limit: Int

    /// The largest `limit` a request may ask for.
    public static let maximumLimit = 1000

    /// A request for `naturalLanguageQuery`, optionally by category and near a point.
    public init(naturalLanguageQuery: String, category: String? = nil, near: Coordinate? = nil, limit: Int = 10) {
        self.naturalLanguageQuery = naturalLanguageQuery; self.category = category; self.near = near; self.limit = limit
    }
}

/// One place found: what it is, where, its address, and where it comes from (an OSM element or a GTFS stop).
public struct MapItem: Sendable, Equatable {
    /// What kind of element the place comes from.
    public enum Source: String, Sendable {
        case node, way, relation
        /// A GTFS stop (`stopID` names it).
        case transitStop = "stop"
    }
    /// The place's name (empty for an address without one).
    public var name: String
    /// Its category: the OSM tag value (`restaurant`, `bus_stop`; `address` for a bare address; `stop` for GTFS).
    public var category: String
    /// The OSM key of the category (`amenity`, `shop`…; `gtfs` for a GTFS stop).
    public var categoryKey: String
    /// Its point (a way's or area's centre).
    public var coordinate: Coordinate
    /// `addr:street` (or `addr:place`), `addr:housenumber`, `addr:postcode`, `addr:city`; empty when absent.
    public var street: String
    public var houseNumber: String
    public var postcode: String
    public var city: String
    /// The OSM element type, or `.transitStop`.
    public var source: Source
    /// The OSM element id (0 for a GTFS stop).
    public var osmID: Int64
    /// The GTFS stop id (feed-prefixed as in the timetable), nil for OSM places.
    public var stopID: String?
    /// Metres from the request's `near` (nil without one).
    public var distance: Double?

    /// The address on one line ("Rue Grimaldi 12, 98000 Monaco"), empty when there is none.
    public var address: String {
        let streetPart = [street, houseNumber].filter { !$0.isEmpty }.joined(separator: " ")
        let cityPart = [postcode, city].filter { !$0.isEmpty }.joined(separator: " ")
        return [streetPart, cityPart].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// The answers of a `LocalSearch`, best first.
public struct LocalSearchResponse: Sendable, Equatable {
    public var mapItems: [MapItem]
}

/// A category of the map's places and how many places it holds.
public struct PlaceCategoryCount: Sendable, Equatable {
    /// The OSM key (`amenity`) and value (`restaurant`).
    public var key: String
    public var value: String
    public var count: Int
}

/// Why a place search could not run, in words a user can act on.
public enum LocalSearchError: Error, Equatable, CustomStringConvertible {
    /// The graph file has no place index (imported before place search existed, or the index did not fit).
    case noPlaceIndex(path: String)
    /// The place index is damaged.
    case damagedIndex(String)
    /// The category is not one of the map's; `suggestions` are the nearest names it has.
    case unknownCategory(String, suggestions: [String])
    /// Neither words nor a category were given.
    case emptyQuery
    /// `limit` is outside 1…`LocalSearchRequest.maximumLimit`.
    case limitOutOfRange(Int)
    /// `near` is not a coordinate on Earth.
    case nearOutOfRange(Coordinate)

    public var description: String {
        switch self {
        case let .noPlaceIndex(path): return "\(path) has no place index: import it again with this version of wayfinder to search places"
        case let .damagedIndex(message): return "the place index is damaged: \(message)"
        case let .unknownCategory(name, suggestions): return PlaceSearchError.unknownCategory(name, suggestions: suggestions).description
        case .emptyQuery: return PlaceSearchError.emptyQuery.description
        case let .limitOutOfRange(limit): return "limit \(limit) is outside 1 to \(LocalSearchRequest.maximumLimit)"
        case let .nearOutOfRange(c): return "near \(c.latitude),\(c.longitude) is not a coordinate (latitude within ±90, longitude within ±180)"
        }
    }
}

/// Runs one `LocalSearchRequest` on a map, like MapKit's `MKLocalSearch`. Safe from any thread: each search borrows
/// a searcher of its own from the map's pool.
public struct LocalSearch: Sendable {
    public let request: LocalSearchRequest
    public let map: OfflineMap

    /// A search for `request` on `map`.
    public init(_ request: LocalSearchRequest, map: OfflineMap) { self.request = request; self.map = map }

    /// Runs the search; throws `LocalSearchError`.
    public func start() throws(LocalSearchError) -> LocalSearchResponse {
        let r = request
        guard (1...LocalSearchRequest.maximumLimit).contains(r.limit) else { throw .limitOutOfRange(r.limit) }
        if let near = r.near, !(abs(near.latitude) <= 90 && abs(near.longitude) <= 180) { throw .nearOutOfRange(near) }
        let places = try map.placeSearchers()
        let searcher = places.borrow()
        defer { places.giveBack(searcher) }
        let matches: [PlaceMatch]
        do {
            matches = try searcher.search(PlaceQuery(r.naturalLanguageQuery, category: r.category,
                                                     near: r.near.map { ($0.latitude, $0.longitude) }, limit: r.limit))
        } catch {
            switch error {
            case let .unknownCategory(name, suggestions): throw .unknownCategory(name, suggestions: suggestions)
            case .emptyQuery: throw .emptyQuery
            }
        }
        let index = searcher.index
        return LocalSearchResponse(mapItems: matches.map { MapItem(index.place($0.place), distance: $0.distance) })
    }
}

extension OfflineMap {
    /// Whether the file holds a place index (files imported before place search, or whose index did not fit, do not).
    public var hasPlaceIndex: Bool { PlaceIndex.isPresent(in: graph.file) }

    /// The categories of the map's places, most places first; throws `.noPlaceIndex` for a file without the index.
    public var placeCategories: [PlaceCategoryCount] {
        get throws(LocalSearchError) {
            try placeSearchers().index.categoryList()
                .map { PlaceCategoryCount(key: $0.key, value: $0.value, count: $0.count) }
                .sorted { ($0.count, $1.key, $1.value) > ($1.count, $0.key, $0.value) }
        }
    }

    /// The map's place index and its pool of searchers, opened at the first search.
    func placeSearchers() throws(LocalSearchError) -> PlaceSearcherPool {
        try placeIndexSlot.pool(for: graph.file)
    }
}

/// The place index of one map (opened once, checksums verified) and the searchers not in use: a search takes one
/// (or makes one) and gives it back, so searches on many threads never share a searcher's work arrays.
final class PlaceSearcherPool: @unchecked Sendable {
    let index: PlaceIndex
    private let lock = NSLock()
    private var idle: [PlaceSearcher] = []

    init(index: PlaceIndex) { self.index = index }

    func borrow() -> PlaceSearcher {
        lock.lock(); defer { lock.unlock() }
        return idle.popLast() ?? PlaceSearcher(index: index)
    }

    func giveBack(_ searcher: PlaceSearcher) {
        lock.lock(); defer { lock.unlock() }
        if idle.count < 16 { idle.append(searcher) }
    }
}

/// Where an `OfflineMap` keeps its place searcher pool once opened.
final class PlaceIndexSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var opened: Result<PlaceSearcherPool, LocalSearchError>?

    func pool(for file: GraphFile) throws(LocalSearchError) -> PlaceSearcherPool {
        lock.lock(); defer { lock.unlock() }
        if opened == nil {
            if !PlaceIndex.isPresent(in: file) {
                opened = .failure(.noPlaceIndex(path: file.path))
            } else {
                do { opened = .success(PlaceSearcherPool(index: try PlaceIndex(file: file))) } catch {
                    opened = .failure(.damagedIndex(error.description))
                }
            }
        }
        return try opened!.get()
    }
}
