import Foundation
import Graph
import Routing
import Transit

/// An offline map: one graph file opened (memory-mapped), with the routers of its profiles and its timetable, built
/// the first time a request needs them. Every request runs against a map. Safe to share between threads; the file
/// is unmapped, and the routers freed, when the last reference to the map goes.
public final class OfflineMap: @unchecked Sendable {
    /// The mapped graph file (engine internals; not part of the API).
    let graph: RoadGraph
    private let lock = NSLock()
    private var routers: [String: Router] = [:]
    private var transit: Result<TransitRouter, TransitError>? = nil
    /// The place index and its searchers, opened at the first place search (`LocalSearch`).
    let placeIndexSlot = PlaceIndexSlot()
    /// The map's centre and view (`centre`, `view`), computed at their first use.
    let centreSlot = ComputedOnce<MapCentre>()
    /// The timetable's zone (`transitTimeZone`), read at its first use.
    let timeZoneSlot = ComputedOnce<TimeZone?>()
    #if DEBUG
    /// How many stops this map has snapped (debug builds only): tests check that a request snaps each stop once.
    private(set) var snapCount = 0
    #endif

    /// Opens the graph file at `url` (memory-mapped, checksums verified; see `docs/graph-format.md`).
    public convenience init(contentsOf url: URL) throws(GraphFileError) {
        try self.init(contentsOf: url, verifyingChecksums: true)
    }

    /// Opens the graph file at `url`; `verifyingChecksums: false` skips reading every section for its CRC-32
    /// (the header and structural checks still run).
    public init(contentsOf url: URL, verifyingChecksums: Bool) throws(GraphFileError) {
        let file = try GraphFile(path: url.path)
        graph = try RoadGraph(file: file, verifyingChecksums: verifyingChecksums)
    }

    /// The file this map was opened from.
    public var url: URL { URL(fileURLWithPath: graph.file.path) }

    /// The transport types the file can route: its profiles (car, foot) and transit when it has a timetable.
    public var transportTypes: [TransportType] {
        TransportType.allCases.filter { type in
            type == .transit ? hasTimetable && graph.profile(named: "foot") != nil : graph.profile(named: type.profileName) != nil
        }
    }

    /// Whether the file holds a GTFS timetable (imported with `--gtfs`).
    public var hasTimetable: Bool { Timetable.isPresent(in: graph.file) }

    /// Builds the routers of `types` now (a server does this once at start, so the first requests wait for nothing
    /// and a damaged hierarchy or timetable is reported before serving); throws the first failure.
    public func prepare(_ types: [TransportType]) throws(DirectionsError) {
        for type in types {
            if type == .transit { _ = try transitRouter() } else { _ = try router(for: type) }
        }
    }

    /// The router of a road transport type (built once, then shared by every request on this map).
    func router(for type: TransportType) throws(DirectionsError) -> Router {
        let name = type.profileName
        lock.lock()
        if let router = routers[name] { lock.unlock(); return router }
        lock.unlock()
        let router: Router
        do { router = try Router(graph: graph, profile: name) } catch { throw .routing(error) }
        lock.lock()
        defer { lock.unlock() }
        if let existing = routers[name] { return existing }
        routers[name] = router
        return router
    }

    /// The transit router over the file's timetable (opened once; a failure to open is remembered and thrown again).
    func transitRouter() throws(DirectionsError) -> TransitRouter {
        lock.lock()
        defer { lock.unlock() }
        if transit == nil {
            do { transit = .success(try TransitRouter(graph: graph)) } catch { transit = .failure(error) }
        }
        switch transit! {
        case let .success(router): return router
        case let .failure(error): throw .transit(error)
        }
    }

    /// Snaps one coordinate for `type` (its nearest usable road; where it moves off a small island, should a leg
    /// need it); nil when no such road lies within `maximumDistance` metres. Every snap of the API comes here.
    func snapStop(_ coordinate: Coordinate, router: Router, maximumDistance: Double) -> SnappedStop? {
        #if DEBUG
        lock.lock(); snapCount += 1; lock.unlock()
        #endif
        return router.snapper.snapStop(coordinate, maxDistance: maximumDistance)
    }
}
