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
    public init?(graph: RoadGraph, profile name: String) throws(GraphFileError) {
        let names = HierarchySectionNames(name)
        guard graph.file.has(names.firstUp) else { return nil }
        rank = try graph.file.array(names.rank)
        firstUp = try graph.file.array(names.firstUp)
        up = try graph.file.array(names.up)
        firstDown = try graph.file.array(names.firstDown)
        down = try graph.file.array(names.down)
        owner = nil
        guard firstUp.count == firstDown.count, firstUp.count >= 1, rank.count == firstUp.count - 1, Int(firstUp[firstUp.count - 1]) == up.count,
              Int(firstDown[firstDown.count - 1]) == down.count else {
            throw .corrupt(path: graph.file.path, message: "the contraction hierarchy of profile '\(name)' is inconsistent")
        }
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
    func unpack(from a: Int, to b: Int, _ arc: HierarchyArc, into edges: inout [UInt32]) {
        if !arc.isShortcut { edges.append(arc.edge); return }
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
        guard let first, let second else { preconditionFailure("contraction hierarchy: shortcut \(a)→\(b) via \(m) has no halves") }
        unpack(from: a, to: m, first, into: &edges)
        unpack(from: m, to: b, second, into: &edges)
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

    /// Appends a built hierarchy's sections to a graph file being written.
    public func write(_ data: HierarchyData, to writer: GraphFileWriter) throws(GraphFileError) {
        try writer.append(rank, data.rank)
        try writer.append(firstUp, data.firstUp)
        try writer.append(up, data.up)
        try writer.append(firstDown, data.firstDown)
        try writer.append(down, data.down)
    }
}
