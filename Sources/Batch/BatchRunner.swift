import Foundation
import Wayfinder

/// How rows are written.
public enum BatchOutputFormat: String, Sendable { case ndjson, csv }
/// Which geometry a row carries.
public enum BatchGeometry: String, Sendable { case none, polyline, polyline6, geojson }

/// Options of a batch run.
public struct BatchOptions: Sendable {
    public var format: BatchOutputFormat = .ndjson
    public var geometry: BatchGeometry = .none
    public var steps = false
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    public var timeZone: TimeZone = .current
    /// Mode of jobs that give none.
    public var defaultMode = "car"
    /// Departure of jobs that give neither depart nor arrive (the batch's start by default).
    public var defaultDeparture = Date()
    public var maximumSnappingDistance = 1000.0
    /// Only jobs of this shard (k of n, k from 1).
    public var shard: (k: Int, n: Int)? = nil
    /// Jobs routed together before their rows are written (and the file synced).
    public var window = 0
    public init() {}
}

/// One row of the output, already formatted.
public struct BatchRow: Sendable {
    public var id: String
    public var ok: Bool
    public var text: String
}

/// Formats results as NDJSON or CSV rows, with the names of the route JSON (`expectedTravelTime`, `distance`,
/// `expectedDepartureDate`, `expectedArrivalDate`, `instructions`), sorted keys, metres and seconds to 0.1
/// (docs/schemas/batch-job.schema.json). NDJSON rows are written by `JSONWriter`, CSV fields by `CSV`.
public struct BatchRowFormatter: Sendable {
    public let options: BatchOptions
    public init(options: BatchOptions) { self.options = options }

    /// The CSV columns, in order.
    public var columns: [String] {
        var columns = ["id", "status", "message", "distance", "expectedTravelTime", "expectedDepartureDate", "expectedArrivalDate",
                       "legDistances", "legExpectedTravelTimes"]
        if options.geometry != .none { columns.append("geometry") }
        if options.steps { columns.append("steps") }
        return columns
    }

    /// The CSV header line (with its newline), or nil for NDJSON.
    public var header: String? { options.format == .csv ? CSV.row(columns) : nil }

    public func failure(id: String, status: String, message: String) -> BatchRow {
        switch options.format {
        case .ndjson:
            var w = JSONWriter(capacity: 128)
            w.beginObject()
            w.key("id"); w.string(id)
            w.key("message"); w.string(message)
            w.key("status"); w.string(status)
            w.endObject()
            return BatchRow(id: id, ok: false, text: w.text + "\n")
        case .csv:
            var fields = [id, status, message] + Array(repeating: "", count: columns.count - 3)
            fields.reserveCapacity(columns.count)
            return BatchRow(id: id, ok: false, text: CSV.row(fields))
        }
    }

    /// The row of a job routed in full (geometry and steps as the options ask); `places`, the job's stops when any
    /// was given by name, add a `places` member to an NDJSON row (`ResolvedStop.placeJSON`).
    public func success(id: String, result: RouteResult, places: [ResolvedStop] = []) -> BatchRow {
        let route = result.routes[0]
        return row(id: id, eta: result.eta, route: route, places: places)
    }

    /// The row of a job answered by an ETA alone (options with no geometry and no steps): the same text as
    /// `success(id:result:)` writes for that job's full route.
    public func success(id: String, eta: ETASummary, places: [ResolvedStop] = []) -> BatchRow {
        row(id: id, eta: eta, route: nil, places: places)
    }

    /// The row of a transit job: its ETA, the route form of its itineraries (for geometry and steps, nil without
    /// them) and, in NDJSON, its `rides`, `transfers` and `walkingDistance` (as `eta --mode transit --format json`).
    public func success(id: String, eta: ETASummary, route: Route?, transit: (rides: Int, transfers: Int, walkingDistance: Double),
                        places: [ResolvedStop] = []) -> BatchRow {
        row(id: id, eta: eta, route: route, places: places, transit: transit)
    }

    /// Whether these options need a full route (geometry or steps), not just an ETA.
    public var needsFullRoute: Bool { options.geometry != .none || options.steps }

