import Foundation

/// The inputs of a range search: as a `RaptorQuery`, but for a list of departures from the origin at once.
public struct RangeQuery: Sendable {
    /// Stops reachable from the origin on foot, with seconds of walking.
    public var access: [(stop: Int, seconds: Int)]
    /// Stops from which the destination is reachable on foot, with seconds of walking.
    public var egress: [(stop: Int, seconds: Int)]
    /// The moments the traveller may leave the origin (Unix seconds, any order, repeats allowed).
    public var departures: [Int]
    /// Most rides of a journey (transfers + 1).
    public var maxRides: Int
    /// Service-day starts per zone and the services active on them, as in `RaptorQuery`.
    public var dayStarts: [Int]
    public var active: [UInt8]
    /// Transfers walking farther than this many metres are not taken.
    public var maxTransferDistance: Float = .infinity
    /// When set, the search gives up at this moment; the caller tells a cut-off search by the clock.
    public var deadline: Date? = nil

    /// A query from its parts; no transfer limit, no deadline.
    public init(access: [(stop: Int, seconds: Int)], egress: [(stop: Int, seconds: Int)], departures: [Int], maxRides: Int,
                dayStarts: [Int], active: [UInt8]) {
        self.access = access; self.egress = egress; self.departures = departures; self.maxRides = maxRides
        self.dayStarts = dayStarts; self.active = active
    }
}

/// Range RAPTOR (rRAPTOR, Delling et al.): the earliest arrival by transit for each of many departures from one
/// origin, in one search. Departures are taken latest first, and every label is kept for the next (earlier) one:
/// a journey that works leaving later works leaving earlier too, so each departure's rounds only explore what it
/// improves. Labels are kept per round (at most r rides), so the ride limit holds exactly; a label is pruned when
/// fewer rides reach the stop as early, or when it cannot beat the destination's arrival found so far.
public struct TransitProfileSearch: Sendable {
    public let timetable: SearchTimetable
    public let serviceCount: Int

    /// A range search over the forward layout of a timetable with `serviceCount` service calendars.
    public init(timetable: SearchTimetable, serviceCount: Int) {
        precondition(!timetable.reversed, "the range search runs forward")
        self.timetable = timetable
        self.serviceCount = serviceCount
    }

    /// The departures worth taking between `earliest` and `latest` (inclusive): each moment at which leaving the
    /// origin just catches a vehicle at an access stop (its departure there minus the walk), sorted, without repeats.
    public func departures(access: [(stop: Int, seconds: Int)], from earliest: Int, to latest: Int,
                           dayStarts: [Int], active: [UInt8]) -> [Int] {
        let tt = timetable
        var times: [Int] = []
        for a in access {
            for k in stride(from: Int(tt.stopPatternStart[a.stop]), to: Int(tt.stopPatternStart[a.stop + 1]), by: 2) {
                let p = Int(tt.stopPatterns[k]), i = Int(tt.stopPatterns[k + 1])
                let n = tt.length(ofPattern: p), timeBase = tt.patternTimeStart[p], zoneBase = Int(tt.patternZone[p]) * 3
                let t0 = Int(tt.patternTripStart[p]), t1 = Int(tt.patternTripStart[p + 1])
                for day in 0..<3 {
                    let dayStart = dayStarts[zoneBase + day]
                    let wanted = earliest + a.seconds - dayStart
                    var lo = t0, hi = t1
                    while lo < hi {
                        let mid = (lo + hi) >> 1
                        if Int(tt.departures[timeBase + (mid - t0) * n + i]) < wanted { lo = mid + 1 } else { hi = mid }
                    }
                    var t = lo
                    while t < t1 {
                        let j = timeBase + (t - t0) * n + i
                        let leave = Int(tt.departures[j]) + dayStart - a.seconds
                        if leave > latest { break }
                        if active[day * serviceCount + Int(tt.tripService[t])] != 0 && tt.flags[j] & 1 == 0 { times.append(leave) }
                        t += 1
                    }
                }
            }
        }
        times.sort()
        var unique: [Int] = []
        for t in times where unique.last != t { unique.append(t) }
        return unique
    }

