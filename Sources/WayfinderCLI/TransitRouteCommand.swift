import Foundation
import Wayfinder

/// `wayfinder route --mode transit` and `wayfinder eta --mode transit`: itineraries from the graph file's timetable.
enum TransitRouteCommand {
    static func run(_ args: ArgumentList, graphPath: String, etaOnly: Bool) throws {
        if args.value("--alternatives") != nil || args.has("--straight") {
            throw CommandError.usage("--alternatives and --straight do not apply to --mode transit (the itineraries of the Pareto set are shown)")
        }
        if args.value("--depart") != nil && args.value("--arrive") != nil { throw CommandError.usage("give --depart or --arrive, not both") }
        let options = try transitOptions(args)
        let maxSnap = try RouteCommand.parseMaxSnap(args.value("--max-snap"))
        let format = args.value("--format") ?? "text"
        let formats = etaOnly ? ["text", "json"] : ["text", "json", "geojson", "gpx", "polyline", "polyline6"]
        guard formats.contains(format) else { throw CommandError.usage("--format must be one of \(formats.joined(separator: ", ")), not '\(format)'") }
        let stopTexts = args.positionals
        try StopNames.precheck(stopTexts)
        guard stopTexts.count >= 2 else { throw CommandError.usage("give at least two stops as lat,lon or place names (got \(stopTexts.count))\n\n\(etaOnly ? RouteCommand.etaUsage : RouteCommand.routeUsage)") }
        let map = try CommandMap.open(graphPath)
        try CommandMap.requireTimetable(map, path: graphPath)
        let resolved = try StopNames.resolve(stopTexts, map: map, strict: args.has("--strict-names"))
        let stops = resolved.map(\.coordinate)
        StopNames.report(resolved, text: format == "text")
        // Times without an offset are the feed's local time (its first agency's zone) unless --time-zone says otherwise.
        let zone = try RouteCommand.timeZone(args, map: map)
        let depart = try args.value("--depart").map { try parseDate($0, option: "--depart", timeZone: zone) }
        let arrive = try args.value("--arrive").map { try parseDate($0, option: "--arrive", timeZone: zone) }
        let request = DirectionsRequest(stops: stops, transportType: .transit, departureDate: depart, arrivalDate: arrive,
                                        maximumSnappingDistance: maxSnap, timeZone: zone, transitOptions: options)
        let trip: TransitTrip
        do { trip = try Directions(request, map: map).calculateTransit() } catch {
            switch error {
            case let .transit(.noRoad(stop, _)) where stops.indices.contains(stop):
                let c = stops[stop]
                let hint = map.coordinateHint(for: c).map { ": \($0)" } ?? ""
                throw CommandError(message: "\(error.description) (stop \(stop + 1) is \(String(format: "%.6f,%.6f", c.latitude, c.longitude)))\(hint)",
                                   exitCode: ExitCode.noRoad)
            case let .transit(.dateOutsideFeed(_, first, last)) where depart == nil && arrive == nil:
                let suggestion = Self.suggestedDeparture(first: first, last: last)
                throw CommandError.usage("\(error.description); no --depart or --arrive was given, so the query left now: "
                                         + "give a time inside the feed, e.g. --depart \(suggestion)")
            default: throw RouteCommand.commandError(error, files: [:], map: map)
            }
        }
        if etaOnly {
            print(format == "json" ? TransitJSONEncoder().encodeETA(trip, places: resolved) : TransitTextEncoder().encodeETA(trip), terminator: format == "json" ? "\n" : "")
            return
        }
        switch format {
        case "json": print(TransitJSONEncoder().encode(trip, places: resolved))
        case "geojson": print(TransitGeoJSONEncoder().encode(trip))
        case "gpx": print(TransitGPXEncoder().encode(trip), terminator: "")
        case "polyline", "polyline6":
            var line: [Coordinate] = []
            for plan in trip.plans { for p in plan.primary.geometry where line.last != p { line.append(p) } }
            print(PolylineEncoder.encode(line, precision: format == "polyline" ? 5 : 6))
        default: print(TransitTextEncoder().encode(trip), terminator: "")
        }
    }

    /// A departure inside a feed's service range `first`…`last` (YYYY-MM-DD) to suggest: its first weekday at 09:00.
    static func suggestedDeparture(first: String, last: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parse = { (text: String) -> Date? in
            let p = text.split(separator: "-").compactMap { Int($0) }
            guard p.count == 3 else { return nil }
            return calendar.date(from: DateComponents(year: p[0], month: p[1], day: p[2]))
        }
        guard var day = parse(first), let end = parse(last) else { return "\(first)T09:00" }
        for _ in 0..<7 where day < end && calendar.isDateInWeekend(day) { day = calendar.date(byAdding: .day, value: 1, to: day)! }
        let c = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02dT09:00", c.year!, c.month!, c.day!)
    }

    /// A query time: local time in `timeZone` when it has no offset (an ambiguous time on a daylight-saving change
    /// is its first occurrence), as `RouteCommand.parseDate` (`ISO8601`) reads every date.
    /// The transit limits of `--max-transfers` and `--max-walk` (defaults when absent).
    static func transitOptions(_ args: ArgumentList) throws -> TransitOptions {
        var options = TransitOptions()
        if let text = args.value("--max-transfers") {
            guard let n = Int(text), (0...6).contains(n) else { throw CommandError.usage("--max-transfers must be a whole number from 0 to 6, not '\(text)'") }
            options.maxTransfers = n
        }
        if let text = args.value("--max-walk") {
            guard let m = Double(text), m >= 0, m <= TransitOptions.maximumWalk else {
                throw CommandError.usage("--max-walk must be a number of metres from 0 to \(Int(TransitOptions.maximumWalk)), not '\(text)'")
            }
            options.maxWalk = m
        }
        return options
    }

    /// A `--depart-window` value: seconds, or a number with `s`, `m` or `h` (30m, 1.5h); more than 0, at most 24 h.
    static func parseWindow(_ text: String) throws -> TimeInterval {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        var number = Substring(text), scale = 1.0
        if let last = text.last, let unit = units[last] { number = text.dropLast(); scale = unit }
        guard let value = Double(number), value.isFinite, value * scale > 0, value * scale <= 86_400 else {
            throw CommandError.usage("--depart-window must be a duration of more than 0 and at most 24h (e.g. 30m, 2h, 900s), not '\(text)'")
        }
        return value * scale
    }

    static func parseDate(_ text: String, option: String, timeZone: TimeZone) throws -> Date {
        try RouteCommand.parseDate(text, option: option, timeZone: timeZone)
    }
}
