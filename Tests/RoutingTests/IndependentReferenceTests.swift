import Foundation
import Graph
import OSM
import Routing
import XCTest

/// The engine (importer, hierarchy, router with the island fallback) against `IndependentReference`, which builds
/// its own graph from the parsed OSM elements: route times and no-route verdicts on random pairs of points near roads,
/// car and foot. Agreement: times within 0.1 s or 0.01 %, the same verdict.
///
/// The small extracts of `Data/` run in the regular test run. The shared extracts (`../shared/data/osm`, or the folder
/// in `WAYFINDER_SHARED_OSM`) and clipped versions of them made with `osmium extract --strategy simple` run by hand
/// in release mode, and are skipped when the files (or osmium) are absent:
///
///     swift test -c release --filter IndependentReferenceTests
final class IndependentReferenceTests: XCTestCase {
    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data")
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-reference-\(getpid())")

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// What one comparison found.
    struct Figures: CustomStringConvertible {
        var name = ""
        var pairs = 0, routed = 0, noRoute = 0, moved = 0, disagreements = 0, matrixDisagreements = 0, snapDiffers = 0
        var maxDifference = 0.0
        var examples: [String] = []
        var description: String {
            "\(name): \(pairs) pairs, \(routed) routed, \(noRoute) no route, \(moved) answered off an island, "
                + "\(disagreements) disagreements (matrix \(matrixDisagreements)), largest difference \(String(format: "%.3f", maxDifference)) s, "
                + "\(snapDiffers) stops snapped elsewhere"
        }
    }

    /// Imports `input` (with hierarchies, as `wayfinder import` does) and compares `sources × targets` random pairs per mode.
    @discardableResult
    func compare(_ input: String, label: String, sources: Int, targets: Int, seed: UInt64, profiles: [TravelProfile] = [.car, .foot],
                 modes: [IndependentReference.Mode] = [.car, .foot], expectAgreement: Bool = true,
                 file: StaticString = #filePath, line: UInt = #line) throws -> [Figures] {
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let output = Self.folder.appendingPathComponent(label + ".wfg").path
        var importer = GraphImporter(profiles: profiles)
        importer.extensions = [HierarchyExtension()]
        _ = try importer.run(input: input, output: output)
        let graph = try RoadGraph(path: output)
        let reference = try IndependentReference(path: input)
        var all: [Figures] = []
        for mode in modes {
            let net = reference.network(mode)
            let router = try Router(graph: graph, profile: mode.rawValue)
            XCTAssertNotNil(router.hierarchy, file: file, line: line)
            var figures = Figures(name: "\(label) \(mode.rawValue)")
            var random = SplitMix64(state: seed &+ (mode == .car ? 0 : 1000))
            let usable = (0..<net.segmentA.count).filter { net.usable($0) }
            guard !usable.isEmpty else { continue }
            /// A random point within 40 m of a random road of the mode.
            func randomPoint() -> Coordinate {
                let k = usable[Int.random(in: 0..<usable.count, using: &random)]
                let a = Int(net.segmentA[k]), b = Int(net.segmentB[k])
                let t = Double.random(in: 0...1, using: &random)
                let lat = net.latitude[a] + t * (net.latitude[b] - net.latitude[a])
                let lon = net.longitude[a] + t * (net.longitude[b] - net.longitude[a])
                let north = Double.random(in: -40...40, using: &random), east = Double.random(in: -40...40, using: &random)
                let metres = 6_371_008.8 * Double.pi / 180
                return Coordinate(latitude: lat + north / metres, longitude: lon + east / (metres * cos(lat * Double.pi / 180)))
            }
            struct Both { var point: Coordinate; var engine: SnappedStop; var reference: IndependentReference.Stop }
            func places(_ count: Int) -> [Both] {
                var result: [Both] = []
                while result.count < count {
                    let c = randomPoint()
                    let engine = router.snapper.snapStop(c), mine = reference.stop(net, latitude: c.latitude, longitude: c.longitude)
                    XCTAssertEqual(engine == nil, mine == nil, "\(figures.name): snapping \(c)", file: file, line: line)
                    guard let engine, let mine else { continue }
                    let point = mine.nearest.node.map { Coordinate(latitude: net.latitude[Int($0)], longitude: net.longitude[Int($0)]) }
                        ?? {
                            let k = mine.nearest.segment, a = Int(net.segmentA[k]), b = Int(net.segmentB[k]), t = mine.nearest.fraction
                            return Coordinate(latitude: net.latitude[a] + t * (net.latitude[b] - net.latitude[a]),
                                              longitude: net.longitude[a] + t * (net.longitude[b] - net.longitude[a]))
                        }()
                    if point.distance(to: engine.nearest.location) > 0.5 { figures.snapDiffers += 1 }
                    result.append(Both(point: c, engine: engine, reference: mine))
                }
                return result
            }
            let from = places(sources), to = places(targets)
            let matrix = router.matrix(from: from.map(\.engine), to: to.map(\.engine))
            for (i, a) in from.enumerated() {
                let direct = reference.times(net, from: a.reference.nearest, to: to.map(\.reference.nearest))
                for (j, b) in to.enumerated() {
                    figures.pairs += 1
                    var expected = direct[j]
                    if expected == nil, a.reference.moved != nil || b.reference.moved != nil {
                        expected = reference.leg(net, from: a.reference, to: b.reference)
                        if expected != nil { figures.moved += 1 }
                    }
                    let found: Double?
                    do { found = try router.routes(through: [a.engine, b.engine]).routes[0].expectedTravelTime } catch { found = nil }
                    if found != nil { figures.routed += 1 } else { figures.noRoute += 1 }
                    func agrees(_ x: Double?, _ y: Double?) -> Bool {
                        switch (x, y) {
                        case (nil, nil): return true
                        case let (x?, y?): return abs(x - y) <= max(0.1, 1e-4 * y)
                        default: return false
                        }
                    }
                    if let found, let expected { figures.maxDifference = max(figures.maxDifference, abs(found - expected)) }
                    if !agrees(found, expected) {
                        figures.disagreements += 1
                        if figures.examples.count < 8 {
                            figures.examples.append("\(a.point.latitude),\(a.point.longitude) → \(b.point.latitude),\(b.point.longitude): engine \(found.map { String($0) } ?? "no route"), reference \(expected.map { String($0) } ?? "no route")")
                        }
                    }
                    if !agrees(matrix.duration(i, j), expected) { figures.matrixDisagreements += 1 }
                }
            }
            // On standard error, unbuffered, so long runs show their figures as they go.
            FileHandle.standardError.write(Data(([figures.description] + figures.examples.map { "  " + $0 }).joined(separator: "\n").utf8 + [10]))
            if expectAgreement {
                XCTAssertEqual(figures.disagreements, 0, "\(figures)\n" + figures.examples.joined(separator: "\n"), file: file, line: line)
                XCTAssertEqual(figures.matrixDisagreements, 0, "\(figures)", file: file, line: line)
            }
            XCTAssertGreaterThan(figures.routed, figures.pairs / 2, "\(figures)", file: file, line: line)
            all.append(figures)
        }
        return all
    }

