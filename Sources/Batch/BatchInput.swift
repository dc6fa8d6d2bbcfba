import Foundation
import Wayfinder

/// Why a batch cannot start: the input is missing, unreadable or not a job file.
public struct BatchInputError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One entry of a job file: a job ready to route, or a row that could not be read (it fails alone, with its line).
public enum BatchItem: Sendable {
    case job(BatchJob)
    /// A malformed row: its id when one could be read (else "line N"), its line, and what is wrong.
    case bad(id: String, line: Int, message: String)

    public var id: String {
        switch self {
        case let .job(job): return job.id
        case let .bad(id, _, _): return id
        }
    }
}

/// The two job file formats, told apart by content.
public enum BatchInputFormat: String, Sendable {
    case ndjson, csv
}

/// Named places for stops given by name: a places file as `PlacesFile` reads it (`name,lat,lon` lines, an optional
/// header, RFC 4180 quotes, LF, CRLF or lone CR line ends). Names longer than the limits' `maxNameBytes` are refused,
/// and so are lines long enough to hold one.
public struct PlaceBook: Sendable {
    public var places: [String: Coordinate] = [:]
    public init(_ places: [String: Coordinate] = [:]) { self.places = places }

    public init(contentsOfFile path: String, limits: BatchLimits = BatchLimits()) throws {
        let list: [ETAPlace]
        do { list = try PlacesFile.read(path: path, role: "places", maxNameBytes: limits.maxNameBytes) } catch {
            throw BatchInputError("places file \(error.description)")
        }
        for place in list { places[place.name] = place.coordinate }
    }
}

/// Reads a file line by line in chunks, so memory does not grow with its size: a line longer than
/// `maxLineBytes` is skipped over without being kept (`next()` gives "" and `lastLineOverflow` its length).
public final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes from `start` already searched for a newline.
    private var scanned = 0
    private var eof = false
    /// Lines longer than this (without their line end) are not kept.
    public var maxLineBytes = Int.max
    /// Lines returned so far (the last one's 1-based number).
    public private(set) var lineNumber = 0
    /// The length of the last line returned, when it was longer than `maxLineBytes` (it came back as "").
    public private(set) var lastLineOverflow: Int? = nil

    public init(path: String) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BatchInputError("cannot read input \(path): no such file or not readable") }
    }
    deinit { close(fd) }

    /// The next line without its terminator (LF or CRLF); nil at the end.
    public func next() -> String? {
        lastLineOverflow = nil
        var dropped = 0   // bytes of this line already let go (it is too long to keep)
        while true {
            if let newline = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                return finish(end: newline, next: newline + 1, dropped: dropped)
            }
            scanned = buffer.count - start
            if eof {
                guard start < buffer.count || dropped > 0 else { return nil }
                return finish(end: buffer.count, next: buffer.count, dropped: dropped)
            }
            if scanned > maxLineBytes {
                dropped += scanned
                buffer.removeAll(keepingCapacity: true); start = 0; scanned = 0
            } else if start > 0 {
                buffer.removeFirst(start); start = 0
            }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { eof = true } else { buffer.append(contentsOf: chunk[0..<n]) }
        }
    }

    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// The line from `start` to `end` (a CR before it dropped), and the reader moved on to `next`.
    private func finish(end: Int, next: Int, dropped: Int) -> String {
        var last = end
        if last > start && buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        let length = dropped + last - start
        defer { start = next; scanned = 0; lineNumber += 1 }
        if dropped > 0 || length > maxLineBytes { lastLineOverflow = length; return "" }
        return String(decoding: buffer[start..<last], as: UTF8.self)
    }
}

/// Reads jobs from an NDJSON or CSV job file incrementally. Malformed rows come back as `.bad` items.
public final class JobReader {
    public let format: BatchInputFormat
    /// What one job may hold (stops, name lengths, and so the length of a row).
    public let limits: BatchLimits
    private let lines: LineReader
    private let places: PlaceBook
    /// Looks up stops given as place names on the map (nil: only `lat,lon` and the names of `places`).
    private let resolver: StopResolver?
    private let timeZone: TimeZone
    private var columns: [String: Int] = [:]
    /// Lines read but not yet used (read ahead for a multi-line CSV record that did not make a job).
    private var pending: [Line] = []

    /// A line of the file: its text ("" when too long), its number, and its length when too long to keep.
    private struct Line { var text: String; var number: Int; var overflow: Int? }

    /// Most lines a quoted CSV field may span.
    static let maxRecordLines = 100

