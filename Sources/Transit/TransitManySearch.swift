import Foundation
import Graph
import Routing

/// The earliest arrival at one place of a one-to-many transit search, with the summary of its itinerary.
public struct TransitArrival: Equatable, Sendable {
    /// The moment the place is reached: the same as the pair's own `plan(from:to:departure:)` primary arrival.
    public var arrival: Date
    /// Rides of the itinerary (0: walking only is quicker); the fewest with which `arrival` is reached.
    public var rides: Int
    /// Metres walked: access, transfers and egress (or the whole walk).
    public var walkingDistance: Double
    /// The first stop boarded and the vehicle's departure there (nil when walking only).
    public var firstBoarding: (stop: TransitStop, departure: Date)?
    /// With `refine`, the pair query's own primary itinerary (latest departure still arriving then); else nil.
    public var itinerary: TransitItinerary?

    /// Seconds from the query's departure to the arrival.
    public func travelTime(from departure: Date) -> TimeInterval { arrival.timeIntervalSince(departure) }

    public static func == (a: TransitArrival, b: TransitArrival) -> Bool {
        a.arrival == b.arrival && a.rides == b.rides && a.walkingDistance == b.walkingDistance && a.itinerary == b.itinerary
            && a.firstBoarding?.stop == b.firstBoarding?.stop && a.firstBoarding?.departure == b.firstBoarding?.departure
    }
}

/// One origin's search, kept to answer many places: its point on the foot graph, its access walks and the RAPTOR
/// labels from its departure (lazily a second set from the origin moved off a small island).
struct OriginSearch {
    let point: SearchEndpoint
    let access: [(stop: Int, seconds: Int, distance: Double)]
    let accessAt: [Int: (stop: Int, seconds: Int, distance: Double)]
    let labels: RaptorLabels
}

/// A walking-only answer to one place: seconds and metres, and the route itself when it was searched (nil when the
/// figures came from a one-to-many search), which a refined answer shows.
struct WalkOnlyAnswer {
    let duration: Double
    let distance: Double
    let route: SearchResult?

    init(duration: Double, distance: Double, route: SearchResult?) { self.duration = duration; self.distance = distance; self.route = route }

    /// The figures of `route`, kept with it.
    init(route: SearchResult) { self.init(duration: route.duration, distance: route.distance, route: route) }
}

