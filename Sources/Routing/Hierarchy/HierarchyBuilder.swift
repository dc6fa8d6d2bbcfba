import Graph

/// Builds a contraction hierarchy over a profile's search states, merged as `HierarchyStates` says (graph nodes,
/// plus directed edges and turn-rule states where restrictions or barriers need them), so turn restrictions, U-turn
/// rules and barriers hold exactly in every shortcut.
///
/// Vertices are contracted one at a time in the order of a priority kept fresh by re-estimating the neighbours of
/// each contracted vertex (OSRM's weighing: arcs added over arcs removed, the same in original moves, and level);
/// a shortcut u→x is added for u→v→x when a bounded witness search finds no path from u to x avoiding v that is as
/// quick.
public struct HierarchyBuilder {
    public let states: HierarchyStates
    /// Most vertices a witness search settles while contracting / while estimating a priority.
    public var witnessSettleLimit = 150
    public var estimateSettleLimit = 10
    /// The contraction's budget: arcs looked at (by witness searches and as shortcut candidates) per arc of the graph,
    /// above `workFloor`. Road maps take 60–810 an arc (Monaco to Porto, measured); a network dense enough to pass the
    /// budget (every node of one set joined to every node of another, say) would take hours, and is refused instead.
    public var workPerArc = 20_000
    /// Work any graph may take, however few its arcs.
    public var workFloor = 100_000_000

    /// Prepares to contract the vertices of `space`.
    public init(space: SearchGraph) { states = HierarchyStates(space: space) }

    /// One arc of the graph under contraction: the other end, time (ms), length (mm), what it stands for
    /// (`HierarchyArc.middle`'s encoding) and how many original moves.
    struct WorkArc {
        var other: Int32
        var time: UInt32
        var length: UInt32
        var middle: UInt32
        var originals: UInt32 = 1
    }

    /// Contracts every vertex and returns the hierarchy's upward and downward arcs; throws `HierarchyTooDense` as soon
    /// as the work passes the budget (`workPerArc`, `workFloor`).
    public func build(progress: (Double) -> Void = { _ in }) throws(HierarchyTooDense) -> HierarchyData {
        let n = states.count
        var outArcs = [[WorkArc]](repeating: [], count: n)
        var inArcs = [[WorkArc]](repeating: [], count: n)
        let graph = states.space.graph
        for v in 0..<n {
            states.forEachMove(from: v) { x, d in
                if x == v { return }  // a loop back to the same vertex is never part of a fastest route
                let arc = WorkArc(other: Int32(x), time: states.space.time(d), length: graph.edgeLengthMillimetres[states.space.edge(d)],
                                  middle: HierarchyArc.originalFlag | d)
                outArcs[v].append(arc)
                inArcs[x].append(WorkArc(other: Int32(v), time: arc.time, length: arc.length, middle: arc.middle))
            }
        }
        let arcCount = outArcs.reduce(0) { $0 + $1.count }
        let budget = max(workFloor, workPerArc.multipliedReportingOverflow(by: arcCount).overflow ? Int.max : workPerArc * arcCount)
        var contraction = Contraction(outArcs: outArcs, inArcs: inArcs, witnessLimit: witnessSettleLimit, estimateLimit: estimateSettleLimit)
        outArcs = []; inArcs = []
        guard let data = contraction.run(budget: budget, progress: progress) else {
            throw HierarchyTooDense(profile: states.space.profile.profile.name, arcs: arcCount, budget: budget, workPerArc: workPerArc)
        }
        return data
    }
}

/// A contraction that passed its builder's work budget: the profile's network is far denser than any road map.
public struct HierarchyTooDense: Error, CustomStringConvertible, Equatable {
    public let profile: String
    /// Arcs of the profile's search graph.
    public let arcs: Int
    /// The budget passed, and what it allows an arc.
    public let budget: Int
    public let workPerArc: Int

