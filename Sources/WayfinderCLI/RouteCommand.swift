import Foundation
import Wayfinder

/// `wayfinder route` and `wayfinder eta`: directions, or the ETA alone, through two or more stops.
enum RouteCommand {
    /// `wayfinder route --help`.
    static let routeUsage = """
    usage: wayfinder route --graph G.wfg [--mode car|foot|transit] [--depart T | --arrive T] [--alternatives N] [--straight]
                           [--format text|json|geojson|gpx|polyline|polyline6] [--time-zone ZONE] [--max-snap M]
                           [--max-transfers N] [--max-walk M] [--strict-names] [--] STOP STOP [STOP…]

    Directions through the stops in order, leg by leg, with geometry and turn-by-turn steps.

      STOP               lat,lon in degrees (e.g. 39.4667,-87.4139), or a place name (Bismarckplatz): the best match
                         near the stop before (the map's centre for the first); each snaps to the nearest road the mode may use
      -g, --graph G      the graph file (from wayfinder import)
      --mode MODE        car (default), foot, or transit (needs a graph imported with --gtfs)
      --depart T         leave at T (default: now); T is ISO 8601: 2026-12-01T08:30, 2026-12-01T08:30:00-05:00, …Z, or "now"
      --arrive T         arrive at T: the departure is worked back from the travel time
      --alternatives N   up to N further, really different routes, 0 to 10 (two stops only)
      --straight         straight great-circle lines between the stops, with their lengths, instead of routes
      --format F         text (default), json (docs/route-json.md), geojson (RFC 7946), gpx (GPX 1.1), polyline, polyline6
      --time-zone ZONE   IANA zone for dates without an offset and for output (default: the map's: its
                         timetable's with --gtfs, else the system's, $TZ)
      --max-snap M       farthest a stop may lie from a road the mode may use, metres, up to 100000 (default 1000)
      --max-transfers N  (transit) most transfers between rides, 0 to 6 (default 6)
      --max-walk M       (transit) longest walk to or from a stop, metres, 0 to 10000 (default 1000)
      --strict-names     a name that several places far apart match equally well is an error listing them
      --                 ends the options: what follows are stops, even when they start with - (-30.03,-51.21)

    With --format json, errors are JSON on standard error. Exit codes: 0 ok, 2 bad usage, 3 bad input (graph file),
    5 no route (the leg is named), 6 a stop too far from any road (the stop is named).
    """

    /// `wayfinder eta --help`.
    static let etaUsage = """
    usage: wayfinder eta --graph G.wfg [--mode car|foot|transit] [--depart T | --arrive T] [--format text|json]
                         [--time-zone ZONE] [--max-snap M] [--max-transfers N] [--max-walk M] [--strict-names]
                         [--] STOP STOP [STOP…]
           wayfinder eta --graph G.wfg --from STOP (--to-file PLACES | --to-category C [--within M]) [--mode car|foot|transit] [--depart T] [--sort]
                         [--depart-window W] [--format text|json|csv] [--time-zone ZONE] [--max-snap M]
                         [--max-transfers N] [--max-walk M]

    The estimated time of arrival alone (travel time, distance, departure, arrival) through the stops in order; or,
    with --from and --to-file, one search from the origin to every place of a file (by transit each place also gets
    its rides, metres walked and first boarding, each equal to the pair's own eta --mode transit).

      STOP               lat,lon in degrees (e.g. 39.4667,-87.4139), or a place name (as route)
      -g, --graph G      the graph file (from wayfinder import)
      --mode MODE        car (default), foot, or transit (needs a graph imported with --gtfs)
      --depart T         leave at T (default: now); ISO 8601 (2026-12-01T08:30, with or without an offset) or "now"
      --arrive T         arrive at T: the departure is worked back (not with --to-file)
      --format F         text (default), json, or (with --to-file) csv
      --time-zone ZONE   IANA zone for dates without an offset and for output (default: the map's: its
                         timetable's with --gtfs, else the system's, $TZ)
      --max-snap M       farthest a stop may lie from a road the mode may use, metres, up to 100000 (default 1000)
      --max-transfers N  (transit) most transfers between rides, 0 to 6 (default 6)
      --max-walk M       (transit) longest walk to or from a stop, metres, 0 to 10000 (default 1000)
      --from STOP        the origin of a one-to-many ETA list (lat,lon or a place name)
      --to-file PLACES   places to list, one `name,lat,lon`, `lat,lon[,name]` or a name alone per line (optional
                         header; RFC 4180 quotes); each gets its travel time, distance and arrival from one search from --from
      --to-category C    instead of --to-file: the places of category C (restaurant, amenity=restaurant) within
                         --within metres of --from, nearest first (the place index of the graph; at most 1000)
      --within M         (with --to-category) search radius, metres (default 2000 on foot and by transit, 10000 by
                         car; at most 100000)
      --sort             (with --to-file or --to-category) sort the places by ETA, unreachable ones last
      --depart-window W  (transit, with --to-file) also each place's best, median and worst travel time over
                         departures from --depart to W later (30m, 2h, 900s; more than 0, at most 24h)
      --strict-names     a name that several places far apart match equally well is an error listing them
      --                 ends the options: what follows are stops, even when they start with -

    With --format json, errors are JSON on standard error. Exit codes: 0 ok, 2 bad usage (a stop name that matches
    nothing or, with --strict-names, several places), 3 bad input (graph file, a name of PLACES not found,
    a malformed line of PLACES: file and line named), 5 no route, 6 a stop too far from any road.
    """

