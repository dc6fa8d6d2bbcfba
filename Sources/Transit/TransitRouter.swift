import Foundation
import Graph
import Routing

/// Answers transit questions on a graph file with a timetable: snaps origin and destination to the foot graph,
/// finds access and egress walks, runs RAPTOR (forward for depart-at, on the reversed timetable for arrive-by),
/// compares with walking only, and assembles itineraries. Safe for concurrent queries.
public final class TransitRouter: @unchecked Sendable {
    public let graph: RoadGraph
    public let timetable: Timetable
    public let forward: RaptorSearch
    public let backward: RaptorSearch
    public let calendar: ServiceCalendar
    /// Time zones by index (agencies sharing a zone share an index); zone 0 is the first agency's.
    public let zones: [TimeZone]
    public let zoneOfRoute: [Int]
    /// Service days and calendars around query times.
    public let window: ServiceWindow
    public let footRouter: Router
    /// Walking times from one point to many (the same times as `footRouter.search.route`), for one-to-many searches on
    /// graphs without a foot hierarchy.
    public let footOneToMany: OneToManySearch
    /// Each stop's point on the foot graph (nil when off the network).
    public let stopEndpoints: [SearchEndpoint?]
    private let stopGrid: StopGrid
    /// Each stop's point on the foot graph on the unit sphere (`Geo.unitVector`; zero when off the network), for
    /// straight-line lower bounds without a haversine.
    private let stopVectors: [SIMD3<Double>]
    /// The walks from every stop within the default walk limit, built as stops are first used.
    private let egressTables: EgressTables
    private let lock = NSLock()
    @exclusivity(unchecked) private var walkSearches: [WalkSearch] = []

    /// Opens the timetable of `graph`; throws when it has none or lacks a foot profile.
    public init(graph: RoadGraph) throws(TransitError) {
        guard Timetable.isPresent(in: graph.file) else { throw .noTimetable(path: graph.file.path) }
        do { timetable = try Timetable(file: graph.file) } catch { throw .graph(error) }
        self.graph = graph
        window = ServiceWindow(timetable.metadata)
        zones = window.zones
        zoneOfRoute = window.zoneOfRoute
        calendar = window.calendar
        forward = RaptorSearch(timetable: SearchTimetable(timetable, reversed: false, zoneOfRoute: zoneOfRoute), serviceCount: calendar.count)
        backward = RaptorSearch(timetable: SearchTimetable(timetable, reversed: true, zoneOfRoute: zoneOfRoute), serviceCount: calendar.count)
        do { footRouter = try Router(graph: graph, profile: "foot") } catch {
            // A foot hierarchy that fails its checks is a corrupt file, not a missing profile.
            guard case let .corruptGraph(message) = error else { throw .noFootProfile(path: graph.file.path) }
            let prefix = "\(graph.file.path) is corrupt: "
            throw .graph(.corrupt(path: graph.file.path, message: message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message))
        }
        footOneToMany = OneToManySearch(space: footRouter.search.space)
        let transfers = try TransferBuilder(graph: graph)
        stopEndpoints = transfers.snapStops(timetable)
        var lats: [Int32] = [], lons: [Int32] = []
        for s in 0..<timetable.stopCount {
            let c = stopEndpoints[s]?.coordinate
            lats.append(c.map { Geo.units($0.latitude) } ?? Int32.max / 2)
            lons.append(c.map { Geo.units($0.longitude) } ?? 0)
        }
        stopGrid = StopGrid(latitudes: lats, longitudes: lons)
        stopVectors = stopEndpoints.map { $0.map { Geo.unitVector(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) } ?? .zero }
        egressTables = EgressTables(stopCount: timetable.stopCount, limit: TransitOptions().maxWalk)
    }

    /// The zone times are shown in by default: the first agency's.
    public var timeZone: TimeZone { zones[0] }

    private func withWalkSearch<T>(_ body: (WalkSearch) -> T) -> T {
        lock.lock()
        let search = walkSearches.popLast() ?? WalkSearch(graph: graph, profile: footRouter.profile)
        lock.unlock()
        defer { lock.lock(); walkSearches.append(search); lock.unlock() }
        return body(search)
    }

