import Foundation
import Graph

/// Travel times and distances from every source to every destination, row by row (`nil`: no route).
public struct DistanceMatrix: Sendable, Equatable {
    public let sourceCount: Int
    public let destinationCount: Int
    /// Seconds, `durations[i * destinationCount + j]` from source i to destination j.
    public var durations: [Double?]
    /// Metres, laid out as `durations`.
    public var distances: [Double?]

    /// An all-unreachable matrix of the given size.
    public init(sourceCount: Int, destinationCount: Int) {
        self.sourceCount = sourceCount
        self.destinationCount = destinationCount
        durations = Array(repeating: nil, count: sourceCount * destinationCount)
        distances = durations
    }

    /// Seconds from source i to destination j, nil when no route exists.
    public func duration(_ i: Int, _ j: Int) -> Double? { durations[i * destinationCount + j] }
    /// Metres from source i to destination j, nil when no route exists.
    public func distance(_ i: Int, _ j: Int) -> Double? { distances[i * destinationCount + j] }
}

/// Many-to-many travel times over a contraction hierarchy, bucket-based: one upward search from each destination
/// leaves (destination, time) entries at the vertices it settles, one upward search from each source scans them.
/// Each entry equals what `HierarchySearch.route` (and so `RouteSearch`) gives for that pair.
public struct MatrixSearch: Sendable {
    public let search: HierarchySearch

    public init(search: HierarchySearch) { self.search = search }

    /// The matrix from `sources` to `destinations`, the sources' searches spread over `threads` threads.
    public func matrix(from sources: [SearchEndpoint], to destinations: [SearchEndpoint],
                       threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> DistanceMatrix {
        (try? matrix(from: sources, to: destinations, threads: threads, deadline: .none))
            ?? DistanceMatrix(sourceCount: sources.count, destinationCount: destinations.count)
    }

    /// As `matrix(from:to:threads:)`, giving up with `RoutingError.timedOut` (or `.cancelled`) once `deadline`
    /// passes: every one-direction search checks it as it starts and every `SearchDeadline.interval` heap pops.
    public func matrix(from sources: [SearchEndpoint], to destinations: [SearchEndpoint],
                       threads: Int = ProcessInfo.processInfo.activeProcessorCount, deadline: SearchDeadline) throws(RoutingError) -> DistanceMatrix {
        try deadline.check()
        let ch = search.hierarchy, builder = search.endpoints
        let vertexCount = search.states.count
        var result = DistanceMatrix(sourceCount: sources.count, destinationCount: destinations.count)
        if sources.isEmpty || destinations.isEmpty { return result }
        let targets = destinations.map { builder.target($0) }

        // Backward searches: bucket entries (vertex, destination, time, length), then grouped by vertex.
        var entryVertex: [Int32] = [], entryTarget: [Int32] = [], entryTime: [Double] = [], entryLength: [Double] = []
        try search.upwardPool.withWorkspace { side throws(RoutingError) in
            for (j, target) in targets.enumerated() {
                try side.run(seeds: target.seeds.map { (Int(ch.rank[$0.vertex]), $0.label, $0.length) }, arcs: ch.down, first: ch.firstDown,
                             stallArcs: ch.up, stallFirst: ch.firstUp, deadline: deadline) { v, time, length in
                    entryVertex.append(Int32(v)); entryTarget.append(Int32(j)); entryTime.append(time); entryLength.append(length)
                }
            }
        }
        let buckets = Buckets(vertexCount: vertexCount, vertex: entryVertex, target: entryTarget, time: entryTime, length: entryLength)
        entryVertex = []; entryTarget = []; entryTime = []; entryLength = []

        // Forward searches, sources split into chunks over the threads; each fills its own rows.
        let rows = RowStore(result.durations.count)
        let chunkCount = max(1, min(threads, sources.count))
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in search.upwardPool.withWorkspace { forward in
            // Past the deadline a chunk stops and leaves the error; the other chunks see the same deadline.
            guard rows.stopped == nil else { return }
            let destinationCount = destinations.count
            var bestTime = [Double](repeating: .infinity, count: destinationCount)
            var bestLength = [Double](repeating: 0, count: destinationCount)
            var i = chunk
            while i < sources.count {
                let source = builder.source(sources[i])
                for j in 0..<destinationCount { bestTime[j] = .infinity }
                do throws(RoutingError) {
                    try forward.run(seeds: source.starts.map { (Int(ch.rank[$0.vertex]), $0.cost, $0.length) }, arcs: ch.up, first: ch.firstUp,
                                    stallArcs: ch.down, stallFirst: ch.firstDown, deadline: deadline) { v, time, length in
                        for k in Int(buckets.first[v])..<Int(buckets.first[v + 1]) {
                            let j = Int(buckets.target[k])
                            let total = time + buckets.time[k]
                            if total < bestTime[j] { bestTime[j] = total; bestLength[j] = length + buckets.length[k] }
                        }
                    }
                } catch {
                    rows.stop(error)
                    return
                }
                for j in 0..<destinationCount {
                    if let direct = builder.direct(source, targets[j]), direct.cost <= bestTime[j] {
                        bestTime[j] = direct.cost; bestLength[j] = direct.length
                    }
                }
                rows.store(row: i, times: bestTime, lengths: bestLength)
                i += chunkCount
            }
        } }
        if let error = rows.stopped { throw error }
        result.durations = rows.durations
        result.distances = rows.distances
        return result
    }
}

