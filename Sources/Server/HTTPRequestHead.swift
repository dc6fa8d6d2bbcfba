/// One request head (request line and headers) as parsed off the wire: what the handler gets (method, decoded path
/// and query) and what the connection needs (HTTP/1.x keep-alive, whether a body follows and how long it is).
package struct HTTPRequestHead {
    /// The method, as sent (a token).
    package var method: String
    /// The path, percent-decoded.
    package var path: String
    /// The query's parameters in order, percent-decoded (`+` a space).
    package var query: [(name: String, value: String)]
    /// The `y` of `HTTP/1.y` (0 or 1; later 1.x versions are served as 1.1).
    package var minorVersion: Int
    /// The connection stays open after the response (HTTP/1.1 unless `Connection: close`; 1.0 with `keep-alive`).
    package var keepAlive: Bool
    /// The declared body length (`Content-Length`), 0 without one.
    package var contentLength: Int
    /// A `Transfer-Encoding` was sent: a body of unknown length follows, which this server never reads.
    package var encodedBody: Bool
}

/// A request head refused before any handler runs: the HTTP status and OSRM's error code and message to answer
/// with (the connection is closed after the answer).
package struct HTTPHeadError: Error, Equatable {
    package var status: Int
    package var code: String
    package var message: String
}

/// The limits a request head must keep (from `HTTPServerConfiguration`).
package struct HTTPHeadLimits {
    package var maximumURLBytes: Int
    package var maximumQueryParameters: Int
    package var maximumHeaderBytes: Int
    package var maximumHeaderCount: Int

    /// The limits of `configuration`.
    package init(_ configuration: HTTPServerConfiguration) {
        maximumURLBytes = configuration.maximumURLBytes
        maximumQueryParameters = configuration.maximumQueryParameters
        maximumHeaderBytes = configuration.maximumHeaderBytes
        maximumHeaderCount = configuration.maximumHeaderCount
    }
}