    /// A stop as itineraries show it.
    public func stop(_ s: Int) -> TransitStop {
        TransitStop(id: timetable.metadata.stopIDs[s], name: timetable.metadata.stopNames[s],
                    coordinate: Coordinate(latitudeE7: timetable.stopLatitudes[s], longitudeE7: timetable.stopLongitudes[s]))
    }

    // MARK: - Preparing searches

    /// Walks from (or, `towards`, to) a point on the foot graph to every stop within `maxWalk` metres: seconds
    /// (rounded up) and metres per stop. Walks to a point within the default limit are read from the stops' own
    /// walk searches (`EgressTables`, built on first use), any other from one walk search at the point.
    /// With a `deadline`, the walk search stops then (and finds only the stops reached so far).
    public func walks(at point: SearchEndpoint, towards: Bool, maxWalk: Double, deadline: Date? = nil) -> [(stop: Int, seconds: Int, distance: Double)] {
        let candidates = stopGrid.stops(near: point.coordinate.latitude, point.coordinate.longitude, within: maxWalk)
        if candidates.isEmpty { return [] }
        if towards && maxWalk == egressTables.limit {
            var out: [(Int, Int, Double)] = []
            for c in candidates {
                guard let walk = egressTable(c.stop, deadline: deadline)?.cost(to: point, graph: graph, profile: footRouter.profile) else { continue }
                out.append((c.stop, Int(TransferBuilder.seconds(walk.duration)), walk.distance))
            }
            return out
        }
        return withWalkSearch { search in
            search.run(from: point, maxDistance: maxWalk, reverse: towards, deadline: deadline)
            var out: [(Int, Int, Double)] = []
            for c in candidates {
                guard let end = stopEndpoints[c.stop], let walk = search.cost(to: end) else { continue }
                out.append((c.stop, Int(TransferBuilder.seconds(walk.duration)), walk.distance))
            }
            return out
        }
    }

    /// The walks from stop `s` within the egress tables' limit (nil when the stop is off the foot network, or when
    /// `deadline` passes while its table is built: a table cut short is never kept, and the caller's own deadline
    /// check then throws).
    private func egressTable(_ s: Int, deadline: Date?) -> WalkTable? {
        guard let start = stopEndpoints[s] else { return nil }
        return egressTables.table(s) {
            withWalkSearch { search in
                search.run(from: start, maxDistance: egressTables.limit, deadline: deadline)
                if let deadline, Date() > deadline { return nil }
                return search.table()
            }
        }
    }

    /// How many stops' egress tables this router keeps (for tests).
    var keptEgressTables: Int { egressTables.keptCount }

