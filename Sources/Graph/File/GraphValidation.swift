/// Checks of what a section says against what the engines do with it, naming the section at fault.
///
/// Checksums catch damage; these checks catch a file whose checksums were made to match contents that are not
/// what `wayfinder import` writes (a hostile or hand-made file): every index a search, the snapper or the route
/// assembly follows is checked against the size of what it indexes, every offset array is checked to start at 0,
/// never go back and end at the length of what it slices, so no later read can leave its buffer.
public struct SectionValidator: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The error for `section`, saying what is wrong with it.
    public func failure(_ section: String, _ problem: String) -> GraphFileError {
        .invalidSection(path: path, section: section, problem: problem)
    }

    /// Throws unless `condition` holds.
    @inline(__always)
    public func require(_ condition: Bool, _ section: String, _ problem: @autoclosure () -> String) throws(GraphFileError) {
        if !condition { throw failure(section, problem()) }
    }

    /// Throws unless the section has `expected` elements.
    public func count<T>(_ buffer: UnsafeBufferPointer<T>, _ section: String, _ expected: Int, _ what: String) throws(GraphFileError) {
        if buffer.count != expected { throw failure(section, "has \(buffer.count) elements, expected \(expected) (\(what))") }
    }

    /// Throws unless every element is below `bound`.
    public func below(_ buffer: UnsafeBufferPointer<UInt32>, _ bound: Int, _ section: String, _ what: String) throws(GraphFileError) {
        guard bound <= Int(UInt32.max) else { return }
        let limit = UInt32(max(0, bound))
        var i = 0
        for value in buffer {
            if value >= limit { throw failure(section, "element \(i) is \(value), not below \(bound) (\(what))") }
            i += 1
        }
    }

    /// Throws unless the section is an offset array over `total` elements: one more element than `slices`, starting
    /// at 0, never decreasing, ending at `total`.
    public func offsets(_ buffer: UnsafeBufferPointer<UInt32>, _ section: String, slices: Int, total: Int, _ what: String) throws(GraphFileError) {
        try count(buffer, section, slices + 1, "one per \(what), plus one")
        if buffer[0] != 0 { throw failure(section, "starts at \(buffer[0]), not 0") }
        var previous: UInt32 = 0
        var i = 0
        for value in buffer {
            if value < previous { throw failure(section, "goes back at element \(i) (\(value) after \(previous))") }
            previous = value
            i += 1
        }
        if Int(previous) != total { throw failure(section, "ends at \(previous), not at \(total) (the end of what it slices)") }
    }

    /// Throws unless every coordinate of the section lies within ±`limit` (1e-7 degrees).
    public func coordinates(_ buffer: UnsafeBufferPointer<Int32>, _ section: String, limit: Int32) throws(GraphFileError) {
        var i = 0
        for value in buffer {
            if value < -limit || value > limit { throw failure(section, "element \(i) is \(value), outside ±\(limit) (1e-7 degrees)") }
            i += 1
        }
    }
}

extension RoadGraph {
    /// Most latitude and longitude, 1e-7 degrees.
    static let latitudeLimit: Int32 = 900_000_000, longitudeLimit: Int32 = 1_800_000_000

