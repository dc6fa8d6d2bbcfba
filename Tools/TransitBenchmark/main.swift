import Foundation
import Graph
import Routing
import Transit

// Transit query benchmark over a graph file with a timetable (driven by Tools/bench-transit): N random
// origin/destination/departure triples, each answered by the full depart-at plan (TransitRouter.plan: snapping,
// walks, RAPTOR, the later-departure refinement, walking-only comparison, itinerary assembly), by the RAPTOR
// earliest-arrival search alone, and by the reference connection scan on the same search input; prints
// p50/p90/p99 and cross-checks the two searches' arrivals; `--snaps N` first snaps N random points around the stops
// to the foot graph (µs per snap, and per snap with its island check). Figures only, never asserted.


func percentile(_ values: [Double], _ p: Double) -> Double {
    if values.isEmpty { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded()))]
}

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

let usage = """
usage: transit-benchmark GRAPH.wfg [--queries N] [--seed N] [--reference N] [--snaps N]
                         [--many ORIGINS [--places N] [--window MIN] [--runs N] [--parts]] [--json FILE]

  --queries N    random depart-at queries, each by the full plan and by RAPTOR alone (default 1000)
  --seed N       seed of the SplitMix64 generator that draws the queries (default 1)
  --reference N  how many of the queries the reference connection scan also answers (default: all)
  --snaps N      first time N snaps of random points around the stops to the foot graph
  --many N       origins for the one-to-many ETA and the departure window (default 0: skip them)
  --places N     places per one-to-many search (default 100)
  --window MIN   the departure window, in minutes (default 30)
  --runs N       runs per one-to-many figure; the median counts (default 5)
  --parts        also time the parts any exact one-to-many answer needs, and their sum against one query
  --json FILE    also write the figures as JSON (for Tools/bench-transit)
"""
let arguments = Array(CommandLine.arguments.dropFirst())
let valued: Set = ["--queries", "--seed", "--reference", "--snaps", "--many", "--places", "--window", "--runs", "--json"]
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("transit-benchmark: \(message)\n".utf8))
    exit(2)
}
if arguments.contains("--help") || arguments.contains("-h") { print(usage, terminator: ""); exit(0) }
guard let graphPath = arguments.first, !graphPath.hasPrefix("-") else { fail("no graph file given\n" + usage) }
var index = 1
while index < arguments.count {
    let name = arguments[index]
    if valued.contains(name) {
        guard index + 1 < arguments.count else { fail("\(name) needs a value") }
        if name != "--json", Int(arguments[index + 1]).map({ $0 >= 0 }) != true { fail("\(name) must be a whole number ≥ 0, not '\(arguments[index + 1])'") }
        index += 2
    } else if name == "--parts" {
        index += 1
    } else {
        fail("unknown option '\(name)' (try --help)")
    }
}
@MainActor func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
let queries = Int(option("--queries") ?? "") ?? 1000
let seed = UInt64(option("--seed") ?? "") ?? 1
let referenceQueries = Int(option("--reference") ?? "") ?? queries

let openStarted = now()
let router: TransitRouter
do { router = try TransitRouter(graph: RoadGraph(path: graphPath)) } catch { fail("\(graphPath): \(error)") }
let openSeconds = now() - openStarted
let tt = router.timetable
let meta = tt.metadata
// Days of the feed on which the most trips run (its busy days), to query on.
var tripsPerDay: [Int: Int] = [:]
for day in meta.firstDay...meta.lastDay {
    var count = 0
    for t in 0..<tt.tripCount where router.calendar.runs(Int(tt.tripService[t]), on: day) { count += 1 }
    tripsPerDay[day] = count
}
let busiest = tripsPerDay.values.max() ?? 0
let days = tripsPerDay.filter { $0.value * 2 >= busiest }.map(\.key).sorted()
// Origins and destinations lie around stops that are on the map (a feed may reach beyond its extract).
let onNetwork = (0..<tt.stopCount).filter { router.stopEndpoints[$0] != nil }
let reference = ConnectionScan(timetable: router.forward.timetable, serviceCount: router.calendar.count)

