import OSM

/// Gathers, during the collector's one pass over the OSM input, every place the search index holds: each node, way
/// and relation with a `name`, an address (`addr:*`) or a category tag (`amenity`, `shop`, `tourism`, `leisure`,
/// `office`, `highway=bus_stop`, `railway=station|halt|tram_stop`, `public_transport`, `place`); and, through
/// `addTransitStop`, the stops of GTFS feeds. Left out: relations that group lines or data (`groupingRelationTypes`:
/// bus and hiking routes, TMC, building levels) and, unless addressed, railway equipment and things not built
/// (`isNoDestination`).
///
/// A way's point is the mean of its nodes (an area's centroid) when it is closed, its middle node when open; a
/// relation's is its `label` or `admin_centre` node, else the mean of its member ways' nodes (weighted by their node
/// counts; a road member, whose nodes the collector keeps, counts as its middle node), else of its member nodes. For
/// that, the mean of every way without a `highway` tag is kept (20 bytes a way) until the relations are read. Nodes
/// are found in the collector's node arrays through its id look-up (`OSMCollector.nodePosition(of:)`, shared with the
/// graph builder).
public final class PlaceCollector {
    /// The places collected so far, in the order met.
    @exclusivity(unchecked) public private(set) var places: [CollectedPlace] = []

    /// Ways' node means for relations: id, mean latitude and longitude (1e-7 degrees), node count.
    @exclusivity(unchecked) private var wayMeanIDs: [Int64] = []
    @exclusivity(unchecked) private var wayMeans: [WayMean] = []
    @exclusivity(unchecked) private var wayMeansSorted = true
    /// The collector's routable ways in id order (empty: they are in id order already), built at the first relation.
    @exclusivity(unchecked) private var roadOrder: [Int]? = nil
    /// The ids of those ways in that order (contiguous, for the look-up).
    @exclusivity(unchecked) private var roadIDs: [Int64] = []
    /// Id look-ups over `wayMeanIDs` and `roadIDs` (sorted), built at the first relation.
    @exclusivity(unchecked) private var wayMeanLookup: IDIndex? = nil
    @exclusivity(unchecked) private var roadLookup: IDIndex? = nil

    /// Places left out because no position could be found (all their nodes or members absent from the extract),
    /// and how many of them had a name.
    public private(set) var placesWithoutPosition = 0
    public private(set) var namedPlacesWithoutPosition = 0

    public init() {}

    struct WayMean { var latitude: Int32; var longitude: Int32; var count: UInt32 }

