// Contraction-hierarchy benchmark: builds (or reads) the hierarchy of each profile of a graph file, checks its
// answers against Dijkstra on random pairs, and measures query times and settled states against the A* of
// `RouteSearch` in the same process; then many-to-many matrices and trips. Figures only, never assertions on time.
// Tools/bench-ch runs it.

import Foundation
import Graph
import Routing
#if canImport(Glibc)
import Glibc
#endif

let usage = """
usage: ch-benchmark GRAPH.wfg [--pairs N] [--seed N] [--modes car,foot] [--matrix N,N…] [--trip N,N…] [--runs N]

  --pairs N     random stop pairs per profile for the query figures and the Dijkstra check (default 1000)
  --matrix LIST matrix sizes to time, N×N random places (default 100,1000)
  --trip LIST   trip sizes to time, N random stops (default 100,1000)
  --runs N      runs of each matrix and trip size; the median is reported (default 3)

When the graph file has no hierarchy (imported with --no-ch), one is built in the process and timed; the
environment variables CH_WITNESS_LIMIT and CH_ESTIMATE_LIMIT then override the builder's witness-search limits
(for tuning them).
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ch-benchmark: \(message)\n".utf8))
    exit(2)
}

var graphPath = ""
var pairs = 1000
var seed: UInt64 = 1
var modes: [String]? = nil
var matrixSizes = [100, 1000]
var tripSizes = [100, 1000]
var runs = 3
do {
    var args = Array(CommandLine.arguments.dropFirst())
    func value() -> String {
        if args.isEmpty { fail("an option needs a value\n\n\(usage)") }
        return args.removeFirst()
    }
    func count(_ text: some StringProtocol) -> Int {
        guard let n = Int(text), n >= 0 else { fail("not a count: \(text)") }
        return n
    }
    func list() -> [Int] { value().split(separator: ",").map { count($0) } }
    while !args.isEmpty {
        let arg = args.removeFirst()
        switch arg {
        case "-h", "--help": print(usage); exit(0)
        case "--pairs": pairs = count(value())
        case "--seed": seed = UInt64(count(value()))
        case "--modes": modes = value().split(separator: ",").map(String.init)
        case "--matrix": matrixSizes = list()
        case "--trip": tripSizes = list()
        case "--runs": runs = max(1, count(value()))
        default:
            if arg.hasPrefix("-") || !graphPath.isEmpty { fail("unexpected \(arg)\n\n\(usage)") }
            graphPath = arg
        }
    }
    if graphPath.isEmpty { fail("give a graph file\n\n\(usage)") }
}

@inline(__always) func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}


func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))]
}

func median(_ values: [Double]) -> Double { percentile(values, 50) }

func time(_ s: Double) -> String {
    let us = s * 1e6
    if us < 1000 { return String(format: "%.1f µs", us) }
    if us < 1e6 { return String(format: "%.2f ms", us / 1000) }
    return String(format: "%.2f s", s)
}

/// Prints a line at once (also when stdout is a pipe).
func say(_ line: String) { print(line); fflush(nil) }

let graph: RoadGraph
do { graph = try RoadGraph(path: graphPath) } catch { fail("\(error)") }

/// Random places snapped to a profile, drawn in the box of the middle 90 % of the graph's nodes.
func places(_ count: Int, router: Router, rng: inout SplitMix64) -> [SnappedLocation] {
    let lats = graph.nodeLatitudes.map { Double($0) * 1e-7 }.sorted(), lons = graph.nodeLongitudes.map { Double($0) * 1e-7 }.sorted()
    let lat = lats[lats.count / 20]...lats[lats.count * 19 / 20], lon = lons[lons.count / 20]...lons[lons.count * 19 / 20]
    var result: [SnappedLocation] = []
    while result.count < count {
        let c = Coordinate(latitude: Double.random(in: lat, using: &rng), longitude: Double.random(in: lon, using: &rng))
        if let s = router.snapper.snap(c, maxDistance: 1000) { result.append(s) }
    }
    return result
}

say("ch-benchmark \(graphPath): \(graph.nodeCount) nodes, \(graph.edgeCount) edges")
for profile in graph.profiles where modes?.contains(profile.profile.name) ?? true {
    let name = profile.profile.name
    let plain: Router
    do { plain = try Router(graph: graph, profile: name, useHierarchy: false) } catch { fail("\(error)") }
    let space = plain.search.space
    let states = HierarchyStates(space: space)
    var hierarchy: HierarchySearch
    do {
        if let stored = try ContractionHierarchy(graph: graph, profile: name) {
            guard let search = HierarchySearch(states: states, hierarchy: stored) else { fail("the file's hierarchy does not match \(name)") }
            hierarchy = search
            say("\n\(name): \(space.stateCount) states, \(states.count) vertices, hierarchy from the file: \(stored.arcCount) arcs")
        } else {
            let started = now()
            var builder = HierarchyBuilder(space: space)
            let env = ProcessInfo.processInfo.environment
            if let n = env["CH_WITNESS_LIMIT"].flatMap(Int.init) { builder.witnessSettleLimit = n }
            if let n = env["CH_ESTIMATE_LIMIT"].flatMap(Int.init) { builder.estimateSettleLimit = n }
            let data: HierarchyData
            do { data = try builder.build() } catch { fail(error.description) }
            let built = now() - started
            hierarchy = HierarchySearch(states: states, hierarchy: ContractionHierarchy(data))!
            say("\n\(name): \(space.stateCount) states, \(states.count) vertices, hierarchy built in \(time(built)): \(data.up.count + data.down.count) arcs, \(data.shortcutCount) shortcuts")
        }
    } catch { fail("\(error)") }

    var rng = SplitMix64(state: seed)
    let stops = places(2 * pairs, router: plain, rng: &rng)
    var chTimes: [Double] = [], aTimes: [Double] = [], chSettled: [Double] = [], aSettled: [Double] = [], dSettled: [Double] = []
    var mismatches = 0, checked = 0
    // Each search runs over all pairs in its own loop (as a server answers query after query), then the check.
    let endpoints = (0..<pairs).map { (SearchEndpoint(stops[2 * $0], in: graph), SearchEndpoint(stops[2 * $0 + 1], in: graph)) }
    var viaHierarchy: [SearchResult?] = []
    for (a, b) in endpoints {
        let t = now()
        let result = hierarchy.route(from: a, to: b)
        chTimes.append(now() - t)
        viaHierarchy.append(result)
    }
    var timeOnly: [Double] = []
    for (a, b) in endpoints {
        let t = now()
        _ = hierarchy.time(from: a, to: b)
        timeOnly.append(now() - t)
    }
    for (a, b) in endpoints {
        let t = now()
        let result = plain.search.route(from: a, to: b)
        aTimes.append(now() - t)
        aSettled.append(Double(result?.settled ?? 0))
    }
    for (i, (a, b)) in endpoints.enumerated() {
        let dijkstra = plain.search.route(from: a, to: b, useHeuristic: false)
        checked += 1
        switch (viaHierarchy[i], dijkstra) {
        case (nil, nil): break
        case let (x?, y?):
            if abs(x.duration - y.duration) > 0.1 { mismatches += 1; if mismatches <= 5 { say("  MISMATCH pair \(i): hierarchy \(x.duration) s, Dijkstra \(y.duration) s") } }
            chSettled.append(Double(x.settled)); dSettled.append(Double(y.settled))
        default:
            mismatches += 1
            if mismatches <= 5 { say("  MISMATCH pair \(i): hierarchy \(viaHierarchy[i]?.duration ?? -1), Dijkstra \(dijkstra?.duration ?? -1)") }
        }
    }
    say("  check: \(checked - mismatches) of \(checked) pairs equal to Dijkstra (to 0.1 s)")
    say(String(format: "  query         p50 %@  p99 %@   (A* p50 %@  p99 %@: %.0f× slower at the median)",
                 time(percentile(chTimes, 50)), time(percentile(chTimes, 99)), time(percentile(aTimes, 50)), time(percentile(aTimes, 99)),
                 percentile(aTimes, 50) / percentile(chTimes, 50)))
    say(String(format: "  time only     p50 %@  p99 %@   (the search without unpacking the path into edges)",
                 time(percentile(timeOnly, 50)), time(percentile(timeOnly, 99))))
    say(String(format: "  settled       p50 %.0f  p99 %.0f   (A* p50 %.0f, Dijkstra p50 %.0f)",
                 percentile(chSettled, 50), percentile(chSettled, 99), percentile(aSettled, 50), percentile(dSettled, 50)))
}

// Matrices and trips, per profile, on random places; entries checked against point-to-point routes on a sample.
for profile in graph.profiles where modes?.contains(profile.profile.name) ?? true {
    let name = profile.profile.name
    let router: Router
    do { router = try Router(graph: graph, profile: name) } catch { fail("\(error)") }
    guard router.hierarchy != nil else { say("\n\(name): no hierarchy in the file; import without --no-ch for matrix figures"); continue }
    say("\n\(name) matrices and trips")
    var rng = SplitMix64(state: seed &+ 99)
    for size in matrixSizes {
        let places = places(size, router: router, rng: &rng).map { SearchEndpoint($0, in: graph) }
        var times: [Double] = []
        var matrix = DistanceMatrix(sourceCount: 0, destinationCount: 0)
        for _ in 0..<runs {
            let t = now()
            matrix = router.matrix(from: places, to: places)
            times.append(now() - t)
        }
        var mismatches = 0
        let sample = min(200, size * size)
        for _ in 0..<sample {
            let i = Int.random(in: 0..<size, using: &rng), j = Int.random(in: 0..<size, using: &rng)
            let single = router.search.route(from: places[i], to: places[j], useHeuristic: false)
            let entry = matrix.duration(i, j)
            if (single == nil) != (entry == nil) || abs((single?.duration ?? 0) - (entry ?? 0)) > 0.1 { mismatches += 1 }
        }
        let reachable = matrix.durations.filter { $0 != nil }.count
        say(String(format: "  matrix %5d × %-5d  median %@ (%d runs), %.1f%% reachable, %d of %d sampled entries equal to Dijkstra",
                     size, size, time(median(times)), runs, 100 * Double(reachable) / Double(size * size), sample - mismatches, sample))
    }
    for size in tripSizes {
        // Random places that reach, and are reached from, the first one (a trip needs every leg routable).
        let candidates = places(size + size / 5 + 5, router: router, rng: &rng)
        let ends = candidates.map { SearchEndpoint($0, in: graph) }
        let connected = router.matrix(from: ends, to: ends)
        func mutual(_ a: Int) -> Int { candidates.indices.filter { connected.duration(a, $0) != nil && connected.duration($0, a) != nil }.count }
        let hub = candidates.indices.prefix(20).max { mutual($0) < mutual($1) }!
        let stops = ([hub] + candidates.indices.filter { $0 != hub && connected.duration(hub, $0) != nil && connected.duration($0, hub) != nil })
            .prefix(size).map { candidates[$0].location }
        var times: [Double] = []
        var result: TripResult? = nil
        for _ in 0..<runs {
            let t = now()
            do { result = try router.trip(through: stops, shape: .roundtrip) } catch { say("  trip \(size): \(error)"); break }
            times.append(now() - t)
        }
        guard let result else { continue }
        say(String(format: "  trip %5d stops (round trip)  median %@ (%d runs): %.0f s in the order found, %@ in the given order",
                     size, time(median(times)), runs, result.route.expectedTravelTime,
                     result.givenOrderTime.map { String(format: "%.0f s", $0) } ?? "no route"))
    }
}
