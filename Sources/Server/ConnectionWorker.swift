import CEpoll
import Foundation
import Wayfinder
#if canImport(Glibc)
import Glibc
#endif

/// One worker thread of the HTTP server: polls its connections (level-triggered epoll), reads request heads, answers
/// malformed ones with OSRM's JSON, calls the handler for the rest, writes responses, and closes connections that
/// are idle or slow past the timeout.
final class ConnectionWorker: @unchecked Sendable {
    private let context: ServerContext
    private let index: Int
    private let poller: Int32
    /// Written to when connections are handed over or the worker is told to finish (an eventfd).
    private let wake: Int32
    private let lock = NSLock()
    private var handedOver: [(socket: Int32, address: UInt32)] = []
    private var finishBy: UInt64? = nil
    private let done = DispatchSemaphore(value: 0)
    private var connections: [Int32: HTTPConnection] = [:]
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private let timeout: UInt64
    /// How long a closing connection waits for its client to hang up, nanoseconds.
    private static let lingerLimit: UInt64 = 2_000_000_000
    private static let readable = wayfinder_epoll_readable
    private static let writable = wayfinder_epoll_writable

    init(context: ServerContext, index: Int) {
        self.context = context; self.index = index
        poller = wayfinder_epoll_create()
        wake = wayfinder_eventfd()
        timeout = UInt64(max(1, context.configuration.connectionTimeout)) * 1_000_000_000
        wayfinder_epoll_add(poller, wake, wayfinder_epoll_readable)
    }

    func start() {
        let thread = Thread { [self] in run(); done.signal() }
        thread.name = "wayfinder-http-\(index)"
        thread.start()
    }

    /// Hands a new connection (non-blocking socket) to this worker.
    func adopt(_ socket: Int32, address: UInt32) {
        lock.lock(); handedOver.append((socket, address)); lock.unlock()
        signal()
    }

    /// Tells the worker to close its connections as their responses finish, and every one after `seconds`.
    func finish(within seconds: Double) {
        lock.lock(); finishBy = Self.now() + UInt64(seconds * 1e9); lock.unlock()
        signal()
    }

    /// Waits until the worker's thread has ended.
    func join() { done.wait() }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private func run() {
        var sockets = [Int32](repeating: 0, count: 256), events = [UInt32](repeating: 0, count: 256)
        var lastSweep = Self.now()
        while true {
            let count = wayfinder_epoll_wait(poller, &sockets, &events, Int32(sockets.count), 100)
            for i in 0..<max(0, Int(count)) {
                let fd = sockets[i]
                if fd == wake { takeHandedOver(); continue }
                guard let connection = connections[fd] else { continue }
                service(connection, events: events[i])
            }
            let now = Self.now()
            lock.lock(); let deadline = finishBy; lock.unlock()
            if let deadline {
                for connection in Array(connections.values) {
                    if case .reading = connection.phase, connection.input.isEmpty { close(connection) }
                }
                if connections.isEmpty || now >= deadline { break }
            }
            if now &- lastSweep >= 100_000_000 { sweep(now); lastSweep = now }
        }
        for connection in Array(connections.values) { close(connection) }
        Glibc.close(poller)
        Glibc.close(wake)
    }

    private func takeHandedOver() {
        var value: UInt64 = 0
        _ = read(wake, &value, 8)
        lock.lock(); let taken = handedOver; handedOver.removeAll(); lock.unlock()
        let now = Self.now()
        for (socket, address) in taken {
            let connection = HTTPConnection(socket: socket, address: address, now: now)
            connections[socket] = connection
            connection.interest = Self.readable
            wayfinder_epoll_add(poller, socket, Self.readable)
        }
    }

    /// Closes connections past their time: waiting for a request (idle, or trickling one) longer than the timeout
    /// (a second when nearly all connections are taken), a response the client does not read, a linger that lasts.
    private func sweep(_ now: UInt64) {
        let patience = context.isCrowded ? min(timeout, 1_000_000_000) : timeout
        for connection in Array(connections.values) {
            let waited = now &- connection.since
            switch connection.phase {
            case .reading, .discarding:
                if waited > patience {
                    if !connection.input.isEmpty || { if case .discarding = connection.phase { return true }; return false }() { context.cutOff() }
                    close(connection)
                }
            case .writing: if waited > timeout { close(connection) }
            case .lingering: if waited > Self.lingerLimit { close(connection) }
            }
        }
    }