    /// The category keys a place is filed under, in order of preference; the first present names its category.
    static let primaryKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "healthcare"]
    /// Keys that name a category only when nothing of `primaryKeys` does (named or addressed elements).
    static let fallbackKeys = ["historic", "man_made", "aeroway", "aerialway", "natural", "waterway", "sport", "emergency",
                               "highway", "railway", "building", "landuse", "boundary", "route", "type"]

    /// Each category key's preference (lower first): the primary keys, the stop and station keys (whose values are
    /// checked), `public_transport`, `place`, then the fallback keys.
    static let keyRanks: [String: Int] = {
        var ranks: [String: Int] = [:]
        for key in primaryKeys { ranks[key] = ranks.count }
        for key in ["highway", "railway", "public_transport", "place"] where ranks[key] == nil { ranks[key] = ranks.count }
        for key in fallbackKeys where ranks[key] == nil { ranks[key] = ranks.count + 100 }
        return ranks
    }()
    /// Keys that make a place of their own only for some values (`highway=bus_stop`, `railway=station`…).
    static let ownValues: [String: Set<String>] = ["highway": ["bus_stop"], "railway": ["station", "halt", "tram_stop"]]

    /// The category of `tags` and whether it makes the element a place of its own (without name or address): the
    /// tag whose key ranks first (`keyRanks`; `highway` and `railway` rank as fallbacks unless their value is in
    /// `ownValues`), the first of equal ranks.
    static func category(of tags: [OSMTag]) -> (key: String, value: String, placeByItself: Bool)? {
        var best = CategoryChoice()
        for (i, tag) in tags.enumerated() { best.consider(tag, at: i) }
        return best.tag.map { (tags[$0].key, tags[$0].value, best.own) }
    }

    /// The category keys in a small table looked up by a key's length and first and last bytes (no string hashing,
    /// and a string comparison only for a key of a category key's shape): `describe` meets every tag of the input.
    static let categoryKeys = CategoryKeyTable(ranks: keyRanks, fallbackKeys: fallbackKeys, ownValues: ownValues)

    /// Whether `key` is a language variant of the name (`name:de`, `name:zh-Hans`, `name:be-tarask`).
    static func isNameVariant(_ key: String) -> Bool {
        guard key.hasPrefix("name:") else { return false }
        var letters = 0
        for byte in key.utf8.dropFirst(5) {
            if byte >= 97 && byte <= 122 { letters += 1; if letters > 3 { return false }; continue }
            return byte == 45 && letters >= 2  // "-": a script or region follows
        }
        return letters >= 2
    }

    /// The place `tags` describe, without its position; nil when the element is not a place.
    static func describe(_ tags: [OSMTag], type: PlaceSource, id: Int64) -> CollectedPlace? {
        var hasHighway = false
        return describe(tags, type: type, id: id, hasHighway: &hasHighway)
    }

    /// `describe`, also saying whether a tag's key is `highway`. One pass over the tags finds the name, the address
    /// and the category; each key's length and first byte are looked at before any comparison of strings.
    static func describe(_ tags: [OSMTag], type: PlaceSource, id: Int64, hasHighway: inout Bool) -> CollectedPlace? {
        guard !tags.isEmpty else { return nil }
        var name = "", houseNumber: String? = nil, street: String? = nil, place: String? = nil, postcode: String? = nil, city: String? = nil
        var hasAddress = false
        var category = CategoryChoice()
        for (i, tag) in tags.enumerated() {
            let key = tag.key, utf8 = key.utf8
            let length = utf8.count
            guard let first = utf8.first else { continue }
            if first == UInt8(ascii: "a"), length >= 5, key.hasPrefix("addr:") {
                hasAddress = true
                switch key {
                case "addr:housenumber": if houseNumber == nil { houseNumber = tag.value }
                case "addr:street": if street == nil { street = tag.value }
                case "addr:place": if place == nil { place = tag.value }
                case "addr:postcode": if postcode == nil { postcode = tag.value }
                case "addr:city": if city == nil { city = tag.value }
                default: break
                }
            } else if length == 4, first == UInt8(ascii: "n"), key == "name" {
                if name.isEmpty { name = tag.value }
            } else if let entry = categoryKeys.entry(key, length: length, first: first) {
                if entry.isHighway { hasHighway = true }
                category.consider(entry, value: tag.value, at: i)
            }
        }
        guard !name.isEmpty || hasAddress || category.own else { return nil }
        // Other names: alternative, official, short and old names and the language variants, each once (looked for
        // only now, for places: keys are compared only when their first letter may start one).
        var others: [String] = []
        for tag in tags {
            let key = tag.key
            switch key.utf8.first {
            case UInt8(ascii: "a"), UInt8(ascii: "o"), UInt8(ascii: "s"), UInt8(ascii: "l"), UInt8(ascii: "n"): break
            default: continue
            }
            guard key == "alt_name" || key == "official_name" || key == "short_name" || key == "old_name" || key == "loc_name"
                    || isNameVariant(key) else { continue }
            for value in tag.value.split(separator: ";") {
                let trimmed = String(value).trimmingSpaces
                if !trimmed.isEmpty, trimmed != name, !others.contains(trimmed) { others.append(trimmed) }
            }
        }
        let (key, value) = category.tag.map { (tags[$0].key, tags[$0].value) } ?? (hasAddress ? ("addr", "address") : ("", "other"))
        if !hasAddress, isNoDestination(key: key, value: value) { return nil }
        return CollectedPlace(
            source: type, osmID: id, latitudeE7: 0, longitudeE7: 0, name: name, otherNames: others,
            categoryKey: key, categoryValue: value,
            houseNumber: houseNumber ?? "", street: street ?? place ?? "",
            postcode: postcode ?? "", city: city ?? "", reference: "")
    }

    /// Relation types that group elements into lines or for data's sake, not a place one goes to: routes of buses,
    /// trains and hikes (their centre lies anywhere along a line kilometres long), traffic-message locations, the
    /// levels of a building, a street's pieces (the street is a place already), turn restrictions and signs.
    static let groupingRelationTypes: Set<String> = [
        "route", "route_master", "superroute", "network", "TMC", "tmc", "level", "associatedStreet", "street",
        "restriction", "destination_sign", "enforcement", "connectivity", "turnlanes:turns", "turnlanes:lengths",
    ]

    /// Whether a category names railway equipment or something not built (`railway=switch`, a signal, a level
    /// crossing, `highway=proposed`): such elements carry a number or a road's name and are no place of their own.
    static func isNoDestination(key: String, value: String) -> Bool {
        switch (key, value) {
        case ("railway", "switch"), ("railway", "signal"), ("railway", "level_crossing"), ("railway", "crossing"),
             ("railway", "railway_crossing"), ("railway", "milestone"), ("railway", "buffer_stop"), ("railway", "derail"),
             ("railway", "proposed"), ("highway", "proposed"), ("public_transport", "proposed"):
            return true
        default:
            return false
        }
    }

    /// Whether `tags` are a relation of one of `groupingRelationTypes`.
    static func isGroupingRelation(_ tags: [OSMTag]) -> Bool {
        for tag in tags where tag.key == "type" { return groupingRelationTypes.contains(tag.value) || tag.value.hasPrefix("restriction:") }
        return false
    }

    /// Called by the collector for every node, after it has stored the node's position.
    func collect(node: OSMNode) {
        guard var place = Self.describe(node.tags, type: .node, id: node.id) else { return }
        place.latitudeE7 = node.latitudeE7
        place.longitudeE7 = node.longitudeE7
        places.append(place)
    }

    /// Called by the collector for every way; `collector` holds the node positions read so far.
    func collect(way: OSMWay, collector: OSMCollector) {
        var hasHighway = false
        let place = Self.describe(way.tags, type: .way, id: way.id, hasHighway: &hasHighway)
        // Roads keep no mean: the collector keeps their nodes anyway (see `roadPoint`), and they are most of the
        // node references, whose look-ups the mean would cost.
        let keepMean = !hasHighway
        guard place != nil || keepMean, !way.nodeIDs.isEmpty else { return }
        var ids = way.nodeIDs[...]
        let closed = ids.count > 2 && ids.first == ids.last
        if closed { ids = ids.dropLast() }
        // A named road (or any open way that keeps no mean) is placed at its middle node: one look-up, not one a node.
        let middle = place == nil || closed ? nil : collector.nodePosition(of: ids[ids.startIndex + ids.count / 2])
        if !keepMean, var place, let middle {
            place.latitudeE7 = collector.nodeLatitudes[middle]; place.longitudeE7 = collector.nodeLongitudes[middle]
            places.append(place)
            return
        }
        var latitudeSum = 0, longitudeSum = 0, found = 0
        for id in ids {
            if let index = collector.nodePosition(of: id) {
                latitudeSum += Int(collector.nodeLatitudes[index]); longitudeSum += Int(collector.nodeLongitudes[index]); found += 1
            }
        }
        var mean: WayMean? = nil
        if found > 0 { mean = WayMean(latitude: Int32(latitudeSum / found), longitude: Int32(longitudeSum / found), count: UInt32(found)) }
        if keepMean, let mean {
            if let last = wayMeanIDs.last, way.id <= last { wayMeansSorted = false }
            wayMeanIDs.append(way.id)
            wayMeans.append(mean)
        }
        guard var place else { return }
        if let middle {
            place.latitudeE7 = collector.nodeLatitudes[middle]; place.longitudeE7 = collector.nodeLongitudes[middle]
        } else if let mean {
            place.latitudeE7 = mean.latitude; place.longitudeE7 = mean.longitude
        } else {
            placesWithoutPosition += 1
            if !place.name.isEmpty { namedPlacesWithoutPosition += 1 }
            return
        }
        places.append(place)
    }

    /// Called by the collector for every relation (all nodes and ways have been read).
    func collect(relation: OSMRelation, collector: OSMCollector) {
        guard !Self.isGroupingRelation(relation.tags),
              var place = Self.describe(relation.tags, type: .relation, id: relation.id) else { return }
        if !wayMeansSorted { sortWayMeans() }
        var labelNode: Int? = nil
        var latitudeSum = 0, longitudeSum = 0, count = 0
        // The mean of the member nodes, for a relation of nodes only (a stop area of platform and stop nodes).
        var nodeLatitudeSum = 0, nodeLongitudeSum = 0, nodeCount = 0
        for member in relation.members {
            switch member.type {
            case .node where member.role == "label" || (member.role == "admin_centre" && labelNode == nil):
                if let index = collector.nodePosition(of: member.ref) { labelNode = index }
            case .node:
                if let index = collector.nodePosition(of: member.ref) {
                    nodeLatitudeSum += Int(collector.nodeLatitudes[index]); nodeLongitudeSum += Int(collector.nodeLongitudes[index])
                    nodeCount += 1
                }
            case .way:
                if let index = Self.position(of: member.ref, in: wayMeanIDs, lookup: &wayMeanLookup) {
                    let mean = wayMeans[index], weight = Int(mean.count)
                    latitudeSum += Int(mean.latitude) * weight; longitudeSum += Int(mean.longitude) * weight; count += weight
                } else if let point = roadPoint(member.ref, collector: collector) {
                    latitudeSum += Int(point.latitude); longitudeSum += Int(point.longitude); count += 1
                }
            default: break
            }
        }
        if let labelNode {
            place.latitudeE7 = collector.nodeLatitudes[labelNode]; place.longitudeE7 = collector.nodeLongitudes[labelNode]
        } else if count > 0 {
            place.latitudeE7 = Int32(latitudeSum / count); place.longitudeE7 = Int32(longitudeSum / count)
        } else if nodeCount > 0 {
            place.latitudeE7 = Int32(nodeLatitudeSum / nodeCount); place.longitudeE7 = Int32(nodeLongitudeSum / nodeCount)
        } else {
            placesWithoutPosition += 1
            if !place.name.isEmpty { namedPlacesWithoutPosition += 1 }
            return
        }
        places.append(place)
    }

    /// The middle node of routable way `id` (kept by the collector), for relations made of roads (routes).
    private func roadPoint(_ id: Int64, collector: OSMCollector) -> (latitude: Int32, longitude: Int32)? {
        let ways = collector.ways
        if roadOrder == nil {
            roadOrder = ways.indices.allSatisfy({ $0 == 0 || ways[$0 - 1].id < ways[$0].id }) ? []
                : ways.indices.sorted { ways[$0].id < ways[$1].id }
            roadIDs = roadOrder!.isEmpty ? ways.map(\.id) : roadOrder!.map { ways[$0].id }
        }
        guard let position = Self.position(of: id, in: roadIDs, lookup: &roadLookup) else { return nil }
        let way = ways[roadOrder!.isEmpty ? position : roadOrder![position]]
        let middle = collector.wayNodeIDs[way.firstNode + Int(way.nodeCount) / 2]
        guard let node = collector.nodePosition(of: middle) else { return nil }
        return (collector.nodeLatitudes[node], collector.nodeLongitudes[node])
    }

    /// Adds a stop of a GTFS feed (`stop_name`, position, `stop_id`), found by its name like any other place.
    public func addTransitStop(name: String, latitudeE7: Int32, longitudeE7: Int32, stopID: String) {
        places.append(CollectedPlace(
            source: .transitStop, osmID: 0, latitudeE7: latitudeE7, longitudeE7: longitudeE7, name: name, otherNames: [],
            categoryKey: "gtfs", categoryValue: "stop", houseNumber: "", street: "", postcode: "", city: "", reference: stopID))
    }

    /// Adds a place given in full (for callers that collect places themselves).
    public func add(_ place: CollectedPlace) { places.append(place) }

    /// Releases the memory kept for relations once reading is done.
    public func finishReading() {
        wayMeanIDs = []; wayMeans = []; roadOrder = nil; roadIDs = []; wayMeanLookup = nil; roadLookup = nil
    }

    private func sortWayMeans() {
        let order = wayMeanIDs.indices.sorted { wayMeanIDs[$0] < wayMeanIDs[$1] }
        wayMeanIDs = order.map { wayMeanIDs[$0] }
        wayMeans = order.map { wayMeans[$0] }
        wayMeansSorted = true
        wayMeanLookup = nil
    }

    /// The first position of `id` in the sorted `ids`, through `lookup` (built again when `ids` has grown).
    private static func position(of id: Int64, in ids: [Int64], lookup: inout IDIndex?) -> Int? {
        ids.withUnsafeBufferPointer { ids in
            if lookup?.count != ids.count { lookup = nil; lookup = IDIndex(ids: ids, sorted: true) }
            return lookup!.position(of: id, in: ids)
        }
    }
}