/// The backward searches' entries grouped by vertex: `first[v]..<first[v+1]` index the entries left at v.
struct Buckets: Sendable {
    let first: [Int32]
    let target: [Int32]
    let time: [Double]
    let length: [Double]

    init(vertexCount: Int, vertex: [Int32], target entryTarget: [Int32], time entryTime: [Double], length entryLength: [Double]) {
        var first = [Int32](repeating: 0, count: vertexCount + 1)
        for v in vertex { first[Int(v) + 1] += 1 }
        for v in 0..<vertexCount { first[v + 1] += first[v] }
        var fill = first
        var target = [Int32](repeating: 0, count: vertex.count)
        var time = [Double](repeating: 0, count: vertex.count), length = time
        for k in vertex.indices {
            let slot = Int(fill[Int(vertex[k])])
            fill[Int(vertex[k])] += 1
            target[slot] = entryTarget[k]; time[slot] = entryTime[k]; length[slot] = entryLength[k]
        }
        self.first = first; self.target = target; self.time = time; self.length = length
    }
}

/// One direction's full upward search (no target to stop at), with stall-on-demand: calls `visit` with each
/// vertex it settles unstalled, its time and length.
final class UpwardSearch {
    /// Labels, settled marks and the heap (parents kept but unused).
    let labels: SearchWorkspace
    /// Metres along the path to each reached vertex.
    @exclusivity(unchecked) var length: [Double]

    init(vertexCount: Int) {
        labels = SearchWorkspace(stateCount: vertexCount)
        length = [Double](repeating: 0, count: vertexCount)
    }

    /// Throws `RoutingError.timedOut` (or `.cancelled`) once `deadline` passes: checked at the first heap pop and every
    /// `SearchDeadline.interval` after it.
    func run(seeds: [(vertex: Int, time: Double, length: Double)], arcs: UnsafeBufferPointer<HierarchyArc>, first: UnsafeBufferPointer<UInt32>,
             stallArcs: UnsafeBufferPointer<HierarchyArc>, stallFirst: UnsafeBufferPointer<UInt32>, deadline: SearchDeadline,
             visit: (Int, Double, Double) -> Void) throws(RoutingError) {
        let ws = labels
        ws.reset()
        for seed in seeds where !ws.isReached(seed.vertex) || seed.time < ws.cost[seed.vertex] {
            ws.reach(seed.vertex, cost: seed.time, parent: -1)
            length[seed.vertex] = seed.length
            ws.heap.push(seed.time, Int32(seed.vertex))
        }
        var pops = 0
        while let (key, v32) = ws.heap.pop() {
            try deadline.check(every: pops)
            pops &+= 1
            let v = Int(v32)
            if ws.isSettled(v) || key > ws.cost[v] { continue }
            ws.settle(v)
            if ws.isStalled(v, at: key, arcs: stallArcs, first: stallFirst) { continue }
            visit(v, key, length[v])
            let lengthAtV = length[v]
            ws.relax(v, at: key, arcs: arcs, first: first, improved: { x, arc in length[x] = lengthAtV + Double(arc.length) / 1000 })
        }
    }
}

/// The rows of a matrix, written by several threads (each row by one).
final class RowStore: @unchecked Sendable {
    @exclusivity(unchecked) private(set) var durations: [Double?]
    @exclusivity(unchecked) private(set) var distances: [Double?]
    private let lock = NSLock()
    /// Why a search filling the rows stopped early, if one did.
    @exclusivity(unchecked) private var stoppedBy: RoutingError? = nil

    init(_ count: Int) {
        durations = Array(repeating: nil, count: count)
        distances = durations
    }

    func store(row i: Int, times: [Double], lengths: [Double]) {
        let width = times.count
        lock.lock()
        for j in 0..<width where times[j] < .infinity {
            durations[i * width + j] = times[j] / 1000
            distances[i * width + j] = lengths[j]
        }
        lock.unlock()
    }

    /// Records why the rows cannot be completed (the first reason given is kept).
    func stop(_ error: RoutingError) {
        lock.lock()
        if stoppedBy == nil { stoppedBy = error }
        lock.unlock()
    }

    /// The reason given to `stop`, if any.
    var stopped: RoutingError? {
        lock.lock(); defer { lock.unlock() }
        return stoppedBy
    }
}
