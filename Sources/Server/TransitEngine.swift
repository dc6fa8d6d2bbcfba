import Foundation
import Wayfinder

/// The transit side of the service: whether the map's timetable serves, or why not.
/// A graph without a timetable still serves everything else; only `/transit/v1` refuses.
public struct TransitEngine: Sendable {
    /// The map, when its timetable opened (nil when it has none or it failed to open).
    public let map: OfflineMap?
    /// Why transit is unavailable, as a message for clients (nil when `map` is set).
    public let unavailable: String?

    /// Opens the timetable of `map` when it has one; never throws, so the server starts on any graph.
    public init(map: OfflineMap) {
        if !map.hasTimetable {
            self.map = nil
            unavailable = "this graph has no timetable, so it serves no transit: import it with `wayfinder import … --gtfs FEED.zip` and serve that graph"
            return
        }
        do {
            try map.prepare([.transit])
            self.map = map
            unavailable = nil
        } catch {
            self.map = nil
            unavailable = "the graph's timetable could not be opened: \(error)"
        }
    }
}
