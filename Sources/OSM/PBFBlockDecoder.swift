/// The elements of one decoded `OSMData` block, grouped as in the file (each primitive group holds one kind).
public struct PBFElements: Sendable {
    public enum Group: Sendable {
        case nodes([OSMNode])
        case ways([OSMWay])
        case relations([OSMRelation])
    }

    public var groups: [Group] = []
    /// Elements skipped because their `visible` flag is false (deleted).
    public var deletedCount = 0

    public init() {}
}

/// What an `OSMHeader` block says that matters for reading the rest.
public struct PBFHeader: Equatable, Sendable {
    public var requiredFeatures: [String] = []
    public var optionalFeatures: [String] = []
    public var writingProgram: String?

    /// Required features this reader understands: the OSM data model and dense nodes.
    public static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    /// Refuses the file when it requires a feature this reader does not have, naming it.
    public func checkFeatures() throws(ProtobufError) {
        for feature in requiredFeatures where !Self.supportedFeatures.contains(feature) {
            if feature == "HistoricalInformation" {
                throw ProtobufError("the file requires the feature HistoricalInformation (a history file, with old versions of elements); import a current extract instead")
            }
            throw ProtobufError("the file requires the feature \(feature), which this reader does not support (it reads OsmSchema-V0.6 and DenseNodes)")
        }
    }
}

/// Decodes the blocks of the OSM PBF format (osmformat.proto) into plain elements.
///
/// Coordinates become 1e-7 degrees (`lat_offset + granularity × value` nanodegrees, rounded half away from zero,
/// as the XML reader rounds); ids, refs and member ids are undone from their delta coding; tags and roles come
/// from the block's string table. Every index, count and coordinate is checked, so bad input throws and never traps.
public enum PBFBlockDecoder {
    public static func decodeHeader(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) -> PBFHeader {
        var header = PBFHeader()
        var reader = ProtobufReader(bytes)
        while let (field, wire) = try reader.field() {
            switch field {
            case 4, 5, 16:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "HeaderBlock")
                let text = String(decoding: try reader.lengthDelimited(), as: UTF8.self)
                if field == 4 { header.requiredFeatures.append(text) } else if field == 5 { header.optionalFeatures.append(text) } else { header.writingProgram = text }
            default:
                try reader.skip(wire)
            }
        }
        return header
    }

    /// Decodes a `PrimitiveBlock`.
    public static func decodePrimitiveBlock(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) -> PBFElements {
        // Granularity and offsets (fields 17–20) come after the groups (field 2) on the wire: find everything first.
        var reader = ProtobufReader(bytes)
        var stringTable: UnsafeRawBufferPointer? = nil
        var groups: [UnsafeRawBufferPointer] = []
        var granularity: Int64 = 100
        var latOffset: Int64 = 0
        var lonOffset: Int64 = 0
        while let (field, wire) = try reader.field() {
            switch field {
            case 1:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "PrimitiveBlock")
                stringTable = try reader.lengthDelimited()
            case 2:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "PrimitiveBlock")
                groups.append(try reader.lengthDelimited())
            case 17:
                try ProtobufReader.expect(wire, .varint, field: field, in: "PrimitiveBlock")
                granularity = Int64(try reader.int32())
                guard granularity > 0 else { throw ProtobufError("granularity \(granularity) is not positive") }
            case 19:
                try ProtobufReader.expect(wire, .varint, field: field, in: "PrimitiveBlock")
                latOffset = try reader.int64()
            case 20:
                try ProtobufReader.expect(wire, .varint, field: field, in: "PrimitiveBlock")
                lonOffset = try reader.int64()
            default:
                try reader.skip(wire)
            }
        }
        guard let stringTable else {
            if groups.isEmpty { return PBFElements() }
            throw ProtobufError("PrimitiveBlock has no string table")
        }
        var block = BlockDecoder(strings: try decodeStringTable(stringTable), granularity: granularity, latOffset: latOffset, lonOffset: lonOffset)
        for group in groups { try block.decodeGroup(group) }
        return block.elements
    }

    static func decodeStringTable(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) -> [String] {
        var strings: [String] = []
        var reader = ProtobufReader(bytes)
        while let (field, wire) = try reader.field() {
            if field == 1 {
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "StringTable")
                strings.append(String(decoding: try reader.lengthDelimited(), as: UTF8.self))
            } else {
                try reader.skip(wire)
            }
        }
        return strings
    }
}

