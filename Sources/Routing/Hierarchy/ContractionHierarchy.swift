import Graph

/// A profile's contraction hierarchy, read in place from the graph file (or held in memory after a build):
/// upward arcs per state for forward searches, downward arcs per state for backward searches.
public struct ContractionHierarchy: @unchecked Sendable {
    /// The rank (id in the hierarchy) of each `HierarchyStates` vertex.
    public let rank: UnsafeBufferPointer<UInt32>
    public let firstUp: UnsafeBufferPointer<UInt32>
    public let up: UnsafeBufferPointer<HierarchyArc>
    public let firstDown: UnsafeBufferPointer<UInt32>
    public let down: UnsafeBufferPointer<HierarchyArc>
    /// Keeps in-memory arrays alive (nil when the buffers point into a mapped file).
    private let owner: AnyObject?

    /// Number of vertices the hierarchy covers (`HierarchyStates.count` of its profile).
    public var vertexCount: Int { firstUp.count - 1 }
    /// Number of arcs, shortcuts included.
    public var arcCount: Int { up.count + down.count }

    /// The hierarchy of profile `name` in `graph`'s file, or nil when the file has none (imported with `--no-ch`).
    /// Throws, naming the section, when its arrays do not form a hierarchy the searches can follow
    /// (`validateStructure`); `validate(against:)` then checks its original arcs against the profile's graph.
    public init?(graph: RoadGraph, profile name: String) throws(GraphFileError) {
        let names = HierarchySectionNames(name)
        guard graph.file.has(names.firstUp) else { return nil }
        rank = try graph.file.array(names.rank)
        firstUp = try graph.file.array(names.firstUp)
        up = try graph.file.array(names.up)
        firstDown = try graph.file.array(names.firstDown)
        down = try graph.file.array(names.down)
        owner = nil
        try validateStructure(graph: graph, profile: name)
    }

    /// The hierarchy's sections without any check: what loading cost before the checks, for `Tools/bench-open`.
    /// Never for files one has not just checked.
    @_spi(Benchmarks) public init?(uncheckedGraph graph: RoadGraph, profile name: String) throws(GraphFileError) {
        let names = HierarchySectionNames(name)
        guard graph.file.has(names.firstUp) else { return nil }
        rank = try graph.file.array(names.rank)
        firstUp = try graph.file.array(names.firstUp)
        up = try graph.file.array(names.up)
        firstDown = try graph.file.array(names.firstDown)
        down = try graph.file.array(names.down)
        owner = nil
    }

    /// Runs the checks `init(graph:profile:)` runs (`validateStructure`), naming the section at fault.
    public func validateStructure(graph: RoadGraph, profile name: String) throws(GraphFileError) {
        try validateStructure(SectionValidator(path: graph.file.path), HierarchySectionNames(name), edgeCount: graph.edgeCount)
    }

    /// A hierarchy over freshly built data (tests, benchmarks).
    public init(_ data: HierarchyData) {
        /// Owns copies of the arrays at stable addresses for the buffers to point into.
        final class Storage {
            @exclusivity(unchecked) var buffers: [UnsafeMutableRawBufferPointer] = []
            func keep<T: BitwiseCopyable>(_ array: [T]) -> UnsafeBufferPointer<T> {
                let memory = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
                _ = memory.initialize(from: array)
                buffers.append(UnsafeMutableRawBufferPointer(memory))
                return UnsafeBufferPointer(start: memory.baseAddress, count: array.count)
            }
            deinit { for buffer in buffers { buffer.deallocate() } }
        }
        let storage = Storage()
        rank = storage.keep(data.rank)
        firstUp = storage.keep(data.firstUp)
        up = storage.keep(data.up)
        firstDown = storage.keep(data.firstDown)
        down = storage.keep(data.down)
        owner = storage
    }

    /// Appends to `edges` the directed edges an arc from vertex a to vertex b stands for, in travel order.
    /// Iterative (an explicit stack), so no chain of shortcuts can run out of call stack.
    func unpack(from a: Int, to b: Int, _ arc: HierarchyArc, into edges: inout [UInt32]) {
        var pending: [(from: Int, to: Int, arc: HierarchyArc)] = [(a, b, arc)]
        while let (a, b, arc) = pending.popLast() {
            if !arc.isShortcut { edges.append(arc.edge); continue }
            let m = Int(arc.middle)
            // a→m is stored at m among its downward arcs (a was contracted later), m→b among m's upward arcs.
            var first: HierarchyArc? = nil
            for i in Int(firstDown[m])..<Int(firstDown[m + 1]) where Int(down[i].head) == a {
                if first == nil || down[i].time < first!.time { first = down[i] }
            }
            var second: HierarchyArc? = nil
            for i in Int(firstUp[m])..<Int(firstUp[m + 1]) where Int(up[i].head) == b {
                if second == nil || up[i].time < second!.time { second = up[i] }
            }
            // A hierarchy read from a file has been checked to have both halves of every shortcut (`validateStructure`).
            guard let first, let second else { preconditionFailure("contraction hierarchy: shortcut \(a)→\(b) via \(m) has no halves") }
            pending.append((m, b, second))
            pending.append((a, m, first))
        }
    }

