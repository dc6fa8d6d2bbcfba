import Foundation
import XCTest
import Graph
@testable import Wayfinder

/// `LocalSearch` on imported maps: names found with a typo, the category filter, ranking by distance, GTFS stops,
/// searches from many threads at once, and the errors of bad requests and of files without a place index.
final class LocalSearchTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-localsearch-\(getpid())")
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let lock = NSLock()
    nonisolated(unsafe) static var maps: [String: OfflineMap] = [:]

    /// `osm` (and `gtfs`) of `Data/` imported once through `MapImporter`, without landmarks or hierarchies.
    static func map(_ osm: String, gtfs: String? = nil) throws -> OfflineMap {
        lock.lock(); defer { lock.unlock() }
        if let map = maps[osm] { return map }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var options = MapImporter.Options()
        options.landmarks = false
        options.contractionHierarchies = false
        options.transitFeeds = gtfs.map { [root.appendingPathComponent("Data/\($0)").path] } ?? []
        let output = folder.appendingPathComponent(osm + ".wfg")
        let report = try MapImporter(options: options).run(input: root.appendingPathComponent("Data/\(osm)").path, output: output.path)
        XCTAssertGreaterThan(report.placesIndexed, 0)
        let map = try OfflineMap(contentsOf: output)
        maps[osm] = map
        return map
    }

    override class func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func testRestaurantFoundWithOneTypo() throws {
        let map = try Self.map("monaco.osm.gz")
        let items = try LocalSearch(LocalSearchRequest(naturalLanguageQuery: "Vechia Firenze"), map: map).start().mapItems
        let first = try XCTUnwrap(items.first)
        XCTAssertEqual(first.name, "Vecchia Firenze")
        XCTAssertEqual(first.category, "restaurant")
        XCTAssertEqual(first.source, .node)
        XCTAssertEqual(first.osmID, 1661139837)
        XCTAssertEqual(first.coordinate.latitude, 43.7326831, accuracy: 1e-6)
        XCTAssertNil(first.distance)
    }

    func testCategoryFilterAndNearRanking() throws {
        let map = try Self.map("monaco.osm.gz")
        let near = Coordinate(latitude: 43.7336948, longitude: 7.4203091)  // Planet Pasta
        let items = try LocalSearch(LocalSearchRequest(naturalLanguageQuery: "", category: "restaurant", near: near, limit: 5), map: map)
            .start().mapItems
        XCTAssertEqual(items.count, 5)
        XCTAssertTrue(items.allSatisfy { $0.category == "restaurant" })
        XCTAssertEqual(items.first?.name, "Planet Pasta")
        let distances = items.compactMap(\.distance)
        XCTAssertEqual(distances.count, 5)
        XCTAssertEqual(try XCTUnwrap(distances.first), 0, accuracy: 1e-6, "the place at the point itself")
        XCTAssertTrue(distances.allSatisfy { $0 < 500 }, "the five nearest of Monaco's restaurants: \(distances)")
        // Far away, the same search answers other restaurants.
        let west = Coordinate(latitude: 43.7231732, longitude: 7.3893896)
        let far = try XCTUnwrap(LocalSearch(LocalSearchRequest(naturalLanguageQuery: "", category: "restaurant", near: west, limit: 1), map: map)
            .start().mapItems.first)
        XCTAssertNotEqual(far.name, "Planet Pasta")
        XCTAssertLessThan(try XCTUnwrap(far.distance), near.distance(to: west))
        XCTAssertEqual(items.first.map { $0.address }, "Rue Imberty 6")
        let categories = try map.placeCategories
        let restaurants = try XCTUnwrap(categories.first { $0.value == "restaurant" })
        XCTAssertGreaterThanOrEqual(restaurants.count, 15)
        XCTAssertEqual(categories.map(\.count), categories.map(\.count).sorted(by: >))
    }

    func testGTFSStopsAreFound() throws {
        let map = try Self.map("terre-haute.osm.gz", gtfs: "terre-haute-gtfs.zip")
        let items = try LocalSearch(LocalSearchRequest(naturalLanguageQuery: "", category: "gtfs=stop", limit: 3), map: map).start().mapItems
        XCTAssertEqual(items.count, 3)
        for item in items {
            XCTAssertEqual(item.source, .transitStop)
            XCTAssertNotNil(item.stopID)
            XCTAssertFalse(item.name.isEmpty)
            // The stop's own name finds it again.
            let again = try LocalSearch(LocalSearchRequest(naturalLanguageQuery: item.name, limit: 50), map: map).start().mapItems
            XCTAssertTrue(again.contains { $0.stopID == item.stopID }, item.name)
        }
    }

    func testSearchesFromManyThreadsAgree() throws {
        let map = try Self.map("monaco.osm.gz")
        let queries = ["Vecchia Firenze", "Planet Pasta", "pizza", "Casino", "My Sushi", "Chez Edgar"]
        let expected = try queries.map { try LocalSearch(LocalSearchRequest(naturalLanguageQuery: $0), map: map).start() }
        final class Results: @unchecked Sendable { var values = [[LocalSearchResponse?]](repeating: [], count: 8); let lock = NSLock() }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            var mine: [LocalSearchResponse?] = []
            for _ in 0..<5 { for q in queries { mine.append(try? LocalSearch(LocalSearchRequest(naturalLanguageQuery: q), map: map).start()) } }
            results.lock.lock(); results.values[t] = mine; results.lock.unlock()
        }
        for values in results.values {
            XCTAssertEqual(values, Array(repeating: expected.map(Optional.some), count: 5).flatMap { $0 })
        }
    }

    func testBadRequestsAndFilesWithoutIndex() throws {
        let map = try Self.map("monaco.osm.gz")
        func error(_ request: LocalSearchRequest, on map: OfflineMap) -> LocalSearchError? {
            do { _ = try LocalSearch(request, map: map).start(); return nil } catch { return error }
        }
        XCTAssertEqual(error(LocalSearchRequest(naturalLanguageQuery: "x", limit: 0), on: map), .limitOutOfRange(0))
        XCTAssertEqual(error(LocalSearchRequest(naturalLanguageQuery: "x", near: Coordinate(latitude: 91, longitude: 0)), on: map),
                       .nearOutOfRange(Coordinate(latitude: 91, longitude: 0)))
        XCTAssertEqual(error(LocalSearchRequest(naturalLanguageQuery: " "), on: map), .emptyQuery)
        guard case .unknownCategory("restaurent", let suggestions)? = error(LocalSearchRequest(naturalLanguageQuery: "", category: "restaurent"), on: map) else {
            return XCTFail("an unknown category is refused")
        }
        XCTAssertTrue(suggestions.contains("restaurant"), "\(suggestions)")
        // A file written without the place index (the engine importer alone, as older versions did).
        let old = Self.folder.appendingPathComponent("old.wfg")
        _ = try GraphImporter().run(input: Self.root.appendingPathComponent("Data/monaco.osm.gz").path, output: old.path)
        let oldMap = try OfflineMap(contentsOf: old)
        XCTAssertFalse(oldMap.hasPlaceIndex)
        guard case .noPlaceIndex? = error(LocalSearchRequest(naturalLanguageQuery: "pizza"), on: oldMap) else { return XCTFail("no index") }
        XCTAssertThrowsError(try oldMap.placeCategories) { XCTAssertTrue("\($0)".contains("import it again"), "\($0)") }
    }
}
