import Foundation

/// The inputs of one RAPTOR search, in the search's own direction (reversed searches negate times).
public struct RaptorQuery: Sendable {
    /// Stops reachable from the origin on foot, with seconds of walking.
    public var access: [(stop: Int, seconds: Int)]
    /// Stops from which the destination is reachable on foot, with seconds of walking.
    public var egress: [(stop: Int, seconds: Int)]
    /// The moment the traveller leaves the origin (Unix seconds, negated for reversed searches).
    public var departure: Int
    /// Most rides of a journey (transfers + 1).
    public var maxRides: Int
    /// Start of service day k (0 = the day before the query's date) per time zone: `dayStarts[zone * 3 + k]`
    /// (negated for reversed searches).
    public var dayStarts: [Int]
    /// `active[k * services + s]` is 1 when service s runs on day k.
    public var active: [UInt8]
    /// Only journeys arriving strictly before this bound are of interest (prunes the search).
    public var arrivalBound: Int = Int.max
    /// Transfers walking farther than this many metres are not taken.
    public var maxTransferDistance: Float = .infinity
    /// When set, the search gives up at this moment (checked every few hundred patterns) and returns what it has
    /// found so far; the caller tells a cut-off search by the clock.
    public var deadline: Date? = nil

    /// A query from its parts; no arrival bound and no transfer limit.
    public init(access: [(stop: Int, seconds: Int)], egress: [(stop: Int, seconds: Int)], departure: Int, maxRides: Int,
                dayStarts: [Int], active: [UInt8]) {
        self.access = access; self.egress = egress; self.departure = departure; self.maxRides = maxRides
        self.dayStarts = dayStarts; self.active = active
    }
}

/// One part of a journey found by a search, in the search's direction and times.
public enum JourneyPart: Equatable, Sendable {
    case access(stop: Int, seconds: Int)
    /// A ride on trip `trip` of `pattern` running on service day `day` (0…2), from position `from` to `to`.
    case ride(pattern: Int, trip: Int, day: Int, from: Int, to: Int, board: Int, alight: Int)
    case transfer(from: Int, to: Int, seconds: Int)
    case egress(stop: Int, seconds: Int)
}

/// A journey of the Pareto set: its arrival, number of rides and parts in travel order (search direction).
public struct Journey: Equatable, Sendable {
    public var arrival: Int
    public var rides: Int
    public var parts: [JourneyPart]
}

/// Round-based public transit routing (RAPTOR, Delling et al.): round r finds the earliest arrival at every stop
/// with r rides, scanning each pattern touched in the previous round once. Gives the Pareto set over
/// (arrival, rides). Board when the departure is at or after the moment the traveller is at the stop.
public struct RaptorSearch: Sendable {
    public let timetable: SearchTimetable
    public let serviceCount: Int

    /// A search over one direction's layout of a timetable with `serviceCount` service calendars.
    public init(timetable: SearchTimetable, serviceCount: Int) {
        self.timetable = timetable
        self.serviceCount = serviceCount
    }

    /// The Pareto-optimal journeys of `query`, fewest rides first (each arriving strictly earlier than the previous).
    public func search(_ query: RaptorQuery) -> [Journey] {
        let labels = run(query)
        var journeys: [Journey] = []
        for r in 1...labels.rounds where labels.destinationOfRound[r] != Int.max {
            let s = labels.destinationStopOfRound[r]
            journeys.append(journey(labels, to: s, round: r, egressSeconds: labels.egressOf[s]))
        }
        return journeys
    }

