import Foundation
import Graph
import OSM
import Server
import Wayfinder
import Transit
import TestSupport

/// The Terre Haute sample map with its GTFS feed (imported once, without landmarks) and a service over it.
enum TransitFixture {
    nonisolated(unsafe) static var cached: WayfinderService?
    static let lock = NSLock()

    /// A morning trip across town that rides a bus (lon,lat as the URL takes them).
    static let north = "-87.39769,39.48577", south = "-87.4164615,39.4565472"

    static func terreHaute() throws -> WayfinderService {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let service = try WayfinderService(map: OfflineMap(contentsOf: URL(fileURLWithPath: SampleGraph.terreHauteTransit().graphPath)))
        cached = service
        return service
    }
}
