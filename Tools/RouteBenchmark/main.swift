// Route query benchmark: the A* of `RouteSearch` against the plain Dijkstra (the same search without its bound)
// on random stop pairs of one graph file, per profile, in one process. It prints figures (percentiles, means,
// ratios against the Dijkstra run in the same process) and never asserts timings. Tools/bench-route runs it.
//
// With --prototypes it also measures, in this file only, searches the library does not have (yet): A* with
// landmark bounds (ALT), bidirectional Dijkstra and bidirectional A* (great-circle and landmark bounds), to
// show how many states each would settle on the same pairs.

import Foundation
import Graph
import Routing
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Options

let usage = """
usage: route-benchmark GRAPH.wfg [--pairs N] [--seed N] [--modes car,foot] [--reference-pairs N] [--warmup N]
                       [--box-percentile P] [--prototypes] [--landmarks K] [--active-landmarks A] [--json FILE]

  --pairs N            random stop pairs per mode (default 1000)
  --seed N             seed of the SplitMix64 generator that draws the stops (default 1)
  --modes LIST         profiles to measure (default: every profile of the graph)
  --reference-pairs N  how many of the pairs also run the slow dictionary-based ReferenceDijkstra (default 50)
  --warmup N           pairs run before measuring, not counted (default 50)
  --box-percentile P   stops are drawn in the P-th to (100-P)-th percentile box of node coordinates (default 5)
  --prototypes         also measure ALT, bidirectional Dijkstra and bidirectional A* prototypes (settled states)
  --landmarks K        landmarks for the ALT prototypes (default 16)
  --active-landmarks A landmarks used per query, the A best for the pair (default 4; 0 = all)
  --json FILE          also write the figures as JSON (for Tools/bench-route)
"""

struct Options {
    var graphPath = ""
    var pairs = 1000
    var seed: UInt64 = 1
    var modes: [String]? = nil
    var referencePairs = 50
    var warmup = 50
    var boxPercentile = 5.0
    var maxSnappingDistance = 1000.0
    var prototypes = false
    var landmarks = 16
    var activeLandmarks = 4
    var jsonPath: String? = nil
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("route-benchmark: \(message)\n".utf8))
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    var positionals: [String] = []
    func value(_ name: String) -> String {
        guard !args.isEmpty else { fail("\(name) needs a value\n\n\(usage)") }
        return args.removeFirst()
    }
    func integer(_ name: String) -> Int {
        let text = value(name)
        guard let n = Int(text), n >= 0 else { fail("\(name): not a count: \(text)") }
        return n
    }
    while !args.isEmpty {
        let arg = args.removeFirst()
        switch arg {
        case "-h", "--help": print(usage); exit(0)
        case "--pairs": options.pairs = max(1, integer(arg))
        case "--seed":
            let text = value(arg)
            guard let n = UInt64(text) else { fail("--seed: not a number: \(text)") }
            options.seed = n
        case "--modes": options.modes = value(arg).split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        case "--reference-pairs": options.referencePairs = integer(arg)
        case "--warmup": options.warmup = integer(arg)
        case "--box-percentile":
            guard let p = Double(value(arg)), p >= 0, p < 50 else { fail("--box-percentile: 0 ≤ P < 50") }
            options.boxPercentile = p
        case "--prototypes": options.prototypes = true
        case "--landmarks": options.landmarks = max(1, integer(arg))
        case "--active-landmarks": options.activeLandmarks = integer(arg)
        case "--json": options.jsonPath = value(arg)
        default:
            if arg.hasPrefix("-") { fail("unknown option \(arg)\n\n\(usage)") }
            positionals.append(arg)
        }
    }
    guard positionals.count == 1 else { fail("give one graph file\n\n\(usage)") }
    options.graphPath = positionals[0]
    return options
}

// MARK: - Clock, random numbers, statistics

/// Nanoseconds of the monotonic clock.
@inline(__always) func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Seconds since `start` (nanoseconds of `now()`).
@inline(__always) func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }


/// Percentiles (nearest rank), mean and count of a sample.
struct Summary {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    var count: Int { sorted.count }
    var isEmpty: Bool { sorted.isEmpty }
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(sorted.count - 1, Swift.max(0, rank - 1))]
    }
    var p50: Double { percentile(50) }
    var p90: Double { percentile(90) }
    var p99: Double { percentile(99) }
    var max: Double { sorted.last ?? .nan }
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }
}

/// A duration in seconds as µs or ms with three significant-ish digits.
func formatTime(_ s: Double) -> String {
    if s.isNaN { return "–" }
    let us = s * 1e6
    if us < 1000 { return String(format: us < 10 ? "%.2f µs" : us < 100 ? "%.1f µs" : "%.0f µs", us) }
    let ms = us / 1000
    if ms < 1000 { return String(format: ms < 10 ? "%.2f ms" : ms < 100 ? "%.1f ms" : "%.0f ms", ms) }
    return String(format: "%.2f s", ms / 1000)
}

func formatCount(_ x: Double) -> String {
    if x.isNaN { return "–" }
    let n = Int(x.rounded())
    let digits = String(abs(n))
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}

func formatRatio(_ x: Double) -> String {
    if x.isNaN || x.isInfinite { return "–" }
    return String(format: x < 10 ? "%.2f×" : "%.1f×", x)
}

/// Prints rows as a table: the first column left-aligned, the others right-aligned.
func printTable(_ header: [String], _ rows: [[String]], indent: String = "  ") {
    let all = [header] + rows
    let columns = all.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columns)
    for row in all { for (i, cell) in row.enumerated() { widths[i] = Swift.max(widths[i], cell.count) } }
    for row in all {
        var line = indent
        for (i, cell) in row.enumerated() {
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            line += i == 0 ? cell + pad : "  " + pad + cell
        }
        print(line)
    }
}

// MARK: - The pairs

/// The box stops are drawn in: the p-th to (100-p)-th percentile of node latitudes and longitudes.
func denseBox(of graph: RoadGraph, percentile p: Double) -> (lat: ClosedRange<Double>, lon: ClosedRange<Double>) {
    let lats = Summary(graph.nodeLatitudes.map { Double($0) * 1e-7 })
    let lons = Summary(graph.nodeLongitudes.map { Double($0) * 1e-7 })
    let low = Swift.max(p, 0.0001)
    return (lats.percentile(low)...lats.percentile(100 - p), lons.percentile(low)...lons.percentile(100 - p))
}

