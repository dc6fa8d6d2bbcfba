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
    /// The subtitle column, empty when the file has none.
    public var subtitle: String
    public init(name: String, coordinate: Coordinate?, line: Int, subtitle: String = "") {
        self.name = name; self.coordinate = coordinate; self.line = line; self.subtitle = subtitle
    }
}

/// Files of named places, the one reader behind `eta --to-file`, `matrix --sources/--destinations`,
/// `trip --stops-file`, `batch --places` and the map page's favourites: one place per line as `lat,lon`,
/// `lat,lon,name` or `name,lat,lon`, optionally followed by a subtitle column (`name,lat,lon,subtitle`), or, where a
/// map can look names up, a name alone; an optional header line naming those columns, blank lines ignored, RFC 4180
/// quotes (`CSV`), a UTF-8 byte-order mark and CRLF or CR line ends tolerated.
public enum PlacesFile {
    /// The headers a first line may be (lower case, spaces trimmed).
    static let headers: [[String]] = [["name", "lat", "lon"], ["lat", "lon"], ["lat", "lon", "name"],
                                      ["name", "lat", "lon", "subtitle"], ["lat", "lon", "name", "subtitle"], ["name"]]

    /// Reads the file at `path`; `maxNameBytes` bounds names and subtitles and, with room for the numbers, lines.
    public static func read(path: String, role: String = "places", maxNameBytes: Int = 1 << 20) throws(PlacesFileError) -> [ETAPlace] {
        try places(of: readRows(path: path, role: role, maxNameBytes: maxNameBytes), file: path)
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
        try places(of: parseRows(text, file: file, maxNameBytes: maxNameBytes), file: file)
    }

    /// The places of rows that must all give a coordinate (a name alone is an error naming its line).
    static func places(of rows: [PlacesFileRow], file: String) throws(PlacesFileError) -> [ETAPlace] {
        try rows.map { row throws(PlacesFileError) in
            guard let c = row.coordinate else {
                throw PlacesFileError(file: file, line: row.line, message: "expected lat,lon (with an optional name column), got the name '\(row.name)' alone")
            }
            return ETAPlace(name: row.name, coordinate: c, subtitle: row.subtitle)
        }
    }

    /// The rows of a file's text, in order: a line of one field that is not a number is a name alone.
    public static func parseRows(_ text: String, file: String, maxNameBytes: Int = 1 << 20) throws(PlacesFileError) -> [PlacesFileRow] {
        let maxLine = 2 * maxNameBytes + 256
        var line = 1, length = 0, previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A || byte == 0x0D {
                if !(byte == 0x0A && previous == 0x0D) { line += 1 }
                length = 0
            } else {
                length += 1
                if length > maxLine {
                    throw PlacesFileError(file: file, line: line, message: "a line longer than a place may be (a name and a subtitle of at most \(maxNameBytes) bytes each, --max-name-bytes)")
                }
            }
            previous = byte
        }
        let records: [CSV.Record]
        do { records = try CSV.records(text) } catch { throw PlacesFileError(file: file, line: error.line, message: error.description) }
        var places: [PlacesFileRow] = []
        var nameHeader = false   // a `name,lat,lon…` header: three numbers are a name (a house number), then lat,lon
        for (index, record) in records.enumerated() {
            func bad(_ why: String) -> PlacesFileError { PlacesFileError(file: file, line: record.line, message: why) }
            let trimmed = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            if index == 0, let header = headers.first(where: { $0 == trimmed.map { $0.lowercased() } }) {
                nameHeader = header[0] == "name"
                continue
            }
            let name: String, latText: String, lonText: String
            let number = { (i: Int) in i < trimmed.count && Coordinate.decimal(trimmed[i]) != nil }
            let latLonFirst = number(0) && number(1) && !(nameHeader && number(2))
            switch trimmed.count {
            case 1 where !trimmed[0].isEmpty && Coordinate.decimal(trimmed[0]) == nil:
                guard trimmed[0].utf8.count <= maxNameBytes else {
                    throw bad("the name is \(trimmed[0].utf8.count) bytes long, more than the \(maxNameBytes) a name may have (--max-name-bytes)")
                }
                places.append(PlacesFileRow(name: trimmed[0], coordinate: nil, line: record.line))
                continue
            case 2: (name, latText, lonText) = ("", trimmed[0], trimmed[1])
            case 3 where latLonFirst, 4 where latLonFirst: (name, latText, lonText) = (trimmed[2], trimmed[0], trimmed[1])
            case 3, 4: (name, latText, lonText) = (trimmed[0], trimmed[1], trimmed[2])
            default: throw bad("expected lat,lon (with optional name and subtitle columns), got \(trimmed.count) fields")
            }
            let subtitle = trimmed.count == 4 ? trimmed[3] : ""
            guard let lat = Coordinate.decimal(latText), let lon = Coordinate.decimal(lonText) else {
                throw bad("latitude and longitude must be numbers, got '\(latText)' and '\(lonText)'")
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else {
                throw bad("\(latText),\(lonText) is not a coordinate (latitude within ±90, longitude within ±180)")
            }
            guard name.utf8.count <= maxNameBytes else {
                throw bad("the name is \(name.utf8.count) bytes long, more than the \(maxNameBytes) a name may have (--max-name-bytes)")
            }
            guard subtitle.utf8.count <= maxNameBytes else {
                throw bad("the subtitle is \(subtitle.utf8.count) bytes long, more than the \(maxNameBytes) a subtitle may have (--max-name-bytes)")
            }
            places.append(PlacesFileRow(name: name, coordinate: Coordinate(latitude: lat, longitude: lon), line: record.line, subtitle: subtitle))
        }
        return places
    }
}
