import Foundation
import XCTest
import Graph
import Server
import Wayfinder
import TestSupport

/// The Monaco graph (Data/monaco.osm.gz, imported once into a temporary folder) and a service over it.
enum ServerFixture {
    nonisolated(unsafe) static var cached: (RoadGraph, WayfinderService)?
    static let lock = NSLock()

    /// Near the Casino, by the port, in Fontvieille, up by the Larvotto (lon,lat as OSRM writes them).
    static let casino = "7.4270,43.7395", port = "7.4197,43.7312", fontvieille = "7.4150,43.7275", larvotto = "7.4330,43.7450"
    /// Open sea, kilometres from any road.
    static let sea = "7.45,43.70"

    static func monaco() throws -> (graph: RoadGraph, service: WayfinderService) {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let sample = try SampleGraph.monaco()
        let graph = sample.graph
        let service = try WayfinderService(map: OfflineMap(contentsOf: URL(fileURLWithPath: sample.graphPath)))
        cached = (graph, service)
        return (graph, service)
    }

    /// Splits "path?a=1&b=2" into a request (no percent-decoding: tests pass plain values).
    static func request(_ target: String) -> HTTPRequest {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        let query = parts.count > 1 ? parts[1].split(separator: "&").map { item -> (name: String, value: String) in
            let kv = item.split(separator: "=", maxSplits: 1).map(String.init)
            return (kv[0], kv.count > 1 ? kv[1] : "")
        } : []
        return HTTPRequest(path: parts[0], query: query)
    }
}

/// A decoded JSON response, with its status.
struct JSONAnswer {
    let status: Int
    let object: [String: Any]
    var code: String? { object["code"] as? String }
    subscript(key: String) -> Any? { object[key] }
}

extension XCTestCase {
    /// Asks `service` for `target` and decodes the JSON body.
    func ask(_ service: WayfinderService, _ target: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONAnswer {
        let response = service.respond(to: ServerFixture.request(target))
        XCTAssertTrue(response.contentType.hasPrefix("application/json"), file: file, line: line)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], file: file, line: line)
        return JSONAnswer(status: response.status, object: object)
    }
}