struct StopPair {
    var a: SnappedLocation
    var b: SnappedLocation
    var start: SearchEndpoint
    var target: SearchEndpoint
}

// MARK: - Prototype searches (this file only)

/// A lower bound on travel time between nodes, in milliseconds, consistent along the profile's edges.
protocol Potential {
    /// Lower bound of the time from node v to the target (forward) …
    func toTarget(_ v: Int) -> Double
    /// … and from the source to node v (backward search).
    func fromSource(_ v: Int) -> Double
}

struct ZeroPotential: Potential {
    @inline(__always) func toTarget(_ v: Int) -> Double { 0 }
    @inline(__always) func fromSource(_ v: Int) -> Double { 0 }
}

/// The library's bound: great-circle metres at the profile's top speed.
struct GreatCirclePotential: Potential {
    let latitudes: UnsafeBufferPointer<Int32>, longitudes: UnsafeBufferPointer<Int32>
    let speed: Double  // metres per millisecond
    let sLat, sLon, sCos, tLat, tLon, tCos: Double
    init(graph: RoadGraph, speed: Double, source: Coordinate, target: Coordinate) {
        latitudes = graph.nodeLatitudes; longitudes = graph.nodeLongitudes
        self.speed = speed
        let rad = Double.pi / 180
        sLat = source.latitude * rad; sLon = source.longitude * rad; sCos = cos(sLat)
        tLat = target.latitude * rad; tLon = target.longitude * rad; tCos = cos(tLat)
    }
    @inline(__always) func bound(_ v: Int, _ lat2: Double, _ lon2: Double, _ cos2: Double) -> Double {
        let rad = Double.pi / 180
        let lat = Double(latitudes[v]) * 1e-7 * rad, lon = Double(longitudes[v]) * 1e-7 * rad
        let a = sin((lat2 - lat) / 2), b = sin((lon2 - lon) / 2)
        let h = a * a + cos(lat) * cos2 * b * b
        return 2 * Geo.earthRadius * asin(Swift.min(1, h.squareRoot())) / speed
    }
    @inline(__always) func toTarget(_ v: Int) -> Double { bound(v, tLat, tLon, tCos) }
    @inline(__always) func fromSource(_ v: Int) -> Double { bound(v, sLat, sLon, sCos) }
}

/// Travel times from and to a few landmarks on the profile's node graph, turn rules and barriers ignored (that
/// only shortens paths, so the bounds stay admissible for the edge-based search).
final class Landmarks {
    static let unreachable = UInt32.max
    let count: Int
    let nodes: [Int]
    /// from[v * count + k]: ms from landmark k to v; to[v * count + k]: ms from v to landmark k.
    let from: UnsafeMutablePointer<UInt32>
    let to: UnsafeMutablePointer<UInt32>
    let seconds: Double

    init(space: SearchGraph, count wanted: Int, seed: UInt64) {
        let started = now()
        let graph = space.graph, profile = space.profile
        let n = graph.nodeCount
        let main = (0..<n).filter { profile.island[$0] == 0 && profile.firstIncidence[$0] < profile.firstIncidence[$0 + 1] }
        var random = SplitMix64(state: seed)
        var chosen: [Int] = []
        var fromRows: [[UInt32]] = [], toRows: [[UInt32]] = []
        // Farthest selection: each landmark is the node farthest (round trip) from those chosen so far.
        var nearest = [Double](repeating: .infinity, count: n)
        var seedNode = main.isEmpty ? 0 : main[Int.random(in: 0..<main.count, using: &random)]
        if !main.isEmpty {
            let first = Landmarks.dijkstra(space, from: seedNode, forward: true)
            var far = seedNode, farDistance = 0.0
            for v in main where first[v] != Landmarks.unreachable && Double(first[v]) > farDistance { far = v; farDistance = Double(first[v]) }
            seedNode = far
        }
        var next = seedNode
        while chosen.count < wanted && !main.isEmpty {
            let f = Landmarks.dijkstra(space, from: next, forward: true)
            let t = Landmarks.dijkstra(space, from: next, forward: false)
            chosen.append(next); fromRows.append(f); toRows.append(t)
            var best = -1.0, bestNode = -1
            for v in main {
                if f[v] != Landmarks.unreachable && t[v] != Landmarks.unreachable {
                    nearest[v] = Swift.min(nearest[v], Double(f[v]) + Double(t[v]))
                } else if nearest[v] == .infinity {
                    continue
                }
                if nearest[v] < .infinity && nearest[v] > best { best = nearest[v]; bestNode = v }
            }
            if bestNode < 0 || best <= 0 { break }
            next = bestNode
        }
        count = chosen.count
        nodes = chosen
        from = .allocate(capacity: Swift.max(1, n * count))
        to = .allocate(capacity: Swift.max(1, n * count))
        for k in 0..<count {
            for v in 0..<n { from[v * count + k] = fromRows[k][v]; to[v * count + k] = toRows[k][v] }
        }
        self.seconds = Double(now() &- started) / 1e9
    }

    /// Node-based Dijkstra over the profile's open directed edges: ms from `source` (forward) or to it (backward).
    static func dijkstra(_ space: SearchGraph, from source: Int, forward: Bool) -> [UInt32] {
        let profile = space.profile
        var distance = [UInt32](repeating: unreachable, count: space.graph.nodeCount)
        var heap = BinaryHeap<Double, Int>()
        distance[source] = 0
        heap.push(0, source)
        while let (key, u) = heap.pop() {
            if UInt32(key) != distance[u] { continue }
            for position in Int(profile.firstIncidence[u])..<Int(profile.firstIncidence[u + 1]) {
                let d = profile.incidence[position]  // leaves u
                let step = forward ? space.time(d) : space.time(d ^ 1)  // d ^ 1 arrives at u
                guard step != closedEdge else { continue }
                let v = space.head(d)
                let c = UInt64(distance[u]) + UInt64(step)
                if c < UInt64(distance[v]) {
                    distance[v] = UInt32(c)
                    heap.push(Double(c), v)
                }
            }
        }
        return distance
    }

