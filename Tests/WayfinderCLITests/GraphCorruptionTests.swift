import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A graph file is trusted only after it is checked: corrupt and hostile files, every section of Monaco's (and the
/// timetable sections of Terre Haute's with its GTFS feed), opened by the built `wayfinder` in a child process so
/// that a crash shows as a signal rather than killing the test runner.
///
/// - corrupt (a bit flipped, bytes overwritten, the file cut inside the section, a section length or offset of
///   2^63 or more in the header with the header checksum made to match): `route` and `info` never crash, and either
///   exit 3 naming the file and the section, or give exactly the answer of the intact file;
/// - hostile (the same damage with every checksum made to match, and targeted values that break one structural
///   rule each): never a crash; a targeted value is refused with exit 3 naming its section.
final class GraphCorruptionTests: CLITestCase {
    /// Graph files shared by the tests of this class (imported once), in a folder removed at the end.
    nonisolated(unsafe) private static var shared: [String: String] = [:]
    private static let sharedFolder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-corruption-\(getpid())")

    override class func tearDown() {
        try? FileManager.default.removeItem(at: sharedFolder)
        super.tearDown()
    }

    /// Monaco, imported with hierarchies and landmarks (the default).
    private func monaco() throws -> String {
        try sharedGraph("monaco.wfg", [sample("monaco.osm.gz")])
    }

    /// Terre Haute with its timetable (no hierarchies, to keep the import short: the timetable is what is tested).
    private func terreHaute() throws -> String {
        try sharedGraph("terre-haute.wfg", [sample("terre-haute.osm.gz"), "--gtfs", sample("terre-haute-gtfs.zip"), "--no-ch", "--no-landmarks"])
    }

