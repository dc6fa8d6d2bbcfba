import Foundation

/// Builds the landmark tables of ALT (A*, landmarks, triangle inequality): for a few landmark nodes around
/// the network (chosen from planar and farthest candidates by the bounds they give on sample pairs), the travel time from each landmark to every node and from every node to each landmark. A search
/// bounds the time left to its target from these by the triangle inequality.
///
/// Times are over the profile's node graph without turn restrictions or barriers, so they are lower bounds
/// for routes that honour them. They are stored in whole seconds, rounded down, as `UInt16`
/// (`unreachable` = no path; `saturated` = 18 hours or more).
public enum LandmarkBuilder {
    /// Landmarks per profile.
    public static let count = 8
    /// Milliseconds per stored unit.
    public static let unit: UInt32 = 1000
    public static let unreachable = UInt16.max
    public static let saturated = UInt16.max - 1

    /// The landmark tables of profile `p` of `graph`: node-major (`node × landmarks + landmark`), and the landmark nodes
    /// (`count` of them, or fewer on a small network).
    static func build(_ graph: RoadGraph, profile p: Int) -> (from: [UInt16], to: [UInt16], landmarks: [UInt32]) {
        let n = graph.nodeCount
        let profile = graph.profiles[p]
        // Planar candidates: split the main network around its centre into `count` equal angular sectors and take
        // in each the node farthest by travel time from the centre node, so the candidates surround the network.
        var main = (0..<n).filter { profile.island[$0] == 0 }.map { UInt32($0) }
        guard !main.isEmpty else { return ([], [], []) }
        var sumLat = 0.0, sumLon = 0.0
        for v32 in main { let v = Int(v32); sumLat += Double(graph.nodeLatitudes[v]); sumLon += Double(graph.nodeLongitudes[v]) }
        let centreLat = sumLat / Double(main.count), centreLon = sumLon / Double(main.count)
        let cosine = cos(centreLat * 1e-7 * Double.pi / 180)
        var centre = Int(main[0]), centreDistance = Double.infinity
        for v32 in main {
            let v = Int(v32)
            let dy = Double(graph.nodeLatitudes[v]) - centreLat, dx = (Double(graph.nodeLongitudes[v]) - centreLon) * cosine
            let d = dx * dx + dy * dy
            if d < centreDistance { centreDistance = d; centre = v }
        }
        var search = NodeDijkstra(graph: graph, profile: profile)
        var nearest = search.run(from: centre, reverse: false)
        var sectorBest = [Int?](repeating: nil, count: count)
        for v32 in main where nearest[Int(v32)] != UInt32.max {
            let v = Int(v32)
            let dy = Double(graph.nodeLatitudes[v]) - centreLat, dx = (Double(graph.nodeLongitudes[v]) - centreLon) * cosine
            var angle = atan2(dy, dx)
            if angle < 0 { angle += 2 * Double.pi }
            let sector = min(count - 1, Int(angle / (2 * Double.pi) * Double(count)))
            if let current = sectorBest[sector], nearest[current] >= nearest[v] { continue }
            sectorBest[sector] = v
        }
        // Candidates: the planar ones, then as many chosen by farthest selection. Only their times to and from
        // the sample pairs' nodes are kept while choosing, so memory stays at one full table per chosen landmark.
        let sample = samplePairs(main, count: 512)
        main = []
        var candidates: [Int] = []
        var sampleFrom: [[UInt16]] = [], sampleTo: [[UInt16]] = []
        func add(_ landmark: Int) {
            let forward = search.run(from: landmark, reverse: false)
            let backward = search.run(from: landmark, reverse: true)
            candidates.append(landmark)
            sampleFrom.append(sample.flatMap { [quantise(forward[$0.0]), quantise(forward[$0.1])] })
            sampleTo.append(sample.flatMap { [quantise(backward[$0.0]), quantise(backward[$0.1])] })
            for v in 0..<n { nearest[v] = min(nearest[v], forward[v]) }
        }
        for landmark in sectorBest.compactMap({ $0 }) { add(landmark) }
        for _ in 0..<count {
            guard let next = farthest(nearest, among: profile.island, excluding: Set(candidates)) else { break }
            add(next)
        }
        nearest = []
        // Keep the `count` candidates that together give the best bounds on the sample (greedy), then build their tables.
        let chosen = choose(count, sampleFrom: sampleFrom, sampleTo: sampleTo, pairs: sample.count)
        let landmarks = chosen.map { UInt32(candidates[$0]) }
        let found = landmarks.count
        var from = [UInt16](repeating: unreachable, count: n * found)
        var to = [UInt16](repeating: unreachable, count: n * found)
        for (k, landmark) in landmarks.enumerated() {
            let forward = search.run(from: Int(landmark), reverse: false)
            for v in 0..<n { from[v * found + k] = quantise(forward[v]) }
            let backward = search.run(from: Int(landmark), reverse: true)
            for v in 0..<n { to[v * found + k] = quantise(backward[v]) }
        }
        return (from, to, landmarks)
    }

