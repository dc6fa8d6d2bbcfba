extension SearchTimetable {
    /// The earliest trip of pattern `pattern` that can be boarded at its stop position `position` at or after
    /// `readyAt` and departs there before `current` (the departure of the trip already held, or `Int.max`), over the
    /// three service days around the query (`dayStarts[zoneBase + k]`, trips active when
    /// `active[k * services + service]` is set): the trip and the service day, or nil when none is earlier.
    /// - Complexity: O(log trips) per service day, plus the inactive or non-boarding trips skipped.
    @inline(__always)
    func earliestBoarding(pattern: Int, position: Int, readyAt: Int, before current: Int,
                          dayStarts: [Int], active: [UInt8], services: Int) -> (trip: Int, day: Int)? {
        let n = length(ofPattern: pattern)
        let t0 = Int(patternTripStart[pattern]), t1 = Int(patternTripStart[pattern + 1])
        let timeBase = patternTimeStart[pattern], zoneBase = Int(patternZone[pattern]) * 3
        var bestDeparture = current, found = -1, foundDay = 0
        for k in 0..<3 {
            let dayStart = dayStarts[zoneBase + k]
            let wanted = readyAt - dayStart
            var lo = t0, hi = t1
            while lo < hi {
                let mid = (lo + hi) >> 1
                if Int(departures[timeBase + (mid - t0) * n + position]) < wanted { lo = mid + 1 } else { hi = mid }
            }
            let activeBase = k * services
            var t = lo
            while t < t1 {
                let j = timeBase + (t - t0) * n + position
                let d = Int(departures[j]) + dayStart
                if d >= bestDeparture { break }
                if active[activeBase + Int(tripService[t])] != 0 && flags[j] & 1 == 0 {
                    bestDeparture = d; found = t; foundDay = k
                    break
                }
                t += 1
            }
        }
        return found >= 0 ? (found, foundDay) : nil
    }
}
