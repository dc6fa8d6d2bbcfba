import Foundation

/// Why a places file cannot be used: unreadable, empty, or a line at fault (named as `file:line:`).
public struct PlacesFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    /// The 1-based line at fault, nil for the file as a whole.
    public let line: Int?
    public let message: String
    public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}

/// One line of a places file: a name, and its coordinate unless the line gives a name alone (to be looked up on the
/// map, `StopResolver.resolve(rows:file:near:)`).
public struct PlacesFileRow: Equatable, Sendable {
    public var name: String
    public var coordinate: Coordinate?
    /// The 1-based line it is on.
    public var line: Int
    public init(name: String, coordinate: Coordinate?, line: Int) { self.name = name; self.coordinate = coordinate; self.line = line }
}

/// Files of named places, the one reader behind `eta --to-file`, `matrix --sources/--destinations`,
/// `trip --stops-file` and `batch --places`: one place per line as `lat,lon`, `lat,lon,name` or `name,lat,lon` (or,
/// where a map can look names up, a name alone), an optional header line naming those columns, blank lines ignored,
/// RFC 4180 quotes (`CSV`), a UTF-8 byte-order mark and CRLF or CR line ends tolerated.
public enum PlacesFile {
    /// The headers a first line may be (lower case, spaces trimmed).
    static let headers: [[String]] = [["name", "lat", "lon"], ["lat", "lon"], ["lat", "lon", "name"], ["name"]]

    /// Reads the file at `path`; `maxNameBytes` bounds names and, with room for the numbers, lines.
    public static func read(path: String, role: String = "places", maxNameBytes: Int = 1 << 20) throws(PlacesFileError) -> [ETAPlace] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlacesFileError(file: path, line: nil, message: "cannot read the \(role) file (no such file, or not readable)")
        }
        let places = try parse(String(decoding: data, as: UTF8.self), file: path, maxNameBytes: maxNameBytes)
        if places.isEmpty { throw PlacesFileError(file: path, line: nil, message: "no places in the file (expected lat,lon lines)") }
        return places
    }

    /// Reads the file at `path`, rows giving a name alone included (`parseRows`).
    public static func readRows(path: String, role: String = "places", maxNameBytes: Int = 1 << 20) throws(PlacesFileError) -> [PlacesFileRow] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlacesFileError(file: path, line: nil, message: "cannot read the \(role) file (no such file, or not readable)")
        }
        let rows = try parseRows(String(decoding: data, as: UTF8.self), file: path, maxNameBytes: maxNameBytes)
        if rows.isEmpty { throw PlacesFileError(file: path, line: nil, message: "no places in the file (expected lat,lon lines or names)") }
        return rows
    }

    /// The places of a file's text, in order; every line must give a coordinate.
    public static func parse(_ text: String, file: String, maxNameBytes: Int = 1 << 20) throws(PlacesFileError) -> [ETAPlace] {
        try parseRows(text, file: file, maxNameBytes: maxNameBytes).map { row throws(PlacesFileError) in
            guard let c = row.coordinate else {
                throw PlacesFileError(file: file, line: row.line, message: "expected lat,lon (with an optional name column), got the name '\(row.name)' alone")
            }
            return ETAPlace(name: row.name, coordinate: c)
        }
    }

    /// The rows of a file's text, in order: a line of one field that is not a number is a name alone.
    public static func parseRows(_ text: String, file: String, maxNameBytes: Int = 1 << 20) throws(PlacesFileError) -> [PlacesFileRow] {
        let maxLine = maxNameBytes + 256
        var line = 1, length = 0, previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A || byte == 0x0D {
                if !(byte == 0x0A && previous == 0x0D) { line += 1 }
                length = 0
            } else {
                length += 1
                if length > maxLine {
                    throw PlacesFileError(file: file, line: line, message: "a line longer than a place may be (a name of at most \(maxNameBytes) bytes, --max-name-bytes)")
                }
            }
            previous = byte
        }
        let records: [CSV.Record]
        do { records = try CSV.records(text) } catch { throw PlacesFileError(file: file, line: error.line, message: error.description) }
        var places: [PlacesFileRow] = []
        for (index, record) in records.enumerated() {
            func bad(_ why: String) -> PlacesFileError { PlacesFileError(file: file, line: record.line, message: why) }
            let trimmed = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            if index == 0 && headers.contains(trimmed.map { $0.lowercased() }) { continue }
            let name: String, latText: String, lonText: String
            switch trimmed.count {
            case 1 where !trimmed[0].isEmpty && Coordinate.decimal(trimmed[0]) == nil:
                guard trimmed[0].utf8.count <= maxNameBytes else {
                    throw bad("the name is \(trimmed[0].utf8.count) bytes long, more than the \(maxNameBytes) a name may have (--max-name-bytes)")
                }
                places.append(PlacesFileRow(name: trimmed[0], coordinate: nil, line: record.line))
                continue
            case 2: (name, latText, lonText) = ("", trimmed[0], trimmed[1])
            case 3 where Coordinate.decimal(trimmed[0]) != nil && Coordinate.decimal(trimmed[1]) != nil: (name, latText, lonText) = (trimmed[2], trimmed[0], trimmed[1])
            case 3: (name, latText, lonText) = (trimmed[0], trimmed[1], trimmed[2])
            default: throw bad("expected lat,lon (with an optional name column), got \(trimmed.count) fields")
            }
            guard let lat = Coordinate.decimal(latText), let lon = Coordinate.decimal(lonText) else {
                throw bad("latitude and longitude must be numbers, got '\(latText)' and '\(lonText)'")
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else {
                throw bad("\(latText),\(lonText) is not a coordinate (latitude within ±90, longitude within ±180)")
            }
            guard name.utf8.count <= maxNameBytes else {
                throw bad("the name is \(name.utf8.count) bytes long, more than the \(maxNameBytes) a name may have (--max-name-bytes)")
            }
            places.append(PlacesFileRow(name: name, coordinate: Coordinate(latitude: lat, longitude: lon), line: record.line))
        }
        return places
    }
}