    /// The labels of a search of `query` (with no egress and no bound: the earliest arrival at every stop, per round).
    public func run(_ query: RaptorQuery) -> RaptorLabels {
        let tt = timetable
        let S = tt.stopCount, R = max(1, query.maxRides)
        let never = Int.max
        var ride = [Int](repeating: never, count: (R + 1) * S)
        var ready = [Int](repeating: never, count: (R + 1) * S)
        var bestRide = [Int](repeating: never, count: S)
        var bestReady = [Int](repeating: never, count: S)
        var bestReadyRound = [Int8](repeating: 0, count: S)
        // Parents: of ride labels, the trip (pattern, trip, day, boarding position, round of the boarding label);
        // of ready labels, the stop the transfer came from (−1: access).
        var rideTrip = [Int32](repeating: -1, count: (R + 1) * S)
        var ridePattern = [Int32](repeating: -1, count: (R + 1) * S)
        var rideInfo = [Int32](repeating: 0, count: (R + 1) * S)   // day | boardPosition << 2 | boardRound << 24 | alightPosition…
        var rideAlight = [Int32](repeating: 0, count: (R + 1) * S)
        var readyFrom = [Int32](repeating: -1, count: (R + 1) * S)
        var egressOf = [Int](repeating: never, count: S)
        for e in query.egress where e.seconds < egressOf[e.stop] { egressOf[e.stop] = e.seconds }

        var marked = [Bool](repeating: false, count: S)
        var markedList: [Int] = []
        for a in query.access {
            let t = query.departure + a.seconds
            if t < ready[a.stop] && t < query.arrivalBound {
                ready[a.stop] = t; bestReady[a.stop] = t; readyFrom[a.stop] = -1
                if !marked[a.stop] { marked[a.stop] = true; markedList.append(a.stop) }
            }
        }
        var destBest = query.arrivalBound
        var destOfRound = [Int](repeating: never, count: R + 1)
        var destStopOfRound = [Int](repeating: -1, count: R + 1)

        var queuePosition = [Int32](repeating: Int32.max, count: tt.patternCount)
        var queue: [Int] = []
        var improved = [Bool](repeating: false, count: S)
        var improvedList: [Int] = []
        let services = serviceCount

        var scanned = 0
        rounds: for r in 1...R {
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
            let base = r * S

            for p in queue {
                scanned &+= 1
                if scanned & 255 == 0, let deadline = query.deadline, Date() > deadline { break rounds }
                let first = Int(queuePosition[p])
                queuePosition[p] = Int32.max
                let n = tt.length(ofPattern: p)
                let stopBase = Int(tt.patternStopStart[p])
                let t0 = Int(tt.patternTripStart[p])
                let timeBase = tt.patternTimeStart[p]
                let zoneBase = Int(tt.patternZone[p]) * 3
                var trip = -1, tripDay = 0, tripStart = 0, boardPosition = 0, boardRound = 0
                for i in first..<n {
                    let s = Int(tt.patternStops[stopBase + i])
                    if trip >= 0 {
                        let j = timeBase + (trip - t0) * n + i
                        if tt.flags[j] & 2 == 0 {
                            let a = Int(tt.arrivals[j]) + tripStart
                            if a < bestRide[s] && a < destBest {
                                ride[base + s] = a; bestRide[s] = a
                                rideTrip[base + s] = Int32(trip); ridePattern[base + s] = Int32(p)
                                rideInfo[base + s] = Int32(tripDay | boardPosition << 2 | boardRound << 26)
                                rideAlight[base + s] = Int32(i)
                                if !improved[s] { improved[s] = true; improvedList.append(s) }
                                let e = egressOf[s]
                                if e != never && a + e < destBest { destBest = a + e; destOfRound[r] = destBest; destStopOfRound[r] = s }
                            }
                        }
                    }
                    let readyAt = bestReady[s]
                    if readyAt == never { continue }
                    let current = trip >= 0 ? Int(tt.departures[timeBase + (trip - t0) * n + i]) + tripStart : never
                    if readyAt > current { continue }
                    // The earliest boardable trip at position i, over the three service days.
                    if let (found, foundDay) = tt.earliestBoarding(pattern: p, position: i, readyAt: readyAt, before: current,
                                                                   dayStarts: query.dayStarts, active: query.active, services: services) {
                        trip = found; tripDay = foundDay; tripStart = query.dayStarts[zoneBase + foundDay]
                        boardPosition = i; boardRound = Int(bestReadyRound[s])
                    }
                }
            }
            queue.removeAll(keepingCapacity: true)

            // Transfers from the stops reached by a ride in this round (at most one walk between two rides).
            for s in improvedList {
                improved[s] = false
                let a = ride[base + s]
                for k in Int(tt.transferStart[s])..<Int(tt.transferStart[s + 1]) {
                    if tt.transferDistance[k] > query.maxTransferDistance { continue }
                    let w = Int(tt.transferTime[k])
                    let q = Int(tt.transferTo[k])
                    let t = a + w
                    if t < bestReady[q] && t < destBest {
                        ready[base + q] = t; bestReady[q] = t; bestReadyRound[q] = Int8(r); readyFrom[base + q] = Int32(s)
                        if !marked[q] { marked[q] = true; markedList.append(q) }
                    }
                }
            }
            improvedList.removeAll(keepingCapacity: true)
        }

        return RaptorLabels(stopCount: S, rounds: R, departure: query.departure, dayStarts: query.dayStarts, ride: ride, ready: ready,
                            rideTrip: rideTrip, ridePattern: ridePattern, rideInfo: rideInfo, rideAlight: rideAlight, readyFrom: readyFrom,
                            egressOf: egressOf, destinationOfRound: destOfRound, destinationStopOfRound: destStopOfRound)
    }