    public var description: String {
        "profile '\(profile)': the network is too dense to contract (\(arcs) arcs: the contraction passed its budget of " +
            "\(budget) steps, \(workPerArc) an arc, some 25 times what road maps take); check the input, or import with --no-ch " +
            "(routes then use A*)"
    }
}

/// The upward and downward arcs of a contraction hierarchy, in compressed rows by rank (the order of contraction,
/// so the vertices near the top, which every search reaches, lie together in memory).
///
/// `rank[v]` is the rank of `HierarchyStates` vertex v; arcs name vertices by rank. `up[firstUp[r]..<firstUp[r+1]]` are
/// the arcs r→x to higher ranks; `down[firstDown[x]..<firstDown[x+1]]` are the arcs u→x from higher ranks, stored at x
/// with `head` = u (the backward search's direction).
public struct HierarchyData: Sendable {
    public var rank: [UInt32]
    public var firstUp: [UInt32]
    public var up: [HierarchyArc]
    public var firstDown: [UInt32]
    public var down: [HierarchyArc]
    /// How many of the arcs are shortcuts.
    public var shortcutCount: Int
}

/// One arc of a contraction hierarchy: the vertex at the far end, time (ms), length (mm), and what it stands for:
/// an original move along directed edge d (`originalFlag | d`) or a shortcut past vertex `middle`.
@frozen public struct HierarchyArc: Sendable, Equatable, BitwiseCopyable {
    public var head: UInt32
    public var time: UInt32
    public var length: UInt32
    public var middle: UInt32
    /// Marks `middle` as an original move's directed edge.
    public static let originalFlag: UInt32 = 1 << 31

    public init(head: UInt32, time: UInt32, length: UInt32, middle: UInt32) {
        self.head = head; self.time = time; self.length = length; self.middle = middle
    }

    /// Whether the arc is a shortcut.
    @inline(__always) public var isShortcut: Bool { middle & Self.originalFlag == 0 }
    /// The directed edge of an original move.
    @inline(__always) public var edge: UInt32 { middle & ~Self.originalFlag }
}

/// The mutable state of one contraction run.
private struct Contraction {
    var outArcs: [[HierarchyBuilder.WorkArc]]
    var inArcs: [[HierarchyBuilder.WorkArc]]
    let witnessLimit: Int
    let estimateLimit: Int
    var contracted: [Bool]
    var level: [Int32]
    var priority: [Float]
    // Witness search scratch.
    var distance: [UInt32]
    var stamp: [UInt32]
    var generation: UInt32 = 0
    var targetStamp: [UInt32]
    var targetGeneration: UInt32 = 0
    var heap = BinaryHeap<UInt32, Int32>()
    /// Arcs looked at so far: by the witness searches and as shortcut candidates (the contraction's cost).
    var work = 0

    init(outArcs: [[HierarchyBuilder.WorkArc]], inArcs: [[HierarchyBuilder.WorkArc]], witnessLimit: Int, estimateLimit: Int) {
        self.outArcs = outArcs
        self.inArcs = inArcs
        self.witnessLimit = witnessLimit
        self.estimateLimit = estimateLimit
        let n = outArcs.count
        contracted = [Bool](repeating: false, count: n)
        level = [Int32](repeating: 0, count: n)
        priority = [Float](repeating: 0, count: n)
        distance = [UInt32](repeating: 0, count: n)
        stamp = [UInt32](repeating: 0, count: n)
        targetStamp = [UInt32](repeating: 0, count: n)
    }

