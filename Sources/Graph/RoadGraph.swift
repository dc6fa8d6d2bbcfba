import Foundation

/// The road graph of an opened graph file: typed views straight into the mapped memory.
public struct RoadGraph: @unchecked Sendable {
    /// The mapped file (kept alive as long as the views are used).
    public let file: GraphFile
    public let metadata: GraphMetadata

    public let nodeLatitudes: UnsafeBufferPointer<Int32>
    public let nodeLongitudes: UnsafeBufferPointer<Int32>
    public let nodeOSMIDs: UnsafeBufferPointer<Int64>
    public let nodeFlags: UnsafeBufferPointer<UInt8>
    public let edgeFrom: UnsafeBufferPointer<UInt32>
    public let edgeTo: UnsafeBufferPointer<UInt32>
    public let edgeLengthMillimetres: UnsafeBufferPointer<UInt32>
    public let edgeWay: UnsafeBufferPointer<UInt32>
    public let edgeShapeStart: UnsafeBufferPointer<UInt32>
    public let shapeLatitudes: UnsafeBufferPointer<Int32>
    public let shapeLongitudes: UnsafeBufferPointer<Int32>
    public let wayOSMIDs: UnsafeBufferPointer<Int64>
    public let wayNames: UnsafeBufferPointer<UInt32>
    public let wayRefs: UnsafeBufferPointer<UInt32>
    public let wayClasses: UnsafeBufferPointer<UInt8>
    public let stringStart: UnsafeBufferPointer<UInt32>
    public let stringBytes: UnsafeBufferPointer<UInt8>
    /// One graph per profile, in the order of `metadata.profiles`.
    public let profiles: [ProfileGraph]
    /// The spatial index over edge segments.
    public let spatialIndex: SpatialIndex

    /// Opens and maps a graph file, verifies every section's checksum and checks the indices the engines follow
    /// (`init(file:)`); throws naming the file and the section at fault.
    public init(path: String) throws(GraphFileError) {
        try self.init(file: GraphFile(path: path))
    }

    /// Builds the typed views over an opened file. First, unless `verifyingChecksums` is false (`wayfinder info
    /// --no-verify`), the file verifies each section's CRC-32 the first time it is handed out
    /// (`GraphFile.verifyOnAccess()`: once per section, and only for the sections a command reads — the hierarchy
    /// of a profile not routed, or the timetable, is never read), so no damaged byte is ever used; then every index and offset array is checked against what it
    /// indexes (`validateStructure()`), so that not even a file with matching checksums and hostile contents can
    /// make a search read outside a section.
    public init(file: GraphFile, verifyingChecksums: Bool = true) throws(GraphFileError) {
        if verifyingChecksums { file.verifyOnAccess() }
        try self.init(views: file)
        try validateStructure()
    }

    /// The typed views alone, without checksums or structural checks: what opening cost before the checks, for
    /// `Tools/bench-open` to measure them against. Never for files one has not just checked.
    @_spi(Benchmarks) public init(uncheckedFile file: GraphFile) throws(GraphFileError) {
        try self.init(views: file)
    }