    /// Lower bound of the time from v to w, over the landmarks in `active`.
    @inline(__always) func bound(from v: Int, to w: Int, active: [Int]) -> Double {
        var best = 0.0
        let bv = v * count, bw = w * count
        for k in active {
            let lw = from[bw + k], lv = from[bv + k]
            if lw != Landmarks.unreachable && lv != Landmarks.unreachable {
                let x = Double(lw) - Double(lv)
                if x > best { best = x }
            }
            let vl = to[bv + k], wl = to[bw + k]
            if vl != Landmarks.unreachable && wl != Landmarks.unreachable {
                let x = Double(vl) - Double(wl)
                if x > best { best = x }
            }
        }
        return best
    }
}

/// ALT: lower bounds through landmarks, to the target's nodes (each with the partial cost after it) and from
/// the source's nodes (each with the partial cost before it).
struct LandmarkPotential: Potential {
    let landmarks: Landmarks
    let active: [Int]
    let targets: [(node: Int, offset: Double)]
    let sources: [(node: Int, offset: Double)]

    init(landmarks: Landmarks, activeCount: Int, sources: [(node: Int, offset: Double)], targets: [(node: Int, offset: Double)]) {
        self.landmarks = landmarks
        self.sources = sources
        self.targets = targets
        let all = Array(0..<landmarks.count)
        if activeCount <= 0 || activeCount >= landmarks.count || sources.isEmpty || targets.isEmpty {
            active = all
        } else {
            // The landmarks that bound the pair best.
            let s = sources[0].node, t = targets[0].node
            let scored = all.map { k in (k, landmarks.bound(from: s, to: t, active: [k])) }
            active = scored.sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(activeCount).map(\.0)
        }
    }
    @inline(__always) func toTarget(_ v: Int) -> Double {
        var best = Double.infinity
        for t in targets { best = Swift.min(best, t.offset + landmarks.bound(from: v, to: t.node, active: active)) }
        return best == .infinity ? 0 : best
    }
    @inline(__always) func fromSource(_ v: Int) -> Double {
        var best = Double.infinity
        for s in sources { best = Swift.min(best, s.offset + landmarks.bound(from: s.node, to: v, active: active)) }
        return best == .infinity ? 0 : best
    }
}

/// The average potential of bidirectional A* (Ikeda et al.): forward (π_t − π_s) / 2, backward its negation, so
/// both searches see the same reduced costs and the plain bidirectional stopping rule holds.
struct AveragePotential<Base: Potential>: Potential {
    let base: Base
    @inline(__always) func toTarget(_ v: Int) -> Double { (base.toTarget(v) - base.fromSource(v)) / 2 }
    @inline(__always) func fromSource(_ v: Int) -> Double { (base.fromSource(v) - base.toTarget(v)) / 2 }
}

/// A binary min-heap of (key, state), ties broken by state id (as the library's).
struct Heap {
    var keys: [Double] = []
    var states: [Int32] = []
    var minimumKey: Double { keys.first ?? .infinity }
    mutating func removeAll() { keys.removeAll(keepingCapacity: true); states.removeAll(keepingCapacity: true) }
    @inline(__always) func less(_ i: Int, _ j: Int) -> Bool { keys[i] < keys[j] || (keys[i] == keys[j] && states[i] < states[j]) }
    mutating func push(_ key: Double, _ state: Int32) {
        keys.append(key); states.append(state)
        var i = keys.count - 1
        while i > 0 {
            let p = (i - 1) >> 1
            if !less(i, p) { break }
            keys.swapAt(i, p); states.swapAt(i, p)
            i = p
        }
    }
    mutating func pop() -> (key: Double, state: Int32)? {
        guard let key = keys.first, let state = states.first else { return nil }
        let lk = keys.removeLast(), ls = states.removeLast()
        if !keys.isEmpty {
            keys[0] = lk; states[0] = ls
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < keys.count && less(l, m) { m = l }
                if r < keys.count && less(r, m) { m = r }
                if m == i { break }
                keys.swapAt(i, m); states.swapAt(i, m)
                i = m
            }
        }
        return (key, state)
    }
}

/// Scratch arrays of one search direction (generation stamps, nothing cleared between queries).
final class Side {
    let cost: UnsafeMutablePointer<Double>
    let reached: UnsafeMutablePointer<UInt32>
    let settled: UnsafeMutablePointer<UInt32>
    var heap = Heap()
    init(count: Int) {
        cost = .allocate(capacity: count); cost.initialize(repeating: 0, count: count)
        reached = .allocate(capacity: count); reached.initialize(repeating: 0, count: count)
        settled = .allocate(capacity: count); settled.initialize(repeating: 0, count: count)
    }
}

/// The prototypes: a copy of `RouteSearch`'s A* loop with a pluggable bound (with the great-circle bound it
/// settles exactly what `RouteSearch` settled before it had landmarks, f0fbda3), and a bidirectional search over
/// directed edges.
final class Prototypes {
    let space: SearchGraph
    let forward: Side, backward: Side
    var generation: UInt32 = 0
    /// Forbidden two-edge moves (via-node restrictions); longer (via-way) patterns are not honoured by the
    /// bidirectional prototype.
    let forbiddenPairs: Set<UInt64>
    let startsPair: [Bool]
    let longerPatterns: Int

    init(space: SearchGraph) {
        self.space = space
        let states = space.stateCount
        forward = Side(count: states)
        backward = Side(count: states)
        var pairs = Set<UInt64>()
        var starts = [Bool](repeating: false, count: 2 * space.graph.edgeCount)
        var longer = 0
        for p in space.rules.patterns {
            if p.count == 2 { pairs.insert(UInt64(p[0]) << 32 | UInt64(p[1])); starts[Int(p[0])] = true } else { longer += 1 }
        }
        forbiddenPairs = pairs
        startsPair = starts
        longerPatterns = longer
    }

    func nextGeneration() -> UInt32 {
        generation &+= 1
        if generation == 0 {
            for s in 0..<space.stateCount {
                forward.reached[s] = 0; forward.settled[s] = 0; backward.reached[s] = 0; backward.settled[s] = 0
            }
            generation = 1
        }
        return generation
    }

    /// The partial costs of ending part-way along the target edge (as the library computes them).
    func targetEntries(_ target: SearchEndpoint) -> [(d: UInt32, cost: Double)] {
        guard target.node == nil else { return [] }
        let g = space, e = UInt32(target.edge)
        var entries: [(d: UInt32, cost: Double)] = []
        if g.time(e << 1) != closedEdge { entries.append((e << 1, Double(g.time(e << 1)) * target.fraction)) }
        if g.time(e << 1 | 1) != closedEdge { entries.append((e << 1 | 1, Double(g.time(e << 1 | 1)) * (1 - target.fraction))) }
        return entries
    }

