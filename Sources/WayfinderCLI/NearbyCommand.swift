import Foundation
import Wayfinder

/// `wayfinder nearby`: the places of a category around an origin, ranked by arrival (`NearbySearch`), or the full
/// itinerary to one of them.
enum NearbyCommand {
    /// `wayfinder nearby --help`.
    static let usage = """
    usage: wayfinder nearby --graph G.wfg --from STOP --category C [--mode car|foot|transit] [--depart T] [--by T]
                            [--within M] [--limit N] [--directions K] [--format text|json] [--time-zone ZONE]
                            [--max-snap M] [--max-transfers N] [--max-walk M] [--strict-names] [WORDS…]

    "Which restaurants can I reach by 8?": the places of a category (and matching WORDS, if given) within --within
    metres of --from in a straight line, ranked by arrival from one one-to-many search, each time equal to the pair's
    own eta; places no route reaches come last, unranked. By transit each place also gets its walking distance,
    rides and first boarding (time, stop and route).

      -g, --graph G      the graph file (from wayfinder import; needs its place index, and --gtfs for transit)
      --from STOP        where you start: lat,lon or a place name (the best match near the map's centre; --strict-names: an
                         ambiguous name is an error listing the candidates)
      --category C       a place category (restaurant, amenity=restaurant; `wayfinder places --categories` lists them)
      --mode MODE        car (default), foot, or transit
      --depart T         leave at T (default: now); ISO 8601, without an offset in the map's local time (--time-zone)
      --by T             only the places reached by T ("which can I reach by 8?"), the others counted after the table
      --within M         search radius around --from, metres (default 2000 on foot and by transit, 10000 by car;
                         at most 100000); at most the 1000 nearest places are ranked
      --limit N          show the first N places after ranking (default: all)
      --directions K     print the full itinerary to the K-th place of the ranking instead, as `route` prints it
      --format F         text (default) or json (docs/schemas/nearby.schema.json; with --directions, route's JSON)
      --time-zone ZONE   IANA zone for dates without an offset and for output (default: the map's: its
                         timetable's with --gtfs, else the system's, $TZ)
      --max-snap M       farthest a stop may lie from a road the mode may use, metres, up to 100000 (default 1000)
      --max-transfers N  (transit) most transfers between rides, 0 to 6 (default 6)
      --max-walk M       (transit) longest walk to or from a stop, metres, 0 to 10000 (default 1000)

    With --format json, errors are JSON on standard error. Exit codes: 0 ok, 2 bad usage (an unknown category, K
    beyond the places reached), 3 bad input (graph file without a place index or timetable), 5 no route to the K-th
    place, 6 --from too far from any road.
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--graph", "-g", "--from", "--category", "--mode", "--depart", "--by", "--within", "--limit",
                                                        "--directions", "--format", "--time-zone", "--max-snap", "--max-transfers", "--max-walk"],
                                    switches: ["-h", "--help", "--strict-names"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard let graphPath = args.value("--graph") ?? args.value("-g") else { throw CommandError.usage("--graph G.wfg is required\n\n\(usage)") }
        guard let fromText = args.value("--from") else { throw CommandError.usage("--from STOP (lat,lon or a place name) is required\n\n\(usage)") }
        let words = args.positionals.joined(separator: " ")
        guard args.value("--category") != nil || !words.isEmpty else { throw CommandError.usage("give --category C (or words to match)\n\n\(usage)") }
        let transport = try RouteCommand.transportType(args.value("--mode"))
        let format = args.value("--format") ?? "text"
        guard ["text", "json"].contains(format) else { throw CommandError.usage("--format must be one of text, json, not '\(format)'") }
        let within = try args.value("--within").map {
            try OptionValue.decimal($0, option: "--within", unit: "metres", above: 0, upTo: NearbySearchRequest.maximumRadius)
        }
        let limit = try args.value("--limit").map { try OptionValue.integer($0, option: "--limit", range: 1...NearbySearchRequest.maximumCandidates) }
        let directions = try args.value("--directions").map { try OptionValue.integer($0, option: "--directions", range: 1...NearbySearchRequest.maximumCandidates) }
        let maxSnap = try RouteCommand.parseMaxSnap(args.value("--max-snap"))
        let transitOptions = transport == .transit ? try TransitRouteCommand.transitOptions(args) : TransitOptions()
        do { try StopNames.precheck([fromText]) } catch let error as CommandError {
            throw CommandError.usage("--from: " + error.message.replacingOccurrences(of: "stop 1 ", with: ""))
        }

        let map = try CommandMap.open(graphPath)
        try CommandMap.requireTimetable(map, path: graphPath, transit: transport == .transit)
        let from = try StopNames.resolve(option: "--from", fromText, map: map, strict: args.has("--strict-names"))
        StopNames.report([from], text: format == "text")
        let origin = from.coordinate
        let timeZone = try RouteCommand.timeZone(args, map: map)
        let depart = try args.value("--depart").map { try RouteCommand.parseDate($0, option: "--depart", timeZone: timeZone) }
        let by = try args.value("--by").map { try RouteCommand.parseDate($0, option: "--by", timeZone: timeZone) }
        var request = NearbySearchRequest(origin: origin, category: args.value("--category"), naturalLanguageQuery: words, transportType: transport,
                                          departureDate: depart, radius: within, limit: limit, maximumSnappingDistance: maxSnap, timeZone: timeZone)
        request.transitOptions = transitOptions
        request.latestArrival = by
        let search = NearbySearch(request, map: map)
        let response: NearbySearchResponse
        do { response = try search.calculate() } catch {
            throw commandError(error, origin: origin, maxSnap: maxSnap, map: map)
        }
        guard let k = directions else {
            print(format == "json" ? NearbyEncoder.json(response, transit: transport == .transit)
                  : NearbyEncoder.text(response, transit: transport == .transit), terminator: format == "json" ? "\n" : "")
            return
        }
        let reached = response.places.filter { $0.rank != nil }
        guard k <= reached.count else {
            throw CommandError.usage("--directions \(k): only \(reached.count) place\(reached.count == 1 ? " is" : "s are") reached within \(Int(request.effectiveRadius)) m")
        }
        let directionsRequest = search.directionsRequest(to: reached[k - 1], departure: response.expectedDepartureDate)
        do {
            if transport == .transit {
                let trip = try Directions(directionsRequest, map: map).calculateTransit()
                print(format == "json" ? TransitJSONEncoder().encode(trip) : TransitTextEncoder().encode(trip), terminator: format == "json" ? "\n" : "")
            } else {
                let result = try Directions(directionsRequest, map: map).calculate()
                print(format == "json" ? RouteJSONEncoder().encode(result) : TextEncoder().encode(result), terminator: format == "json" ? "\n" : "")
            }
        } catch {
            throw RouteCommand.commandError(error, files: [:], map: map)
        }
    }

    /// The command error (and exit code) of a failed nearby search.
    static func commandError(_ error: NearbySearchError, origin: Coordinate, maxSnap: Double, map: OfflineMap) -> CommandError {
        let hint = map.coordinateHint(for: origin).map { ": \($0)" } ?? ""
        switch error {
        case .places(.noPlaceIndex), .places(.damagedIndex): return CommandError(message: error.description, exitCode: ExitCode.badInput)
        case .places, .radiusOutOfRange, .limitOutOfRange: return CommandError.usage(error.description)
        case .latestArrivalBeforeDeparture: return CommandError.usage("--by: " + error.description)
        case .directions(.transit(.noRoad)):
            return CommandError(message: "--from is more than \(Int(maxSnap)) m from any road the foot profile may use" + hint, exitCode: ExitCode.noRoad)
        case let .directions(inner):
            if case .routing(.noRoad) = inner {
                return CommandError(message: "--from " + inner.description.replacingOccurrences(of: "stop 1 ", with: "") + hint, exitCode: ExitCode.noRoad)
            }
            return RouteCommand.commandError(inner, files: [:], map: map)
        }
    }
}
