import Foundation
import XCTest
import TestSupport
import Graph
import Server
import Wayfinder

/// The per-request time limit holds inside the road searches: on a graph without a contraction hierarchy (so a
/// table is one Dijkstra per source over the whole graph), table and trip requests that would take seconds are
/// answered `Timeout` (503, OSRM's JSON) at the limit, and the server keeps answering `/health` meanwhile.
final class SearchTimeLimitTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-timelimit-\(getpid())")
    /// Junctions per side of the street grid, 100 m apart.
    static let size = 80

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// A street grid (a row and a column way through each junction), foot profile only, no hierarchy, no landmarks.
    static func grid() throws -> OfflineMap {
        try OfflineMap(contentsOf: URL(fileURLWithPath: StreetGrid.importGraph(size: size, into: folder)))
    }

    /// `count` places spread over the grid, as OSRM's `lon,lat;…`.
    static func places(_ count: Int) -> String {
        (0..<count).map { k in
            let row = (k * 37) % size, column = (k * 53) % size
            return "\(7 + 0.00127 * Double(column)),\(45 + 0.0009 * Double(row))"
        }.joined(separator: ";")
    }

    func testHeavyRequestsStopAtTheLimitAndHealthStillAnswers() throws {
        let graph = try Self.grid()
        // 5 sources × 5 destinations: 5 one-to-many searches over the whole grid (seconds in a debug build).
        let table = "/table/v1/foot/\(Self.places(5))"
        let trip = "/trip/v1/foot/\(Self.places(5))?steps=false"
        var generous = ServiceLimits()
        generous.requestTimeLimit = 600
        let unlimited = try WayfinderService(map: graph, limits: generous)
        func timed(_ service: WayfinderService, _ target: String) throws -> (answer: JSONAnswer, seconds: Double) {
            let began = Date()
            let answer = try ask(service, target)
            return (answer, Date().timeIntervalSince(began))
        }
        let full = try timed(unlimited, table)
        XCTAssertEqual(full.answer.code, "Ok")
        XCTAssertGreaterThan(full.seconds, 0.3, "the table is too quick for this test")

        var limits = ServiceLimits()
        limits.requestTimeLimit = full.seconds / 20
        let hurried = try WayfinderService(map: graph, limits: limits)
        for target in [table, trip] {
            let late = try timed(hurried, target)
            XCTAssertEqual(late.answer.status, 503, "\(target): \(late.answer.object)")
            XCTAssertEqual(late.answer.code, "Timeout")
            let message = late.answer["message"] as? String ?? ""
            XCTAssertTrue(message.hasPrefix("the request took longer than the"), message)
            // Stopped inside the searches: well before the table would have been done.
            XCTAssertLessThan(late.seconds, full.seconds / 2, "\(target): answered after \(late.seconds) s, the whole table takes \(full.seconds) s")
        }

        // Over HTTP: four such requests at once on two workers, and /health answers while they run (each ends at the limit).
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.shutdownGrace = 5
        let server = try HTTPServer(configuration: configuration, handler: hurried)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        nonisolated(unsafe) var statuses = [Int](repeating: 0, count: 4)
        let group = DispatchGroup()
        for k in 0..<4 {
            DispatchQueue.global().async(group: group) {
                let answer = HTTPServerTests.fetch(base + table)
                statuses[k] = answer?.status ?? 0
                if answer?.text.contains("\"code\":\"Timeout\"") != true { statuses[k] = -1 }
            }
        }
        usleep(50_000)
        let began = Date()
        let health = HTTPServerTests.fetch(base + "/health")
        let healthSeconds = Date().timeIntervalSince(began)
        XCTAssertEqual(health?.status, 200)
        // The in-process checks above show the searches stop at the limit; this shows the server keeps answering while
        // such requests run. The bound is generous (the two workers alone would be busy for 2 × the whole table's time
        // without the limit) so that a loaded machine's scheduling does not decide the outcome.
        XCTAssertLessThan(healthSeconds, 4 * full.seconds + 1, "/health took \(healthSeconds) s")
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(statuses, [503, 503, 503, 503])
    }
}
