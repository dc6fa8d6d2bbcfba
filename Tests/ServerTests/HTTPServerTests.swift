import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import Server

/// The libmicrohttpd server itself, in process: serving, concurrency, limits and a graceful stop.
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

    func start(_ handler: any HTTPHandler = EchoHandler(), threads: Int = 2) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: threads)
        configuration.shutdownGrace = 5
        return try HTTPServer(configuration: configuration, handler: handler)
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
}
