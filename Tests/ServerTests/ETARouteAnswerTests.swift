import Foundation
import XCTest
import Server
import Wayfinder
import TestSupport

/// `/route` with `overview=false&steps=false` answers from the ETA and each leg's road totals, without laying out the
/// route: on real samples, its JSON is byte for byte the one the full route gives (the same summary), for many pairs.
final class ETARouteAnswerTests: XCTestCase {
    func testETAAnswersEqualTheFullRouteAnswers() throws {
        for sample in ["monaco.osm.gz", "heidelberg-clipped.osm.gz"] {
            let graph = try SampleGraph.named(sample)
            let map = try OfflineMap(contentsOf: URL(fileURLWithPath: graph.graphPath))
            let service = try WayfinderService(map: map)
            let bounds = try XCTUnwrap(try ask(service, "/info")["bounds"] as? [Double])
            var generator = SeededRandom(seed: 14)
            var compared = 0, fast = 0, summaries = Set<String>()
            for profile in ["driving", "walking"] {
                let engine = try XCTUnwrap(service.engines[profile == "driving" ? "car" : "foot"])
                for _ in 0..<300 {
                    let count = generator.next() % 4 == 0 ? 3 : 2
                    // Six decimals, as the URL gives them.
                    func sixDecimals(_ value: Double) -> Double { Double(String(format: "%.6f", value))! }
                    let stops = (0..<count).map { _ in
                        Coordinate(latitude: sixDecimals(bounds[1] + (bounds[3] - bounds[1]) * (0.1 + 0.8 * generator.unit())),
                                   longitude: sixDecimals(bounds[0] + (bounds[2] - bounds[0]) * (0.1 + 0.8 * generator.unit())))
                    }
                    let text = stops.map { String(format: "%.6f,%.6f", $0.longitude, $0.latitude) }.joined(separator: ";")
                    let answer = service.respond(to: HTTPRequest(path: "/route/v1/\(profile)/\(text)", query: [("overview", "false"), ("steps", "false")]))
                    guard answer.status == 200 else { continue }
                    // The answer as the full route gives it.
                    let snapped = try engine.snap(stops, radiuses: nil, defaultRadius: 1000)
                    let full = try Directions(DirectionsRequest(snappedStops: snapped), map: map).calculate()
                    var encoder = OSRMResponseEncoder(map: map)
                    encoder.overview = "false"
                    encoder.mode = engine.mode
                    let expected = JSONValue.object([("code", .string("Ok")), ("routes", .array([encoder.route(full.routes[0])])),
                                                     ("waypoints", .array(full.waypoints.map { OSRMResponseEncoder.waypoint($0) }))])
                    XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), String(decoding: expected.encoded(), as: UTF8.self), "\(sample) \(profile) \(text)")
                    compared += 1
                    var request = DirectionsRequest(snappedStops: snapped)
                    request.includesLegRoads = true
                    let eta = try Directions(request, map: map).calculateETA()
                    if eta.legRoads.allSatisfy({ $0 != nil }) { fast += 1 }
                    for leg in full.routes[0].legs { summaries.insert(leg.steps.map(\.name).joined()) }
                }
            }
            print("\(sample): \(compared) answers equal to the full route's, \(fast) of them from the ETA alone (the rest needed steps)")
            // The pairs reach many roads, and most answers are the ETA's own (else this would test only the fallback).
            XCTAssertGreaterThan(compared, 200, sample)
            XCTAssertGreaterThan(summaries.count, 50, sample)
            XCTAssertGreaterThan(fast * 2, compared, sample)
        }
    }
}
