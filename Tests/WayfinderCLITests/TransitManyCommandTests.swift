import Foundation
import XCTest
import TestSupport

/// `eta --from --to-file`, `matrix` and their window and departure options by transit, on the Terre Haute sample
/// (imported once for the class): each list entry is the pair's own `eta --mode transit`.
final class TransitManyCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-transitmany-\(getpid())")
    static let graphPath = folder.appendingPathComponent("terre-haute.wfg").path
    static let origin = "39.48577,-87.39769"
    static let depart = "2017-05-10T09:00"
    /// A bus ride away, a walk away, a long walk away, and off the map.
    static let places = """
    name,lat,lon
    University Apartments,39.4565472,-87.4164615
    North 3rd Street,39.4667,-87.4139
    Far east,39.50,-87.35
    Off the map,40.5,-86.0

    """

    func terreHaute() throws -> String {
        if FileManager.default.fileExists(atPath: Self.graphPath) { return Self.graphPath }
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let result = try run(["import", sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-landmarks",
                              "-o", Self.graphPath, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return Self.graphPath
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func placesFile(_ text: String = places) throws -> String {
        let path = tmp("places.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    func testEachListEntryIsThePairsOwnETA() throws {
        let graph = try terreHaute(), file = try placesFile()
        let list = try run(["eta", "--graph", graph, "--mode", "transit", "--from", Self.origin, "--to-file", file, "--depart", Self.depart, "--format", "json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(try json(list.stdout) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["status"] as? String }, ["ok", "ok", "ok", "no_road"])
        let coordinates = ["39.4565472,-87.4164615", "39.4667,-87.4139", "39.50,-87.35"]
        var rode = false
        for (entry, place) in zip(entries, coordinates) {
            let pair = try run(["eta", "--graph", graph, "--mode", "transit", "--depart", Self.depart, "--format", "json", Self.origin, place])
            XCTAssertEqual(pair.status, 0, pair.stderr)
            let eta = try XCTUnwrap(try json(pair.stdout) as? [String: Any])
            XCTAssertEqual(entry["expectedArrivalDate"] as? String, eta["expectedArrivalDate"] as? String, place)
            XCTAssertEqual(entry["expectedDepartureDate"] as? String, eta["expectedDepartureDate"] as? String, place)
            XCTAssertEqual(entry["expectedTravelTime"] as? Double, eta["expectedTravelTime"] as? Double, place)
            XCTAssertEqual(entry["rides"] as? Int, eta["rides"] as? Int, place)
            XCTAssertEqual(entry["walkingDistance"] as? Double, eta["walkingDistance"] as? Double, place)
            let rides = try XCTUnwrap(entry["rides"] as? Int)
            if rides > 0 {
                rode = true
                let boarding = try XCTUnwrap(entry["firstBoarding"] as? [String: Any], place)
                XCTAssertFalse((boarding["stop"] as? String ?? "").isEmpty)
                XCTAssertGreaterThanOrEqual(try XCTUnwrap(boarding["departure"] as? String), try XCTUnwrap(eta["expectedDepartureDate"] as? String))
            } else {
                XCTAssertTrue(entry["firstBoarding"] is NSNull, place)
            }
        }
        XCTAssertTrue(rode, "no place is reached by bus: the test would not show the timetable at work")
        let text = try run(["eta", "--graph", graph, "--mode", "transit", "--from", Self.origin, "--to-file", file, "--depart", Self.depart])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("place"), text.stdout)
        XCTAssertTrue(text.stdout.contains("first boarding") && text.stdout.contains("walk only") && text.stdout.contains("no road"), text.stdout)
        let csv = try run(["eta", "--graph", graph, "--mode", "transit", "--from", Self.origin, "--to-file", file, "--depart", Self.depart, "--format", "csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(csv.stdout.hasPrefix("name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status,rides,firstBoardingStop,firstBoardingDeparture\n"), csv.stdout)
    }

    func testDepartureWindowGivesBestMedianWorst() throws {
        let graph = try terreHaute(), file = try placesFile()
        let list = try run(["eta", "--graph", graph, "--mode", "transit", "--from", Self.origin, "--to-file", file, "--depart", Self.depart,
                            "--depart-window", "30m", "--format", "json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(try json(list.stdout) as? [[String: Any]])
        for entry in entries.prefix(3) {
            let window = try XCTUnwrap(entry["departureWindow"] as? [String: Any], "\(entry)")
            let best = try XCTUnwrap(window["best"] as? Double), median = try XCTUnwrap(window["median"] as? Double)
            let worst = try XCTUnwrap(window["worst"] as? Double)
            XCTAssertLessThanOrEqual(best, median)
            XCTAssertLessThanOrEqual(median, worst)
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(window["departures"] as? Int), 1)
            // The window's first departure is --depart itself: its travel time lies within best…worst.
            XCTAssertLessThanOrEqual(best, try XCTUnwrap(entry["expectedTravelTime"] as? Double) + 0.05)
        }
        XCTAssertNil(entries[3]["departureWindow"])
    }

    func testBadWindowValuesAreUsageErrors() throws {
        let graph = try terreHaute(), file = try placesFile()
        for value in ["0", "25h", "-5m", "soon", "nanm"] {
            let result = try run(["eta", "--graph", graph, "--mode", "transit", "--from", Self.origin, "--to-file", file, "--depart", Self.depart,
                                  "--depart-window", value])
            XCTAssertEqual(result.status, 2, "\(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--depart-window") && result.stderr.contains("24h"), result.stderr)
        }
        let byCar = try run(["eta", "--graph", graph, "--from", Self.origin, "--to-file", file, "--depart-window", "30m"])
        XCTAssertEqual(byCar.status, 2, byCar.stderr)
        XCTAssertTrue(byCar.stderr.contains("--mode transit"), byCar.stderr)
        let pair = try run(["eta", "--graph", graph, "--mode", "transit", "--depart-window", "30m", Self.origin, "39.4667,-87.4139"])
        XCTAssertEqual(pair.status, 2, pair.stderr)
    }

    func testMatrixByTransitNeedsADepartureAndMatchesTheList() throws {
        let graph = try terreHaute()
        let file = try placesFile(Self.places.replacingOccurrences(of: "Off the map,40.5,-86.0\n", with: ""))
        let sources = tmp("sources.csv")
        try "name,lat,lon\nOrigin,\(Self.origin)\n".write(toFile: sources, atomically: true, encoding: .utf8)
        let missing = try run(["matrix", "--graph", graph, "--mode", "transit", "--sources", sources, "--destinations", file])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("--depart"), missing.stderr)
        let matrix = try run(["matrix", "--graph", graph, "--mode", "transit", "--sources", sources, "--destinations", file, "--depart", Self.depart, "--format", "json"])
        XCTAssertEqual(matrix.status, 0, matrix.stderr)
        let object = try XCTUnwrap(try json(matrix.stdout) as? [String: Any])
        XCTAssertEqual(object["mode"] as? String, "transit")
        let times = try XCTUnwrap((object["expectedTravelTimes"] as? [[Any]])?.first)
        // Each cell: from --depart to the pair's own earliest arrival.
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: Self.depart + ":00-04:00"))
        for (j, place) in ["39.4565472,-87.4164615", "39.4667,-87.4139", "39.50,-87.35"].enumerated() {
            let pair = try run(["eta", "--graph", graph, "--mode", "transit", "--depart", Self.depart, "--format", "json", Self.origin, place])
            let eta = try XCTUnwrap(try json(pair.stdout) as? [String: Any])
            let arrival = try XCTUnwrap(ISO8601DateFormatter().date(from: try XCTUnwrap(eta["expectedArrivalDate"] as? String)))
            XCTAssertEqual(try XCTUnwrap(times[j] as? Double), arrival.timeIntervalSince(start), accuracy: 0.05, place)
        }
        let offMap = try placesFile()
        let far = try run(["matrix", "--graph", graph, "--mode", "transit", "--sources", sources, "--destinations", offMap, "--depart", Self.depart])
        XCTAssertEqual(far.status, 6, far.stderr)
    }

    /// `trip --mode transit`: the greedy order (each next stop the one reached earliest from where the traveller is,
    /// at that moment) and its itineraries, with `--depart` required.
    func testGreedyOrderPicksTheEarliestReachedStopEachStep() throws {
        let graph = try terreHaute()
        let stops = ["39.4565472,-87.4164615", "39.4667,-87.4139"]
        let trip = try run(["trip", "--graph", graph, "--mode", "transit", "--depart", Self.depart, "--format", "json", Self.origin] + stops)
        XCTAssertEqual(trip.status, 0, trip.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(trip.stdout.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(object["trip"] as? [String: Any])
        let order = try XCTUnwrap(summary["order"] as? [Int])
        XCTAssertEqual(order.first, 0)
        XCTAssertEqual(Set(order), [0, 1, 2])
        // The first step: the stop whose own eta from the origin arrives earliest.
        let arrivals = try stops.map { stop -> String in
            let eta = try run(["eta", "--graph", graph, "--mode", "transit", "--depart", Self.depart, "--format", "json", Self.origin, stop])
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(eta.stdout.utf8)) as? [String: Any])
            return try XCTUnwrap(json["expectedArrivalDate"] as? String)
        }
        XCTAssertEqual(order[1], arrivals[0] <= arrivals[1] ? 1 : 2, "\(arrivals)")
        let directions = try XCTUnwrap(object["directions"] as? [String: Any])
        XCTAssertEqual(directions["mode"] as? String, "transit")
        XCTAssertEqual((directions["legs"] as? [Any])?.count, 2)
        let text = try run(["trip", "--graph", graph, "--mode", "transit", "--depart", Self.depart, Self.origin] + stops)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("order        1 → \(order[1] + 1) → \(order[2] + 1)"), text.stdout)
        let undated = try run(["trip", "--graph", graph, "--mode", "transit", Self.origin] + stops)
        XCTAssertEqual(undated.status, 2, undated.stderr)
        XCTAssertTrue(undated.stderr.contains("--depart"), undated.stderr)
        let gpx = try run(["trip", "--graph", graph, "--mode", "transit", "--depart", Self.depart, "--format", "gpx", Self.origin] + stops)
        XCTAssertEqual(gpx.status, 2, gpx.stderr)
    }
}
