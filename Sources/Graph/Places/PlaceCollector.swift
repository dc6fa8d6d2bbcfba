import OSM

/// Gathers, during the collector's one pass over the OSM input, every place the search index holds: each node, way
/// and relation with a `name`, an address (`addr:*`) or a category tag (`amenity`, `shop`, `tourism`, `leisure`,
/// `office`, `highway=bus_stop`, `railway=station|halt|tram_stop`, `public_transport`, `place`); and, through
/// `addTransitStop`, the stops of GTFS feeds.
///
/// A way's point is the mean of its nodes (an area's centroid) when it is closed, its middle node when open; a
/// relation's is its `label` or `admin_centre` node, else the mean of its member ways' nodes (weighted by their node
/// counts; a road member, whose nodes the collector keeps, counts as its middle node). For that, the mean of every
/// way without a `highway` tag is kept (20 bytes a way) until the relations are read. Nodes are found in the collector's node
/// arrays (a binary search; an order is sorted once if the file's nodes are not in id order).
public final class PlaceCollector {
    /// The places collected so far, in the order met.
    @exclusivity(unchecked) public private(set) var places: [CollectedPlace] = []

    /// Ways' node means for relations: id, mean latitude and longitude (1e-7 degrees), node count.
    @exclusivity(unchecked) private var wayMeanIDs: [Int64] = []
    @exclusivity(unchecked) private var wayMeans: [WayMean] = []
    @exclusivity(unchecked) private var wayMeansSorted = true
    /// When the collector's node ids are not sorted: node indices in id order (built at the first way).
    @exclusivity(unchecked) private var nodeOrder: [Int32]? = nil
    /// The collector's routable ways in id order (empty: they are in id order already), built at the first relation.
    @exclusivity(unchecked) private var roadOrder: [Int]? = nil
    /// The ids of those ways in that order (contiguous, for the binary search).
    @exclusivity(unchecked) private var roadIDs: [Int64] = []
    /// Where the last node look-up found its node (in id order), where the next one starts.
    @exclusivity(unchecked) private var nodeHint = 0

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

    /// The category of `tags` and whether it makes the element a place of its own (without name or address):
    /// one look-up per tag.
    static func category(of tags: [OSMTag]) -> (key: String, value: String, placeByItself: Bool)? {
        var best: (rank: Int, tag: Int, own: Bool)? = nil
        for (i, tag) in tags.enumerated() {
            // No category key has a colon: `addr:street`, `name:de`, `building:levels` skip the hash look-up.
            guard !tag.key.utf8.contains(UInt8(ascii: ":")), var rank = keyRanks[tag.key] else { continue }
            var own = rank < 100
            if own, let values = ownValues[tag.key], !values.contains(tag.value) {
                // `highway=residential`, `railway=rail`: a fallback category only.
                own = false
                rank = 100 + (fallbackKeys.firstIndex(of: tag.key) ?? 50)
            } else if !own {
                rank = 100 + (fallbackKeys.firstIndex(of: tag.key) ?? 50)
            }
            if best == nil || rank < best!.rank { best = (rank, i, own) }
        }
        return best.map { (tags[$0.tag].key, tags[$0.tag].value, $0.own) }
    }

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

