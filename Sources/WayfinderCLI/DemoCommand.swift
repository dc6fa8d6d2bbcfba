import Foundation
import Wayfinder

/// `wayfinder demo`: imports the bundled samples once (into a cache folder) and prints a short report.
enum DemoCommand {
    static let usage = """
    usage: wayfinder demo [--data DIR] [--cache DIR] [--fresh]

    Imports the bundled samples once, then shows what they hold: routes, a walk, a matrix, a trip, a bus trip, and
    a place found by name with the restaurants around it by ETA.

      --data DIR    where the samples are (default: Data/ of the source tree or the current folder)
      --cache DIR   where imported graphs are kept (default: $XDG_CACHE_HOME/wayfinder or ~/.cache/wayfinder)
      --fresh       import again even when a cached graph is up to date
    """

    /// The bundled samples: file name and what it shows.
    static let samples = [
        ("terre-haute.osm.gz", "Terre Haute, Indiana: a small city with its GTFS feed (Data/terre-haute-gtfs.zip)"),
        ("monaco.osm.gz", "Monaco: a dense city"),
    ]

    /// Example trips per sample: mode, time zone, and named stops.
    static let trips: [String: [(TransportType, String, [(String, Coordinate)])]] = [
        "terre-haute.osm.gz": [
            (.automobile, "America/Indiana/Indianapolis", [
                ("Downtown (Wabash & 7th)", Coordinate(latitude: 39.4667, longitude: -87.4106)),
                ("Rose-Hulman Institute", Coordinate(latitude: 39.4832, longitude: -87.3241)),
                ("Indiana State University", Coordinate(latitude: 39.4716, longitude: -87.4086)),
            ]),
            (.walking, "America/Indiana/Indianapolis", [
                ("Vigo County Courthouse", Coordinate(latitude: 39.4656, longitude: -87.4131)),
                ("Indiana State University", Coordinate(latitude: 39.4716, longitude: -87.4086)),
            ]),
        ],
        "monaco.osm.gz": [
            (.automobile, "Europe/Monaco", [
                ("Casino de Monte-Carlo", Coordinate(latitude: 43.7393, longitude: 7.4277)),
                ("Prince's Palace", Coordinate(latitude: 43.7312, longitude: 7.4203)),
                ("Stade Louis II", Coordinate(latitude: 43.7276, longitude: 7.4157)),
            ]),
            (.walking, "Europe/Monaco", [
                ("Prince's Palace", Coordinate(latitude: 43.7312, longitude: 7.4203)),
                ("Port Hercule", Coordinate(latitude: 43.7352, longitude: 7.4230)),
                ("Casino de Monte-Carlo", Coordinate(latitude: 43.7393, longitude: 7.4277)),
            ]),
        ],
    ]

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--data", "--cache"], switches: ["--fresh", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        let data = try args.value("--data") ?? findDataFolder()
        let cache = args.value("--cache") ?? defaultCacheFolder()
        do {
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        } catch {
            throw CommandError(message: "cannot create the cache folder \(cache): \(error.localizedDescription)", exitCode: ExitCode.outputFailed)
        }
        print("Wayfinder demo: offline road graphs from the OpenStreetMap samples in \(data)")
        print("(map data © OpenStreetMap contributors, ODbL 1.0)\n")
        for (name, about) in samples {
            let input = (data as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: input) else {
                throw CommandError(message: "sample \(input) is missing; pass --data DIR", exitCode: ExitCode.badInput)
            }
            let graphPath = (cache as NSString).appendingPathComponent(ImportCommand.defaultOutput(for: name)!)
            print("\(name): \(about)")
            var imported = false
            if args.has("--fresh") || !isFresh(graph: graphPath, source: input) || !DemoTransit.isFresh(graph: graphPath, sample: name, data: data) {
                let started = Date()
                var options = MapImporter.Options()
                let feed = DemoTransit.feed(for: name, data: data)
                if let feed { options.transitFeeds = [feed] }
                do { _ = try MapImporter(options: options).run(input: input, output: graphPath) } catch {
                    throw CommandError(message: error.description, exitCode: ExitCode.badInput)
                }
                print(String(format: "  imported in %.2f s → %@", Date().timeIntervalSince(started), graphPath)
                      + (feed.map { " (with the timetable of \(($0 as NSString).lastPathComponent))" } ?? ""))
                imported = true
            }
            if !imported { print("  using the cached graph \(graphPath) (--fresh imports again)") }
            try report(graphPath)
            try showTrips(for: name, graphPath: graphPath)
            try showMatrixAndTrip(for: name, graphPath: graphPath)
            try DemoTransit.showTrip(graph: graphPath, sample: name)
            DemoPlaces.show(graph: graphPath, sample: name)
            print("")
        }
        // Commands that work as printed, from any folder: the paths are the ones this run used.
        let monacoGraph = URL(fileURLWithPath: (cache as NSString).appendingPathComponent("monaco.wfg")).standardizedFileURL.path
        let monacoInput = URL(fileURLWithPath: (data as NSString).appendingPathComponent("monaco.osm.gz")).standardizedFileURL.path
        print("Next:")
        print("  wayfinder info \(Self.quoted(monacoGraph))                      # the file's sections and figures")
        print("  wayfinder route --graph \(Self.quoted(monacoGraph)) 43.7393,7.4277 43.7312,7.4203   # a route with its steps")
        print("  wayfinder nearby --graph \(Self.quoted(monacoGraph)) --from \"Port Hercule\" --category restaurant --mode foot   # places by ETA")
        print("  wayfinder import \(Self.quoted(monacoInput)) -o monaco.wfg      # your own graph file (any OSM extract, XML or PBF)")
        print("  wayfinder serve --graph \(Self.quoted(monacoGraph))             # the HTTP API and a map page on http://127.0.0.1:5000/")
    }

    /// A path as a shell word: quoted when it holds anything but plain path characters.
    static func quoted(_ path: String) -> String {
        let plain = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+,:@%".contains($0) }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Opens the graph, times the open, and shows a few figures and, for each profile, where the map's centre snaps.
    static func report(_ path: String) throws {
        let opened = Date()
        let map = try CommandMap.open(path)
        let openMicros = Date().timeIntervalSince(opened) * 1e6
        let info = map.info
        print("  graph: \(Format.count(info.nodeCount)) nodes, \(Format.count(info.edgeCount)) edges, file \(Format.bytes(Int64(info.fileBytes))), opened (mmap) in \(Int(openMicros)) µs")
        for figures in map.importStatistics.profiles {
            print("    \(figures.name.padding(toLength: 5, withPad: " ", startingAt: 0)) \(Format.count(figures.nodes)) nodes, \(Format.count(figures.directedEdges)) directed edges, " + String(format: "%.1f km of road", figures.kilometres))
        }
        // Snap the map's centre (where most of its roads are) to the nearest road each profile may use.
        let middle = map.centre
        for (label, type) in [("car", TransportType.automobile), ("foot", .walking)] where map.transportTypes.contains(type) {
            guard let road = (try? map.nearestRoads(to: middle, transportType: type))?.first else { continue }
            let name = road.waypoint.name.isEmpty ? "an unnamed \(road.roadClass)" : road.waypoint.name
            print(String(format: "    %.5f,%.5f snaps for %@ to %@ (way %lld), %.1f m away", middle.latitude, middle.longitude, label, name,
                         road.osmWayID, road.waypoint.snappingDistance))
        }
    }

    /// Routes the sample's example trips and prints a short summary with the first steps.
    static func showTrips(for sample: String, graphPath: String) throws {
        let map = try CommandMap.open(graphPath)
        for (mode, zone, stops) in trips[sample] ?? [] {
            let timeZone = TimeZone(identifier: zone) ?? .current
            let departure = (try? ISO8601.date(from: "2026-12-01T08:30", timeZone: timeZone)) ?? Date()
            let request = DirectionsRequest(stops: stops.map(\.1), transportType: mode, departureDate: departure, timeZone: timeZone)
            let started = Date()
            let response: DirectionsResponse
            do { response = try Directions(request, map: map).calculate() } catch {
                print("    \(mode == .automobile ? "car" : "walk"): \(error)")
                continue
            }
            let milliseconds = Date().timeIntervalSince(started) * 1000
            let route = response.routes[0]
            let label = mode == .automobile ? "By car" : "On foot"
            print("  \(label): \(stops.map(\.0).joined(separator: " → "))")
            print("    \(TextEncoder.formatDistance(route.distance)), \(TextEncoder.formatDuration(route.expectedTravelTime)); " +
                  "depart \(ISO8601.string(response.expectedDepartureDate, in: timeZone)), arrive \(ISO8601.string(response.expectedArrivalDate, in: timeZone)) " +
                  String(format: "(computed in %.1f ms)", milliseconds))
            for (i, leg) in route.legs.enumerated() {
                print("    leg \(i + 1): \(TextEncoder.formatDistance(leg.distance)), \(TextEncoder.formatDuration(leg.expectedTravelTime)), \(leg.steps.count) steps")
            }
            let steps = route.steps
            for step in steps.prefix(5) {
                print("      \(step.instructions) (\(TextEncoder.formatDistance(step.distance)))")
            }
            if steps.count > 5 { print("      … \(steps.count - 5) more steps (`wayfinder route` prints them all)") }
        }
    }

    /// A car matrix between the sample's named places, and the quickest round trip through them.
    static func showMatrixAndTrip(for sample: String, graphPath: String) throws {
        let map = try CommandMap.open(graphPath)
        var places: [ETAPlace] = []
        for (_, _, stops) in trips[sample] ?? [] {
            for (name, c) in stops where !places.contains(where: { $0.name == name }) { places.append(ETAPlace(name: name, coordinate: c)) }
        }
        guard places.count >= 3 else { return }
        let started = Date()
        let response: MatrixResponse
        do { response = try Matrix(MatrixRequest(sources: places, destinations: places), map: map).calculate() } catch {
            print("  matrix: \(error)")
            return
        }
        print(String(format: "  Car matrix, %d × %d places (minutes from each row to each column, same order; computed in %.1f ms over the contraction hierarchy):", places.count, places.count,
                     Date().timeIntervalSince(started) * 1000))
        let width = places.map(\.name.count).max() ?? 0
        for (i, place) in places.enumerated() {
            let cells = (0..<places.count).map { j in response.matrix.duration(i, j).map { String(format: "%5.1f", $0 / 60) } ?? "    –" }
            print("    \(place.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(cells.joined(separator: " "))")
        }
        let tripStarted = Date()
        do {
            let trip = try Trip(TripRequest(stops: places.map(\.coordinate), shape: .roundtrip), map: map).calculate()
            let order = (trip.order + [trip.order[0]]).map { places[$0].name }
            print("  Car round trip in the quickest order: \(order.joined(separator: " → "))")
            var line = "    \(TextEncoder.formatDuration(trip.directions.routes[0].expectedTravelTime)), \(TextEncoder.formatDistance(trip.directions.routes[0].distance))"
            if let given = trip.givenOrderTravelTime, let saving = trip.saving {
                line += "; in the order listed \(TextEncoder.formatDuration(given)), so \(TextEncoder.formatDuration(saving)) saved"
            }
            print(line + String(format: " (computed in %.1f ms)", Date().timeIntervalSince(tripStarted) * 1000))
        } catch {
            print("  trip: \(error)")
        }
    }

    /// Whether the cached graph is newer than its sample, written by this version, with hierarchies.
    static func isFresh(graph: String, source: String) -> Bool {
        let fm = FileManager.default
        guard let g = try? fm.attributesOfItem(atPath: graph), let s = try? fm.attributesOfItem(atPath: source),
              let gDate = g[.modificationDate] as? Date, let sDate = s[.modificationDate] as? Date, gDate >= sDate,
              let info = try? OfflineMap(contentsOf: URL(fileURLWithPath: graph)).info, info.generator == wayfinderLibraryVersion,
              info.profiles.contains(where: { $0.name == "car" && $0.hasHierarchy }) else { return false }
        return true
    }

    static func findDataFolder() throws -> String {
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data").path
        for candidate in ["Data", sourceTree] where FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(samples[0].0)) {
            return candidate
        }
        throw CommandError(message: "cannot find the sample folder Data/; run from the source tree or pass --data DIR", exitCode: ExitCode.badInput)
    }

    static func defaultCacheFolder() -> String {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { return (xdg as NSString).appendingPathComponent("wayfinder") }
        return ((env["HOME"] ?? NSTemporaryDirectory()) as NSString).appendingPathComponent(".cache/wayfinder")
    }
}