extension TransitRouter {
    /// The earliest arrival by transit from `origin`, leaving at or after `departure`, at every place of `places`
    /// (`results[i]` answers `places[i]`): one RAPTOR search from the origin to every stop, then for each place the
    /// best ride arrival at a stop within walking range plus the walk from that stop (the same backward walk search
    /// the pair query makes), or walking only when that is earlier. Each answer equals the pair's own
    /// `plan(from: origin, to: place, departure:)`: the same arrival and rides, and with `refine` the same primary
    /// itinerary (at the cost of one backward search per place, as the pair query makes). Snapping follows
    /// docs/transit.md: a place, or the origin, moves off a small island only when that pair has no itinerary at all.
    /// A place that cannot be answered (not a coordinate, off the roads, no route) gets the pair query's error; an
    /// origin that cannot be snapped, a date outside the feed, or the `options.deadline` passing throws.
    public func earliestArrivals(from origin: Coordinate, departure: Date, to places: [Coordinate], options: TransitOptions = TransitOptions(),
                                 refine: Bool = false) throws(TransitError) -> [Result<TransitArrival, TransitError>] {
        let snappedOrigin = try endpoint(origin, stop: 0, options: options)
        let t = Int(departure.timeIntervalSince1970.rounded(.up))
        let around = try window.days(around: t)
        let nearest = try originSearch(SearchEndpoint(snappedOrigin.nearest, in: graph), departure: t, around: around, options: options)
        var moved: OriginSearch? = nil
        var results: [Result<TransitArrival, TransitError>] = []
        results.reserveCapacity(places.count)
        // First the rides to every place; then the walks from the origin, in one one-to-many foot search, to the places
        // whose walk might beat their rides (the pair query's lower-bound test); then each answer.
        var prepared: [(snapped: SnappedStop, end: SearchEndpoint, egress: [(stop: Int, seconds: Int, distance: Double)],
                        ride: (arrival: Int, rides: Int, stop: Int, round: Int)?)?] = []
        var walkTargets: [SearchEndpoint] = [], walkIndex: [Int: Int] = [:], walkBounds: [Double] = []
        for (i, place) in places.enumerated() {
            guard let snapped = try? endpoint(place, stop: 1, options: options) else { prepared.append(nil); continue }
            let end = SearchEndpoint(snapped.nearest, in: graph)
            // Refined answers need every egress walk (the later-departure search starts from them all); the
            // earliest arrival alone only those that can decide it, from a walk search cut short.
            let egress = refine ? walks(at: end, towards: true, maxWalk: options.maxWalk, deadline: options.deadline)
                : rideEgress(at: end, labels: nearest.labels, maxWalk: options.maxWalk, deadline: options.deadline)
            let ride = bestRideArrival(nearest.labels, egress: egress)
            prepared.append((snapped, end, egress, ride))
            if ride == nil || walkLowerBound(nearest.point, end) < Double(ride!.arrival - t) {
                walkIndex[i] = walkTargets.count; walkTargets.append(end)
                // Walking matters only when quicker than the rides: the foot search need not look further.
                walkBounds.append(ride.map { Double($0.arrival - t) } ?? .infinity)
            }
        }
        if let deadline = options.deadline, Date() > deadline { throw .timedOut }
        let walkTimes = try walksOnly(from: nearest.point, to: walkTargets, within: walkBounds, deadline: options.deadline)
        if let deadline = options.deadline, Date() > deadline { throw .timedOut }
        for (i, place) in places.enumerated() {
            guard let ready = prepared[i] else {
                do { _ = try endpoint(place, stop: 1, options: options) } catch { results.append(.failure(error)) }
                continue
            }
            let snapped = ready.snapped
            let walkOnly: WalkOnlyAnswer?? = walkIndex[i].map { walkTimes[$0] }
            if let found = try arrival(from: nearest, to: ready.end, origin: origin, place: place, departure: t, around: around, options: options,
                                       refine: refine, egress: ready.egress, ride: ready.ride, walkOnly: walkOnly) {
                results.append(.success(found)); continue
            }
            // No itinerary at all, not even walking: the pair query moves its ends off small islands and searches again.
            guard snappedOrigin.offIsland != nil || snapped.offIsland != nil else {
                results.append(.failure(.noTransitRoute(leg: 0, maxTransfers: options.maxTransfers, maxWalk: options.maxWalk))); continue
            }
            var from = nearest
            if let off = snappedOrigin.offIsland {
                if moved == nil { moved = try originSearch(SearchEndpoint(off, in: graph), departure: t, around: around, options: options) }
                from = moved!
            }
            if let found = try arrival(from: from, to: SearchEndpoint(snapped.offIsland ?? snapped.nearest, in: graph), origin: origin, place: place,
                                       departure: t, around: around, options: options, refine: refine) {
                results.append(.success(found))
            } else {
                results.append(.failure(.noTransitRoute(leg: 0, maxTransfers: options.maxTransfers, maxWalk: options.maxWalk)))
            }
        }
        return results
    }

    /// The earliest arrivals from every source at every target (`rows[i][j]`: from `sources[i]` to `targets[j]`), all
    /// leaving at `departure`: one `earliestArrivals` search per source. A source that cannot be snapped fills its
    /// row with its error.
    public func earliestArrivalMatrix(from sources: [Coordinate], to targets: [Coordinate], departure: Date,
                                      options: TransitOptions = TransitOptions()) throws(TransitError) -> [[Result<TransitArrival, TransitError>]] {
        var rows: [[Result<TransitArrival, TransitError>]] = []
        for (i, source) in sources.enumerated() {
            do {
                rows.append(try earliestArrivals(from: source, departure: departure, to: targets, options: options))
            } catch {
                switch error {
                case .invalidCoordinate, .noRoad: rows.append(Array(repeating: .failure(renumbered(error, stop: i)), count: targets.count))
                default: throw error
                }
            }
        }
        return rows
    }

    private func renumbered(_ error: TransitError, stop: Int) -> TransitError {
        switch error {
        case .invalidCoordinate: return .invalidCoordinate(stop: stop)
        case let .noRoad(_, maxDistance): return .noRoad(stop: stop, maxDistance: maxDistance)
        default: return error
        }
    }

    // MARK: - The parts