    /// Decodes the metadata and sets up the typed views over `file` (sizes and indices unchecked).
    private init(views file: GraphFile) throws(GraphFileError) {
        self.file = file
        let meta = try file.bytes(GraphSectionName.meta)
        do {
            metadata = try JSONDecoder().decode(GraphMetadata.self, from: Data(meta))
        } catch {
            throw .invalidSection(path: file.path, section: GraphSectionName.meta, problem: "does not decode: \(error)")
        }
        nodeLatitudes = try file.array(GraphSectionName.nodeLatitudes)
        nodeLongitudes = try file.array(GraphSectionName.nodeLongitudes)
        nodeOSMIDs = try file.array(GraphSectionName.nodeOSMIDs)
        nodeFlags = try file.array(GraphSectionName.nodeFlags)
        edgeFrom = try file.array(GraphSectionName.edgeFrom)
        edgeTo = try file.array(GraphSectionName.edgeTo)
        edgeLengthMillimetres = try file.array(GraphSectionName.edgeLength)
        edgeWay = try file.array(GraphSectionName.edgeWay)
        edgeShapeStart = try file.array(GraphSectionName.edgeShapeStart)
        shapeLatitudes = try file.array(GraphSectionName.shapeLatitudes)
        shapeLongitudes = try file.array(GraphSectionName.shapeLongitudes)
        wayOSMIDs = try file.array(GraphSectionName.wayOSMIDs)
        wayNames = try file.array(GraphSectionName.wayNames)
        wayRefs = try file.array(GraphSectionName.wayRefs)
        wayClasses = try file.array(GraphSectionName.wayClasses)
        stringStart = try file.array(GraphSectionName.stringStart)
        stringBytes = try file.array(GraphSectionName.stringBytes)
        guard metadata.profiles.count <= 7 else {
            throw .invalidSection(path: file.path, section: GraphSectionName.meta, problem: "lists \(metadata.profiles.count) profiles (a graph file holds 1 to 7)")
        }
        var profiles: [ProfileGraph] = []
        for (index, profile) in metadata.profiles.enumerated() {
            let names = GraphSectionName.Profile(profile.name)
            profiles.append(ProfileGraph(
                profile: profile, index: index,
                timeForward: try file.array(names.timeForward), timeBackward: try file.array(names.timeBackward),
                firstIncidence: try file.array(names.firstIncidence), incidence: try file.array(names.incidence),
                island: try file.array(names.island),
                landmarkFrom: try file.array(names.landmarkFrom), landmarkTo: try file.array(names.landmarkTo),
                landmarkNodes: try file.array(names.landmarkNodes),
                restrictionKinds: try file.array(names.restrictionKinds), restrictionStart: try file.array(names.restrictionStart),
                restrictionPath: try file.array(names.restrictionPath)))
        }
        self.profiles = profiles
        spatialIndex = SpatialIndex(items: try file.array(GraphSectionName.indexItems), boxes: try file.array(GraphSectionName.indexBoxes),
                                    levelStart: try file.array(GraphSectionName.indexLevels))
    }

    public var nodeCount: Int { nodeLatitudes.count }
    public var edgeCount: Int { edgeFrom.count }

    /// The profile graph called `name`, if the file has it.
    public func profile(named name: String) -> ProfileGraph? { profiles.first { $0.profile.name == name } }

    /// String i of the string table ("" for 0).
    public func string(_ index: UInt32) -> String {
        let start = Int(stringStart[Int(index)]), end = Int(stringStart[Int(index) + 1])
        return String(decoding: UnsafeBufferPointer(rebasing: stringBytes[start..<end]), as: UTF8.self)
    }

    /// The full polyline of edge e (both end nodes included) as (latitude, longitude) in 1e-7 degrees.
    public func polyline(ofEdge e: Int) -> [(latitude: Int32, longitude: Int32)] {
        var points = [(nodeLatitudes[Int(edgeFrom[e])], nodeLongitudes[Int(edgeFrom[e])])]
        for k in Int(edgeShapeStart[e])..<Int(edgeShapeStart[e + 1]) { points.append((shapeLatitudes[k], shapeLongitudes[k])) }
        points.append((nodeLatitudes[Int(edgeTo[e])], nodeLongitudes[Int(edgeTo[e])]))
        return points
    }

    /// The edge a spatial-index segment id belongs to, and the segment's position along that edge.
    public func edge(ofSegment segment: UInt32) -> (edge: Int, position: Int) {
        var low = 0, high = edgeCount - 1
        while low < high {
            let mid = (low + high + 1) >> 1
            if Int(edgeShapeStart[mid]) + mid <= Int(segment) { low = mid } else { high = mid - 1 }
        }
        return (low, Int(segment) - Int(edgeShapeStart[low]) - low)
    }
}

