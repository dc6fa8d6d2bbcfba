import Foundation
import Graph
import Transit

/// The transit side of the service: the graph's timetable opened for searching, or why there is none.
/// A graph without a timetable still serves everything else; only `/transit/v1` refuses.
public struct TransitEngine: Sendable {
    /// The router over the timetable (nil when the graph has none or it failed to open).
    public let router: TransitRouter?
    /// Why transit is unavailable, as a message for clients (nil when `router` is set).
    public let unavailable: String?

    /// Opens the timetable of `graph` when it has one; never throws, so the server starts on any graph.
    public init(graph: RoadGraph) {
        if !Timetable.isPresent(in: graph.file) {
            router = nil
            unavailable = "this graph has no timetable, so it serves no transit: import it with `wayfinder import … --gtfs FEED.zip` and serve that graph"
            return
        }
        do {
            router = try TransitRouter(graph: graph)
            unavailable = nil
        } catch {
            router = nil
            unavailable = "the graph's timetable could not be opened: \(error)"
        }
    }
}