    /// The place `tags` describe, without its position; nil when the element is not a place. One pass over the tags
    /// finds the name and the address (`addr:*` keys are compared only after their common prefix), then the category.
    static func describe(_ tags: [OSMTag], type: PlaceSource, id: Int64) -> CollectedPlace? {
        guard !tags.isEmpty else { return nil }
        var name = "", houseNumber: String? = nil, street: String? = nil, place: String? = nil, postcode: String? = nil, city: String? = nil
        var hasAddress = false, mayHaveOtherNames = false
        for tag in tags {
            let key = tag.key
            if key.utf8.first == UInt8(ascii: "a"), key.hasPrefix("addr:") {
                hasAddress = true
                switch key {
                case "addr:housenumber": if houseNumber == nil { houseNumber = tag.value }
                case "addr:street": if street == nil { street = tag.value }
                case "addr:place": if place == nil { place = tag.value }
                case "addr:postcode": if postcode == nil { postcode = tag.value }
                case "addr:city": if city == nil { city = tag.value }
                default: break
                }
            } else if key == "name" {
                if name.isEmpty { name = tag.value }
            } else if key.hasSuffix("_name") || key.hasPrefix("name:") {
                mayHaveOtherNames = true
            }
        }
        let category = category(of: tags)
        guard !name.isEmpty || hasAddress || category?.placeByItself == true else { return nil }
        // Other names: alternative, official, short and old names and the language variants, each once.
        var others: [String] = []
        if mayHaveOtherNames {
            for tag in tags {
                let key = tag.key
                guard key == "alt_name" || key == "official_name" || key == "short_name" || key == "old_name" || key == "loc_name"
                        || isNameVariant(key) else { continue }
                for value in tag.value.split(separator: ";") {
                    let trimmed = String(value).trimmingSpaces
                    if !trimmed.isEmpty, trimmed != name, !others.contains(trimmed) { others.append(trimmed) }
                }
            }
        }
        let (key, value) = category.map { ($0.key, $0.value) } ?? (hasAddress ? ("addr", "address") : ("", "other"))
        return CollectedPlace(
            source: type, osmID: id, latitudeE7: 0, longitudeE7: 0, name: name, otherNames: others,
            categoryKey: key, categoryValue: value,
            houseNumber: houseNumber ?? "", street: street ?? place ?? "",
            postcode: postcode ?? "", city: city ?? "", reference: "")
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
        let place = Self.describe(way.tags, type: .way, id: way.id)
        // Roads keep no mean: the collector keeps their nodes anyway (see `roadPoint`), and they are most of the
        // node references, whose look-ups the mean would cost.
        let keepMean = way.tags["highway"] == nil
        guard place != nil || keepMean, !way.nodeIDs.isEmpty else { return }
        var ids = way.nodeIDs[...]
        let closed = ids.count > 2 && ids.first == ids.last
        if closed { ids = ids.dropLast() }
        var latitudeSum = 0, longitudeSum = 0, found = 0
        for id in ids {
            if let index = nodeIndex(of: id, in: collector) {
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
        if !closed, let middle = nodeIndex(of: ids[ids.startIndex + ids.count / 2], in: collector) {
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
        guard var place = Self.describe(relation.tags, type: .relation, id: relation.id) else { return }
        if !wayMeansSorted { sortWayMeans() }
        var labelNode: Int? = nil
        var latitudeSum = 0, longitudeSum = 0, count = 0
        for member in relation.members {
            switch member.type {
            case .node where member.role == "label" || (member.role == "admin_centre" && labelNode == nil):
                if let index = nodeIndex(of: member.ref, in: collector) { labelNode = index }
            case .way:
                if let index = binarySearch(wayMeanIDs, member.ref) {
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
        guard let position = binarySearch(roadIDs, id) else { return nil }
        let way = ways[roadOrder!.isEmpty ? position : roadOrder![position]]
        let middle = collector.wayNodeIDs[way.firstNode + Int(way.nodeCount) / 2]
        guard let node = nodeIndex(of: middle, in: collector) else { return nil }
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
        wayMeanIDs = []; wayMeans = []; nodeOrder = nil; roadOrder = nil; roadIDs = []
    }

    private func sortWayMeans() {
        let order = wayMeanIDs.indices.sorted { wayMeanIDs[$0] < wayMeanIDs[$1] }
        wayMeanIDs = order.map { wayMeanIDs[$0] }
        wayMeans = order.map { wayMeans[$0] }
        wayMeansSorted = true
    }

    /// The index of node `id` in the collector's arrays, if it was read. A way's nodes mostly have ids next to one
    /// another (drawn together), so the search looks just after the last node found (`nodeHint`) before it falls
    /// back to a binary search over every node.
    private func nodeIndex(of id: Int64, in collector: OSMCollector) -> Int? {
        if collector.nodesSorted {
            return collector.nodeIDs.withUnsafeBufferPointer { ids in
                let position = Self.lowerBound(of: id, from: nodeHint, count: ids.count) { ids[$0] }
                guard position < ids.count, ids[position] == id else { return nil }
                nodeHint = position
                return position
            }
        }
        if nodeOrder == nil || nodeOrder!.count != collector.nodeIDs.count {
            let ids = collector.nodeIDs
            nodeOrder = (0..<Int32(ids.count)).sorted { ids[Int($0)] < ids[Int($1)] }
        }
        return nodeOrder!.withUnsafeBufferPointer { order in
            collector.nodeIDs.withUnsafeBufferPointer { ids in
                let position = Self.lowerBound(of: id, from: nodeHint, count: order.count) { ids[Int(order[$0])] }
                guard position < order.count, ids[Int(order[position])] == id else { return nil }
                nodeHint = position
                return Int(order[position])
            }
        }
    }

    /// The first position in `0..<count` whose key is at least `id` (`count` when none is), for keys in increasing
    /// order: the few positions after `hint` first (the next node of a way is mostly the next id), then a binary
    /// search over all.
    @inline(__always)
    static func lowerBound(of id: Int64, from hint: Int, count: Int, _ key: (Int) -> Int64) -> Int {
        guard count > 0 else { return 0 }
        let h = min(max(hint, 0), count - 1)
        if key(h) < id {
            var k = h + 1
            while k < count && k <= h + 4 {
                if key(k) >= id { return k }
                k += 1
            }
        } else if h == 0 || key(h - 1) < id {
            return h
        }
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if key(mid) < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func binarySearch(_ array: [Int64], _ id: Int64) -> Int? {
        array.withUnsafeBufferPointer { ids in
            var low = 0, high = ids.count
            while low < high {
                let mid = (low + high) / 2
                if ids[mid] < id { low = mid + 1 } else { high = mid }
            }
            return low < ids.count && ids[low] == id ? low : nil
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
