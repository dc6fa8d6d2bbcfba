/// One client connection as a worker holds it: the bytes read and not yet used, the response being written, and
/// where it stands between requests.
final class HTTPConnection {
    /// Where the connection stands.
    enum Phase {
        /// Waiting for (the rest of) a request head.
        case reading
        /// Reading past the body of a GET (which nothing reads) before answering it.
        case discarding(remaining: Int, head: HTTPRequestHead)
        /// A response is being written (nothing is read meanwhile).
        case writing
        /// The last response went out and the sending side is shut: reading what the client still sends until it closes,
        /// so that closing never resets a connection whose answer the client has not read yet.
        case lingering
    }

    let socket: Int32
    /// The client's IPv4 address (network order), for the per-address count.
    let address: UInt32
    var phase: Phase = .reading
    /// Bytes read and not yet parsed (a request head arriving, or requests sent ahead of their answers).
    var input: [UInt8] = []
    /// How far `input` was searched for the end of a head.
    var scanned = 0
    /// The response being written, and how much of it has gone out.
    var output: [UInt8] = []
    var written = 0
    /// Whether the connection waits for another request after this response (else it lingers, then closes).
    var keepAlive = true
    /// The client closed its sending side: answer what it sent, then close.
    var peerClosed = false
    /// When the connection opened, its last response went out or its last write made progress (monotonic nanoseconds).
    var since: UInt64
    /// The epoll events asked for now.
    var interest: UInt32 = 0

    init(socket: Int32, address: UInt32, now: UInt64) {
        self.socket = socket; self.address = address; since = now
    }

    /// Puts `response` in the output: the status line, the headers (and `Connection: close` when the connection will
    /// close after it), then the body unless `headOnly` (a HEAD request).
    func queue(_ response: HTTPResponse, keepAlive: Bool, minorVersion: Int, headOnly: Bool) {
        self.keepAlive = keepAlive
        output.removeAll(keepingCapacity: true)
        written = 0
        output.reserveCapacity(256 + response.body.count)
        append("HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\nContent-Type: \(response.contentType)\r\n")
        append("Content-Length: \(response.body.count)\r\nAccess-Control-Allow-Origin: *\r\n")
        for header in response.headers { append("\(header.name): \(header.value)\r\n") }
        if !keepAlive { append("Connection: close\r\n") } else if minorVersion == 0 { append("Connection: keep-alive\r\n") }
        append("\r\n")
        if !headOnly { output.append(contentsOf: response.body) }
        phase = .writing
    }

    private func append(_ text: String) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    /// The reason phrase of `status`.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