    /// The egress walks from `point` (as `walks(at:towards: true)`) that can decide its earliest ride arrival over
    /// `labels`: only stops a ride reaches, looked up in the stops' tables at the default walk limit (`tableEgress`),
    /// else from a backward walk search that stops once no stop left could beat the best arrival so far (ride label +
    /// walk). `bestRideArrival` over this list gives what it gives over the full list:
    /// every stop left out arrives strictly later than the best. Walk times are the full search's (the same search,
    /// cut short), so each answer still equals the pair query's.
    func rideEgress(at point: SearchEndpoint, labels: RaptorLabels, maxWalk: Double, deadline: Date? = nil) -> [(stop: Int, seconds: Int, distance: Double)] {
        let candidates = stopGrid.stops(near: point.coordinate.latitude, point.coordinate.longitude, within: maxWalk)
        if candidates.isEmpty { return [] }
        let S = labels.stopCount, never = Int.max
        // Each candidate a ride reaches, in the candidates' order, with its earliest ride label over the rounds.
        // `beeline`: the least walk to the stop, seconds (99% of the straight line, a chord no longer than the great
        // circle, at the foot profile's top speed).
        var pending: [(index: Int, stop: Int, end: SearchEndpoint, label: Int, beeline: Double)] = []
        pending.reserveCapacity(candidates.count)
        let speed = footRouter.search.space.maximumSpeed * 1000
        let here = Geo.unitVector(latitude: point.coordinate.latitude, longitude: point.coordinate.longitude)
        for (index, c) in candidates.enumerated() {
            guard let end = stopEndpoints[c.stop] else { continue }
            var least = never, r = 1
            while r <= labels.rounds { least = min(least, labels.ride[r * S + c.stop]); r += 1 }
            if least != never { pending.append((index, c.stop, end, least, 0.99 * Geo.chord(here, stopVectors[c.stop]) / speed)) }
        }
        if pending.isEmpty { return [] }
        if maxWalk == egressTables.limit { return tableEgress(at: point, pending: pending, deadline: deadline) }
        return withWalkSearch { search in
            var found: [(index: Int, walk: (stop: Int, seconds: Int, distance: Double))] = []
            var best = never, pops = 0
            search.run(from: point, maxDistance: maxWalk, reverse: true, deadline: deadline) { key in
                pops &+= 1
                if pops & 15 != 1 { return false }
                // A stop whose walk is shorter than the key is final (its nodes are settled); the rest walk at least `key`.
                var i = 0, leastLeft = never
                while i < pending.count {
                    let p = pending[i]
                    if let walk = search.cost(to: p.end), walk.duration < key {
                        let seconds = Int(TransferBuilder.seconds(walk.duration))
                        found.append((p.index, (p.stop, seconds, walk.distance)))
                        best = min(best, p.label + seconds)
                        pending.swapAt(i, pending.count - 1); pending.removeLast()
                        continue
                    }
                    // Its walk takes at least the key and at least its beeline.
                    leastLeft = min(leastLeft, p.label + Int(TransferBuilder.seconds(max(key, p.beeline))))
                    i += 1
                }
                return pending.isEmpty || (best != never && leastLeft > best)
            }
            // Whatever is still pending either was never cut off (the search ran out: final times) or cannot win.
            for p in pending {
                guard let walk = search.cost(to: p.end) else { continue }
                found.append((p.index, (p.stop, Int(TransferBuilder.seconds(walk.duration)), walk.distance)))
            }
            return found.sorted { $0.index < $1.index }.map(\.walk)
        }
    }

    /// `rideEgress` over the stops' walk tables, for its `pending` candidates (each a ride reaches, with its earliest
    /// ride label and least walk): taken in order of the least arrival each could give (label + least walk, rounded as
    /// walks are), until that least exceeds the best arrival found; the walks looked up are the tables' own, and every
    /// stop left out arrives later.
    private func tableEgress(at point: SearchEndpoint, pending: [(index: Int, stop: Int, end: SearchEndpoint, label: Int, beeline: Double)],
                             deadline: Date?) -> [(stop: Int, seconds: Int, distance: Double)] {
        // Each candidate's least arrival and its place in `pending` in one integer, sorted as plain integers: the
        // place in the low bits (as many as the count needs), the arrival (Unix seconds, far below 2^38) above.
        let shift = Int.bitWidth - pending.count.leadingZeroBitCount
        var ordered = [Int](); ordered.reserveCapacity(pending.count)
        for (k, p) in pending.enumerated() {
            ordered.append((p.label + max(0, Int(TransferBuilder.seconds(p.beeline)))) << shift | k)
        }
        ordered.sort()
        var found: [(index: Int, walk: (stop: Int, seconds: Int, distance: Double))] = []
        var best = Int.max
        for key in ordered {
            let least = key >> shift, p = pending[key & (1 << shift - 1)]
            if least > best { break }
            guard let walk = egressTable(p.stop, deadline: deadline)?.cost(to: point, graph: graph, profile: footRouter.profile) else { continue }
            let seconds = Int(TransferBuilder.seconds(walk.duration))
            found.append((p.index, (p.stop, seconds, walk.distance)))
            best = min(best, p.label + seconds)
        }
        found.sort { $0.index < $1.index }
        return found.map(\.walk)
    }

    /// The walking-only route between two points on the foot graph, as every transit query compares it with the
    /// rides: the fastest foot route, over the foot profile's contraction hierarchy when the file has one, else by A*.
    func walkOnly(from start: SearchEndpoint, to end: SearchEndpoint) -> SearchResult? { footRouter.fastest(from: start, to: end) }

