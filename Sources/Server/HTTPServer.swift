import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on GNU libmicrohttpd in thread-pool mode: each worker thread polls its connections (epoll)
/// and calls the handler. Stops gracefully: stops accepting, lets requests in flight finish, then closes.
///
/// Hostile clients: at most `maximumConnections` connections (`maximumConnectionsPerAddress` from one address);
/// a connection idle for `connectionTimeout` seconds is closed by libmicrohttpd, and one that takes longer than that
/// to send a request's line and headers (a slow client trickling bytes, which libmicrohttpd's idle timer never sees
/// as idle) is shut down by a watchdog — after one second when nearly all connections are taken. Oversize URLs, too many query parameters and oversize headers get OSRM's
/// JSON errors from the handler; only requests libmicrohttpd refuses before any callback (a malformed request line,
/// an HTTP version other than 1.x, a request line and headers that overflow the connection's memory) get its own
/// short HTML replies (docs/http-api.md lists them).
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    /// The port listened on (the one picked when the configuration asked for 0).
    public private(set) var port: UInt16 = 0
    /// The connection limit in force: the configured one, lowered when the open-files limit cannot be raised to fit.
    public let connectionLimit: Int
    private var daemon: OpaquePointer?
    private var listenSocket: Int32 = -1
    private let context: ServerContext

    /// Starts listening; requests go to `handler` from the worker threads.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(HTTPServerError) {
        self.configuration = configuration
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = configuration.port.bigEndian
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .invalidHost(configuration.host) }
        // Each connection holds a socket; the rest of the process (graph file, listen socket, epoll) needs a few more.
        let reserve = 64 + 2 * configuration.threads
        let openFiles = Int(wayfinder_raise_open_files(UInt(max(1, configuration.maximumConnections) + reserve)))
        connectionLimit = max(1, min(configuration.maximumConnections, openFiles - reserve))
        context = ServerContext(handler: handler, configuration: configuration)

        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        // The connection's memory pool holds the request line and headers as read, libmicrohttpd's record of each
        // query parameter and header, and the response headers: room for the largest request the limits accept.
        let memory = configuration.maximumURLBytes + configuration.maximumHeaderBytes + 64 * 1024
        let started = wayfinder_mhd_start(flags, configuration.port, &address, handleRequest, contextPointer,
                                          UInt32(max(1, configuration.threads)), memory, UInt32(max(1, configuration.connectionTimeout)),
                                          UInt32(connectionLimit), UInt32(max(0, configuration.maximumConnectionsPerAddress)),
                                          requestCompleted, connectionChanged, logURI)
        guard let started else { throw .cannotListen(host: configuration.host, port: configuration.port) }
        daemon = started
        port = wayfinder_mhd_bound_port(started)
        context.watch.start(timeout: Double(max(1, configuration.connectionTimeout)), limit: connectionLimit)
    }

    /// Requests answered so far and requests being answered now.
    public var requestCounts: (answered: Int, inFlight: Int) { context.counts }

    /// Connections open now, and how many the watchdog has shut down for sending a request too slowly.
    public var connectionCounts: (open: Int, cutOff: Int) { context.watch.counts }

    /// Stops accepting connections, waits (up to the configured grace) for requests in flight to finish and
    /// their responses to be sent, then shuts the daemon down. Safe to call more than once.
    public func stop() {
        guard let daemon else { return }
        context.beginShutdown()
        listenSocket = Int32(MHD_quiesce_daemon(daemon))
        let deadline = Date().addingTimeInterval(configuration.shutdownGrace)
        while context.counts.inFlight > 0 && Date() < deadline { usleep(10_000) }
        // Responses already queued are still being written: give open connections a moment to drain.
        let drain = Date().addingTimeInterval(1)
        while wayfinder_mhd_current_connections(daemon) > 0 && Date() < drain { usleep(10_000) }
        context.watch.stop()
        MHD_stop_daemon(daemon)
        if listenSocket >= 0 { close(listenSocket) }
        self.daemon = nil
    }

    deinit { stop() }
}