    /// The nodes a search from `start` begins at, with the time spent before each (for backward bounds).
    func sourceNodes(_ start: SearchEndpoint) -> [(node: Int, offset: Double)] {
        if let n = start.node { return [(n, 0)] }
        let g = space, e = UInt32(start.edge)
        var result: [(node: Int, offset: Double)] = []
        for d in [e << 1, e << 1 | 1] where g.time(d) != closedEdge {
            result.append((g.head(d), Double(g.time(d)) * (g.isReversed(d) ? start.fraction : 1 - start.fraction)))
        }
        return result
    }

    /// The nodes a search to `target` ends at, with the time still to go after each.
    func targetNodes(_ target: SearchEndpoint) -> [(node: Int, offset: Double)] {
        if let m = target.node { return [(m, 0)] }
        return targetEntries(target).map { (space.tail($0.d), $0.cost) }
    }

    /// Unidirectional A* over the edge-based states, exactly as `RouteSearch` (restrictions through the
    /// automaton) but with bound `P`: returns milliseconds (nil when unreachable) and settled states.
    func unidirectional<P: Potential>(_ start: SearchEndpoint, _ target: SearchEndpoint, _ potential: P) -> (cost: Double?, settled: Int) {
        let g = space
        let gen = nextGeneration()
        let ws = forward
        var heap = ws.heap
        ws.heap = Heap()
        defer { heap.removeAll(); ws.heap = heap }
        let entries = targetEntries(target)
        var best = Double.infinity
        @inline(__always) func reach(_ s: Int, _ c: Double, _ head: Int) {
            if ws.reached[s] != gen || c < ws.cost[s] {
                ws.reached[s] = gen; ws.cost[s] = c
                heap.push(c + potential.toTarget(head), Int32(s))
            }
        }
        if let n = start.node {
            if target.node == n { return (0, 0) }
            g.forEachLeaving(n) { d in
                for entry in entries where entry.d == d { best = Swift.min(best, entry.cost) }
                reach(g.stateID(d, rule: g.rules.start(d)), Double(g.time(d)), g.head(d))
            }
        } else {
            let e = UInt32(start.edge)
            for d in [e << 1, e << 1 | 1] where g.time(d) != closedEdge {
                let remaining = g.isReversed(d) ? start.fraction : 1 - start.fraction
                if target.node == nil && target.edge == start.edge {
                    let ahead = g.isReversed(d) ? target.fraction <= start.fraction : target.fraction >= start.fraction
                    if ahead { best = Swift.min(best, Double(g.time(d)) * abs(target.fraction - start.fraction)) }
                }
                reach(g.stateID(d, rule: g.rules.start(d)), Double(g.time(d)) * remaining, g.head(d))
            }
        }
        var settled = 0
        while let (key, state32) = heap.pop() {
            if key >= best { break }
            let state = Int(state32)
            if ws.settled[state] == gen { continue }
            ws.settled[state] = gen
            settled += 1
            let d = g.directedEdge(ofState: state)
            let rule = g.rule(ofState: state)
            let c = ws.cost[state]
            let v = g.head(d)
            if let m = target.node {
                if v == m && c < best { best = c }
            } else {
                for entry in entries where g.tail(entry.d) == v {
                    if g.move(from: d, rule: rule, to: entry.d) != nil, c + entry.cost < best { best = c + entry.cost }
                }
            }
            g.forEachLeaving(v) { next in
                guard let nextRule = g.move(from: d, rule: rule, to: next) else { return }
                reach(g.stateID(next, rule: nextRule), c + Double(g.time(next)), g.head(next))
            }
        }
        return (best < .infinity ? best : nil, settled)
    }

    /// Whether the move from directed edge `from` onto `to` is allowed: the barrier rule, and via-node
    /// restrictions only.
    @inline(__always) func allowed(_ from: UInt32, _ to: UInt32) -> Bool {
        if space.isBlocked(space.head(from)) && to != from ^ 1 { return false }
        if startsPair[Int(from)] && forbiddenPairs.contains(UInt64(from) << 32 | UInt64(to)) { return false }
        return true
    }