    /// The service days around an instant (see `ServiceWindow.days(around:)`).
    public func days(around instant: Int) throws(TransitError) -> (dayStarts: [Int], active: [UInt8]) { try window.days(around: instant) }

    /// Snaps a coordinate to the foot graph: its nearest foot road, and where it moves off a small island should
    /// the query have no itinerary at all.
    func endpoint(_ c: Coordinate, stop: Int, options: TransitOptions) throws(TransitError) -> SnappedStop {
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= 180 else { throw .invalidCoordinate(stop: stop) }
        guard let snapped = footRouter.snapper.snapStop(c, maxDistance: options.maxSnappingDistance) else {
            throw .noRoad(stop: stop, maxDistance: options.maxSnappingDistance)
        }
        return snapped
    }

    // MARK: - Planning

    /// The itineraries from `origin` to `destination` leaving at or after `departure`, or arriving at or before
    /// `arrival`: the Pareto set over arrival and rides, or walking only when that is quicker. `leg` and `lastLeg`
    /// place the pair in a longer trip (for errors and the names of its ends: "origin", "stop 2", …, "destination").
    public func plan(from origin: Coordinate, to destination: Coordinate, departure: Date? = nil, arrival: Date? = nil,
                     options: TransitOptions = TransitOptions(), leg: Int = 0, lastLeg: Bool = true) throws(TransitError) -> TransitPlan {
        let from = try endpoint(origin, stop: leg, options: options)
        let to = try endpoint(destination, stop: leg + 1, options: options)
        return try plan(from: from, to: to, departure: departure, arrival: arrival, options: options, leg: leg, lastLeg: lastLeg)
    }

    /// The itineraries between two points already snapped to the foot graph (`endpoint`, or a caller's snapping):
    /// as `plan(from:to:departure:arrival:options:leg:lastLeg:)`, without snapping again.
    public func plan(from: SnappedStop, to: SnappedStop, departure: Date? = nil, arrival: Date? = nil,
                     options: TransitOptions = TransitOptions(), leg: Int = 0, lastLeg: Bool = true) throws(TransitError) -> TransitPlan {
        let names = (leg == 0 ? "origin" : "stop \(leg + 1)", lastLeg ? "destination" : "stop \(leg + 2)")
        let origin = from.nearest.query, destination = to.nearest.query
        // The nearest foot roads first; only when that gives no itinerary at all (not even walking) are the origin and
        // destination moved off small islands and the query searched again. Stops and platforms never move.
        do {
            return try plan(from: origin, to: destination, start: SearchEndpoint(from.nearest, in: graph), end: SearchEndpoint(to.nearest, in: graph),
                            departure: departure, arrival: arrival, options: options, leg: leg, names: names)
        } catch {
            guard case .noTransitRoute = error, from.offIsland != nil || to.offIsland != nil else { throw error }
            return try plan(from: origin, to: destination, start: SearchEndpoint(from.offIsland ?? from.nearest, in: graph),
                            end: SearchEndpoint(to.offIsland ?? to.nearest, in: graph),
                            departure: departure, arrival: arrival, options: options, leg: leg, names: names)
        }
    }