    /// The RAPTOR query of a pair search (the same limits `plan` applies), in either direction.
    func pairQuery(access: [(stop: Int, seconds: Int, distance: Double)], egress: [(stop: Int, seconds: Int, distance: Double)], reversed: Bool,
                   time: Int, rides: Int, bound: Int, around: (dayStarts: [Int], active: [UInt8]), options: TransitOptions) -> RaptorQuery {
        var q = RaptorQuery(access: access.map { ($0.stop, $0.seconds) }, egress: egress.map { ($0.stop, $0.seconds) }, departure: time,
                            maxRides: rides, dayStarts: reversed ? around.dayStarts.map { -$0 } : around.dayStarts, active: around.active)
        q.arrivalBound = bound
        q.maxTransferDistance = options.maxWalk >= timetable.metadata.transferWalkLimit ? .infinity : Float(options.maxWalk)
        q.deadline = options.deadline
        return q
    }

    /// Most rides a query of `options` allows.
    func maxRides(_ options: TransitOptions) -> Int { max(1, min(7, options.maxTransfers + 1)) }

    private func originSearch(_ point: SearchEndpoint, departure t: Int, around: (dayStarts: [Int], active: [UInt8]),
                              options: TransitOptions) throws(TransitError) -> OriginSearch {
        let access = walks(at: point, towards: false, maxWalk: options.maxWalk, deadline: options.deadline)
        let labels = forward.run(pairQuery(access: access, egress: [], reversed: false, time: t, rides: maxRides(options), bound: Int.max,
                                           around: around, options: options))
        if let deadline = options.deadline, Date() > deadline { throw .timedOut }
        return OriginSearch(point: point, access: access, accessAt: Dictionary(access.map { ($0.stop, $0) }, uniquingKeysWith: { a, _ in a }),
                            labels: labels)
    }

    /// The earliest ride arrival at a place with egress walks `egress`: (arrival, fewest rides reaching it, the stop
    /// and round of the label it comes from), or nil when no ride reaches it.
    func bestRideArrival(_ labels: RaptorLabels, egress: [(stop: Int, seconds: Int, distance: Double)]) -> (arrival: Int, rides: Int, stop: Int, round: Int)? {
        let S = labels.stopCount, never = Int.max
        var best = never, bestRound = 0, bestStop = -1, labelRound = 0
        for e in egress {
            // The earliest arrival at the stop with at most r rides is the least label of rounds 1…r.
            var r = 1
            while r <= labels.rounds {
                let a = labels.ride[r * S + e.stop]
                if a != never {
                    let total = a + e.seconds
                    if total < best || (total == best && r < bestRound) { best = total; bestRound = r; bestStop = e.stop; labelRound = r }
                }
                r += 1
            }
        }
        guard best != never else { return nil }
        // The journey from that label may ride fewer times than its round.
        return (best, bestRound, bestStop, labelRound)
    }

    /// The least time walking could take between two points (straight line at the foot profile's top speed), seconds.
    func walkLowerBound(_ a: SearchEndpoint, _ b: SearchEndpoint) -> Double {
        a.coordinate.distance(to: b.coordinate) / (footRouter.search.space.maximumSpeed * 1000)
    }

    /// One place's answer from an origin's search, or nil when the pair has no itinerary at all. `egress`, `ride` and
    /// `walkOnly` (nil: not searched yet; .some(nil): no walking route) may come from a batch; else they are searched here.
    private func arrival(from search: OriginSearch, to end: SearchEndpoint, origin: Coordinate, place: Coordinate, departure t: Int,
                         around: (dayStarts: [Int], active: [UInt8]), options: TransitOptions, refine: Bool,
                         egress given: [(stop: Int, seconds: Int, distance: Double)]? = nil, ride givenRide: (arrival: Int, rides: Int, stop: Int, round: Int)?? = nil,
                         walkOnly givenWalk: WalkOnlyAnswer?? = nil) throws(TransitError) -> TransitArrival? {
        let egress = given ?? walks(at: end, towards: true, maxWalk: options.maxWalk, deadline: options.deadline)
        if let deadline = options.deadline, Date() > deadline { throw .timedOut }
        let ride = givenRide ?? bestRideArrival(search.labels, egress: egress)
        // Walking only, when its straight-line lower bound could beat the rides (as the pair query decides).
        if ride == nil || walkLowerBound(search.point, end) < Double(ride!.arrival - t),
           let walk = givenWalk ?? walkOnly(from: search.point, to: end).map(WalkOnlyAnswer.init(route:)),
           ride == nil || Double(t) + walk.duration < Double(ride!.arrival) {
            let leaving = Date(timeIntervalSince1970: TimeInterval(t))
            var shown: TransitItinerary? = nil
            var distance = walk.distance
            if refine, let route = walk.route ?? walkOnly(from: search.point, to: end) {
                shown = self.walk(route, from: origin, to: place, names: ("origin", "destination"), leaving: leaving)
                distance = route.distance
            }
            return TransitArrival(arrival: leaving.addingTimeInterval(TimeInterval(Int(walk.duration.rounded(.up)))), rides: 0,
                                  walkingDistance: distance, firstBoarding: nil, itinerary: shown)
        }
        guard let ride else { return nil }
        let egressAt = Dictionary(egress.map { ($0.stop, $0) }, uniquingKeysWith: { a, _ in a })
        let forwardJourney = forward.journey(search.labels, to: ride.stop, round: ride.round, egressSeconds: egressAt[ride.stop]!.seconds)
        if refine {
            // The pair query's refinement: the latest departure still arriving then with at most that many rides.
            let refined = backward.search(pairQuery(access: egress, egress: search.access, reversed: true, time: -ride.arrival,
                                                    rides: forwardJourney.rides, bound: -t + 1, around: around, options: options))
            if let deadline = options.deadline, Date() > deadline { throw .timedOut }
            let parts = refined.last.map { published($0, reversed: true) } ?? forwardJourney.parts
            let shown = itinerary(parts, origin: origin, destination: place, names: ("origin", "destination"), access: search.accessAt, egress: egressAt)
            return TransitArrival(arrival: shown.arrival, rides: shown.rides, walkingDistance: shown.walkingDistance,
                                  firstBoarding: shown.legs.first { $0.kind == .ride }.map { ($0.from, $0.departure) }, itinerary: shown)
        }
        return summary(forwardJourney.parts, access: search.accessAt, egress: egressAt)
    }

