// Answer benchmark: what a whole answer costs next to its search. On the same random car pairs, in one process,
// each in its own loop: the two snaps, the hierarchy search (path unpacked, as a route needs it), the full route
// (snapping, search, geometry, steps, names: `Router.routes`) and the ETA alone (`Router.eta`), with p50/p90 and
// the ratios of the issue's goals. `--dump FILE` writes every route's description (geometry, steps, names) as
// text, to diff before and after a change. Tools/bench-answer runs it. Figures only, never assertions on time.

import Foundation
import Graph
import Routing
#if canImport(Glibc)
import Glibc
#endif

let usage = """
usage: answer-benchmark GRAPH.wfg [--pairs N] [--seed N] [--mode car|foot] [--runs N] [--dump FILE]

  --pairs N     random routable stop pairs (default 1000)
  --runs N      passes over the pairs; each figure is the median over the passes of its per-pass p50/p90 (default 5)
  --dump FILE   also write every full route's description (geometry, steps, names) to FILE, for diffing
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("answer-benchmark: \(message)\n".utf8))
    exit(2)
}

var graphPath = ""
var pairCount = 1000
var seed: UInt64 = 1
var mode = "car"
var runs = 5
var dumpPath: String? = nil
do {
    var args = Array(CommandLine.arguments.dropFirst())
    func value() -> String {
        if args.isEmpty { fail("an option needs a value\n\n\(usage)") }
        return args.removeFirst()
    }
    func count(_ text: String) -> Int {
        guard let n = Int(text), n > 0 else { fail("not a positive count: \(text)") }
        return n
    }
    while !args.isEmpty {
        let arg = args.removeFirst()
        switch arg {
        case "-h", "--help": print(usage); exit(0)
        case "--pairs": pairCount = count(value())
        case "--seed": seed = UInt64(count(value()))
        case "--mode": mode = value()
        case "--runs": runs = count(value())
        case "--dump": dumpPath = value()
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

func micro(_ s: Double) -> String { String(format: "%8.1f µs", s * 1e6) }

/// Prints a line at once (also when stdout is a pipe).
func say(_ line: String) { print(line); fflush(nil) }

let graph: RoadGraph
let router: Router
do {
    graph = try RoadGraph(path: graphPath)
    router = try Router(graph: graph, profile: mode)
} catch { fail("\(error)") }
// The snapper's index, built once with the file's pages cold (as a snapper's 32nd snap may find them) and once warm.
var tableStarted = now()
var snapIndex = SnapIndex(graph: graph, keeping: router.snapper.isUsable)
let coldTableTime = now() - tableStarted
tableStarted = now()
snapIndex = SnapIndex(graph: graph, keeping: router.snapper.isUsable)
let tableTime = now() - tableStarted
guard let hierarchy = router.hierarchy else { fail("\(graphPath) has no contraction hierarchy for \(mode); import it without --no-ch") }

// Random routable pairs, drawn in the box of the middle 90 % of the graph's nodes (as ch-benchmark draws them).
let lats = graph.nodeLatitudes.map { Double($0) * 1e-7 }.sorted(), lons = graph.nodeLongitudes.map { Double($0) * 1e-7 }.sorted()
let latRange = lats[lats.count / 20]...lats[lats.count * 19 / 20], lonRange = lons[lons.count / 20]...lons[lons.count * 19 / 20]
var rng = SplitMix64(state: seed)
var pairs: [(Coordinate, Coordinate)] = []
var drawn = 0
while pairs.count < pairCount {
    drawn += 1
    if drawn > 100 * pairCount { fail("found only \(pairs.count) routable pairs in \(drawn) draws") }
    let a = Coordinate(latitude: Double.random(in: latRange, using: &rng), longitude: Double.random(in: lonRange, using: &rng))
    let b = Coordinate(latitude: Double.random(in: latRange, using: &rng), longitude: Double.random(in: lonRange, using: &rng))
    if (try? router.routes(through: [a, b])) != nil { pairs.append((a, b)) }
}
let endpoints = pairs.map { pair -> (SearchEndpoint, SearchEndpoint) in
    let s = try! router.snap([pair.0, pair.1])
    return (SearchEndpoint(s[0], in: graph), SearchEndpoint(s[1], in: graph))
}
say("answer-benchmark \(graphPath): \(mode), \(pairs.count) routable pairs (of \(drawn) drawn), \(runs) passes")
say(String(format: "  snap index (built by a snapper after its first 32 snaps): %.2f ms for %d items (%.2f ms the first time, the file's pages cold)",
              tableTime * 1000, snapIndex.edges.count, coldTableTime * 1000))
say(String(format: "  first pair %.6f,%.6f %.6f,%.6f", pairs[0].0.latitude, pairs[0].0.longitude, pairs[0].1.latitude, pairs[0].1.longitude))

/// Per-pass figures of one measured loop.
struct Figures { var p50: [Double] = []; var p90: [Double] = [] }
var snapFigures = Figures(), searchFigures = Figures(), sumFigures = Figures(), fullFigures = Figures(), etaFigures = Figures()
var sink = 0.0
for _ in 0..<runs {
    var snaps: [Double] = [], searches: [Double] = [], fulls: [Double] = [], etas: [Double] = []
    for (a, b) in pairs {
        let t = now()
        let s = try! router.snapStops([a, b])
        snaps.append(now() - t)
        sink += s[0].nearest.fraction
    }
    for (a, b) in endpoints {
        let t = now()
        let r = hierarchy.route(from: a, to: b)
        searches.append(now() - t)
        sink += r?.duration ?? 0
    }
    for (a, b) in pairs {
        let t = now()
        let r = try! router.routes(through: [a, b])
        fulls.append(now() - t)
        sink += r.routes[0].expectedTravelTime
    }
    for (a, b) in pairs {
        let t = now()
        let r = try! router.eta(through: [a, b])
        etas.append(now() - t)
        sink += r.expectedTravelTime
    }
    let sums = zip(snaps, searches).map { $0 + $1 }
    snapFigures.p50.append(percentile(snaps, 50)); snapFigures.p90.append(percentile(snaps, 90))
    searchFigures.p50.append(percentile(searches, 50)); searchFigures.p90.append(percentile(searches, 90))
    sumFigures.p50.append(percentile(sums, 50)); sumFigures.p90.append(percentile(sums, 90))
    fullFigures.p50.append(percentile(fulls, 50)); fullFigures.p90.append(percentile(fulls, 90))
    etaFigures.p50.append(percentile(etas, 50)); etaFigures.p90.append(percentile(etas, 90))
}

func line(_ label: String, _ f: Figures) {
    say("  \(label.padding(toLength: 30, withPad: " ", startingAt: 0)) p50 \(micro(median(f.p50)))   p90 \(micro(median(f.p90)))")
}
line("snap (two stops)", snapFigures)
line("search (hierarchy, unpacked)", searchFigures)
line("snap + search", sumFigures)
line("full route (geometry, steps)", fullFigures)
line("ETA only", etaFigures)
let fullRatio = median(fullFigures.p50) / median(sumFigures.p50)
let snapRatio = median(snapFigures.p50) / median(searchFigures.p50)
let etaRatio = median(etaFigures.p50) / median(sumFigures.p50)
say(String(format: "  full route p50 / (snap + search) p50   %.2f×   (goal ≤ 2×)", fullRatio))
say(String(format: "  two snaps p50 / search p50             %.2f×   (goal ≤ 0.3×)", snapRatio))
say(String(format: "  ETA only p50 / (snap + search) p50     %.2f×", etaRatio))
if sink.isNaN { say("") }

// The description of every route, for diffing before and after a change (numbers printed exactly).
if let dumpPath {
    var text = ""
    func c(_ p: Coordinate) -> String { "\(p.latitude),\(p.longitude)" }
    for (i, (a, b)) in pairs.enumerated() {
        let found = try! router.routes(through: [a, b])
        for route in found.routes {
            text += "pair \(i) distance \(route.distance) time \(route.expectedTravelTime) name \(route.name)\n"
            text += "  box \(route.boundingBox.minLatitude) \(route.boundingBox.minLongitude) \(route.boundingBox.maxLatitude) \(route.boundingBox.maxLongitude)\n"
            text += "  polyline " + route.polyline.map(c).joined(separator: " ") + "\n"
            for leg in route.legs {
                text += "  leg \(leg.distance) \(leg.expectedTravelTime) \(leg.traversals.count) traversals, geometry " + leg.geometry.map(c).joined(separator: " ") + "\n"
                for s in leg.steps {
                    text += "    \(s.maneuver.rawValue) \(s.modifier?.rawValue ?? "-") \(s.exit.map(String.init) ?? "-") [\(s.name)] [\(s.ref)] \(s.distance) \(s.expectedTravelTime) \(c(s.location)) \(s.bearingBefore) \(s.bearingAfter) [\(s.instructions)] " + s.geometry.map(c).joined(separator: " ") + "\n"
                }
            }
        }
        for w in found.waypoints { text += "  waypoint \(c(w.query)) \(c(w.location)) \(w.snappingDistance) [\(w.name)]\n" }
        let eta = try! router.eta(through: [a, b])
        text += "  eta \(eta.distance) \(eta.expectedTravelTime)\n"
    }
    do { try text.write(toFile: dumpPath, atomically: true, encoding: .utf8) } catch { fail("cannot write \(dumpPath): \(error)") }
    say("  wrote \(pairs.count) routes to \(dumpPath)")
}