    /// The plan between two points on the foot graph (see `plan(from:to:departure:arrival:options:leg:lastLeg:)`).
    private func plan(from origin: Coordinate, to destination: Coordinate, start: SearchEndpoint, end: SearchEndpoint, departure: Date?, arrival: Date?,
                      options: TransitOptions, leg: Int, names: (String, String)) throws(TransitError) -> TransitPlan {
        // Past the deadline every search stops early: check after each, so a cut-off search never answers.
        let deadline = options.deadline
        func checkDeadline() throws(TransitError) { if let deadline, Date() > deadline { throw .timedOut } }
        let access = walks(at: start, towards: false, maxWalk: options.maxWalk, deadline: deadline)
        let egress = walks(at: end, towards: true, maxWalk: options.maxWalk, deadline: deadline)
        try checkDeadline()
        // Walking only, searched only when it might beat the rides (its time is at least the straight line at top speed).
        let leastWalk = walkLowerBound(start, end)
        func walkOnly(within seconds: Double?) -> SearchResult? {
            if let seconds, leastWalk >= seconds { return nil }
            return self.walkOnly(from: start, to: end)
        }
        let maxRides = max(1, min(7, options.maxTransfers + 1))
        let accessAt = Dictionary(access.map { ($0.stop, $0) }, uniquingKeysWith: { a, _ in a })
        let egressAt = Dictionary(egress.map { ($0.stop, $0) }, uniquingKeysWith: { a, _ in a })

        // The service days around the query's time serve its refinements too (which may fall on another date).
        let around = try window.days(around: Int((arrival ?? departure ?? Date()).timeIntervalSince1970))
        func query(_ reversed: Bool, time: Int, rides: Int, bound: Int) -> RaptorQuery {
            var q = RaptorQuery(access: (reversed ? egress : access).map { ($0.stop, $0.seconds) },
                                egress: (reversed ? access : egress).map { ($0.stop, $0.seconds) }, departure: time, maxRides: rides,
                                dayStarts: reversed ? around.dayStarts.map { -$0 } : around.dayStarts, active: around.active)
            q.arrivalBound = bound
            q.maxTransferDistance = options.maxWalk >= timetable.metadata.transferWalkLimit ? .infinity : Float(options.maxWalk)
            q.deadline = deadline
            return q
        }

        var journeys: [(journey: Journey, reversed: Bool)] = []
        var walkItinerary: TransitItinerary? = nil
        if let arrival {
            let a = Int(arrival.timeIntervalSince1970.rounded(.down))
            let found = backward.search(query(true, time: -a, rides: maxRides, bound: Int.max))
            try checkDeadline()
            let latest = found.last.map { -$0.arrival }
            if let walkOnly = walkOnly(within: latest.map { Double(a - $0) }), latest == nil || Double(a) - walkOnly.duration > Double(latest!) {
                walkItinerary = walk(walkOnly, from: origin, to: destination, names: names, leaving: arrival.addingTimeInterval(-walkOnly.duration))
            } else {
                // Each departure of the Pareto set, then the earliest arrival leaving then (the later-arrival tie-break).
                for j in found {
                    let d = -j.arrival
                    let refined = forward.search(query(false, time: d, rides: j.rides, bound: a + 1))
                    try checkDeadline()
                    if let best = refined.last { journeys.append((best, false)) } else { journeys.append((j, true)) }
                }
            }
        } else {
            let t = Int((departure ?? Date()).timeIntervalSince1970.rounded(.up))
            let found = forward.search(query(false, time: t, rides: maxRides, bound: Int.max))
            try checkDeadline()
            let earliest = found.last?.arrival
            if let walkOnly = walkOnly(within: earliest.map { Double($0 - t) }), earliest == nil || Double(t) + walkOnly.duration < Double(earliest!) {
                walkItinerary = walk(walkOnly, from: origin, to: destination, names: names, leaving: Date(timeIntervalSince1970: TimeInterval(t)))
            } else {
                // Each arrival of the Pareto set, then the latest departure still arriving then (fewer rides, later departure).
                for j in found {
                    let refined = backward.search(query(true, time: -j.arrival, rides: j.rides, bound: -t + 1))
                    try checkDeadline()
                    if let best = refined.last { journeys.append((best, true)) } else { journeys.append((j, false)) }
                }
            }
        }
        if let walkItinerary { return TransitPlan(itineraries: [walkItinerary], best: 0) }
        guard !journeys.isEmpty else {
            throw .noTransitRoute(leg: leg, maxTransfers: options.maxTransfers, maxWalk: options.maxWalk)
        }
        let itineraries = journeys.map { itinerary(published($0.journey, reversed: $0.reversed), origin: origin, destination: destination,
                                                   names: names, access: accessAt, egress: egressAt) }
        // Primary: earliest arrival (depart-at) or latest departure (arrive-by); the Pareto lists end with it.
        return TransitPlan(itineraries: itineraries, best: itineraries.count - 1)
    }