    /// The walking-only figures from `start` to each of `targets` that walking might win: every walk shorter than its
    /// bound gets the pair query's own figures and route (`walkOnly`), a longer one may get nil. With the foot
    /// profile's contraction hierarchy, `HierarchySearch.routes` (one upward search from the start for all targets, the
    /// pair query's own route for each, searched again only where two paths are equally fast), a second's margin over
    /// each bound covering the sums' rounding; without one, one bounded one-to-many foot search. The routes are kept
    /// with their figures, so a refined answer does not search them again.
    /// Throws `.timedOut` once `deadline` passes (checked between the hierarchy's targets).
    func walksOnly(from start: SearchEndpoint, to targets: [SearchEndpoint], within bounds: [Double], deadline: Date?) throws(TransitError) -> [WalkOnlyAnswer?] {
        guard !targets.isEmpty else { return [] }
        guard let hierarchy = footRouter.hierarchy else {
            return footOneToMany.routes(from: start, to: targets, within: bounds).map { $0.map { WalkOnlyAnswer(duration: $0.duration, distance: $0.distance, route: nil) } }
        }
        let limit = deadline.map { SearchDeadline(seconds: $0.timeIntervalSinceNow) } ?? .none
        do {
            return try hierarchy.routes(from: start, to: targets, within: bounds.map { $0 + 1 }, deadline: limit).map { $0.map(WalkOnlyAnswer.init(route:)) }
        } catch {
            throw .timedOut
        }
    }

    /// The summary of a journey's parts without building its legs: arrival, rides, metres walked, first boarding.
    func summary(_ parts: [JourneyPart], access: [Int: (stop: Int, seconds: Int, distance: Double)],
                 egress: [Int: (stop: Int, seconds: Int, distance: Double)]) -> TransitArrival {
        var walked = 0.0, rides = 0, arrival = 0
        var first: (stop: TransitStop, departure: Date)? = nil
        for part in parts {
            switch part {
            case let .access(s, seconds): if seconds > 0 { walked += access[s]?.distance ?? 0 }
            case let .transfer(from, to, _):
                guard from != to else { continue }
                for k in Int(timetable.transferStart[from])..<Int(timetable.transferStart[from + 1]) where Int(timetable.transferTo[k]) == to {
                    walked = walked + Double(timetable.transferDistance[k]); break
                }
            case let .ride(p, _, _, from, _, board, alight):
                rides += 1
                arrival = alight
                if first == nil {
                    let s = Int(timetable.patternStops[Int(timetable.patternStopStart[p]) + from])
                    first = (stop(s), Date(timeIntervalSince1970: TimeInterval(board)))
                }
            case let .egress(s, seconds):
                if seconds > 0 { walked += egress[s]?.distance ?? 0 }
                arrival += seconds
            }
        }
        return TransitArrival(arrival: Date(timeIntervalSince1970: TimeInterval(arrival)), rides: rides, walkingDistance: walked,
                              firstBoarding: first, itinerary: nil)
    }
}