    /// Opens `path` and detects its format from its first non-blank line; throws when it is neither. With
    /// `resolver`, a stop that is neither `lat,lon` nor a name of `places` is looked up on its map (near the stop
    /// before; `strictNames` from the resolver unless a job says `"strictNames"`).
    public init(path: String, places: PlaceBook = PlaceBook(), resolver: StopResolver? = nil, timeZone: TimeZone = .current,
                limits: BatchLimits = BatchLimits()) throws {
        lines = try LineReader(path: path)
        lines.maxLineBytes = limits.maxRowBytes
        self.places = places
        self.resolver = resolver
        self.timeZone = timeZone
        self.limits = limits
        var first: String? = nil
        while let line = lines.next() {
            if lines.lastLineOverflow != nil || !line.trimmingCharacters(in: .whitespaces).isEmpty { first = line; break }
        }
        guard let first else { throw BatchInputError("input \(path) is empty: expected NDJSON jobs or a CSV header id,mode,depart,stops") }
        if let overflow = lines.lastLineOverflow {
            throw BatchInputError("input \(path): line \(lines.lineNumber) is \(overflow) bytes long, longer than a job row may be (\(limits.maxRowBytes) bytes); expected NDJSON jobs or a CSV header id,mode,depart,stops")
        }
        let trimmed = first.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("{") {
            format = .ndjson
            pending = [Line(text: first, number: lines.lineNumber, overflow: nil)]
        } else {
            let header = ((try? CSV.fields(first)) ?? []).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard header.contains("id"), header.contains("stops") else {
                throw BatchInputError("input \(path) is neither NDJSON (one JSON object per line) nor CSV with a header naming id and stops (id,mode,depart,stops); line 1: '\(first.prefix(60))'")
            }
            format = .csv
            for (i, name) in header.enumerated() where columns[name] == nil { columns[name] = i }
        }
    }

