import Foundation
import Wayfinder

/// Stops given on the command line or in places files, read by Wayfinder's one `StopResolver` (`lat,lon`, else a
/// place name searched near the stop before), and the lines that say which place each name was taken to be.
enum StopNames {
    /// `--strict-names` in a command's usage.
    static let optionHelp = "  --strict-names     a name that several places far apart match equally well is an error listing them"

    /// Refuses, before the graph is opened, a stop that is two numbers but not a coordinate (exit 2); names wait for
    /// the map.
    static func precheck(_ texts: [String]) throws {
        for (i, text) in texts.enumerated() {
            do { _ = try Coordinate(parsing: text) } catch {
                if !error.reason.hasPrefix("is not") { throw CommandError.usage("stop \(i + 1) \(error.description)") }
            }
        }
    }

    /// The stops of the command line, resolved on `map` in order (exit 2 for a name that matches nothing or, with
    /// `strict`, several places; exit 3 when the map has no place index to look names up in).
    static func resolve(_ texts: [String], map: OfflineMap, strict: Bool, near start: Coordinate? = nil) throws -> [ResolvedStop] {
        do { return try StopResolver(map: map, strictNames: strict).resolve(texts, near: start) } catch { throw commandError(error, exitCode: ExitCode.usage) }
    }

    /// One stop given to an option (`eta --from`), resolved on `map`; errors name the option.
    static func resolve(option: String, _ text: String, map: OfflineMap, strict: Bool) throws -> ResolvedStop {
        do { return try StopResolver(map: map, strictNames: strict).resolve(text) } catch {
            let e = commandError(error, exitCode: ExitCode.usage)
            throw CommandError(message: "\(option) \(e.message)", exitCode: e.exitCode)
        }
    }

    /// The rows of a places file (read before the graph is opened: malformed lines are exit 3).
    static func rows(_ path: String, role: String) throws -> [PlacesFileRow] {
        do { return try PlacesFile.readRows(path: path, role: role) } catch { throw CommandError(message: error.description, exitCode: ExitCode.badInput) }
    }

    /// The places of a places file's rows, names looked up on `map` near the row before (exit 3 naming file and line).
    static func places(_ rows: [PlacesFileRow], file: String, map: OfflineMap, strict: Bool, near start: Coordinate? = nil) throws -> [ETAPlace] {
        do { return try StopResolver(map: map, strictNames: strict).resolve(rows: rows, file: file, near: start) } catch {
            throw commandError(error, exitCode: ExitCode.badInput)
        }
    }

    /// The command error of a resolution failure: `exitCode` for a name at fault, 3 for a map that cannot look names up.
    static func commandError(_ error: StopResolutionError, exitCode: Int32) -> CommandError {
        switch error.reason {
        case .noPlaceIndex, .damagedIndex: return CommandError(message: error.description, exitCode: ExitCode.badInput)
        default: return CommandError(message: error.description, exitCode: exitCode)
        }
    }

    /// Says which place each name was taken to be, one line per stop found by name: on standard output before a
    /// text output, on standard error before any other format (so JSON, CSV, GPX… stay what they are).
    static func report(_ stops: [ResolvedStop], text: Bool) {
        let lines = stops.compactMap(\.resolutionLine)
        guard !lines.isEmpty else { return }
        if text { print(lines.joined(separator: "\n")) } else {
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }

    /// `report` for the places of files.
    static func report(places: [ETAPlace], text: Bool) {
        report(places.map { ResolvedStop(text: $0.name, coordinate: $0.coordinate, source: $0.place == nil ? .coordinate : .placeIndex, place: $0.place) }, text: text)
    }
}
