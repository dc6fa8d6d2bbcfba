import Foundation
import XCTest
import TestSupport

/// `wayfinder nearby`, `eta --to-category` and transit jobs in `batch`: each place's ETA is the pair's own `eta`, the
/// ranking is by arrival, `--directions K` prints what `route` prints to that place, and a transit job's row is the
/// pair's `eta --mode transit`; every command reads local dates in the map's zone. On the bundled Terre Haute sample with its feed, and on Heidelberg with the VRN feed
/// (../shared/data, or WAYFINDER_SHARED_DATA; skipped when absent).
final class NearbyCommandTests: CLITestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-nearby-\(getpid())")

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// A graph with a timetable and a place index (imported once per class; `--no-ch` makes the debug import quicker).
    func graph(_ name: String, osm: String, gtfs: String) throws -> String {
        let path = Self.folder.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let result = try run(["import", osm, "--gtfs", gtfs, "--no-landmarks", "--no-ch", "-o", path, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("indexed"), "the graph needs its place index: \(result.stdout)")
        return path
    }

    func terreHaute() throws -> String {
        try graph("terre-haute.wfg", osm: sample("terre-haute.osm.gz"), gtfs: sample("terre-haute-gtfs.zip"))
    }

    func heidelberg() throws -> String {
        let shared = sharedData
        let osm = shared + "/osm/heidelberg.osm.pbf", gtfs = shared + "/gtfs/vrn-heidelberg-cut.zip"
        guard FileManager.default.fileExists(atPath: osm), FileManager.default.fileExists(atPath: gtfs) else {
            throw XCTSkip("no \(osm) and \(gtfs) (set WAYFINDER_SHARED_DATA to the folder holding osm/ and gtfs/)")
        }
        return try graph("heidelberg.wfg", osm: osm, gtfs: gtfs)
    }

    func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func coordinate(_ place: [String: Any]) throws -> String {
        let location = try XCTUnwrap(place["location"] as? [String: Any])
        return "\(try XCTUnwrap(location["latitude"] as? Double)),\(try XCTUnwrap(location["longitude"] as? Double))"
    }

    /// Runs `nearby` by transit and checks every place against the pair's `eta --mode transit`, the ranking order,
    /// `--limit` and `--directions K` against `route --mode transit`; returns how many places were reached by a ride.
    @discardableResult
    func checkTransit(graph: String, from origin: String, category: String, within: String, depart: String) throws -> Int {
        let base = ["nearby", "--graph", graph, "--from", origin, "--category", category, "--mode", "transit", "--depart", depart, "--within", within]
        let result = try run(base + ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let places = try XCTUnwrap(try object(result.stdout)["places"] as? [[String: Any]])
        XCTAssertGreaterThan(places.count, 1, "the test needs several places to rank")
        var previous = "", rode = 0
        for (i, place) in places.enumerated() {
            let name = place["name"] as? String ?? ""
            guard place["status"] as? String == "ok" else { XCTAssertTrue(place["rank"] is NSNull, name); continue }
            XCTAssertEqual(place["rank"] as? Int, i + 1, "ranks count up from 1 over the reached places")
            XCTAssertLessThanOrEqual(Double(try XCTUnwrap(place["straightLineDistance"] as? Double)), Double(within)!, name)
            let arrival = try XCTUnwrap(place["expectedArrivalDate"] as? String)
            XCTAssertLessThanOrEqual(previous, arrival, "ranked by arrival: \(name)")
            previous = arrival
            let pair = try run(["eta", "--graph", graph, "--mode", "transit", "--depart", depart, "--format", "json", origin, try coordinate(place)])
            XCTAssertEqual(pair.status, 0, pair.stderr)
            let eta = try object(pair.stdout)
            for key in ["expectedArrivalDate", "expectedDepartureDate", "expectedTravelTime", "rides", "walkingDistance"] {
                XCTAssertEqual(place[key] as? NSObject, eta[key] as? NSObject, "\(name): \(key)")
            }
            if (place["rides"] as? Int ?? 0) > 0 {
                rode += 1
                let boarding = try XCTUnwrap(place["firstBoarding"] as? [String: Any], name)
                XCTAssertFalse((boarding["stop"] as? String ?? "").isEmpty)
            }
        }
        // --limit cuts the ranking, it does not rank fewer places.
        let limited = try object(try run(base + ["--format", "json", "--limit", "1"]).stdout)
        let first = try XCTUnwrap(limited["places"] as? [[String: Any]])
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(first[0]["name"] as? String, places[0]["name"] as? String)
        XCTAssertEqual(limited["candidates"] as? Int, places.count)
        // --directions K: the itinerary `route --mode transit` prints to the K-th place, text and JSON.
        let reached = places.filter { $0["status"] as? String == "ok" }
        for k in Set([1, reached.count]) {
            let to = try coordinate(reached[k - 1])
            for format in ["text", "json"] {
                let directions = try run(base + ["--directions", String(k), "--format", format])
                let route = try run(["route", "--graph", graph, "--mode", "transit", "--depart", depart, "--format", format, origin, to])
                XCTAssertEqual(directions.status, 0, directions.stderr)
                XCTAssertEqual(directions.stdout, route.stdout, "--directions \(k) --format \(format)")
            }
        }
        let beyond = try run(base + ["--directions", String(reached.count + 1)])
        XCTAssertEqual(beyond.status, 2)
        XCTAssertTrue(beyond.stderr.contains("only \(reached.count) place"), beyond.stderr)
        return rode
    }

    func testTerreHauteTransitEqualsThePairQueries() throws {
        let graph = try terreHaute()
        let restaurants = try checkTransit(graph: graph, from: "39.49,-87.38", category: "restaurant", within: "10000", depart: "2017-05-10T09:00")
        XCTAssertGreaterThan(restaurants, 0, "a restaurant reached by bus: the timetable at work")
        let stops = try checkTransit(graph: graph, from: "39.49,-87.38", category: "stop", within: "1200", depart: "2017-05-10T09:00")
        _ = stops
        let text = try run(["nearby", "--graph", graph, "--from", "39.49,-87.38", "--category", "restaurant", "--mode", "transit",
                            "--depart", "2017-05-10T09:00", "--within", "10000"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("rank  place"), text.stdout)
        XCTAssertTrue(lines[0].contains("first boarding") && text.stdout.contains("walk only") && text.stdout.contains("(North 19th / 12 Points)"), text.stdout)
    }

    func testHeidelbergTransitEqualsThePairQueries() throws {
        let graph = try heidelberg()
        let rode = try checkTransit(graph: graph, from: "49.3780,8.6930", category: "restaurant", within: "8000", depart: "2022-09-14T18:30")
        XCTAssertGreaterThan(rode, 0, "restaurants reached by tram")
    }

    /// The heidelberg extract keeps a few long ways whole, which stretch its box from 7.7° to 9.1° east (its middle
    /// near Mannheim, which has a road named Bismarckplatz too): a name with no other point is taken near the city's roads.
    func testHeidelbergNamesAreTakenWhereTheRoadsAre() throws {
        let graph = try heidelberg()
        let nearby = try run(["nearby", "--graph", graph, "--from", "Bismarckplatz", "--category", "restaurant", "--mode", "foot", "--format", "json"])
        XCTAssertEqual(nearby.status, 0, nearby.stderr)
        let line = try XCTUnwrap(nearby.stderr.split(separator: "\n").first { $0.hasPrefix("Bismarckplatz → \"Bismarckplatz\"") }, nearby.stderr)
        let point = try XCTUnwrap(line.split(separator: " ").last).split(separator: ",").compactMap { Double($0) }
        XCTAssertEqual(point.count, 2, String(line))
        // Heidelberg's Bismarckplatz is at 49.4098,8.6930 (the Mannheim road at 49.4808,8.4723).
        XCTAssertEqual(point.first ?? 0, 49.4098, accuracy: 0.004, String(line))
        XCTAssertEqual(point.last ?? 0, 8.6930, accuracy: 0.006, String(line))
    }

    func testRoadModesEqualThePairETAAndRoute() throws {
        let graph = try terreHaute()
        for mode in ["car", "foot"] {
            let base = ["nearby", "--graph", graph, "--from", "39.4667,-87.4139", "--category", "restaurant", "--mode", mode,
                        "--depart", "2017-05-10T09:00:00-04:00", "--time-zone", "America/New_York", "--within", "5000"]
            let result = try run(base + ["--format", "json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let places = try XCTUnwrap(try object(result.stdout)["places"] as? [[String: Any]])
            guard places.count == 2 else { return XCTFail("both restaurants lie within 5 km: \(result.stdout)") }
            for place in places {
                let pair = try object(try run(["eta", "--graph", graph, "--mode", mode, "--depart", "2017-05-10T09:00:00-04:00", "--time-zone",
                                               "America/New_York", "--format", "json", "39.4667,-87.4139", try coordinate(place)]).stdout)
                XCTAssertEqual(place["expectedTravelTime"] as? Double, pair["expectedTravelTime"] as? Double)
                XCTAssertEqual(place["distance"] as? Double, pair["distance"] as? Double)
                XCTAssertEqual(place["expectedArrivalDate"] as? String, pair["expectedArrivalDate"] as? String)
            }
            XCTAssertLessThanOrEqual(try XCTUnwrap(places[0]["expectedTravelTime"] as? Double), try XCTUnwrap(places[1]["expectedTravelTime"] as? Double))
            let directions = try run(base + ["--directions", "2"])
            let route = try run(["route", "--graph", graph, "--mode", mode, "--depart", "2017-05-10T09:00:00-04:00", "--time-zone", "America/New_York",
                                 "39.4667,-87.4139", try coordinate(places[1])])
            XCTAssertEqual(directions.status, 0, directions.stderr)
            XCTAssertEqual(directions.stdout, route.stdout)
        }
        // The default radius by car (10 km) holds both restaurants, on foot (2 km) the one 1.2 km away; 500 m neither.
        for (mode, count) in [("car", 2), ("foot", 1)] {
            let result = try run(["nearby", "--graph", graph, "--from", "39.4667,-87.4139", "--category", "restaurant", "--mode", mode, "--format", "json"])
            XCTAssertEqual((try object(result.stdout)["places"] as? [Any])?.count, count, mode)
        }
        let none = try run(["nearby", "--graph", graph, "--from", "39.4667,-87.4139", "--category", "restaurant", "--within", "500"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertEqual(none.stdout, "no place of the category within the radius\n")
        let unknown = try run(["nearby", "--graph", graph, "--from", "39.4667,-87.4139", "--category", "restaurnt"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("restaurant"), "suggests the category: \(unknown.stderr)")
    }

    /// A date without an offset is the map's local time in every command and mode: on a graph with a timetable the
    /// feed's zone (America/New_York here), whatever the system's zone (TZ=Asia/Tokyo); `--time-zone` overrides it;
    /// on a graph without a timetable it stays the system's.
    func testEveryCommandReadsDatesInTheMapsZone() throws {
        let graph = try terreHaute()
        let tokyo = ["TZ": "Asia/Tokyo"]
        let stops = ["39.48577,-87.39769", "39.4565472,-87.4164615"]
        func departure(_ arguments: [String], key: String = "expectedDepartureDate") throws -> String {
            let result = try run(arguments, environment: tokyo)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            return try XCTUnwrap(try object(result.stdout)[key] as? String, result.stdout)
        }
        for mode in ["car", "foot"] {
            let local = ["--graph", graph, "--mode", mode, "--depart", "2017-05-10T09:00", "--format", "json"]
            XCTAssertEqual(try departure(["eta"] + local + stops), "2017-05-10T09:00:00-04:00", mode)
            XCTAssertEqual(try departure(["route"] + local + stops), "2017-05-10T09:00:00-04:00", mode)
            XCTAssertEqual(try departure(["nearby", "--graph", graph, "--from", stops[0], "--category", "restaurant", "--mode", mode,
                                          "--depart", "2017-05-10T09:00", "--within", "10000", "--format", "json"]), "2017-05-10T09:00:00-04:00", mode)
            XCTAssertEqual(try departure(["eta"] + local + ["--time-zone", "UTC"] + stops), "2017-05-10T09:00:00+00:00", mode)
        }
        // A transit trip leaves at the first moment it can after 09:00 New York time, not 09:00 in Tokyo (the day before).
        let transit = try departure(["eta", "--graph", graph, "--mode", "transit", "--depart", "2017-05-10T09:00", "--format", "json"] + stops)
        XCTAssertTrue(transit.hasPrefix("2017-05-10T09:") && transit.hasSuffix("-04:00"), transit)
        // Batch jobs and --depart read the same way, car and transit alike, and match eta.
        let jobs = tmp("local.ndjson"), out = tmp("local.out")
        try """
        {"id": "car", "mode": "car", "depart": "2017-05-10T09:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        {"id": "bus", "mode": "transit", "depart": "2017-05-10T09:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        {"id": "default", "mode": "car", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        """.write(toFile: jobs, atomically: true, encoding: .utf8)
        let batch = try run(["batch", "--graph", graph, "--input", jobs, "--output", out, "--quiet", "--depart", "2017-05-11T07:15"], environment: tokyo)
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { try object(String($0)) }
        XCTAssertEqual(rows.map { $0["expectedDepartureDate"] as? String }, ["2017-05-10T09:00:00-04:00", transit, "2017-05-11T07:15:00-04:00"])
        // Without a timetable the map has no zone of its own: the system's.
        let roads = tmp("roads.wfg")
        XCTAssertEqual(try run(["import", sample("terre-haute.osm.gz"), "--no-landmarks", "--no-ch", "-o", roads, "--quiet"]).status, 0)
        XCTAssertEqual(try departure(["eta", "--graph", roads, "--depart", "2017-05-10T09:00", "--format", "json"] + stops), "2017-05-10T09:00:00+09:00")
    }

    /// "Which restaurants can I reach by 10?": `--by` keeps the places reached by then, ranked as without it, and
    /// counts the others; a time not after the departure is refused.
    func testByKeepsThePlacesReachedInTime() throws {
        let graph = try terreHaute()
        let base = ["nearby", "--graph", graph, "--from", "39.49,-87.38", "--category", "restaurant", "--mode", "transit",
                    "--depart", "2017-05-10T09:00", "--within", "10000", "--format", "json"]
        let all = try XCTUnwrap(try object(try run(base).stdout)["places"] as? [[String: Any]])
        let arrivals = all.compactMap { $0["expectedArrivalDate"] as? String }
        XCTAssertEqual(arrivals, ["2017-05-10T09:44:20-04:00", "2017-05-10T10:36:10-04:00"], "the test needs one place before 10:00, one after")
        let byTen = try object(try run(base + ["--by", "2017-05-10T10:00"]).stdout)
        let kept = try XCTUnwrap(byTen["places"] as? [[String: Any]])
        XCTAssertEqual(kept.map { $0["name"] as? String }, [all[0]["name"] as? String])
        XCTAssertEqual(kept.first?["expectedArrivalDate"] as? String, arrivals[0])
        XCTAssertEqual(byTen["reachedLater"] as? Int, 1)
        XCTAssertEqual(byTen["latestArrival"] as? String, "2017-05-10T10:00:00-04:00")
        XCTAssertEqual(try object(try run(base + ["--by", "2017-05-10T11:00"]).stdout)["places"] as? NSArray, all as NSArray)
        let text = try run(Array(base.dropLast(2)) + ["--by", "2017-05-10T09:30"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "no place of the category within the radius is reached by 2017-05-10T09:30:00-04:00 (2 reached later or not at all)\n")
        let directions = try run(Array(base.dropLast(2)) + ["--by", "2017-05-10T10:00", "--directions", "2"])
        XCTAssertEqual(directions.status, 2, "only one place is reached by 10:00")
        let before = try run(base + ["--by", "2017-05-10T08:00"])
        XCTAssertEqual(before.status, 2)
        XCTAssertTrue(before.stderr.contains("is not after the departure"), before.stderr)
    }

    func testETAToCategoryListsTheNearbyPlaces() throws {
        let graph = try terreHaute()
        let list = try run(["eta", "--graph", graph, "--mode", "transit", "--from", "39.49,-87.38", "--to-category", "restaurant", "--within", "10000",
                            "--depart", "2017-05-10T09:00", "--format", "json", "--sort"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let nearby = try object(try run(["nearby", "--graph", graph, "--from", "39.49,-87.38", "--category", "restaurant", "--mode", "transit",
                                         "--within", "10000", "--depart", "2017-05-10T09:00", "--format", "json"]).stdout)
        let places = try XCTUnwrap(nearby["places"] as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["name"] as? String }, places.map { $0["name"] as? String })
        XCTAssertEqual(entries.map { $0["expectedArrivalDate"] as? String }, places.map { $0["expectedArrivalDate"] as? String })
        let both = try run(["eta", "--graph", graph, "--from", "39.49,-87.38", "--to-category", "restaurant", "--to-file", "x.csv"])
        XCTAssertEqual(both.status, 2)
        let within = try run(["eta", "--graph", graph, "--from", "39.49,-87.38", "--to-file", "x.csv", "--within", "100"])
        XCTAssertEqual(within.status, 2)
    }

    func testBatchTransitJobEqualsTheETA() throws {
        let graph = try terreHaute()
        let jobs = tmp("jobs.ndjson"), out = tmp("out.ndjson")
        try """
        {"id": "bus", "mode": "transit", "depart": "2017-05-10T09:00:00-04:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        {"id": "two legs", "mode": "transit", "depart": "2017-05-10T09:00:00-04:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615], [39.4667, -87.4139]]}
        {"id": "off the feed", "mode": "transit", "depart": "2030-05-10T09:00:00-04:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        {"id": "car", "mode": "car", "depart": "2017-05-10T09:00:00-04:00", "stops": [[39.48577, -87.39769], [39.4565472, -87.4164615]]}
        """.write(toFile: jobs, atomically: true, encoding: .utf8)
        for extra in [[], ["--steps", "--geometry", "polyline"]] {
            let result = try run(["batch", "--graph", graph, "--input", jobs, "--output", out, "--quiet", "--time-zone", "America/New_York"] + extra)
            XCTAssertEqual(result.status, 7, result.stderr)
            let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { try object(String($0)) }
            XCTAssertEqual(rows.map { $0["status"] as? String }, ["ok", "ok", "bad_row", "ok"])
            for (row, stops) in zip(rows.prefix(2), [["39.48577,-87.39769", "39.4565472,-87.4164615"],
                                                       ["39.48577,-87.39769", "39.4565472,-87.4164615", "39.4667,-87.4139"]]) {
                let eta = try object(try run(["eta", "--graph", graph, "--mode", "transit", "--depart", "2017-05-10T09:00:00-04:00",
                                              "--time-zone", "America/New_York", "--format", "json"] + stops).stdout)
                for key in ["expectedArrivalDate", "expectedDepartureDate", "expectedTravelTime", "rides", "transfers", "walkingDistance"] {
                    XCTAssertEqual(row[key] as? NSObject, eta[key] as? NSObject, "\(row["id"] ?? ""): \(key)")
                }
                XCTAssertEqual((row["legs"] as? [Any])?.count, stops.count - 1)
                XCTAssertEqual(row["geometry"] != nil, !extra.isEmpty)
                XCTAssertEqual(row["steps"] != nil, !extra.isEmpty)
            }
            XCTAssertTrue((rows[2]["message"] as? String ?? "").contains("outside the feed's service range"), "\(rows[2])")
            XCTAssertNil(rows[3]["rides"], "road rows keep their keys")
        }
    }

    func testBatchTransitJobByNameSaysWhichPlace() throws {
        let graph = try terreHaute()
        let jobs = tmp("named.ndjson"), out = tmp("named.out")
        try #"{"id": "named", "mode": "transit", "depart": "2017-05-10T09:00:00-04:00", "stops": [[39.48577, -87.39769], "Washington School"]}"#
            .write(toFile: jobs, atomically: true, encoding: .utf8)
        let result = try run(["batch", "--graph", graph, "--input", jobs, "--output", out, "--quiet", "--time-zone", "America/New_York"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let row = try object(try String(contentsOfFile: out, encoding: .utf8))
        XCTAssertNotNil(row["rides"], "a transit row")
        let places = try XCTUnwrap(row["places"] as? [Any], "\(row)")
        XCTAssertEqual(places.count, 2)
        XCTAssertTrue(places[0] is NSNull, "the first stop was given as lat,lon")
        XCTAssertEqual((places[1] as? [String: Any])?["name"] as? String, "Washington School")
        let csv = try run(["batch", "--graph", graph, "--input", jobs, "--output", out, "--format", "csv", "--quiet", "--time-zone", "America/New_York"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines[1].hasSuffix(",\"stop 2: Washington School → \"\"Washington School\"\" (school), 39.45404,-87.39836\""), String(lines[1]))
    }
}