/// The open connections and when each started waiting for its current request; a watchdog thread shuts down those
/// that have waited longer than the timeout without the request arriving in full (slow clients). The sockets are
/// only shut down (never closed) while libmicrohttpd still holds them, under the lock its close notification takes,
/// so a socket number reused for a new connection is never touched; libmicrohttpd then sees the end and closes it.
final class ConnectionWatch: @unchecked Sendable {
    private struct Entry {
        var socket: Int32
        /// When the connection opened or its previous response was sent (monotonic nanoseconds).
        var since: UInt64
        /// A request is being answered (or the connection was already shut down): not waiting.
        var busy: Bool
    }
    private let lock = NSLock()
    private var open: [UInt: Entry] = [:]
    private var cut = 0
    private var running = false
    private var timeout: UInt64 = 10_000_000_000

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    var counts: (open: Int, cutOff: Int) { lock.lock(); defer { lock.unlock() }; return (open.count, cut) }

    func opened(_ connection: OpaquePointer) {
        let socket = wayfinder_mhd_connection_fd(connection)
        lock.lock(); open[Self.key(connection)] = Entry(socket: socket, since: Self.now(), busy: socket < 0); lock.unlock()
    }

    func closed(_ connection: OpaquePointer) { lock.lock(); open[Self.key(connection)] = nil; lock.unlock() }

    /// A request arrived in full: the connection is busy until its response has gone out.
    func arrived(_ connection: OpaquePointer) { lock.lock(); open[Self.key(connection)]?.busy = true; lock.unlock() }

    /// A response went out (or the request ended): the connection waits for its next request from now on.
    func finished(_ connection: OpaquePointer) {
        lock.lock()
        if open[Self.key(connection)] != nil { open[Self.key(connection)]!.busy = false; open[Self.key(connection)]!.since = Self.now() }
        lock.unlock()
    }

    /// Starts the watchdog. Near the connection `limit` (nine in ten open) the clients waited for get a second at
    /// most instead of the timeout: slow ones then filling every slot cannot keep the listen queue waiting long.
    func start(timeout seconds: Double, limit: Int) {
        lock.lock(); timeout = UInt64(seconds * 1e9); running = true; lock.unlock()
        let crowded = max(1, limit * 9 / 10)
        let thread = Thread { [self] in
            while true {
                usleep(100_000)
                lock.lock()
                if !running { lock.unlock(); return }
                let now = Self.now()
                let patience = open.count >= crowded ? min(timeout, 1_000_000_000) : timeout
                for (key, entry) in open where !entry.busy && now &- entry.since > patience {
                    shutdown(entry.socket, Int32(SHUT_RDWR))
                    open[key]!.busy = true
                    cut += 1
                }
                lock.unlock()
            }
        }
        thread.name = "wayfinder-connection-watch"
        thread.start()
    }

    func stop() { lock.lock(); running = false; lock.unlock() }
}

/// libmicrohttpd's connection notification: a connection opened or closed (closed before its socket is).
private func connectionChanged(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                               _ code: MHD_ConnectionNotificationCode) {
    guard let cls, let connection else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if code.rawValue == 0 /* MHD_CONNECTION_NOTIFY_STARTED */ { context.watch.opened(connection) } else { context.watch.closed(connection) }
}

/// libmicrohttpd's request-completed notification: the response went out or the request was abandoned.
private func requestCompleted(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                              _ code: MHD_RequestTerminationCode) {
    guard let cls, let connection else { return }
    Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().watch.finished(connection)
}

/// The request target as sent (before libmicrohttpd splits and decodes it): its length in bytes and the number of
/// its query parameters, packed into the request's state pointer (odd: the access handler has not run yet).
struct RequestTarget {
    var bytes: Int
    var parameters: Int

    var packed: UInt { 1 | UInt(min(bytes, 1 << 30)) << 1 | UInt(min(parameters, 1 << 30)) << 32 }
    init(bytes: Int, parameters: Int) { self.bytes = bytes; self.parameters = parameters }
    init?(packed: UInt) {
        guard packed & 1 == 1 else { return nil }
        bytes = Int((packed >> 1) & 0x7fff_ffff); parameters = Int(packed >> 32)
    }
}

