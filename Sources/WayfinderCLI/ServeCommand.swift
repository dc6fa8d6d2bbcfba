import Foundation
import Server
import Wayfinder

/// `wayfinder serve`: the HTTP API (OSRM-compatible) and the offline map page over one graph, until SIGINT/SIGTERM.
enum ServeCommand {
    static let usage = """
    usage: wayfinder serve --graph G.wfg [--host 127.0.0.1] [--port 5000] [--threads N]
                           [--max-route-coordinates 500] [--max-table-cells 10000] [--max-trip-coordinates 100]
                           [--time-limit SECONDS] [--idle-timeout SECONDS] [--max-connections N]
                           [--max-connections-per-ip N] [--quiet]

    An HTTP server speaking OSRM's v1 API and serving an offline map page.

      -g, --graph G                 the graph file (from wayfinder import; with --gtfs for /transit/v1)
      --host ADDR                   IPv4 address to listen on (default 127.0.0.1: loopback only; 0.0.0.0 for every interface)
      --port N                      TCP port (default 5000; 0 picks a free one, printed on standard error)
      --threads N                   worker threads, 1 to 1024 (default: all cores)
      --max-route-coordinates N     most coordinates of a /route or /transit request, 1 to 100000 (default 500)
      --max-table-cells N           most sources × destinations of a /table request, 1 to 100000000 (default 10000)
      --max-trip-coordinates N      most coordinates of a /trip request, 1 to 10000 (default 100)
      --time-limit SECONDS          how long a request may compute before it is answered with a Timeout error,
                                    0.001 to 86400 (default 10; every search stops at it from inside)
      --idle-timeout SECONDS        close a connection that is idle this long, or that takes this long to send one
                                    request (slow clients), 1 to 3600 (default 10)
      --max-connections N           most connections open at once, 1 to 1000000 (default 4096; more wait to be accepted)
      --max-connections-per-ip N    most connections open at once from one IP address, 0 to 1000000 (default 0: no limit)
      -q, --quiet                   no lines on standard error when stopping (the "serving … on" line is always printed)

    Endpoints: / (the map page), /route/v1, /table/v1, /trip/v1, /nearest/v1 (OSRM's API: driving|car, walking|foot),
    /transit/v1/{lon,lat;lon,lat…}?depart=T|arrive=T[&max_transfers=N][&max_walk=M] (public transit, on a graph
    imported with --gtfs), /search/v1?q=…&near=lon,lat&category=C&limit=N (places, GeoJSON), /roads (the map page's road vectors), /info, /health; see docs/http-api.md.
    SIGINT or SIGTERM stops it after the requests in flight. Exit codes: 0 stopped by a signal, 2 bad usage,
    3 bad graph file, 8 the address could not be listened on (port in use, or a port below 1024 without privileges).
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--graph", "-g", "--host", "--port", "--threads", "--max-route-coordinates",
                                                        "--max-table-cells", "--max-trip-coordinates", "--time-limit",
                                                        "--idle-timeout", "--max-connections", "--max-connections-per-ip"],
                                    switches: ["--quiet", "-q", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard let graphPath = args.value("--graph") ?? args.value("-g") else { throw CommandError.usage("--graph G.wfg is required\n\n\(usage)") }
        guard args.positionals.isEmpty else { throw CommandError.usage("unexpected argument '\(args.positionals[0])'") }
        var configuration = HTTPServerConfiguration(host: args.value("--host") ?? "127.0.0.1")
        if let p = args.value("--port") {
            guard let port = UInt16(p) else { throw CommandError.usage("--port must be a whole number from 0 to 65535, not '\(p)'") }
            configuration.port = port
        }
        if let t = args.value("--threads") {
            guard let n = Int(t), n >= 1, n <= 1024 else { throw CommandError.usage("--threads must be a whole number from 1 to 1024, not '\(t)'") }
            configuration.threads = n
        }
        var limits = ServiceLimits()
        func whole(_ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = args.value(name) else { return nil }
            guard let n = Int(text), range.contains(n) else {
                throw CommandError.usage("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return n
        }
        func seconds(_ name: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let text = args.value(name) else { return nil }
            guard let s = Double(text), range.contains(s) else {
                let bounds = [range.lowerBound, range.upperBound].map { $0 == $0.rounded() ? String(Int($0)) : String($0) }
                throw CommandError.usage("\(name) must be a number of seconds from \(bounds[0]) to \(bounds[1]), not '\(text)'")
            }
            return s
        }
        if let n = try whole("--max-route-coordinates", 1...100_000) { limits.maximumRouteCoordinates = n }
        if let n = try whole("--max-table-cells", 1...100_000_000) { limits.maximumTableCells = n }
        if let n = try whole("--max-trip-coordinates", 1...10_000) { limits.maximumTripCoordinates = n }
        if let s = try seconds("--time-limit", 0.001...86_400) { limits.requestTimeLimit = s }
        if let s = try seconds("--idle-timeout", 1...3600) { configuration.connectionTimeout = Int(s.rounded(.up)) }
        if let n = try whole("--max-connections", 1...1_000_000) { configuration.maximumConnections = n }
        if let n = try whole("--max-connections-per-ip", 0...1_000_000) { configuration.maximumConnectionsPerAddress = n }
        let map = try CommandMap.open(graphPath)
        let service: WayfinderService
        do { service = try WayfinderService(map: map, limits: limits) } catch {
            throw CommandError(message: error.description, exitCode: ExitCode.badInput)
        }
        let quiet = args.has("--quiet") || args.has("-q")
        // A client that hangs up mid-response must not end the process (the server sends with MSG_NOSIGNAL; belt and braces).
        signal(SIGPIPE, SIG_IGN)
        ShutdownSignals.block()
        let server: HTTPServer
        do { server = try HTTPServer(configuration: configuration, handler: service) } catch {
            if case .invalidHost = error { throw CommandError.usage(error.description) }
            throw CommandError(message: error.description, exitCode: ExitCode.cannotListen)
        }
        // Always printed (also with --quiet): scripts started with --port 0 read the port from this line.
        FileHandle.standardError.write(Data("wayfinder: serving \(graphPath) on http://\(configuration.host):\(server.port)/ with \(configuration.threads) thread\(configuration.threads == 1 ? "" : "s") (profiles \(service.engines.keys.sorted().joined(separator: ", ")))\n".utf8))
        let signal = ShutdownSignals.wait()
        if !quiet { FileHandle.standardError.write(Data("wayfinder: \(signal == SIGTERM ? "SIGTERM" : "SIGINT"): finishing requests in flight\n".utf8)) }
        server.stop()
        if !quiet { FileHandle.standardError.write(Data("wayfinder: stopped after \(server.requestCounts.answered) requests\n".utf8)) }
    }
}
