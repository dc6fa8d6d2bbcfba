import Foundation
import XCTest
import Graph
import Routing
import Wayfinder

/// The MapKit-shaped Swift API on Monaco (Data/monaco.osm.gz, imported once into a temporary folder):
/// requests, dates, modes, ETAs, bounding boxes, errors and concurrent use.
final class DirectionsAPITests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-directionstests-\(getpid())")
    nonisolated(unsafe) static var cached: OfflineMap?
    static let lock = NSLock()

    /// The Monaco graph, imported on first use.
    static func monaco() throws -> OfflineMap {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("monaco.wfg")
        _ = try GraphImporter().run(input: root.appendingPathComponent("Data/monaco.osm.gz").path, output: output.path)
        let graph = try OfflineMap(contentsOf: output)
        cached = graph
        return graph
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// Stops in Monaco: near the Casino, by the port (30 m off the road), in Fontvieille, up by the Larvotto.
    static let casino = Coordinate(latitude: 43.7395, longitude: 7.4270)
    static let port = Coordinate(latitude: 43.7312, longitude: 7.4197)
    static let fontvieille = Coordinate(latitude: 43.7275, longitude: 7.4150)
    static let larvotto = Coordinate(latitude: 43.7450, longitude: 7.4330)
    /// Open sea, kilometres from any road.
    static let sea = Coordinate(latitude: 43.70, longitude: 7.45)
    static let monacoZone = TimeZone(identifier: "Europe/Monaco")!
    /// 2026-12-01T08:30:00+01:00.
    static let morning = Date(timeIntervalSince1970: 1_796_110_200)

    func request(_ stops: [Coordinate], _ mode: TransportType = .automobile, departure: Date? = morning, arrival: Date? = nil,
                 alternatives: Bool = false) -> DirectionsRequest {
        DirectionsRequest(stops: stops, transportType: mode, departureDate: departure, arrivalDate: arrival,
                          requestsAlternateRoutes: alternatives, timeZone: Self.monacoZone)
    }

    func directionsError(_ body: () throws -> Any) -> DirectionsError? {
        do { _ = try body(); return nil } catch let error as DirectionsError { return error } catch { return nil }
    }

    // MARK: Dates

    func testDepartureDateGivesTheArrival() throws {
        let graph = try Self.monaco()
        let response = try Directions(request([Self.casino, Self.port]), map: graph).calculate()
        let route = try XCTUnwrap(response.routes.first)
        XCTAssertGreaterThan(route.expectedTravelTime, 30)
        XCTAssertEqual(response.expectedDepartureDate, Self.morning)
        XCTAssertEqual(response.expectedArrivalDate.timeIntervalSince(Self.morning), route.expectedTravelTime, accuracy: 1e-6)
        XCTAssertEqual(response.mode, "car")
        XCTAssertEqual(response.timeZone, Self.monacoZone)
        XCTAssertFalse(response.straightLines)
    }

    func testArrivalDateWorksBackTheDeparture() throws {
        let graph = try Self.monaco()
        let response = try Directions(request([Self.casino, Self.port], departure: nil, arrival: Self.morning), map: graph).calculate()
        let time = response.routes[0].expectedTravelTime
        XCTAssertEqual(response.expectedArrivalDate, Self.morning)
        XCTAssertEqual(Self.morning.timeIntervalSince(response.expectedDepartureDate), time, accuracy: 1e-6)
        // The same trip as when leaving at a given time.
        let forward = try Directions(request([Self.casino, Self.port]), map: graph).calculate()
        XCTAssertEqual(forward.routes[0].expectedTravelTime, time, accuracy: 1e-9)
        // Alternatives of an arrive-by request arrive at the same time, each leaving its own travel time earlier.
        let choices = try Directions(request([Self.fontvieille, Self.larvotto], departure: nil, arrival: Self.morning, alternatives: true),
                                     map: graph).calculate()
        for index in choices.routes.indices {
            let dates = choices.expectedDates(forRoute: index)
            XCTAssertEqual(dates.arrival, Self.morning, "route \(index)")
            XCTAssertEqual(dates.arrival.timeIntervalSince(dates.departure), choices.routes[index].expectedTravelTime, accuracy: 1e-6)
        }
        let eta = try Directions(request([Self.casino, Self.port], departure: nil, arrival: Self.morning), map: graph).calculateETA()
        XCTAssertEqual(eta.expectedArrivalDate, Self.morning)
        XCTAssertEqual(eta.expectedDepartureDate, response.expectedDepartureDate)
    }

    func testConflictingDatesAreAnError() throws {
        let graph = try Self.monaco()
        let both = request([Self.casino, Self.port], departure: Self.morning, arrival: Self.morning.addingTimeInterval(600))
        XCTAssertEqual(directionsError { try Directions(both, map: graph).calculate() }, .conflictingDates)
        XCTAssertEqual(directionsError { try Directions(both, map: graph).calculateETA() }, .conflictingDates)
        XCTAssertEqual(DirectionsError.conflictingDates.description, "give a departure date or an arrival date, not both")
    }

    func testWithoutDatesTheTripLeavesNow() throws {
        let graph = try Self.monaco()
        let before = Date()
        let response = try Directions(request([Self.casino, Self.port], departure: nil), map: graph).calculate()
        let after = Date()
        XCTAssertGreaterThanOrEqual(response.expectedDepartureDate, before)
        XCTAssertLessThanOrEqual(response.expectedDepartureDate, after)
        XCTAssertEqual(response.expectedArrivalDate.timeIntervalSince(response.expectedDepartureDate), response.routes[0].expectedTravelTime, accuracy: 1e-6)
    }

    // MARK: Modes, legs, ETAs

    func testWalkingAndDriving() throws {
        let graph = try Self.monaco()
        let drive = try Directions(request([Self.casino, Self.fontvieille], .automobile), map: graph).calculate()
        let walk = try Directions(request([Self.casino, Self.fontvieille], .walking), map: graph).calculate()
        XCTAssertEqual(drive.mode, "car")
        XCTAssertEqual(walk.mode, "foot")
        XCTAssertEqual(TransportType.automobile.profileName, "car")
        XCTAssertEqual(TransportType.walking.profileName, "foot")
        let car = drive.routes[0], foot = walk.routes[0]
        XCTAssertGreaterThan(foot.expectedTravelTime, 3 * car.expectedTravelTime, "walking is much slower")
        // No walker is faster than 5 km/h (edge times are whole milliseconds), no car faster than 130 km/h.
        XCTAssertGreaterThanOrEqual(foot.expectedTravelTime, 0.999 * foot.distance / (5 / 3.6))
        XCTAssertGreaterThanOrEqual(car.expectedTravelTime, car.distance / (130 / 3.6))
        // Both go about as far as the stops lie apart, and a bit more.
        let crow = Self.casino.distance(to: Self.fontvieille)
        for route in [car, foot] {
            XCTAssertGreaterThan(route.distance, crow - 200)
            XCTAssertLessThan(route.distance, 3 * crow)
            XCTAssertFalse(route.steps.isEmpty)
        }
    }

    func testMultiStopRoute() throws {
        let graph = try Self.monaco()
        let response = try Directions(request([Self.casino, Self.port, Self.fontvieille]), map: graph).calculate()
        let route = response.routes[0]
        XCTAssertEqual(route.legs.count, 2)
        XCTAssertEqual(route.distance, route.legs.reduce(0) { $0 + $1.distance }, accuracy: 1e-6)
        XCTAssertEqual(route.expectedTravelTime, route.legs.reduce(0) { $0 + $1.expectedTravelTime }, accuracy: 1e-6)
        XCTAssertEqual(response.waypoints.count, 3)
        for (waypoint, stop) in zip(response.waypoints, [Self.casino, Self.port, Self.fontvieille]) {
            XCTAssertEqual(waypoint.query, stop)
            XCTAssertEqual(waypoint.snappingDistance, waypoint.query.distance(to: waypoint.location), accuracy: 1e-6)
            XCTAssertLessThan(waypoint.snappingDistance, 100)
        }
        // Each leg runs from its stop's snapped location to the next one's.
        for (l, leg) in route.legs.enumerated() {
            XCTAssertEqual(leg.geometry.first!.distance(to: response.waypoints[l].location), 0, accuracy: 0.01)
            XCTAssertEqual(leg.geometry.last!.distance(to: response.waypoints[l + 1].location), 0, accuracy: 0.01)
            XCTAssertEqual(leg.steps.first?.maneuver, .depart)
            XCTAssertEqual(leg.steps.last?.maneuver, .arrive)
        }
        // Legs are searched on their own: the same as two separate requests.
        let first = try Directions(request([Self.casino, Self.port]), map: graph).calculate().routes[0]
        let second = try Directions(request([Self.port, Self.fontvieille]), map: graph).calculate().routes[0]
        XCTAssertEqual(route.legs[0].expectedTravelTime, first.expectedTravelTime, accuracy: 1e-9)
        XCTAssertEqual(route.legs[1].expectedTravelTime, second.expectedTravelTime, accuracy: 1e-9)
    }

    func testETAMatchesTheDirections() throws {
        let graph = try Self.monaco()
        let directions = Directions(request([Self.casino, Self.larvotto], alternatives: true), map: graph)
        let eta = try directions.calculateETA()
        let response = try directions.calculate()
        XCTAssertEqual(eta.expectedTravelTime, response.routes[0].expectedTravelTime, accuracy: 1e-9)
        XCTAssertEqual(eta.distance, response.routes[0].distance, accuracy: 1e-9)
        XCTAssertEqual(eta.expectedDepartureDate, Self.morning)
        XCTAssertEqual(eta.expectedArrivalDate, Self.morning.addingTimeInterval(eta.expectedTravelTime))
        XCTAssertEqual(eta.timeZone, Self.monacoZone)
    }

    /// `calculateETA` takes its own path (`Router.eta`, no geometry or steps): its totals, legs and dates are those
    /// of `calculate`'s best route exactly, for both modes, several legs, an arrival date and straight lines.
    func testETAPathEqualsTheFullRouteExactly() throws {
        let graph = try Self.monaco()
        var requests = [request([Self.casino, Self.port, Self.fontvieille]), request([Self.larvotto, Self.fontvieille], .walking),
                        request([Self.port, Self.larvotto], departure: nil, arrival: Self.morning)]
        var straight = request([Self.casino, Self.fontvieille, Self.larvotto])
        straight.straightLines = true
        requests.append(straight)
        for single in requests {
            let directions = Directions(single, map: graph)
            let eta = try directions.calculateETA()
            let route = try directions.calculate().routes[0]
            XCTAssertEqual(eta.distance, route.distance)
            XCTAssertEqual(eta.expectedTravelTime, route.expectedTravelTime)
            XCTAssertEqual(eta.legDistances, route.legs.map(\.distance))
            XCTAssertEqual(eta.legTravelTimes, route.legs.map(\.expectedTravelTime))
            if let arrival = single.arrivalDate {
                XCTAssertEqual(eta.expectedArrivalDate, arrival)
                XCTAssertEqual(eta.expectedDepartureDate, arrival.addingTimeInterval(-route.expectedTravelTime))
            } else {
                XCTAssertEqual(eta.expectedArrivalDate, Self.morning.addingTimeInterval(route.expectedTravelTime))
            }
        }
        // Errors are the same as the full route's.
        XCTAssertEqual(directionsError { try Directions(self.request([Self.casino, Self.sea]), map: graph).calculateETA() },
                       directionsError { try Directions(self.request([Self.casino, Self.sea]), map: graph).calculate() })
    }

    func testAlternativesAreNotMuchSlower() throws {
        let graph = try Self.monaco()
        let response = try Directions(request([Self.fontvieille, Self.larvotto], alternatives: true), map: graph).calculate()
        XCTAssertGreaterThanOrEqual(response.routes.count, 1)
        XCTAssertLessThanOrEqual(response.routes.count, 3, "at most maximumAlternateRoutes (2) besides the best")
        for route in response.routes.dropFirst() {
            XCTAssertLessThanOrEqual(route.expectedTravelTime, 1.4 * response.routes[0].expectedTravelTime)
            XCTAssertNotEqual(route.polyline, response.routes[0].polyline)
        }
        let plain = try Directions(request([Self.fontvieille, Self.larvotto]), map: graph).calculate()
        XCTAssertEqual(plain.routes.count, 1)
        XCTAssertEqual(plain.routes[0], response.routes[0])
    }

    func testStraightLines() throws {
        let graph = try Self.monaco()
        var lines = request([Self.casino, Self.sea])
        lines.straightLines = true
        let response = try Directions(lines, map: graph).calculate()
        XCTAssertTrue(response.straightLines)
        XCTAssertEqual(response.routes[0].distance, Self.casino.distance(to: Self.sea), accuracy: 0.001)
        XCTAssertEqual(response.routes[0].polyline.first, Self.casino)
        XCTAssertEqual(response.routes[0].polyline.last, Self.sea)
    }

    // MARK: Bounding boxes

    func testBoundingBoxContainsTheRouteAndPaddingGrowsIt() throws {
        let graph = try Self.monaco()
        let response = try Directions(request([Self.fontvieille, Self.casino, Self.larvotto]), map: graph).calculate()
        let route = response.routes[0], box = route.boundingBox
        for point in route.polyline { XCTAssertTrue(contains(box, point), "\(point) outside \(box)") }
        for waypoint in response.waypoints { XCTAssertTrue(contains(box, waypoint.location)) }
        // Tight: the box's edges touch the route.
        XCTAssertEqual(box.minLatitude, route.polyline.map(\.latitude).min()!)
        XCTAssertEqual(box.maxLatitude, route.polyline.map(\.latitude).max()!)
        XCTAssertEqual(box.minLongitude, route.polyline.map(\.longitude).min()!)
        XCTAssertEqual(box.maxLongitude, route.polyline.map(\.longitude).max()!)
        for leg in route.legs {
            for point in leg.geometry { XCTAssertTrue(contains(leg.boundingBox, point)) }
            XCTAssertTrue(contains(box, leg.boundingBox))
        }
        let padded = box.padded()
        XCTAssertTrue(contains(padded, box))
        XCTAssertLessThan(padded.minLatitude, box.minLatitude)
        XCTAssertGreaterThan(padded.maxLatitude, box.maxLatitude)
        XCTAssertLessThan(padded.minLongitude, box.minLongitude)
        XCTAssertGreaterThan(padded.maxLongitude, box.maxLongitude)
        // 10 % of the box's height on each side (it is far more than 50 m).
        let height = box.maxLatitude - box.minLatitude
        XCTAssertEqual(box.minLatitude - padded.minLatitude, 0.1 * height, accuracy: 1e-9)
        let wider = box.padded(by: 0.5)
        XCTAssertTrue(contains(wider, padded))
        XCTAssertEqual(wider.maxLatitude - box.maxLatitude, 0.5 * height, accuracy: 1e-9)
        // A point's box grows by the minimum (50 m) on every side.
        let point = BoundingBox([Self.casino])!
        let grown = point.padded()
        XCTAssertEqual(Coordinate(latitude: grown.minLatitude, longitude: Self.casino.longitude).distance(to: Self.casino), 50, accuracy: 0.01)
        XCTAssertEqual(Coordinate(latitude: Self.casino.latitude, longitude: grown.maxLongitude).distance(to: Self.casino), 50, accuracy: 0.01)
    }

    func contains(_ box: BoundingBox, _ point: Coordinate) -> Bool {
        box.minLatitude <= point.latitude && point.latitude <= box.maxLatitude && box.minLongitude <= point.longitude && point.longitude <= box.maxLongitude
    }

    func contains(_ outer: BoundingBox, _ inner: BoundingBox) -> Bool {
        contains(outer, Coordinate(latitude: inner.minLatitude, longitude: inner.minLongitude))
            && contains(outer, Coordinate(latitude: inner.maxLatitude, longitude: inner.maxLongitude))
    }

    // MARK: Errors

    func testErrorsNameTheStop() throws {
        let graph = try Self.monaco()
        XCTAssertEqual(directionsError { try Directions(request([Self.casino, Self.sea]), map: graph).calculate() },
                       .routing(.noRoad(stop: 1, coordinate: Self.sea, profile: "car", maxDistance: 1000)))
        XCTAssertEqual(directionsError { try Directions(request([Self.sea, Self.casino], .walking), map: graph).calculateETA() },
                       .routing(.noRoad(stop: 0, coordinate: Self.sea, profile: "foot", maxDistance: 1000)))
        XCTAssertEqual(directionsError { try Directions(request([Self.casino]), map: graph).calculate() }, .routing(.tooFewStops(1)))
        let bad = Coordinate(latitude: 91, longitude: 7)
        XCTAssertEqual(directionsError { try Directions(request([Self.casino, bad]), map: graph).calculate() },
                       .routing(.invalidCoordinate(stop: 1, bad)))
        // The snapping limit is the request's: the port stop lies about 30 m off the road.
        var strict = request([Self.casino, Self.port])
        strict.maximumSnappingDistance = 10
        XCTAssertEqual(directionsError { try Directions(strict, map: graph).calculate() },
                       .routing(.noRoad(stop: 1, coordinate: Self.port, profile: "car", maxDistance: 10)))
        let description = DirectionsError.routing(.noRoad(stop: 1, coordinate: Self.sea, profile: "car", maxDistance: 1000)).description
        XCTAssertTrue(description.contains("stop 2 (43.700000,7.450000)"), description)
    }

    func testModeMissingFromTheGraph() throws {
        let output = Self.folder.appendingPathComponent("monaco-car.wfg")
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        _ = try GraphImporter(profiles: [.car]).run(input: root.appendingPathComponent("Data/monaco.osm.gz").path, output: output.path)
        let carOnly = try OfflineMap(contentsOf: output)
        XCTAssertEqual(carOnly.transportTypes, [.automobile])
        XCTAssertEqual(directionsError { try Directions(request([Self.casino, Self.port], .walking), map: carOnly).calculate() },
                       .routing(.unknownProfile("foot", available: ["car"])))
        XCTAssertNoThrow(try Directions(request([Self.casino, Self.port], .automobile), map: carOnly).calculate())
    }

    // MARK: Graph files and threads

    func testOfflineMapContentsOf() throws {
        let graph = try Self.monaco()
        let reopened = try OfflineMap(contentsOf: Self.folder.appendingPathComponent("monaco.wfg"))
        XCTAssertEqual(reopened.info.nodeCount, graph.info.nodeCount)
        XCTAssertEqual(reopened.info.edgeCount, graph.info.edgeCount)
        XCTAssertEqual(reopened.info.profiles.map(\.name), ["car", "foot"])
        XCTAssertEqual(reopened.transportTypes, [.automobile, .walking])
        // A second map of the same file answers the same.
        let a = try Directions(request([Self.casino, Self.port]), map: graph).calculate()
        let b = try Directions(request([Self.casino, Self.port]), map: reopened).calculate()
        XCTAssertEqual(a, b)
        XCTAssertThrowsError(try OfflineMap(contentsOf: Self.folder.appendingPathComponent("missing.wfg")))
    }

    func testConcurrentQueriesMatchSequentialOnes() throws {
        let graph = try Self.monaco()
        let stops = [Self.casino, Self.port, Self.fontvieille, Self.larvotto]
        var requests: [DirectionsRequest] = []
        for mode in TransportType.allCases where mode != .transit {   // transit needs a graph with a timetable
            for a in stops {
                for b in stops where a != b { requests.append(request([a, b], mode)) }
            }
        }
        let sequential = try requests.map { try Directions($0, map: graph).calculate() }
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var values: [Int: RouteResult] = [:]
            var failures: [String] = []
        }
        let results = Results()
        let work = requests
        DispatchQueue.concurrentPerform(iterations: work.count * 2) { i in
            let index = i % work.count
            do {
                let response = try Directions(work[index], map: graph).calculate()
                results.lock.lock()
                if let earlier = results.values[index], earlier != response { results.failures.append("request \(index) differs between runs") }
                results.values[index] = response
                results.lock.unlock()
            } catch {
                results.lock.lock(); results.failures.append("request \(index): \(error)"); results.lock.unlock()
            }
        }
        XCTAssertEqual(results.failures, [])
        XCTAssertEqual(results.values.count, requests.count)
        for (index, expected) in sequential.enumerated() {
            XCTAssertEqual(results.values[index], expected, "request \(index)")
        }
    }
}
