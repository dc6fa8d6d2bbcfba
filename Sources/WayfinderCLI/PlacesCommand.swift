import Foundation
import Wayfinder

/// `wayfinder places --graph G QUERY`: the offline place search (names, addresses, categories, GTFS stops).
enum PlacesCommand {
    static let usage = """
    usage: wayfinder places --graph G [--near PLACE] [--category C] [--limit N] [--format text|json|geojson] QUERY…
           wayfinder places --graph G --categories [--format text|json]

    Finds places by name or address in the graph file's place index (built by every import): each word matches a
    whole word, a word's beginning, or a near spelling (one typo in words of 5+ letters), and an abbreviation what it
    stands for ("Av." Avenida, "St." Saint or Sankt, "Bd" Boulevard) and the reverse; case and accents do not matter.

      --graph G        the graph file (from wayfinder import)
      --near PLACE     rank nearer places higher and give each one's distance in metres: lat,lon or a place name
                       (the best match near the map's centre, as a stop's name; the output says which it took)
      --category C     only places of this category: an OSM tag value (restaurant, cafe, bus_stop) or key=value
                       (amenity=restaurant); with no QUERY, the places of the category (nearest first with --near)
      --limit N        most answers, 1 to 1000 (default 10)
      --format F       text (default), json (docs/schemas/places.schema.json) or geojson (a FeatureCollection, Photon's properties)
      --categories     list the categories with their number of places, most first
      QUERY            the words to find (several arguments are joined)
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--graph", "--near", "--category", "--limit", "--format"],
                                    switches: ["--categories", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard let graphPath = args.value("--graph") else { throw CommandError.usage("places needs --graph G\n\n\(usage)") }
        let format = args.value("--format") ?? "text"
        guard ["text", "json", "geojson"].contains(format) else {
            throw CommandError.usage("--format is text, json or geojson, not '\(format)'")
        }
        let map = try CommandMap.open(graphPath)
        if args.has("--categories") {
            guard args.positionals.isEmpty else { throw CommandError.usage("--categories takes no QUERY") }
            guard format != "geojson" else { throw CommandError.usage("--categories is text or json") }
            let categories: [PlaceCategoryCount]
            do { categories = try map.placeCategories } catch { throw CommandError(message: error.description, exitCode: ExitCode.badInput) }
            if format == "json" { print(String(decoding: LocalSearchEncoder.json(categories), as: UTF8.self)); return }
            for c in categories { print("\(String(c.count).leftPadded(7))  \(c.key.isEmpty ? c.value : "\(c.key)=\(c.value)")") }
            return
        }
        var request = LocalSearchRequest(naturalLanguageQuery: args.positionals.joined(separator: " "), category: args.value("--category"))
        if let text = args.value("--limit") {
            guard let limit = Int(text), (1...LocalSearchRequest.maximumLimit).contains(limit) else {
                throw CommandError.usage("--limit is a whole number from 1 to \(LocalSearchRequest.maximumLimit), not '\(text)'")
            }
            request.limit = limit
        }
        if let text = args.value("--near") {
            let near = try StopNames.resolve(option: "--near", text, map: map, strict: false)
            StopNames.report([near], text: format == "text")
            request.near = near.coordinate
        }
        let response: LocalSearchResponse
        do { response = try LocalSearch(request, map: map).start() } catch {
            switch error {
            case .noPlaceIndex, .damagedIndex: throw CommandError(message: error.description, exitCode: ExitCode.badInput)
            default: throw CommandError.usage(error.description)
            }
        }
        switch format {
        case "json": print(String(decoding: LocalSearchEncoder.json(response), as: UTF8.self))
        case "geojson": print(String(decoding: LocalSearchEncoder.geoJSON(response), as: UTF8.self))
        default:
            if response.mapItems.isEmpty {
                let words = request.naturalLanguageQuery
                let spellings = words.isEmpty ? [] : StopResolver(map: map).suggestions(for: words, near: request.near)
                print("no places match" + StopResolutionError.didYouMean(spellings))
                return
            }
            for item in response.mapItems {
                var line = item.name.isEmpty ? "(\(item.address))" : item.name
                line += "  [\(item.category)]"
                if !item.address.isEmpty, !item.name.isEmpty { line += "  \(item.address)" }
                line += String(format: "  %.6f,%.6f", item.coordinate.latitude, item.coordinate.longitude)
                if let d = item.distance { line += String(format: "  %.0f m", d) }
                line += item.stopID.map { "  stop \($0)" } ?? "  \(item.source.rawValue)/\(item.osmID)"
                print(line)
            }
        }
    }
}
