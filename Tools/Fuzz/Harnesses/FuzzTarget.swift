import Foundation
import OSM
import Graph
import Routing
import Transit
import Wayfinder
import Batch
import Server
import CZlib
#if canImport(Glibc)
import Glibc
#endif

/// The parsers under fuzzing, each a function from arbitrary bytes to nothing: it may throw inside (bad input is
/// expected and caught), but must never crash, trap or hang. `wayfinder-fuzz` runs them under libFuzzer, and
/// `FuzzRegressionTests` replays the seed corpus and every crash ever found through them.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// OSM XML through the reader, plain, gzip or bzip2 as told from the first bytes (PBF goes to the PBF reader).
    case xml
    /// OSM PBF through the block reader (blob headers, libdeflate, the block decoder), on two threads.
    case pbf
    /// A GTFS zip: the archive reader, then every member as a CSV table, then the whole feed through the timetable
    /// builder over a small road graph, and when it builds, planned by transit (GTFSFeedTarget.swift).
    case gtfsZip = "gtfs-zip"
    /// A GTFS feed as text: one file of a tiny valid feed (picked by the first byte) replaced by the rest of the
    /// input, the feed built into a timetable over a small road graph, written, opened and planned by transit.
    case gtfsFeed = "gtfs-feed"
    /// One GTFS CSV table (the RFC 4180 reader), with its columns read as numbers and strings.
    case csv
    /// A graph file: opened (verified as a route would) and, when it opens, a route on it and a snap, and a few
    /// searches of its place index when it has one that opens.
    case graphFile = "graph-file"
    /// An encoded polyline at precision 5 and 6.
    case polyline
    /// An HTTP request line (`/route/v1/driving/…?…`, `/search/v1?q=…`) answered by the OSRM-compatible service over
    /// Monaco, whose graph file has a place index.
    case osrmURL = "osrm-url"
    /// A batch job file (NDJSON or CSV), read to the end.
    case batchJobs = "batch-jobs"
    /// HTTP request heads through the server's parser, as a connection reads them, whole and cut in two (HTTPHeadTarget.swift).
    case httpHead = "http-head"
    /// A places file (`eta --to-file`, `matrix`, `trip`, `batch --places`, the map page's favourites) through its
    /// reader, and each row's name resolved against Monaco's place index (loose and strict, with suggestions).
    case placesFile = "places-file"
    /// OSM data imported whole as `wayfinder import` makes a graph (tag rules, graph builder, places, landmarks,
    /// hierarchies, metadata), then opened and routed (ImportTarget.swift).
    case osmImport = "osm-import"
    /// A profile table file (`wayfinder import --profiles`) used to import a drawn map of tagged ways, then opened and
    /// routed by each of its profiles (ImportTarget.swift).
    case profiles

    /// Runs the target once on `data`.
    public func run(_ data: UnsafeRawBufferPointer) {
        switch self {
        case .xml: FuzzTarget.xml(data)
        case .pbf: FuzzTarget.pbf(data)
        case .gtfsZip: FuzzTarget.gtfsZip(Array(data))
        case .gtfsFeed: FuzzTarget.gtfsFeed(data)
        case .csv: FuzzTarget.csv(Array(data))
        case .graphFile: FuzzTarget.graphFile(data)
        case .polyline: FuzzTarget.polyline(data)
        case .osrmURL: FuzzTarget.osrmURL(data)
        case .batchJobs: FuzzTarget.batchJobs(data)
        case .httpHead: FuzzTarget.httpHead(data)
        case .placesFile: FuzzTarget.placesFile(data)
        case .osmImport: FuzzTarget.osmImport(data)
        case .profiles: FuzzTarget.profiles(data)
        }
    }

    /// Runs the target once on `bytes`.
    public func run(_ bytes: [UInt8]) { bytes.withUnsafeBytes { run($0) } }

    /// Longest input worth trying (libFuzzer's -max_len): graph files are whole files, the rest small.
    public var maximumLength: Int { self == .graphFile ? 1 << 20 : self == .gtfsZip || self == .pbf ? 1 << 17 : 1 << 14 }
}

// MARK: - The targets