var rng = SplitMix64(state: seed)
if let snaps = Int(option("--snaps") ?? "") {
    let points = (0..<snaps).map { _ in
        let s = onNetwork[Int.random(in: 0..<onNetwork.count, using: &rng)]
        return Coordinate(latitude: Double(tt.stopLatitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng),
                          longitude: Double(tt.stopLongitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng))
    }
    for round in 0..<3 {
        let s0 = now()
        var hits = 0
        for p in points where router.footRouter.snapper.snap(p) != nil { hits += 1 }
        let s1 = now()
        var hits2 = 0
        for p in points where router.footRouter.snapper.snapStop(p) != nil { hits2 += 1 }
        let s2 = now()
        print(String(format: "snap round %d: %.2f µs per snap, %.2f µs per snapStop (%d, %d hits)", round, (s1 - s0) / Double(snaps) * 1e6, (s2 - s1) / Double(snaps) * 1e6, hits, hits2))
    }
}
var planTimes: [Double] = [], raptorTimes: [Double] = [], referenceTimes: [Double] = []
var found = 0, walkOnly = 0, noRoute = 0, mismatches = 0, rides: [Int] = []
var failures: [String: Int] = [:]
for q in 0..<(queries + 20) {
    let a = onNetwork[Int.random(in: 0..<onNetwork.count, using: &rng)], b = onNetwork[Int.random(in: 0..<onNetwork.count, using: &rng)]
    func jitter(_ s: Int) -> Coordinate {
        Coordinate(latitude: Double(tt.stopLatitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng),
                   longitude: Double(tt.stopLongitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng))
    }
    let origin = jitter(a), destination = jitter(b)
    let day = days[Int.random(in: 0..<days.count, using: &rng)]
    let t = ServiceDay.start(day, in: router.zones[0]) + Int.random(in: (6 * 3600)...(20 * 3600), using: &rng)
    let warm = q < 20
    let started = now()
    do {
        let plan = try router.plan(from: origin, to: destination, departure: Date(timeIntervalSince1970: TimeInterval(t)))
        if !warm { if plan.primary.rides == 0 { walkOnly += 1 } else { found += 1; rides.append(plan.primary.rides) } }
    } catch {
        if !warm {
            noRoute += 1
            let kind = "\(error)".components(separatedBy: ":").first ?? "\(error)"
            failures[String(kind.prefix(60)), default: 0] += 1
        }
    }
    let planned = now() - started
    // The search alone, and the reference, on the same input.
    guard let start = router.footRouter.snapper.snap(origin), let end = router.footRouter.snapper.snap(destination) else { continue }
    let access = router.walks(at: SearchEndpoint(start, in: router.graph), towards: false, maxWalk: 1000)
    let egress = router.walks(at: SearchEndpoint(end, in: router.graph), towards: true, maxWalk: 1000)
    let around = try router.days(around: t)
    let query = RaptorQuery(access: access.map { ($0.stop, $0.seconds) }, egress: egress.map { ($0.stop, $0.seconds) },
                            departure: t, maxRides: 7, dayStarts: around.dayStarts, active: around.active)
    let s1 = now()
    let journeys = router.forward.search(query)
    let searched = now() - s1
    if warm { continue }
    planTimes.append(planned * 1000)
    raptorTimes.append(searched * 1000)
    if q - 20 < referenceQueries {
        let s2 = now()
        let csa = reference.earliestArrival(query)
        referenceTimes.append((now() - s2) * 1000)
        var unlimited = query
        unlimited.maxRides = 20
        if router.forward.search(unlimited).last?.arrival != csa { mismatches += 1 }
    }
    _ = journeys
}

func row(_ name: String, _ v: [Double]) -> String {
    String(format: "  %-34@ p50 %8.2f ms  p90 %8.2f ms  p99 %8.2f ms  mean %8.2f ms  (%d queries)", name as NSString,
           percentile(v, 50), percentile(v, 90), percentile(v, 99), v.reduce(0, +) / Double(max(1, v.count)), v.count)
}
print("timetable: \(tt.stopCount) stops, \(tt.patternCount) patterns, \(tt.tripCount) trips, \(tt.arrivals.count) stop times, \(tt.transferTo.count) transfers")
print(String(format: "opening the graph and timetable for searching: %.2f s; query days: %d busy days of %@ – %@", openSeconds, days.count,
             ServiceDay.iso(days.first ?? 0), ServiceDay.iso(days.last ?? 0)))