    /// Deterministic pseudo-random pairs of main-network nodes (SplitMix64).
    static func samplePairs(_ nodes: [UInt32], count: Int) -> [(Int, Int)] {
        var generator = SplitMix64(state: 0x5EED)
        func next() -> Int { Int(generator.next() % UInt64(nodes.count)) }
        return (0..<count).map { _ in (Int(nodes[next()]), Int(nodes[next()])) }
    }

    /// Greedily picks up to `count` candidates maximising the summed landmark bound over the sample pairs;
    /// `sampleFrom[c]` / `sampleTo[c]` hold candidate c's times from / to each pair's two nodes, pair after pair.
    static func choose(_ count: Int, sampleFrom: [[UInt16]], sampleTo: [[UInt16]], pairs: Int) -> [Int] {
        // bounds[c][i]: candidate c's lower bound (units) for sample pair i (from its first node to its second).
        let bounds: [[Int]] = sampleFrom.indices.map { c in
            (0..<pairs).map { i in
                var best = 0
                let fs = sampleFrom[c][2 * i], ft = sampleFrom[c][2 * i + 1], ts = sampleTo[c][2 * i], tt = sampleTo[c][2 * i + 1]
                if fs < saturated && ft < saturated { best = max(best, Int(ft) - Int(fs)) }
                if ts < saturated && tt < saturated { best = max(best, Int(ts) - Int(tt)) }
                return best
            }
        }
        var current = [Int](repeating: 0, count: pairs)
        var chosen: [Int] = []
        for _ in 0..<min(count, sampleFrom.count) {
            var bestCandidate = -1, bestGain = -1
            for c in sampleFrom.indices where !chosen.contains(c) {
                var gain = 0
                for i in 0..<pairs { gain += max(0, bounds[c][i] - current[i]) }
                if gain > bestGain { bestGain = gain; bestCandidate = c }
            }
            chosen.append(bestCandidate)
            for i in 0..<pairs { current[i] = max(current[i], bounds[bestCandidate][i]) }
        }
        return chosen
    }

    static func quantise(_ milliseconds: UInt32) -> UInt16 {
        if milliseconds == UInt32.max { return unreachable }
        return UInt16(min(milliseconds / unit, UInt32(saturated)))
    }

    /// The main-network node with the greatest finite distance, ties to the lowest index.
    static func farthest(_ distance: [UInt32], among island: UnsafeBufferPointer<UInt8>, excluding: Set<Int>) -> Int? {
        var best: Int? = nil
        for v in distance.indices where island[v] == 0 && distance[v] != UInt32.max && !excluding.contains(v) {
            if best == nil || distance[v] > distance[best!] { best = v }
        }
        return best
    }
}

/// A plain one-to-all Dijkstra over a profile's node graph (times in milliseconds, no restrictions).
struct NodeDijkstra {
    let graph: RoadGraph
    let profile: ProfileGraph
    private let nodeCount: Int
    private var heap = BinaryHeap<UInt32, UInt32>()

