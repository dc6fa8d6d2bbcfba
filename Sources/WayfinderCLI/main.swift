import Foundation
import Wayfinder

/// The `wayfinder` command line: a thin layer over the Wayfinder library (import still uses OSM and Graph directly).
let overview = """
wayfinder — offline routing over OpenStreetMap data (\(wayfinderLibraryVersion))

usage: wayfinder COMMAND [options]

commands:
  import INPUT -o OUT.wfg   build a graph file from OSM XML or PBF (.osm, .osm.gz, .osm.bz2, .osm.pbf, - for stdin); --gtfs FEED adds a timetable
  info GRAPH.wfg            show a graph file's header, sections, counts and profiles
  route --graph G STOP STOP…  directions by car, on foot or by transit through the stops (lat,lon), with steps
  eta --graph G STOP STOP…    travel time, distance, departure and arrival only
  matrix --graph G --sources F --destinations F  durations and distances from every source to every destination
  trip --graph G STOP STOP…   visit the stops after the first in the quickest order (--roundtrip, --end-fixed)
  batch --graph G --input JOBS --output OUT  route a file of jobs (NDJSON or CSV) on all cores, rows in input order
  merge --input JOBS OUT… -o MERGED  join the outputs of batch --shard runs in input order
  places --graph G QUERY     find places by name or address (--near LAT,LON, --category C, --categories)
  nearby --graph G --from STOP --category C  the places of a category around STOP ranked by arrival (car, foot, transit)
  serve --graph G [--port 5000]  HTTP API (OSRM-compatible route, table, trip, nearest) and an offline map page
  demo                      import the bundled samples and show what they hold

`wayfinder COMMAND --help` (or `wayfinder help COMMAND`) shows a command's options; `--` ends the options
(`wayfinder eta --graph g.wfg -- -30.03,-51.21 -30.05,-51.20`). With `--format json`, errors are JSON on
standard error: {"error": {"code", "exitCode", "message"}}. Exit codes: 0 ok, 1 failure, 2 bad usage,
3 bad or missing input, 4 output not written, 5 no route between the stops, 6 a stop too far from any road,
7 a batch ran but some of its jobs failed (their rows say why), 8 serve could not listen on its address.
"""

/// Each command's own help text, for `wayfinder help COMMAND` (a switch, not a dictionary: a `[String: String]`
/// built at start-up cost every process a search of the runtime's conformance tables and all twelve texts).
func commandUsage(_ topic: String) -> String? {
    switch topic {
    case "import": ImportCommand.usage
    case "info": InfoCommand.usage
    case "route": RouteCommand.routeUsage
    case "eta": RouteCommand.etaUsage
    case "matrix": MatrixCommand.usage
    case "trip": TripCommand.usage
    case "batch": BatchCommand.usage
    case "merge": MergeCommand.usage
    case "serve": ServeCommand.usage
    case "demo": DemoCommand.usage
    case "places": PlacesCommand.usage
    case "nearby": NearbyCommand.usage
    default: nil
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
/// With `--format json`, errors go to standard error as JSON too, so scripts can read them.
let errorsAsJSON: Bool = {
    let options = arguments.prefix { $0 != "--" }
    return options.contains("--format=json") || zip(options, options.dropFirst()).contains { $0 == "--format" && $1 == "json" }
}()

/// Writes an error to standard error (as text, or JSON with `--format json`) and exits with `code`.
func fail(_ message: String, code: Int32) -> Never {
    let line = errorsAsJSON ? ErrorJSON.encode(code: ExitCode.name(code), exitCode: code, message: message) : "wayfinder: error: \(message)"
    FileHandle.standardError.write(Data((line + "\n").utf8))
    exit(code)
}

do {
    switch command {
    case "import": try ImportCommand.run(arguments)
    case "info": try InfoCommand.run(arguments)
    case "route": try RouteCommand.run(arguments, etaOnly: false)
    case "eta": try RouteCommand.run(arguments, etaOnly: true)
    case "matrix": try MatrixCommand.run(arguments)
    case "trip": try TripCommand.run(arguments)
    case "batch": try BatchCommand.run(arguments)
    case "merge": try MergeCommand.run(arguments)
    case "serve": try ServeCommand.run(arguments)
    case "demo": try DemoCommand.run(arguments)
    case "places": try PlacesCommand.run(arguments)
    case "nearby": try NearbyCommand.run(arguments)
    case "help", "-h", "--help":
        if let topic = arguments.first, topic != "-h", topic != "--help" {
            guard let usage = commandUsage(topic) else { throw CommandError.usage("no command '\(topic)'\n\n\(overview)") }
            print(usage)
        } else {
            print(overview)
        }
    case "--version", "version": print(wayfinderLibraryVersion)
    default: throw CommandError.usage("unknown command '\(command)'\n\n\(overview)")
    }
} catch let error as CommandError {
    fail(error.message, code: error.exitCode)
} catch {
    fail("\(error)", code: ExitCode.failure)
}
