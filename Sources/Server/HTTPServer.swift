import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on GNU libmicrohttpd in thread-pool mode: each worker thread polls its connections (epoll)
/// and calls the handler. Stops gracefully: stops accepting, lets requests in flight finish, then closes.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    /// The port listened on (the one picked when the configuration asked for 0).
    public private(set) var port: UInt16 = 0
    private var daemon: OpaquePointer?
    private var listenSocket: Int32 = -1
    private let context: ServerContext

    /// Starts listening; requests go to `handler` from the worker threads.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(HTTPServerError) {
        self.configuration = configuration
        context = ServerContext(handler: handler, configuration: configuration)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = configuration.port.bigEndian
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .invalidHost(configuration.host) }

        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        let started: OpaquePointer? = withUnsafeMutablePointer(to: &address) { addressPointer in
            var options: [CVarArg] = [
                MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(configuration.connectionTimeout),
                MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, Int(configuration.maximumURLBytes + 32 * 1024),
                MHD_OPTION.SOCK_ADDR.rawValue, OpaquePointer(addressPointer),
            ]
            if configuration.threads > 1 { options += [MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(configuration.threads)] }
            options.append(MHD_OPTION.END.rawValue)
            return withVaList(options) { list in
                MHD_start_daemon_va(flags, configuration.port, nil, nil, handleRequest, contextPointer, list)
            }
        }
        guard let started else { throw .cannotListen(host: configuration.host, port: configuration.port) }
        daemon = started
        port = wayfinder_mhd_bound_port(started)
    }

    /// Requests answered so far and requests being answered now.
    public var requestCounts: (answered: Int, inFlight: Int) { context.counts }

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
        MHD_stop_daemon(daemon)
        if listenSocket >= 0 { close(listenSocket) }
        self.daemon = nil
    }

    deinit { stop() }
}

/// What the C callbacks reach through their closure pointer: the handler, the limits and the counters.
final class ServerContext: @unchecked Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration
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

/// Collects a request's query arguments (the C iterator's closure).
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

/// libmicrohttpd's access handler, called on a worker thread for each request (several times when it has a body).
/// Plain C-convention function outside any actor: worker threads may call it at any time.
private func handleRequest(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
                           _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                           _ uploadDataSize: UnsafeMutablePointer<Int>?,
                           _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let requestState else { return MHD_Result.NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let methodName = method.map { String(cString: $0) } ?? "GET"
    let hasBody = methodName != "GET" && methodName != "HEAD"

    // The request's state lives in the pointer itself: 1 + body bytes seen, or `responded` once answered.
    let responded = UInt.max
    let state = UInt(bitPattern: requestState.pointee)
    if state == 0 {
        requestState.pointee = UnsafeMutableRawPointer(bitPattern: 1)
        if hasBody {
            // A declared length over the limit is refused before the body is read (a client that sent
            // `Expect: 100-continue` then never sends it); otherwise wait for the body, counting its bytes.
            if let header = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length"),
               let length = Int(String(cString: header)), length > context.configuration.maximumBodyBytes {
                requestState.pointee = UnsafeMutableRawPointer(bitPattern: responded)
                return send(errorResponse(status: 413, code: "TooBig",
                                          message: "request bodies over \(context.configuration.maximumBodyBytes) bytes are refused"),
                            on: connection, context: context)
            }
            return MHD_Result.YES
        }
    } else if hasBody {
        let size = uploadDataSize?.pointee ?? 0
        if state == responded { uploadDataSize?.pointee = 0; return MHD_Result.YES }
        if size > 0 {
            uploadDataSize?.pointee = 0
            let seen = Int(state - 1) + size
            if seen > context.configuration.maximumBodyBytes {
                requestState.pointee = UnsafeMutableRawPointer(bitPattern: responded)
                return send(errorResponse(status: 413, code: "TooBig",
                                          message: "request bodies over \(context.configuration.maximumBodyBytes) bytes are refused"),
                            on: connection, context: context)
            }
            requestState.pointee = UnsafeMutableRawPointer(bitPattern: UInt(seen + 1))
            return MHD_Result.YES
        }
        requestState.pointee = UnsafeMutableRawPointer(bitPattern: responded)
        return send(errorResponse(status: 405, code: "InvalidUrl", message: "only GET and HEAD requests are served"),
                    on: connection, context: context)
    } else {
        return MHD_Result.YES
    }

    context.enter()
    defer { context.leave() }
    let collector = ArgumentCollector()
    _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectArgument, Unmanaged.passUnretained(collector).toOpaque())
    let path = url.map { String(cString: $0) } ?? "/"
    let response: HTTPResponse
    if path.utf8.count + collector.bytes > context.configuration.maximumURLBytes {
        response = errorResponse(status: 414, code: "TooBig", message: "URLs over \(context.configuration.maximumURLBytes) bytes are refused")
    } else {
        response = context.handler.respond(to: HTTPRequest(method: methodName, path: path, query: collector.items))
    }
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