    /// The hierarchy, or nil once the work passes `budget`.
    mutating func run(budget: Int, progress: (Double) -> Void) -> HierarchyData? {
        let n = outArcs.count
        var queue = BinaryHeap<Float, Int32>()
        for v in 0..<n {
            priority[v] = estimate(v)
            queue.push(priority[v], Int32(v))
        }
        var rank = [UInt32](repeating: 0, count: n)
        var upRows = [[HierarchyArc]](repeating: [], count: n)
        var downRows = [[HierarchyArc]](repeating: [], count: n)
        var shortcuts = 0
        var done = 0
        var shortcutList: [(from: Int32, to: Int32, arc: HierarchyBuilder.WorkArc)] = []
        while let (key, v32) = queue.pop() {
            let v = Int(v32)
            // Priorities are kept fresh by re-estimating the neighbours of each contracted state; older entries are stale.
            if contracted[v] || key != priority[v] { continue }
            shortcutList.removeAll(keepingCapacity: true)
            findShortcuts(v, limit: witnessLimit) { u, x, arc in shortcutList.append((u, x, arc)) }
            // The arcs that remain at v all lead to states contracted later: they are v's hierarchy arcs.
            upRows[v] = outArcs[v].map { HierarchyArc(head: UInt32($0.other), time: $0.time, length: $0.length, middle: $0.middle) }
            downRows[v] = inArcs[v].map { HierarchyArc(head: UInt32($0.other), time: $0.time, length: $0.length, middle: $0.middle) }
            contracted[v] = true
            var neighbours: [Int32] = []
            for arc in outArcs[v] {
                let x = Int(arc.other)
                inArcs[x].removeAll { $0.other == v32 }
                neighbours.append(arc.other)
            }
            for arc in inArcs[v] {
                let u = Int(arc.other)
                outArcs[u].removeAll { $0.other == v32 }
                neighbours.append(arc.other)
            }
            outArcs[v] = []; inArcs[v] = []
            for (u, x, arc) in shortcutList where addOrImprove(from: Int(u), to: Int(x), arc) { shortcuts += 1 }
            // In a fixed order, so that the same graph always gives the same hierarchy (and file).
            for w in Set(neighbours).sorted() {
                let wi = Int(w)
                level[wi] = max(level[wi], level[v] + 1)
                let p = estimate(wi)
                if p != priority[wi] {
                    priority[wi] = p
                    queue.push(p, w)
                }
            }
            if work > budget { return nil }
            rank[v] = UInt32(done)
            done += 1
            if done & 0x3FFF == 0 { progress(Double(done) / Double(n)) }
        }
        // Rows and arcs by rank.
        var data = HierarchyData(rank: rank, firstUp: [0], up: [], firstDown: [0], down: [], shortcutCount: 0)
        data.up.reserveCapacity(upRows.reduce(0) { $0 + $1.count })
        data.down.reserveCapacity(downRows.reduce(0) { $0 + $1.count })
        var byRank = [Int](repeating: 0, count: n)
        for v in 0..<n { byRank[Int(rank[v])] = v }
        func ranked(_ arc: HierarchyArc) -> HierarchyArc {
            HierarchyArc(head: rank[Int(arc.head)], time: arc.time, length: arc.length, middle: arc.isShortcut ? rank[Int(arc.middle)] : arc.middle)
        }
        for v in byRank {
            data.up.append(contentsOf: upRows[v].map(ranked)); data.firstUp.append(UInt32(data.up.count))
            data.down.append(contentsOf: downRows[v].map(ranked)); data.firstDown.append(UInt32(data.down.count))
        }
        data.shortcutCount = data.up.reduce(0) { $0 + ($1.isShortcut ? 1 : 0) } + data.down.reduce(0) { $0 + ($1.isShortcut ? 1 : 0) }
        progress(1)
        return data
    }

    /// Adds the shortcut u→x, or lowers an existing arc's time; false when an arc at least as quick exists.
    mutating func addOrImprove(from u: Int, to x: Int, _ arc: HierarchyBuilder.WorkArc) -> Bool {
        if let i = outArcs[u].firstIndex(where: { Int($0.other) == x }) {
            guard arc.time < outArcs[u][i].time else { return false }
            outArcs[u][i] = arc
            if let j = inArcs[x].firstIndex(where: { Int($0.other) == u }) {
                inArcs[x][j] = HierarchyBuilder.WorkArc(other: Int32(u), time: arc.time, length: arc.length, middle: arc.middle, originals: arc.originals)
            }
            return false
        }
        outArcs[u].append(arc)
        inArcs[x].append(HierarchyBuilder.WorkArc(other: Int32(u), time: arc.time, length: arc.length, middle: arc.middle, originals: arc.originals))
        return true
    }

