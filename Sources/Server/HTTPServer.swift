import CEpoll
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP/1.1 server: one thread accepts connections and deals them to `threads` workers, each polling its
/// connections (epoll), reading request heads itself (`HTTPHeadParser`) and calling the handler. Every refusal, down
/// to a malformed request line, is OSRM's JSON. Stops gracefully: stops accepting, lets requests in flight finish,
/// then closes.
///
/// Hostile clients: at most `maximumConnections` connections (`maximumConnectionsPerAddress` from one address; further
/// ones wait in the listen queue, or are closed at once over the per-address limit); a connection that stays idle, or
/// takes longer than `connectionTimeout` seconds to send a request's line and headers (a slow client trickling
/// bytes), is closed — after one second when nearly all connections are taken.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    /// The port listened on (the one picked when the configuration asked for 0).
    public private(set) var port: UInt16 = 0
    /// The connection limit in force: the configured one, lowered when the open-files limit cannot be raised to fit.
    public let connectionLimit: Int
    private let context: ServerContext
    private var listenSocket: Int32 = -1
    private var workers: [ConnectionWorker] = []
    private let acceptorDone = DispatchSemaphore(value: 0)
    private var stopped = false
    private let stopLock = NSLock()

    /// Starts listening; requests go to `handler` from the worker threads.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(HTTPServerError) {
        self.configuration = configuration
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = configuration.port.bigEndian
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .invalidHost(configuration.host) }
        // Each connection holds a socket; the rest of the process (graph file, listen socket, epoll) needs a few more.
        let reserve = 64 + 3 * configuration.threads
        let openFiles = Self.raiseOpenFiles(to: max(1, configuration.maximumConnections) + reserve)
        connectionLimit = max(1, min(configuration.maximumConnections, openFiles - reserve))
        context = ServerContext(handler: handler, configuration: configuration, connectionLimit: connectionLimit)

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(host: configuration.host, port: configuration.port) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1024) == 0 else { close(fd); throw .cannotListen(host: configuration.host, port: configuration.port) }
        var boundAddress = sockaddr_in(), length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: boundAddress.sin_port)
        listenSocket = fd

        workers = (0..<max(1, configuration.threads)).map { ConnectionWorker(context: context, index: $0) }
        for worker in workers { worker.start() }
        let acceptor = Thread { [context, workers, acceptorDone, fd] in
            Self.accept(from: fd, context: context, workers: workers)
            acceptorDone.signal()
        }
        acceptor.name = "wayfinder-http-accept"
        acceptor.start()
    }

    /// Requests answered so far and requests being answered now.
    public var requestCounts: (answered: Int, inFlight: Int) { context.counts }

    /// Connections open now, and how many were closed for sending a request too slowly.
    public var connectionCounts: (open: Int, cutOff: Int) { context.connectionCounts }

    /// Stops accepting connections, waits (up to the configured grace) for requests in flight to finish and
    /// their responses to be sent, then closes every connection. Safe to call more than once.
    public func stop() {
        stopLock.lock(); defer { stopLock.unlock() }
        // (A server whose init threw never started its threads.)
        guard !stopped, listenSocket >= 0 else { return }
        stopped = true
        context.beginShutdown()
        acceptorDone.wait()
        close(listenSocket)
        let deadline = Date().addingTimeInterval(configuration.shutdownGrace)
        while context.counts.inFlight > 0 && Date() < deadline { usleep(10_000) }
        // Responses already queued are still being written: give open connections a moment to drain.
        for worker in workers { worker.finish(within: 1) }
        for worker in workers { worker.join() }
    }

    deinit { stop() }

    /// The acceptor's loop: takes connections while under the limits and deals them to the workers in turn.
    private static func accept(from listenSocket: Int32, context: ServerContext, workers: [ConnectionWorker]) {
        var next = 0
        var poller = pollfd(fd: listenSocket, events: Int16(POLLIN), revents: 0)
        while !context.isShuttingDown {
            if context.connectionCounts.open >= context.connectionLimit { usleep(2_000); continue }
            guard poll(&poller, 1, 100) > 0 else { continue }
            var address = sockaddr_in(), length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    wayfinder_accept(listenSocket, $0, &length)
                }
            }
            guard fd >= 0 else { continue }
            guard context.opened(address: address.sin_addr.s_addr) else { close(fd); continue }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            workers[next].adopt(fd, address: address.sin_addr.s_addr)
            next = (next + 1) % workers.count
        }
    }

    /// Raises the soft limit on open files towards `wanted` (up to the hard limit); returns the soft limit now.
    private static func raiseOpenFiles(to wanted: Int) -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < rlim_t(wanted) {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == rlim_t.max || rlim_t(wanted) < limit.rlim_max ? rlim_t(wanted) : limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == rlim_t.max ? wanted : Int(clamping: limit.rlim_cur)
    }
}

/// What the acceptor and the workers share: the handler, the limits, the counters and the shutdown flag.
final class ServerContext: @unchecked Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration
    let limits: HTTPHeadLimits
    let connectionLimit: Int
    private let lock = NSLock()
    private var answered = 0
    private var inFlight = 0
    private var open = 0
    private var cut = 0
    private var perAddress: [UInt32: Int] = [:]
    private var shuttingDown = false

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration, connectionLimit: Int) {
        self.handler = handler; self.configuration = configuration; self.connectionLimit = connectionLimit
        limits = HTTPHeadLimits(configuration)
    }

    var counts: (answered: Int, inFlight: Int) { lock.lock(); defer { lock.unlock() }; return (answered, inFlight) }
    var connectionCounts: (open: Int, cutOff: Int) { lock.lock(); defer { lock.unlock() }; return (open, cut) }
    var isShuttingDown: Bool { lock.lock(); defer { lock.unlock() }; return shuttingDown }
    /// Nearly all connections are taken (nine in ten): clients waited for get a second at most.
    var isCrowded: Bool { lock.lock(); defer { lock.unlock() }; return open >= max(1, connectionLimit * 9 / 10) }
    func beginShutdown() { lock.lock(); shuttingDown = true; lock.unlock() }
    func enter() { lock.lock(); inFlight += 1; lock.unlock() }
    func leave() { lock.lock(); inFlight -= 1; answered += 1; lock.unlock() }
    func cutOff() { lock.lock(); cut += 1; lock.unlock() }

    /// Counts a new connection from `address`; false (not counted) when that address has its limit open already.
    func opened(address: UInt32) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let perAddressLimit = configuration.maximumConnectionsPerAddress
        if perAddressLimit > 0 {
            if perAddress[address, default: 0] >= perAddressLimit { return false }
            perAddress[address, default: 0] += 1
        }
        open += 1
        return true
    }

    func closed(address: UInt32) {
        lock.lock(); defer { lock.unlock() }
        open -= 1
        if configuration.maximumConnectionsPerAddress > 0 {
            let left = perAddress[address, default: 1] - 1
            perAddress[address] = left > 0 ? left : nil
        }
    }
}