/// libmicrohttpd's URI log callback, called with the request target as sent, before it parses the query: measures
/// the target and counts its parameters. Over the parameter limit, the query's `&` become `_` so that libmicrohttpd
/// sees one parameter: it stores each parameter in the connection's fixed memory pool, and 0.9.75, when the pool
/// runs out there, neither answers nor closes (the client waits for the idle timeout). The request is refused
/// with 400 anyway, so nothing reads that parameter.
private func logURI(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let cls, let uri else { return nil }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let length = strlen(uri)
    var parameters = 0
    if let mark = strchr(uri, Int32(UInt8(ascii: "?"))) {
        let query = UnsafeMutablePointer(mutating: mark + 1), count = length - uri.distance(to: mark + 1)
        parameters = 1
        for i in 0..<count where query[i] == CChar(UInt8(ascii: "&")) { parameters += 1 }
        if parameters > context.configuration.maximumQueryParameters {
            // The target lies in libmicrohttpd's own read buffer, which it is about to split in place.
            for i in 0..<count where query[i] == CChar(UInt8(ascii: "&")) { query[i] = CChar(UInt8(ascii: "_")) }
        }
    }
    return UnsafeMutableRawPointer(bitPattern: RequestTarget(bytes: length, parameters: parameters).packed)
}

/// What the C callbacks reach through their closure pointer: the handler, the limits and the counters.
final class ServerContext: @unchecked Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration
    let watch = ConnectionWatch()
    private let lock = NSLock()
    private var answered = 0
    private var inFlight = 0
    private var shuttingDown = false

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler; self.configuration = configuration
    }

    var counts: (answered: Int, inFlight: Int) { lock.lock(); defer { lock.unlock() }; return (answered, inFlight) }
    var isShuttingDown: Bool { lock.lock(); defer { lock.unlock() }; return shuttingDown }
    func beginShutdown() { lock.lock(); shuttingDown = true; lock.unlock() }
    func enter() { lock.lock(); inFlight += 1; lock.unlock() }
    func leave() { lock.lock(); inFlight -= 1; answered += 1; lock.unlock() }
}

/// Collects a request's query arguments, or measures its headers (the C iterators' closure).
private final class ArgumentCollector {
    var items: [(name: String, value: String)] = []
    var bytes = 0
}

/// libmicrohttpd's iterator over query arguments: appends each to the `ArgumentCollector` behind `cls`.
private func collectArgument(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                             _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls, let key else { return MHD_Result.YES }
    let collector = Unmanaged<ArgumentCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key), text = value.map { String(cString: $0) } ?? ""
    collector.items.append((name, text))
    collector.bytes += name.utf8.count + text.utf8.count + 2
    return MHD_Result.YES
}

/// libmicrohttpd's iterator over headers: adds each one's size to the `ArgumentCollector` behind `cls`.
private func measureHeader(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                           _ value: UnsafePointer<CChar>?) -> MHD_Result {
    guard let cls else { return MHD_Result.YES }
    let collector = Unmanaged<ArgumentCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.bytes += (key.map { strlen($0) } ?? 0) + (value.map { strlen($0) } ?? 0) + 4
    return MHD_Result.YES
}