    /// Bidirectional search over directed edges (state = the edge just taken). Forward cost of d: from the
    /// start to the end of d; backward cost of d: from the end of d to the target. With `astar: false` it stops
    /// when the two queue minima add up to the best meeting: bidirectional Dijkstra with a zero potential, or
    /// bidirectional A* with an `AveragePotential`; with `astar: true` and two consistent bounds it is the
    /// symmetric bidirectional A* (stops when either queue's minimum key reaches the best meeting).
    func bidirectional<P: Potential>(_ start: SearchEndpoint, _ target: SearchEndpoint, _ potential: P, astar: Bool) -> (cost: Double?, settled: Int) {
        let g = space
        let gen = nextGeneration()
        let f = forward, b = backward
        var heapF = f.heap, heapB = b.heap
        f.heap = Heap(); b.heap = Heap()
        defer { heapF.removeAll(); heapB.removeAll(); f.heap = heapF; b.heap = heapB }
        var best = Double.infinity

        @inline(__always) func reachForward(_ d: UInt32, _ c: Double) {
            let s = Int(d)
            if f.reached[s] != gen || c < f.cost[s] {
                f.reached[s] = gen; f.cost[s] = c
                heapF.push(c + potential.toTarget(g.head(d)), Int32(s))
                if b.reached[s] == gen { best = Swift.min(best, c + b.cost[s]) }
            }
        }
        @inline(__always) func reachBackward(_ d: UInt32, _ c: Double) {
            let s = Int(d)
            if b.reached[s] != gen || c < b.cost[s] {
                b.reached[s] = gen; b.cost[s] = c
                heapB.push(c + potential.fromSource(g.head(d)), Int32(s))
                if f.reached[s] == gen { best = Swift.min(best, f.cost[s] + c) }
            }
        }
        // The edges arriving at node u that the profile may take.
        @inline(__always) func forEachArriving(_ u: Int, _ body: (UInt32) -> Void) {
            let profile = g.profile
            for position in Int(profile.firstIncidence[u])..<Int(profile.firstIncidence[u + 1]) {
                let p = profile.incidence[position] ^ 1
                if g.time(p) != closedEdge { body(p) }
            }
        }

        // Target side: the edges after which the route is complete (cost 0), or one partial edge away.
        if let m = target.node {
            if start.node == m { return (0, 0) }
            forEachArriving(m) { p in reachBackward(p, 0) }
        } else {
            for entry in targetEntries(target) {
                let x = g.tail(entry.d)
                if start.node == x { best = Swift.min(best, entry.cost) }
                forEachArriving(x) { p in if allowed(p, entry.d) { reachBackward(p, entry.cost) } }
            }
        }
        // Start side.
        if let n = start.node {
            g.forEachLeaving(n) { d in reachForward(d, Double(g.time(d))) }
        } else {
            let e = UInt32(start.edge)
            for d in [e << 1, e << 1 | 1] where g.time(d) != closedEdge {
                let remaining = g.isReversed(d) ? start.fraction : 1 - start.fraction
                if target.node == nil && target.edge == start.edge {
                    let ahead = g.isReversed(d) ? target.fraction <= start.fraction : target.fraction >= start.fraction
                    if ahead { best = Swift.min(best, Double(g.time(d)) * abs(target.fraction - start.fraction)) }
                }
                reachForward(d, Double(g.time(d)) * remaining)
            }
        }

        var settled = 0
        while true {
            let topF = heapF.minimumKey, topB = heapB.minimumKey
            if topF == .infinity && topB == .infinity { break }
            // Symmetric bidirectional A*: every path not met yet costs at least each side's minimum key.
            if astar ? Swift.max(topF, topB) >= best : topF + topB >= best { break }
            if topF <= topB {
                let (_, s32) = heapF.pop()!
                let s = Int(s32)
                if f.settled[s] == gen { continue }
                f.settled[s] = gen
                settled += 1
                let d = UInt32(s), c = f.cost[s]
                g.forEachLeaving(g.head(d)) { next in
                    if allowed(d, next) { reachForward(next, c + Double(g.time(next))) }
                }
            } else {
                let (_, s32) = heapB.pop()!
                let s = Int(s32)
                if b.settled[s] == gen { continue }
                b.settled[s] = gen
                settled += 1
                let d = UInt32(s), c = b.cost[s] + Double(g.time(d))
                forEachArriving(g.tail(d)) { p in if allowed(p, d) { reachBackward(p, c) } }
            }
        }
        return (best < .infinity ? best : nil, settled)
    }
}

// MARK: - Connectivity

/// The strongly connected components of the profile's node graph (open directed edges; turn rules and barriers
/// ignored): the largest one's size, and how many have 1000 nodes or more. Explains unreachable pairs.
func components(of space: SearchGraph) -> (largest: Int, large: Int, count: Int, component: [Int32], sizes: [Int]) {
    let n = space.graph.nodeCount, profile = space.profile
    let first = profile.firstIncidence, incidence = profile.incidence
    var visited = [Bool](repeating: false, count: n)
    var order: [Int] = []
    order.reserveCapacity(n)
    var stack: [(node: Int, position: Int)] = []
    for s in 0..<n where !visited[s] && first[s] < first[s + 1] {
        visited[s] = true
        stack.append((s, Int(first[s])))
        while let top = stack.last {
            var position = top.position
            let end = Int(first[top.node + 1])
            var descended = false
            while position < end {
                let d = incidence[position]
                position += 1
                guard space.time(d) != closedEdge else { continue }
                let v = space.head(d)
                if !visited[v] {
                    visited[v] = true
                    stack[stack.count - 1].position = position
                    stack.append((v, Int(first[v])))
                    descended = true
                    break
                }
            }
            if !descended { stack.removeLast(); order.append(top.node) }
        }
    }
    var component = [Int32](repeating: -1, count: n)
    var sizes: [Int] = []
    var work: [Int] = []
    for s in order.reversed() where component[s] < 0 {
        let id = Int32(sizes.count)
        component[s] = id
        work.append(s)
        var size = 0
        while let u = work.popLast() {
            size += 1
            for position in Int(first[u])..<Int(first[u + 1]) {
                let d = incidence[position]
                guard space.time(d ^ 1) != closedEdge else { continue }  // d ^ 1 arrives at u from head(d)
                let v = space.head(d)
                if component[v] < 0 { component[v] = id; work.append(v) }
            }
        }
        sizes.append(size)
    }
    return (sizes.max() ?? 0, sizes.filter { $0 >= 1000 }.count, sizes.count, component, sizes)
}

// MARK: - Measuring one mode

struct ModeResult {
    var mode: String
    var figures: [String: Double] = [:]
}