    private func service(_ connection: HTTPConnection, events: UInt32) {
        if case .writing = connection.phase {
            if events & wayfinder_epoll_failed != 0 { close(connection); return }
            flush(connection)
            if connections[connection.socket] === connection, case .reading = connection.phase { process(connection) }
            return
        }
        // Read all there is (level-triggered: what is left is reported again).
        while true {
            let n = scratch.withUnsafeMutableBytes { recv(connection.socket, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                switch connection.phase {
                case .lingering: continue
                case let .discarding(remaining, head):
                    if n < remaining { connection.phase = .discarding(remaining: remaining - n, head: head); continue }
                    connection.input.append(contentsOf: scratch[remaining..<n])
                    connection.phase = .reading
                    serve(head, on: connection)
                    if connections[connection.socket] !== connection { return }
                case .reading, .writing:
                    connection.input.append(contentsOf: scratch[0..<n])
                }
                if n < scratch.count { break }
                continue
            }
            if n == 0 { connection.peerClosed = true; break }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { break }
            close(connection); return
        }
        if case .lingering = connection.phase { if connection.peerClosed { close(connection) }; return }
        process(connection)
    }

    /// Answers the complete requests in the connection's input, one after the other while their answers go out at once;
    /// refuses a head that is malformed or over a limit.
    private func process(_ connection: HTTPConnection) {
        while connections[connection.socket] === connection, case .reading = connection.phase {
            var outcome: Result<HTTPRequestHead, HTTPHeadError>? = nil
            var consumed = 0
            connection.input.withUnsafeBufferPointer { bytes in
                let start = HTTPHeadParser.headStart(bytes)
                guard start < bytes.count else { consumed = bytes.count; return }
                guard let end = HTTPHeadParser.headEnd(bytes, start: start, scanned: &connection.scanned) else {
                    do throws(HTTPHeadError) { try HTTPHeadParser.checkUnfinished(bytes, start: start, limits: context.limits) } catch {
                        outcome = .failure(error)
                    }
                    return
                }
                consumed = end
                do throws(HTTPHeadError) { outcome = .success(try HTTPHeadParser.parse(bytes, start: start, end: end, limits: context.limits)) } catch {
                    outcome = .failure(error)
                }
            }
            if consumed > 0 { connection.input.removeSubrange(0..<consumed); connection.scanned = 0 }
            guard let outcome else {
                // Nothing more to answer: a client that hung up is closed now.
                if connection.peerClosed { close(connection) }
                return
            }
            switch outcome {
            case let .failure(error): refuse(connection, error)
            case let .success(head): accept(head, on: connection)
            }
        }
    }

    /// Checks what follows a parsed head (a body this server never reads, other methods), then serves it.
    private func accept(_ head: HTTPRequestHead, on connection: HTTPConnection) {
        let configuration = context.configuration
        let readsNoBody = head.method == "GET" || head.method == "HEAD"
        if head.contentLength > configuration.maximumBodyBytes {
            return refuse(connection, HTTPHeadError(status: 413, code: "TooBig", message: "request bodies over \(configuration.maximumBodyBytes) bytes are refused"))
        }
        if !readsNoBody {
            return refuse(connection, HTTPHeadError(status: 405, code: "InvalidUrl", message: "only GET and HEAD requests are served"),
                          keepAlive: head.contentLength == 0 && !head.encodedBody && head.keepAlive)
        }
        if head.encodedBody {
            return refuse(connection, HTTPHeadError(status: 400, code: "InvalidUrl", message: "malformed request: a GET with a Transfer-Encoding body"))
        }
        if head.contentLength > 0 {
            if connection.input.count >= head.contentLength {
                connection.input.removeSubrange(0..<head.contentLength)
            } else {
                let remaining = head.contentLength - connection.input.count
                connection.input.removeAll(keepingCapacity: true)
                connection.phase = .discarding(remaining: remaining, head: head)
                return
            }
        }
        serve(head, on: connection)
    }

    /// Runs the handler on `head` and writes its response.
    private func serve(_ head: HTTPRequestHead, on connection: HTTPConnection) {
        context.enter()
        let response = context.handler.respond(to: HTTPRequest(method: head.method, path: head.path, query: head.query))
        context.leave()
        connection.queue(response, keepAlive: head.keepAlive && !connection.peerClosed && !context.isShuttingDown,
                         minorVersion: head.minorVersion, headOnly: head.method == "HEAD")
        flush(connection)
    }

    /// Answers with OSRM's JSON error for `error`; the connection closes after it unless `keepAlive`.
    private func refuse(_ connection: HTTPConnection, _ error: HTTPHeadError, keepAlive: Bool = false) {
        let body = JSONValue.object([("code", .string(error.code)), ("message", .string(error.message))])
        connection.queue(.json(body, status: error.status), keepAlive: keepAlive && !context.isShuttingDown, minorVersion: 1, headOnly: false)
        flush(connection)
    }

    /// Writes what the socket takes of the output; when all is out, waits for the next request or starts closing.
    private func flush(_ connection: HTTPConnection) {
        while connection.written < connection.output.count {
            let n = connection.output.withUnsafeBytes {
                send(connection.socket, $0.baseAddress! + connection.written, $0.count - connection.written, Int32(MSG_NOSIGNAL))
            }
            if n > 0 { connection.written += n; connection.since = Self.now(); continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { watch(connection, Self.writable); return }
            close(connection); return
        }
        connection.output.removeAll(keepingCapacity: connection.output.capacity <= 1 << 20)
        connection.written = 0
        connection.since = Self.now()
        if connection.keepAlive {
            connection.phase = .reading
            watch(connection, Self.readable)
        } else {
            shutdown(connection.socket, Int32(SHUT_WR))
            connection.phase = .lingering
            if connection.peerClosed { close(connection); return }
            watch(connection, Self.readable)
        }
    }

    private func watch(_ connection: HTTPConnection, _ interest: UInt32) {
        guard connection.interest != interest else { return }
        connection.interest = interest
        wayfinder_epoll_modify(poller, connection.socket, interest)
    }

    private func close(_ connection: HTTPConnection) {
        guard connections[connection.socket] === connection else { return }
        connections[connection.socket] = nil
        wayfinder_epoll_remove(poller, connection.socket)
        Glibc.close(connection.socket)
        context.closed(address: connection.address)
    }
}
