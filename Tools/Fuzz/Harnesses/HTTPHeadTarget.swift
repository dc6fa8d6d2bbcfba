import Server

// The `http-head` target: the server's request-head parser (`HTTPHeadParser`) driven as a connection drives it,
// over the whole input at once and over the input in two pieces, with invariants a correct parser always keeps.

extension FuzzTarget {
    /// Limits small enough for inputs of a few KiB to reach every refusal (414, 431, too many parameters).
    static let httpHeadLimits: HTTPHeadLimits = {
        var configuration = HTTPServerConfiguration()
        configuration.maximumURLBytes = 256
        configuration.maximumQueryParameters = 8
        configuration.maximumHeaderBytes = 512
        configuration.maximumHeaderCount = 8
        return HTTPHeadLimits(configuration)
    }()

    /// The statuses a head can be refused with before any handler runs (docs/http-api.md, "request | status | code").
    static let httpHeadStatuses: Set<Int> = [400, 414, 431, 505]

    /// What a connection made of its bytes: the heads parsed in order, then the refusal that closed it, if any
    /// (and whether that refusal came from a head still arriving).
    struct HeadOutcome: Equatable {
        var heads: [String] = []
        var refusal: HTTPHeadError? = nil
        var refusedUnfinished = false
    }

    /// The first byte says where to cut the rest in two; the rest is a connection's stream of bytes.
    static func httpHead(_ data: UnsafeRawBufferPointer) {
        guard let first = data.first else { return }
        let stream = Array(data.dropFirst())
        let cut = Int(first) * stream.count / 255
        let whole = readHeads([stream[...]])
        let pieces = readHeads([stream[..<cut], stream[cut...]])
        // The same bytes make the same requests however they arrive; a refusal happens at the same request, and has
        // the same status unless it came from a head still arriving (whose whole form may fail an earlier check).
        precondition(whole.heads == pieces.heads, "the heads parsed depend on where the bytes were cut")
        precondition((whole.refusal == nil) == (pieces.refusal == nil), "a refusal depends on where the bytes were cut")
        if !whole.refusedUnfinished && !pieces.refusedUnfinished {
            precondition(whole.refusal == pieces.refusal, "the refusal depends on where the bytes were cut")
        }
    }

    /// Feeds `chunks` to the parser one after the other as `ConnectionWorker` does: a head is parsed once it is
    /// complete, an unfinished one is checked against the limits, a body (`Content-Length`) is skipped, and the first
    /// refusal ends the connection. Checks each result against the limits.
    static func readHeads(_ chunks: [ArraySlice<UInt8>]) -> HeadOutcome {
        let limits = httpHeadLimits
        var outcome = HeadOutcome()
        var input: [UInt8] = []
        var scanned = 0
        var bodyLeft = 0
        for chunk in chunks {
            input += chunk
            while true {
                if bodyLeft > 0 {
                    let n = min(bodyLeft, input.count)
                    input.removeFirst(n); bodyLeft -= n; scanned = 0
                    if bodyLeft > 0 { break }
                }
                var result: Result<HTTPRequestHead, HTTPHeadError>? = nil
                var consumed = 0
                var unfinished = false
                input.withUnsafeBufferPointer { bytes in
                    let start = HTTPHeadParser.headStart(bytes)
                    guard start < bytes.count else { consumed = bytes.count; return }
                    guard let end = HTTPHeadParser.headEnd(bytes, start: start, scanned: &scanned) else {
                        precondition(scanned <= bytes.count, "headEnd scanned past the bytes")
                        do throws(HTTPHeadError) { try HTTPHeadParser.checkUnfinished(bytes, start: start, limits: limits) } catch {
                            result = .failure(error); unfinished = true
                        }
                        return
                    }
                    precondition(end > start && end <= bytes.count, "headEnd returned \(end) outside \(start)...\(bytes.count)")
                    consumed = end
                    do throws(HTTPHeadError) { result = .success(try HTTPHeadParser.parse(bytes, start: start, end: end, limits: limits)) } catch {
                        result = .failure(error)
                    }
                }
                if consumed > 0 { input.removeFirst(consumed); scanned = 0 }
                guard let result else { break }
                switch result {
                case let .failure(error):
                    precondition(httpHeadStatuses.contains(error.status), "a head refused with status \(error.status), not documented")
                    precondition(["InvalidUrl", "TooBig"].contains(error.code) && !error.message.isEmpty, "a refusal without its code or message")
                    outcome.refusal = error
                    outcome.refusedUnfinished = unfinished
                    return outcome
                case let .success(head):
                    check(head, limits)
                    outcome.heads.append(describe(head))
                    if head.encodedBody { return outcome }  // a body of unknown length: the server refuses it
                    bodyLeft = head.contentLength
                }
            }
        }
        return outcome
    }

    /// What a parsed head must keep: a token method, a path from `/`, what came from the target within its limits.
    static func check(_ head: HTTPRequestHead, _ limits: HTTPHeadLimits) {
        precondition(!head.method.isEmpty && head.method.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7f },
                     "a method that is not a token: \(head.method.debugDescription)")
        // By bytes: `hasPrefix` compares characters, and a combining mark after the slash makes one character of both.
        precondition(head.path.utf8.first == UInt8(ascii: "/"), "a path not starting with '/': \(head.path.debugDescription)")
        precondition(head.query.count <= limits.maximumQueryParameters, "\(head.query.count) query parameters accepted")
        // Each byte of the target decodes to at most one scalar (an invalid one to U+FFFD).
        let scalars = head.path.unicodeScalars.count + head.query.reduce(0) { $0 + $1.name.unicodeScalars.count + $1.value.unicodeScalars.count }
        precondition(scalars <= limits.maximumURLBytes, "a target of more than \(limits.maximumURLBytes) bytes accepted")
        precondition((0...1).contains(head.minorVersion) && head.contentLength >= 0, "a version or length out of range")
    }

    /// The head as one comparable line.
    static func describe(_ head: HTTPRequestHead) -> String {
        let query = head.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(head.method) \(head.path) ? \(query) 1.\(head.minorVersion) \(head.keepAlive) \(head.contentLength) \(head.encodedBody)"
    }
}
