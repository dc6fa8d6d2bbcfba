import Foundation
import Graph
import Server

/// `wayfinder serve`: the HTTP API (OSRM-compatible) and the offline map page over one graph, until SIGINT/SIGTERM.
enum ServeCommand {
    static let usage = """
    usage: wayfinder serve --graph G.wfg [--host 127.0.0.1] [--port 5000] [--threads N]
                           [--max-route-coordinates 500] [--max-table-cells 10000] [--max-trip-coordinates 100]
                           [--time-limit SECONDS] [--quiet]

    An HTTP server speaking OSRM's v1 API and serving an offline map page.

      -g, --graph G                 the graph file (from wayfinder import; with --gtfs for /transit/v1)
      --host ADDR                   IPv4 address to listen on (default 127.0.0.1: loopback only; 0.0.0.0 for every interface)
      --port N                      TCP port (default 5000; 0 picks a free one, printed on standard error)
      --threads N                   worker threads, 1 to 1024 (default: all cores)
      --max-route-coordinates N     most coordinates of a /route or /nearest request (default 500)
      --max-table-cells N           most sources × destinations of a /table request (default 10000)
      --max-trip-coordinates N      most coordinates of a /trip request (default 100)
      --time-limit SECONDS          how long a request may compute before it is answered with a Timeout error (default 10)
      -q, --quiet                   no lines on standard error when stopping (the "serving … on" line is always printed)

    Endpoints: / (the map page), /route/v1, /table/v1, /trip/v1, /nearest/v1 (OSRM's API: driving|car, walking|foot),
    /transit/v1/{lon,lat;lon,lat…}?depart=T|arrive=T[&max_transfers=N][&max_walk=M] (public transit, on a graph
    imported with --gtfs), /roads (the map page's road vectors), /info, /health; see docs/http-api.md.
    SIGINT or SIGTERM stops it after the requests in flight. Exit codes: 0 stopped by a signal, 2 bad usage,
    3 bad graph file, 8 the address could not be listened on (port in use, or a port below 1024 without privileges).
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--graph", "-g", "--host", "--port", "--threads", "--max-route-coordinates",
                                                        "--max-table-cells", "--max-trip-coordinates", "--time-limit"],
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
        func positive(_ name: String) throws -> Int? {
            guard let text = args.value(name) else { return nil }
            guard let n = Int(text), n >= 1 else { throw CommandError.usage("\(name) must be a positive whole number, not '\(text)'") }
            return n
        }
        if let n = try positive("--max-route-coordinates") { limits.maximumRouteCoordinates = n }
        if let n = try positive("--max-table-cells") { limits.maximumTableCells = n }
        if let n = try positive("--max-trip-coordinates") { limits.maximumTripCoordinates = n }
        if let text = args.value("--time-limit") {
            guard let s = Double(text), s > 0, s.isFinite else { throw CommandError.usage("--time-limit must be a positive number of seconds, not '\(text)'") }
            limits.requestTimeLimit = s
        }
        let graph: RoadGraph
        do { graph = try RoadGraph(path: graphPath) } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.badInput) }
        let service: WayfinderService
        do { service = try WayfinderService(graph: graph, limits: limits) } catch {
            throw CommandError(message: error.description, exitCode: ExitCode.badInput)
        }
        let quiet = args.has("--quiet") || args.has("-q")
        // A client that hangs up mid-response must not end the process (libmicrohttpd sends with MSG_NOSIGNAL; belt and braces).
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