    private func sharedGraph(_ name: String, _ input: [String]) throws -> String {
        if let path = Self.shared[name] { return path }
        try FileManager.default.createDirectory(at: Self.sharedFolder, withIntermediateDirectories: true)
        let path = Self.sharedFolder.appendingPathComponent(name).path
        let result = try run(["import"] + input + ["-o", path, "--quiet"], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        Self.shared[name] = path
        return path
    }

    // MARK: Running a child

    /// How a child ended: its exit status, or the signal that ended it.
    struct Outcome {
        var status: Int32
        var signalled: Bool
        var stdout: String
        var stderr: String
    }

    /// Runs `wayfinder arguments` to its end (standard output and error to files), telling an exit from a signal.
    func child(_ arguments: [String], timeout: TimeInterval = 60) throws -> Outcome {
        let process = Process()
        process.executableURL = try wayfinderExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = temp
        let out = temp.appendingPathComponent(".out"), err = temp.appendingPathComponent(".err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        defer { try? outHandle.close(); try? errHandle.close() }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CLIError.timedOut(arguments)
        }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                       stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
                       stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
    }

    // MARK: Queries

    /// A query run on a graph file: the command line around `--graph PATH`.
    struct Query {
        var name: String
        var arguments: [String]
        func argv(_ graph: String) -> [String] {
            arguments[0] == "info" ? ["info", graph] : [arguments[0], "--graph", graph] + arguments.dropFirst()
        }
    }

    static let carRoute = Query(name: "route car", arguments: ["route", "--depart", "2026-01-01T08:00", "--format", "json", "43.7395,7.4270", "43.7312,7.4197"])
    static let footRoute = Query(name: "route foot", arguments: ["route", "--mode", "foot", "--depart", "2026-01-01T08:00", "--format", "json", "43.7395,7.4270", "43.7312,7.4197"])
    static let transitRoute = Query(name: "route transit", arguments: ["route", "--mode", "transit", "--depart", "2016-06-01T08:00", "--format", "json", "39.4667,-87.4139", "39.4400,-87.3300"])

    static let info = Query(name: "info", arguments: ["info"])

    /// The route that reads a section most directly: a foot route for the foot profile's sections, else by car.
    static func route(for section: String) -> Query { section.hasPrefix("foot.") ? footRoute : carRoute }

    /// What the intact file answers, by query name.
    private var references: [String: String] = [:]

    private func reference(_ query: Query, _ graph: String) throws -> String {
        let key = query.name + " " + graph
        if let known = references[key] { return known }
        let result = try child(query.argv(graph))
        XCTAssertEqual(result.status, 0, "\(query.name) on the intact file: \(result.stderr)")
        references[key] = result.stdout
        return result.stdout
    }

    /// Figures of a run of variants.
    struct Tally: CustomStringConvertible {
        var runs = 0, refused = 0, same = 0, answered = 0
        var description: String { "\(runs) runs: \(refused) refused with exit 3, \(same) gave the intact file's answer, \(answered) other answers" }
    }

    /// Corrupt `variant` (a damaged copy of `graph`): every query either exits 3 naming the file and the section
    /// (`names`, any of them), or answers exactly as the intact file does; never a signal, never another exit.
    private func expectRefusedOrSame(_ variant: [UInt8], of graph: String, section: String, names: [String]? = nil, queries: [Query],
                                     label: String, tally: inout Tally) throws {
        let target = tmp("variant.wfg")
        try Data(variant).write(to: URL(fileURLWithPath: target))
        for query in queries {
            let result = try child(query.argv(target))
            tally.runs += 1
            let what = "\(label), \(query.name)"
            XCTAssertFalse(result.signalled, "\(what): killed by signal \(result.status)\n\(result.stderr)")
            if result.status == 0 {
                XCTAssertEqual(result.stdout, try reference(query, graph), "\(what): exit 0 with another answer than the intact file's")
                tally.same += 1
            } else {
                XCTAssertEqual(result.status, 3, "\(what): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(target), "\(what): the message does not name the file: \(result.stderr)")
                let named = (names ?? [section]).contains { result.stderr.contains("'\($0)'") }
                XCTAssertTrue(named, "\(what): the message does not name section '\(section)': \(result.stderr)")
                tally.refused += 1
            }
        }
    }

    /// Hostile `variant` (checksums made to match): never a signal; exit 0 (any answer: the file says so), 3 (naming
    /// the file), 5 or 6 (no route, no road: the graph now says so) and nothing else.
    private func expectNoCrash(_ variant: [UInt8], section: String, queries: [Query], label: String, tally: inout Tally) throws {
        let target = tmp("variant.wfg")
        try Data(variant).write(to: URL(fileURLWithPath: target))
        for query in queries {
            let result = try child(query.argv(target))
            tally.runs += 1
            let what = "\(label), \(query.name)"
            XCTAssertFalse(result.signalled, "\(what): killed by signal \(result.status)\n\(result.stderr)")
            XCTAssertTrue([0, 3, 5, 6].contains(result.status), "\(what): exit \(result.status): \(result.stderr)")
            if result.status == 3 {
                XCTAssertTrue(result.stderr.contains(target), "\(what): the message does not name the file: \(result.stderr)")
                tally.refused += 1
            } else {
                tally.answered += 1
            }
        }
    }

    /// A targeted hostile value: exit 3 naming the file and `section`, by every query.
    private func expectRefusal(_ variant: [UInt8], section: String, queries: [Query], label: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let target = tmp("targeted.wfg")
        try Data(variant).write(to: URL(fileURLWithPath: target))
        for query in queries {
            let result = try child(query.argv(target))
            let what = "\(label), \(query.name)"
            XCTAssertFalse(result.signalled, "\(what): killed by signal \(result.status)\n\(result.stderr)", file: file, line: line)
            XCTAssertEqual(result.status, 3, "\(what): \(result.stderr)", file: file, line: line)
            XCTAssertTrue(result.stderr.contains(target) && result.stderr.contains("'\(section)'"),
                          "\(what): the message should name the file and section '\(section)': \(result.stderr)", file: file, line: line)
        }
    }

    // MARK: The damage

    /// Damaged copies of `image` for one section: two single-bit flips, up to 8 random bytes, the file cut in the
    /// middle of the section, and three impossible header entries (length 2^63 − 1, so that offset + length
    /// overflows; length 2^64 − 1; offset 2^64 − 64), each with the header checksum made to match.
    static func corruptions(of image: GraphImage, _ section: GraphImage.Section, _ random: inout SeededRandom) -> [(String, [UInt8], hostileToo: Bool)] {
        var out: [(String, [UInt8], hostileToo: Bool)] = []
        for k in 0..<2 {
            var bytes = image.bytes
            let position = section.offset + random.below(section.length)
            bytes[position] ^= 1 << UInt8(random.below(8))
            out.append(("bit flip \(k + 1) at byte \(position - section.offset)", bytes, true))
        }
        var bytes = image.bytes
        let position = section.offset + random.below(section.length)
        for j in position..<min(position + 8, section.offset + section.length) { bytes[j] = UInt8(random.below(256)) }
        out.append(("random bytes at byte \(position - section.offset)", bytes, true))
        out.append(("cut at byte \(section.length / 2)", Array(image.bytes.prefix(section.offset + section.length / 2)), false))
        for (field, value) in [(32, UInt64(Int64.max)), (32, UInt64.max), (24, UInt64.max - 63)] {
            var patched = GraphImage(image.bytes)
            patched.put(value, at: section.entry + field)
            patched.resealHeader()
            out.append(("\(field == 32 ? "length" : "offset") \(value) in the header", patched.bytes, false))
        }
        return out
    }

    /// The runs of one damaged copy: always a route; info too for one of each kind of damage (the second bit flip,
    /// the cut and the last two header entries reach the same code as the first of their kind).
    static func queries(_ label: String, route: Query) -> [Query] {
        label.hasPrefix("bit flip 1") || label.hasPrefix("random") || label.hasPrefix("length 9223") ? [route, info] : [route]
    }

    /// Every section of Monaco's graph file, corrupt and hostile.
    func testEverySectionOfAGraph() throws {
        let graph = try monaco()
        let image = GraphImage(try [UInt8](Data(contentsOf: URL(fileURLWithPath: graph))))
        var random = SeededRandom(seed: 14)
        var corrupt = Tally(), hostile = Tally()
        let sections = image.sections.filter { $0.length > 0 }
        XCTAssertGreaterThan(sections.count, 45)
        for section in sections {
            for (label, bytes, hostileToo) in Self.corruptions(of: image, section, &random) {
                let name = "\(section.name): \(label)"
                let queries = Self.queries(label, route: Self.route(for: section.name))
                try expectRefusedOrSame(bytes, of: graph, section: section.name, queries: queries, label: name, tally: &corrupt)
                guard hostileToo else { continue }
                var sealed = GraphImage(bytes)
                sealed.resealSection(section.index)
                sealed.resealHeader()
                try expectNoCrash(sealed.bytes, section: section.name, queries: queries, label: name + " (checksums made to match)", tally: &hostile)
            }
        }
        // The whole file's size in the header: 2^63 + 5 (the header checksum made to match).
        var huge = GraphImage(image.bytes)
        huge.put(UInt64(1) << 63 + 5, at: 16)
        huge.resealHeader()
        for query in [Self.carRoute, Self.info] {
            let target = tmp("huge.wfg")
            try Data(huge.bytes).write(to: URL(fileURLWithPath: target))
            let result = try child(query.argv(target))
            XCTAssertFalse(result.signalled, "file size 2^63 + 5, \(query.name): signal \(result.status)")
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssertTrue(result.stderr.contains(target) && result.stderr.contains("9223372036854775813"), result.stderr)
        }
        print("corrupt: \(corrupt); hostile: \(hostile)")
        XCTAssertEqual(corrupt.answered, 0)
    }

    /// Every timetable section of a graph imported with a GTFS feed, corrupt and hostile, answered by a transit route.
    func testEveryTimetableSection() throws {
        let graph = try terreHaute()
        let image = GraphImage(try [UInt8](Data(contentsOf: URL(fileURLWithPath: graph))))
        var random = SeededRandom(seed: 15)
        var corrupt = Tally(), hostile = Tally()
        let sections = image.sections.filter { $0.name.hasPrefix("transit.") && $0.length > 0 }
        XCTAssertEqual(sections.count, 18)
        for section in sections {
            for (label, bytes, hostileToo) in Self.corruptions(of: image, section, &random) {
                let name = "\(section.name): \(label)"
                let queries = Self.queries(label, route: Self.transitRoute)
                try expectRefusedOrSame(bytes, of: graph, section: section.name, queries: queries, label: name, tally: &corrupt)
                guard hostileToo else { continue }
                var sealed = GraphImage(bytes)
                sealed.resealSection(section.index)
                sealed.resealHeader()
                try expectNoCrash(sealed.bytes, section: section.name, queries: queries, label: name + " (checksums made to match)", tally: &hostile)
            }
        }
        print("corrupt: \(corrupt); hostile: \(hostile)")
        XCTAssertEqual(corrupt.answered, 0)
    }

    /// One value at a time that breaks one rule of the format, with every checksum made to match: refused, naming the
    /// section (the indices the engines follow: edge ends, offsets, strings, hierarchy ranks, heads, shortcut middles
    /// and halves, original arcs, the spatial index, coordinates).
    func testHostileValuesAreRefusedNamingTheSection() throws {
        let graph = try monaco()
        let image = GraphImage(try [UInt8](Data(contentsOf: URL(fileURLWithPath: graph))))
        let nodes = image.count("node.lat", 4), shapes = image.count("shape.lat", 4), edges = image.count("edge.from", 4)
        let strings = image.count("string.start", 4) - 1, vertices = image.count("car.ch_rank", 4)
        func hostile(_ section: String, _ change: (inout GraphImage) -> Void) -> [UInt8] {
            var patched = GraphImage(image.bytes)
            change(&patched)
            patched.resealSection(patched.index(section))
            patched.resealHeader()
            return patched.bytes
        }
        let routes = [Self.carRoute, Self.info]
        let cases: [(String, String, (inout GraphImage) -> Void)] = [
            ("edge.to", "an edge to node N", { $0.setU32("edge.to", 7, UInt32(nodes)) }),
            ("edge.from", "an edge from node 2^32 − 1", { $0.setU32("edge.from", 0, UInt32.max) }),
            ("edge.shape_start", "shape offsets that go back", { $0.setU32("edge.shape_start", 100, UInt32(shapes)) }),
            ("edge.shape_start", "shape offsets ending past the points", { $0.setU32("edge.shape_start", edges, UInt32(shapes + 1)) }),
            ("string.start", "strings ending past the bytes", { $0.setU32("string.start", strings, UInt32.max) }),
            ("way.name", "a name beyond the strings", { $0.setU32("way.name", 3, UInt32(strings)) }),
            ("car.inc_first", "incidence offsets that go back", { $0.setU32("car.inc_first", 10, 1_000_000) }),
            ("car.inc", "an incidence entry for another node's edge", { p in p.setU32("car.inc", 0, p.u32("car.inc", 0) ^ 1) }),
            ("car.alt_nodes", "a landmark beyond the nodes", { $0.setU32("car.alt_nodes", 0, UInt32(nodes)) }),
            ("node.lat", "a node north of the pole", { $0.setU32("node.lat", 5, UInt32(bitPattern: 910_000_000)) }),
            ("index.items", "an index item beyond the segments", { $0.setU32("index.items", 3, UInt32(shapes + edges)) }),
            ("index.levels", "index levels that disagree with the boxes", { p in p.setU32("index.levels", 1, p.u32("index.levels", 1) + 1) }),
            ("car.ch_rank", "two vertices of the same rank", { p in p.setU32("car.ch_rank", 0, p.u32("car.ch_rank", 1)) }),
            ("car.ch_up_first", "a row that ends past the arcs", { $0.setU32("car.ch_up_first", vertices, UInt32.max) }),
            ("car.ch_up", "an arc to a vertex beyond the hierarchy", { p in p.setArc("car.ch_up", p.firstArc("car.ch_up", shortcut: nil), head: UInt32(vertices)) }),
            ("car.ch_up", "an arc down the hierarchy", { p in p.setArc("car.ch_up", p.firstArc("car.ch_up", shortcut: nil), head: 0) }),
            ("car.ch_up", "a shortcut past a vertex contracted later", { p in
                let arc = p.firstArc("car.ch_up", shortcut: true); p.setArc("car.ch_up", arc, middle: p.arc("car.ch_up", arc).head) }),
            ("car.ch_down", "a downward arc along an edge beyond the graph", { p in
                p.setArc("car.ch_down", p.firstArc("car.ch_down", shortcut: false), middle: 0x8000_0000 | UInt32(2 * edges)) }),
        ]
        for (section, label, change) in cases {
            try expectRefusal(hostile(section, change), section: section, queries: routes, label: "\(section): \(label)")
        }
        // What a route checks as it unpacks the arcs it follows (`info` checks every arc): refused by `info`, naming
        // the section; a route answers (it does not follow the arc) or is refused naming the section, never crashes.
        let unpacked: [(String, String, (inout GraphImage) -> Void)] = [
            ("car.ch_up", "a shortcut without halves", { p in p.breakShortcut("car") }),
            ("car.ch_up", "an original arc along another edge", { p in
                let arc = p.firstArc("car.ch_up", shortcut: false); p.setArc("car.ch_up", arc, middle: (p.arc("car.ch_up", arc).middle ^ 2)) }),
        ]
        for (section, label, change) in unpacked {
            let bytes = hostile(section, change)
            try expectRefusal(bytes, section: section, queries: [Self.info], label: "\(section): \(label)")
            let target = tmp("unpacked.wfg")
            try Data(bytes).write(to: URL(fileURLWithPath: target))
            let result = try child(Self.carRoute.argv(target))
            XCTAssertFalse(result.signalled, "\(section): \(label), route car: killed by signal \(result.status)\n\(result.stderr)")
            XCTAssertTrue(result.status == 0 || (result.status == 3 && (result.stderr.contains("'car.ch_up'") || result.stderr.contains("'car.ch_down'"))),
                          "\(section): \(label), route car: exit \(result.status): \(result.stderr)")
        }
    }

    /// The same for the timetable: stops, trips, services, times, transfers and shapes out of range.
    func testHostileTimetableValuesAreRefusedNamingTheSection() throws {
        let graph = try terreHaute()
        let image = GraphImage(try [UInt8](Data(contentsOf: URL(fileURLWithPath: graph))))
        let stops = image.count("transit.stop_e7", 8), patterns = image.count("transit.pat_route", 4)
        func hostile(_ section: String, _ change: (inout GraphImage) -> Void) -> [UInt8] {
            var patched = GraphImage(image.bytes)
            change(&patched)
            patched.resealSection(patched.index(section))
            patched.resealHeader()
            return patched.bytes
        }
        let queries = [Self.transitRoute, Self.info]
        let cases: [(String, String, (inout GraphImage) -> Void)] = [
            ("transit.pat_stops", "a pattern stop beyond the stops", { $0.setU32("transit.pat_stops", 4, UInt32(stops)) }),
            ("transit.pat_stop0", "pattern offsets that go back", { $0.setU32("transit.pat_stop0", 2, 0) }),
            ("transit.pat_trip0", "trip offsets ending past the trips", { $0.setU32("transit.pat_trip0", patterns, 100_000) }),
            ("transit.pat_route", "a pattern of a route not listed", { $0.setU32("transit.pat_route", 0, 1000) }),
            ("transit.trip_svc", "a trip of a service not listed", { $0.setU32("transit.trip_svc", 3, 1000) }),
            ("transit.trip_head", "a headsign not listed", { $0.setU32("transit.trip_head", 3, UInt32.max) }),
            ("transit.arr", "a negative arrival", { $0.setU32("transit.arr", 10, UInt32(bitPattern: -5)) }),
            ("transit.dep", "a departure of Int32.min", { $0.setU32("transit.dep", 11, UInt32(bitPattern: Int32.min)) }),
            ("transit.xfer_start", "transfer offsets that go back", { $0.setU32("transit.xfer_start", 5, 100_000) }),
            ("transit.xfer_to", "a transfer to a stop not listed", { $0.setU32("transit.xfer_to", 0, UInt32(stops)) }),
            ("transit.xfer_time", "a negative transfer time", { $0.setU32("transit.xfer_time", 0, UInt32(bitPattern: -1)) }),
            ("transit.xfer_dist", "a transfer distance that is not a number", { $0.setU32("transit.xfer_dist", 0, Float.nan.bitPattern) }),
            ("transit.pat_shape", "a shape range past the points", { $0.setU32("transit.pat_shape", 1, UInt32.max) }),
            ("transit.stop_e7", "a stop off the sphere", { $0.setU32("transit.stop_e7", 1, UInt32(bitPattern: Int32.min)) }),
        ]
        for (section, label, change) in cases {
            try expectRefusal(hostile(section, change), section: section, queries: queries, label: "\(section): \(label)")
        }
    }
}

// MARK: - A graph file as bytes

/// A graph file's bytes with its section table, to damage and re-seal (CRC-32 computed here, independently of zlib).
struct GraphImage {
    struct Section { var index: Int; var name: String; var offset: Int; var length: Int; var entry: Int }
    var bytes: [UInt8]
    let sections: [Section]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        let count = Int(Self.load(bytes, 12, UInt32.self))
        sections = (0..<count).map { i in
            let entry = 64 + 48 * i
            let name = String(decoding: bytes[entry..<(entry + 24)].prefix { $0 != 0 }, as: UTF8.self)
            return Section(index: i, name: name, offset: Int(Self.load(bytes, entry + 24, UInt64.self)),
                           length: Int(Self.load(bytes, entry + 32, UInt64.self)), entry: entry)
        }
    }

    static func load<T: FixedWidthInteger>(_ bytes: [UInt8], _ at: Int, _ type: T.Type) -> T {
        var value: T = 0
        for i in 0..<MemoryLayout<T>.size { value |= T(truncatingIfNeeded: bytes[at + i]) << (8 * i) }
        return value
    }

    mutating func put<T: FixedWidthInteger>(_ value: T, at: Int) {
        for i in 0..<MemoryLayout<T>.size { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }

    func index(_ name: String) -> Int { sections.first { $0.name == name }!.index }
    func section(_ name: String) -> Section { sections.first { $0.name == name }! }
    /// Elements of `elementSize` bytes in section `name`.
    func count(_ name: String, _ elementSize: Int) -> Int { section(name).length / elementSize }

    func u32(_ name: String, _ i: Int) -> UInt32 { Self.load(bytes, section(name).offset + 4 * i, UInt32.self) }
    mutating func setU32(_ name: String, _ i: Int, _ value: UInt32) { put(value, at: section(name).offset + 4 * i) }

    /// Hierarchy arcs (16 bytes: head, time, length, middle).
    func arc(_ name: String, _ i: Int) -> (head: UInt32, middle: UInt32) { (u32(name, 4 * i), u32(name, 4 * i + 3)) }
    mutating func setArc(_ name: String, _ i: Int, head: UInt32? = nil, middle: UInt32? = nil) {
        if let head { setU32(name, 4 * i, head) }
        if let middle { setU32(name, 4 * i + 3, middle) }
    }
    /// The first arc (a shortcut, an original arc, or either) of a section of arcs.
    func firstArc(_ name: String, shortcut: Bool?) -> Int {
        (0..<count(name, 16)).first { shortcut == nil || (arc(name, $0).middle & 0x8000_0000 == 0) == shortcut! }!
    }

    /// Points the first upward shortcut of `profile`'s hierarchy past a vertex contracted earlier that lacks its halves.
    mutating func breakShortcut(_ profile: String) {
        let up = "\(profile).ch_up", down = "\(profile).ch_down", firstUp = "\(profile).ch_up_first", firstDown = "\(profile).ch_down_first"
        let vertices = count("\(profile).ch_rank", 4)
        func owner(_ arcIndex: Int, _ first: String) -> Int { (0..<vertices).first { Int(u32(first, $0 + 1)) > arcIndex }! }
        func has(_ arcs: String, _ first: String, row m: Int, head: Int) -> Bool {
            (Int(u32(first, m))..<Int(u32(first, m + 1))).contains { Int(arc(arcs, $0).head) == head }
        }
        let i = firstArc(up, shortcut: true)
        let r = owner(i, firstUp), x = Int(arc(up, i).head)
        let m = (0..<r).first { !(has(down, firstDown, row: $0, head: r) && has(up, firstUp, row: $0, head: x)) }!
        setArc(up, i, middle: UInt32(m))
    }

    /// Recomputes the checksum of section `index` in its table entry.
    mutating func resealSection(_ index: Int) {
        let s = sections[index]
        put(s.length == 0 ? 0 : Self.crc32(bytes[s.offset..<(s.offset + s.length)]), at: s.entry + 40)
    }

    /// Recomputes the header checksum (bytes 0–16383 with its own four bytes as zero).
    mutating func resealHeader() {
        var header = Array(bytes[0..<16384])
        for i in 24..<28 { header[i] = 0 }
        put(Self.crc32(header[...]), at: 24)
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