    static func run(_ arguments: [String], etaOnly: Bool) throws {
        var valued: Set<String> = ["--graph", "-g", "--mode", "--depart", "--arrive", "--alternatives", "--format", "--time-zone", "--max-snap",
                                   "--max-transfers", "--max-walk"]
        var switches: Set<String> = ["--straight", "--strict-names", "-h", "--help"]
        if etaOnly { valued.formUnion(["--from", "--to-file", "--to-category", "--within", "--depart-window"]); switches.insert("--sort") }
        let args = try ArgumentList(arguments, valued: valued, switches: switches)
        if args.has("-h") || args.has("--help") { print(etaOnly ? etaUsage : routeUsage); return }
        if etaOnly && (args.value("--from") != nil || args.value("--to-file") != nil || args.value("--to-category") != nil || args.has("--sort")) {
            try runList(args)
            return
        }
        if args.value("--depart-window") != nil { throw CommandError.usage("--depart-window applies to an ETA list (--from STOP --to-file PLACES --mode transit)") }
        guard let graphPath = args.value("--graph") ?? args.value("-g") else { throw CommandError.usage("--graph G.wfg is required\n\n\(etaOnly ? etaUsage : routeUsage)") }
        let transport = try transportType(args.value("--mode"))
        if transport == .transit { try TransitRouteCommand.run(args, graphPath: graphPath, etaOnly: etaOnly); return }
        // Bad usage is told before the map opens: the zone's name and the dates' form (read in the map's zone below).
        _ = try parseTimeZone(args.value("--time-zone"))
        if args.value("--depart") != nil && args.value("--arrive") != nil { throw CommandError.usage("give --depart or --arrive, not both") }
        for option in ["--depart", "--arrive"] { _ = try args.value(option).map { try parseDate($0, option: option, timeZone: .current) } }
        var alternatives = 0
        if let text = args.value("--alternatives") {
            guard let n = Int(text), n >= 0, n <= 10 else { throw CommandError.usage("--alternatives must be a whole number from 0 to 10, not '\(text)'") }
            alternatives = n
        }
        let maxSnap = try parseMaxSnap(args.value("--max-snap"))
        let format = args.value("--format") ?? "text"
        let formats = etaOnly ? ["text", "json"] : ["text", "json", "geojson", "gpx", "polyline", "polyline6"]
        guard formats.contains(format) else { throw CommandError.usage("--format must be one of \(formats.joined(separator: ", ")), not '\(format)'") }
        let stopTexts = args.positionals
        try StopNames.precheck(stopTexts)
        guard stopTexts.count >= 2 else { throw CommandError.usage("give at least two stops as lat,lon or place names (got \(stopTexts.count))\n\n\(etaOnly ? etaUsage : routeUsage)") }

        let map = try CommandMap.open(graphPath)
        let resolved = try StopNames.resolve(stopTexts, map: map, strict: args.has("--strict-names"))
        let stops = resolved.map(\.coordinate)
        StopNames.report(resolved, text: format == "text")
        let timeZone = try Self.timeZone(args, map: map)
        let depart = try args.value("--depart").map { try parseDate($0, option: "--depart", timeZone: timeZone) }
        let arrive = try args.value("--arrive").map { try parseDate($0, option: "--arrive", timeZone: timeZone) }
        let request = DirectionsRequest(stops: stops, transportType: transport, departureDate: depart, arrivalDate: arrive,
                                        requestsAlternateRoutes: alternatives > 0, maximumAlternateRoutes: alternatives,
                                        straightLines: args.has("--straight"), maximumSnappingDistance: maxSnap, timeZone: timeZone)
        let directions = Directions(request, map: map)
        do {
            if etaOnly {
                let eta = try directions.calculateETA()
                print(format == "json" ? RouteJSONEncoder().encodeETA(eta, places: resolved) : TextEncoder().encodeETA(eta))
                return
            }
            let response = try directions.calculate()
            switch format {
            case "json": print(RouteJSONEncoder().encode(response, places: resolved))
            case "geojson": print(GeoJSONEncoder().encode(response))
            case "gpx": print(GPXEncoder().encode(response), terminator: "")
            case "polyline", "polyline6":
                for route in response.routes { print(PolylineEncoder.encode(route.polyline, precision: format == "polyline" ? 5 : 6)) }
            default: print(TextEncoder().encode(response), terminator: "")
            }
        } catch {
            throw commandError(error, files: [:], map: map)
        }
    }