    /// A trip through `stops` in order: each next leg leaves when the previous arrives (arrive-by: legs are planned
    /// from the last backwards, each arriving when the next leaves).
    public func trip(through stops: [Coordinate], departure: Date? = nil, arrival: Date? = nil,
                     options: TransitOptions = TransitOptions()) throws(TransitError) -> TransitTrip {
        guard stops.count >= 2 else { throw .tooFewStops(stops.count) }
        var snapped: [SnappedStop] = []
        for (i, stop) in stops.enumerated() { snapped.append(try endpoint(stop, stop: i, options: options)) }
        return try trip(through: snapped, departure: departure, arrival: arrival, options: options)
    }

    /// A trip through stops already snapped to the foot graph, each snapped once (see `trip(through:departure:arrival:options:)`).
    /// `between` runs before each leg's plan (a caller's cancellation check).
    public func trip(through snapped: [SnappedStop], departure: Date? = nil, arrival: Date? = nil, options: TransitOptions = TransitOptions(),
                     between: () throws(TransitError) -> Void = {}) throws(TransitError) -> TransitTrip {
        guard snapped.count >= 2 else { throw .tooFewStops(snapped.count) }
        let stops = snapped.map(\.nearest.query)
        var plans: [TransitPlan] = []
        if let arrival {
            var by = arrival
            for i in stride(from: stops.count - 2, through: 0, by: -1) {
                try between()
                let plan = try self.plan(from: snapped[i], to: snapped[i + 1], arrival: by, options: options, leg: i, lastLeg: i == stops.count - 2)
                plans.insert(plan, at: 0)
                by = plan.primary.departure
            }
        } else {
            var at = departure ?? Date()
            for i in 0..<(stops.count - 1) {
                try between()
                let plan = try self.plan(from: snapped[i], to: snapped[i + 1], departure: at, options: options, leg: i, lastLeg: i == stops.count - 2)
                plans.append(plan)
                at = plan.primary.arrival
            }
        }
        return TransitTrip(plans: plans, stops: stops, timeZone: timeZone)
    }

    // MARK: - Itineraries

    /// A journey of either search as parts in published travel order and times.
    func published(_ journey: Journey, reversed: Bool) -> [JourneyPart] {
        guard reversed else { return journey.parts }
        let tt = backward.timetable
        return journey.parts.reversed().map { part in
            switch part {
            case let .access(stop, seconds): return .egress(stop: stop, seconds: seconds)
            case let .egress(stop, seconds): return .access(stop: stop, seconds: seconds)
            case let .transfer(from, to, seconds): return .transfer(from: to, to: from, seconds: seconds)
            case let .ride(p, t, day, from, to, board, alight):
                return .ride(pattern: p, trip: tt.publishedTrip(p, t), day: day, from: tt.publishedPosition(p, to),
                             to: tt.publishedPosition(p, from), board: -alight, alight: -board)
            }
        }
    }

    func walkLeg(from: TransitStop, to: TransitStop, leaving: Int, seconds: Int, distance: Double) -> TransitLeg {
        var geometry = [from.coordinate, to.coordinate]
        var steps: [RouteStep] = []
        if let found = try? footRouter.routes(through: [from.coordinate, to.coordinate]).routes.first {
            geometry = found.polyline
            steps = found.steps
        }
        return TransitLeg(kind: .walk, departure: Date(timeIntervalSince1970: TimeInterval(leaving)),
                          arrival: Date(timeIntervalSince1970: TimeInterval(leaving + seconds)), from: from, to: to,
                          distance: distance, geometry: geometry, steps: steps, ride: nil)
    }

    func walk(_ result: SearchResult, from origin: Coordinate, to destination: Coordinate, names: (String, String), leaving: Date) -> TransitItinerary {
        let t = Int(leaving.timeIntervalSince1970.rounded())
        let leg = walkLeg(from: TransitStop(id: "", name: names.0, coordinate: origin), to: TransitStop(id: "", name: names.1, coordinate: destination),
                          leaving: t, seconds: Int(result.duration.rounded(.up)), distance: result.distance)
        return TransitItinerary(legs: [leg], departure: leg.departure, arrival: leg.arrival, walkingDistance: result.distance, rides: 0)
    }

