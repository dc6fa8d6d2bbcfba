import Foundation
import Wayfinder

/// `wayfinder trip`: the stops after the first in the quickest order, then the route through them.
enum TripCommand {
    static let usage = """
    usage: wayfinder trip --graph G.wfg [--mode car|foot|transit] [--roundtrip | --end-fixed] [--depart T] [--time-zone ZONE]
                          [--format text|json|geojson|gpx|polyline|polyline6] [--max-snap M] [--max-transfers N] [--max-walk M]
                          [--strict-names] [--] (STOP STOP… | --stops-file FILE)

    Visits the stops after the first in the order that makes the trip quickest, then routes them.

      STOP               lat,lon or a place name (the best match near the stop before); the first stop stays
                         first, the others are reordered for the quickest trip
      -g, --graph G      the graph file (from wayfinder import)
      --mode MODE        car (default), foot, or transit (greedy order by earliest arrival, departures chained;
                         needs a graph imported with --gtfs, and --depart; formats text and json)
      --roundtrip        come back to the first stop at the end
      --end-fixed        keep the last stop last (default: end wherever the trip is quickest)
      --depart T         leave at T (default: now), ISO 8601
      --time-zone ZONE   IANA zone for dates without an offset and for output (default: the map's: its
                         timetable's with --gtfs, else the system's, $TZ)
      --format F         text (default: order, total, saving, then the route), json (`trip` and `directions`), or a
                         route format: geojson, gpx, polyline, polyline6 (stops in visiting order)
      --max-snap M       farthest a stop may lie from a road the mode may use, metres, up to 100000 (default 1000)
      --max-transfers N  (transit) most transfers between rides, 0 to 6 (default 6)
      --max-walk M       (transit) longest walk to or from a stop, metres, 0 to 10000 (default 1000)
      --stops-file FILE  the stops from a file, one `lat,lon` per line (optional name column and header) or a name alone
      --strict-names     a name that several places far apart match equally well is an error listing them
      --                 ends the options: what follows are stops, even when they start with -

    The order is exact for up to 12 stops (dynamic programming); beyond, nearest insertion improved by 2-opt and
    Or-opt moves, never worse than the given order; at most 1000 stops. By transit the order is greedy: from where
    you are, at the moment you are there, the unvisited stop reached earliest (travel times depend on when each leg
    leaves, so no one matrix can order the trip; docs/transit.md "Orders by transit").
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--graph", "-g", "--mode", "--format", "--depart", "--time-zone", "--max-snap", "--stops-file",
                                                        "--max-transfers", "--max-walk"],
                                    switches: ["--roundtrip", "--end-fixed", "--strict-names", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard let graphPath = args.value("--graph") ?? args.value("-g") else { throw CommandError.usage("--graph G.wfg is required\n\n\(usage)") }
        if args.has("--roundtrip") && args.has("--end-fixed") { throw CommandError.usage("give --roundtrip or --end-fixed, not both") }
        let shape: TripPlanner.Shape = args.has("--roundtrip") ? .roundtrip : args.has("--end-fixed") ? .endFixed : .open
        let transport = try RouteCommand.transportType(args.value("--mode"))
        if transport == .transit && args.value("--depart") == nil {
            throw CommandError.usage("a trip by transit needs --depart T: its order depends on when each leg leaves")
        }
        let transitOptions = transport == .transit ? try TransitRouteCommand.transitOptions(args) : TransitOptions()
        let maxSnap = try RouteCommand.parseMaxSnap(args.value("--max-snap"))
        let format = args.value("--format") ?? "text"
        let formats = transport == .transit ? ["text", "json"] : ["text", "json", "geojson", "gpx", "polyline", "polyline6"]
        guard formats.contains(format) else { throw CommandError.usage("--format must be one of \(formats.joined(separator: ", ")), not '\(format)'") }
        let stopsFile = args.value("--stops-file")
        var rows: [PlacesFileRow] = []
        if let file = stopsFile {
            guard args.positionals.isEmpty else { throw CommandError.usage("give the stops on the command line or with --stops-file, not both") }
            rows = try StopNames.rows(file, role: "stops")
        } else {
            try StopNames.precheck(args.positionals)
        }
        let stopCount = stopsFile == nil ? args.positionals.count : rows.count
        guard stopCount >= 2 else { throw CommandError.usage("a trip needs at least two stops (got \(stopCount))\n\n\(usage)") }
        if stopCount > 1000 { throw CommandError(message: "a trip of \(stopCount) stops is larger than the limit of 1000", exitCode: ExitCode.badInput) }

        let map = try CommandMap.open(graphPath)
        let strict = args.has("--strict-names")
        let resolved: [ResolvedStop]
        if let file = stopsFile {
            resolved = try StopNames.places(rows, file: file, map: map, strict: strict).map {
                ResolvedStop(text: $0.name, coordinate: $0.coordinate, source: $0.place == nil ? .coordinate : .placeIndex, place: $0.place)
            }
        } else {
            resolved = try StopNames.resolve(args.positionals, map: map, strict: strict)
        }
        let stops = resolved.map(\.coordinate)
        StopNames.report(resolved, text: format == "text")
        try CommandMap.requireTimetable(map, path: graphPath, transit: transport == .transit)
        let timeZone = try RouteCommand.timeZone(args, map: map)
        let depart = try args.value("--depart").map { try RouteCommand.parseDate($0, option: "--depart", timeZone: timeZone) }
        var request = TripRequest(stops: stops, transportType: transport, shape: shape, departureDate: depart,
                                  maximumSnappingDistance: maxSnap, timeZone: timeZone)
        request.transitOptions = transitOptions
        if transport == .transit {
            let answer: TransitTripResponse
            do { answer = try Trip(request, map: map).calculateTransit() } catch { throw RouteCommand.commandError(error, files: [:], map: map) }
            print(format == "json" ? TripEncoder.json(answer, places: resolved) : TripEncoder.text(answer), terminator: format == "json" ? "\n" : "")
            return
        }
        let trip: TripResponse
        do { trip = try Trip(request, map: map).calculate() } catch { throw RouteCommand.commandError(error, files: [:], map: map) }
        switch format {
        case "json": print(TripEncoder.json(trip, places: resolved))
        case "geojson": print(GeoJSONEncoder().encode(trip.directions))
        case "gpx": print(GPXEncoder().encode(trip.directions), terminator: "")
        case "polyline", "polyline6": print(PolylineEncoder.encode(trip.directions.routes[0].polyline, precision: format == "polyline" ? 5 : 6))
        default: print(TripEncoder.text(trip), terminator: "")
        }
    }
}