    /// `eta --from STOP --to-file PLACES`: one search from the origin, a row per place.
    static func runList(_ args: ArgumentList) throws {
        guard let graphPath = args.value("--graph") ?? args.value("-g") else { throw CommandError.usage("--graph G.wfg is required\n\n\(etaUsage)") }
        guard let fromText = args.value("--from") else { throw CommandError.usage("--to-file needs --from STOP (the origin, lat,lon)") }
        let placesPath = args.value("--to-file"), category = args.value("--to-category")
        guard (placesPath == nil) != (category == nil) else {
            throw CommandError.usage(placesPath == nil ? "--from needs --to-file PLACES (a file of name,lat,lon lines) or --to-category C"
                                     : "give --to-file or --to-category, not both")
        }
        if args.value("--within") != nil && category == nil { throw CommandError.usage("--within applies to --to-category") }
        let within = try args.value("--within").map {
            try OptionValue.decimal($0, option: "--within", unit: "metres", above: 0, upTo: NearbySearchRequest.maximumRadius)
        }
        guard args.positionals.isEmpty else {
            throw CommandError.usage("with --from and --to-file, give no further stops (got '\(args.positionals[0])')")
        }
        if args.value("--arrive") != nil { throw CommandError.usage("--arrive is not supported with --to-file; use --depart") }
        if args.value("--alternatives") != nil || args.has("--straight") {
            throw CommandError.usage("--alternatives and --straight do not apply to an ETA list")
        }
        let transport = try transportType(args.value("--mode"))
        let window = try args.value("--depart-window").map { try TransitRouteCommand.parseWindow($0) }
        if window != nil && transport != .transit { throw CommandError.usage("--depart-window needs --mode transit (road travel times do not depend on the departure)") }
        let transitOptions = transport == .transit ? try TransitRouteCommand.transitOptions(args) : TransitOptions()
        let maxSnap = try parseMaxSnap(args.value("--max-snap"))
        let format = args.value("--format") ?? "text"
        guard ["text", "json", "csv"].contains(format) else { throw CommandError.usage("--format must be one of text, json, csv, not '\(format)'") }
        do { try StopNames.precheck([fromText]) } catch let error as CommandError {
            throw CommandError.usage("--from: " + error.message.replacingOccurrences(of: "stop 1 ", with: ""))
        }
        let rows = try placesPath.map { try StopNames.rows($0, role: "places") }

        let map = try CommandMap.open(graphPath)
        try CommandMap.requireTimetable(map, path: graphPath, transit: transport == .transit)
        let strict = args.has("--strict-names")
        let from = try StopNames.resolve(option: "--from", fromText, map: map, strict: strict)
        let origin = from.coordinate
        var places = try rows.map { try StopNames.places($0, file: placesPath ?? "", map: map, strict: strict, near: origin) } ?? []
        StopNames.report([from], text: format == "text")
        StopNames.report(places: places, text: format == "text")
        let timeZone = try Self.timeZone(args, map: map)
        let depart = try args.value("--depart").map { try parseDate($0, option: "--depart", timeZone: timeZone) }
        if let category {
            // The category's places around the origin, nearest first, from the same search `nearby` ranks.
            let nearby = NearbySearch(NearbySearchRequest(origin: origin, category: category, transportType: transport, radius: within), map: map)
            do { places = nearby.etaRequest(to: try nearby.candidates()).places } catch {
                throw NearbyCommand.commandError(error, origin: origin, maxSnap: maxSnap, map: map)
            }
        }
        var request = ETAListRequest(origin: origin, places: places, transportType: transport, departureDate: depart,
                                     maximumSnappingDistance: maxSnap, timeZone: timeZone)
        request.transitOptions = transitOptions
        request.departureWindow = window
        let response: ETAListResponse
        do { response = try ETAList(request, map: map).calculate() } catch {
            if case .transit(.noRoad) = error {
                let hint = map.coordinateHint(for: origin).map { ": \($0)" } ?? ""
                throw CommandError(message: "--from is more than \(Int(maxSnap)) m from any road the foot profile may use" + hint, exitCode: ExitCode.noRoad)
            }
            if case .routing(.noRoad) = error {
                let hint = map.coordinateHint(for: origin).map { ": \($0)" } ?? ""
                throw CommandError(message: "--from " + error.description.replacingOccurrences(of: "stop 1 ", with: "") + hint, exitCode: ExitCode.noRoad)
            }
            throw commandError(error, files: [:], map: map)
        }
        let entries = args.has("--sort") ? response.sortedByETA : response.entries
        let transit = transport == .transit
        switch format {
        case "json": print(ETAListEncoder.json(entries, timeZone: timeZone, transit: transit))
        case "csv": print(ETAListEncoder.csv(entries, timeZone: timeZone, transit: transit), terminator: "")
        default: print(ETAListEncoder.text(entries, timeZone: timeZone, transit: transit), terminator: "")
        }
    }

