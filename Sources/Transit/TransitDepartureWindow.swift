import Foundation
import Graph
import Routing

/// Travel times for every departure in a window (`TransitRouter.departureWindow`): best, median and worst.
public struct TransitDepartureWindow: Equatable, Sendable {
    /// One departure of the window: leaving the origin then, the pair query's earliest arrival.
    public struct Departure: Equatable, Sendable {
        public var departure: Date
        public var arrival: Date
        /// Seconds from `departure` to `arrival` (waiting at the origin's stops included).
        public var travelTime: TimeInterval { arrival.timeIntervalSince(departure) }
    }
    /// The window's departures with an itinerary, in time order: its start and every moment that just catches a
    /// vehicle at a stop within walking range.
    public var departures: [Departure]
    /// The least, middle (the lower of the two middle values for an even count) and greatest travel time, seconds.
    public var best: TimeInterval
    public var median: TimeInterval
    public var worst: TimeInterval
}

extension TransitRouter {
    /// The largest departure window accepted, seconds (a day).
    public static let maximumDepartureWindow: TimeInterval = 86_400

    /// Travel times from `origin` to `destination` for every departure between `departure` and `departure + window`
    /// (inclusive): the window's start and each later moment at which leaving just catches a vehicle at an access
    /// stop. One range search (`TransitProfileSearch`) answers them all, each equal to the arrival of the pair's own
    /// `plan(from:to:departure:)` at that moment (walking only when quicker, snapping as docs/transit.md says).
    /// Throws when the window is not 0…24 h, an end cannot be snapped, no departure has an itinerary, or on the deadline.
    public func departureWindow(from origin: Coordinate, to destination: Coordinate, departure: Date, window: TimeInterval,
                                options: TransitOptions = TransitOptions()) throws(TransitError) -> TransitDepartureWindow {
        guard window.isFinite, window >= 0, window <= Self.maximumDepartureWindow else { throw .invalidDepartureWindow(seconds: window) }
        let from = try endpoint(origin, stop: 0, options: options)
        let to = try endpoint(destination, stop: 1, options: options)
        let t0 = Int(departure.timeIntervalSince1970.rounded(.up)), t1 = t0 + Int(window.rounded(.down))
        let start = SearchEndpoint(from.nearest, in: graph), end = SearchEndpoint(to.nearest, in: graph)
        let access = walks(at: start, towards: false, maxWalk: options.maxWalk, deadline: options.deadline)
        // The origin moved off a small island, as the pair query moves it when it has no itinerary: its own access walks.
        let movedStart = from.offIsland.map { SearchEndpoint($0, in: graph) }
        let movedAccess = movedStart.map { walks(at: $0, towards: false, maxWalk: options.maxWalk, deadline: options.deadline) }
        // The moments worth leaving, found on the service days around the window's start and end: those that just catch
        // a vehicle from either origin (a moment at which the pair query leaves from the moved one is among the latter).
        var moments: Set<Int> = [t0]
        for t in Set([t0, t1]) {
            let around = try days(around: t)
            for walks in [access, movedAccess ?? []] where !walks.isEmpty {
                for d in profile.departures(access: walks.map { ($0.stop, $0.seconds) }, from: t0, to: t1, dayStarts: around.dayStarts, active: around.active) {
                    moments.insert(d)
                }
            }
        }
        let departures = moments.sorted()
        var arrivals = try windowArrivals(start: start, end: end, access: access, departures: departures, options: options)
        let missing = departures.indices.filter { arrivals[$0] == nil }
        if !missing.isEmpty, from.offIsland != nil || to.offIsland != nil {
            // Those departures have no itinerary at all: the pair query moves its ends off small islands and searches again.
            let movedEnd = SearchEndpoint(to.offIsland ?? to.nearest, in: graph)
            let again = try windowArrivals(start: movedStart ?? start, end: movedEnd, access: movedAccess ?? access,
                                           departures: missing.map { departures[$0] }, options: options)
            for (k, i) in missing.enumerated() { arrivals[i] = again[k] }
        }
        var found: [TransitDepartureWindow.Departure] = []
        for (i, t) in departures.enumerated() {
            if let a = arrivals[i] { found.append(.init(departure: Date(timeIntervalSince1970: TimeInterval(t)), arrival: Date(timeIntervalSince1970: TimeInterval(a)))) }
        }
        guard !found.isEmpty else { throw .noTransitRoute(leg: 0, maxTransfers: options.maxTransfers, maxWalk: options.maxWalk) }
        let times = found.map(\.travelTime).sorted()
        return TransitDepartureWindow(departures: found, best: times.first!, median: times[(times.count - 1) / 2], worst: times.last!)
    }

    /// The range search over the forward timetable.
    public var profile: TransitProfileSearch { TransitProfileSearch(timetable: forward.timetable, serviceCount: calendar.count) }

    /// The pair query's arrival (rides, or walking when quicker; nil: neither) for each departure, by range searches
    /// grouped by the service days around each departure (as each pair query takes them).
    private func windowArrivals(start: SearchEndpoint, end: SearchEndpoint, access: [(stop: Int, seconds: Int, distance: Double)], departures: [Int],
                                options: TransitOptions) throws(TransitError) -> [Int?] {
        let egress = walks(at: end, towards: true, maxWalk: options.maxWalk, deadline: options.deadline)
        var groups: [[Int]: (around: (dayStarts: [Int], active: [UInt8]), indices: [Int])] = [:]
        for (i, t) in departures.enumerated() {
            let around = try days(around: t)
            groups[around.dayStarts, default: (around, [])].indices.append(i)
        }
        var rides = [Int](repeating: Int.max, count: departures.count)
        for group in groups.values {
            var q = RangeQuery(access: access.map { ($0.stop, $0.seconds) }, egress: egress.map { ($0.stop, $0.seconds) },
                               departures: group.indices.map { departures[$0] }, maxRides: maxRides(options),
                               dayStarts: group.around.dayStarts, active: group.around.active)
            q.maxTransferDistance = options.maxWalk >= timetable.metadata.transferWalkLimit ? .infinity : Float(options.maxWalk)
            q.deadline = options.deadline
            for (k, a) in profile.earliestArrivals(q).enumerated() { rides[group.indices[k]] = a }
        }
        if let deadline = options.deadline, Date() > deadline { throw .timedOut }
        // Walking only, searched when its straight-line lower bound could beat the rides of some departure.
        let leastWalk = walkLowerBound(start, end)
        let slowest = zip(departures, rides).map { $1 == Int.max ? Double.infinity : Double($1 - $0) }.max() ?? 0
        let walk = leastWalk < slowest ? walkOnly(from: start, to: end) : nil
        return departures.indices.map { i in
            let t = departures[i], ride = rides[i]
            if let walk, ride == Int.max || Double(t) + walk.duration < Double(ride) { return t + Int(walk.duration.rounded(.up)) }
            return ride == Int.max ? nil : ride
        }
    }
}
