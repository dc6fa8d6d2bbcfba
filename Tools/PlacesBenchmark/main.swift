// Place search benchmark (Tools/bench-places): for each OSM input, the import with and without the place index
// (interleaved, medians of process CPU time, so other work on the shared machine does not count), the index build
// alone (thread CPU time), and search latency over queries made from the extract's own names:
// whole names, beginnings, and names with one typo, each with and without a point to rank by distance.
// The place index's cost is given against two imports without it: the roads alone (no landmarks, no hierarchies:
// where the index weighs most) and the default one `wayfinder import` runs (landmarks and contraction hierarchies).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Graph
import Routing

/// Seconds on the monotonic clock.
func now() -> Double { clock(CLOCK_MONOTONIC) }

/// Seconds of `id`'s clock: CPU time of the process (every thread) or of this thread, so that other processes on
/// the shared machine do not count.
func clock(_ id: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(id, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
func processCPU() -> Double { clock(CLOCK_PROCESS_CPUTIME_ID) }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// Wraps the place extension to time its build and write.
struct TimedExtension: GraphExtension {
    let inner: PlaceIndexExtension
    let seconds: UnsafeMutablePointer<Double>
    var phase: String { inner.phase }
    func sectionNames(for graph: RoadGraph) -> [String] { inner.sectionNames(for: graph) }
    /// Times the index build (the write of its sections is part of the single file write).
    func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        let start = clock(CLOCK_THREAD_CPUTIME_ID)
        let built = try inner.build(from: graph)
        seconds.pointee = clock(CLOCK_THREAD_CPUTIME_ID) - start
        return built
    }
}

var inputs: [String] = []
var runs = 5, queryCount = 1000
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs": runs = Int(arguments.popFirst() ?? "") ?? runs
    case "--queries": queryCount = Int(arguments.popFirst() ?? "") ?? queryCount
    default: inputs.append(argument)
    }
}
guard !inputs.isEmpty else {
    FileHandle.standardError.write("usage: places-benchmark [--runs N] [--queries N] INPUT.osm…\n".data(using: .utf8)!)
    exit(2)
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

print("| input | places | tokens | import, CPU (no places) | collecting, CPU | index build, CPU | (collecting + build) ÷ import | import with places, CPU | default import, CPU (no places) | (collecting + build) ÷ default import | query kind | p50 | p90 | found in top 10 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
for input in inputs {
    let name = URL(fileURLWithPath: input).lastPathComponent
    let output = folder.appendingPathComponent(name + ".wfg").path
    var plain: [Double] = [], collecting: [Double] = [], withPlaces: [Double] = [], builds: [Double] = [], full: [Double] = []
    let buildSeconds = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    for _ in 0..<runs {
        var importer = GraphImporter()
        importer.buildLandmarks = false
        var start = processCPU()
        _ = try importer.run(input: input, output: output)
        plain.append(processCPU() - start)
        // Collecting alone (no extension, so no second write): what the places cost the reading pass.
        importer.places = PlaceCollector()
        start = processCPU()
        _ = try importer.run(input: input, output: output)
        collecting.append(processCPU() - start)
        // The default import (`wayfinder import` without places): landmarks and contraction hierarchies.
        var standard = GraphImporter()
        standard.extensions = [HierarchyExtension()]
        start = processCPU()
        _ = try standard.run(input: input, output: output)
        full.append(processCPU() - start)
        let collector = PlaceCollector()
        importer.places = collector
        importer.extensions = [TimedExtension(inner: PlaceIndexExtension(collector: collector), seconds: buildSeconds)]
        start = processCPU()
        _ = try importer.run(input: input, output: output)
        withPlaces.append(processCPU() - start)
        builds.append(buildSeconds.pointee)
    }
    let index = try PlaceIndex(path: output)
    let searcher = PlaceSearcher(index: index)

    // Queries from real names: whole, a beginning (first word and half of the next, or the first half of one word),
    // one typo (deletion, insertion, substitution or transposition) in a word of 5+ letters.
    var generator = SplitMix64(seed: 2026)
    let named = (0..<index.count).filter { !PlaceTextFolding.tokens(of: index.string(.name, place: $0)).isEmpty }
    var queries: [(kind: String, text: String, target: String, near: (latitude: Double, longitude: Double)?)] = []
    for k in 0..<queryCount {
        let place = named[Int(generator.next() % UInt64(named.count))]
        let title = index.string(.name, place: place)
        let near: (latitude: Double, longitude: Double)? = k % 2 == 0 ? nil
            : (Double(index.latitudes[place]) / 1e7 + Double(Int(generator.next() % 200) - 100) * 1e-4,
               Double(index.longitudes[place]) / 1e7 + Double(Int(generator.next() % 200) - 100) * 1e-4)
        let suffix = near == nil ? "" : " + near"
        queries.append(("whole name" + suffix, title, title, near))
        let words = title.split(separator: " ").map(String.init)
        let beginning = words.count > 1 ? words[0] + " " + String(words[1].prefix(max(1, words[1].count / 2)))
                                        : String(title.prefix(max(1, title.count / 2)))
        queries.append(("beginning" + suffix, beginning, title, near))
        let long = title.split(whereSeparator: { !$0.isLetter }).map(String.init).filter { $0.count >= 5 }
        if !long.isEmpty {
            let word = Array(long[Int(generator.next() % UInt64(long.count))])
            var typo = word
            let at = 1 + Int(generator.next() % UInt64(word.count - 2))
            switch generator.next() % 4 {
            case 0: typo.remove(at: at)
            case 1: typo.insert("x", at: at)
            case 2: typo[at] = typo[at] == "e" ? "a" : "e"
            default: typo.swapAt(at, at + 1)
            }
            queries.append(("one typo" + suffix, title.replacingOccurrences(of: String(word), with: String(typo)), title, near))
        }
    }
    var latencies: [String: [Double]] = [:], found: [String: Int] = [:], asked: [String: Int] = [:]
    for round in 0..<3 {
        for query in queries {
            let start = now()
            let answers = try searcher.search(PlaceQuery(query.text, near: query.near, limit: 10))
            let elapsed = now() - start
            guard round == 2 else { continue }
            latencies[query.kind, default: []].append(elapsed)
            asked[query.kind, default: 0] += 1
            if answers.contains(where: { index.string(.name, place: $0.place) == query.target }) { found[query.kind, default: 0] += 1 }
        }
    }
    let all = latencies.values.flatMap { $0 }
    let plainMedian = median(plain), collectMedian = median(collecting), placesMedian = median(withPlaces), buildMedian = median(builds)
    let fullMedian = median(full)
    func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
    let collectCost = collectMedian - plainMedian
    let head = "| \(name) | \(index.count) | \(index.tokenCount) | \(String(format: "%.3f s", plainMedian)) | \(String(format: "%+.1f ms", collectCost * 1000)) | "
        + "\(ms(buildMedian)) | \(String(format: "%.1f %%", (collectCost + buildMedian) / plainMedian * 100)) | \(String(format: "%.3f s (%+.1f %%)", placesMedian, (placesMedian / plainMedian - 1) * 100))"
        + " | \(String(format: "%.3f s", fullMedian)) | \(String(format: "%.1f %%", (collectCost + buildMedian) / fullMedian * 100))"
    print(head + " | all | \(ms(percentile(all, 0.5))) | \(ms(percentile(all, 0.9))) | \(found.values.reduce(0, +)) / \(asked.values.reduce(0, +)) |")
    for kind in latencies.keys.sorted() {
        let values = latencies[kind]!
        print("| | | | | | | | | | | \(kind) | \(ms(percentile(values, 0.5))) | \(ms(percentile(values, 0.9))) | \(found[kind, default: 0]) / \(asked[kind]!) |")
    }
}