    /// The earliest arrival at the destination by transit for each of `query.departures` (`Int.max`: no ride
    /// reaches it), in the order given.
    public func earliestArrivals(_ query: RangeQuery) -> [Int] {
        let tt = timetable
        let S = tt.stopCount, R = max(1, query.maxRides)
        let never = Int.max
        // arrival[r * S + s]: earliest arrival at s by a journey whose last ride is its r-th; ready[r * S + s]: earliest
        // moment at s ready to board after r rides (r = 0: the access walk). Kept across departures.
        var arrival = [Int](repeating: never, count: (R + 1) * S)
        var ready = [Int](repeating: never, count: (R + 1) * S)
        var egressOf = [Int](repeating: never, count: S)
        for e in query.egress where e.seconds < egressOf[e.stop] { egressOf[e.stop] = e.seconds }
        var marked = [Bool](repeating: false, count: S)
        var markedList: [Int] = []
        var improved = [Bool](repeating: false, count: S)
        var improvedList: [Int] = []
        var queuePosition = [Int32](repeating: Int32.max, count: tt.patternCount)
        var queue: [Int] = []
        var destBest = never
        let services = serviceCount

        let order = query.departures.indices.sorted { query.departures[$0] > query.departures[$1] }
        var answers = [Int](repeating: never, count: query.departures.count)
        var scanned = 0
        var previous: Int? = nil
        departures: for index in order {
            let tau = query.departures[index]
            if tau == previous { answers[index] = destBest; continue }
            previous = tau
            for a in query.access {
                let t = tau + a.seconds
                if t < ready[a.stop] && t < destBest {
                    ready[a.stop] = t
                    if !marked[a.stop] { marked[a.stop] = true; markedList.append(a.stop) }
                }
            }
            for r in 1...R {
                if markedList.isEmpty { break }
                for s in markedList {
                    marked[s] = false
                    for k in stride(from: Int(tt.stopPatternStart[s]), to: Int(tt.stopPatternStart[s + 1]), by: 2) {
                        let p = Int(tt.stopPatterns[k]), position = tt.stopPatterns[k + 1]
                        if queuePosition[p] == Int32.max { queue.append(p) }
                        if position < queuePosition[p] { queuePosition[p] = position }
                    }
                }
                markedList.removeAll(keepingCapacity: true)
                let base = r * S, previousBase = (r - 1) * S
                for p in queue {
                    scanned &+= 1
                    if scanned & 255 == 0, let deadline = query.deadline, Date() > deadline { break departures }
                    let first = Int(queuePosition[p])
                    queuePosition[p] = Int32.max
                    let n = tt.length(ofPattern: p)
                    let stopBase = Int(tt.patternStopStart[p])
                    let t0 = Int(tt.patternTripStart[p])
                    let timeBase = tt.patternTimeStart[p]
                    let zoneBase = Int(tt.patternZone[p]) * 3
                    var trip = -1, tripStart = 0
                    for i in first..<n {
                        let s = Int(tt.patternStops[stopBase + i])
                        if trip >= 0 {
                            let j = timeBase + (trip - t0) * n + i
                            if tt.flags[j] & 2 == 0 {
                                let a = Int(tt.arrivals[j]) + tripStart
                                if a < arrival[base + s] && a < destBest && a < Self.least(arrival, s, below: r, stride: S) {
                                    arrival[base + s] = a
                                    if !improved[s] { improved[s] = true; improvedList.append(s) }
                                    let e = egressOf[s]
                                    if e != never && a + e < destBest { destBest = a + e }
                                }
                            }
                        }
                        let readyAt = ready[previousBase + s]
                        if readyAt == never { continue }
                        let current = trip >= 0 ? Int(tt.departures[timeBase + (trip - t0) * n + i]) + tripStart : never
                        if readyAt > current { continue }
                        if let (found, foundDay) = tt.earliestBoarding(pattern: p, position: i, readyAt: readyAt, before: current,
                                                                       dayStarts: query.dayStarts, active: query.active, services: services) {
                            trip = found; tripStart = query.dayStarts[zoneBase + foundDay]
                        }
                    }
                }
                queue.removeAll(keepingCapacity: true)
                // Transfers (and staying at the stop) from the stops a ride of this round improved.
                for s in improvedList {
                    improved[s] = false
                    let a = arrival[base + s]
                    for k in Int(tt.transferStart[s])..<Int(tt.transferStart[s + 1]) {
                        if tt.transferDistance[k] > query.maxTransferDistance { continue }
                        let q = Int(tt.transferTo[k])
                        let t = a + Int(tt.transferTime[k])
                        if t < ready[base + q] && t < destBest && t < Self.least(ready, q, below: r, stride: S) {
                            ready[base + q] = t
                            if !marked[q] { marked[q] = true; markedList.append(q) }
                        }
                    }
                }
                improvedList.removeAll(keepingCapacity: true)
            }
            for s in markedList { marked[s] = false }
            markedList.removeAll(keepingCapacity: true)
            answers[index] = destBest
        }
        return answers
    }

    /// The least label of stop `s` in rounds 0…r−1 (a label no earlier than it is dominated: fewer rides, as early).
    @inline(__always) private static func least(_ labels: [Int], _ s: Int, below r: Int, stride: Int) -> Int {
        var m = Int.max
        var k = 0
        while k < r { let v = labels[k * stride + s]; if v < m { m = v }; k += 1 }
        return m
    }
}
