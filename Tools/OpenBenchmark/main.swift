// Open-time benchmark: what checking a graph file before use costs. For each graph file, alternating in the same
// process, it opens the file for routing the way `wayfinder route` does (RoadGraph(path:) and a Router of one
// profile: checksums of every section, the structural checks of the road graph and of the hierarchy) and the way it
// did before the checks (the same views and search structures, no checksum, no check), then times each check on
// its own. Medians of --runs runs of thread CPU time (so other processes on a shared machine do not count), warm
// page cache. Figures only, never assertions on time. Tools/bench-open runs it.

import Foundation
@_spi(Benchmarks) import Graph
@_spi(Benchmarks) import Routing

let usage = """
usage: open-benchmark GRAPH.wfg… [--runs N] [--profile car]

  --runs N       runs of each way of opening, alternating; medians are reported (default 15)
  --profile P    the profile a route opens (default car); "all" opens every profile, as `serve` does
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("open-benchmark: \(message)\n".utf8))
    exit(2)
}

var paths: [String] = []
var runs = 15
var profileChoice = "car"
do {
    var args = Array(CommandLine.arguments.dropFirst())
    while !args.isEmpty {
        let arg = args.removeFirst()
        switch arg {
        case "-h", "--help": print(usage); exit(0)
        case "--runs":
            guard let text = args.first, let n = Int(text), n > 0 else { fail("--runs needs a positive count") }
            runs = n; args.removeFirst()
        case "--profile":
            guard let text = args.first else { fail("--profile needs a name") }
            profileChoice = text; args.removeFirst()
        default:
            if arg.hasPrefix("-") { fail("unexpected \(arg)\n\n\(usage)") }
            paths.append(arg)
        }
    }
    if paths.isEmpty { fail("give at least one graph file\n\n\(usage)") }
}

/// This thread's CPU time (user and system, page faults included), seconds: unlike the wall clock, it does not count
/// the time other processes on a shared machine take the core.
func threadCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Seconds of CPU time `body` takes, and of wall time.
@inline(never)
func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, wall: Double, value: T) {
    let wallStart = DispatchTime.now().uptimeNanoseconds
    let start = threadCPUTime()
    let value = try body()
    return (threadCPUTime() - start, Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9, value)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

/// The objects a route needs from a file, opened without any check (as before the checks existed).
func openUnchecked(_ path: String, profiles: [String]) throws -> Int {
    let graph = try RoadGraph(uncheckedFile: GraphFile(path: path))
    var work = graph.nodeCount
    for name in profiles {
        guard let profile = graph.profile(named: name) else { fail("\(path) has no profile \(name)") }
        let space = SearchGraph(graph: graph, profile: profile)
        let search = RouteSearch(space: space)
        if let ch = try ContractionHierarchy(uncheckedGraph: graph, profile: name),
           let hierarchy = HierarchySearch(states: HierarchyStates(space: space), hierarchy: ch) {
            work += hierarchy.hierarchy.arcCount
        }
        work += search.space.stateCount + Snapper(graph: graph, profile: profile).graph.edgeCount
    }
    return work
}

/// The same, the way `wayfinder route` opens it now: every checksum, every structural check.
func openChecked(_ path: String, profiles: [String]) throws -> Int {
    let graph = try RoadGraph(path: path)
    var work = graph.nodeCount
    for name in profiles { work += try Router(graph: graph, profile: name).search.space.stateCount }
    return work
}

print("open-benchmark: \(runs) runs per figure, medians of thread CPU time (wall time in brackets), warm page cache")
for path in paths {
    let probe: RoadGraph
    do { probe = try RoadGraph(path: path) } catch { fail("\(error)") }
    let profiles = profileChoice == "all" ? probe.profiles.map(\.profile.name) : [profileChoice]
    let size = probe.file.size
    var unchecked: [Double] = [], checked: [Double] = [], uncheckedWall: [Double] = [], checkedWall: [Double] = []
    var crc: [Double] = [], crcMapped: [Double] = [], road: [Double] = [], chStructure: [Double] = [], chMoves: [Double] = []
    var sink = 0
    do {
        // One untimed round of each, so both start from a warm cache.
        sink &+= try openUnchecked(path, profiles: profiles) &+ openChecked(path, profiles: profiles)
        for run in 0..<runs {
            // Alternate which goes first, so neither always follows the other.
            if run % 2 == 0 {
                let a = try timed { try openUnchecked(path, profiles: profiles) }; unchecked.append(a.seconds); uncheckedWall.append(a.wall); sink &+= a.value
                let b = try timed { try openChecked(path, profiles: profiles) }; checked.append(b.seconds); checkedWall.append(b.wall); sink &+= b.value
            } else {
                let b = try timed { try openChecked(path, profiles: profiles) }; checked.append(b.seconds); checkedWall.append(b.wall); sink &+= b.value
                let a = try timed { try openUnchecked(path, profiles: profiles) }; unchecked.append(a.seconds); uncheckedWall.append(a.wall); sink &+= a.value
            }
            // Each check alone, on a freshly opened file (checksums are verified once per GraphFile).
            let file = try GraphFile(path: path)
            crc.append(try timed { try file.verifyChecksums() }.seconds)
            // The same sums again, the pages now mapped: the arithmetic alone.
            crcMapped.append(try timed { () throws -> UInt32 in
                var all: UInt32 = 0
                for section in file.sections { all ^= GraphFileFormat.crc32(try file.bytes(section.name)) }
                return all
            }.seconds)
            let graph = try RoadGraph(uncheckedFile: file)
            road.append(try timed { try graph.validateStructure() }.seconds)
            var structure = 0.0, moves = 0.0
            for name in profiles {
                guard let ch = try ContractionHierarchy(uncheckedGraph: graph, profile: name), let profile = graph.profile(named: name) else { continue }
                structure += try timed { try ch.validateStructure(graph: graph, profile: name) }.seconds
                let states = HierarchyStates(space: SearchGraph(graph: graph, profile: profile))
                moves += try timed { try ch.validate(against: states, path: path, profile: name) }.seconds
            }
            chStructure.append(structure); chMoves.append(moves)
        }
    } catch {
        fail("\(error)")
    }
    let before = median(unchecked), now = median(checked)
    print("""

    \(path): \(String(format: "%.1f", Double(size) / 1e6)) MB, \(probe.file.sections.count) sections, \(probe.nodeCount) nodes, \(probe.edgeCount) edges; opening for \(profiles.joined(separator: ", "))
      open without checks (as before)    \(ms(before))   (wall \(ms(median(uncheckedWall))))
      open with checks (route, serve)    \(ms(now))   (wall \(ms(median(checkedWall))))   ratio \(String(format: "%.2f", now / before))×, +\(ms(now - before))
      of which, each alone:
        CRC-32 of every section          \(ms(median(crc)))   (\(String(format: "%.2f", Double(size) / median(crc) / 1e9)) GB/s; the sums alone, pages mapped: \(ms(median(crcMapped))))
        road sections' structure         \(ms(median(road)))
        hierarchy structure and halves   \(ms(median(chStructure)))
        hierarchy arcs against the graph \(ms(median(chMoves)))
    """)
    if sink == 42 { print("") }
}
