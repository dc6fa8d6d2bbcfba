import Foundation
import XCTest
import Server
import Wayfinder

/// `/search/v1`: Photon-shaped GeoJSON answers on Monaco (typo, category, near ranking) and OSRM-style 400s for
/// bad parameters; a graph without the place index says so.
final class SearchEndpointTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-searchendpoint-\(getpid())")
    static let lock = NSLock()
    nonisolated(unsafe) static var cached: WayfinderService?

    /// Monaco imported through `MapImporter` (with its place index), served.
    static func service() throws -> WayfinderService {
        lock.lock(); defer { lock.unlock() }
        if let cached { return cached }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var options = MapImporter.Options()
        options.landmarks = false
        let output = folder.appendingPathComponent("monaco.wfg")
        _ = try MapImporter(options: options).run(input: root.appendingPathComponent("Data/monaco.osm.gz").path, output: output.path)
        let service = try WayfinderService(map: OfflineMap(contentsOf: output))
        cached = service
        return service
    }

    override class func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func features(_ target: String) throws -> [[String: Any]] {
        let response = try Self.service().respond(to: ServerFixture.request(target))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        XCTAssertTrue(response.contentType.hasPrefix("application/geo+json"), response.contentType)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(object["type"] as? String, "FeatureCollection")
        return try XCTUnwrap(object["features"] as? [[String: Any]])
    }

    func testPhotonShapedAnswers() throws {
        let typo = try features("/search/v1?q=Vechia%20Firenze".replacingOccurrences(of: "%20", with: " "))
        let first = try XCTUnwrap(typo.first?["properties"] as? [String: Any])
        XCTAssertEqual(first["name"] as? String, "Vecchia Firenze")
        XCTAssertEqual(first["osm_type"] as? String, "N")
        XCTAssertEqual(first["osm_id"] as? Int, 1661139837)
        XCTAssertEqual(first["category"] as? String, "restaurant")
        for key in ["street", "housenumber", "postcode", "city"] { XCTAssertTrue(first[key] is String, key) }
        let point = try XCTUnwrap((typo.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        XCTAssertEqual(point[0], 7.4185505, accuracy: 1e-6, "GeoJSON order: longitude first")

        let near = try features("/search/v1?category=restaurant&near=7.4203091,43.7336948&limit=3")
        XCTAssertEqual(near.count, 3)
        let properties = near.compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(properties.first?["name"] as? String, "Planet Pasta")
        XCTAssertTrue(properties.allSatisfy { $0["category"] as? String == "restaurant" && $0["distance"] is Double })
    }

    func testCategoryList() throws {
        let service = try Self.service()
        let response = service.respond(to: ServerFixture.request("/search/v1/categories"))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(object["code"] as? String, "Ok")
        let list = try XCTUnwrap(object["categories"] as? [[String: Any]])
        let expected = try service.map.placeCategories
        XCTAssertEqual(list.count, expected.count)
        XCTAssertEqual(list.compactMap { $0["count"] as? Int }, expected.map(\.count), "most places first, as wayfinder places --categories")
        let restaurants = try XCTUnwrap(list.first { $0["key"] as? String == "amenity" && $0["value"] as? String == "restaurant" })
        // Every place of a listed category is found by searching for the category.
        let found = try features("/search/v1?category=amenity=restaurant&limit=1000")
        XCTAssertEqual(restaurants["count"] as? Int, found.count)
        let bad = try ask(service, "/search/v1/categories?limit=3")
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.code, "InvalidOptions")
        let (_, old) = try ServerFixture.monaco()
        XCTAssertEqual(try ask(old, "/search/v1/categories").code, "NotImplemented")
    }

    func testBadParametersAreOSRMStyle400s() throws {
        let service = try Self.service()
        for (target, code) in [("/search/v1?q=x&limit=0", "InvalidValue"), ("/search/v1?q=x&limit=1001", "InvalidValue"),
                               ("/search/v1?q=x&limit=ten", "InvalidValue"), ("/search/v1?q=x&near=43.7,200", "InvalidValue"),
                               ("/search/v1?q=x&near=7.42", "InvalidQuery"), ("/search/v1?q=x&near=nan,43", "InvalidQuery"),
                               ("/search/v1?q=x&radius=5", "InvalidOptions"), ("/search/v1?q=x&q=y", "InvalidOptions"),
                               ("/search/v1", "InvalidQuery"), ("/search/v1?category=restaurent", "InvalidValue")] {
            let answer = try ask(service, target)
            XCTAssertEqual(answer.status, 400, target)
            XCTAssertEqual(answer.code, code, target)
            XCTAssertFalse((answer["message"] as? String ?? "").isEmpty, target)
        }
        XCTAssertEqual(try ask(service, "/search/v2?q=x").status, 404)
    }

    func testGraphWithoutPlaceIndex() throws {
        let (_, old) = try ServerFixture.monaco()  // imported by the engine importer alone: no place sections
        let answer = try ask(old, "/search/v1?q=pizza")
        XCTAssertEqual(answer.status, 400)
        XCTAssertEqual(answer.code, "NotImplemented")
        XCTAssertTrue((answer["message"] as? String ?? "").contains("import it again"), "\(answer.object)")
    }
}
