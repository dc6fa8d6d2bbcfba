import Foundation
import Wayfinder

/// Appends rows to the output file: whole rows per write(2); the runner fsyncs it every second and at the end.
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

    /// Writes `text` whole (retrying short writes).
    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Writes `bytes` whole (retrying short writes).
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; throw BatchInputError("write failed: \(String(cString: strerror(errno)))") }
            offset += n
        }
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
