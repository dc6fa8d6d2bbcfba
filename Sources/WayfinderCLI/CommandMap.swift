import Foundation
import Wayfinder

/// Opening the graph file a command names, in one place for every command.
enum CommandMap {
    /// The map of the graph file at `path`; a file that is missing, unreadable or damaged is the open error's own
    /// message and exit 3 (bad input).
    static func open(_ path: String) throws(CommandError) -> OfflineMap {
        do { return try OfflineMap(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CommandError(message: error.description, exitCode: ExitCode.badInput)
        }
    }

    /// Throws the "no timetable" error (exit 3, naming the file and how to import one) when `transit` and the map at
    /// `path` has no timetable.
    static func requireTimetable(_ map: OfflineMap, path: String, transit: Bool = true) throws(CommandError) {
        guard transit, !map.hasTimetable else { return }
        throw CommandError(message: TransitError.noTimetable(path: path).description, exitCode: ExitCode.badInput)
    }
}
