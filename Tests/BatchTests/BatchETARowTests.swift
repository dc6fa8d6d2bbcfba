import Batch
import Foundation
import TestSupport
import Wayfinder
import XCTest

/// Jobs without geometry and steps are answered by the ETA path: their rows are those of the full route exactly.
final class BatchETARowTests: XCTestCase {
    func testETARowsEqualTheFullRouteRows() throws {
        let map = try OfflineMap(contentsOf: URL(fileURLWithPath: try SampleGraph.monaco().graphPath))
        let casino = Coordinate(latitude: 43.7395, longitude: 7.4270), port = Coordinate(latitude: 43.7312, longitude: 7.4197)
        let fontvieille = Coordinate(latitude: 43.7275, longitude: 7.4150)
        let jobs = [BatchJob(id: "car", stops: [casino, port, fontvieille], line: 2),
                    BatchJob(id: "foot", mode: "foot", stops: [fontvieille, casino], line: 3),
                    BatchJob(id: "arrive", arrive: Date(timeIntervalSince1970: 1_796_110_200), stops: [port, casino], line: 4)]
        for format in [BatchOutputFormat.ndjson, .csv] {
            var options = BatchOptions()
            options.format = format
            options.timeZone = TimeZone(identifier: "Europe/Monaco")!
            options.defaultDeparture = Date(timeIntervalSince1970: 1_796_100_000)
            let formatter = BatchRowFormatter(options: options)
            XCTAssertFalse(formatter.needsFullRoute)
            for job in jobs {
                let row = routeJob(job, map: map, formatter: formatter)
                XCTAssertTrue(row.ok, row.text)
                let transport: TransportType = job.mode == "foot" ? .walking : .automobile
                let request = DirectionsRequest(stops: job.stops, transportType: transport, departureDate: job.arrive == nil ? options.defaultDeparture : nil,
                                                arrivalDate: job.arrive, timeZone: options.timeZone)
                let full = formatter.success(id: job.id, result: try Directions(request, map: map).calculate())
                XCTAssertEqual(row.text, full.text)
            }
        }
    }
}