/// Decodes the groups of one primitive block, with its string table and coordinate scale.
struct BlockDecoder {
    let strings: [String]
    let granularity: Int64
    let latOffset: Int64
    let lonOffset: Int64
    var elements = PBFElements()

    // Scratch arrays, reused from element to element.
    var keys: [UInt32] = []
    var values: [UInt32] = []
    var refs: [Int64] = []
    var roles: [Int32] = []
    var types: [Int32] = []

    init(strings: [String], granularity: Int64, latOffset: Int64, lonOffset: Int64) {
        self.strings = strings
        self.granularity = granularity
        self.latOffset = latOffset
        self.lonOffset = lonOffset
    }

    @inline(__always)
    func string(_ index: UInt32, _ what: @autoclosure () -> String) throws(ProtobufError) -> String {
        guard Int(index) < strings.count else {
            throw ProtobufError("\(what()): string index \(index) is past the end of the block's string table (\(strings.count) strings)")
        }
        return strings[Int(index)]
    }

    /// A coordinate in 1e-7 degrees from a stored value, or nil when it lies outside ±`limit`.
    @inline(__always)
    func fixed7(_ value: Int64, offset: Int64, limit: Int64) -> Int32? {
        let (scaled, overflow1) = granularity.multipliedReportingOverflow(by: value)
        let (nano, overflow2) = scaled.addingReportingOverflow(offset)
        if overflow1 || overflow2 { return nil }
        var e7 = nano / 100
        let rest = nano % 100
        if rest >= 50 { e7 += 1 } else if rest <= -50 { e7 -= 1 }
        guard e7 >= -limit, e7 <= limit else { return nil }
        return Int32(e7)
    }

    func tags(_ kind: StaticString, _ id: Int64) throws(ProtobufError) -> [OSMTag] {
        guard keys.count == values.count else {
            throw ProtobufError("\(kind) \(id) has \(keys.count) tag keys but \(values.count) values")
        }
        if keys.isEmpty { return [] }
        var tags: [OSMTag] = []
        tags.reserveCapacity(keys.count)
        for i in keys.indices {
            tags.append(OSMTag(key: try string(keys[i], "\(kind) \(id)"), value: try string(values[i], "\(kind) \(id)")))
        }
        return tags
    }