    init(graph: RoadGraph, profile: ProfileGraph) {
        self.graph = graph
        self.profile = profile
        nodeCount = graph.nodeCount
    }

    /// Times from `source` to every node, or (with `reverse`) from every node to `source`; `UInt32.max` where none.
    mutating func run(from source: Int, reverse: Bool) -> [UInt32] {
        // The result array is handed out, not copied: each run starts on a fresh one.
        var distance = [UInt32](repeating: UInt32.max, count: nodeCount)
        distance[source] = 0
        heap.removeAll()
        heap.push(0, UInt32(source))
        let first = profile.firstIncidence, incidence = profile.incidence
        let forward = profile.timeForward, backward = profile.timeBackward
        let edgeFrom = graph.edgeFrom, edgeTo = graph.edgeTo
        while let (d, u) = heap.pop() {
            if d > distance[Int(u)] { continue }
            for position in Int(first[Int(u)])..<Int(first[Int(u) + 1]) {
                let entry = incidence[position]
                let e = Int(entry >> 1)
                // Leaving u along the edge (forward search), or arriving at u along it (reverse search).
                let alongStoredDirection = (entry & 1 == 0) != reverse
                let time = alongStoredDirection ? forward[e] : backward[e]
                guard time != closedEdge else { continue }
                let v = entry & 1 == 0 ? edgeTo[e] : edgeFrom[e]
                let candidate = d.addingSaturated(time)
                if candidate < distance[Int(v)] {
                    distance[Int(v)] = candidate
                    heap.push(candidate, v)
                }
            }
        }
        return distance
    }
}

/// The ALT landmark tables as an import step: built from the graph in memory, they fill the empty `alt_*` sections
/// the roads are written with, one profile after the other or (on graphs of moderate size) all at once.
public struct LandmarkExtension: GraphExtension {
    public init() {}

    public var phase: String { "preprocessing: landmarks" }

    /// The three landmark sections of every profile.
    public func sectionNames(for graph: RoadGraph) -> [String] {
        graph.profiles.flatMap { profile in
            let names = GraphSectionName.Profile(profile.profile.name)
            return [names.landmarkFrom, names.landmarkTo, names.landmarkNodes]
        }
    }

    /// Builds every profile's tables.
    public func build(from graph: RoadGraph) throws -> any GraphExtensionSections {
        let count = graph.profiles.count
        let tables = LandmarkTables(profiles: graph.profiles.map(\.profile.name))
        // The profiles' tables are independent: on graphs of moderate size build them on all cores; on large
        // ones one after the other, so that only one profile's working arrays add to the peak memory.
        if graph.nodeCount < 1_000_000 {
            DispatchQueue.concurrentPerform(iterations: count) { p in tables.store(LandmarkBuilder.build(graph, profile: p), at: p) }
        } else {
            for p in 0..<count { tables.store(LandmarkBuilder.build(graph, profile: p), at: p) }
        }
        return tables
    }
}

/// The landmark tables of every profile, filled from several threads, then written.
final class LandmarkTables: GraphExtensionSections, @unchecked Sendable {
    private let lock = NSLock()
    private let profiles: [String]
    @exclusivity(unchecked) private var results: [(from: [UInt16], to: [UInt16], landmarks: [UInt32])]

    init(profiles: [String]) {
        self.profiles = profiles
        results = Array(repeating: ([], [], []), count: profiles.count)
    }

    func store(_ tables: (from: [UInt16], to: [UInt16], landmarks: [UInt32]), at index: Int) {
        lock.lock(); results[index] = tables; lock.unlock()
    }

    func write(to sink: some GraphSectionSink) throws(GraphFileError) {
        for (name, tables) in zip(profiles, results) {
            let names = GraphSectionName.Profile(name)
            try sink.append(names.landmarkFrom, tables.from)
            try sink.append(names.landmarkTo, tables.to)
            try sink.append(names.landmarkNodes, tables.landmarks)
        }
    }
}
