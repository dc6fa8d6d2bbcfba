import Foundation
import XCTest
import Server

/// The whole service behind the real HTTP server, probed over a socket with malformed URLs and path traversal:
/// every answer is OSRM's JSON error (400, 404) or, for traversal, at most one of the page's own assets.
final class HostileRequestTests: XCTestCase {
    func testMalformedURLsGetJSONErrorsAndTraversalGetsOnlyTheAssets() throws {
        let (_, service) = try ServerFixture.monaco()
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.shutdownGrace = 5
        let server = try HTTPServer(configuration: configuration, handler: service)
        defer { server.stop() }
        func get(_ target: String) -> (status: Int, head: String, body: String, seconds: Double) {
            HTTPServerTests.rawWithHead(server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        let route = "/route/v1/driving/7.4270,43.7395;7.4197,43.7312"
        let malformed = [
            "/route", "/route/v1", "/route/v1/driving", "/route/v1/driving/", "/route/v1/driving/abc", "/route/v1/driving/7.42,43.73;",
            "/route/v1/driving/1e309,2;3,4", "/route/v1/driving/nan,nan;7.42,43.73", "/route/v1/driving/7.42,43.73;7.42,143.73",
            "/route/v9/driving/7.42,43.73;7.43,43.74", "/route/v1/bike/7.42,43.73;7.43,43.74", "/tile/v1/car/7.42,43.73",
            "/route/v1/driving/polyline(", "/route/v1/driving/polyline(%25%25)", "/route/v1/driving/polyline6(~~~~~~)",
            route + "?steps=maybe", route + "?alternatives=1e9", route + "?alternatives=-1", route + "?radiuses=1e308;x",
            route + "?radiuses=1", route + "?bearings=0,20;0,20", route + "?overview=everything", route + "?geometries=wkt",
            route + "?" + (0..<101).map { "p\($0)" }.joined(separator: "&"),
            "/table/v1/car/7.42,43.73;7.43,43.74?sources=9", "/table/v1/car/7.42,43.73;7.43,43.74?sources=-1",
            "/table/v1/car/7.42,43.73;7.43,43.74?sources=99999999999999999999", "/table/v1/car/7.42,43.73;7.43,43.74?annotations=speed",
            "/nearest/v1/car/7.42,43.73?number=0", "/nearest/v1/car/7.42,43.73?number=1e9", "/nearest/v1/car/7.42,43.73;7.43,43.74",
            "/trip/v1/car/7.42,43.73", "/trip/v1/car/7.42,43.73;7.43,43.74?roundtrip=false", "/trip/v1/car/7.42,43.73;7.43,43.74?source=middle",
            "/roads", "/roads?bbox=1,2,3", "/roads?bbox=7.4,43.7,7.5,43.8&zoom=99", "/roads?bbox=7.5,43.8,7.4,43.7", "/roads?x=1",
            "/transit/v1/7.42,43.73;7.43,43.74?max_walk=1e308", "/transit/v2/7.42,43.73;7.43,43.74", "/transit",
            "/%", "/%zz", "/info/extra", "/health/../info", "/route/v1/driving/7.42,43.73;7.43,43.74/extra",
        ]
        for target in malformed {
            let answer = get(target)
            XCTAssertTrue([400, 404].contains(answer.status), "\(target) → \(answer.status) \(answer.body)")
            XCTAssertTrue(answer.head.contains("Content-Type: application/json"), "\(target): \(answer.head)")
            let object = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            let code = object?["code"] as? String
            XCTAssertNotNil(code, "\(target): \(answer.body)")
            XCTAssertNotEqual(code, "Ok", target)
            XCTAssertLessThan(answer.seconds, 2, target)
        }
        // The assets are embedded in the binary: no path reads a file, whatever it names.
        let assets = Set(["/", "/map.js", "/map.css"].map { get($0).body })
        XCTAssertEqual(assets.count, 3)
        let traversal = ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "//etc/passwd",
                         "/map.js/../../../etc/passwd", "/./map.js", "/map.css%00.js", "/index.html/..", "/..\\..\\etc\\passwd",
                         "/%00", "/.git/config", "/Package.swift", "/Sources/Server/MapPage.swift", "/proc/self/environ", "/?file=../../etc/passwd",
                         "/map.js?../../etc/passwd", "/%252e%252e/etc/passwd", "/route/v1/driving/../../../../etc/passwd"]
        for target in traversal {
            let answer = get(target)
            XCTAssertFalse(answer.body.contains("root:"), target)
            XCTAssertTrue(answer.status == 200 ? assets.contains(answer.body) : [400, 404].contains(answer.status),
                          "\(target) → \(answer.status) \(answer.body.prefix(200))")
        }
        // And real requests still get answers.
        XCTAssertEqual(get(route).status, 200)
    }

    /// Malformed request heads, each of its kind: every one gets its status and OSRM's JSON error (a `code` and a
    /// `message`) at once, then the connection closes; the server goes on serving.
    func testMalformedRequestHeadsGetJSONErrors() throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.shutdownGrace = 5
        let server = try HTTPServer(configuration: configuration, handler: HTTPServerTests.EchoHandler())
        defer { server.stop() }
        let host = "Host: x\r\nConnection: close\r\n"
        let requests: [(request: String, status: Int, code: String)] = [
            ("GET /x HTTP/2.0\r\n\(host)\r\n", 505, "InvalidUrl"), ("GET /x HTTP/0.9\r\n\(host)\r\n", 505, "InvalidUrl"),
            ("GET /x FOO\r\n\(host)\r\n", 400, "InvalidUrl"), ("GET /x\r\n\(host)\r\n", 400, "InvalidUrl"),
            ("GET\r\n\(host)\r\n", 400, "InvalidUrl"), ("GARBAGE\r\n\r\n", 400, "InvalidUrl"), ("GET x HTTP/1.1\r\n\(host)\r\n", 400, "InvalidUrl"),
            ("GET /a b HTTP/1.1\r\n\(host)\r\n", 400, "InvalidUrl"), ("G(T /x HTTP/1.1\r\n\(host)\r\n", 400, "InvalidUrl"),
            ("GET /x HTTP/1.1\r\n\(host)no colon\r\n\r\n", 400, "InvalidUrl"), ("GET /x HTTP/1.1\r\n\(host)Bad Name: 1\r\n\r\n", 400, "InvalidUrl"),
            ("GET /x HTTP/1.1\r\n folded first\r\n\(host)\r\n", 400, "InvalidUrl"),
            ("POST /x HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nzz\r\n", 405, "InvalidUrl"),
            ("POST /x HTTP/1.1\r\n\(host)Content-Length: abc\r\n\r\n", 400, "InvalidUrl"),
            ("POST /x HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999999\r\n\r\n", 413, "TooBig"),
            ("GET /x HTTP/1.1\r\n\(host)Content-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "InvalidUrl"),
            ("GET /x?a=\(String(repeating: "b", count: 300_000)) HTTP/1.1\r\n\(host)\r\n", 414, "TooBig"),
            ("GET /x?a=\(String(repeating: "b", count: 70_000)) HTTP/1.1\r\n\(host)\r\n", 414, "TooBig"),
            ("GET /x HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "y", count: 200_000))\r\n\r\n", 431, "TooBig"),
            ("GET /x HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "y", count: 40_000))\r\n\r\n", 431, "TooBig"),
            ("GET /x HTTP/1.1\r\n\(host)\((0..<101).map { "X-\($0): 1\r\n" }.joined())\r\n", 431, "TooBig"),
        ]
        for (request, status, code) in requests {
            let answer = HTTPServerTests.rawWithHead(server.port, request, timeout: 5)
            XCTAssertEqual(answer.status, status, "\(request.prefix(60))")
            XCTAssertTrue(answer.head.contains("Content-Type: application/json"), "\(request.prefix(60)): \(answer.head)")
            let object = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            XCTAssertEqual(object?["code"] as? String, code, "\(request.prefix(60)): \(answer.body)")
            XCTAssertFalse((object?["message"] as? String ?? "").isEmpty, "\(request.prefix(60)): \(answer.body)")
            XCTAssertLessThan(answer.seconds, 2, "\(request.prefix(60))")
        }
        // What is well formed is served: HTTP/1.0 and later 1.x, blank lines before the request line, folded headers,
        // bare LF line ends, an absolute URL, a big Cookie header under the header limit.
        let served = [
            "GET /x HTTP/1.0\r\n\r\n", "GET /x HTTP/1.2\r\n\(host)\r\n", "\r\n\r\nGET /x HTTP/1.1\r\n\(host)\r\n",
            "GET /x HTTP/1.1\r\n\(host)X-Folded: a\r\n b\r\n\r\n", "GET /x HTTP/1.1\nHost: x\nConnection: close\n\n",
            "GET http://x/x HTTP/1.1\r\n\(host)\r\n", "GET /x HTTP/1.1\r\n\(host)Cookie: \((0..<3000).map { "c\($0)=1" }.joined(separator: ";"))\r\n\r\n",
        ]
        for request in served {
            let answer = HTTPServerTests.raw(server.port, request, timeout: 5)
            XCTAssertEqual(answer.status, 200, "\(request.prefix(60))")
            XCTAssertEqual(answer.body, "GET /x ", "\(request.prefix(60))")
        }
        XCTAssertEqual(HTTPServerTests.fetch("http://127.0.0.1:\(server.port)/after")?.status, 200)
    }

    /// On a kept-alive connection, requests sent ahead are answered in order, and a malformed one after good ones
    /// gets its JSON error too (then the connection closes).
    func testKeptAliveConnectionsAnswerInOrderAndRefuseMalformedLaterRequests() throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 1)
        configuration.shutdownGrace = 5
        let server = try HTTPServer(configuration: configuration, handler: HTTPServerTests.EchoHandler())
        defer { server.stop() }
        let answer = HTTPServerTests.raw(server.port, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nHEAD /b HTTP/1.1\r\n\r\nGET /c?d=e HTTP/1.1\r\n\r\nGET /d HTTP/7.0\r\n\r\nGET /never HTTP/1.1\r\n\r\n")
        let text = answer.body
        XCTAssertEqual(answer.status, 200)
        let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }.filter { Int($0) != nil }
        XCTAssertEqual(statuses, ["200", "200", "505"], text)
        XCTAssertTrue(text.hasPrefix("GET /a "), text)
        XCTAssertTrue(text.contains("GET /c d=e"), text)
        XCTAssertFalse(text.contains("/never"), text)
        let last = try XCTUnwrap(text.range(of: "\r\n\r\n", options: .backwards))
        let object = try JSONSerialization.jsonObject(with: Data(text[last.upperBound...].utf8)) as? [String: Any]
        XCTAssertEqual(object?["code"] as? String, "InvalidUrl")
        XCTAssertLessThan(answer.seconds, 2)
    }
}
