import Foundation
import XCTest
import Graph
@testable import Wayfinder

/// The map handle: shared between threads, released with its last reference, async requests and their
/// cancellation, each stop snapped once, and the trip shapes.
final class OfflineMapTests: XCTestCase {
    typealias D = DirectionsAPITests
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-offlinemaptests-\(getpid())")
    static let lock = NSLock()
    nonisolated(unsafe) static var imported = false

    /// Monaco imported once into this class's own folder (tests here open it several times).
    static var monacoFile: URL {
        get throws {
            lock.lock()
            defer { lock.unlock() }
            let output = folder.appendingPathComponent("monaco.wfg")
            if imported { return output }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try GraphImporter().run(input: root.appendingPathComponent("Data/monaco.osm.gz").path, output: output.path)
            imported = true
            return output
        }
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func request(_ stops: [Coordinate], _ mode: TransportType = .automobile) -> DirectionsRequest {
        DirectionsRequest(stops: stops, transportType: mode, departureDate: D.morning, timeZone: D.monacoZone)
    }

    func testOneFreshMapSharedBetweenThreadsAnswersAsOneThreadDoes() throws {
        let stops = [D.casino, D.port, D.fontvieille, D.larvotto]
        var requests: [DirectionsRequest] = []
        for mode in [TransportType.automobile, .walking] {
            for a in stops { for b in stops where a != b { requests.append(request([a, b], mode)) } }
        }
        let expected = try requests.map { try Directions($0, map: OfflineMap(contentsOf: try Self.monacoFile)).calculate().routes }
        // A fresh map: its routers are built by whichever threads ask first, at the same time.
        let shared = try OfflineMap(contentsOf: try Self.monacoFile)
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var routes: [Int: [Route]] = [:]
        }
        let results = Results()
        let all = requests
        DispatchQueue.concurrentPerform(iterations: all.count * 4) { k in
            let i = k % all.count
            guard let routes = try? Directions(all[i], map: shared).calculate().routes else { return }
            results.lock.lock(); results.routes[i] = routes; results.lock.unlock()
        }
        for i in requests.indices { XCTAssertEqual(results.routes[i], expected[i], "request \(i)") }
    }

    func testTheMapAndItsFileGoWithTheLastReference() throws {
        weak var weakMap: OfflineMap?
        weak var weakFile: AnyObject?
        do {
            let map = try OfflineMap(contentsOf: try Self.monacoFile)
            weakMap = map
            weakFile = map.graph.file
            // Every kind of request, so every router and cache the map has is built.
            _ = try Directions(request([D.casino, D.port]), map: map).calculate()
            _ = try Directions(request([D.casino, D.port], .walking), map: map).calculateETA()
            let places = [ETAPlace(name: "a", coordinate: D.casino), ETAPlace(name: "b", coordinate: D.port)]
            _ = try Matrix(MatrixRequest(sources: places, destinations: places), map: map).calculate()
            _ = try Trip(TripRequest(stops: [D.casino, D.port, D.fontvieille]), map: map).calculate()
            _ = try ETAList(ETAListRequest(origin: D.casino, places: places), map: map).calculate()
            XCTAssertNotNil(weakMap)
        }
        XCTAssertNil(weakMap, "no global cache keeps the map")
        XCTAssertNil(weakFile, "the graph file is unmapped with the map")
    }

    func testAsyncRequestsAnswerAsTheSynchronousOnes() async throws {
        let map = try D.monaco()
        // (In an async context the async overloads are chosen; a plain closure calls the synchronous ones.)
        let sync = try { try Directions(self.request([D.casino, D.port, D.fontvieille]), map: map).calculate() }()
        let async = try await Directions(request([D.casino, D.port, D.fontvieille]), map: map).calculate()
        XCTAssertEqual(sync, async)
        let places = [ETAPlace(name: "a", coordinate: D.casino), ETAPlace(name: "b", coordinate: D.larvotto)]
        let matrix = try await Matrix(MatrixRequest(sources: places, destinations: places), map: map).calculate()
        let syncMatrix = try { try Matrix(MatrixRequest(sources: places, destinations: places), map: map).calculate() }()
        XCTAssertEqual(matrix.matrix, syncMatrix.matrix)
        let eta = try await Directions(request([D.casino, D.port]), map: map).calculateETA()
        XCTAssertEqual(eta.expectedTravelTime, sync.routes[0].legs[0].expectedTravelTime, accuracy: 1e-9)
    }

    func testACancelledTaskStopsWithCancelled() async throws {
        let map = try D.monaco()
        let stops = [D.casino, D.port, D.fontvieille, D.larvotto]
        let places = stops.map { ETAPlace(name: "", coordinate: $0) }
        func failure(_ body: () async throws(DirectionsError) -> Void) async -> DirectionsError? {
            do { try await body(); return nil } catch { return error }
        }
        let request = self.request(stops)
        let task = Task { () -> [DirectionsError?] in
            withUnsafeCurrentTask { $0?.cancel() }
            return [
                await failure { () async throws(DirectionsError) in _ = try await Directions(request, map: map).calculate() },
                await failure { () async throws(DirectionsError) in _ = try await Trip(TripRequest(stops: stops), map: map).calculate() },
                await failure { () async throws(DirectionsError) in _ = try await Matrix(MatrixRequest(sources: places, destinations: places), map: map).calculate() },
                await failure { () async throws(DirectionsError) in _ = try await ETAList(ETAListRequest(origin: D.casino, places: places), map: map).calculate() },
            ]
        }
        let errors = await task.value
        XCTAssertEqual(errors, [DirectionsError.cancelled, .cancelled, .cancelled, .cancelled])
        // The same map answers the next, uncancelled request.
        XCTAssertNoThrow(try { try Directions(request, map: map).calculate() }())
    }