    // MARK: - Checks of a hierarchy read from a file

    /// Checks what the searches follow: ranks number the vertices once each; every row's offsets start at 0, never
    /// go back and end at the arc count; every arc leads to a vertex contracted later (so searches only climb);
    /// every shortcut's middle vertex was contracted before both its ends and both its halves exist (so unpacking
    /// ends, and finds them); every original arc names a directed edge of the graph.
    func validateStructure(_ check: SectionValidator, _ names: HierarchySectionNames, edgeCount: Int) throws(GraphFileError) {
        let v = rank.count
        try check.require(v < Int(Int32.max), names.rank, "has \(v) vertices, more than a search can number")
        try check.require(up.count < Int(Int32.max), names.up, "has \(up.count) arcs, more than a search can number")
        try check.require(down.count < Int(Int32.max), names.down, "has \(down.count) arcs, more than a search can number")
        try check.offsets(firstUp, names.firstUp, slices: v, total: up.count, "vertex")
        try check.offsets(firstDown, names.firstDown, slices: v, total: down.count, "vertex")
        var seen = [Bool](repeating: false, count: v)
        for (i, r) in rank.enumerated() {
            guard Int(r) < v, !seen[Int(r)] else {
                throw check.failure(names.rank, "element \(i) is \(r): the ranks must number the \(v) vertices 0 to \(v - 1) once each")
            }
            seen[Int(r)] = true
        }
        let directedEdges = UInt32(truncatingIfNeeded: 2 * edgeCount)
        func checkRows(_ arcs: UnsafeBufferPointer<HierarchyArc>, _ first: UnsafeBufferPointer<UInt32>, _ section: String) throws(GraphFileError) {
            for r in 0..<v {
                for i in Int(first[r])..<Int(first[r + 1]) {
                    let arc = arcs[i]
                    guard Int(arc.head) > r, Int(arc.head) < v else {
                        throw check.failure(section, "arc \(i), of vertex \(r), leads to vertex \(arc.head): not one of the \(v) vertices contracted after it")
                    }
                    if arc.isShortcut {
                        guard Int(arc.middle) < r else {
                            throw check.failure(section, "arc \(i), of vertex \(r), is a shortcut past vertex \(arc.middle), not one contracted before it")
                        }
                    } else if arc.edge >= directedEdges {
                        throw check.failure(section, "arc \(i) names directed edge \(arc.edge), not below \(directedEdges) (the directed edges)")
                    }
                }
            }
        }
        try checkRows(up, firstUp, names.up)
        try checkRows(down, firstDown, names.down)
        // Halves: u→x past m needs u→m among m's downward arcs (head u) and m→x among m's upward arcs (head x).
        // The shortcuts are grouped by middle vertex (a counting sort), then each middle's rows are marked once:
        // linear in the arcs, whatever the rows' lengths.
        var byMiddle = [Int32](repeating: 0, count: v + 1)
        for arc in up where arc.isShortcut { byMiddle[Int(arc.middle) + 1] += 1 }
        for arc in down where arc.isShortcut { byMiddle[Int(arc.middle) + 1] += 1 }
        for m in 0..<v { byMiddle[m + 1] += byMiddle[m] }
        /// Per shortcut, grouped by middle: the heads its halves need (down, up) and the arc (downward arcs negative, −1 − index).
        var needs = [(down: Int32, up: Int32, arc: Int32)](repeating: (0, 0, 0), count: Int(byMiddle[v]))
        var fill = byMiddle
        for r in 0..<v {
            for i in Int(firstUp[r])..<Int(firstUp[r + 1]) where up[i].isShortcut {
                let m = Int(up[i].middle)
                needs[Int(fill[m])] = (Int32(r), Int32(up[i].head), Int32(i)); fill[m] += 1
            }
            for i in Int(firstDown[r])..<Int(firstDown[r + 1]) where down[i].isShortcut {
                let m = Int(down[i].middle)
                needs[Int(fill[m])] = (Int32(down[i].head), Int32(r), -1 - Int32(i)); fill[m] += 1
            }
        }
        var upMark = [Int32](repeating: -1, count: v), downMark = [Int32](repeating: -1, count: v)
        for m in 0..<v where byMiddle[m] < byMiddle[m + 1] {
            for i in Int(firstUp[m])..<Int(firstUp[m + 1]) { upMark[Int(up[i].head)] = Int32(m) }
            for i in Int(firstDown[m])..<Int(firstDown[m + 1]) { downMark[Int(down[i].head)] = Int32(m) }
            for k in Int(byMiddle[m])..<Int(byMiddle[m + 1]) {
                let need = needs[k]
                guard downMark[Int(need.down)] == Int32(m), upMark[Int(need.up)] == Int32(m) else {
                    let (section, index) = need.arc >= 0 ? (names.up, Int(need.arc)) : (names.down, Int(-1 - need.arc))
                    throw check.failure(section, "arc \(index), a shortcut \(need.down)→\(need.up) past vertex \(m), lacks a half")
                }
            }
        }
    }

