import XCTest
import Server

/// Thousands of malformed and random requests: every one gets an answer with an error code, none traps.
final class MalformedRequestTests: XCTestCase {
    func testRandomPathsAndQueriesNeverTrap() throws {
        let (_, service) = try ServerFixture.monaco()
        let services = ["route", "table", "trip", "nearest", "roads", "info", "", "tile", "match"]
        let pieces = ["v1", "v2", "driving", "car", "foot", "walking", "7.42,43.73", "7.42,43.73;7.43,43.74", "polyline(", "polyline6(_p~iF~ps|U)",
                      ";", ",", "-", "1e309", "nan", "999,999", "..", "%", "\u{0}", "é", "7.42,43.73;7.42,43.73;7.42,43.73", ".json", ""]
        let options = ["steps", "alternatives", "geometries", "overview", "annotations", "sources", "destinations", "radiuses",
                       "number", "roundtrip", "source", "destination", "bbox", "zoom", "x", ""]
        let values = ["true", "false", "1", "-1", "99999999999999999999", "all", "0;1", "0;;1", "geojson", "full", "any", "last",
                      "duration,distance", "7.40,43.72,7.44,43.75", "unlimited", "", "nodes", "1;2;3"]
        var generator = SystemRandomNumberGenerator()
        var codes: [String: Int] = [:]
        for _ in 0..<3000 {
            var path = "/" + services.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 0...4, using: &generator) { path += "/" + pieces.randomElement(using: &generator)! }
            let query = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                (options.randomElement(using: &generator)!, values.randomElement(using: &generator)!)
            }
            let response = service.respond(to: HTTPRequest(path: path, query: query.map { (name: $0.0, value: $0.1) }))
            XCTAssertTrue([200, 400, 404, 503].contains(response.status), "\(path) \(query) → \(response.status)")
            if response.contentType.hasPrefix("application/json") {
                let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                let code = try XCTUnwrap(object?["code"] as? String, path)
                codes[code, default: 0] += 1
                XCTAssertEqual(code == "Ok", response.status == 200, "\(path) \(query)")
            }
        }
        // The generator reaches the error paths, not just one of them.
        XCTAssertGreaterThanOrEqual(codes.count, 5, "\(codes)")
    }
}