    mutating func decodeGroup(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var nodes: [OSMNode] = []
        var ways: [OSMWay] = []
        var relations: [OSMRelation] = []
        while let (field, wire) = try reader.field() {
            switch field {
            case 1:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "PrimitiveGroup")
                try decodeNode(try reader.lengthDelimited(), into: &nodes)
            case 2:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "PrimitiveGroup")
                try decodeDense(try reader.lengthDelimited(), into: &nodes)
            case 3:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "PrimitiveGroup")
                try decodeWay(try reader.lengthDelimited(), into: &ways)
            case 4:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "PrimitiveGroup")
                try decodeRelation(try reader.lengthDelimited(), into: &relations)
            default:
                try reader.skip(wire) // changesets (5) and anything newer
            }
        }
        // A group holds one kind; should a writer mix them, nodes, ways and relations still go out in that order.
        if !nodes.isEmpty { elements.groups.append(.nodes(nodes)) }
        if !ways.isEmpty { elements.groups.append(.ways(ways)) }
        if !relations.isEmpty { elements.groups.append(.relations(relations)) }
    }

    /// The `visible` flag of an `Info` message (true when absent).
    static func visible(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) -> Bool {
        var reader = ProtobufReader(bytes)
        var visible = true
        while let (field, wire) = try reader.field() {
            if field == 6, wire == .varint { visible = try reader.varint() != 0 } else { try reader.skip(wire) }
        }
        return visible
    }

    mutating func decodeNode(_ bytes: UnsafeRawBufferPointer, into nodes: inout [OSMNode]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var id: Int64? = nil, lat: Int64? = nil, lon: Int64? = nil
        var visible = true
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        while let (field, wire) = try reader.field() {
            switch field {
            case 1: try ProtobufReader.expect(wire, .varint, field: field, in: "Node"); id = try reader.sint64()
            case 2: try reader.appendUInt32s(wire, to: &keys)
            case 3: try reader.appendUInt32s(wire, to: &values)
            case 4:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "Node")
                visible = try Self.visible(try reader.lengthDelimited())
            case 8: try ProtobufReader.expect(wire, .varint, field: field, in: "Node"); lat = try reader.sint64()
            case 9: try ProtobufReader.expect(wire, .varint, field: field, in: "Node"); lon = try reader.sint64()
            default: try reader.skip(wire)
            }
        }
        guard let id else { throw ProtobufError("a node without id") }
        guard let lat, let lon else { throw ProtobufError("node \(id) has no lat/lon") }
        if !visible { elements.deletedCount += 1; return }
        guard let latE7 = fixed7(lat, offset: latOffset, limit: 900_000_000), let lonE7 = fixed7(lon, offset: lonOffset, limit: 1_800_000_000) else {
            throw ProtobufError("node \(id) has an invalid coordinate (lat \(lat), lon \(lon) in units of \(granularity) nanodegrees)")
        }
        nodes.append(OSMNode(id: id, latitudeE7: latE7, longitudeE7: lonE7, tags: try tags("node", id)))
    }

    mutating func decodeDense(_ bytes: UnsafeRawBufferPointer, into nodes: inout [OSMNode]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var ids = ProtobufReader(UnsafeRawBufferPointer(start: nil, count: 0))
        var lats = ids, lons = ids, keysVals = ids
        var visibility: [Bool] = []
        var idCount = 0
        while let (field, wire) = try reader.field() {
            switch field {
            case 1, 8, 9, 10:
                // Only the packed form is read here: every writer packs these (osmformat.proto declares them packed).
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "DenseNodes")
                let slice = ProtobufReader(try reader.lengthDelimited())
                switch field {
                case 1: ids = slice
                case 8: lats = slice
                case 9: lons = slice
                default: keysVals = slice
                }
            case 5:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "DenseNodes")
                var info = ProtobufReader(try reader.lengthDelimited())
                while let (infoField, infoWire) = try info.field() {
                    if infoField == 6 { try info.appendBools(infoWire, to: &visibility) } else { try info.skip(infoWire) }
                }
            default:
                try reader.skip(wire)
            }
        }
        let hasTags = !keysVals.isAtEnd
        // Each id takes at least a byte; reserve for that many (within reason: damaged input may claim millions).
        nodes.reserveCapacity(nodes.count + min(ids.remaining, 1 << 16))
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        while !ids.isAtEnd {
            id = id &+ (try ids.sint64())
            guard !lats.isAtEnd, !lons.isAtEnd else { throw ProtobufError("dense nodes: fewer latitudes or longitudes than ids (node \(id))") }
            lat = lat &+ (try lats.sint64())
            lon = lon &+ (try lons.sint64())
            var tags: [OSMTag] = []
            if hasTags {
                while true {
                    guard !keysVals.isAtEnd else { throw ProtobufError("dense nodes: keys_vals ends inside the tags of node \(id)") }
                    let key = try keysVals.int32()
                    if key == 0 { break }
                    guard !keysVals.isAtEnd else { throw ProtobufError("dense nodes: keys_vals ends inside the tags of node \(id)") }
                    let value = try keysVals.int32()
                    guard key > 0, value >= 0 else { throw ProtobufError("node \(id): negative string index in keys_vals") }
                    tags.append(OSMTag(key: try string(UInt32(key), "node \(id)"), value: try string(UInt32(value), "node \(id)")))
                }
            }
            defer { idCount += 1 }
            if idCount < visibility.count, !visibility[idCount] { elements.deletedCount += 1; continue }
            guard let latE7 = fixed7(lat, offset: latOffset, limit: 900_000_000), let lonE7 = fixed7(lon, offset: lonOffset, limit: 1_800_000_000) else {
                throw ProtobufError("node \(id) has an invalid coordinate (lat \(lat), lon \(lon) in units of \(granularity) nanodegrees)")
            }
            nodes.append(OSMNode(id: id, latitudeE7: latE7, longitudeE7: lonE7, tags: tags))
        }
        guard lats.isAtEnd, lons.isAtEnd else { throw ProtobufError("dense nodes: more latitudes or longitudes than ids") }
        guard visibility.isEmpty || visibility.count == idCount else {
            throw ProtobufError("dense nodes: \(visibility.count) visible flags for \(idCount) nodes")
        }
    }

    mutating func decodeWay(_ bytes: UnsafeRawBufferPointer, into ways: inout [OSMWay]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var id: Int64? = nil
        var visible = true
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        var nodeIDs: [Int64] = []
        while let (field, wire) = try reader.field() {
            switch field {
            case 1: try ProtobufReader.expect(wire, .varint, field: field, in: "Way"); id = try reader.int64()
            case 2: try reader.appendUInt32s(wire, to: &keys)
            case 3: try reader.appendUInt32s(wire, to: &values)
            case 4:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "Way")
                visible = try Self.visible(try reader.lengthDelimited())
            case 8:
                // Delta-coded node ids.
                if wire == .lengthDelimited {
                    var packed = ProtobufReader(try reader.lengthDelimited())
                    nodeIDs.reserveCapacity(nodeIDs.count + packed.remaining)
                    var ref = nodeIDs.last ?? 0
                    while !packed.isAtEnd {
                        ref = ref &+ (try packed.sint64())
                        nodeIDs.append(ref)
                    }
                } else {
                    try ProtobufReader.expect(wire, .varint, field: field, in: "Way")
                    nodeIDs.append((nodeIDs.last ?? 0) &+ (try reader.sint64()))
                }
            default: try reader.skip(wire) // lat/lon of LocationsOnWays (9, 10) are not needed: the nodes are read
            }
        }
        guard let id else { throw ProtobufError("a way without id") }
        if !visible { elements.deletedCount += 1; return }
        ways.append(OSMWay(id: id, nodeIDs: nodeIDs, tags: try tags("way", id)))
    }

    mutating func decodeRelation(_ bytes: UnsafeRawBufferPointer, into relations: inout [OSMRelation]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var id: Int64? = nil
        var visible = true
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        refs.removeAll(keepingCapacity: true)
        roles.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        while let (field, wire) = try reader.field() {
            switch field {
            case 1: try ProtobufReader.expect(wire, .varint, field: field, in: "Relation"); id = try reader.int64()
            case 2: try reader.appendUInt32s(wire, to: &keys)
            case 3: try reader.appendUInt32s(wire, to: &values)
            case 4:
                try ProtobufReader.expect(wire, .lengthDelimited, field: field, in: "Relation")
                visible = try Self.visible(try reader.lengthDelimited())
            case 8: try reader.appendInt32s(wire, to: &roles)
            case 9: try reader.appendSInt64s(wire, to: &refs)
            case 10: try reader.appendInt32s(wire, to: &types)
            default: try reader.skip(wire)
            }
        }
        guard let id else { throw ProtobufError("a relation without id") }
        guard roles.count == refs.count, types.count == refs.count else {
            throw ProtobufError("relation \(id) has \(refs.count) member ids, \(types.count) member types and \(roles.count) roles")
        }
        if !visible { elements.deletedCount += 1; return }
        var members: [OSMMember] = []
        members.reserveCapacity(refs.count)
        var ref: Int64 = 0
        for i in refs.indices {
            ref = ref &+ refs[i]
            guard let type = OSMElementType(rawValue: UInt8(truncatingIfNeeded: types[i])), types[i] >= 0, types[i] <= 2 else {
                throw ProtobufError("relation \(id): member type \(types[i]) is not node (0), way (1) or relation (2)")
            }
            guard roles[i] >= 0 else { throw ProtobufError("relation \(id): negative role string index \(roles[i])") }
            members.append(OSMMember(type: type, ref: ref, role: try string(UInt32(roles[i]), "relation \(id)")))
        }
        relations.append(OSMRelation(id: id, members: members, tags: try tags("relation", id)))
    }
}