    /// The journey that reached stop `s` by a ride in round `r` of `labels`, ending with an egress walk of `egressSeconds`.
    public func journey(_ labels: RaptorLabels, to stop: Int, round r: Int, egressSeconds: Int) -> Journey {
        let tt = timetable, S = labels.stopCount
        let ride = labels.ride, ready = labels.ready
        var parts: [JourneyPart] = []
        var s = stop
        parts.append(.egress(stop: s, seconds: egressSeconds))
        var round = r
        while true {
            let label = round * S + s
            let p = Int(labels.ridePattern[label]), t = Int(labels.rideTrip[label]), info = Int(labels.rideInfo[label])
            let day = info & 3, boardPosition = (info >> 2) & 0xFFFFFF, boardRound = info >> 26
            let n = tt.length(ofPattern: p), t0 = Int(tt.patternTripStart[p])
            let dayStart = labels.dayStarts[Int(tt.patternZone[p]) * 3 + day]
            let alightPosition = Int(labels.rideAlight[label])
            let timeBase = tt.patternTimeStart[p] + (t - t0) * n
            parts.append(.ride(pattern: p, trip: t, day: day, from: boardPosition, to: alightPosition,
                               board: Int(tt.departures[timeBase + boardPosition]) + dayStart,
                               alight: Int(tt.arrivals[timeBase + alightPosition]) + dayStart))
            let boardStop = Int(tt.patternStops[Int(tt.patternStopStart[p]) + boardPosition])
            let readyLabel = boardRound * S + boardStop
            if boardRound == 0 {
                parts.append(.access(stop: boardStop, seconds: ready[readyLabel] - labels.departure))
                break
            }
            let from = Int(labels.readyFrom[readyLabel])
            parts.append(.transfer(from: from, to: boardStop, seconds: ready[readyLabel] - ride[readyLabel - boardStop + from]))
            s = from
            round = boardRound
        }
        let rides = parts.reduce(0) { if case .ride = $1 { return $0 + 1 }; return $0 }
        return Journey(arrival: ride[r * S + stop] + egressSeconds, rides: rides, parts: parts.reversed())
    }
}

/// What one RAPTOR search leaves behind: per round r and stop s (index `r * stopCount + s`), the arrival by a ride
/// (`ride`, `Int.max` when not improved in that round) and the moment ready to board (`ready`), with the parents that
/// unwind them into journeys; and the destination's arrival per round. `ride` is set in round r only where it beats
/// every earlier round, so the earliest arrival at s with at most r rides is the least of rounds 1…r.
public struct RaptorLabels: Sendable {
    public let stopCount: Int
    public let rounds: Int
    public let departure: Int
    let dayStarts: [Int]
    public let ride: [Int]
    public let ready: [Int]
    let rideTrip: [Int32], ridePattern: [Int32], rideInfo: [Int32], rideAlight: [Int32], readyFrom: [Int32]
    let egressOf: [Int]
    /// The destination's arrival found in round r (`Int.max`: none better than earlier rounds), and the stop it came from.
    public let destinationOfRound: [Int]
    public let destinationStopOfRound: [Int]
}