    /// The priority of contracting v now, as OSRM's contractor weighs it: twice the ratio of arcs added to arcs
    /// removed, plus the same ratio counted in original moves, plus the level.
    mutating func estimate(_ v: Int) -> Float {
        var added = 0, addedOriginals = 0
        findShortcuts(v, limit: estimateLimit) { _, _, arc in added += 1; addedOriginals += Int(arc.originals) }
        let removed = outArcs[v].count + inArcs[v].count
        var removedOriginals = 0
        for arc in outArcs[v] { removedOriginals += Int(arc.originals) }
        for arc in inArcs[v] { removedOriginals += Int(arc.originals) }
        let edgeQuotient = Float(added) / Float(max(removed, 1))
        let originalQuotient = Float(addedOriginals) / Float(max(removedOriginals, 1))
        return 2 * edgeQuotient + originalQuotient + Float(level[v])
    }

    /// Calls `body` with every shortcut contracting v needs: u→x (as an arc from u) for each pair of arcs u→v, v→x
    /// with no witness path from u to x avoiding v that is at most as quick.
    mutating func findShortcuts(_ v: Int, limit: Int, _ body: (Int32, Int32, HierarchyBuilder.WorkArc) -> Void) {
        let outs = outArcs[v]
        if outs.isEmpty { return }
        var maxOut: UInt32 = 0
        for arc in outs { maxOut = max(maxOut, arc.time) }
        for inArc in inArcs[v] {
            let u = Int(inArc.other)
            let bound = inArc.time.addingSaturated(maxOut)
            var targets = 0
            targetGeneration &+= 1
            if targetGeneration == 0 { for i in targetStamp.indices { targetStamp[i] = 0 }; targetGeneration = 1 }
            for outArc in outs where Int(outArc.other) != u && targetStamp[Int(outArc.other)] != targetGeneration {
                targetStamp[Int(outArc.other)] = targetGeneration
                targets += 1
            }
            if targets == 0 { continue }
            work &+= outs.count
            witnessSearch(from: u, avoiding: v, bound: bound, limit: limit, targets: targets)
            for outArc in outs where Int(outArc.other) != u {
                let via = inArc.time.addingSaturated(outArc.time)
                let x = Int(outArc.other)
                if stamp[x] == generation && distance[x] <= via { continue }
                body(Int32(u), outArc.other, HierarchyBuilder.WorkArc(other: outArc.other, time: via, length: inArc.length.addingSaturated(outArc.length),
                                                                     middle: UInt32(v), originals: inArc.originals + outArc.originals))
            }
        }
    }

    /// Dijkstra from u over the uncontracted vertices without v, up to `bound` ms, `limit` settled vertices, or
    /// until the `targets` vertices marked in `targetStamp` are all settled.
    mutating func witnessSearch(from u: Int, avoiding v: Int, bound: UInt32, limit: Int, targets: Int) {
        var targetsLeft = targets
        generation &+= 1
        if generation == 0 { for i in stamp.indices { stamp[i] = 0 }; generation = 1 }
        heap.removeAll()
        stamp[u] = generation; distance[u] = 0
        heap.push(0, Int32(u))
        var settled = 0
        while let (key, w32) = heap.pop() {
            let w = Int(w32)
            if key != distance[w] { continue }
            if key > bound { break }
            settled += 1
            work &+= outArcs[w].count
            if targetStamp[w] == targetGeneration {
                targetsLeft -= 1
                if targetsLeft == 0 { break }
            }
            if settled > limit { break }
            for arc in outArcs[w] {
                let x = Int(arc.other)
                if x == v { continue }
                let candidate = key.addingSaturated(arc.time)
                if candidate > bound { continue }
                if stamp[x] != generation || candidate < distance[x] {
                    stamp[x] = generation; distance[x] = candidate
                    heap.push(candidate, arc.other)
                }
            }
        }
    }
}
