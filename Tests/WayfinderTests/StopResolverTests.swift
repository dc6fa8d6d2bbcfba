import Foundation
import XCTest
import TestSupport
@testable import Wayfinder

/// `StopResolver` on a drawn map with named places (imported with its place index): a name taken near the previous
/// stop, a whole-name match before a nearer partial one, a typo, suggestions for a name that matches nothing,
/// `strictNames` ambiguity (and same-named platforms that are not), places-file names first, coordinates as before.
final class StopResolverTests: XCTestCase {
    // 40 m between cells: the road a–b is 1,200 m long; the two bakeries 1,120 m apart, the two platforms 40 m.
    static let drawing = """
    a------------------------------b
    p    q         tu         r  s
      m  n
    """

    static let tags: [Character: [String: String]] = [
        "p": ["shop": "bakery", "name": "Bäckerei Krämer"],
        "s": ["shop": "bakery", "name": "Bäckerei Krämer"],
        "q": ["highway": "bus_stop", "name": "Rathaus"],
        "r": ["highway": "bus_stop", "name": "Rathaus Nord"],
        "t": ["public_transport": "platform", "name": "Hauptbahnhof"],
        "u": ["public_transport": "platform", "name": "Hauptbahnhof"],
        "m": ["amenity": "parking", "name": "Marktplatz"],
        "n": ["railway": "station", "public_transport": "station", "name": "Marktplatz"],
    ]

    nonisolated(unsafe) static var drawn: DrawnMap?
    nonisolated(unsafe) static var map: OfflineMap?

    /// `input` imported through `MapImporter` (with its place index; no landmarks, no hierarchies) and opened.
    static func importWithPlaces(_ input: String, to output: URL) throws -> (report: MapImporter.Report, map: OfflineMap) {
        var options = MapImporter.Options()
        options.landmarks = false
        options.contractionHierarchies = false
        let report = try MapImporter(options: options).run(input: input, output: output.path)
        return (report, try OfflineMap(contentsOf: output))
    }

    /// The drawn map, imported once more through `MapImporter` so that it has a place index.
    func placesMap() throws -> (DrawnMap, OfflineMap) {
        if let drawn = Self.drawn, let map = Self.map { return (drawn, map) }
        let drawn = try DrawnMap(Self.drawing, ways: [("ab", ["highway": "residential", "name": "Lange Straße"])], nodes: Self.tags, gridMetres: 40)
        let (report, map) = try Self.importWithPlaces(drawn.osmPath, to: drawn.directory.appendingPathComponent("places.wfg"))
        XCTAssertGreaterThanOrEqual(report.placesIndexed, 6)
        Self.drawn = drawn; Self.map = map
        return (drawn, map)
    }

    func testANameIsTakenNearThePreviousStop() throws {
        let (drawn, map) = try placesMap()
        let resolver = StopResolver(map: map)
        let nearP = try resolver.resolve(["\(drawn.coordinate("a").latitude),\(drawn.coordinate("a").longitude)", "Bäckerei Krämer"])
        XCTAssertEqual(nearP[0].source, .coordinate)
        XCTAssertEqual(nearP[1].source, .placeIndex)
        XCTAssertEqual(nearP[1].coordinate.distance(to: drawn.coordinate("p")), 0, accuracy: 1)
        XCTAssertEqual(nearP[1].place?.category, "bakery")
        let nearS = try resolver.resolve(["\(drawn.coordinate("b").latitude),\(drawn.coordinate("b").longitude)", "Bäckerei Krämer"])
        XCTAssertEqual(nearS[1].coordinate.distance(to: drawn.coordinate("s")), 0, accuracy: 1)
        // A chain: each name near the stop before it.
        let chain = try resolver.resolve(["Rathaus Nord", "Bäckerei Krämer"])
        XCTAssertEqual(chain[0].coordinate.distance(to: drawn.coordinate("r")), 0, accuracy: 1)
        XCTAssertEqual(chain[1].coordinate.distance(to: drawn.coordinate("s")), 0, accuracy: 1)
        XCTAssertEqual(chain[1].resolutionLine?.hasPrefix("Bäckerei Krämer → \"Bäckerei Krämer\" (bakery), "), true, chain[1].resolutionLine ?? "nil")
        // The first stop is taken near the map's centre unless a start is given.
        let first = try resolver.resolve("Bäckerei Krämer")
        let centre = resolver.mapCentre
        XCTAssertLessThanOrEqual(first.coordinate.distance(to: centre), drawn.coordinate("p").distance(to: centre))
        XCTAssertEqual(try resolver.resolve("Bäckerei Krämer", near: drawn.coordinate("a")).coordinate.distance(to: drawn.coordinate("p")), 0, accuracy: 1)
    }

