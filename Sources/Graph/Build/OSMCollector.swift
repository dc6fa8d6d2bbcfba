import OSM

/// Gathers, in one streaming pass, what the graph needs from an OSM file: all node positions,
/// the routable ways with their per-profile speeds, barrier nodes and restriction relations.
///
/// Memory per node read: 16 bytes (id and position); ways keep only their node ids and a small record.
final class OSMCollector: OSMElementHandler {
    let evaluators: [ProfileEvaluator]

    // Nodes, in file order (sorted later if the file is not).
    @exclusivity(unchecked) var nodeIDs: [Int64] = []
    @exclusivity(unchecked) var nodeLatitudes: [Int32] = []
    @exclusivity(unchecked) var nodeLongitudes: [Int32] = []
    @exclusivity(unchecked) var nodesSorted = true
    /// The id look-up over the node arrays (`nodePosition(of:)`), built at the first look-up, rebuilt when nodes were
    /// added since (all of them come before the ways in PBF and sorted XML, so once) or reordered (`nodesReordered`).
    @exclusivity(unchecked) private var nodeLookup: IDIndex? = nil
    /// Where the last look-up found its node, whose successor is tried first.
    @exclusivity(unchecked) private var lastNodePosition = -1

    /// Nodes carrying a barrier or a blocking tag: id and flags (bit p: closed to profile p; bit 7: has a barrier tag).
    @exclusivity(unchecked) var specialNodeIDs: [Int64] = []
    @exclusivity(unchecked) var specialNodeFlags: [UInt8] = []

    /// Routable ways, in file order.
    @exclusivity(unchecked) var ways: [CollectedWay] = []
    /// Node ids of all collected ways, back to back.
    @exclusivity(unchecked) var wayNodeIDs: [Int64] = []
    /// km/h forward and backward per profile (0: closed), `2 × profiles` values per way.
    @exclusivity(unchecked) var waySpeeds: [Float] = []

    /// Restriction relations for the profiles that read them.
    @exclusivity(unchecked) var restrictions: [CollectedRestriction] = []

    /// Interned names and refs (index 0 is the empty string).
    @exclusivity(unchecked) var strings: [String] = [""]
    @exclusivity(unchecked) private var stringIndex: [String: UInt32] = ["": 0]

    @exclusivity(unchecked) var statistics = ImportStatistics()

    /// Also gathers the places of the search index, when set (`Places/PlaceCollector.swift`).
    var places: PlaceCollector?

    init(profiles: [TravelProfile]) {
        evaluators = profiles.map(ProfileEvaluator.init)
        statistics.profiles = profiles.map { ImportStatistics.ProfileFigures(name: $0.name) }
    }

    /// The position of node `id` in the node arrays (the first of duplicate ids), nil when it has not been read.
    /// Shared by the graph builder and the place collector.
    /// Nodes read after the look-up was built (ids in order, interleaved with ways) are binary-searched until they
    /// are as many as those it covers, then it is rebuilt: linear in all.
    @inline(__always)
    func nodePosition(of id: Int64) -> Int? {
        let count = nodeIDs.count
        let usable = nodeLookup.map { $0.count == count || ($0.sorted && nodesSorted && $0.count < count && count - $0.count <= $0.count) } ?? false
        if !usable { buildNodeLookup() }
        return nodeIDs.withUnsafeBufferPointer { ids in
            // A way's next node is mostly the node read after its last one (drawn together).
            let next = lastNodePosition + 1
            if nodesSorted, next < count, ids[next] == id { lastNodePosition = next; return next }
            // Nodes read since the look-up was built (only when in id order) are after its own.
            let found = nodeLookup!.position(of: id, inGrown: ids)
            if let found, found < nodeLookup!.count { lastNodePosition = found }
            return found
        }
    }

    /// Drops the id look-up: the node arrays were reordered or released.
    func nodesReordered() { nodeLookup = nil }

    private func buildNodeLookup() {
        nodeLookup = nil  // released before the new one is built
        nodeLookup = nodeIDs.withUnsafeBufferPointer { IDIndex(ids: $0, sorted: nodesSorted) }
    }

