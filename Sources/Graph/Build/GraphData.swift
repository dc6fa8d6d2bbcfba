/// The road graph as plain arrays (structure of arrays), as the builder makes it and the writer stores it.
///
/// Edges are undirected records; each profile says per edge how long each direction takes (or that it is closed).
public struct GraphData: Sendable {
    /// Graph node positions (1e-7 degrees), OSM ids and flags (bit p: closed to profile p; bit 7: barrier).
    public var nodeLatitudes: [Int32] = []
    public var nodeLongitudes: [Int32] = []
    public var nodeOSMIDs: [Int64] = []
    public var nodeFlags: [UInt8] = []

    /// Edge endpoints (graph node indices), length in millimetres and the way it belongs to.
    public var edgeFrom: [UInt32] = []
    public var edgeTo: [UInt32] = []
    public var edgeLengthMillimetres: [UInt32] = []
    public var edgeWay: [UInt32] = []
    /// Edge e's intermediate points are shape points `edgeShapeStart[e] ..< edgeShapeStart[e + 1]`.
    public var edgeShapeStart: [UInt32] = [0]
    public var shapeLatitudes: [Int32] = []
    public var shapeLongitudes: [Int32] = []

    /// Per way: OSM id, name and ref (string table indices), highway class.
    public var wayOSMIDs: [Int64] = []
    public var wayNames: [UInt32] = []
    public var wayRefs: [UInt32] = []
    public var wayClasses: [UInt8] = []

    /// The string table: string i is `stringBytes[stringStart[i] ..< stringStart[i + 1]]` (UTF-8).
    public var stringStart: [UInt32] = [0]
    public var stringBytes: [UInt8] = []

    /// One graph per profile, over the shared edges.
    public var profiles: [ProfileGraphData] = []

    /// The spatial index over all edge segments.
    public var spatialIndex = SpatialIndexData()

    public init() {}
}

/// A profile's view of the shared edges: travel times, incidence lists and turn restrictions.
public struct ProfileGraphData: Sendable {
    public var name: String
    /// Travel time in milliseconds from `edgeFrom` to `edgeTo` and back; `closedEdge` where the direction is closed.
    public var timeForward: [UInt32] = []
    public var timeBackward: [UInt32] = []
    /// Edges incident to node n that this profile may use: `incidence[firstIncidence[n] ..< firstIncidence[n + 1]]`,
    /// each `edge << 1 | side` where side 0 means n is the edge's `from`, 1 its `to`.
    public var firstIncidence: [UInt32] = []
    public var incidence: [UInt32] = []
    /// Turn restrictions: restriction r is kind `restrictionKinds[r]` over the directed-edge path
    /// `restrictionPath[restrictionStart[r] ..< restrictionStart[r + 1]]`.
    /// 1 for nodes on a small island of road for this profile (see `docs/graph-format.md`), else 0.
    public var island: [UInt8] = []
    /// ALT landmark tables (see `LandmarkBuilder`): seconds from each landmark to each node and back, node-major;
    /// empty when the import skipped them.
    public var landmarkFrom: [UInt16] = []
    public var landmarkTo: [UInt16] = []
    public var landmarkNodes: [UInt32] = []
    public var restrictionKinds: [UInt8] = []
    public var restrictionStart: [UInt32] = [0]
    public var restrictionPath: [UInt32] = []

    public init(name: String) { self.name = name }
}

/// Marks a closed direction in the per-profile time arrays.
public let closedEdge = UInt32.max

/// The longest time (milliseconds, about 49.7 days) or length (millimetres, about 4,295 km) an edge, a shortcut or a
/// preprocessing search may hold: one below `closedEdge`.
public let longestTime = UInt32.max - 1

extension UInt32 {
    /// `self + other` for times and lengths, stopping at `longestTime` where the sum would pass it: a sum that wrapped
    /// round would make a path across a misplaced node (thousands of kilometres out and back) look a few seconds long.
    @inline(__always) public func addingSaturated(_ other: UInt32) -> UInt32 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow || sum > longestTime ? longestTime : sum
    }
}

/// The two kinds of turn restriction, as stored.
public enum RestrictionKind: UInt8, Sendable {
    /// The path may not be driven (`no_*`).
    case prohibitory = 0
    /// Having driven the path up to its last edge, the last edge is the only way on (`only_*`).
    case mandatory = 1
}

/// A directed edge reference as stored in restriction paths: `edge << 1 | 1` when driven from `to` to `from`.
@inlinable public func directedEdge(_ edge: UInt32, reversed: Bool) -> UInt32 { edge << 1 | (reversed ? 1 : 0) }