    /// Checks the hierarchy against the vertices of the profile it was read for: as many vertices, and every
    /// original arc a move a plain search could make (so an unpacked route is a route of the graph, turn rules
    /// and barriers included). Throws naming the section at fault.
    public func validate(against states: HierarchyStates, path: String, profile name: String) throws(GraphFileError) {
        let names = HierarchySectionNames(name)
        let check = SectionValidator(path: path)
        let v = vertexCount
        try check.require(v == states.count, names.rank, "has \(v) vertices, the profile's graph has \(states.count)")
        var vertexOfRank = [Int32](repeating: 0, count: v)
        for (vertex, r) in rank.enumerated() { vertexOfRank[Int(r)] = Int32(vertex) }
        for r in 0..<v {
            let tail = Int(vertexOfRank[r])
            for i in Int(firstUp[r])..<Int(firstUp[r + 1]) where !up[i].isShortcut {
                guard states.vertex(after: tail, along: up[i].edge) == Int(vertexOfRank[Int(up[i].head)]) else {
                    throw check.failure(names.up, "arc \(i) is not a move of the graph (directed edge \(up[i].edge))")
                }
            }
            // A downward arc stored at r comes from its head vertex and arrives at r.
            let head = tail
            for i in Int(firstDown[r])..<Int(firstDown[r + 1]) where !down[i].isShortcut {
                guard states.vertex(after: Int(vertexOfRank[Int(down[i].head)]), along: down[i].edge) == head else {
                    throw check.failure(names.down, "arc \(i) is not a move of the graph (directed edge \(down[i].edge))")
                }
            }
        }
    }
}

extension HierarchyStates {
    /// The vertex one move from `vertex` along directed edge d takes the search to, nil when a search could not make
    /// that move (the edge does not leave there, is closed, a barrier or a turn restriction forbids it); as
    /// `forEachMove(from:)` enumerates them.
    func vertex(after vertex: Int, along d: UInt32) -> Int? {
        let g = space
        guard Int(d >> 1) < g.graph.edgeCount, g.time(d) != closedEdge else { return nil }
        if vertex < nodeCount {
            guard !g.isBlocked(vertex), g.tail(d) == vertex else { return nil }
            return self.vertex(ofState: g.stateID(d, rule: g.rules.start(d)))
        }
        let state: Int
        if vertex < trieBase {
            state = Int(specialEdges[vertex - nodeCount])
        } else {
            let t = Int32(vertex - trieBase)
            guard !g.rules.isShallow(t) else { return nil }
            state = 2 * g.graph.edgeCount + Int(t)
        }
        let from = g.directedEdge(ofState: state)
        guard g.tail(d) == g.head(from), let next = g.move(from: from, rule: g.rule(ofState: state), to: d) else { return nil }
        return self.vertex(ofState: g.stateID(d, rule: next))
    }
}

/// Names of the hierarchy sections of one profile (`car.ch_up`…).
public struct HierarchySectionNames {
    public let rank, firstUp, up, firstDown, down: String
    public init(_ profile: String) {
        rank = "\(profile).ch_rank"
        firstUp = "\(profile).ch_up_first"
        up = "\(profile).ch_up"
        firstDown = "\(profile).ch_down_first"
        down = "\(profile).ch_down"
    }

    /// The five names, in the order `write` writes them.
    public var all: [String] { [rank, firstUp, up, firstDown, down] }

    /// Appends a built hierarchy's sections to a graph file being written (or the graph in memory during an import).
    public func write(_ data: HierarchyData, to writer: some GraphSectionSink) throws(GraphFileError) {
        try writer.append(rank, data.rank)
        try writer.append(firstUp, data.firstUp)
        try writer.append(up, data.up)
        try writer.append(firstDown, data.firstDown)
        try writer.append(down, data.down)
    }
}