extension FuzzTarget {
    /// A byte source over memory.
    final class MemorySource: ByteSource {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
            let n = min(buffer.count, bytes.count - offset)
            if n > 0 { bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) } }
            offset += n
            return n
        }
    }

    /// Counts what the reader hands out (and touches every field, so nothing is optimised away).
    final class CountingHandler: OSMElementHandler {
        var total = 0
        func handle(node: OSMNode) { total &+= Int(truncatingIfNeeded: node.id) &+ node.tags.count }
        func handle(way: OSMWay) { total &+= way.nodeIDs.count &+ way.tags.count }
        func handle(relation: OSMRelation) { total &+= relation.members.count &+ relation.tags.count }
    }

    static func xml(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data)
        do {
            let raw = MemorySource(bytes)
            let source: ByteSource
            switch try InputCompression.detect(Array(bytes.prefix(16)), name: "fuzz") {
            case .none: source = raw
            case .gzip: source = try GzipByteSource(input: raw, name: "fuzz")
            case .bzip2: source = try Bzip2ByteSource(input: raw, name: "fuzz")
            case .pbf: pbf(data); return
            }
            let handler = CountingHandler()
            try OSMXMLReader(source: source, name: "fuzz", handler: handler).read(chunkSize: 1 << 16, maximumTokenBytes: 1 << 20)
        } catch {}
    }

    static func pbf(_ data: UnsafeRawBufferPointer) {
        let handler = CountingHandler()
        do { try OSMPBFReader(source: MemorySource(Array(data)), name: "fuzz", handler: handler, threads: 2).read() } catch {}
    }

    static func gtfsZip(_ bytes: [UInt8]) {
        guard let archive = try? ZipArchive(bytes: bytes, path: "fuzz.zip") else { return }
        for name in ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt",
                     "transfers.txt", "frequencies.txt", "shapes.txt"] {
            guard let member = try? archive.contents(of: name) else { continue }
            csv(member)
        }
        let path = scratchPath("feed.zip")
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        defer { unlink(path) }
        guard prepareFeed(), let tiny = tinyGraph else { return }
        _ = buildAndPlan(feed: path, over: tiny.path)
    }

    static func csv(_ bytes: [UInt8]) {
        guard let table = try? CSVTable(bytes: bytes, feed: "fuzz", file: "fuzz.txt") else { return }
        var sink = 0
        for column in ["stop_id", "stop_lat", "arrival_time", "trip_id", "route_type", "date"] {
            let index = try? table.require(column)
            for r in 0..<min(table.count, 1000) {
                sink &+= table.int(r, index) ?? 0
                sink &+= Int((table.double(r, index) ?? 0).isFinite ? 1 : 0)
                sink &+= table.string(r, index).utf8.count
                sink &+= table.line(r)
            }
        }
        if sink == 42 { print("") }
    }

    /// The bytes as given (mostly refused by a checksum), then with every CRC-32 recomputed over them: a hostile
    /// file whose contents the structural checks must catch before any search follows them.
    static func graphFile(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data)
        openAndRoute(bytes)
        if let hostile = withRecomputedChecksums(bytes), hostile != bytes { openAndRoute(hostile) }
    }

    /// `bytes` with each section's CRC-32 (where the section lies inside the bytes) and the header's recomputed
    /// (docs/graph-format.md); nil when there is no header to fix.
    static func withRecomputedChecksums(_ bytes: [UInt8]) -> [UInt8]? {
        typealias Format = GraphFileFormat
        guard bytes.count >= Format.headerSize, bytes.starts(with: Format.magic) else { return nil }
        var out = bytes
        let count = out.withUnsafeBytes { min(Int(Format.load($0, at: Format.Field.sectionCount, as: UInt32.self)), Format.maxSections) }
        for i in 0..<count {
            let entry = out.withUnsafeBytes { Format.RawEntry($0, index: i) }
            guard entry.offset <= UInt64(out.count), entry.length <= UInt64(out.count) - entry.offset else { continue }
            let crc = entry.length == 0 ? 0 : out.withUnsafeBytes {
                Format.crc32(UnsafeRawBufferPointer(rebasing: $0[Int(entry.offset)..<Int(entry.offset + entry.length)]))
            }
            Format.store(crc, into: &out, at: Format.entryStart(i) + Format.EntryField.crc32)
        }
        Format.resealHeader(&out)
        return out
    }

    static func openAndRoute(_ bytes: [UInt8]) {
        let path = scratchPath("graph.wfg")
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        defer { unlink(path) }
        openAndRoute(path: path)
    }

    /// The graph file at `path` opened (verified as a route would) and, when it opens, a few searches of its place
    /// index, a route by each profile between two points of its box, and transit when it has a timetable; how many
    /// of the routes were found.
    @discardableResult
    static func openAndRoute(path: String) -> Int {
        guard let graph = try? RoadGraph(path: path) else { return 0 }
        // Its place index, when it has one that opens: a few searches (words, a typo, a category near a point).
        if PlaceIndex.isPresent(in: graph.file), let index = try? PlaceIndex(file: graph.file, verifyingChecksums: false) {
            let searcher = PlaceSearcher(index: index)
            let categories = index.categoryList()
            for query in [PlaceQuery("casino monte"), PlaceQuery("restaurnt", near: (43.73, 7.42)),
                          PlaceQuery("", category: categories.first?.value, near: (43.73, 7.42), limit: 50)] {
                _ = try? searcher.search(query)
            }
            _ = searcher.closestTokens(to: "kasinno", maxDistance: 3, limit: 3)
        }
        var found = 0
        for profile in graph.profiles.map(\.profile.name) {
            guard let router = try? Router(graph: graph, profile: profile) else { continue }
            let box = (graph.metadata.statistics.minLatitude, graph.metadata.statistics.minLongitude,
                       graph.metadata.statistics.maxLatitude, graph.metadata.statistics.maxLongitude)
            let a = Coordinate(latitude: Double(box.0) * 1e-7 * 0.7 + Double(box.2) * 1e-7 * 0.3, longitude: Double(box.1) * 1e-7 * 0.7 + Double(box.3) * 1e-7 * 0.3)
            let b = Coordinate(latitude: Double(box.0) * 1e-7 * 0.3 + Double(box.2) * 1e-7 * 0.7, longitude: Double(box.1) * 1e-7 * 0.3 + Double(box.3) * 1e-7 * 0.7)
            guard a.latitude.isFinite, b.latitude.isFinite, abs(a.latitude) <= 90, abs(b.latitude) <= 90,
                  abs(a.longitude) <= 180, abs(b.longitude) <= 180 else { continue }
            if (try? router.routes(through: [a, b])) != nil { found += 1 }
        }
        if Timetable.isPresent(in: graph.file) { planTransit(on: graph) }
        return found
    }

    /// Transit over the graph's timetable, when one opens: a depart-at and an arrive-by plan between two points on the
    /// seed's map (Tests/FuzzRegressionTests/Graphs/monaco-tiny-gtfs), the one-to-many search with refined itineraries,
    /// and a 30-minute departure window, on a Monday morning inside the feed's service. Returns how many answered.
    @discardableResult
    public static func planTransit(on graph: RoadGraph) -> Int {
        guard let router = try? TransitRouter(graph: graph) else { return 0 }
        let palace = Coordinate(latitude: 43.7329, longitude: 7.4222), port = Coordinate(latitude: 43.7320, longitude: 7.4268)
        let museum = Coordinate(latitude: 43.7314, longitude: 7.4241)
        let monday = Date(timeIntervalSince1970: 1_796_626_500)  // 2026-12-07T06:55:00Z, 07:55 in Monaco
        var answered = 0
        if (try? router.plan(from: palace, to: port, departure: monday)) != nil { answered += 1 }
        if (try? router.plan(from: port, to: palace, arrival: monday.addingTimeInterval(3600))) != nil { answered += 1 }
        if let rows = try? router.earliestArrivals(from: palace, departure: monday, to: [port, museum], refine: true) {
            answered += rows.filter { if case .success = $0 { return true } else { return false } }.count
        }
        if (try? router.departureWindow(from: museum, to: port, departure: monday, window: 1800)) != nil { answered += 1 }
        return answered
    }

    static func polyline(_ data: UnsafeRawBufferPointer) {
        let text = String(decoding: data, as: UTF8.self)
        for precision in [5, 6] {
            // The decoder reads any well-formed string (at a wrong precision values come out too large); the encoder
            // takes coordinates, so only points that are degrees go back through it, and they must round-trip.
            guard let points = try? PolylineEncoder.decode(text, precision: precision),
                  points.allSatisfy({ abs($0.latitude) <= 90 && abs($0.longitude) <= 180 }) else { continue }
            let again = try? PolylineEncoder.decode(PolylineEncoder.encode(points, precision: precision), precision: precision)
            precondition(again?.count == points.count, "an encoded polyline did not decode to as many points")
        }
    }

    /// The OSRM service over the Monaco sample, made once per process (imported into a scratch folder).
    nonisolated(unsafe) static var service: WayfinderService? = nil

    /// Makes what the targets share (the OSRM service); false when it cannot be made, so a target would test nothing.
    public static func prepare() -> Bool {
        if service == nil { service = makeService() }
        return service != nil
    }

    /// Whether the service answers a place search (its graph file has the place index the `/search/v1` seeds need).
    public static var searchesPlaces: Bool {
        guard prepare(), let service else { return false }
        return service.respond(to: HTTPRequest(method: "GET", path: "/search/v1", query: [("q", "casino")])).status == 200
    }

    static func osrmURL(_ data: UnsafeRawBufferPointer) {
        if service == nil { service = makeService() }
        guard let service else { return }
        // As the server hands it over: the path and the query arguments, percent-decoded.
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = percentDecoded(String(parts[0]))
        var query: [(name: String, value: String)] = []
        if parts.count > 1 {
            for item in parts[1].split(separator: "&", omittingEmptySubsequences: false) {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((percentDecoded(String(pair[0])), pair.count > 1 ? percentDecoded(String(pair[1])) : ""))
            }
        }
        let response = service.respond(to: HTTPRequest(method: "GET", path: path.hasPrefix("/") ? path : "/" + path, query: query))
        if response.status == 0 { print("") }
    }

    static func batchJobs(_ data: UnsafeRawBufferPointer) {
        let path = scratchPath("jobs.txt")
        guard FileManager.default.createFile(atPath: path, contents: Data(data)) else { return }
        defer { unlink(path) }
        guard let reader = try? JobReader(path: path, places: PlaceBook(["Port": Coordinate(latitude: 43.7312, longitude: 7.4197)])) else { return }
        var count = 0
        while let item = reader.next(), count < 100_000 { count += 1; _ = item.id }
    }

    /// The rows of a places file, then (for at most 20 of them) the resolver's answer for each row as a file gives it
    /// and for its name as a stop typed on the command line, loosely and with `--strict-names`, and the spellings a
    /// name that matches nothing would be offered. Answers must lie on the map's roads' side of the world: a
    /// coordinate the resolver hands back is checked to be a valid one.
    static func placesFile(_ data: UnsafeRawBufferPointer) {
        let text = String(decoding: data, as: UTF8.self)
        guard let rows = try? PlacesFile.parseRows(text, file: "fuzz", maxNameBytes: 4096) else { return }
        for row in rows {
            if let c = row.coordinate, !(c.latitude.isFinite && c.longitude.isFinite && abs(c.latitude) <= 90 && abs(c.longitude) <= 180) {
                fatalError("places file row \(row.line) gave an invalid coordinate \(c)")
            }
        }
        if service == nil { service = makeService() }
        guard let map = service?.map else { return }
        let loose = StopResolver(map: map), strict = StopResolver(map: map, strictNames: true)
        let some = Array(rows.prefix(20))
        for resolver in [loose, strict] {
            if let places = try? resolver.resolve(rows: some, file: "fuzz") {
                precondition(places.count == some.count, "the resolver answered \(places.count) places for \(some.count) rows")
            }
            for row in some.prefix(5) {
                if let stop = try? resolver.resolve(row.name) {
                    precondition(stop.coordinate.latitude.isFinite && stop.coordinate.longitude.isFinite, "a resolved stop without a position")
                }
            }
        }
        for row in some.prefix(3) { _ = loose.suggestions(for: row.name) }
    }

    // MARK: Support

    static func percentDecoded(_ text: String) -> String { text.removingPercentEncoding ?? text }

    /// A per-process path on a memory file system when there is one.
    static func scratchPath(_ name: String) -> String {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(folder)/wayfinder-fuzz-\(getpid())-\(name)"
    }

    /// The Monaco sample imported into a scratch file with its place index (WAYFINDER_FUZZ_GRAPH names a graph file to
    /// use instead).
    static func makeService() -> WayfinderService? {
        var path = ProcessInfo.processInfo.environment["WAYFINDER_FUZZ_GRAPH"]
        if path == nil, let sample = sampleURL("monaco.osm.gz") {
            // As `wayfinder import` makes it, with the place index (so `/search/v1` reaches the searcher), without the
            // landmarks and hierarchies (quicker to make; the routes come from A*).
            let output = scratchPath("service.wfg")
            var options = MapImporter.Options()
            options.landmarks = false
            options.contractionHierarchies = false
            do { _ = try MapImporter(options: options).run(input: sample.path, output: output) } catch { return nil }
            path = output
        }
        guard let path, let map = try? OfflineMap(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        return try? WayfinderService(map: map)
    }

    /// A file of the package's Data/ folder, found from this source file's place in the tree or the current folder.
    public static func sampleURL(_ name: String) -> URL? { packageURL("Data/\(name)") }

    /// A file or folder at `relativePath` in the package, found from this source file's place in the tree or the
    /// current folder; nil when neither holds it.
    static func packageURL(_ relativePath: String) -> URL? {
        let fromSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(relativePath)
        for url in [fromSource, URL(fileURLWithPath: relativePath)] where FileManager.default.fileExists(atPath: url.path) { return url }
        return nil
    }
}
