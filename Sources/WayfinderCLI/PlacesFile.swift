import Foundation
import Wayfinder

/// Files of places for `eta --to-file`, `matrix` and `trip --stops-file`: one place per line as `lat,lon`,
/// `lat,lon,name` or `name,lat,lon`, an optional header line naming those columns, blank lines ignored,
/// RFC 4180 quotes, a UTF-8 byte-order mark and CRLF or CR line ends tolerated.
enum PlacesFile {
    /// Reads and parses a places file; errors name the file and line (exit code 3).
    static func read(_ path: String, role: String = "places") throws -> [ETAPlace] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CommandError(message: "cannot read \(role) file \(path): \((error as NSError).localizedDescription)", exitCode: ExitCode.badInput)
        }
        let places = try parse(String(decoding: data, as: UTF8.self), file: path)
        if places.isEmpty { throw CommandError(message: "\(path): no places in the file (expected lat,lon lines)", exitCode: ExitCode.badInput) }
        return places
    }

    /// The places of a file's text, in order.
    static func parse(_ text: String, file: String) throws -> [ETAPlace] {
        var places: [ETAPlace] = []
        var sawRecord = false
        // Line ends LF, CRLF or a lone CR. (A Swift String's "\r\n" is one Character, so splitting on "\n" alone
        // would leave a CRLF file as one line: the ends are normalised on the UTF-16 level first.)
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalised.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0].removeFirst() }
        for (index, line) in lines.enumerated() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            func bad(_ why: String) -> CommandError { CommandError(message: "\(file):\(index + 1): \(why)", exitCode: ExitCode.badInput) }
            guard let fields = csvFields(line) else { throw bad("unterminated or misplaced quote in '\(line)'") }
            let trimmed = fields.map { $0.trimmingCharacters(in: .whitespaces) }
            if !sawRecord {
                sawRecord = true
                let header = trimmed.map { $0.lowercased() }
                if [["name", "lat", "lon"], ["lat", "lon"], ["lat", "lon", "name"]].contains(header) { continue }
            }
            let name: String, latText: String, lonText: String
            switch trimmed.count {
            case 2: (name, latText, lonText) = ("", trimmed[0], trimmed[1])
            case 3 where Double(trimmed[0]) != nil && Double(trimmed[1]) != nil: (name, latText, lonText) = (trimmed[2], trimmed[0], trimmed[1])
            case 3: (name, latText, lonText) = (trimmed[0], trimmed[1], trimmed[2])
            default: throw bad("expected lat,lon (with an optional name column), got \(fields.count) fields in '\(line)'")
            }
            guard let lat = Double(latText), let lon = Double(lonText), lat.isFinite, lon.isFinite else {
                throw bad("latitude and longitude must be numbers, got '\(latText)' and '\(lonText)'")
            }
            guard abs(lat) <= 90, abs(lon) <= 180 else { throw bad("\(lat),\(lon) is not a valid coordinate (latitude within ±90, longitude within ±180)") }
            places.append(ETAPlace(name: name, coordinate: Coordinate(latitude: lat, longitude: lon)))
        }
        return places
    }

    /// The fields of one RFC 4180 record on one line, or nil when its quoting is malformed.
    static func csvFields(_ line: String) -> [String]? {
        var fields: [String] = []
        var field = ""
        var chars = Array(line)[...]
        while true {
            field = ""
            // Leading spaces before an opening quote are tolerated.
            let spaces = chars.prefix { $0 == " " }
            if chars.dropFirst(spaces.count).first == "\"" {
                chars = chars.dropFirst(spaces.count + 1)
                var closed = false
                while let c = chars.first {
                    chars = chars.dropFirst()
                    if c == "\"" {
                        if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { closed = true; break }
                    } else {
                        field.append(c)
                    }
                }
                guard closed else { return nil }
                while chars.first == " " { chars = chars.dropFirst() }
                guard chars.isEmpty || chars.first == "," else { return nil }
            } else {
                while let c = chars.first, c != "," {
                    if c == "\"" { return nil }
                    field.append(c)
                    chars = chars.dropFirst()
                }
            }
            fields.append(field)
            if chars.isEmpty { return fields }
            chars = chars.dropFirst() // the comma
        }
    }
}
