import Foundation
import Routing

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

/// Named places for stops given by name: a `name,lat,lon` CSV file (an optional header line is skipped).
public struct PlaceBook: Sendable {
    public var places: [String: Coordinate] = [:]
    public init(_ places: [String: Coordinate] = [:]) { self.places = places }

    public init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw BatchInputError("cannot read places file \(path)") }
        let text = String(decoding: data, as: UTF8.self)
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let fields: [String]
            do { fields = try CSV.fields(String(line)) } catch { throw BatchInputError("places file \(path), line \(lineNumber): \(error)") }
            guard fields.count == 3, let lat = Double(fields[1].trimmingCharacters(in: .whitespaces)),
                  let lon = Double(fields[2].trimmingCharacters(in: .whitespaces)) else {
                if lineNumber == 1 { continue } // header
                throw BatchInputError("places file \(path), line \(lineNumber): expected name,lat,lon")
            }
            places[fields[0].trimmingCharacters(in: .whitespaces)] = Coordinate(latitude: lat, longitude: lon)
        }
    }
}

/// RFC 4180 fields of one record.
public enum CSV {
    public struct QuoteError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Splits a record into fields: commas separate, double quotes enclose fields with commas, quotes ("") or newlines.
    public static func fields(_ record: String) throws -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false, wasQuoted = false, afterQuote = false
        let chars = Array(record.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" { field.unicodeScalars.append(c); i += 1 } else { quoted = false; afterQuote = true }
                } else { field.unicodeScalars.append(c) }
            } else if c == "," {
                fields.append(field); field = ""; wasQuoted = false; afterQuote = false
            } else if c == "\"" {
                guard field.isEmpty && !wasQuoted else { throw QuoteError(description: "bad CSV quoting: a quote inside an unquoted field (column \(fields.count + 1))") }
                quoted = true; wasQuoted = true
            } else if afterQuote {
                if c == "\r" && i == chars.count - 1 { break }
                throw QuoteError(description: "bad CSV quoting: text after a closing quote (column \(fields.count + 1))")
            } else if c == "\r" && i == chars.count - 1 {
                break
            } else {
                field.unicodeScalars.append(c)
            }
            i += 1
        }
        if quoted { throw QuoteError(description: "bad CSV quoting: a quoted field is not closed (column \(fields.count + 1))") }
        fields.append(field)
        return fields
    }

    /// Whether a record text has an open quoted field (it continues on the next line).
    static func isOpen(_ record: String) -> Bool {
        var count = 0
        for u in record.utf8 where u == UInt8(ascii: "\"") { count += 1 }
        return count % 2 == 1
    }

    /// A field quoted when needed (commas, quotes, newlines).
    public static func quote(_ field: String) -> String {
        if field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return field
    }
}

