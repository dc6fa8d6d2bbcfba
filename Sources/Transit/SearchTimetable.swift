/// The timetable laid out for one search direction. Forward it is the timetable as published; reversed, every
/// pattern runs backwards in negated time (departures become −arrivals, boarding and alighting swap), so the one
/// RAPTOR implementation answers arrive-by questions as earliest-arrival ones. Plain arrays throughout.
public struct SearchTimetable: Sendable {
    public let reversed: Bool
    public let stopCount: Int
    public let patternStopStart: [Int32]
    public let patternStops: [Int32]
    public let patternTripStart: [Int32]
    public let patternTimeStart: [Int]
    public let patternZone: [Int32]
    public let arrivals: [Int32]
    public let departures: [Int32]
    /// Bit 0: may not board; bit 1: may not alight (in this direction).
    public let flags: [UInt8]
    public let tripService: [Int32]
    /// For each stop, the patterns serving it and the position there: `stopPatterns[stopPatternStart[s]..<stopPatternStart[s+1]]`,
    /// pairs (pattern, position) flattened.
    public let stopPatternStart: [Int32]
    public let stopPatterns: [Int32]
    /// Transfers leaving each stop in this direction (reversed: the published transfers turned around).
    public let transferStart: [Int32]
    public let transferTo: [Int32]
    public let transferTime: [Int32]
    public let transferDistance: [Float]

    /// Lays out `timetable` for searching forward or backward; `zoneOfRoute` gives each route's time-zone index.
    public init(_ timetable: Timetable, reversed: Bool, zoneOfRoute: [Int]) {
        self.reversed = reversed
        stopCount = timetable.stopCount
        let starts = timetable.patternTimeStarts()
        var stopStart: [Int32] = [0], stops: [Int32] = [], times = [Int](), arr = [Int32](), dep = [Int32](), fl = [UInt8](), service = [Int32]()
        arr.reserveCapacity(timetable.arrivals.count); dep.reserveCapacity(timetable.arrivals.count); fl.reserveCapacity(timetable.arrivals.count)
        var tripStart: [Int32] = [0]
        var zone: [Int32] = []
        for p in 0..<timetable.patternCount {
            let n = timetable.length(ofPattern: p)
            let first = Int(timetable.patternStopStart[p])
            let pStops = (0..<n).map { Int32(timetable.patternStops[first + ($0)]) }
            stops.append(contentsOf: reversed ? pStops.reversed() : pStops)
            stopStart.append(Int32(stops.count))
            zone.append(Int32(zoneOfRoute[Int(timetable.patternRoute[p])]))
            times.append(arr.count)
            let t0 = Int(timetable.patternTripStart[p]), t1 = Int(timetable.patternTripStart[p + 1])
            let order = reversed ? Array((t0..<t1).reversed()) : Array(t0..<t1)
            for t in order {
                service.append(Int32(timetable.tripService[t]))
                let base = starts[p] + (t - t0) * n
                for i in 0..<n {
                    let j = base + (reversed ? n - 1 - i : i)
                    let f = timetable.stopTimeFlags[j]
                    if reversed {
                        arr.append(-timetable.departures[j]); dep.append(-timetable.arrivals[j])
                        fl.append((f & Timetable.noPickup) << 1 | (f & Timetable.noDropOff) >> 1)
                    } else {
                        arr.append(timetable.arrivals[j]); dep.append(timetable.departures[j]); fl.append(f)
                    }
                }
            }
            tripStart.append(Int32(service.count))
        }
        times.append(arr.count)
        patternStopStart = stopStart; patternStops = stops; patternTripStart = tripStart; patternTimeStart = times
        patternZone = zone; arrivals = arr; departures = dep; flags = fl; tripService = service
        // Stop → (pattern, position).
        var lists: [[Int32]] = Array(repeating: [], count: stopCount)
        for p in 0..<(stopStart.count - 1) {
            for i in Int(stopStart[p])..<Int(stopStart[p + 1]) { lists[Int(stops[i])].append(contentsOf: [Int32(p), Int32(i - Int(stopStart[p]))]) }
        }
        var sp: [Int32] = [0], spl: [Int32] = []
        for l in lists { spl.append(contentsOf: l); sp.append(Int32(spl.count)) }
        stopPatternStart = sp; stopPatterns = spl
        // Transfers, turned around when reversed.
        var out: [[(Int32, Int32, Float)]] = Array(repeating: [], count: stopCount)
        for s in 0..<stopCount {
            for k in Int(timetable.transferStart[s])..<Int(timetable.transferStart[s + 1]) {
                let q = Int(timetable.transferTo[k]), time = timetable.transferTime[k], distance = timetable.transferDistance[k]
                if reversed { out[q].append((Int32(s), time, distance)) } else { out[s].append((Int32(q), time, distance)) }
            }
        }
        var ts: [Int32] = [0], tt: [Int32] = [], tm: [Int32] = [], td: [Float] = []
        for l in out { for (q, time, distance) in l { tt.append(q); tm.append(time); td.append(distance) }; ts.append(Int32(tt.count)) }
        transferStart = ts; transferTo = tt; transferTime = tm; transferDistance = td
    }

    /// Number of patterns.
    public var patternCount: Int { patternTripStart.count - 1 }
    /// Number of stops of pattern p.
    @inline(__always) public func length(ofPattern p: Int) -> Int { Int(patternStopStart[p + 1] - patternStopStart[p]) }

    /// The published pattern position of position i of pattern p in this direction.
    @inline(__always) public func publishedPosition(_ p: Int, _ i: Int) -> Int { reversed ? length(ofPattern: p) - 1 - i : i }
    /// The published trip index of trip t in this direction.
    @inline(__always) public func publishedTrip(_ p: Int, _ t: Int) -> Int {
        reversed ? Int(patternTripStart[p]) + Int(patternTripStart[p + 1]) - 1 - t : t
    }
}