print(row("plan (full depart-at query)", planTimes))
print(row("RAPTOR earliest arrival alone", raptorTimes))
print(row("reference connection scan", referenceTimes))
print("  outcomes: \(found) by transit, \(walkOnly) walking only (quicker), \(noRoute) no route; rides p50 \(rides.isEmpty ? "–" : String(Int(percentile(rides.map(Double.init), 50))))")
for (kind, count) in failures.sorted(by: { $0.value > $1.value }) { print("    \(count)× \(kind)") }
print("  RAPTOR vs reference arrivals: \(mismatches) mismatches in \(referenceTimes.count) queries")

// One-to-many and departure windows (issue 15): ETA to `--places` places from one search, and a `--window`-minute
// departure window by the range search, each timed (median of `--runs`) against one pair query from the same origin
// and departure, and each answer checked against the pair queries themselves.
let manyOrigins = Int(option("--many") ?? "") ?? 0
let placeCount = Int(option("--places") ?? "") ?? 100
let windowMinutes = Int(option("--window") ?? "") ?? 30
let runs = Int(option("--runs") ?? "") ?? 5
var manyRatios: [Double] = [], windowRatios: [Double] = [], manyMs: [Double] = [], windowMs: [Double] = [], singleMs: [Double] = []
var momentsChecked = 0, momentsMissed = 0
var momentRng = SplitMix64(state: 7)  // its own, so the origins and places stay those of the seed
var manyChecked = 0, manyMismatches = 0, refinedMismatches = 0, windowChecked = 0, windowMismatches = 0, windowDepartures: [Double] = []
var mismatchExamples: [String] = []
var pairMedians: [Double] = [], manyToTypical: [Double] = []
var partFloors: [Double] = [], partFloorsWithSnaps: [Double] = []
func median(_ v: [Double]) -> Double { percentile(v, 50) }
func timedMedian(_ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs { let s = now(); try body(); times.append((now() - s) * 1000) }
    return median(times)
}
var manyDone = 0
while manyDone < manyOrigins {
    func jitter(_ s: Int) -> Coordinate {
        Coordinate(latitude: Double(tt.stopLatitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng),
                   longitude: Double(tt.stopLongitudes[s]) * 1e-7 + Double.random(in: -0.003...0.003, using: &rng))
    }
    let origin = jitter(onNetwork[Int.random(in: 0..<onNetwork.count, using: &rng)])
    // Places around the origin's city: random stops of the map, jittered (as restaurants near and far would be).
    let places = (0..<placeCount).map { _ in jitter(onNetwork[Int.random(in: 0..<onNetwork.count, using: &rng)]) }
    let day = days[Int.random(in: 0..<days.count, using: &rng)]
    let t = Date(timeIntervalSince1970: TimeInterval(ServiceDay.start(day, in: router.zones[0]) + Int.random(in: (6 * 3600)...(20 * 3600), using: &rng)))
    guard (try? router.plan(from: origin, to: places[0], departure: t)) != nil else { continue }
    manyDone += 1
    let one = try timedMedian { _ = try router.plan(from: origin, to: places[0], departure: t) }
    var answers: [Result<TransitArrival, TransitError>] = []
    let many = try timedMedian { answers = try router.earliestArrivals(from: origin, departure: t, to: places) }
    let refined = try router.earliestArrivals(from: origin, departure: t, to: places, refine: true)
    singleMs.append(one); manyMs.append(many); manyRatios.append(many / one)
    var partFloor: (parts: Double, withSnaps: Double)? = nil
    if arguments.contains("--parts"), let start = router.footRouter.snapper.snap(origin) {
        // The parts any exact one-to-many answer needs, each the median of `--runs`: the origin's access walks, one
        // RAPTOR search to every stop, the walking-only routes to the places where walking is quicker (each searched
        // no further than its own time), snapping the places and their egress walks. Access, RAPTOR and the walks
        // are a floor under the one-to-many time whatever its method; its ratio to the median pair query is printed
        // at the end.
        let from = SearchEndpoint(start, in: router.graph)
        let departure = Int(t.timeIntervalSince1970)
        let around = try router.days(around: departure)
        var access: [(stop: Int, seconds: Int, distance: Double)] = []
        let accessMs = timedMedian { access = router.walks(at: from, towards: false, maxWalk: 1000) }
        let raptorMs = timedMedian {
            _ = router.forward.run(RaptorQuery(access: access.map { ($0.stop, $0.seconds) }, egress: [], departure: departure, maxRides: 7,
                                               dayStarts: around.dayStarts, active: around.active))
        }
        var ends: [SearchEndpoint] = []
        let snapMs = timedMedian { ends = places.compactMap { router.footRouter.snapper.snap($0) }.map { SearchEndpoint($0, in: router.graph) } }
        let egressMs = timedMedian { for e in ends { _ = router.walks(at: e, towards: true, maxWalk: 1000) } }
        // Each walking answer's route, searched no further than its own time (a second over): the least search that
        // finds it (over the foot hierarchy, one upward search from the origin and one from each place).
        var walkers: [SearchEndpoint] = [], walkBounds: [Double] = []
        for (i, place) in places.enumerated() {
            guard let answer = try? answers[i].get(), answer.rides == 0, let end = router.footRouter.snapper.snap(place) else { continue }
            walkers.append(SearchEndpoint(end, in: router.graph)); walkBounds.append(answer.travelTime(from: t) + 1)
        }
        let walkMs = try timedMedian {
            if let hierarchy = router.footRouter.hierarchy { _ = try hierarchy.routes(from: from, to: walkers, within: walkBounds) }
            else { for w in walkers { _ = router.footRouter.search.route(from: from, to: w) } }
        }
        let floor = accessMs + raptorMs + walkMs
        print(String(format: "  parts: access %.3f ms + RAPTOR to all stops %.3f ms + walking-only routes to the %d places walking wins %.3f ms = %.3f ms (%.2f× one query); snapping %d places %.3f ms, their egress walks %.3f ms",
                     accessMs, raptorMs, walkers.count, walkMs, floor, floor / one, ends.count, snapMs, egressMs))
        partFloor = (floor, floor + snapMs)
    }
    var pairTimes: [Double] = []
    for (i, place) in places.enumerated() {
        let pair: TransitItinerary?
        let started = now()
        do { pair = try router.plan(from: origin, to: place, departure: t).primary } catch { pair = nil }
        pairTimes.append((now() - started) * 1000)
        manyChecked += 1
        let answer = try? answers[i].get()
        if answer?.arrival != pair?.arrival || answer?.rides != pair?.rides {
            manyMismatches += 1
            if mismatchExamples.count < 5 { mismatchExamples.append("one-to-many \(origin) → \(place) at \(t): \(String(describing: answer?.arrival)) \(String(describing: answer?.rides)) vs pair \(String(describing: pair?.arrival)) \(String(describing: pair?.rides))") }
        }
        if (try? refined[i].get())?.itinerary != pair { refinedMismatches += 1 }
    }
    // The typical pair query over the same places (the first place's alone is one sample of it).
    pairMedians.append(median(pairTimes)); manyToTypical.append(many / median(pairTimes))
    if let partFloor { partFloors.append(partFloor.parts / median(pairTimes)); partFloorsWithSnaps.append(partFloor.withSnaps / median(pairTimes)) }
    // The departure window to the first place, against one pair query per departure.
    let destination = places[0]
    var found: TransitDepartureWindow? = nil
    let ranged = try timedMedian { found = try router.departureWindow(from: origin, to: destination, departure: t, window: TimeInterval(windowMinutes * 60)) }
    windowMs.append(ranged); windowRatios.append(ranged / one)
    if let found {
        windowDepartures.append(Double(found.departures.count))
        for d in found.departures {
            windowChecked += 1
            let pair = try? router.plan(from: origin, to: destination, departure: d.departure).primary.arrival
            if pair != d.arrival {
                windowMismatches += 1
                if mismatchExamples.count < 5 { mismatchExamples.append("window \(origin) → \(destination) leaving \(d.departure): \(d.arrival) vs pair \(String(describing: pair))") }
            }
        }
        // Completeness: leaving at any moment of the window up to its last departure, the pair query (which waits for
        // the next departure, or walks) takes no less than the window's best and arrives no earlier than the window's
        // departure before that moment: a missed departure shows here. (After the last one, the next vehicle may leave
        // after the window and be quicker than any in it.)
        for k in 0..<5 {
            let leaving = t.addingTimeInterval(TimeInterval(windowMinutes * 60) * (Double(k) + Double.random(in: 0..<1, using: &momentRng)) / 5)
            guard let last = found.departures.last, leaving <= last.departure,
                  let pair = try? router.plan(from: origin, to: destination, departure: leaving).primary.arrival else { continue }
            momentsChecked += 1
            let before = found.departures.last { $0.departure <= leaving }
            if pair.timeIntervalSince(leaving) < found.best || (before.map { pair < $0.arrival } ?? false) {
                momentsMissed += 1
                if mismatchExamples.count < 5 { mismatchExamples.append("window \(origin) → \(destination) from \(t): leaving \(leaving) arrives \(pair), the window's best is \(found.best) s; departures \(found.departures.map { "\($0.departure)→\($0.arrival)" })") }
            }
        }
    }
}
if manyOrigins > 0 {
    print(String(format: "one-to-many: ETA to %d places %.2f ms vs one pair query %.2f ms: ratio p50 %.2f (p90 %.2f) over %d origins (median of %d runs each)",
                 placeCount, median(manyMs), median(singleMs), median(manyRatios), percentile(manyRatios, 90), manyRatios.count, runs))
    print(String(format: "  against the median pair query to the same places (%.2f ms): ratio p50 %.2f (p90 %.2f)", median(pairMedians), median(manyToTypical), percentile(manyToTypical, 90)))
    if !partFloors.isEmpty {
        print(String(format: "  floor of the parts (access + RAPTOR to all stops + walking-only routes where walking wins) against the median pair query: p50 %.2f× (p90 %.2f); with snapping the places: p50 %.2f×",
                     median(partFloors), percentile(partFloors, 90), median(partFloorsWithSnaps)))
    }
    print("  checked against the pair query: \(manyChecked) places, \(manyMismatches) mismatches of arrival or rides, \(refinedMismatches) of the refined itinerary")
    print(String(format: "departure window %d min: %.2f ms, ratio to one query p50 %.2f (p90 %.2f); departures per window p50 %.0f; %d departures checked, %d mismatches",
                 windowMinutes, median(windowMs), median(windowRatios), percentile(windowRatios, 90), median(windowDepartures), windowChecked, windowMismatches))
    print("  completeness: \(momentsChecked) random moments of the windows up to their last departure, \(momentsMissed) quicker than the window's best or earlier than its departure before")
    for example in mismatchExamples { print("    \(example)") }
}
if let path = option("--json") {
    let figures: [String: Any] = [
        "plan_p50_ms": percentile(planTimes, 50), "plan_p99_ms": percentile(planTimes, 99),
        "raptor_p50_ms": percentile(raptorTimes, 50), "raptor_p99_ms": percentile(raptorTimes, 99),
        "reference_p50_ms": percentile(referenceTimes, 50), "reference_p99_ms": percentile(referenceTimes, 99),
        "queries": planTimes.count, "transit": found, "walk_only": walkOnly, "no_route": noRoute, "mismatches": mismatches,
        "many_ratio_p50": median(manyRatios), "many_to_typical_p50": median(manyToTypical), "window_ratio_p50": median(windowRatios), "many_mismatches": manyMismatches,
        "refined_mismatches": refinedMismatches, "window_mismatches": windowMismatches, "window_moments_missed": momentsMissed, "many_checked": manyChecked, "window_checked": windowChecked,
        "stops": tt.stopCount, "trips": tt.tripCount, "stop_times": tt.arrivals.count,
    ]
    try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
}
