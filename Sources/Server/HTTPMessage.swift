import Wayfinder

/// One HTTP request as the server hands it to a handler: method, decoded path and query arguments in order.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path, percent-decoded, without the query string.
    public var path: String
    /// The query arguments in the order they came, percent-decoded (`?a=1&b` gives ("a","1"), ("b","")).
    public var query: [(name: String, value: String)]

    public init(method: String = "GET", path: String, query: [(name: String, value: String)] = []) {
        self.method = method; self.path = path; self.query = query
    }
}

/// One HTTP response: status, content type, body bytes and any further headers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(name: String, value: String)]

    public init(status: Int = 200, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status; self.contentType = contentType; self.body = body; self.headers = headers
    }

    /// A JSON response.
    public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: value.encoded())
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}

/// Answers requests; called concurrently from the server's worker threads, so it must be thread-safe.
public protocol HTTPHandler: Sendable {
    /// The response to `request`. Must not throw or trap: every failure becomes an error response.
    func respond(to request: HTTPRequest) -> HTTPResponse
}