    /// A success row from the totals and each leg's; the geometry and steps, as the options ask, from `route`.
    private func row(id: String, eta: ETASummary, route: Route?, places: [ResolvedStop] = [],
                     transit: (rides: Int, transfers: Int, walkingDistance: Double)? = nil) -> BatchRow {
        switch options.format {
        case .ndjson:
            var w = JSONWriter(capacity: 512)
            w.beginObject()
            w.key("distance"); w.numberOrNull(eta.distance, decimals: 1)
            w.key("expectedArrivalDate"); w.string(ISO8601.string(eta.expectedArrivalDate, in: eta.timeZone))
            w.key("expectedDepartureDate"); w.string(ISO8601.string(eta.expectedDepartureDate, in: eta.timeZone))
            w.key("expectedTravelTime"); w.numberOrNull(eta.expectedTravelTime, decimals: 1)
            if let route {
                switch options.geometry {
                case .none: break
                case .polyline: w.key("geometry"); w.string(PolylineEncoder.encode(route.polyline, precision: 5))
                case .polyline6: w.key("geometry"); w.string(PolylineEncoder.encode(route.polyline, precision: 6))
                case .geojson: w.key("geometry"); w.raw(JSONValue.lineString(route.polyline).encoded())
                }
            }
            w.key("id"); w.string(id)
            w.key("legs"); w.beginArray()
            for (distance, time) in zip(eta.legDistances, eta.legTravelTimes) {
                w.beginObject()
                w.key("distance"); w.numberOrNull(distance, decimals: 1)
                w.key("expectedTravelTime"); w.numberOrNull(time, decimals: 1)
                w.endObject()
            }
            w.endArray()
            w.key("message"); w.string("")
            if !places.isEmpty { w.key("places"); w.raw(JSONValue.array(places.map(\.placeJSON)).encoded()) }
            if let transit { w.key("rides"); w.int(transit.rides) }
            w.key("status"); w.string("ok")
            if let route, options.steps {
                w.key("steps"); w.beginArray()
                for step in route.steps {
                    w.beginObject()
                    w.key("distance"); w.numberOrNull(step.distance, decimals: 1)
                    w.key("expectedTravelTime"); w.numberOrNull(step.expectedTravelTime, decimals: 1)
                    w.key("instructions"); w.string(step.instructions)
                    w.endObject()
                }
                w.endArray()
            }
            if let transit {
                w.key("transfers"); w.int(transit.transfers)
                w.key("walkingDistance"); w.numberOrNull(transit.walkingDistance, decimals: 1)
            }
            w.endObject()
            return BatchRow(id: id, ok: true, text: w.text + "\n")
        case .csv:
            var fields = [id, "ok", "", Self.number(eta.distance), Self.number(eta.expectedTravelTime),
                          ISO8601.string(eta.expectedDepartureDate, in: eta.timeZone),
                          ISO8601.string(eta.expectedArrivalDate, in: eta.timeZone),
                          eta.legDistances.map { Self.number($0) }.joined(separator: ";"),
                          eta.legTravelTimes.map { Self.number($0) }.joined(separator: ";")]
            if let route {
                switch options.geometry {
                case .none: break
                case .polyline: fields.append(PolylineEncoder.encode(route.polyline, precision: 5))
                case .polyline6: fields.append(PolylineEncoder.encode(route.polyline, precision: 6))
                case .geojson: fields.append(JSONValue.lineString(route.polyline).serialized())
                }
                if options.steps { fields.append(route.steps.map(\.instructions).joined(separator: " | ")) }
            }
            return BatchRow(id: id, ok: true, text: CSV.row(fields))
        }
    }

    /// Metres or seconds to 0.1, without trailing zeros ("12.3", "75"), as every JSON output writes them.
    static func number(_ value: Double) -> String { FixedDecimal.string(value, decimals: 1) }
}