    // MARK: The small extracts, in every test run

    func testMonaco() throws {
        try compare(Self.dataFolder.appendingPathComponent("monaco.osm.gz").path, label: "monaco", sources: 12, targets: 25, seed: 11)
    }

    func testNorthBayreuth() throws {
        try compare(Self.dataFolder.appendingPathComponent("north-bayreuth.osm.gz").path, label: "north-bayreuth", sources: 12, targets: 25, seed: 12)
    }

    func testTerreHaute() throws {
        try compare(Self.dataFolder.appendingPathComponent("terre-haute.osm.gz").path, label: "terre-haute", sources: 12, targets: 25, seed: 13)
    }

    /// The clipped sample: central Heidelberg cut from a larger extract with `osmium extract --strategy simple`.
    func testClippedHeidelberg() throws {
        try compare(Self.dataFolder.appendingPathComponent("heidelberg-clipped.osm.gz").path, label: "heidelberg-clipped", sources: 12, targets: 25, seed: 14)
    }

    /// The drawn map of tagged ways the `profiles` fuzz target imports (Tests/FuzzRegressionTests/Graphs/tags.osm): every
    /// highway class, `maxspeed` forms (a 41-digit one and 301 among them), one-way variants, access, barriers, a
    /// ferry, an area, a platform, a roundabout and restrictions via a node and via a way, one exempting bicycles.
    func testTagsMap() throws {
        let map = Self.dataFolder.deletingLastPathComponent().appendingPathComponent("Tests/FuzzRegressionTests/Graphs/tags.osm")
        try compare(map.path, label: "tags", sources: 15, targets: 30, seed: 16)
    }

    /// The misplaced-node map of `MisplacedNodeTests` (edges of 2^31 ms on foot, whose sums once wrapped round).
    func testMisplacedNodeMap() throws {
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let input = Self.folder.appendingPathComponent("misplaced.osm")
        try MisplacedNodeTests.map.write(to: input, atomically: true, encoding: .utf8)
        try compare(input.path, label: "misplaced", sources: 10, targets: 20, seed: 17)
    }

    /// The comparison notices a rule broken: an engine whose car turns back anywhere (the old rule) disagrees with the
    /// reference where a U-turn dodges a restriction (the clipped Heidelberg sample keeps 90 or so).
    func testReferenceNoticesCarsTurningBackAnywhere() throws {
        var car = TravelProfile.car
        car.uTurns = .anywhere
        let figures = try compare(Self.dataFolder.appendingPathComponent("heidelberg-clipped.osm.gz").path, label: "heidelberg-clipped-anywhere",
                                  sources: 20, targets: 40, seed: 15, profiles: [car, .foot], modes: [.car], expectAgreement: false)
        XCTAssertGreaterThan(figures[0].disagreements, 0, "\(figures[0])")
    }

    // MARK: The shared extracts and clipped versions of them, by hand in release mode