    func itinerary(_ parts: [JourneyPart], origin: Coordinate, destination: Coordinate, names: (String, String),
                           access: [Int: (stop: Int, seconds: Int, distance: Double)],
                           egress: [Int: (stop: Int, seconds: Int, distance: Double)]) -> TransitItinerary {
        var legs: [TransitLeg] = []
        var clock = 0
        var walked = 0.0
        var rides = 0
        let originStop = TransitStop(id: "", name: names.0, coordinate: origin)
        let destinationStop = TransitStop(id: "", name: names.1, coordinate: destination)
        for (index, part) in parts.enumerated() {
            switch part {
            case let .access(s, seconds):
                if seconds == 0 { continue }
                var boardAt = 0
                if index + 1 < parts.count, case let .ride(_, _, _, _, _, board, _) = parts[index + 1] { boardAt = board }
                let distance = access[s]?.distance ?? 0
                legs.append(walkLeg(from: originStop, to: stop(s), leaving: boardAt - seconds, seconds: seconds, distance: distance))
                walked += distance
            case let .transfer(from, to, seconds):
                guard from != to else { continue }
                var distance = 0.0
                for k in Int(timetable.transferStart[from])..<Int(timetable.transferStart[from + 1]) where Int(timetable.transferTo[k]) == to {
                    distance = Double(timetable.transferDistance[k])
                }
                legs.append(walkLeg(from: stop(from), to: stop(to), leaving: clock, seconds: seconds, distance: distance))
                walked += distance
            case let .egress(s, seconds):
                if seconds == 0 { continue }
                let distance = egress[s]?.distance ?? 0
                legs.append(walkLeg(from: stop(s), to: destinationStop, leaving: clock, seconds: seconds, distance: distance))
                walked += distance
            case let .ride(p, t, _, from, to, board, alight):
                legs.append(rideLeg(pattern: p, trip: t, from: from, to: to, board: board, alight: alight))
                clock = alight
                rides += 1
            }
        }
        return TransitItinerary(legs: legs, departure: legs.first!.departure, arrival: legs.last!.arrival, walkingDistance: walked, rides: rides)
    }

    private func rideLeg(pattern p: Int, trip t: Int, from: Int, to: Int, board: Int, alight: Int) -> TransitLeg {
        let tt = timetable
        let route = tt.metadata.routes[Int(tt.patternRoute[p])]
        let first = Int(tt.patternStopStart[p])
        let fromStop = Int(tt.patternStops[first + from]), toStop = Int(tt.patternStops[first + to])
        var geometry: [Coordinate] = []
        let shapeStart = Int(tt.patternShapeRange[2 * p]), shapeEnd = Int(tt.patternShapeRange[2 * p + 1])
        if shapeEnd > shapeStart {
            let a = Int(tt.patternStopShapePoint[first + from]), b = Int(tt.patternStopShapePoint[first + to])
            geometry.append(stop(fromStop).coordinate)
            if a <= b { for k in a...b { geometry.append(Coordinate(latitudeE7: tt.shapeLatitudes[k], longitudeE7: tt.shapeLongitudes[k])) } }
            geometry.append(stop(toStop).coordinate)
        } else {
            for i in from...to { geometry.append(stop(Int(tt.patternStops[first + i])).coordinate) }
        }
        var length = 0.0
        for (a, b) in zip(geometry, geometry.dropFirst()) { length += a.distance(to: b) }
        let ride = TransitLeg.Ride(agency: tt.metadata.agencies[route.agency].name, routeShortName: route.shortName,
                                   routeLongName: route.longName, mode: TransitMode.name(route.type),
                                   headsign: tt.metadata.headsigns[Int(tt.tripHeadsign[t])], numberOfStops: to - from, routeColor: route.color)
        return TransitLeg(kind: .ride, departure: Date(timeIntervalSince1970: TimeInterval(board)),
                          arrival: Date(timeIntervalSince1970: TimeInterval(alight)), from: stop(fromStop), to: stop(toStop),
                          distance: length, geometry: geometry, steps: [], ride: ride)
    }
}
