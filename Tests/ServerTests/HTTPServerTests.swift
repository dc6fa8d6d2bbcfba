import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import XCTest
import Server

/// The HTTP server itself, in process: serving, concurrency, limits and a graceful stop.
final class HTTPServerTests: XCTestCase {
    /// Echoes the request; `/slow` takes half a second.
    struct EchoHandler: HTTPHandler {
        func respond(to request: HTTPRequest) -> HTTPResponse {
            if request.path == "/slow" { usleep(500_000) }
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return .text("\(request.method) \(request.path) \(query)")
        }
    }

    /// GETs (or sends `method` with `body`) and returns status and body text; waits at most 10 s.
    static func fetch(_ url: String, method: String = "GET", body: Data? = nil) -> (status: Int, text: String)? {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Int, String)? = nil
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if let http = response as? HTTPURLResponse { result = (http.statusCode, String(decoding: data ?? Data(), as: UTF8.self)) }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        return result
    }

    func fetch(_ url: String, method: String = "GET", body: Data? = nil) -> (status: Int, text: String)? {
        Self.fetch(url, method: method, body: body)
    }

    func start(_ handler: any HTTPHandler = EchoHandler(), threads: Int = 2,
               _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: threads)
        configuration.shutdownGrace = 5
        configure(&configuration)
        return try HTTPServer(configuration: configuration, handler: handler)
    }

    /// A TCP connection to the server on loopback, or nil when refused.
    static func connect(_ port: UInt16) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 { close(fd); return nil }
        return fd
    }

    /// Sends `request` as is on a new connection and reads until the server closes it (at most `timeout` s):
    /// the status of the first response line (0 when none came), the body, and the seconds it took.
    static func raw(_ port: UInt16, _ request: String, timeout: Double = 5) -> (status: Int, body: String, seconds: Double) {
        let answer = rawWithHead(port, request, timeout: timeout)
        return (answer.status, answer.body, answer.seconds)
    }

    /// `raw`, with the response's head (status line and headers) too.
    static func rawWithHead(_ port: UInt16, _ request: String, timeout: Double = 5) -> (status: Int, head: String, body: String, seconds: Double) {
        let started = Date()
        guard let fd = connect(port) else { return (0, "", "", 0) }
        defer { close(fd) }
        var wait = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date().timeIntervalSince(started) < timeout {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { break }
            if n > 0 { data += buffer[0..<n] }
        }
        let text = String(decoding: data, as: UTF8.self)
        let status = Int(text.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
        let split = text.range(of: "\r\n\r\n")
        let head = split.map { String(text[..<$0.lowerBound]) } ?? text, body = split.map { String(text[$0.upperBound...]) } ?? ""
        return (status, head, body, Date().timeIntervalSince(started))
    }

    /// Sockets of the local `port` in CLOSE-WAIT (from /proc/net/tcp).
    static func closeWaitCount(_ port: UInt16) -> Int {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            guard fields.count > 3, let local = fields[1].split(separator: ":").last else { return false }
            return UInt16(local, radix: 16) == port && fields[3] == "08"
        }.count
    }

    func testServesDecodedPathsAndQueries() throws {
        let server = try start()
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0)
        let answer = fetch("http://127.0.0.1:\(server.port)/route/v1/driving/7.1,43.2%3B7.3,43.4?steps=true&a=%20b")
        XCTAssertEqual(answer?.status, 200)
        XCTAssertEqual(answer?.text, "GET /route/v1/driving/7.1,43.2;7.3,43.4 steps=true&a= b")
    }

    func testRefusesBodiesAndLongURLs() throws {
        let server = try start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        XCTAssertEqual(fetch(base + "/x", method: "POST", body: Data("small".utf8))?.status, 405)
        XCTAssertEqual(fetch(base + "/x", method: "POST", body: Data(count: 100_000))?.status, 413)
        XCTAssertEqual(fetch(base + "/x?" + String(repeating: "a", count: 70_000))?.status, 414)
    }

    func testConcurrentRequestsAllAnswered() throws {
        let server = try start()
        defer { server.stop() }
        let count = 200
        nonisolated(unsafe) var ok = [Bool](repeating: false, count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let answer = Self.fetch("http://127.0.0.1:\(server.port)/n?i=\(i)")
            ok[i] = answer?.status == 200 && answer?.text == "GET /n i=\(i)"
        }
        XCTAssertEqual(ok.filter { $0 }.count, count)
        XCTAssertEqual(server.requestCounts.answered, count)
    }

    func testStopLetsRequestsInFlightFinish() throws {
        let server = try start()
        let port = server.port
        nonisolated(unsafe) var answer: (status: Int, text: String)? = nil
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            answer = Self.fetch("http://127.0.0.1:\(port)/slow")
            finished.signal()
        }
        // Wait until the slow request is being handled, then stop.
        let deadline = Date().addingTimeInterval(5)
        while server.requestCounts.inFlight == 0 && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(server.requestCounts.inFlight, 1)
        server.stop()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(answer?.status, 200)
        XCTAssertEqual(answer?.text, "GET /slow ")
        // And it no longer listens.
        XCTAssertNil(fetch("http://127.0.0.1:\(port)/after"))
    }

    func testBadHostAndBusyPortAreReported() throws {
        XCTAssertThrowsError(try HTTPServer(configuration: HTTPServerConfiguration(host: "not-an-address", port: 0), handler: EchoHandler())) {
            XCTAssertEqual($0 as? HTTPServerError, .invalidHost("not-an-address"))
        }
        let first = try start()
        defer { first.stop() }
        XCTAssertThrowsError(try HTTPServer(configuration: HTTPServerConfiguration(port: first.port), handler: EchoHandler())) {
            XCTAssertEqual($0 as? HTTPServerError, .cannotListen(host: "127.0.0.1", port: first.port))
        }
    }

    func testOversizeAndOverlongRequestsGetJSONPromptly() throws {
        let server = try start()
        defer { server.stop() }
        let port = server.port
        func get(_ target: String, headers: String = "") -> (status: Int, body: String, seconds: Double) {
            Self.raw(port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(headers)\r\n")
        }
        func json(_ body: String) -> [String: String] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String]) ?? [:]
        }
        // 2,000 parameters in 14 KB once got no answer until the 30 s timeout (libmicrohttpd, the server before, ran out of its pool).
        let many = (0..<2000).map { "a\($0)=1" }.joined(separator: "&")
        let refused = get("/route/v1/driving/7.42,43.73;7.43,43.74?" + many)
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(json(refused.body)["code"], "TooBig")
        XCTAssertEqual(json(refused.body)["message"], "at most 100 query parameters are accepted, got 2000")
        XCTAssertLessThan(refused.seconds, 2)
        // The densest query a 64 KiB URL can hold, and exactly the limit.
        XCTAssertEqual(get("/x?" + Array(repeating: "a", count: 30_000).joined(separator: "&")).status, 400)
        let hundred = get("/x?" + (0..<100).map { "p\($0)=\($0)" }.joined(separator: "&"))
        XCTAssertEqual(hundred.status, 200)
        XCTAssertTrue(hundred.body.hasSuffix("p99=99"), hundred.body)
        // URLs and headers over their limits.
        let long = get("/x?a=" + String(repeating: "b", count: 100_000))
        XCTAssertEqual(long.status, 414)
        XCTAssertEqual(json(long.body)["code"], "TooBig")
        XCTAssertTrue(json(long.body)["message"]?.contains("65536 bytes") ?? false, long.body)
        let header = get("/x", headers: "X-Big: \(String(repeating: "y", count: 40_000))\r\n")
        XCTAssertEqual(header.status, 431)
        XCTAssertEqual(json(header.body)["code"], "TooBig")
        XCTAssertEqual(fetch("http://127.0.0.1:\(port)/after?x=1")?.text, "GET /after x=1")
    }

    func testIdleAndSlowConnectionsAreClosedPromptly() throws {
        let server = try start { $0.connectionTimeout = 1 }
        defer { server.stop() }
        // An idle connection (nothing sent) and a slow one (a byte of its headers every 100 ms, which an idle timer
        // alone never closes): both are closed soon after the 1 s timeout.
        let idle = try XCTUnwrap(Self.connect(server.port))
        let slow = try XCTUnwrap(Self.connect(server.port))
        defer { close(idle); close(slow) }
        _ = "GET /x HTTP/1.1\r\nHost: x\r\nX-Slow: ".withCString { send(slow, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var flags = fcntl(idle, F_GETFL); _ = fcntl(idle, F_SETFL, flags | O_NONBLOCK)
        flags = fcntl(slow, F_GETFL); _ = fcntl(slow, F_SETFL, flags | O_NONBLOCK)
        let started = Date()
        var idleClosed: Double? = nil, slowClosed: Double? = nil
        var byte: UInt8 = 0
        while Date().timeIntervalSince(started) < 5 && (idleClosed == nil || slowClosed == nil) {
            usleep(100_000)
            if idleClosed == nil && recv(idle, &byte, 1, 0) == 0 { idleClosed = Date().timeIntervalSince(started) }
            if slowClosed == nil {
                let sent = send(slow, "a", 1, Int32(MSG_NOSIGNAL))
                if sent < 0 || recv(slow, &byte, 1, 0) == 0 { slowClosed = Date().timeIntervalSince(started) }
            }
        }
        XCTAssertLessThan(try XCTUnwrap(idleClosed), 2.5)
        XCTAssertLessThan(try XCTUnwrap(slowClosed), 2.5)
        XCTAssertGreaterThanOrEqual(server.connectionCounts.cutOff, 1)
        XCTAssertEqual(fetch("http://127.0.0.1:\(server.port)/still")?.status, 200)
    }

    /// 1,500 slow clients: more than the old libmicrohttpd default connection limit (about 1,000), which they once filled.
    func testSlowConnectionsDoNotLockOthersOut() throws {
        let server = try start()
        defer { server.stop() }
        let port = server.port
        var slow: [Int32] = []
        defer { for fd in slow { close(fd) } }
        for _ in 0..<1500 {
            guard let fd = Self.connect(port) else { break }
            _ = "GET /x HTTP/1.1\r\nHost: x\r\nX-Slow: ".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            slow.append(fd)
        }
        XCTAssertEqual(slow.count, 1500)
        // Real requests keep being answered, well within any time limit, while the slow ones trickle on.
        let started = Date()
        var answered = 0, slowest = 0.0
        while Date().timeIntervalSince(started) < 3 {
            for fd in slow { _ = send(fd, "a", 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            for i in 0..<20 {
                let t = Date()
                if fetch("http://127.0.0.1:\(port)/real?i=\(i)")?.text == "GET /real i=\(i)" { answered += 1 }
                slowest = max(slowest, Date().timeIntervalSince(t))
            }
        }
        XCTAssertGreaterThan(answered, 20)
        XCTAssertLessThan(slowest, 2)
        XCTAssertGreaterThanOrEqual(server.connectionCounts.open, 1500)
        // When the slow clients leave, their sockets are closed at once: none lingers in CLOSE-WAIT.
        for fd in slow { close(fd) }
        slow = []
        let left = Date()
        // (URLSession may keep a few of its own connections alive.)
        while (server.connectionCounts.open > 16 || Self.closeWaitCount(port) > 0) && Date().timeIntervalSince(left) < 5 { usleep(50_000) }
        XCTAssertEqual(Self.closeWaitCount(port), 0)
        XCTAssertLessThan(Date().timeIntervalSince(left), 1)
        print("1500 slow connections: \(answered) real requests answered, slowest \(String(format: "%.3f", slowest)) s")
    }

    /// Three times more slow clients than connections allowed: near the limit they are cut off after a second, so the
    /// real clients queued behind them in the listen queue wait seconds, not the idle timeout each round.
    func testSlowClientsBeyondTheConnectionLimitDelayOthersOnlySeconds() throws {
        let server = try start { $0.maximumConnections = 100 }
        defer { server.stop() }
        XCTAssertEqual(server.connectionLimit, 100)
        var slow: [Int32] = []
        defer { for fd in slow { close(fd) } }
        for _ in 0..<300 {
            guard let fd = Self.connect(server.port) else { break }
            _ = "GET /x HTTP/1.1\r\nHost: x\r\nX-Slow: ".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            slow.append(fd)
        }
        var slowest = 0.0
        for i in 0..<5 {
            let t = Date()
            XCTAssertEqual(fetch("http://127.0.0.1:\(server.port)/real?i=\(i)")?.status, 200)
            slowest = max(slowest, Date().timeIntervalSince(t))
            for fd in slow { _ = send(fd, "a", 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        XCTAssertLessThan(slowest, 5)
        XCTAssertGreaterThanOrEqual(server.connectionCounts.cutOff, 100)
        print("300 slow clients over a limit of 100: slowest real request \(String(format: "%.2f", slowest)) s")
    }
}
