/// What an import read, built and skipped: printed as the import summary and kept in the graph file.
public struct ImportStatistics: Codable, Equatable, Sendable {
    /// Figures for one profile's graph.
    public struct ProfileFigures: Codable, Equatable, Sendable {
        public var name: String
        /// Graph nodes with at least one edge this profile may use.
        public var nodes = 0
        /// Edges this profile may use in at least one direction.
        public var edges = 0
        /// Directed edges: each usable direction counted once.
        public var directedEdges = 0
        /// Length of the usable road, kilometres.
        public var kilometres = 0.0
        /// Turn restrictions kept for this profile (via node, via way).
        public var restrictionsViaNode = 0
        public var restrictionsViaWay = 0
        /// The highest speed of any edge, km/h (the bound for A*'s heuristic).
        public var maximumSpeed = 0.0
        public init(name: String) { self.name = name }
    }

    public var nodesRead = 0
    public var waysRead = 0
    public var relationsRead = 0
    /// Nodes dropped because their id appeared before.
    public var nodesDuplicate = 0
    /// Ways without a routable tagging for any profile, with a `highway` tag.
    public var waysUnroutable = 0
    /// Ways that are not roads at all (no `highway` tag: buildings, landuse…).
    public var waysNotRoads = 0
    /// Ways whose id appeared before (the later copy is ignored).
    public var waysDuplicate = 0
    /// Routable ways that lost segments because they reference nodes absent from the extract.
    public var waysWithMissingNodes = 0
    /// Segments dropped for a missing node.
    public var segmentsDropped = 0
    /// Segments a way ran along again in the same direction (1,2,1,2,…), made into one edge instead of parallel copies.
    public var repeatedSegmentsMerged = 0
    /// Routable ways dropped entirely: fewer than two of their nodes are present.
    public var waysWithoutGeometry = 0
    /// `maxspeed` values that did not parse (the table speed was used).
    public var maxspeedIgnored = 0
    /// `oneway` values that did not parse (treated as absent).
    public var onewayIgnored = 0
    /// Restrictions that exempt the mode (`except=motorcar`).
    public var restrictionsExempt = 0
    /// Restrictions skipped: members missing from the extract, not connected, or an unknown value.
    public var restrictionsSkipped = 0
    /// Why restrictions were skipped (nil in graph files written before the reasons were counted).
    public var restrictionSkips: RestrictionSkips?

    /// The restrictions skipped, by reason; each relation counted once, under its first reason.
    public struct RestrictionSkips: Codable, Equatable, Sendable {
        /// A member (`from`, `to`, `via`) absent from the file, or not a road any profile may use: typical of a clipped file.
        public var missingMember = 0
        /// The `from` or `to` way no longer touches the via node (or via way), or the via ways do not join: a clipped
        /// way that lost its end at the junction, or a mapping error.
        public var disconnected = 0
        /// An unknown restriction value, or members of the wrong kind or number.
        public var malformed = 0
        public init() {}
    }
    /// Graph nodes (all profiles), edges and shape points.
    public var graphNodes = 0
    public var graphEdges = 0
    public var shapePoints = 0
    /// Per-profile graph figures.
    public var profiles: [ProfileFigures] = []
    /// Bounding box of the graph's nodes: minimum and maximum latitude and longitude, 1e-7 degrees.
    public var minLatitude: Int32 = 0
    public var minLongitude: Int32 = 0
    public var maxLatitude: Int32 = 0
    public var maxLongitude: Int32 = 0

    public init() {}
}