/// Routes one job into a row.
public func routeJob(_ job: BatchJob, map: OfflineMap, formatter: BatchRowFormatter) -> BatchRow {
    let o = formatter.options
    let mode = job.mode ?? o.defaultMode
    let transport: TransportType = mode == "transit" ? .transit : mode == "foot" ? .walking : .automobile
    let request = DirectionsRequest(stops: job.stops, transportType: transport, departureDate: job.depart ?? (job.arrive == nil ? o.defaultDeparture : nil),
                                    arrivalDate: job.arrive, maximumSnappingDistance: o.maximumSnappingDistance, timeZone: o.timeZone)
    do {
        let directions = Directions(request, map: map)
        if transport == .transit {
            // The trip `eta --mode transit` gives (primary itinerary per pair of stops); its route form carries the
            // geometry and steps (walk steps, one step per ride) when the options ask for them.
            let trip = try directions.calculateTransit()
            let result = trip.routeResult
            return formatter.success(id: job.id, eta: result.eta, route: formatter.needsFullRoute ? result.routes[0] : nil,
                                     transit: (trip.rides, trip.transfers, trip.walkingDistance))
        }
        // Without geometry and steps a row needs only times and distances: the ETA path lays out no route.
        guard formatter.needsFullRoute else { return formatter.success(id: job.id, eta: try directions.calculateETA(), places: job.places) }
        return formatter.success(id: job.id, result: try directions.calculate(), places: job.places)
    } catch {
        let status: String
        switch error {
        case .routing(.noRoute): status = "no_route"
        case .routing(.noRoad): status = "no_road"
        case .routing(.invalidCoordinate): status = "bad_stop"
        case .routing(.unknownProfile): status = "unknown_profile"
        case .transit(.noTransitRoute): status = "no_route"
        case .transit(.noRoad): status = "no_road"
        case .transit(.invalidCoordinate): status = "bad_stop"
        default: status = "bad_row"
        }
        return formatter.failure(id: job.id, status: status, message: "line \(job.line): \(error.description)")
    }
}

/// Appends rows to the output file: one write(2) per whole row, fsync after every window and at the end.
public final class RowWriter {
    private let fd: Int32
    /// Opens `path` for appending (emptied first with `truncate`); refuses a path that exists and is not a regular
    /// file (a device, FIFO, socket or folder).
    public init(path: String, truncate: Bool) throws {
        if let refusal = OutputPath.refusal(path) { throw BatchInputError(refusal) }
        let flags = O_WRONLY | O_CREAT | O_APPEND | (truncate ? O_TRUNC : 0)
        fd = open(path, flags, 0o644)
        guard fd >= 0 else { throw BatchInputError("cannot write output \(path): \(String(cString: strerror(errno)))") }
    }
    deinit { close(fd) }

    public func write(_ text: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; throw BatchInputError("write failed: \(String(cString: strerror(errno)))") }
            offset += n
        }
        bytes.removeAll()
    }

    public func sync() { fsync(fd) }
}

/// What `--resume` finds in an existing output: the ids of its complete rows in order (rows are always written in
/// input order, so they are the first jobs of the input), after dropping what is not a complete row.
public struct ResumeState: Sendable {
    /// The ids of the rows kept, in file order.
    public var ids: [String] = []
    /// Whether the file starts with the CSV header.
    public var hasHeader = false
    /// The 1-based line from which the file was cut, and why (a torn last row, or a line that is no row), if it was.
    public var dropped: (line: Int, reason: String)? = nil
    public init() {}
}

public enum ResumeScanner {
    static let statuses: Set<String> = ["ok", "no_route", "no_road", "bad_stop", "bad_row", "unknown_profile"]

