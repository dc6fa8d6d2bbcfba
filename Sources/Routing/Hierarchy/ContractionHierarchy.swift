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

    /// Which rows of arcs an arc is stored in.
    enum ArcRows { case up, down }

    /// An arc still to unpack, with its ends (ranks) and the rows that hold it: the scratch stack `unpack` reuses.
    typealias PendingArc = (from: Int, to: Int, arc: HierarchyArc, rows: ArcRows)

    /// Appends to `edges` the directed edges an arc from vertex a to vertex b stands for, in travel order; `rows`
    /// says where `arc` is stored. Iterative (an explicit stack), so no chain of shortcuts can run out of call stack.
    /// Validates what it follows: returns the rows of the arc at fault (nil when all is well) when a shortcut lacks a
    /// half or `isMove(a, b, d)` refuses an original arc's move from a to b along directed edge d (a file whose
    /// checksums match but whose hierarchy was not written by `wayfinder import`). `pending` is the caller's scratch
    /// stack, emptied first, so a route's arcs share one allocation.
    func unpack(from a: Int, to b: Int, _ arc: HierarchyArc, in rows: ArcRows, into edges: inout [UInt32],
                pending: inout [PendingArc], isMove: (_ from: Int, _ to: Int, _ edge: UInt32) -> Bool) -> ArcRows? {
        pending.removeAll(keepingCapacity: true)
        pending.append((a, b, arc, rows))
        while let (a, b, arc, rows) = pending.popLast() {
            if !arc.isShortcut {
                guard isMove(a, b, arc.edge) else { return rows }
                edges.append(arc.edge)
                continue
            }
            let m = Int(arc.middle)
            // a→m is stored at m among its downward arcs (a was contracted later), m→b among m's upward arcs.
            // (m is below the vertex whose row holds the arc, `validateStructure`: a vertex, and unpacking ends.)
            var first: HierarchyArc? = nil
            for i in Int(firstDown[m])..<Int(firstDown[m + 1]) where Int(down[i].head) == a {
                if first == nil || down[i].time < first!.time { first = down[i] }
            }
            var second: HierarchyArc? = nil
            for i in Int(firstUp[m])..<Int(firstUp[m + 1]) where Int(up[i].head) == b {
                if second == nil || up[i].time < second!.time { second = up[i] }
            }
            guard let first, let second else { return rows }
            pending.append((m, b, second, .up))
            pending.append((a, m, first, .down))
        }
        return nil
    }

    // MARK: - Checks of a hierarchy read from a file

    /// Checks what the searches follow, at every open: ranks number the vertices once each; every row's offsets start
    /// at 0, never go back and end at the arc count; every arc leads to a vertex contracted later (so searches only
    /// climb); every shortcut's middle vertex was contracted before both its ends (so unpacking ends); every original
    /// arc names a directed edge of the graph. That a shortcut's halves exist and an original arc is a move of the
    /// graph, unpacking checks for the arcs of each route it unpacks (`unpack`); `validate(against:)` checks both
    /// for every arc (`wayfinder info`).
    func validateStructure(_ check: SectionValidator, _ names: HierarchySectionNames, edgeCount: Int) throws(GraphFileError) {
        let v = rank.count
        try check.require(v < Int(Int32.max), names.rank, "has \(v) vertices, more than a search can number")
        try check.require(up.count < Int(Int32.max), names.up, "has \(up.count) arcs, more than a search can number")
        try check.require(down.count < Int(Int32.max), names.down, "has \(down.count) arcs, more than a search can number")
        try check.require(up.count + down.count < Int(Int32.max), names.down, "has \(down.count) arcs, which with the \(up.count) upward ones are more than a search can number")
        try check.offsets(firstUp, names.firstUp, slices: v, total: up.count, "vertex")
        try check.offsets(firstDown, names.firstDown, slices: v, total: down.count, "vertex")
        // Scratch memory, raw: these loops run at every open, over every arc (no array bounds or uniqueness checks).
        let seen = UnsafeMutableBufferPointer<Bool>.allocate(capacity: max(v, 1))
        seen.initialize(repeating: false)
        defer { seen.deallocate() }
        for (i, r) in rank.enumerated() {
            guard Int(r) < v, !seen[Int(r)] else {
                throw check.failure(names.rank, "element \(i) is \(r): the ranks must number the \(v) vertices 0 to \(v - 1) once each")
            }
            seen[Int(r)] = true
        }
        let directedEdges = UInt32(truncatingIfNeeded: 2 * edgeCount)
        let vertices = UInt32(truncatingIfNeeded: v)
        /// Checks every arc of the rows (heads climb, shortcuts' middles were contracted first, original edges exist).
        func checkRows(_ arcs: UnsafeBufferPointer<HierarchyArc>, _ first: UnsafeBufferPointer<UInt32>, _ section: String) throws(GraphFileError) {
            for r in 0..<v {
                let row = UInt32(truncatingIfNeeded: r)
                for i in Int(first[r])..<Int(first[r + 1]) {
                    let arc = arcs[i]
                    guard arc.head > row, arc.head < vertices else {
                        throw check.failure(section, "arc \(i), of vertex \(r), leads to vertex \(arc.head): not one of the \(v) vertices contracted after it")
                    }
                    if arc.isShortcut {
                        guard arc.middle < row else {
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
    }

    /// Checks that every shortcut has both its halves (what unpacking a route also checks as it goes): for
    /// `wayfinder info`'s full check (`validate(against:)`). Linear in the arcs, whatever the rows' lengths.
    func validateHalves(_ check: SectionValidator, _ names: HierarchySectionNames) throws(GraphFileError) {
        let v = rank.count
        let byMiddle = UnsafeMutableBufferPointer<Int32>.allocate(capacity: v + 1)
        byMiddle.initialize(repeating: 0)
        defer { byMiddle.deallocate() }
        for arc in up where arc.isShortcut { byMiddle[Int(arc.middle) + 1] &+= 1 }
        for arc in down where arc.isShortcut { byMiddle[Int(arc.middle) + 1] &+= 1 }
        // Halves: u→x past m needs u→m among m's downward arcs (head u) and m→x among m's upward arcs (head x).
        // The shortcuts are grouped by middle vertex (a counting sort), then each middle's rows are marked once:
        // linear in the arcs, whatever the rows' lengths.
        for m in 0..<v { byMiddle[m + 1] &+= byMiddle[m] }
        let shortcuts = Int(byMiddle[v])
        /// Per shortcut, grouped by middle: the heads its halves need (down, up) and the arc (downward arcs negative, −1 − index).
        let needs = UnsafeMutableBufferPointer<(down: Int32, up: Int32, arc: Int32)>.allocate(capacity: max(shortcuts, 1))
        defer { needs.deallocate() }
        let fill = UnsafeMutableBufferPointer<Int32>.allocate(capacity: v + 1)
        _ = fill.initialize(from: byMiddle)
        defer { fill.deallocate() }
        for r in 0..<v {
            for i in Int(firstUp[r])..<Int(firstUp[r + 1]) where up[i].isShortcut {
                let m = Int(up[i].middle)
                (needs.baseAddress! + Int(fill[m])).initialize(to: (Int32(r), Int32(up[i].head), Int32(i))); fill[m] += 1
            }
            for i in Int(firstDown[r])..<Int(firstDown[r + 1]) where down[i].isShortcut {
                let m = Int(down[i].middle)
                (needs.baseAddress! + Int(fill[m])).initialize(to: (Int32(down[i].head), Int32(r), -1 - Int32(i))); fill[m] += 1
            }
        }
        let upMark = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(v, 1)), downMark = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(v, 1))
        upMark.initialize(repeating: -1); downMark.initialize(repeating: -1)
        defer { upMark.deallocate(); downMark.deallocate() }
        for m in 0..<v where byMiddle[m] < byMiddle[m + 1] {
            let mark = Int32(m)
            for i in Int(firstUp[m])..<Int(firstUp[m + 1]) { upMark[Int(up[i].head)] = mark }
            for i in Int(firstDown[m])..<Int(firstDown[m + 1]) { downMark[Int(down[i].head)] = mark }
            for k in Int(byMiddle[m])..<Int(byMiddle[m + 1]) {
                let need = needs[k]
                guard downMark[Int(need.down)] == mark, upMark[Int(need.up)] == mark else {
                    let (section, index) = need.arc >= 0 ? (names.up, Int(need.arc)) : (names.down, Int(-1 - need.arc))
                    throw check.failure(section, "arc \(index), a shortcut \(need.down)→\(need.up) past vertex \(m), lacks a half")
                }
            }
        }
    }

    /// Checks the whole hierarchy against the vertices of the profile it was read for: as many vertices, every
    /// shortcut's halves present, and every original arc a move a plain search could make (so an unpacked route is
    /// a route of the graph, turn rules and barriers included). Throws naming the section at fault. `wayfinder info`
    /// runs it; a `Router` leaves these checks to unpacking, which makes them for the arcs a route follows.
    public func validate(against states: HierarchyStates, path: String, profile name: String) throws(GraphFileError) {
        let names = HierarchySectionNames(name)
        let check = SectionValidator(path: path)
        let v = vertexCount
        try check.require(v == states.count, names.rank, "has \(v) vertices, the profile's graph has \(states.count)")
        try validateHalves(check, names)
        let vertexOfRank = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(v, 1))
        vertexOfRank.initialize(repeating: 0)
        defer { vertexOfRank.deallocate() }
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