func measure(mode name: String, graph: RoadGraph, options: Options, box: (lat: ClosedRange<Double>, lon: ClosedRange<Double>)) -> ModeResult? {
    guard let profile = graph.profile(named: name) else {
        print("\n\(name): the graph has no such profile (it has \(graph.profiles.map(\.profile.name).joined(separator: ", ")))")
        return nil
    }
    var result = ModeResult(mode: name)
    var setupStart = now()
    let space = SearchGraph(graph: graph, profile: profile)
    let search = RouteSearch(space: space)
    let snapper = Snapper(graph: graph, profile: profile)
    let reference = ReferenceDijkstra(space: space)
    let setupSeconds = seconds(since: setupStart)

    // Draw and snap the stops.
    var random = SplitMix64(state: options.seed)
    var pairs: [StopPair] = []
    var snapTimes: [Double] = []
    var skippedPoints = 0, drawnPoints = 0
    func draw() -> SnappedLocation? {
        let c = Coordinate(latitude: Double.random(in: box.lat, using: &random), longitude: Double.random(in: box.lon, using: &random))
        drawnPoints += 1
        let t0 = now()
        let snapped = snapper.snap(c, maxDistance: options.maxSnappingDistance)
        snapTimes.append(seconds(since: t0))
        if snapped == nil { skippedPoints += 1 }
        return snapped
    }
    while pairs.count < options.pairs {
        if drawnPoints > 100 * options.pairs + 1000 { break }
        guard let a = draw(), let b = draw() else { continue }
        pairs.append(StopPair(a: a, b: b, start: SearchEndpoint(a, in: graph), target: SearchEndpoint(b, in: graph)))
    }
    guard !pairs.isEmpty else {
        print("\n\(name): no stop snapped within \(Int(options.maxSnappingDistance)) m in the box; nothing to measure")
        return nil
    }

    // Warm up: page in the graph, grow the workspaces and heaps.
    setupStart = now()
    for i in 0..<Swift.min(options.warmup, pairs.count) {
        _ = search.route(from: pairs[i].start, to: pairs[i].target)
        _ = search.route(from: pairs[i].start, to: pairs[i].target, useHeuristic: false)
    }
    let warmupSeconds = seconds(since: setupStart)

    var aTimes: [Double] = [], dTimes: [Double] = []           // routed pairs
    var aSettled: [Double] = [], dSettled: [Double] = []
    var perPairRatio: [Double] = [], perPairTimeRatio: [Double] = []
    var aUnreachableTimes: [Double] = [], dUnreachableTimes: [Double] = []
    var routeSeconds: [Double] = [], routeMetres: [Double] = []
    var mismatches = 0, reachabilityDiffers = 0, unreachable = 0
    var unreachableIsland = 0, unreachableIslandFlagged = 0, unreachableLarge = 0
    let scc = components(of: space)
    var astarResults: [SearchResult?] = []
    for (i, pair) in pairs.enumerated() {
        var astar: SearchResult?, plain: SearchResult?
        var ta = 0.0, td = 0.0
        // Alternate the order, so neither search always runs with the other's data in the caches.
        if i % 2 == 0 {
            var t0 = now(); astar = search.route(from: pair.start, to: pair.target); ta = seconds(since: t0)
            t0 = now(); plain = search.route(from: pair.start, to: pair.target, useHeuristic: false); td = seconds(since: t0)
        } else {
            var t0 = now(); plain = search.route(from: pair.start, to: pair.target, useHeuristic: false); td = seconds(since: t0)
            t0 = now(); astar = search.route(from: pair.start, to: pair.target); ta = seconds(since: t0)
        }
        astarResults.append(astar)
        if (astar == nil) != (plain == nil) { reachabilityDiffers += 1 }
        guard let a = astar, let d = plain else {
            unreachable += 1
            // Why: an end on a small component (an island the snapper chose), or two large components.
            let from = scc.component[Int(graph.edgeFrom[pair.start.edge])], to = scc.component[Int(graph.edgeFrom[pair.target.edge])]
            let small = { (c: Int32) in c < 0 || scc.sizes[Int(c)] < 1000 }
            if small(from) || small(to) {
                unreachableIsland += 1
                if !snapper.isOnMainNetwork(pair.start.edge) || !snapper.isOnMainNetwork(pair.target.edge) { unreachableIslandFlagged += 1 }
            } else if from != to { unreachableLarge += 1 }
            aUnreachableTimes.append(ta); dUnreachableTimes.append(td)
            continue
        }
        if abs(a.duration - d.duration) > 0.1 { mismatches += 1 }
        aTimes.append(ta); dTimes.append(td)
        aSettled.append(Double(a.settled)); dSettled.append(Double(d.settled))
        if a.settled > 0 { perPairRatio.append(Double(d.settled) / Double(a.settled)) }
        if ta > 0 { perPairTimeRatio.append(td / ta) }
        routeSeconds.append(a.duration); routeMetres.append(a.distance)
    }

    // The slow reference on the first pairs: its time, and whether it agrees.
    var refTimes: [Double] = [], refAStarTimes: [Double] = [], refDijkstraTimes: [Double] = []
    var refMismatches = 0
    let referenceCount = Swift.min(options.referencePairs, pairs.count)
    for i in 0..<referenceCount {
        let t0 = now()
        let slow = reference.duration(from: pairs[i].start, to: pairs[i].target)
        refTimes.append(seconds(since: t0))
        let fast = astarResults[i]
        if (slow == nil) != (fast == nil) || (slow != nil && abs(slow! - fast!.duration) > 0.1) { refMismatches += 1 }
        // The same pairs' A* and Dijkstra times, for a like-for-like ratio.
        var t1 = now(); _ = search.route(from: pairs[i].start, to: pairs[i].target); refAStarTimes.append(seconds(since: t1))
        t1 = now(); _ = search.route(from: pairs[i].start, to: pairs[i].target, useHeuristic: false); refDijkstraTimes.append(seconds(since: t1))
    }

    let snap = Summary(snapTimes), at = Summary(aTimes), dt = Summary(dTimes), asx = Summary(aSettled), dsx = Summary(dSettled)
    let ratio = Summary(perPairRatio), timeRatio = Summary(perPairTimeRatio)
    let km = Summary(routeMetres.map { $0 / 1000 }), minutes = Summary(routeSeconds.map { $0 / 60 })
    let ref = Summary(refTimes), refA = Summary(refAStarTimes), refD = Summary(refDijkstraTimes)
    let usedNodes = (0..<graph.nodeCount).reduce(0) { $0 + (profile.firstIncidence[$1] < profile.firstIncidence[$1 + 1] ? 1 : 0) }
    var openDirected = 0
    for e in 0..<graph.edgeCount {
        if profile.timeForward[e] != closedEdge { openDirected += 1 }
        if profile.timeBackward[e] != closedEdge { openDirected += 1 }
    }

    print("\n\(name)")
    print("  graph: \(formatCount(Double(usedNodes))) nodes, \(formatCount(Double(openDirected))) open directed edges, \(formatCount(Double(space.stateCount))) search states; "
          + "\(space.rules.patterns.count) forbidden turn sequences; A* bound speed \(String(format: "%.1f", space.maximumSpeed * 3600)) km/h "
          + "(setup \(formatTime(setupSeconds)), warm-up \(formatTime(warmupSeconds)))")
    print("  stops drawn in lat \(String(format: "%.4f–%.4f", box.lat.lowerBound, box.lat.upperBound)), lon \(String(format: "%.4f–%.4f", box.lon.lowerBound, box.lon.upperBound)) "
          + "(\(Int(options.boxPercentile))th–\(100 - Int(options.boxPercentile))th percentile of node coordinates), seed \(options.seed)")
    print("  pairs: \(pairs.count) (\(aTimes.count) routed, \(unreachable) unreachable); \(skippedPoints) of \(drawnPoints) points skipped (no road within \(Int(options.maxSnappingDistance)) m)")
    print("  connectivity (node graph, turn rules ignored): largest strongly connected component \(formatCount(Double(scc.largest))) nodes "
          + "(\(String(format: "%.1f", 100 * Double(scc.largest) / Double(Swift.max(1, usedNodes))))% of the profile's), \(scc.large) component(s) of ≥ 1000 nodes"
          + (scc.large > 1 ? " (" + scc.sizes.filter { $0 >= 1000 }.sorted(by: >).map { formatCount(Double($0)) }.joined(separator: ", ") + ")" : "")
          + ", \(formatCount(Double(scc.count))) in all")
    print("  routes: median \(String(format: "%.1f", km.p50)) km / \(String(format: "%.1f", minutes.p50)) min, p90 \(String(format: "%.1f", km.p90)) km / \(String(format: "%.1f", minutes.p90)) min, longest \(String(format: "%.1f", km.max)) km")
    print("  snapping: p50 \(formatTime(snap.p50)), p99 \(formatTime(snap.p99)) per point (\(snap.count) points)")
    print("")
    var rows: [[String]] = []
    rows.append(["latency p50", formatTime(at.p50), formatTime(dt.p50), formatRatio(dt.p50 / at.p50)])
    rows.append(["latency p90", formatTime(at.p90), formatTime(dt.p90), formatRatio(dt.p90 / at.p90)])
    rows.append(["latency p99", formatTime(at.p99), formatTime(dt.p99), formatRatio(dt.p99 / at.p99)])
    rows.append(["latency mean", formatTime(at.mean), formatTime(dt.mean), formatRatio(dt.mean / at.mean)])
    rows.append(["latency max", formatTime(at.max), formatTime(dt.max), ""])
    rows.append(["settled states p50", formatCount(asx.p50), formatCount(dsx.p50), formatRatio(dsx.p50 / asx.p50)])
    rows.append(["settled states p99", formatCount(asx.p99), formatCount(dsx.p99), formatRatio(dsx.p99 / asx.p99)])
    rows.append(["settled states mean", formatCount(asx.mean), formatCount(dsx.mean), formatRatio(dsx.mean / asx.mean)])
    rows.append(["per-pair ratio Dijkstra/A*, settled: p50 (p10–p90)", "", "", formatRatio(ratio.p50) + " (" + formatRatio(ratio.percentile(10)) + "–" + formatRatio(ratio.p90) + ")"])
    rows.append(["per-pair ratio Dijkstra/A*, time: p50 (p10–p90)", "", "", formatRatio(timeRatio.p50) + " (" + formatRatio(timeRatio.percentile(10)) + "–" + formatRatio(timeRatio.p90) + ")"])
    rows.append(["ns per settled state (mean time / mean settled)", String(format: "%.0f", at.mean * 1e9 / asx.mean), String(format: "%.0f", dt.mean * 1e9 / dsx.mean), ""])
    printTable(["routed pairs (\(aTimes.count))", "A*", "Dijkstra", "Dijkstra/A*"], rows)
    if unreachable > 0 {
        print("  unreachable pairs (\(unreachable)): A* p50 \(formatTime(Summary(aUnreachableTimes).p50)), Dijkstra p50 \(formatTime(Summary(dUnreachableTimes).p50)); "
              + "\(unreachableIsland) with an end in a component of < 1000 nodes (\(unreachableIslandFlagged) of them on an edge the snapper flags as off the main network), "
              + "\(unreachableLarge) between two large components, \(unreachable - unreachableIsland - unreachableLarge) otherwise (turn rules or barriers)")
    }
    print("  same duration, A* vs Dijkstra: \(mismatches) mismatches > 0.1 s of \(aTimes.count), reachability differs on \(reachabilityDiffers)")
    if referenceCount > 0 {
        print("  ReferenceDijkstra (dictionary-based) on the first \(referenceCount) pairs: p50 \(formatTime(ref.p50)), mean \(formatTime(ref.mean)); "
              + "\(formatRatio(ref.mean / refD.mean)) the Dijkstra's and \(formatRatio(ref.mean / refA.mean)) A*'s mean time on the same pairs; "
              + "\(refMismatches) disagree with A*")
    }

    result.figures = [
        "pairs": Double(pairs.count), "routed": Double(aTimes.count), "unreachable": Double(unreachable),
        "skipped_points": Double(skippedPoints), "drawn_points": Double(drawnPoints),
        "astar_p50_ms": at.p50 * 1e3, "astar_p90_ms": at.p90 * 1e3, "astar_p99_ms": at.p99 * 1e3, "astar_mean_ms": at.mean * 1e3,
        "dijkstra_p50_ms": dt.p50 * 1e3, "dijkstra_p90_ms": dt.p90 * 1e3, "dijkstra_p99_ms": dt.p99 * 1e3, "dijkstra_mean_ms": dt.mean * 1e3,
        "astar_settled_p50": asx.p50, "astar_settled_mean": asx.mean, "dijkstra_settled_p50": dsx.p50, "dijkstra_settled_mean": dsx.mean,
        "settled_ratio_mean": dsx.mean / asx.mean, "settled_ratio_p50": dsx.p50 / asx.p50, "settled_ratio_per_pair_p50": ratio.p50,
        "time_ratio_mean": dt.mean / at.mean, "time_ratio_p50": dt.p50 / at.p50,
        "snap_p50_ms": snap.p50 * 1e3, "mismatches": Double(mismatches), "reachability_differs": Double(reachabilityDiffers),
        "reference_pairs": Double(referenceCount), "reference_mean_ms": ref.mean * 1e3, "reference_mismatches": Double(refMismatches),
        "bound_speed_kmh": space.maximumSpeed * 3600, "largest_component_share": Double(scc.largest) / Double(Swift.max(1, usedNodes)),
    ]

    if options.prototypes {
        prototypes(space: space, pairs: pairs, astarResults: astarResults, options: options, dijkstraSettledMean: dsx.mean,
                   dijkstraMean: dt.mean, result: &result)
    }
    return result
}

