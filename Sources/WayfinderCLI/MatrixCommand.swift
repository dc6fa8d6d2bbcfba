import Foundation
import Wayfinder

/// `wayfinder matrix`: durations and distances from every source to every destination, many-to-many.
enum MatrixCommand {
    static let usage = """
    usage: wayfinder matrix --graph G.wfg [--mode car|foot|transit] --sources FILE --destinations FILE [--format csv|json]
                            [--max-size N] [--max-snap M] [--depart T] [--time-zone ZONE] [--max-transfers N] [--max-walk M]
                            [--strict-names]

    Durations and distances from every source to every destination.

      -g, --graph G        the graph file (from wayfinder import)
      --mode MODE          car (default), foot, or transit (needs a graph imported with --gtfs, and --depart)
      --sources FILE       places to start from, one `lat,lon` per line (optional name column, `lat,lon,name` or
                           `name,lat,lon`; or a place name alone, the best match near the line before; optional
                           header line; RFC 4180 quotes); duplicates are fine
      --destinations FILE  places to reach, in the same form (the same file as --sources gives a square matrix)
      --format F           csv (default: a row per pair, `source,destination,source_name,destination_name,duration_s,distance_m`)
                           or json (`durations` and `distances` as rows of seconds and metres, null for no route)
      --max-size N         refuse more than N sources or N destinations, before any work (default 10000, at most 100000)
      --max-snap M         farthest a place may lie from a road the mode may use, metres, up to 100000 (default 1000)
      --depart T           (transit, required) leave every source at T: ISO 8601, without an offset in the feed's zone
      --time-zone ZONE     (transit) IANA zone for --depart without an offset (default: the feed's)
      --max-transfers N    (transit) most transfers between rides, 0 to 6 (default 6)
      --max-walk M         (transit) longest walk to or from a stop, metres, 0 to 10000 (default 1000)
      --strict-names       a name that several places far apart match equally well is an error listing them

    A pair with no route gets empty cells (csv) or null (json); it is not an error. Without contraction hierarchies
    in the graph file (imported with --no-ch) one Dijkstra runs per source instead. By transit each cell is the
    time from --depart to the earliest arrival (one search per source; the arrival equals the pair's own eta) and
    its distance the metres walked.
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--graph", "-g", "--mode", "--sources", "--destinations", "--format", "--max-size", "--max-snap",
                                                        "--depart", "--time-zone", "--max-transfers", "--max-walk"],
                                    switches: ["--strict-names", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard args.positionals.isEmpty else { throw CommandError.usage("matrix takes no stops on the command line (got '\(args.positionals[0])'); use --sources and --destinations\n\n\(usage)") }
        guard let graphPath = args.value("--graph") ?? args.value("-g") else { throw CommandError.usage("--graph G.wfg is required\n\n\(usage)") }
        guard let sourcesPath = args.value("--sources"), let destinationsPath = args.value("--destinations") else {
            throw CommandError.usage("--sources FILE and --destinations FILE are required\n\n\(usage)")
        }
        let transport = try RouteCommand.transportType(args.value("--mode"))
        let format = args.value("--format") ?? "csv"
        guard ["csv", "json"].contains(format) else { throw CommandError.usage("--format must be csv or json, not '\(format)'") }
        var maxSize = 10_000
        if let text = args.value("--max-size") {
            maxSize = try OptionValue.integer(text, option: "--max-size", range: 1...100_000)
        }
        let maxSnap = try RouteCommand.parseMaxSnap(args.value("--max-snap"))
        if transport == .transit && args.value("--depart") == nil {
            throw CommandError.usage("a matrix by transit needs --depart T: transit travel times depend on when you leave")
        }
        let transitOptions = transport == .transit ? try TransitRouteCommand.transitOptions(args) : TransitOptions()
        let sourceRows = try StopNames.rows(sourcesPath, role: "sources")
        let destinationRows = try StopNames.rows(destinationsPath, role: "destinations")
        if sourceRows.count > maxSize || destinationRows.count > maxSize {
            throw CommandError(message: "a matrix of \(sourceRows.count) × \(destinationRows.count) places is larger than the limit of \(maxSize) × \(maxSize) (--max-size)",
                               exitCode: ExitCode.badInput)
        }
        let map = try CommandMap.open(graphPath)
        let strict = args.has("--strict-names")
        let sources = try StopNames.places(sourceRows, file: sourcesPath, map: map, strict: strict)
        let destinations = try StopNames.places(destinationRows, file: destinationsPath, map: map, strict: strict)
        StopNames.report(places: sources + destinations, text: false)
        var request = MatrixRequest(sources: sources, destinations: destinations, transportType: transport,
                                    maximumSnappingDistance: maxSnap, maximumSize: maxSize)
        if transport == .transit {
            try CommandMap.requireTimetable(map, path: graphPath)
            let zone = try RouteCommand.timeZone(args, map: map)
            request.departureDate = try args.value("--depart").map { try TransitRouteCommand.parseDate($0, option: "--depart", timeZone: zone) }
            request.transitOptions = transitOptions
        }
        let response: MatrixResponse
        do { response = try Matrix(request, map: map).calculate() } catch {
            throw RouteCommand.commandError(error, files: ["source": sourcesPath, "destination": destinationsPath], map: map)
        }
        print(format == "json" ? MatrixEncoder.json(response) : MatrixEncoder.csv(response), terminator: format == "json" ? "\n" : "")
    }
}
