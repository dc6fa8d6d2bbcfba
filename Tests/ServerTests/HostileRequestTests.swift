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

    /// Requests libmicrohttpd refuses before the server's code runs (docs/http-api.md lists them): each is answered
    /// (its own short HTML) or closed at once, never left hanging, and the server goes on serving.
    func testMalformedRequestLinesAreAnsweredOrClosedAtOnce() throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.shutdownGrace = 5
        let server = try HTTPServer(configuration: configuration, handler: HTTPServerTests.EchoHandler())
        defer { server.stop() }
        let host = "Host: x\r\nConnection: close\r\n"
        let requests = [
            "GET /x HTTP/2.0\r\n\(host)\r\n", "GET /x HTTP/0.9\r\n\(host)\r\n", "GET /x FOO\r\n\(host)\r\n", "GET /x\r\n\(host)\r\n",
            "GET\r\n\(host)\r\n", "GET /x HTTP/1.1\r\n\(host)no colon\r\n\r\n",
            "POST /x HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nzz\r\n", "POST /x HTTP/1.1\r\n\(host)Content-Length: abc\r\n\r\n",
            "GET /x HTTP/1.1\r\n\(host)Cookie: \((0..<3000).map { "c\($0)=1" }.joined(separator: ";"))\r\n\r\n",
            "GET /x?a=\(String(repeating: "b", count: 300_000)) HTTP/1.1\r\n\(host)\r\n",
            "GET /x HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "y", count: 200_000))\r\n\r\n",
        ]
        for request in requests {
            let answer = HTTPServerTests.raw(server.port, request, timeout: 5)
            XCTAssertTrue([0, 400, 413, 414, 431, 505].contains(answer.status), "\(request.prefix(60)) → \(answer.status)")
            XCTAssertLessThan(answer.seconds, 2, "\(request.prefix(60))")
        }
        XCTAssertEqual(HTTPServerTests.fetch("http://127.0.0.1:\(server.port)/after")?.status, 200)
    }
}