/// One profile's view of the graph: per-edge travel times, incidence lists and restrictions.
public struct ProfileGraph: @unchecked Sendable {
    public let profile: TravelProfile
    /// Position of the profile in the file (its bit in the node flags).
    public let index: Int
    public let timeForward: UnsafeBufferPointer<UInt32>
    public let timeBackward: UnsafeBufferPointer<UInt32>
    public let firstIncidence: UnsafeBufferPointer<UInt32>
    public let incidence: UnsafeBufferPointer<UInt32>
    /// 1 for nodes on a small island of road (not the main network) for this profile.
    public let island: UnsafeBufferPointer<UInt8>
    /// ALT tables: whole seconds (rounded down) from landmark k to node n at `landmarkFrom[n × landmarkCount + k]`,
    /// and from node n to landmark k in `landmarkTo`; empty when the graph was imported without them.
    public let landmarkFrom: UnsafeBufferPointer<UInt16>
    public let landmarkTo: UnsafeBufferPointer<UInt16>
    public let landmarkNodes: UnsafeBufferPointer<UInt32>
    /// Number of landmarks (0 when the tables are absent).
    public var landmarkCount: Int { landmarkNodes.count }
    public let restrictionKinds: UnsafeBufferPointer<UInt8>
    public let restrictionStart: UnsafeBufferPointer<UInt32>
    public let restrictionPath: UnsafeBufferPointer<UInt32>

    /// Whether graph node n is closed to this profile (a barrier it cannot pass).
    @inlinable public func isBlocked(_ flags: UInt8) -> Bool { flags & (1 << UInt8(index)) != 0 }

    /// Number of turn restrictions.
    public var restrictionCount: Int { restrictionKinds.count }

    /// Restriction r's kind and directed-edge path.
    public func restriction(_ r: Int) -> (kind: RestrictionKind, path: [UInt32]) {
        (RestrictionKind(rawValue: restrictionKinds[r]) ?? .prohibitory,
         Array(restrictionPath[Int(restrictionStart[r])..<Int(restrictionStart[r + 1])]))
    }
}

/// Names of the sections of a graph file.
public enum GraphSectionName {
    public static let meta = "meta"
    public static let nodeLatitudes = "node.lat"
    public static let nodeLongitudes = "node.lon"
    public static let nodeOSMIDs = "node.osm_id"
    public static let nodeFlags = "node.flags"
    public static let edgeFrom = "edge.from"
    public static let edgeTo = "edge.to"
    public static let edgeLength = "edge.length_mm"
    public static let edgeWay = "edge.way"
    public static let edgeShapeStart = "edge.shape_start"
    public static let shapeLatitudes = "shape.lat"
    public static let shapeLongitudes = "shape.lon"
    public static let wayOSMIDs = "way.osm_id"
    public static let wayNames = "way.name"
    public static let wayRefs = "way.ref"
    public static let wayClasses = "way.class"
    public static let stringStart = "string.start"
    public static let stringBytes = "string.bytes"
    public static let indexItems = "index.items"
    public static let indexBoxes = "index.boxes"
    public static let indexLevels = "index.levels"

    /// The longest profile name: the section names of a profile, its own and its hierarchy's (the longest,
    /// `<name>.ch_down_first`, adds 14 bytes), must fit the file's 24-byte section names.
    public static let maxProfileNameLength = GraphFileFormat.maxNameLength - ".ch_down_first".utf8.count

    /// The section names of one profile (`car.time_fwd`…).
    public struct Profile {
        public let timeForward, timeBackward, firstIncidence, incidence, island, landmarkFrom, landmarkTo, landmarkNodes: String
        public let restrictionKinds, restrictionStart, restrictionPath: String
        public init(_ name: String) {
            timeForward = "\(name).time_fwd"
            timeBackward = "\(name).time_bwd"
            firstIncidence = "\(name).inc_first"
            incidence = "\(name).inc"
            island = "\(name).island"
            landmarkFrom = "\(name).alt_from"
            landmarkTo = "\(name).alt_to"
            landmarkNodes = "\(name).alt_nodes"
            restrictionKinds = "\(name).restr_kind"
            restrictionStart = "\(name).restr_start"
            restrictionPath = "\(name).restr_path"
        }
    }
}