    private func intern(_ text: String?) -> UInt32 {
        guard let text, !text.isEmpty else { return 0 }
        let next = UInt32(strings.count)
        let index = stringIndex[text, default: next]
        if index == next {
            strings.append(text)
            stringIndex[text] = next
        }
        return index
    }

    func handle(node: OSMNode) {
        if let last = nodeIDs.last, node.id <= last { nodesSorted = false }
        nodeIDs.append(node.id)
        nodeLatitudes.append(node.latitudeE7)
        nodeLongitudes.append(node.longitudeE7)
        guard !node.tags.isEmpty else { return }
        places?.collect(node: node)
        var flags: UInt8 = node.tags["barrier"] != nil ? 0x80 : 0
        for index in evaluators.indices where evaluators[index].blocks(node: node.tags) {
            flags |= 1 << UInt8(index)
        }
        if flags != 0 {
            specialNodeIDs.append(node.id)
            specialNodeFlags.append(flags)
        }
    }

    func handle(way: OSMWay) {
        places?.collect(way: way, collector: self)
        let speedsStart = waySpeeds.count
        var routable = false
        for index in evaluators.indices {
            let verdict = evaluators[index].evaluate(way: way.tags) { [self] key, _ in
                if key.hasPrefix("maxspeed") { statistics.maxspeedIgnored += 1 } else { statistics.onewayIgnored += 1 }
            }
            switch verdict {
            case .unroutable:
                waySpeeds.append(0); waySpeeds.append(0)
            case let .routable(forward, backward):
                waySpeeds.append(Float(forward ?? 0)); waySpeeds.append(Float(backward ?? 0))
                if forward != nil || backward != nil { routable = true }
            }
        }
        guard routable else {
            waySpeeds.removeSubrange(speedsStart...)
            if way.tags["highway"] != nil { statistics.waysUnroutable += 1 } else { statistics.waysNotRoads += 1 }
            return
        }
        let highway = way.tags["highway"] ?? ((way.tags["railway"] == "platform" || way.tags["public_transport"] == "platform") ? "platform" : nil)
        ways.append(CollectedWay(
            id: way.id, firstNode: wayNodeIDs.count, nodeCount: Int32(way.nodeIDs.count),
            name: intern(way.tags["name"]), ref: intern(way.tags["ref"]),
            highwayClass: HighwayClass(highway: highway).rawValue))
        wayNodeIDs.append(contentsOf: way.nodeIDs)
    }

    func handle(relation: OSMRelation) {
        places?.collect(relation: relation, collector: self)
        guard let type = relation.tags["type"] else { return }
        var valuesByProfile: [String?] = []
        var any = false
        for evaluator in evaluators {
            guard let rule = evaluator.profile.restrictions, rule.relationTypes.contains(type) else { valuesByProfile.append(nil); continue }
            var value: String? = nil
            for key in rule.valueKeys { if let found = relation.tags[key] { value = found; break } }
            if let except = relation.tags["except"] {
                let exempted = except.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                if exempted.contains(where: rule.exemptions.contains) { value = nil; statistics.restrictionsExempt += 1 }
            }
            valuesByProfile.append(value)
            if value != nil { any = true }
        }
        guard any else { return }
        var from: [Int64] = [], to: [Int64] = [], viaNodes: [Int64] = [], viaWays: [Int64] = []
        for member in relation.members {
            switch (member.role, member.type) {
            case ("from", .way): from.append(member.ref)
            case ("to", .way): to.append(member.ref)
            case ("via", .node): viaNodes.append(member.ref)
            case ("via", .way): viaWays.append(member.ref)
            default: break
            }
        }
        restrictions.append(CollectedRestriction(id: relation.id, values: valuesByProfile, from: from, viaNodes: viaNodes, viaWays: viaWays, to: to))
    }
}

/// A routable way as collected: where its node ids are, its per-profile speeds and its labels.
struct CollectedWay {
    var id: Int64
    var firstNode: Int
    var nodeCount: Int32
    var name: UInt32
    var ref: UInt32
    var highwayClass: UInt8
}

/// A restriction relation as collected: its value per profile (nil: not for that profile) and its members.
struct CollectedRestriction {
    var id: Int64
    var values: [String?]
    var from: [Int64]
    var viaNodes: [Int64]
    var viaWays: [Int64]
    var to: [Int64]
}

import Foundation