func prototypes(space: SearchGraph, pairs: [StopPair], astarResults: [SearchResult?], options: Options, dijkstraSettledMean: Double,
                dijkstraMean: Double, result: inout ModeResult) {
    let graph = space.graph
    let proto = Prototypes(space: space)
    let landmarks = Landmarks(space: space, count: options.landmarks, seed: options.seed)
    let megabytes = Double(2 * landmarks.count * graph.nodeCount * 4) / 1e6
    print("\n  prototypes (in Tools/RouteBenchmark only; same pairs; states settled by both directions together):")
    print("    \(landmarks.count) landmarks by farthest selection in \(formatTime(landmarks.seconds)), \(String(format: "%.1f", megabytes)) MB; "
          + "\(options.activeLandmarks == 0 ? "all" : "the \(options.activeLandmarks) best") per query; "
          + "bidirectional searches honour via-node restrictions only (\(proto.longerPatterns) longer sequences ignored)")

    struct Algorithm {
        let name: String
        let run: (StopPair) -> (cost: Double?, settled: Int)
    }
    func gc(_ p: StopPair) -> GreatCirclePotential {
        GreatCirclePotential(graph: graph, speed: space.maximumSpeed, source: p.start.coordinate, target: p.target.coordinate)
    }
    func alt(_ p: StopPair, active: Int) -> LandmarkPotential {
        LandmarkPotential(landmarks: landmarks, activeCount: active, sources: proto.sourceNodes(p.start), targets: proto.targetNodes(p.target))
    }
    let active = options.activeLandmarks
    let algorithms: [Algorithm] = [
        Algorithm(name: "A*, great circle only (RouteSearch at f0fbda3)") { p in proto.unidirectional(p.start, p.target, gc(p)) },
        Algorithm(name: "A*, landmarks (ALT, \(active == 0 ? landmarks.count : min(active, landmarks.count)) of \(landmarks.count))") { p in proto.unidirectional(p.start, p.target, alt(p, active: active)) },
        Algorithm(name: "A*, landmarks (ALT, all \(landmarks.count))") { p in proto.unidirectional(p.start, p.target, alt(p, active: 0)) },
        Algorithm(name: "bidirectional Dijkstra") { p in proto.bidirectional(p.start, p.target, ZeroPotential(), astar: false) },
        Algorithm(name: "bidirectional A*, great circle") { p in proto.bidirectional(p.start, p.target, gc(p), astar: true) },
        Algorithm(name: "bidirectional ALT, symmetric (\(active == 0 ? landmarks.count : min(active, landmarks.count)) of \(landmarks.count))") { p in proto.bidirectional(p.start, p.target, alt(p, active: active), astar: true) },
        Algorithm(name: "bidirectional ALT, average (\(active == 0 ? landmarks.count : min(active, landmarks.count)) of \(landmarks.count))") { p in proto.bidirectional(p.start, p.target, AveragePotential(base: alt(p, active: active)), astar: false) },
        Algorithm(name: "bidirectional ALT, average (all \(landmarks.count))") { p in proto.bidirectional(p.start, p.target, AveragePotential(base: alt(p, active: 0)), astar: false) },
    ]
    var rows: [[String]] = []
    for (index, algorithm) in algorithms.enumerated() {
        for i in 0..<Swift.min(options.warmup, pairs.count) { _ = algorithm.run(pairs[i]) }
        var times: [Double] = [], settled: [Double] = []
        var mismatches = 0, sameSettled = 0
        for (i, pair) in pairs.enumerated() {
            let t0 = now()
            let (cost, count) = algorithm.run(pair)
            let t = seconds(since: t0)
            let library = astarResults[i]
            if (cost == nil) != (library == nil) { mismatches += 1; continue }
            guard let cost, let library else { continue }
            if abs(cost / 1000 - library.duration) > 0.1 { mismatches += 1 }
            if count == library.settled { sameSettled += 1 }
            times.append(t); settled.append(Double(count))
        }
        let ts = Summary(times), ss = Summary(settled)
        rows.append([algorithm.name, formatCount(ss.p50), formatCount(ss.mean), formatRatio(dijkstraSettledMean / ss.mean),
                     formatTime(ts.p50), formatTime(ts.p99), formatRatio(dijkstraMean / ts.mean),
                     index == 0 ? "\(mismatches) (settled = RouteSearch's on \(sameSettled)/\(settled.count))" : "\(mismatches)"])
        let key = ["gc_copy", "alt_active", "alt_all", "bidir_dijkstra", "bidir_gc", "bidir_alt_symmetric", "bidir_alt_average", "bidir_alt_average_all"][index]
        result.figures["proto_\(key)_settled_mean"] = ss.mean
        result.figures["proto_\(key)_settled_ratio"] = dijkstraSettledMean / ss.mean
        result.figures["proto_\(key)_p50_ms"] = ts.p50 * 1e3
        result.figures["proto_\(key)_mismatches"] = Double(mismatches)
    }
    printTable(["    search", "settled p50", "settled mean", "Dijkstra/it, settled", "p50", "p99", "Dijkstra/it, time", "duration mismatches"],
               rows.map { ["    " + $0[0]] + $0.dropFirst() }, indent: "")
}