    /// Checks every section of the road graph against the others (`SectionValidator`); throws naming the first
    /// section at fault. Linear in the file's size; `init(file:)` runs it on every open.
    public func validateStructure() throws(GraphFileError) {
        let check = SectionValidator(path: file.path)
        typealias S = GraphSectionName
        let n = nodeLatitudes.count, e = edgeFrom.count, s = shapeLatitudes.count, w = wayOSMIDs.count

        // Sizes. Node and directed-edge ids are UInt32, search states Int32.
        try check.require(n < Int(Int32.max), S.nodeLatitudes, "has \(n) nodes, more than a graph file can number")
        try check.require(e < Int(Int32.max) / 2, S.edgeFrom, "has \(e) edges, more than a graph file can number")
        try check.count(nodeLongitudes, S.nodeLongitudes, n, "one per node")
        try check.count(nodeOSMIDs, S.nodeOSMIDs, n, "one per node")
        try check.count(nodeFlags, S.nodeFlags, n, "one per node")
        try check.count(edgeTo, S.edgeTo, e, "one per edge")
        try check.count(edgeLengthMillimetres, S.edgeLength, e, "one per edge")
        try check.count(edgeWay, S.edgeWay, e, "one per edge")
        try check.count(shapeLongitudes, S.shapeLongitudes, s, "one per shape point")
        try check.count(wayNames, S.wayNames, w, "one per way")
        try check.count(wayRefs, S.wayRefs, w, "one per way")
        try check.count(wayClasses, S.wayClasses, w, "one per way")
        try check.require(stringStart.count >= 1, S.stringStart, "is empty (it needs at least the end of string 0)")

        // Positions (all geometry works in degrees on the sphere).
        try check.coordinates(nodeLatitudes, S.nodeLatitudes, limit: Self.latitudeLimit)
        try check.coordinates(nodeLongitudes, S.nodeLongitudes, limit: Self.longitudeLimit)
        try check.coordinates(shapeLatitudes, S.shapeLatitudes, limit: Self.latitudeLimit)
        try check.coordinates(shapeLongitudes, S.shapeLongitudes, limit: Self.longitudeLimit)

        // Indices and offsets.
        try check.below(edgeFrom, n, S.edgeFrom, "the nodes")
        try check.below(edgeTo, n, S.edgeTo, "the nodes")
        try check.below(edgeWay, w, S.edgeWay, "the ways")
        try check.offsets(edgeShapeStart, S.edgeShapeStart, slices: e, total: s, "edge")
        try check.offsets(stringStart, S.stringStart, slices: stringStart.count - 1, total: stringBytes.count, "string")
        let strings = stringStart.count - 1
        try check.below(wayNames, strings, S.wayNames, "the strings")
        try check.below(wayRefs, strings, S.wayRefs, "the strings")

        // Profiles: a bit each in node.flags (bit 7 is the barrier tag), names unique.
        try check.require(!profiles.isEmpty && profiles.count <= 7, S.meta, "lists \(profiles.count) profiles (a graph file holds 1 to 7)")
        try check.require(Set(profiles.map(\.profile.name)).count == profiles.count, S.meta, "lists a profile twice")
        for profile in profiles { try profile.validate(in: self, check) }

        // Spatial index: items name segments; each level's boxes cover the level below, 16 at a time, up to one root.
        let segments = s + e
        try check.below(spatialIndex.items, segments, S.indexItems, "the edge segments")
        try check.require(spatialIndex.boxes.count % 4 == 0, S.indexBoxes, "has \(spatialIndex.boxes.count) values, not 4 per box")
        try check.require(spatialIndex.levelStart.count >= 1, S.indexLevels, "is empty")
        try check.offsets(spatialIndex.levelStart, S.indexLevels, slices: spatialIndex.levelStart.count - 1,
                          total: spatialIndex.boxes.count / 4, "level")
        try check.require(spatialIndex.levelCount > 0 || spatialIndex.items.isEmpty, S.indexLevels, "gives no level over \(spatialIndex.items.count) items")
        let fanout = SpatialIndexData.nodeSize
        var below = spatialIndex.items.count
        for level in 0..<spatialIndex.levelCount {
            let boxes = Int(spatialIndex.levelStart[level + 1]) - Int(spatialIndex.levelStart[level])
            let expected = (below + fanout - 1) / fanout
            try check.require(boxes == expected && below > (level == 0 ? 0 : 1), S.indexLevels,
                              "gives level \(level) \(boxes) boxes over \(below) \(level == 0 ? "items" : "boxes"), expected \(expected)")
            below = boxes
        }
        try check.require(below <= 1, S.indexLevels, "ends with \(below) boxes at the top, not one root")
    }
}

extension ProfileGraph {
    /// Checks this profile's sections against the graph's (see `RoadGraph.validateStructure()`).
    func validate(in graph: RoadGraph, _ check: SectionValidator) throws(GraphFileError) {
        let names = GraphSectionName.Profile(profile.name)
        let n = graph.nodeCount, e = graph.edgeCount
        try check.count(timeForward, names.timeForward, e, "one per edge")
        try check.count(timeBackward, names.timeBackward, e, "one per edge")
        try check.count(island, names.island, n, "one per node")
        // Incidence lists: entry `edge << 1 | side` at node v names an edge that leaves v on that side.
        try check.offsets(firstIncidence, names.firstIncidence, slices: n, total: incidence.count, "node")
        for v in 0..<n {
            for position in Int(firstIncidence[v])..<Int(firstIncidence[v + 1]) {
                let entry = incidence[position], edge = Int(entry >> 1)
                guard edge < e else {
                    throw check.failure(names.incidence, "element \(position) names edge \(edge), not below \(e) (the edges)")
                }
                let tail = entry & 1 == 0 ? graph.edgeFrom[edge] : graph.edgeTo[edge]
                guard Int(tail) == v else {
                    throw check.failure(names.incidence, "element \(position), in the list of node \(v), names a side of edge \(edge) at node \(tail)")
                }
            }
        }
        // Landmarks: K nodes, tables of N × K.
        let k = landmarkCount
        try check.below(landmarkNodes, n, names.landmarkNodes, "the nodes")
        let (cells, overflow) = n.multipliedReportingOverflow(by: k)
        try check.require(!overflow, names.landmarkNodes, "lists \(k) landmarks, too many for \(n) nodes")
        try check.count(landmarkFrom, names.landmarkFrom, cells, "\(k) per node")
        try check.count(landmarkTo, names.landmarkTo, cells, "\(k) per node")
        // Restrictions: kinds 0 or 1, paths of directed edges of the graph (a search matches them as sequences only).
        let r = restrictionKinds.count
        try check.offsets(restrictionStart, names.restrictionStart, slices: r, total: restrictionPath.count, "restriction")
        for (i, kind) in restrictionKinds.enumerated() where kind > 1 {
            throw check.failure(names.restrictionKinds, "element \(i) is \(kind), neither 0 (prohibitory) nor 1 (mandatory)")
        }
        try check.require(restrictionPath.count < Int(Int32.max) - 2 * e, names.restrictionPath, "is too long")
        try check.below(restrictionPath, 2 * e, names.restrictionPath, "the directed edges")
    }
}