/// libmicrohttpd's access handler, called on a worker thread for each request (several times when it has a body).
/// Plain C-convention function outside any actor: worker threads may call it at any time.
private func handleRequest(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
                           _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                           _ uploadDataSize: UnsafeMutablePointer<Int>?,
                           _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let requestState else { return MHD_Result.NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let configuration = context.configuration
    let methodName = method.map { String(cString: $0) } ?? "GET"
    let hasBody = methodName != "GET" && methodName != "HEAD"

    // The request's state lives in the pointer itself: odd (or 0) before the first call (the target's measures, from
    // `logURI`), then 2 × (1 + body bytes seen), or `responded` once answered.
    let responded = UInt.max - 1
    let state = UInt(bitPattern: requestState.pointee)
    func refuse(_ status: Int, _ code: String, _ message: String) -> MHD_Result {
        requestState.pointee = UnsafeMutableRawPointer(bitPattern: responded)
        return send(errorResponse(status: status, code: code, message: message), on: connection, context: context)
    }
    if state == 0 || state & 1 == 1 {
        context.watch.arrived(connection)
        requestState.pointee = UnsafeMutableRawPointer(bitPattern: 2)
        // The limits on the request itself, before anything else: the target as sent, its parameters, the headers.
        let target = RequestTarget(packed: state)
        if let target, target.bytes > configuration.maximumURLBytes {
            return refuse(414, "TooBig", "URLs over \(configuration.maximumURLBytes) bytes are refused (this one has \(target.bytes))")
        }
        if let target, target.parameters > configuration.maximumQueryParameters {
            return refuse(400, "TooBig", "at most \(configuration.maximumQueryParameters) query parameters are accepted, got \(target.parameters)")
        }
        let headers = ArgumentCollector()
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, measureHeader, Unmanaged.passUnretained(headers).toOpaque())
        if headers.bytes > configuration.maximumHeaderBytes {
            return refuse(431, "TooBig", "request headers over \(configuration.maximumHeaderBytes) bytes are refused (these have \(headers.bytes))")
        }
        if hasBody {
            // A declared length over the limit is refused before the body is read (a client that sent
            // `Expect: 100-continue` then never sends it); otherwise wait for the body, counting its bytes.
            if let header = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length"),
               let length = Int(String(cString: header)), length > configuration.maximumBodyBytes {
                return refuse(413, "TooBig", "request bodies over \(configuration.maximumBodyBytes) bytes are refused")
            }
            return MHD_Result.YES
        }
    } else if hasBody {
        let size = uploadDataSize?.pointee ?? 0
        if state == responded { uploadDataSize?.pointee = 0; return MHD_Result.YES }
        if size > 0 {
            uploadDataSize?.pointee = 0
            let seen = Int(state >> 1) - 1 + size
            if seen > configuration.maximumBodyBytes {
                return refuse(413, "TooBig", "request bodies over \(configuration.maximumBodyBytes) bytes are refused")
            }
            requestState.pointee = UnsafeMutableRawPointer(bitPattern: UInt(seen + 1) << 1)
            return MHD_Result.YES
        }
        return refuse(405, "InvalidUrl", "only GET and HEAD requests are served")
    } else {
        return MHD_Result.YES
    }

    context.enter()
    defer { context.leave() }
    let collector = ArgumentCollector()
    _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectArgument, Unmanaged.passUnretained(collector).toOpaque())
    let path = url.map { String(cString: $0) } ?? "/"
    let response: HTTPResponse
    if path.utf8.count + collector.bytes > configuration.maximumURLBytes {
        response = errorResponse(status: 414, code: "TooBig", message: "URLs over \(configuration.maximumURLBytes) bytes are refused")
    } else {
        response = context.handler.respond(to: HTTPRequest(method: methodName, path: path, query: collector.items))
    }
    requestState.pointee = UnsafeMutableRawPointer(bitPattern: responded)
    return send(response, on: connection, context: context)
}

/// An OSRM-shaped error body for failures found before the handler runs.
private func errorResponse(status: Int, code: String, message: String) -> HTTPResponse {
    .json(.object([("code", .string(code)), ("message", .string(message))]), status: status)
}

/// Queues `response` on `connection` (the body is copied).
private func send(_ response: HTTPResponse, on connection: OpaquePointer, context: ServerContext) -> MHD_Result {
    let made: OpaquePointer? = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                        MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let made else { return MHD_Result.NO }
    defer { MHD_destroy_response(made) }
    _ = MHD_add_response_header(made, "Content-Type", response.contentType)
    _ = MHD_add_response_header(made, "Access-Control-Allow-Origin", "*")
    for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
    if context.isShuttingDown { _ = MHD_add_response_header(made, "Connection", "close") }
    return MHD_queue_response(connection, UInt32(response.status), made)
}