// MARK: - Main

let options = parseOptions()
let openStart = now()
let graph: RoadGraph
do {
    graph = try RoadGraph(path: options.graphPath)
} catch {
    fail("cannot open \(options.graphPath): \(error)")
}
let openSeconds = seconds(since: openStart)
let box = denseBox(of: graph, percentile: options.boxPercentile)
let modes = options.modes ?? graph.profiles.map(\.profile.name)
print("Route benchmark: \((options.graphPath as NSString).lastPathComponent), \(formatCount(Double(graph.nodeCount))) nodes, "
      + "\(formatCount(Double(graph.edgeCount))) edges; opened in \(formatTime(openSeconds)); \(options.pairs) random pairs per mode; "
      + "times are single queries on one thread (monotonic clock), A* and Dijkstra alternating per pair")
var results: [ModeResult] = []
for mode in modes {
    if let r = measure(mode: mode, graph: graph, options: options, box: box) { results.append(r) }
}

if let path = options.jsonPath {
    var text = "{\n"
    text += "  \"graph\": \"\(options.graphPath)\",\n  \"nodes\": \(graph.nodeCount),\n  \"edges\": \(graph.edgeCount),\n  \"modes\": {\n"
    text += results.map { r in
        let fields = r.figures.keys.sorted().map { key -> String in
            let v = r.figures[key]!
            return "      \"\(key)\": \(v.isFinite ? String(v) : "null")"
        }
        return "    \"\(r.mode)\": {\n" + fields.joined(separator: ",\n") + "\n    }"
    }.joined(separator: ",\n")
    text += "\n  }\n}\n"
    do {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(path): \(error)")
    }
}
