/// One `k=v` tag of an OSM element.
public struct OSMTag: Equatable, Sendable {
    public var key: String
    public var value: String
    public init(key: String, value: String) { self.key = key; self.value = value }
}

/// An OSM node: id, position in fixed-point 1e-7 degrees, and tags.
public struct OSMNode: Equatable, Sendable {
    public var id: Int64
    public var latitudeE7: Int32
    public var longitudeE7: Int32
    public var tags: [OSMTag]
    public init(id: Int64, latitudeE7: Int32, longitudeE7: Int32, tags: [OSMTag] = []) {
        self.id = id; self.latitudeE7 = latitudeE7; self.longitudeE7 = longitudeE7; self.tags = tags
    }
}

/// An OSM way: id, the ids of its nodes in order, and tags.
public struct OSMWay: Equatable, Sendable {
    public var id: Int64
    public var nodeIDs: [Int64]
    public var tags: [OSMTag]
    public init(id: Int64, nodeIDs: [Int64] = [], tags: [OSMTag] = []) { self.id = id; self.nodeIDs = nodeIDs; self.tags = tags }
}

/// The kind of element a relation member refers to.
public enum OSMElementType: UInt8, Sendable { case node, way, relation }

/// One member of a relation: what it refers to and in which role.
public struct OSMMember: Equatable, Sendable {
    public var type: OSMElementType
    public var ref: Int64
    public var role: String
    public init(type: OSMElementType, ref: Int64, role: String) { self.type = type; self.ref = ref; self.role = role }
}

/// An OSM relation: id, members in order, and tags.
public struct OSMRelation: Equatable, Sendable {
    public var id: Int64
    public var members: [OSMMember]
    public var tags: [OSMTag]
    public init(id: Int64, members: [OSMMember] = [], tags: [OSMTag] = []) { self.id = id; self.members = members; self.tags = tags }
}

extension Array where Element == OSMTag {
    /// The value of the first tag with `key`, if any.
    @inlinable public subscript(key: String) -> String? {
        for tag in self where tag.key == key { return tag.value }
        return nil
    }
}

/// Receives the elements of an OSM file in file order.
public protocol OSMElementHandler: AnyObject {
    func handle(node: OSMNode)
    func handle(way: OSMWay)
    func handle(relation: OSMRelation)
}