    /// Largest `--max-snap`, metres: 100 km, farther than any stop is meaningfully "near" a road (batch's bound too).
    static let maximumSnap = 100_000.0

    /// A `--max-snap` value in metres (default 1000), greater than 0 and at most `maximumSnap`.
    static func parseMaxSnap(_ text: String?) throws -> Double {
        guard let text else { return 1000 }
        return try OptionValue.decimal(text, option: "--max-snap", unit: "metres", above: 0, upTo: maximumSnap)
    }

    /// The command error (and exit code) for a failed directions, matrix or trip request; `files` names the file
    /// a place came from by its role ("source", "destination"), so the message can point at it.
    /// `graph`, when given, lets a stop that found no road get a hint (swapped latitude and longitude, the graph's box).
    static func commandError(_ error: DirectionsError, files: [String: String], map: OfflineMap? = nil) -> CommandError {
        func hint(_ c: Coordinate) -> String { map?.coordinateHint(for: c).map { ": \($0)" } ?? "" }
        switch error {
        case .routing(.noRoute): return CommandError(message: error.description, exitCode: ExitCode.noRoute)
        case let .routing(.noRoad(_, coordinate, _, _)): return CommandError(message: error.description + hint(coordinate), exitCode: ExitCode.noRoad)
        case let .routing(.noRoadNear(role, index, coordinate, _, _)):
            let place = files[role].map { "\($0): " } ?? ""
            return CommandError(message: place + error.description + (files[role] != nil ? " (place \(index + 1) of the file)" : "") + hint(coordinate),
                                exitCode: ExitCode.noRoad)
        case .routing(.unknownProfile), .routing(.tooBig), .routing(.corruptGraph): return CommandError(message: error.description, exitCode: ExitCode.badInput)
        case .routing(.timedOut), .routing(.cancelled): return CommandError(message: error.description, exitCode: ExitCode.failure)
        case .transit(.noTransitRoute): return CommandError(message: error.description, exitCode: ExitCode.noRoute)
        case .transit(.noRoad): return CommandError(message: error.description, exitCode: ExitCode.noRoad)
        case .transit(.graph), .transit(.feed), .transit(.noTimetable), .transit(.noFootProfile), .transit(.noTrips):
            return CommandError(message: error.description, exitCode: ExitCode.badInput)
        default: return CommandError.usage(error.description)
        }
    }

    /// The transport type of a `--mode` value (default car), by the one table of mode names (`TransportType(name:)`).
    static func transportType(_ mode: String?) throws -> TransportType {
        guard let mode else { return .automobile }
        guard let type = TransportType(name: mode) else {
            throw CommandError.usage("--mode must be car, foot or transit (or \(TransportType.acceptedNames.map(\.name).joined(separator: ", "))), not '\(mode)'")
        }
        return type
    }

    /// The zone dates without an offset are read in and dates are printed in: `--time-zone`, else the map's own
    /// (`OfflineMap.localTimeZone`: its timetable's when it has one, else the system's), whatever the mode.
    static func timeZone(_ args: ArgumentList, map: OfflineMap) throws -> TimeZone {
        if let name = args.value("--time-zone") { return try parseTimeZone(name) }
        return map.localTimeZone
    }

    /// The time zone of a `--time-zone` value (default: the system's).
    static func parseTimeZone(_ name: String?) throws -> TimeZone {
        guard let name else { return .current }
        guard let zone = TimeZone(identifier: name) else {
            throw CommandError.usage("--time-zone: unknown time zone '\(name)' (use an IANA name such as Europe/Berlin)")
        }
        return zone
    }

    /// An ISO 8601 date-time (`ISO8601`), with or without seconds and offset ("now" for the current time).
    static func parseDate(_ text: String, option: String, timeZone: TimeZone) throws -> Date {
        if text == "now" { return Date() }
        do { return try ISO8601.date(from: text, timeZone: timeZone) } catch { throw CommandError.usage("\(option) \(error.description)") }
    }
}