    /// Reads the output at `path` for `--resume` with `options`: refuses a file of another format (NDJSON for CSV,
    /// other CSV columns, geometry or steps where the options give none or the reverse) or one that does not start
    /// as a batch output; cuts the file before its first record that is not a complete row of this format (a torn
    /// last row, a garbage line) so that everything from there is routed again.
    public static func scan(path: String, options: BatchOptions) throws -> ResumeState {
        var state = ResumeState()
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return state }
        let bytes = [UInt8](data)
        let formatter = BatchRowFormatter(options: options)
        let expectedHeader = formatter.header.map { String($0.dropLast()) }
        let expectedColumns = options.format == .csv ? formatter.columns.count : 0
        var index = 0
        var checkedKeys = false
        for (text, recordStart, recordLine, complete) in records(bytes, format: options.format) {
            func cut(_ reason: String) throws {
                guard truncate(path, off_t(recordStart)) == 0 else { throw BatchInputError("cannot cut \(path) at line \(recordLine) for --resume: \(String(cString: strerror(errno)))") }
                state.dropped = (recordLine, reason)
            }
            guard complete else { try cut("a torn last row (no line end)"); break }
            defer { index += 1 }
            if index == 0 {
                // The first record tells the format: it must be this format's (and its columns the options').
                let looksCSV = text.hasPrefix("id,status,"), looksJSON = text.hasPrefix("{")
                if options.format == .ndjson && looksCSV {
                    throw BatchInputError("\(path) holds CSV rows (it starts with a CSV header), but --format is ndjson: resume with --format csv, or give another --output")
                }
                if options.format == .csv && looksJSON {
                    throw BatchInputError("\(path) holds NDJSON rows, but --format is csv: resume with --format ndjson, or give another --output")
                }
                if options.format == .csv {
                    guard looksCSV else { throw BatchInputError("\(path) does not start with the CSV header of a batch output: not resumable (line 1: '\(text.prefix(60))')") }
                    guard text == expectedHeader else {
                        throw BatchInputError("\(path) has the columns \(text), but these options write \(expectedHeader ?? ""): resume with the --geometry and --steps of the first run, or give another --output")
                    }
                    state.hasHeader = true
                    continue
                }
            }
            guard let (id, status, keys) = row(text, format: options.format, columns: expectedColumns) else {
                if index == 0 { throw BatchInputError("\(path) does not start with a batch output row: not resumable (line 1: '\(text.prefix(60))')") }
                try cut("line \(recordLine) is not a complete \(options.format.rawValue) row ('\(text.prefix(40))')")
                break
            }
            if status == "ok" && options.format == .ndjson && !checkedKeys {
                checkedKeys = true
                let hasGeometry = keys.contains("geometry"), hasSteps = keys.contains("steps")
                if hasGeometry != (options.geometry != .none) || hasSteps != options.steps {
                    func describe(_ g: Bool, _ s: Bool) -> String { g || s ? [g ? "geometry" : nil, s ? "steps" : nil].compactMap { $0 }.joined(separator: " and ") : "neither geometry nor steps" }
                    throw BatchInputError("\(path) has rows with \(describe(hasGeometry, hasSteps)), but these options write \(describe(options.geometry != .none, options.steps)): resume with the --geometry and --steps of the first run, or give another --output")
                }
            }
            state.ids.append(id)
        }
        return state
    }

    /// The records of an output: text (without its line end), byte offset, 1-based line, and whether a line end
    /// closes it. A CSV record ends at a newline outside quotes (a quoted geometry or step may span lines).
    public static func records(_ bytes: [UInt8], format: BatchOutputFormat) -> [(text: String, offset: Int, line: Int, complete: Bool)] {
        var out: [(String, Int, Int, Bool)] = []
        var at = 0, line = 1
        while at < bytes.count {
            let start = at, startLine = line
            var quoted = false
            while at < bytes.count {
                let c = bytes[at]
                if c == UInt8(ascii: "\"") && format == .csv { quoted.toggle() }
                if c == 0x0A { line += 1; if !quoted { break } }
                at += 1
            }
            out.append((String(decoding: bytes[start..<at], as: UTF8.self), start, startLine, at < bytes.count))
            at = min(at + 1, bytes.count)
        }
        return out
    }

    /// The id, status and (NDJSON) keys of a complete output row, or nil when `text` is not one.
    static func row(_ text: String, format: BatchOutputFormat, columns: Int) -> (id: String, status: String, keys: Set<String>)? {
        switch format {
        case .ndjson:
            guard let o = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
                  let id = o["id"] as? String, let status = o["status"] as? String, statuses.contains(status) else { return nil }
            return (id, status, Set(o.keys))
        case .csv:
            guard let fields = try? CSV.fields(text), fields.count == columns, statuses.contains(fields[1]) else { return nil }
            return (fields[0], fields[1], [])
        }
    }

    /// The id of an output row.
    public static func rowID(_ line: String, format: BatchOutputFormat) -> String? {
        switch format {
        case .ndjson:
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
            return o["id"] as? String
        case .csv:
            // Rows may span lines only inside quoted geometry/steps, never before the id; the id is the first field.
            guard let first = try? CSV.fields(String(line.prefix { $0 != "\n" })).first else {
                // The first field alone when later fields are open quotes on this line.
                if line.hasPrefix("\"") {
                    var s = line.dropFirst(); var id = ""
                    while let c = s.first { s = s.dropFirst(); if c == "\"" { if s.first == "\"" { id.append("\""); s = s.dropFirst() } else { return id } } else { id.append(c) } }
                    return nil
                }
                return line.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            }
            return first
        }
    }
}