/// Reads a file line by line in chunks, so memory does not grow with its size.
public final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    /// Lines returned so far (the last one's 1-based number).
    public private(set) var lineNumber = 0

    public init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BatchInputError("cannot read input \(path): no such file or not readable") }
        self.handle = handle
    }
    deinit { try? handle.close() }

    /// The next line without its terminator; nil at the end.
    public func next() -> String? {
        while true {
            if let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = nl
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = nl + 1
                lineNumber += 1
                return line
            }
            if eof {
                guard start < buffer.count else { return nil }
                var end = buffer.count
                if buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = buffer.count
                lineNumber += 1
                return line
            }
            if start > 0 { buffer.removeFirst(start); start = 0 }
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { eof = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}

/// Reads jobs from an NDJSON or CSV job file incrementally. Malformed rows come back as `.bad` items.
public final class JobReader {
    public let format: BatchInputFormat
    private let lines: LineReader
    private let places: PlaceBook
    private let timeZone: TimeZone
    private var columns: [String: Int] = [:]
    private var pending: (String, Int)?
    private let dateFormatter: DateFormatter

    /// Opens `path` and detects its format from its first non-blank line; throws when it is neither.
    public init(path: String, places: PlaceBook = PlaceBook(), timeZone: TimeZone = .current) throws {
        lines = try LineReader(path: path)
        self.places = places
        self.timeZone = timeZone
        dateFormatter = DateFormatter()
        dateFormatter.locale = Locale(identifier: "en_US_POSIX")
        dateFormatter.timeZone = timeZone
        var first: String? = nil
        while let line = lines.next() {
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { first = line; break }
        }
        guard let first else { throw BatchInputError("input \(path) is empty: expected NDJSON jobs or a CSV header id,mode,depart,stops") }
        let trimmed = first.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("{") {
            format = .ndjson
            pending = (first, lines.lineNumber)
        } else {
            let header = ((try? CSV.fields(first)) ?? []).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard header.contains("id"), header.contains("stops") else {
                throw BatchInputError("input \(path) is neither NDJSON (one JSON object per line) nor CSV with a header naming id and stops (id,mode,depart,stops); line 1: '\(first.prefix(60))'")
            }
            format = .csv
            for (i, name) in header.enumerated() where columns[name] == nil { columns[name] = i }
        }
    }

    /// The next job or bad row; nil at the end of the file. Blank lines are skipped.
    public func next() -> BatchItem? {
        while true {
            let line: String, number: Int
            if let p = pending { (line, number) = p; pending = nil } else {
                guard let l = lines.next() else { return nil }
                line = l; number = lines.lineNumber
            }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            switch format {
            case .ndjson: return parseJSON(line, line: number)
            case .csv:
                var record = line
                while CSV.isOpen(record), let more = lines.next() { record += "\n" + more }
                return parseCSV(record, line: number)
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
        let stopTexts = (field("stops") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return build(id: id, mode: field("mode"), depart: field("depart"), arrive: field("arrive"), stops: stopTexts.map { .text($0) }, line: line)
    }

    private enum StopValue { case text(String), pair(Double, Double), invalid(String) }

    private func parseJSON(_ text: String, line: Int) -> BatchItem {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            return .bad(id: "line \(line)", line: line, message: "line \(line): not a JSON object")
        }
        var id: String? = object["id"] as? String
        if id == nil, let n = object["id"] as? NSNumber { id = n.stringValue }
        guard let id, !id.isEmpty else { return .bad(id: "line \(line)", line: line, message: "line \(line): no id") }
        func string(_ key: String) -> (String?, Bool) {
            guard let v = object[key], !(v is NSNull) else { return (nil, true) }
            guard let s = v as? String else { return (nil, false) }
            return (s, true)
        }
        let (mode, okMode) = string("mode"), (depart, okDepart) = string("depart"), (arrive, okArrive) = string("arrive")
        guard okMode, okDepart, okArrive else { return .bad(id: id, line: line, message: "line \(line): mode, depart and arrive must be strings") }
        guard let array = object["stops"] as? [Any] else { return .bad(id: id, line: line, message: "line \(line): stops must be an array") }
        let stops: [StopValue] = array.map { value in
            if let s = value as? String { return .text(s) }
            if let pair = value as? [Any], pair.count == 2, let lat = (pair[0] as? NSNumber)?.doubleValue, let lon = (pair[1] as? NSNumber)?.doubleValue {
                return .pair(lat, lon)
            }
            return .invalid("\(value)")
        }
        return build(id: id, mode: mode, depart: depart, arrive: arrive, stops: stops, line: line)
    }

    private func build(id: String, mode: String?, depart: String?, arrive: String?, stops: [StopValue], line: Int) -> BatchItem {
        func bad(_ message: String) -> BatchItem { .bad(id: id, line: line, message: "line \(line): \(message)") }
        var modeName: String? = nil
        if let mode {
            switch mode.lowercased() {
            case "car", "driving", "automobile": modeName = "car"
            case "foot", "walking", "walk": modeName = "foot"
            default: return bad("unknown mode '\(mode)' (car or foot)")
            }
        }
        if depart != nil && arrive != nil { return bad("give depart or arrive, not both") }
        var departDate: Date? = nil, arriveDate: Date? = nil
        if let depart { guard let d = parseDate(depart) else { return bad("depart '\(depart)' is not an ISO 8601 date-time such as 2026-12-01T08:30") }; departDate = d }
        if let arrive { guard let d = parseDate(arrive) else { return bad("arrive '\(arrive)' is not an ISO 8601 date-time such as 2026-12-01T08:30") }; arriveDate = d }
        var coordinates: [Coordinate] = []
        for (i, stop) in stops.enumerated() {
            switch stop {
            case let .pair(lat, lon):
                guard abs(lat) <= 90, abs(lon) <= 180 else { return bad("stop \(i + 1) (\(lat),\(lon)) is outside ±90/±180") }
                coordinates.append(Coordinate(latitude: lat, longitude: lon))
            case let .invalid(text): return bad("stop \(i + 1) '\(text)' is neither [lat,lon], \"lat,lon\" nor a place name")
            case let .text(text):
                if let c = places.places[text] { coordinates.append(c); continue }
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]), lat.isFinite, lon.isFinite else {
                    return bad("stop \(i + 1) '\(text)' is not lat,lon nor a place in --places")
                }
                guard abs(lat) <= 90, abs(lon) <= 180 else { return bad("stop \(i + 1) '\(text)' is outside ±90/±180") }
                coordinates.append(Coordinate(latitude: lat, longitude: lon))
            }
        }
        guard coordinates.count >= 2 else { return bad("a job needs at least two stops, got \(coordinates.count)") }
        return .job(BatchJob(id: id, mode: modeName, depart: departDate, arrive: arriveDate, stops: coordinates, line: line))
    }

    private func parseDate(_ text: String) -> Date? {
        for pattern in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mmXXXXX", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm",
                        "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            dateFormatter.dateFormat = pattern
            if let date = dateFormatter.date(from: text) { return date }
        }
        return nil
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