    #if DEBUG
    func testEachStopIsSnappedOnce() throws {
        let map = try OfflineMap(contentsOf: try Self.monacoFile)
        func snaps(_ body: () throws -> Void) rethrows -> Int {
            let before = map.snapCount
            try body()
            return map.snapCount - before
        }
        let stops = [D.casino, D.port, D.fontvieille, D.larvotto]
        XCTAssertEqual(try snaps { _ = try Directions(request(stops), map: map).calculate() }, 4)
        XCTAssertEqual(try snaps { _ = try Directions(request(stops), map: map).calculateETA() }, 4)
        XCTAssertEqual(try snaps { _ = try Trip(TripRequest(stops: stops, shape: .roundtrip), map: map).calculate() }, 4)
        let places = stops.map { ETAPlace(name: "", coordinate: $0) }
        XCTAssertEqual(try snaps { _ = try Matrix(MatrixRequest(sources: Array(places.prefix(2)), destinations: places), map: map).calculate() }, 6)
        XCTAssertEqual(try snaps { _ = try ETAList(ETAListRequest(origin: D.casino, places: places), map: map).calculate() }, 5)
        // Snapped places are routed as they are.
        let snapped = try map.snap(stops)
        XCTAssertEqual(try snaps { _ = try Directions(DirectionsRequest(snappedStops: snapped), map: map).calculate() }, 0)
        var trip = TripRequest(stops: stops)
        trip.snappedStops = snapped
        XCTAssertEqual(try snaps { _ = try Trip(trip, map: map).calculate() }, 0)
        XCTAssertEqual(try snaps { _ = try map.matrix(from: snapped, to: snapped) }, 0)
    }
    #endif

    func testSnappedPlacesAndRadii() throws {
        let map = try D.monaco()
        let snapped = try map.snap([D.casino, D.port])
        XCTAssertEqual(snapped.map(\.query), [D.casino, D.port])
        XCTAssertTrue(snapped.allSatisfy { $0.distance < 100 && $0.transportType == .automobile })
        // The port stop lies some 30 m off the road: a 10 m radius for it alone refuses it, naming it.
        XCTAssertThrowsError(try map.snap([D.casino, D.port], radii: [1000, 10])) { error in
            XCTAssertEqual(error as? DirectionsError, .routing(.noRoad(stop: 1, coordinate: D.port, profile: "car", maxDistance: 10)))
        }
        var request = request([D.casino, D.port])
        request.stopRadii = [1000, 10]
        XCTAssertThrowsError(try Directions(request, map: map).calculate())
        // A place snapped for one mode is not routed by another.
        var walking = DirectionsRequest(snappedStops: snapped)
        walking.transportType = .walking
        XCTAssertThrowsError(try Directions(walking, map: map).calculate()) { error in
            guard case .unsupported = error as? DirectionsError else { return XCTFail("\(error)") }
        }
        XCTAssertNil(try map.snap(D.sea))
        let nearest = try map.nearestRoads(to: D.casino, count: 3)
        XCTAssertEqual(nearest.count, 3)
        XCTAssertEqual(nearest[0].waypoint.location, snapped[0].location)
        XCTAssertTrue(zip(nearest, nearest.dropFirst()).allSatisfy { $0.waypoint.snappingDistance <= $1.waypoint.snappingDistance })
    }

    func testTripShapes() throws {
        // Four stops on a line 0 - 2 - 1 - 3 (times are distances).
        let position = [0.0, 2, 1, 3]
        let time: (Int, Int) -> Double? = { abs(position[$0] - position[$1]) }
        let round = Trip.order(count: 4, shape: .roundtrip, keepsFirstStop: true, time: time)
        XCTAssertEqual(round.first, 0)
        XCTAssertEqual(Set(round), [0, 1, 2, 3])
        XCTAssertEqual(zip(round, round.dropFirst() + [round[0]]).reduce(0) { $0 + time($1.0, $1.1)! }, 6)
        XCTAssertEqual(Trip.order(count: 4, shape: .endFixed, keepsFirstStop: true, time: time), [0, 2, 1, 3])
        let free = Trip.order(count: 4, shape: .endFixed, keepsFirstStop: false, time: time)
        XCTAssertEqual(free.last, 3)
        XCTAssertEqual(Set(free), [0, 1, 2, 3])
        XCTAssertEqual(zip(free, free.dropFirst()).reduce(0) { $0 + time($1.0, $1.1)! }, 3, "starting anywhere, the line is walked once")
    }
}
