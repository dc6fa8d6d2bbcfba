import Foundation
import Wayfinder

/// `/search/v1?q=…&near=lon,lat&category=…&limit=N`: the place search as a GeoJSON FeatureCollection with Photon's
/// property names (name, category, osm_type, osm_id, street, housenumber, postcode, city, distance); and
/// `/search/v1/categories`: the map's place categories with their number of places, most first.
enum SearchEndpoint {
    static let options: Set<String> = ["q", "near", "category", "limit"]

    static func respond(_ request: HTTPRequest, map: OfflineMap) throws(OSRMError) -> HTTPResponse {
        if request.path == "/search/v1/categories" { return try categories(request, map: map) }
        guard request.path == "/search/v1" else {
            throw .notFound("nothing at \(request.path): the search is /search/v1?q=… and its categories /search/v1/categories")
        }
        var values: [String: String] = [:]
        for (name, value) in request.query {
            guard options.contains(name) else { throw .invalidOptions("unknown option '\(name)' for search (accepted: \(options.sorted().joined(separator: ", ")))") }
            guard values[name] == nil else { throw .invalidOptions("option '\(name)' is given twice") }
            values[name] = value
        }
        var search = LocalSearchRequest(naturalLanguageQuery: values["q"] ?? "", category: values["category"].flatMap { $0.isEmpty ? nil : $0 })
        if let text = values["limit"] {
            guard let limit = Int(text), (1...LocalSearchRequest.maximumLimit).contains(limit) else {
                throw .invalidValue("limit must be a whole number from 1 to \(LocalSearchRequest.maximumLimit), got '\(text)'")
            }
            search.limit = limit
        }
        if let text = values["near"] {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let lon = Double(parts[0]), let lat = Double(parts[1]), lon.isFinite, lat.isFinite else {
                throw .invalidQuery("near must be lon,lat (as OSRM's coordinates), got '\(text)'")
            }
            guard abs(lon) <= 180, abs(lat) <= 90 else { throw .invalidValue("near \(text) is outside ±180 longitude, ±90 latitude") }
            search.near = Coordinate(latitude: lat, longitude: lon)
        }
        do {
            let response = try LocalSearch(search, map: map).start()
            return HTTPResponse(contentType: "application/geo+json; charset=utf-8", body: LocalSearchEncoder.geoJSON(response))
        } catch {
            switch error {
            case .noPlaceIndex, .damagedIndex: throw .notImplemented(error.description)
            case .emptyQuery: throw .invalidQuery("search needs q=words, category=…, or both")
            default: throw .invalidValue(error.description)
            }
        }
    }

    /// `/search/v1/categories`: `{"code": "Ok", "categories": [{"count", "key", "value"}…]}`, most places first.
    static func categories(_ request: HTTPRequest, map: OfflineMap) throws(OSRMError) -> HTTPResponse {
        if let (name, _) = request.query.first { throw .invalidOptions("unknown option '\(name)' for the category list (it takes none)") }
        let list: [PlaceCategoryCount]
        do { list = try map.placeCategories } catch {
            switch error {
            case .noPlaceIndex, .damagedIndex: throw .notImplemented(error.description)
            default: throw .invalidValue(error.description)
            }
        }
        let body = JSONValue.object([
            ("code", .string("Ok")),
            ("categories", .array(list.map { .object([("count", .int($0.count)), ("key", .string($0.key)), ("value", .string($0.value))]) })),
        ])
        return .json(body)
    }
}