/// Reads HTTP/1.x request heads from a connection's bytes: finds where a head ends, refuses one that grows past the
/// limits before it ends, and parses a complete one (RFC 9112, leniently: bare LF line ends, folded header lines and
/// blank lines before the request line are accepted). The one place the server reads request heads (`package` for
/// the `http-head` fuzz target of Tools/Fuzz).
package enum HTTPHeadParser {
    private static let cr: UInt8 = 13, lf: UInt8 = 10, space: UInt8 = 32, tab: UInt8 = 9, colon: UInt8 = 58

    /// Where the head in `bytes` starts (past blank lines sent before the request line).
    package static func headStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        while i < bytes.count && (bytes[i] == cr || bytes[i] == lf) { i += 1 }
        return i
    }

    /// The index just past the blank line ending the head that starts at `start`, or nil when it has not arrived
    /// yet; `scanned` (a position before which no line end was left unchecked) saves rescanning a trickled head.
    package static func headEnd(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, scanned: inout Int) -> Int? {
        var i = max(start, scanned)
        while i < bytes.count {
            if bytes[i] == lf {
                if i + 1 < bytes.count && bytes[i + 1] == lf { return i + 2 }
                if i + 2 < bytes.count && bytes[i + 1] == cr && bytes[i + 2] == lf { return i + 3 }
                if i + 2 >= bytes.count { scanned = i; return nil }
            }
            i += 1
        }
        scanned = bytes.count
        return nil
    }

    /// Throws when an unfinished head (from `start`) is already over a limit: a request line longer than any
    /// accepted URL (414), or header lines over the header limit (431). Called while waiting for the rest.
    package static func checkUnfinished(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, limits: HTTPHeadLimits) throws(HTTPHeadError) {
        // Room for the method and version around the longest target accepted.
        let lineLimit = limits.maximumURLBytes + 64
        var lineEnd = start
        while lineEnd < bytes.count && bytes[lineEnd] != lf { lineEnd += 1 }
        // The request line, ended or not (a head still arriving after a long line is refused at once too).
        if lineEnd - start > lineLimit { throw urlTooLong(limits, "more than \(lineEnd - start - 64)") }
        if lineEnd == bytes.count { return }
        // A CR at the end may begin the blank line that ends the head, which `parse` does not count.
        let headerBytes = bytes.count - lineEnd - 1 - (bytes[bytes.count - 1] == cr ? 1 : 0)
        if headerBytes > limits.maximumHeaderBytes { throw headersTooLarge(limits, "more than \(headerBytes)") }
    }

    /// Parses the complete head `bytes[start..<end]` (as found by `headEnd`).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, limits: HTTPHeadLimits) throws(HTTPHeadError) -> HTTPRequestHead {
        // A request line as long as `checkUnfinished` refuses is refused whole too (however it is split into words),
        // so the answer does not depend on how the bytes arrived.
        let firstLF = (start..<end).first { bytes[$0] == lf } ?? end
        if firstLF - start > limits.maximumURLBytes + 64 { throw urlTooLong(limits, "more than \(firstLF - start - 64)") }
        var lines: [Range<Int>] = []
        var lineStart = start
        for i in start..<end where bytes[i] == lf {
            var lineEnd = i
            if lineEnd > lineStart && bytes[lineEnd - 1] == cr { lineEnd -= 1 }
            lines.append(lineStart..<lineEnd)
            lineStart = i + 1
        }
        // The last line is the blank one ending the head.
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw malformed("an empty request") }

        // The request line: METHOD SP target SP HTTP/x.y
        let words = split(bytes, requestLine)
        guard words.count == 3 else {
            throw malformed("a malformed request line (expected 'GET /path HTTP/1.1', got \(words.count) word\(words.count == 1 ? "" : "s"))")
        }
        let method = text(bytes, words[0])
        guard words[0].allSatisfy({ isToken(bytes[$0]) }) else { throw malformed("a malformed method") }
        let version = Array(UnsafeBufferPointer(rebasing: bytes[words[2]]))
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), isDigit(version[5]), version[6] == UInt8(ascii: "."),
              isDigit(version[7]) else {
            throw malformed("a malformed HTTP version '\(text(bytes, words[2]).prefix(20))' (expected HTTP/1.1)")
        }
        guard version[5] == UInt8(ascii: "1") else {
            throw HTTPHeadError(status: 505, code: "InvalidUrl", message: "HTTP/\(Character(UnicodeScalar(version[5]))).\(Character(UnicodeScalar(version[7]))) is not supported: send HTTP/1.1 (or 1.0)")
        }
        let minor = Int(version[7] - UInt8(ascii: "0"))
        var target = words[1]
        if target.count > limits.maximumURLBytes { throw urlTooLong(limits, String(target.count)) }
        for i in target where bytes[i] < 0x21 || bytes[i] == 0x7f { throw malformed("a control character in the URL") }
        // Absolute form (`http://host/path`, as sent to proxies): only the path and query count.
        if bytes[target.lowerBound] != UInt8(ascii: "/") {
            let lowered = text(bytes, target).lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { throw malformed("a URL that does not start with '/'") }
            let afterScheme = target.lowerBound + (lowered.hasPrefix("http://") ? 7 : 8)
            let pathStart = (afterScheme..<target.upperBound).first {
                bytes[$0] == UInt8(ascii: "/") || bytes[$0] == UInt8(ascii: "?") || bytes[$0] == UInt8(ascii: "#")
            } ?? target.upperBound
            target = pathStart..<target.upperBound
        }

        // Header lines: name ":" value, a line starting with white space continuing the previous one.
        var keepAlive = minor >= 1, contentLength: Int? = nil, encodedBody = false
        var headerBytes = 0, headerCount = 0
        var current: (name: String, value: String)? = nil
        func finish(_ header: (name: String, value: String)?) throws(HTTPHeadError) {
            guard let header else { return }
            switch header.name.lowercased() {
            case "connection":
                for option in header.value.lowercased().split(separator: ",") {
                    let trimmed = option.trimmingWhitespace()
                    if trimmed == "close" { keepAlive = false } else if trimmed == "keep-alive" { keepAlive = true }
                }
            case "content-length":
                let value = header.value.trimmingWhitespace()
                guard !value.isEmpty, value.utf8.allSatisfy(isDigit) else { throw malformed("a Content-Length that is not a number") }
                // Past any limit when it does not fit.
                let length = Int(value) ?? Int.max
                if let contentLength, contentLength != length { throw malformed("two different Content-Length headers") }
                contentLength = length
            case "transfer-encoding": encodedBody = true
            default: break
            }
        }
        for line in lines.dropFirst() {
            headerBytes += line.count + 2
            if headerBytes > limits.maximumHeaderBytes { throw headersTooLarge(limits, "more than \(headerBytes)") }
            if bytes[line.lowerBound] == space || bytes[line.lowerBound] == tab {
                guard current != nil else { throw malformed("a header line starting with white space before any header") }
                current!.value += " " + text(bytes, line).trimmingWhitespace()
                continue
            }
            try finish(current)
            headerCount += 1
            if headerCount > limits.maximumHeaderCount {
                throw HTTPHeadError(status: 431, code: "TooBig", message: "at most \(limits.maximumHeaderCount) header lines are accepted")
            }
            guard let colonAt = line.first(where: { bytes[$0] == colon }) else { throw malformed("a header line without a colon") }
            guard colonAt > line.lowerBound, (line.lowerBound..<colonAt).allSatisfy({ isToken(bytes[$0]) }) else {
                throw malformed("a malformed header name")
            }
            current = (text(bytes, line.lowerBound..<colonAt), text(bytes, colonAt + 1..<line.upperBound).trimmingWhitespace())
        }
        try finish(current)

        // The target: path, then the query's parameters (percent-decoded; `+` is a space in the query).
        let fragment = target.first { bytes[$0] == UInt8(ascii: "#") } ?? target.upperBound
        target = target.lowerBound..<fragment
        let mark = target.first { bytes[$0] == UInt8(ascii: "?") }
        // An absolute URL with an empty path (`http://host`, `http://host?x`) asks for `/` (RFC 9112 §3.2.2).
        let rooted = !target.isEmpty && bytes[target.lowerBound] == UInt8(ascii: "/")
        let path = (rooted ? "" : "/") + decoded(bytes, target.lowerBound..<(mark ?? target.upperBound), plusIsSpace: false)
        var query: [(name: String, value: String)] = []
        if let mark {
            let queryRange = mark + 1..<target.upperBound
            let parameters = 1 + queryRange.count { bytes[$0] == UInt8(ascii: "&") }
            if parameters > limits.maximumQueryParameters {
                throw HTTPHeadError(status: 400, code: "TooBig", message: "at most \(limits.maximumQueryParameters) query parameters are accepted, got \(parameters)")
            }
            var itemStart = queryRange.lowerBound
            for i in queryRange.lowerBound...queryRange.upperBound where i == queryRange.upperBound || bytes[i] == UInt8(ascii: "&") {
                let item = itemStart..<i
                itemStart = i + 1
                if item.isEmpty { continue }
                let equals = item.first { bytes[$0] == UInt8(ascii: "=") }
                let name = decoded(bytes, item.lowerBound..<(equals ?? item.upperBound), plusIsSpace: true)
                let value = equals.map { decoded(bytes, $0 + 1..<item.upperBound, plusIsSpace: true) } ?? ""
                query.append((name, value))
            }
        }
        return HTTPRequestHead(method: method, path: path, query: query, minorVersion: min(minor, 1), keepAlive: keepAlive, contentLength: contentLength ?? 0,
                               encodedBody: encodedBody)
    }

    private static func malformed(_ what: String) -> HTTPHeadError {
        HTTPHeadError(status: 400, code: "InvalidUrl", message: "malformed request: \(what)")
    }

    private static func urlTooLong(_ limits: HTTPHeadLimits, _ size: String) -> HTTPHeadError {
        HTTPHeadError(status: 414, code: "TooBig", message: "URLs over \(limits.maximumURLBytes) bytes are refused (this one has \(size))")
    }

    private static func headersTooLarge(_ limits: HTTPHeadLimits, _ size: String) -> HTTPHeadError {
        HTTPHeadError(status: 431, code: "TooBig", message: "request headers over \(limits.maximumHeaderBytes) bytes are refused (these have \(size))")
    }

    /// The words of `line`, split at spaces.
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var wordStart: Int? = nil
        for i in line.lowerBound...line.upperBound {
            let isSpace = i == line.upperBound || bytes[i] == space || bytes[i] == tab
            if isSpace, let s = wordStart { words.append(s..<i); wordStart = nil } else if !isSpace && wordStart == nil { wordStart = i }
        }
        return words
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// `bytes[range]` percent-decoded (a `%` not followed by two hex digits stays as it is).
    static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool) -> String {
        if !range.contains(where: { bytes[$0] == UInt8(ascii: "%") || (plusIsSpace && bytes[$0] == UInt8(ascii: "+")) }) {
            return text(bytes, range)
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), i + 2 < range.upperBound,
               let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
                out.append(high << 4 | low); i += 3; continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? space : byte)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A character of an HTTP token (method, header name): visible ASCII except separators.
    private static func isToken(_ byte: UInt8) -> Bool {
        guard byte > 0x20 && byte < 0x7f else { return false }
        return !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
    }
}

private extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