    /// Whether a line holds only white space (what `trimmingCharacters(in: .whitespaces)` would empty), tested
    /// without building a trimmed copy: a job line stops at its first character.
    static func isBlank(_ line: String) -> Bool {
        line.unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) }
    }

    private func nextLine() -> Line? {
        if !pending.isEmpty { return pending.removeFirst() }
        guard let text = lines.next() else { return nil }
        return Line(text: text, number: lines.lineNumber, overflow: lines.lastLineOverflow)
    }

    /// The next job or bad row; nil at the end of the file. Blank lines are skipped; every other line gives an item
    /// (a CSV record spans several lines only when its quoted field does and the lines together make a job).
    public func next() -> BatchItem? {
        while true {
            guard let line = nextLine() else { return nil }
            let number = line.number
            if let overflow = line.overflow {
                return .bad(id: "line \(number)", line: number, message: "line \(number): \(overflow) bytes long, longer than a job row may be (\(limits.maxRowBytes) bytes: \(limits.maxStops) stops of up to \(limits.maxNameBytes) bytes; raise --max-stops or --max-name-bytes)")
            }
            if Self.isBlank(line.text) { continue }
            switch format {
            case .ndjson: return parseJSON(line.text, line: number)
            case .csv:
                guard CSV.isOpen(line.text) else { return parseCSV(line.text, line: number) }
                // A quoted field left open: it may go on over the next lines (RFC 4180). Take them while it stays
                // open, within bounds; only if they close it and make a job are they one record. Otherwise (a stray
                // quote) this line alone is a bad row and the lines taken are read again, each as its own row.
                var record = line.text
                var taken: [Line] = []
                while CSV.isOpen(record), taken.count < Self.maxRecordLines, let more = nextLine() {
                    taken.append(more)
                    guard more.overflow == nil, record.utf8.count + 1 + more.text.utf8.count <= limits.maxRowBytes else { break }
                    record += "\n" + more.text
                }
                if !CSV.isOpen(record), case let .job(job) = parseCSV(record, line: number) { return .job(job) }
                pending.insert(contentsOf: taken, at: 0)
                return parseCSV(line.text, line: number)
            }
        }
    }

    private func parseCSV(_ record: String, line: Int) -> BatchItem {
        let fields: [String]
        do { fields = try CSV.fields(record) } catch { return .bad(id: "line \(line)", line: line, message: "line \(line): \(error)") }
        func field(_ name: String) -> String? {
            guard let i = columns[name], i < fields.count else { return nil }
            let v = fields[i].trimmingCharacters(in: .whitespaces)
            return v.isEmpty ? nil : v
        }
        guard let id = field("id") else { return .bad(id: "line \(line)", line: line, message: "line \(line): no id") }
        if let tooLong = longID(id, line: line) { return tooLong }
        let stopTexts = (field("stops") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return build(id: id, mode: field("mode"), depart: field("depart"), arrive: field("arrive"), stops: stopTexts.map { .text($0) }, strictNames: nil, line: line)
    }

    private enum StopValue { case text(String), pair(Double, Double), invalid(String) }

    private func parseJSON(_ text: String, line: Int) -> BatchItem {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            return .bad(id: "line \(line)", line: line, message: "line \(line): not a JSON object")
        }
        var id: String? = object["id"] as? String
        if id == nil, let n = object["id"] as? NSNumber { id = n.stringValue }
        guard let id, !id.isEmpty else { return .bad(id: "line \(line)", line: line, message: "line \(line): no id") }
        if let tooLong = longID(id, line: line) { return tooLong }
        func string(_ key: String) -> (String?, Bool) {
            guard let v = object[key], !(v is NSNull) else { return (nil, true) }
            guard let s = v as? String else { return (nil, false) }
            return (s, true)
        }
        let (mode, okMode) = string("mode"), (depart, okDepart) = string("depart"), (arrive, okArrive) = string("arrive")
        guard okMode, okDepart, okArrive else { return .bad(id: id, line: line, message: "line \(line): mode, depart and arrive must be strings") }
        guard let array = object["stops"] as? [Any] else { return .bad(id: id, line: line, message: "line \(line): stops must be an array") }
        var strictNames: Bool? = nil
        if let value = object["strictNames"], !(value is NSNull) {
            guard let flag = value as? Bool else { return .bad(id: id, line: line, message: "line \(line): strictNames must be true or false") }
            strictNames = flag
        }
        let stops: [StopValue] = array.map { value in
            if let s = value as? String { return .text(s) }
            if let pair = value as? [Any], pair.count == 2, let lat = (pair[0] as? NSNumber)?.doubleValue, let lon = (pair[1] as? NSNumber)?.doubleValue {
                return .pair(lat, lon)
            }
            return .invalid("\(value)")
        }
        return build(id: id, mode: mode, depart: depart, arrive: arrive, stops: stops, strictNames: strictNames, line: line)
    }

    /// A bad row for an id longer than the limit (the row gets the id `line N`), or nil.
    private func longID(_ id: String, line: Int) -> BatchItem? {
        guard id.utf8.count > limits.maxNameBytes else { return nil }
        return .bad(id: "line \(line)", line: line, message: "line \(line): the id is \(id.utf8.count) bytes long, more than the \(limits.maxNameBytes) an id may have (raise it with --max-name-bytes)")
    }

    private func build(id: String, mode: String?, depart: String?, arrive: String?, stops: [StopValue], strictNames: Bool?, line: Int) -> BatchItem {
        func bad(_ message: String) -> BatchItem { .bad(id: id, line: line, message: "line \(line): \(message)") }
        guard stops.count <= limits.maxStops else {
            return bad("\(stops.count) stops, more than the \(limits.maxStops) a job may have (raise it with --max-stops)")
        }
        var modeName: String? = nil
        if let mode {
            // The one table of mode names; transit jobs are answered from the graph's timetable.
            guard let type = TransportType(name: mode) else { return bad("unknown mode '\(mode)' (car, foot or transit)") }
            modeName = type == .transit ? "transit" : type.profileName
        }
        if depart != nil && arrive != nil { return bad("give depart or arrive, not both") }
        var departDate: Date? = nil, arriveDate: Date? = nil
        if let depart {
            do { departDate = try ISO8601.date(from: depart, timeZone: timeZone) } catch { return bad("depart \(error.description)") }
        }
        if let arrive {
            do { arriveDate = try ISO8601.date(from: arrive, timeZone: timeZone) } catch { return bad("arrive \(error.description)") }
        }
        var coordinates: [Coordinate] = []
        var resolved: [ResolvedStop] = []
        var byName = false
        for (i, stop) in stops.enumerated() {
            defer { if resolved.count < coordinates.count, let c = coordinates.last { resolved.append(ResolvedStop(text: "", coordinate: c, source: .coordinate)) } }
            switch stop {
            case let .pair(lat, lon):
                do { coordinates.append(try Coordinate(checkedLatitude: lat, longitude: lon)) } catch { return bad("stop \(i + 1) \(error.description)") }
            case let .invalid(text): return bad("stop \(i + 1) '\(text.prefix(80))' is neither [lat,lon], \"lat,lon\" nor a place name")
            case let .text(text):
                guard text.utf8.count <= limits.maxNameBytes else {
                    return bad("stop \(i + 1) is \(text.utf8.count) bytes long, more than the \(limits.maxNameBytes) a place name may have (raise it with --max-name-bytes)")
                }
                if let c = places.places[text] { coordinates.append(c); continue }
                do { coordinates.append(try Coordinate(parsing: text)) } catch {
                    guard error.reason.hasPrefix("is not") else { return bad("stop \(i + 1) \(error.description)") }
                    guard var resolver else { return bad("stop \(i + 1) '\(text)' is not lat,lon nor a place in --places") }
                    if let strictNames { resolver.strictNames = strictNames }
                    do {
                        let stop = try resolver.resolve(text, near: coordinates.last)
                        coordinates.append(stop.coordinate); resolved.append(stop); byName = true
                    } catch {
                        var e = error
                        e.stopIndex = i
                        return bad(e.description)
                    }
                }
            }
        }
        guard coordinates.count >= 2 else { return bad("a job needs at least two stops, got \(coordinates.count)") }
        var job = BatchJob(id: id, mode: modeName, depart: departDate, arrive: arriveDate, stops: coordinates, line: line)
        if byName { job.places = resolved }
        return .job(job)
    }
}

/// Stable sharding of jobs by id: FNV-1a 64 of the id's UTF-8 bytes, modulo the shard count.
public enum Shard {
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash ^= UInt64(byte); hash = hash &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// The shard (1...count) an id belongs to.
    public static func shard(of id: String, count: Int) -> Int { Int(fnv1a64(id) % UInt64(count)) + 1 }
}