/// Where a place comes from.
public enum PlaceSource: UInt8, Sendable {
    case node = 0, way = 1, relation = 2, transitStop = 3

    /// OSM's name of the element type ("node", "way", "relation"), or "stop" for a GTFS stop.
    public var name: String {
        switch self {
        case .node: return "node"
        case .way: return "way"
        case .relation: return "relation"
        case .transitStop: return "stop"
        }
    }
}

/// A place as collected, before it goes into the index.
public struct CollectedPlace: Equatable, Sendable {
    public var source: PlaceSource
    /// The OSM id of the node, way or relation (0 for a GTFS stop).
    public var osmID: Int64
    public var latitudeE7: Int32
    public var longitudeE7: Int32
    /// The `name` tag ("" when the place has none).
    public var name: String
    /// `alt_name`, `official_name`, `short_name`, `old_name`, `loc_name` and `name:<language>` values that differ from `name`.
    public var otherNames: [String]
    /// The category's OSM key and value (`amenity`, `restaurant`).
    public var categoryKey: String
    public var categoryValue: String
    public var houseNumber: String
    /// `addr:street`, or `addr:place` when there is no street.
    public var street: String
    public var postcode: String
    public var city: String
    /// The GTFS `stop_id` of a transit stop ("" otherwise).
    public var reference: String

    /// A place given field by field.
    public init(source: PlaceSource, osmID: Int64, latitudeE7: Int32, longitudeE7: Int32, name: String, otherNames: [String] = [],
                categoryKey: String, categoryValue: String, houseNumber: String = "", street: String = "", postcode: String = "",
                city: String = "", reference: String = "") {
        self.source = source; self.osmID = osmID; self.latitudeE7 = latitudeE7; self.longitudeE7 = longitudeE7
        self.name = name; self.otherNames = otherNames; self.categoryKey = categoryKey; self.categoryValue = categoryValue
        self.houseNumber = houseNumber; self.street = street; self.postcode = postcode; self.city = city; self.reference = reference
    }
}

private extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " })!
        return String(scalars[first...last])
    }
}