/// Counts of a finished run.
public struct BatchSummary: Sendable {
    public var ok = 0
    public var failed = 0
    public var skipped = 0
}

/// Runs a batch: reads jobs incrementally, routes a bounded window at a time on `threads` threads, writes rows in input order.
public final class BatchRunner {
    /// The map every job is routed on.
    public let map: OfflineMap
    public let options: BatchOptions
    public init(map: OfflineMap, options: BatchOptions) { self.map = map; self.options = options }

    private final class Slots: @unchecked Sendable {
        let items: [BatchItem]
        let rows: UnsafeMutablePointer<BatchRow?>
        private let lock = NSLock()
        private var nextIndex = 0
        init(_ items: [BatchItem]) { self.items = items; rows = .allocate(capacity: items.count); rows.initialize(repeating: nil, count: items.count) }
        deinit { rows.deinitialize(count: items.count); rows.deallocate() }
        func take() -> Int? { lock.lock(); defer { lock.unlock() }; guard nextIndex < items.count else { return nil }; nextIndex += 1; return nextIndex - 1 }
    }

    /// Runs the jobs of `reader` (of the shard), writing rows to `writer`; `progress` gets the jobs done after each
    /// window. With `--resume`, `done` holds the ids of the rows already written: they are the first jobs, in order,
    /// each skipped once (so duplicate ids are each handled once); an id that differs is an error (the output is not
    /// from this job file), found before any row is written.
    public func run(reader: JobReader, writer: RowWriter, done: [String] = [], progress: (Int) -> Void) throws -> BatchSummary {
        let formatter = BatchRowFormatter(options: options)
        let threads = max(1, options.threads)
        let window = options.window > 0 ? options.window : max(64, threads * 32)
        var summary = BatchSummary()
        let map = self.map
        while true {
            var chunk: [BatchItem] = []
            chunk.reserveCapacity(window)
            while chunk.count < window, let item = reader.next() {
                if let shard = options.shard, Shard.shard(of: item.id, count: shard.n) != shard.k { continue }
                if summary.skipped < done.count {
                    guard item.id == done[summary.skipped] else {
                        throw BatchInputError("--resume: row \(summary.skipped + 1) of the output is job '\(done[summary.skipped])', but job \(summary.skipped + 1) of the input is '\(item.id)': the output is not from this job file (or this --shard); give another --output")
                    }
                    summary.skipped += 1
                    continue
                }
                chunk.append(item)
            }
            if chunk.isEmpty {
                if summary.skipped < done.count {
                    throw BatchInputError("--resume: the output has \(done.count) rows but the input only \(summary.skipped) jobs: the output is not from this job file (or this --shard); give another --output")
                }
                break
            }
            let slots = Slots(chunk)
            DispatchQueue.concurrentPerform(iterations: min(threads, chunk.count)) { _ in
                while let i = slots.take() {
                    let row: BatchRow
                    switch slots.items[i] {
                    case let .job(job): row = routeJob(job, map: map, formatter: formatter)
                    case let .bad(id, _, message): row = formatter.failure(id: id, status: "bad_row", message: message)
                    }
                    slots.rows[i] = row
                }
            }
            for i in 0..<chunk.count {
                let row = slots.rows[i]!
                try writer.write(row.text)
                if row.ok { summary.ok += 1 } else { summary.failed += 1 }
            }
            writer.sync()
            progress(summary.ok + summary.failed)
        }
        writer.sync()
        return summary
    }
}