    /// A town's streets and one road reaching 6 km out of it: the map's centre stays in the town (the median of the
    /// roads' nodes), so a name with no point in the request is taken there, not near the middle of the box.
    func testTheMapsCentreIsWhereItsRoadsAre() throws {
        let drawing = """
        a-b-c-d-e---------------------------------------------------------z
        | | | | |
        f-g-h-i-j
        | | | | |
        k-l-m-n-o
        P                               Q
        """
        let streets = ["abcdez", "fghij", "klmno", "afk", "bgl", "chm", "din", "ejo"].map { ($0, ["highway": "residential"]) }
        let stops: [Character: [String: String]] = ["P": ["highway": "bus_stop", "name": "Bismarckplatz"],
                                                    "Q": ["highway": "bus_stop", "name": "Bismarckplatz"]]
        let drawn = try DrawnMap(drawing, ways: streets, nodes: stops, gridMetres: 100)
        let map = try Self.importWithPlaces(drawn.osmPath, to: drawn.directory.appendingPathComponent("town.wfg")).map
        let resolver = StopResolver(map: map)
        // The box's middle is near Q; the median of the 16 road nodes is among the town's streets.
        let box = map.coverage
        let boxMiddle = Coordinate(latitude: (box.minLatitude + box.maxLatitude) / 2, longitude: (box.minLongitude + box.maxLongitude) / 2)
        XCTAssertLessThan(boxMiddle.distance(to: drawn.coordinate("Q")), boxMiddle.distance(to: drawn.coordinate("P")))
        XCTAssertLessThanOrEqual(resolver.mapCentre.longitude, drawn.coordinate("e").longitude)
        XCTAssertGreaterThanOrEqual(resolver.mapCentre.longitude, drawn.coordinate("a").longitude)
        XCTAssertEqual(resolver.mapCentre, map.centre)
        let taken = try resolver.resolve("Bismarckplatz")
        XCTAssertEqual(taken.coordinate.distance(to: drawn.coordinate("P")), 0, accuracy: 1)
        // Near a point at the far end, the other one.
        XCTAssertEqual(try resolver.resolve("Bismarckplatz", near: drawn.coordinate("z")).coordinate.distance(to: drawn.coordinate("Q")), 0, accuracy: 1)
    }

