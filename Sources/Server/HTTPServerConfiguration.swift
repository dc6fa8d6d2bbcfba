import Foundation

/// Where and how the HTTP server listens, and the limits it puts on connections.
public struct HTTPServerConfiguration: Sendable {
    /// IPv4 address to bind ("127.0.0.1" by default: loopback only; "0.0.0.0" for every interface).
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: UInt16 = 5000
    /// Worker threads, each polling its own connections (epoll) and running handlers (one more thread accepts connections).
    public var threads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Longest request target (path and query, as sent) accepted, bytes; longer ones get 414.
    public var maximumURLBytes: Int = 64 * 1024
    /// Most query parameters of a request (`a=1&b=2` has two); more get 400.
    public var maximumQueryParameters: Int = 100
    /// Largest header section accepted (names and values), bytes; larger ones get 431.
    public var maximumHeaderBytes: Int = 32 * 1024
    /// Most header lines of a request; more get 431.
    public var maximumHeaderCount: Int = 100
    /// Largest request body accepted, bytes; the API reads none, so bodies get 405 and larger ones 413.
    public var maximumBodyBytes: Int = 64 * 1024
    /// Seconds a connection may stay idle (nothing sent or received), or take to send one request's line and
    /// headers (a slow client trickling bytes), before it is closed.
    public var connectionTimeout: Int = 10
    /// Most connections open at once (further clients wait in the listen queue); the open-files limit is raised to fit.
    public var maximumConnections: Int = 4096
    /// Most connections open at once from one IP address (0: no such limit); further ones are refused at once.
    public var maximumConnectionsPerAddress: Int = 0
    /// How long a graceful stop waits for requests in flight to finish, seconds.
    public var shutdownGrace: Double = 30

    /// A configuration with the given address and threads (nil: all cores) and the default limits.
    public init(host: String = "127.0.0.1", port: UInt16 = 5000, threads: Int? = nil) {
        self.host = host; self.port = port
        if let threads { self.threads = max(1, threads) }
    }
}

/// Why the HTTP server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case invalidHost(String)
    case cannotListen(host: String, port: UInt16)

    public var description: String {
        switch self {
        case let .invalidHost(host):
            return "'\(host)' is not an IPv4 address (use 127.0.0.1 for loopback or 0.0.0.0 for every interface)"
        case let .cannotListen(host, port):
            return "cannot listen on \(host):\(port): the port may be in use (try another --port) or need privileges"
        }
    }
}