    static let sharedFolder = ProcessInfo.processInfo.environment["WAYFINDER_SHARED_OSM"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/data/osm").path

    /// Each shared extract with a box (min lon, min lat, max lon, max lat) around its dense part: its clipped version
    /// cuts many ways and restrictions.
    static let shared: [(file: String, box: String)] = [
        ("heidelberg.osm.bz2", "8.6819,49.3897,8.7668,49.4374"),
        ("porto-portugal.osm.bz2", "-8.621,41.1141,-8.475,41.2564"),
        ("liechtenstein.osm.bz2", "9.5192,47.1007,9.557,47.1977"),
        ("north-bayreuth.osm.gz", "11.5122,49.9862,11.5916,50.02"),
        // The boxes below are the 25th–75th percentiles of the highway nodes' longitudes and latitudes.
        ("andorra.osm.gz", "1.4997,42.4954,1.6318,42.5808"),
        ("beatty.osm.gz", "-116.7794,36.8805,-116.7055,36.9532"),
        ("deufringen.osm", "8.8648,48.6783,8.8737,48.6848"),
        ("porto-alegre.osm.bz2", "-51.2245,-30.0782,-51.1677,-30.0327"),
        ("rhein-neckar-rnv.osm.bz2", "8.4088,49.3993,8.6761,49.5087"),
        ("monaco.osm.gz", "7.4184,43.732,7.4284,43.7405"),
        ("terre-haute.osm.gz", "-87.4257,39.412,-87.3536,39.5171"),
    ]

    func sharedInput(_ name: String) throws -> String {
        #if DEBUG
        throw XCTSkip("the shared extracts are compared in release builds only: swift test -c release --filter IndependentReferenceTests")
        #else
        let path = (Self.sharedFolder as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("missing \(path)") }
        return path
        #endif
    }

    /// The clipped version of a shared extract, made with osmium (skipped when osmium is not installed). The input is
    /// sorted and each object kept once first, since `osmium extract` needs objects ordered by type and id, each once
    /// (terre-haute's are not sorted and hold one way twice); `time-filter` keeps the one version of each object.
    func clipped(_ input: String, box: String, label: String) throws -> String {
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let sorted = Self.folder.appendingPathComponent(label + "-sorted.osm").path
        let single = Self.folder.appendingPathComponent(label + "-single.osm").path
        let output = Self.folder.appendingPathComponent(label + ".osm").path
        try osmium(["sort", input, "-o", sorted, "--overwrite"])
        try osmium(["time-filter", sorted, "-o", single, "--overwrite"])
        try osmium(["extract", "--strategy", "simple", "-b", box, single, "-o", output, "--overwrite"])
        return output
    }

    /// Runs osmium with `arguments`, skipping the test when it is not installed or fails.
    func osmium(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["osmium"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw XCTSkip("osmium is not installed") }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("osmium \(arguments[0]) failed (is osmium-tool installed?)") }
    }

    func sharedComparison(_ index: Int, clip: Bool) throws {
        let (name, box) = Self.shared[index]
        let input = try sharedInput(name)
        let base = String(name.prefix { $0 != "." })
        if clip {
            try compare(try clipped(input, box: box, label: base + "-clipped"), label: base + "-clipped", sources: 50, targets: 60, seed: 100 + UInt64(index))
        } else {
            try compare(input, label: base, sources: 50, targets: 60, seed: 200 + UInt64(index))
        }
    }

    func testSharedHeidelberg() throws { try sharedComparison(0, clip: false) }
    func testSharedHeidelbergClipped() throws { try sharedComparison(0, clip: true) }
    func testSharedPorto() throws { try sharedComparison(1, clip: false) }
    func testSharedPortoClipped() throws { try sharedComparison(1, clip: true) }
    func testSharedLiechtenstein() throws { try sharedComparison(2, clip: false) }
    func testSharedLiechtensteinClipped() throws { try sharedComparison(2, clip: true) }
    func testSharedNorthBayreuth() throws { try sharedComparison(3, clip: false) }
    func testSharedNorthBayreuthClipped() throws { try sharedComparison(3, clip: true) }
    func testSharedAndorra() throws { try sharedComparison(4, clip: false) }
    func testSharedAndorraClipped() throws { try sharedComparison(4, clip: true) }
    func testSharedBeatty() throws { try sharedComparison(5, clip: false) }
    func testSharedBeattyClipped() throws { try sharedComparison(5, clip: true) }
    func testSharedDeufringen() throws { try sharedComparison(6, clip: false) }
    func testSharedDeufringenClipped() throws { try sharedComparison(6, clip: true) }
    func testSharedPortoAlegre() throws { try sharedComparison(7, clip: false) }
    func testSharedPortoAlegreClipped() throws { try sharedComparison(7, clip: true) }
    func testSharedRheinNeckar() throws { try sharedComparison(8, clip: false) }
    func testSharedRheinNeckarClipped() throws { try sharedComparison(8, clip: true) }
    func testSharedMonaco() throws { try sharedComparison(9, clip: false) }
    func testSharedMonacoClipped() throws { try sharedComparison(9, clip: true) }
    func testSharedTerreHaute() throws { try sharedComparison(10, clip: false) }
    func testSharedTerreHauteClipped() throws { try sharedComparison(10, clip: true) }
}