    /// On the heidelberg extract (../shared/data, or WAYFINDER_SHARED_DATA; skipped when absent), whose box a few
    /// long ways stretch from 7.7° to 9.1° east: the centre and the view stay with the city's roads.
    func testHeidelbergsCentreAndViewHoldTheCity() throws {
        let shared = sharedData
        let osm = shared + "/osm/heidelberg.osm.pbf"
        guard FileManager.default.fileExists(atPath: osm) else { throw XCTSkip("no \(osm)") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("centre-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = try Self.importWithPlaces(osm, to: folder.appendingPathComponent("heidelberg.wfg")).map
        let bismarckplatz = Coordinate(latitude: 49.4098, longitude: 8.6930)
        let box = map.coverage, view = map.view
        XCTAssertGreaterThan(box.maxLongitude - box.minLongitude, 1, "the extract's box is wide")
        XCTAssertLessThan(map.centre.distance(to: bismarckplatz), 5000, "\(map.centre)")
        XCTAssertLessThan(view.maxLongitude - view.minLongitude, 0.5 * (box.maxLongitude - box.minLongitude), "\(view)")
        XCTAssertTrue(view.minLatitude < bismarckplatz.latitude && bismarckplatz.latitude < view.maxLatitude
                      && view.minLongitude < bismarckplatz.longitude && bismarckplatz.longitude < view.maxLongitude, "\(view)")
        let taken = try StopResolver(map: map).resolve("Bismarckplatz")
        XCTAssertLessThan(taken.coordinate.distance(to: bismarckplatz), 500, "\(taken)")
    }

    func testANameBeforeTheFirstPointIsTakenNearThatPoint() throws {
        let (drawn, map) = try placesMap()
        let resolver = StopResolver(map: map)
        let b = drawn.coordinate("b"), a = drawn.coordinate("a")
        // "Bäckerei Krämer" first, then a point at b: the bakery at s (near b), not the one the map's centre picks.
        let towardsB = try resolver.resolve(["Bäckerei Krämer", "\(b.latitude),\(b.longitude)"])
        XCTAssertEqual(towardsB[0].coordinate.distance(to: drawn.coordinate("s")), 0, accuracy: 1)
        let towardsA = try resolver.resolve(["Bäckerei Krämer", "Rathaus", "\(a.latitude),\(a.longitude)"])
        XCTAssertEqual(towardsA[0].coordinate.distance(to: drawn.coordinate("p")), 0, accuracy: 1)
        XCTAssertEqual(towardsA[1].coordinate.distance(to: drawn.coordinate("q")), 0, accuracy: 1)
        // In a places file the same: names before the first row with a coordinate are taken near it.
        let rows = [PlacesFileRow(name: "Bäckerei Krämer", coordinate: nil, line: 1), PlacesFileRow(name: "end", coordinate: b, line: 2)]
        let places = try resolver.resolve(rows: rows, file: "stops.csv")
        XCTAssertEqual(places[0].coordinate.distance(to: drawn.coordinate("s")), 0, accuracy: 1)
    }

    func testAWholeNameBeatsANearerPartialMatch() throws {
        let (drawn, map) = try placesMap()
        let stop = try StopResolver(map: map).resolve("rathaus", near: drawn.coordinate("r"))
        XCTAssertEqual(stop.place?.name, "Rathaus")
        XCTAssertEqual(stop.coordinate.distance(to: drawn.coordinate("q")), 0, accuracy: 1)
        XCTAssertEqual(try XCTUnwrap(stop.place?.distance), drawn.coordinate("q").distance(to: drawn.coordinate("r")), accuracy: 2)
    }

    /// Of two places whose whole name matches, the kind counts with the distance: the station 215 m away before the
    /// car park 113 m away (`PlaceProminence.standing`).
    func testAStationBeatsANearerCarParkOfItsName() throws {
        let (drawn, map) = try placesMap()
        let stop = try StopResolver(map: map).resolve("Marktplatz", near: drawn.coordinate("a"))
        XCTAssertEqual(stop.place?.category, "station")
        XCTAssertEqual(stop.coordinate.distance(to: drawn.coordinate("n")), 0, accuracy: 1)
    }

    /// Of partial matches alike, the name with fewer words beyond those given, unless the kind outweighs it: on the
    /// Monaco sample "Port Hercule" is the marina "Port Hercule de Monaco", not the pool "Piscine (Rainer III) du Port
    /// Hercule" nearer the map's centre; on the Heidelberg sample a misspelt "Hauptbanhof" is the station "Heidelberg
    /// Hauptbahnhof", not the car park "Hauptbahnhof" beside it (a station's bonus outweighs a word).
    func testTheNameWithFewerWordsBeyondThoseGivenWinsUnlessTheKindOutweighsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unsaid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let monaco = try Self.importWithPlaces(sample("monaco.osm.gz"), to: folder.appendingPathComponent("monaco.wfg")).map
        let port = try StopResolver(map: monaco).resolve("Port Hercule")
        XCTAssertEqual(port.place?.name, "Port Hercule de Monaco")
        XCTAssertEqual(port.place?.category, "marina")
        let heidelberg = try Self.importWithPlaces(sample("heidelberg-clipped.osm.gz"), to: folder.appendingPathComponent("heidelberg.wfg")).map
        let station = try StopResolver(map: heidelberg).resolve("Hauptbanhof", near: Coordinate(latitude: 49.40963, longitude: 8.69301))
        XCTAssertEqual(station.place?.name, "Heidelberg Hauptbahnhof")
        XCTAssertEqual(station.place?.category, "station")
    }

    func testATypoResolves() throws {
        let (drawn, map) = try placesMap()
        let stop = try StopResolver(map: map).resolve("Backerei Kramr", near: drawn.coordinate("a"))
        XCTAssertEqual(stop.place?.name, "Bäckerei Krämer")
        XCTAssertEqual(stop.coordinate.distance(to: drawn.coordinate("p")), 0, accuracy: 1)
    }

    func testANameThatMatchesNothingSuggestsSpellings() throws {
        let (_, map) = try placesMap()
        XCTAssertThrowsError(try StopResolver(map: map).resolve(["49.0,8.0", "Baeckrei"])) { error in
            guard let e = error as? StopResolutionError, case let .noMatch(suggestions) = e.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(suggestions, ["Bäckerei Krämer"])
            XCTAssertEqual(e.stopIndex, 1)
            XCTAssertTrue(e.description.hasPrefix("stop 2 'Baeckrei' is not lat,lon and no place on the map has that name (did you mean \"Bäckerei Krämer\"?)"), e.description)
        }
        XCTAssertThrowsError(try StopResolver(map: map).resolve("Qxzvw")) { error in
            guard let e = error as? StopResolutionError, case let .noMatch(suggestions) = e.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(suggestions, [])
        }
    }

    func testStrictNamesRefuseFarApartEqualMatchesOnly() throws {
        let (drawn, map) = try placesMap()
        let strict = StopResolver(map: map, strictNames: true)
        XCTAssertThrowsError(try strict.resolve("Bäckerei Krämer", near: drawn.coordinate("a"))) { error in
            guard let e = error as? StopResolutionError, case let .ambiguous(candidates, count) = e.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(count, 2)
            XCTAssertEqual(candidates.map(\.name), ["Bäckerei Krämer", "Bäckerei Krämer"])
            XCTAssertEqual(candidates[0].coordinate.distance(to: drawn.coordinate("p")), 0, accuracy: 1, "nearest first")
            XCTAssertLessThan(candidates[0].distance ?? .infinity, candidates[1].distance ?? 0)
            XCTAssertTrue(e.description.contains("\"Bäckerei Krämer\" (bakery), "), e.description)
        }
        // Two platforms 40 m apart are one place; a whole name before a partial one is no tie.
        XCTAssertEqual(try strict.resolve("Hauptbahnhof").place?.name, "Hauptbahnhof")
        XCTAssertEqual(try strict.resolve("Rathaus").place?.name, "Rathaus")
        // Without strictNames the nearest is taken.
        XCTAssertNoThrow(try StopResolver(map: map).resolve("Bäckerei Krämer"))
    }

    func testCoordinatesAndPlacesFileNamesComeFirst() throws {
        let (drawn, map) = try placesMap()
        let mine = Coordinate(latitude: 49.001, longitude: 8.002)
        let resolver = StopResolver(map: map, places: ["Rathaus": mine])
        XCTAssertEqual(try resolver.resolve("Rathaus"), ResolvedStop(text: "Rathaus", coordinate: mine, source: .placesFile))
        XCTAssertEqual(try resolver.resolve(" 49.0005, 8.001 ").coordinate, Coordinate(latitude: 49.0005, longitude: 8.001))
        XCTAssertThrowsError(try resolver.resolve("95,8")) { error in
            guard let e = error as? StopResolutionError, case .invalidCoordinate = e.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(e.description, "'95,8' has latitude 95, outside ±90")
        }
        // A map without a place index says so for a name.
        let bare = try OfflineMap(contentsOf: URL(fileURLWithPath: drawn.graphPath))
        XCTAssertThrowsError(try StopResolver(map: bare).resolve("Rathaus")) { error in
            guard let e = error as? StopResolutionError, case .noPlaceIndex = e.reason else { return XCTFail("\(error)") }
        }
    }

    func testPlacesFileRowsGivingANameAlone() throws {
        let (drawn, map) = try placesMap()
        let text = "name\nRathaus Nord\n\(drawn.coordinate("a").latitude),\(drawn.coordinate("a").longitude),Start\nBäckerei Krämer\n"
        let rows = try PlacesFile.parseRows(text, file: "f.csv")
        XCTAssertEqual(rows.map(\.name), ["Rathaus Nord", "Start", "Bäckerei Krämer"])
        XCTAssertNil(rows[0].coordinate)
        XCTAssertThrowsError(try PlacesFile.parse(text, file: "f.csv"), "a reader without a map refuses a name alone")
        let places = try StopResolver(map: map).resolve(rows: rows, file: "f.csv")
        XCTAssertEqual(places[0].place?.name, "Rathaus Nord")
        XCTAssertNil(places[1].place)
        XCTAssertEqual(places[2].coordinate.distance(to: drawn.coordinate("p")), 0, accuracy: 1, "near the row before: Start, at a")
        XCTAssertThrowsError(try StopResolver(map: map).resolve(rows: [PlacesFileRow(name: "Qxzvw", coordinate: nil, line: 7)], file: "f.csv")) { error in
            XCTAssertTrue("\(error)".hasPrefix("f.csv:7: 'Qxzvw' is not lat,lon"), "\(error)")
        }
    }
}
