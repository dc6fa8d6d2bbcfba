/// The reference the RAPTOR search is checked against: a plain connection scan (Dubois et al.) over every
/// elementary connection of the query's three service days, sorted by departure, with the same access, egress,
/// transfers and boarding rules. No ride limit; slow on purpose (it rebuilds the connections for each query).
public struct ConnectionScan: Sendable {
    public let timetable: SearchTimetable
    public let serviceCount: Int

    /// A reference over the forward layout of a timetable with `serviceCount` service calendars.
    public init(timetable: SearchTimetable, serviceCount: Int) {
        precondition(!timetable.reversed, "the connection scan runs forward")
        self.timetable = timetable
        self.serviceCount = serviceCount
    }

    /// The earliest arrival at the destination using at least one ride, nil when none.
    public func earliestArrival(_ query: RaptorQuery) -> Int? {
        let tt = timetable
        struct Connection { var from: Int32, to: Int32, departure: Int, arrival: Int, trip: Int32, boardable: Bool, alightable: Bool }
        var connections: [Connection] = []
        var tripCount: Int32 = 0
        for p in 0..<tt.patternCount {
            let n = tt.length(ofPattern: p), t0 = Int(tt.patternTripStart[p]), stopBase = Int(tt.patternStopStart[p])
            for t in t0..<Int(tt.patternTripStart[p + 1]) {
                for k in 0..<3 where query.active[k * serviceCount + Int(tt.tripService[t])] != 0 {
                    let dayStart = query.dayStarts[Int(tt.patternZone[p]) * 3 + k]
                    let base = tt.patternTimeStart[p] + (t - t0) * n
                    for i in 0..<(n - 1) {
                        connections.append(Connection(from: tt.patternStops[stopBase + i], to: tt.patternStops[stopBase + i + 1],
                                                      departure: Int(tt.departures[base + i]) + dayStart,
                                                      arrival: Int(tt.arrivals[base + i + 1]) + dayStart, trip: tripCount,
                                                      boardable: tt.flags[base + i] & 1 == 0, alightable: tt.flags[base + i + 1] & 2 == 0))
                    }
                    tripCount += 1
                }
            }
        }
        connections.sort { $0.departure != $1.departure ? $0.departure < $1.departure : $0.arrival < $1.arrival }
        let never = Int.max
        var ready = [Int](repeating: never, count: tt.stopCount)
        var rideArrival = [Int](repeating: never, count: tt.stopCount)
        var onTrip = [Bool](repeating: false, count: Int(tripCount))
        for a in query.access { ready[a.stop] = min(ready[a.stop], query.departure + a.seconds) }
        for c in connections where c.departure >= query.departure {
            if !onTrip[Int(c.trip)] {
                guard c.boardable && ready[Int(c.from)] <= c.departure else { continue }
                onTrip[Int(c.trip)] = true
            }
            let v = Int(c.to)
            if c.alightable && c.arrival < rideArrival[v] {
                rideArrival[v] = c.arrival
                for k in Int(tt.transferStart[v])..<Int(tt.transferStart[v + 1]) where tt.transferDistance[k] <= query.maxTransferDistance {
                    let q = Int(tt.transferTo[k])
                    ready[q] = min(ready[q], c.arrival + Int(tt.transferTime[k]))
                }
            }
        }
        var best = never
        for e in query.egress where rideArrival[e.stop] != never { best = min(best, rideArrival[e.stop] + e.seconds) }
        return best == never ? nil : best
    }
}
