import Foundation
import OSM

/// A second, plain implementation of `docs/profiles.md` for the tests, written for clarity rather than speed and
/// sharing nothing with the engine beyond the OSM XML reader: it reads the elements itself, builds its own graph of
/// OSM nodes and segments (no `GraphBuilder`, `RestrictionResolver`, `ProfileEvaluator`, `Snapper`, spatial index or
/// search code), and answers route times by a Dijkstra over (directed segment, restriction matches) states.
///
/// It implements the rules as the page states them, with Wayfinder's readings where the page leaves room:
/// speeds, `maxspeed`, access, one-ways, barriers, turn restrictions (via node and via way, `only_*` as the only exits
/// allowed), U-turns (car: only at a dead end or a barrier it cannot pass; foot: anywhere), clipped ways (pieces),
/// snapping to the nearest segment, and the island rule (nearest road first; off a small island only when a leg has
/// no route).
final class IndependentReference {
    enum Mode: String { case car, foot }

    // MARK: Reading

    /// Every node of the file: position in 1e-7 degrees (the first copy of a repeated id).
    private(set) var nodePosition: [Int64: (lat: Int32, lon: Int32)] = [:]
    /// Tags of the nodes that carry any.
    private(set) var nodeTags: [Int64: [OSMTag]] = [:]
    struct Way { var id: Int64; var nodes: [Int64]; var tags: [OSMTag] }
    private(set) var ways: [Way] = []
    struct Relation { var id: Int64; var members: [OSMMember]; var tags: [OSMTag] }
    private(set) var relations: [Relation] = []

    private final class Reader: OSMElementHandler {
        var positions: [Int64: (lat: Int32, lon: Int32)] = [:]
        var tags: [Int64: [OSMTag]] = [:]
        var ways: [Way] = []
        var seenWays = Set<Int64>()
        var relations: [Relation] = []
        func handle(node: OSMNode) {
            guard positions[node.id] == nil else { return }
            positions[node.id] = (node.latitudeE7, node.longitudeE7)
            if !node.tags.isEmpty { tags[node.id] = node.tags }
        }
        func handle(way: OSMWay) {
            guard way.tags["highway"] != nil || way.tags["railway"] != nil || way.tags["public_transport"] != nil else { return }
            guard seenWays.insert(way.id).inserted else { return }
            ways.append(Way(id: way.id, nodes: way.nodeIDs, tags: way.tags))
        }
        func handle(relation: OSMRelation) {
            guard let type = relation.tags["type"], type.hasPrefix("restriction") else { return }
            relations.append(Relation(id: relation.id, members: relation.members, tags: relation.tags))
        }
    }

    /// Reads an OSM XML file (plain, gzip or bzip2).
    init(path: String) throws {
        let input = try OSMInput(path: path)
        let reader = Reader()
        try OSMXMLReader(source: input.source, name: input.file.name, handler: reader).read()
        nodePosition = reader.positions
        nodeTags = reader.tags
        ways = reader.ways
        relations = reader.relations
    }

    // MARK: The profiles, as docs/profiles.md states them

    static let carSpeeds: [String: Double] = [
        "motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40, "primary": 65, "primary_link": 30,
        "secondary": 55, "secondary_link": 25, "tertiary": 40, "tertiary_link": 20, "unclassified": 25, "residential": 25,
        "living_street": 10, "service": 15,
    ]
    static let carDenied: Set<String> = ["no", "private", "agricultural", "forestry", "emergency", "delivery", "psv", "bus"]
    static let footHighways: Set<String> = [
        "footway", "pedestrian", "path", "steps", "living_street", "residential", "service", "unclassified", "tertiary",
        "tertiary_link", "secondary", "secondary_link", "primary", "primary_link", "trunk", "trunk_link", "track",
        "bridleway", "cycleway", "corridor", "platform",
    ]

    /// A `maxspeed` value in km/h: a positive number, optionally followed by `mph` or `km/h` (space optional), of at
    /// most 300 km/h.
    static func maxspeed(_ text: String?) -> Double? {
        guard var value = text?.trimmingCharacters(in: CharacterSet(charactersIn: " ")) else { return nil }
        var factor = 1.0
        if value.hasSuffix("mph") { factor = 1.609344; value.removeLast(3) } else if value.hasSuffix("km/h") { value.removeLast(4) }
        value = value.trimmingCharacters(in: CharacterSet(charactersIn: " "))
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let number = Double(value), number > 0, number * factor <= 300 else { return nil }
        return number * factor
    }

    /// km/h along and against the way's node order (nil: that direction closed), or nil when the mode may not use it.
    static func speeds(_ tags: [OSMTag], _ mode: Mode) -> (forward: Double?, backward: Double?)? {
        let highway = tags["highway"]
        if let highway, ["construction", "proposed", "abandoned"].contains(highway) { return nil }
        if tags["route"] == "ferry" { return nil }
        switch mode {
        case .car:
            guard let highway, var speed = carSpeeds[highway] else { return nil }
            if tags["area"] == "yes" || tags["impassable"] == "yes" { return nil }
            for key in ["motorcar", "motor_vehicle", "vehicle", "access"] {
                if let value = tags[key] {
                    if carDenied.contains(value) { return nil }
                    break
                }
            }
            var forward = true, backward = true, explicit = true
            switch tags["oneway"] {
            case "yes", "true", "1": backward = false
            case "-1", "reverse": forward = false
            case "no", "false", "0": break
            case "reversible", "alternating": return nil
            default: explicit = false
            }
            if !explicit {
                let junction = tags["junction"]
                if junction == "roundabout" || junction == "circular" || highway == "motorway" || highway == "motorway_link" { backward = false }
            }
            if let limit = maxspeed(tags["maxspeed"]) { speed = limit * 0.8 }
            let forwardSpeed = maxspeed(tags["maxspeed:forward"]).map { $0 * 0.8 } ?? speed
            let backwardSpeed = maxspeed(tags["maxspeed:backward"]).map { $0 * 0.8 } ?? speed
            return (forward ? forwardSpeed : nil, backward ? backwardSpeed : nil)
        case .foot:
            let foot = tags["foot"]
            if let foot, ["no", "private", "use_sidepath"].contains(foot) { return nil }
            if foot == nil, let access = tags["access"], ["no", "private"].contains(access) { return nil }
            var speed: Double? = nil
            if let highway, footHighways.contains(highway) { speed = highway == "steps" ? 3 : 5 }
            if speed == nil, tags["railway"] == "platform" || tags["public_transport"] == "platform" { speed = 5 }
            // An explicit foot permission opens any highway, a motorway included (Wayfinder's reading).
            if speed == nil, highway != nil, let foot, ["yes", "designated", "permissive"].contains(foot) { speed = 5 }
            guard let speed else { return nil }
            switch tags["oneway:foot"] {
            case "yes": return (speed, nil)
            case "-1": return (nil, speed)
            default: return (speed, speed)
            }
        }
    }

    /// Whether a node with these tags closes the way to the mode.
    static func blocks(_ tags: [OSMTag], _ mode: Mode) -> Bool {
        switch mode {
        case .car:
            guard let barrier = tags["barrier"],
                  ["bollard", "block", "jersey_barrier", "chain", "fence", "wall", "planter", "rope", "log"].contains(barrier) else { return false }
            for key in ["motorcar", "motor_vehicle", "vehicle", "access"] {
                if let value = tags[key] { return carDenied.contains(value) }
            }
            return true
        case .foot:
            return tags["barrier"] == "fence" || tags["barrier"] == "wall" || tags["foot"] == "no"
        }
    }

    // MARK: The mode's graph

    /// One mode's graph: OSM nodes and the segments between consecutive present nodes of its ways.
    final class Network {
        let mode: Mode
        /// Node positions (degrees) and OSM ids, by node index.
        var latitude: [Double] = [], longitude: [Double] = []
        var osmID: [Int64] = []
        var blocked: [Bool] = []
        /// Segment k runs from node `segmentA[k]` to `segmentB[k]` along its way; seconds each way (nil: closed).
        var segmentA: [Int32] = [], segmentB: [Int32] = []
        var segmentLength: [Double] = []
        var forwardTime: [Double?] = [], backwardTime: [Double?] = []
        var segmentWay: [Int64] = []
        /// Directed segments leaving each node: `k << 1` (a→b) or `k << 1 | 1` (b→a), open or not.
        var leaving: [[Int32]] = []
        /// Whether each node lies on a small island; each segment's "outside islands" verdict.
        var island: [Bool] = []
        var segmentOnMain: [Bool] = []
        /// Forbidden continuations (prohibitory) and the only ones allowed (mandatory), as directed-segment sequences.
        var patterns: [Pattern] = []
        var patternsStartingWith: [Int32: [Int32]] = [:]
        /// Restrictions kept (via node, via way) and skipped, for the test's report.
        var restrictionsKept = 0, restrictionsSkipped = 0
        /// The spatial grid of usable segments.
        var grid: [Int64: [Int32]] = [:]
        let cellDegrees = 0.002

        struct Pattern {
            /// The directed segments that must have been taken, in order.
            var prefix: [Int32]
            /// Prohibitory: the forbidden next segment(s); mandatory: the only next segments allowed.
            var next: Set<Int32>
            var mandatory: Bool
        }

        init(mode: Mode) { self.mode = mode }

        @inline(__always) func tail(_ d: Int32) -> Int32 { d & 1 == 0 ? segmentA[Int(d >> 1)] : segmentB[Int(d >> 1)] }
        @inline(__always) func head(_ d: Int32) -> Int32 { d & 1 == 0 ? segmentB[Int(d >> 1)] : segmentA[Int(d >> 1)] }
        @inline(__always) func time(_ d: Int32) -> Double? { d & 1 == 0 ? forwardTime[Int(d >> 1)] : backwardTime[Int(d >> 1)] }
        func usable(_ k: Int) -> Bool { forwardTime[k] != nil || backwardTime[k] != nil }
        /// Segments of the mode's graph meeting each node (filled once the graph is built).
        var usableDegree: [Int] = []
        /// Segments of the mode's graph meeting node n.
        func degree(_ n: Int32) -> Int { usableDegree[Int(n)] }
        func mayTurnBack(at n: Int32) -> Bool { mode == .foot || blocked[Int(n)] || degree(n) == 1 }
    }

    /// The metres between two positions (degrees) on the sphere of docs/profiles.md.
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    /// The pieces of a way: runs of consecutive nodes present in the file, repeated consecutive nodes collapsed.
    func pieces(_ way: Way) -> [[Int64]] {
        var result: [[Int64]] = [], piece: [Int64] = []
        for id in way.nodes {
            if nodePosition[id] == nil {
                if piece.count >= 2 { result.append(piece) }
                piece = []
            } else if piece.last != id {
                piece.append(id)
            }
        }
        if piece.count >= 2 { result.append(piece) }
        return result
    }

    /// Builds the graph of `mode`.
    func network(_ mode: Mode) -> Network {
        let net = Network(mode: mode)
        var index: [Int64: Int32] = [:]
        func node(_ id: Int64) -> Int32 {
            if let i = index[id] { return i }
            let i = Int32(net.osmID.count)
            index[id] = i
            let p = nodePosition[id]!
            net.osmID.append(id)
            net.latitude.append(Double(p.lat) * 1e-7)
            net.longitude.append(Double(p.lon) * 1e-7)
            net.blocked.append(nodeTags[id].map { Self.blocks($0, mode) } ?? false)
            net.leaving.append([])
            return i
        }
        // Junctions, for counting a component's size: piece ends, nodes met twice, barriers, restriction via nodes;
        // over the roads of either default mode (the nodes of Wayfinder's graph).
        var uses: [Int64: Int] = [:]
        var anyRoad: [Int64: Bool] = [:]   // way id → a road for car or foot
        var waySegments: [Int64: [Int32]] = [:]
        for way in ways {
            let road = Self.speeds(way.tags, .car).map { $0.forward != nil || $0.backward != nil } == true
                || Self.speeds(way.tags, .foot).map { $0.forward != nil || $0.backward != nil } == true
            anyRoad[way.id] = road
            guard road else { continue }
            for piece in pieces(way) {
                for (i, id) in piece.enumerated() { uses[id, default: 0] += (i == 0 || i == piece.count - 1) ? 2 : 1 }
            }
            // Every road's segments are kept (closed both ways when the mode may not use the way), so that a
            // restriction naming a road of the other mode means what it says.
            let (forward, backward) = Self.speeds(way.tags, mode) ?? (nil, nil)
            for piece in pieces(way) {
                for (a, b) in zip(piece, piece.dropFirst()) {
                    let i = node(a), j = node(b)
                    let pa = nodePosition[a]!, pb = nodePosition[b]!
                    let length = Self.haversine(Double(pa.lat) * 1e-7, Double(pa.lon) * 1e-7, Double(pb.lat) * 1e-7, Double(pb.lon) * 1e-7)
                    let k = Int32(net.segmentA.count)
                    net.segmentA.append(i); net.segmentB.append(j); net.segmentLength.append(length)
                    net.forwardTime.append(forward.map { length / ($0 / 3.6) })
                    net.backwardTime.append(backward.map { length / ($0 / 3.6) })
                    net.segmentWay.append(way.id)
                    net.leaving[Int(i)].append(k << 1)
                    net.leaving[Int(j)].append(k << 1 | 1)
                    waySegments[way.id, default: []].append(k)
                }
            }
        }
        var junction = Set(uses.filter { $0.value >= 2 }.map(\.key))
        for (id, tags) in nodeTags where tags["barrier"] != nil || Self.blocks(tags, .car) || Self.blocks(tags, .foot) {
            if uses[id] != nil { junction.insert(id) }
        }
        for relation in relations where Self.carValue(relation) != nil {
            for member in relation.members where member.role == "via" && member.type == .node && uses[member.ref] != nil { junction.insert(member.ref) }
        }
        net.usableDegree = net.leaving.map { list in list.filter { net.usable(Int($0 >> 1)) }.count }
        findIslands(net, junction: junction)
        if mode == .car { resolveRestrictions(net, anyRoad: anyRoad, index: index, waySegments: waySegments) }
        for k in 0..<net.segmentA.count where net.usable(k) {
            let a = Int(net.segmentA[k]), b = Int(net.segmentB[k])
            let cells = Self.cells(minLat: min(net.latitude[a], net.latitude[b]), maxLat: max(net.latitude[a], net.latitude[b]),
                                   minLon: min(net.longitude[a], net.longitude[b]), maxLon: max(net.longitude[a], net.longitude[b]), size: net.cellDegrees)
            for cell in cells { net.grid[cell, default: []].append(Int32(k)) }
        }
        return net
    }

    static func cellKey(_ y: Int, _ x: Int) -> Int64 { Int64(y) << 32 | Int64(UInt32(bitPattern: Int32(x))) }

    static func cells(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double, size: Double) -> [Int64] {
        var result: [Int64] = []
        for y in Int((minLat / size).rounded(.down))...Int((maxLat / size).rounded(.down)) {
            for x in Int((minLon / size).rounded(.down))...Int((maxLon / size).rounded(.down)) { result.append(cellKey(y, x)) }
        }
        return result
    }

    /// Strongly connected components over the arcs the mode may use (a blocked node has no way out); a component
    /// other than the largest with fewer than 1000 junctions is an island. A segment is outside islands when, of the
    /// junctions ending its stretch of way, one is on the main network and none on an island (blocked ones aside).
    private func findIslands(_ net: Network, junction: Set<Int64>) {
        let n = net.osmID.count
        var order = [Int32](repeating: -1, count: n), low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n), component = [Int32](repeating: -1, count: n)
        var stack: [Int32] = [], sizes: [Int] = [], counter: Int32 = 0
        func successors(_ u: Int32) -> [Int32] {
            if net.blocked[Int(u)] { return [] }
            return net.leaving[Int(u)].compactMap { net.time($0) != nil ? net.head($0) : nil }
        }
        for root in 0..<Int32(n) where order[Int(root)] < 0 {
            var call: [(node: Int32, next: [Int32], position: Int)] = [(root, successors(root), 0)]
            order[Int(root)] = counter; low[Int(root)] = counter; counter += 1
            stack.append(root); onStack[Int(root)] = true
            while !call.isEmpty {
                let top = call.count - 1
                let u = call[top].node
                if call[top].position < call[top].next.count {
                    let v = call[top].next[call[top].position]
                    call[top].position += 1
                    if order[Int(v)] < 0 {
                        order[Int(v)] = counter; low[Int(v)] = counter; counter += 1
                        stack.append(v); onStack[Int(v)] = true
                        call.append((v, successors(v), 0))
                    } else if onStack[Int(v)] {
                        low[Int(u)] = min(low[Int(u)], order[Int(v)])
                    }
                    continue
                }
                call.removeLast()
                if let parent = call.last { low[Int(parent.node)] = min(low[Int(parent.node)], low[Int(u)]) }
                if low[Int(u)] == order[Int(u)] {
                    let id = Int32(sizes.count)
                    var size = 0
                    while let w = stack.popLast() {
                        onStack[Int(w)] = false
                        component[Int(w)] = id
                        if junction.contains(net.osmID[Int(w)]) { size += 1 }
                        if w == u { break }
                    }
                    sizes.append(size)
                }
            }
        }
        var largest = -1
        for c in sizes.indices where largest < 0 || sizes[c] > sizes[largest] { largest = c }
        net.island = (0..<n).map { v in
            let c = Int(component[v])
            return !(c == largest || sizes[c] >= 1000)
        }
        // Each segment's stretch of way between junctions: walk to its ends.
        net.segmentOnMain = [Bool](repeating: false, count: net.segmentA.count)
        var done = [Bool](repeating: false, count: net.segmentA.count)
        for k in 0..<net.segmentA.count where !done[k] {
            // The stretch: segments of the same way chained through non-junction nodes.
            var stretch = [k]
            var ends: [Int32] = []
            for forward in [true, false] {
                var current = k
                var node = forward ? net.segmentB[k] : net.segmentA[k]
                while !junction.contains(net.osmID[Int(node)]) {
                    // The other segment of the same way at this node.
                    guard let next = net.leaving[Int(node)].map({ Int($0 >> 1) }).first(where: { $0 != current && net.segmentWay[$0] == net.segmentWay[k] }) else { break }
                    stretch.append(next)
                    current = next
                    node = net.segmentA[next] == node ? net.segmentB[next] : net.segmentA[next]
                }
                ends.append(node)
            }
            var main = false, stranded = false
            for end in ends {
                if !net.island[Int(end)] { main = true } else if !net.blocked[Int(end)] { stranded = true }
            }
            for s in stretch { done[s] = true; net.segmentOnMain[s] = main && !stranded }
        }
    }

    /// The restriction value a relation has for cars: its type is `restriction` or `restriction:motorcar`, the value
    /// is `restriction:motorcar` or else `restriction`, and `except` does not name `motorcar` or `motor_vehicle`.
    static func carValue(_ relation: Relation) -> String? {
        let tags = relation.tags
        guard tags["type"] == "restriction" || tags["type"] == "restriction:motorcar" else { return nil }
        guard let value = tags["restriction:motorcar"] ?? tags["restriction"] else { return nil }
        if let except = tags["except"], except.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
            .contains(where: { $0 == "motorcar" || $0 == "motor_vehicle" }) { return nil }
        return value
    }

    /// Turn restrictions of the car, as directed-segment patterns.
    private func resolveRestrictions(_ net: Network, anyRoad: [Int64: Bool], index: [Int64: Int32], waySegments: [Int64: [Int32]]) {
        var mandatoryGroups: [[Int32]: Set<Int32>] = [:]
        // The directed segments of way w arriving at / leaving OSM node `id`.
        func arriving(_ w: Int64, _ id: Int64) -> [Int32] {
            guard let n = index[id] else { return [] }
            return (waySegments[w] ?? []).flatMap { k -> [Int32] in
                var out: [Int32] = []
                if net.segmentB[Int(k)] == n { out.append(k << 1) }
                if net.segmentA[Int(k)] == n { out.append(k << 1 | 1) }
                return out
            }
        }
        func leavingAt(_ w: Int64, _ id: Int64) -> [Int32] { arriving(w, id).map { $0 ^ 1 } }
        let wayByID = Dictionary(ways.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        /// A way's pieces as OSM node ids, only for roads.
        func piecesOf(_ w: Int64) -> [[Int64]] { wayByID[w].map(pieces) ?? [] }
        /// Where way `w` meets way `other`: ends of w's pieces first, then any node of w; not `excluding`.
        func junction(_ w: Int64, _ other: Int64, excluding: Int64?) -> Int64? {
            let otherNodes = Set(piecesOf(other).flatMap { $0 })
            let parts = piecesOf(w)
            let candidates = parts.flatMap { [$0.first!, $0.last!] } + parts.flatMap { $0 }
            return candidates.first { otherNodes.contains($0) && $0 != excluding }
        }
        /// Directed segments along way w from node a to node b within one piece.
        func along(_ w: Int64, _ a: Int64, _ b: Int64) -> [Int32]? {
            for piece in piecesOf(w) {
                guard let i = piece.firstIndex(of: a), let j = piece.lastIndex(of: b), i != j else { continue }
                var out: [Int32] = []
                let range = i < j ? Array(i..<j) : Array((j..<i).reversed())
                for p in range {
                    let x = i < j ? piece[p] : piece[p + 1], y = i < j ? piece[p + 1] : piece[p]
                    guard let xi = index[x], let yi = index[y],
                          let d = net.leaving[Int(xi)].first(where: { net.head($0) == yi && net.segmentWay[Int($0 >> 1)] == w }) else { return nil }
                    out.append(d)
                }
                return out
            }
            return nil
        }
        for relation in relations {
            guard let value = Self.carValue(relation) else { continue }
            let prohibitory = ["no_left_turn", "no_right_turn", "no_straight_on", "no_u_turn", "no_entry", "no_exit"].contains(value)
            let mandatory = ["only_left_turn", "only_right_turn", "only_straight_on", "only_u_turn"].contains(value)
            guard prohibitory || mandatory else { net.restrictionsSkipped += 1; continue }
            var from: [Int64] = [], to: [Int64] = [], viaNodes: [Int64] = [], viaWays: [Int64] = []
            for m in relation.members {
                switch (m.role, m.type) {
                case ("from", .way): from.append(m.ref)
                case ("to", .way): to.append(m.ref)
                case ("via", .node): viaNodes.append(m.ref)
                case ("via", .way): viaWays.append(m.ref)
                default: break
                }
            }
            func present(_ w: Int64) -> Bool { anyRoad[w] == true && !piecesOf(w).isEmpty }
            guard !from.isEmpty, !to.isEmpty, from.allSatisfy(present), to.allSatisfy(present), viaWays.allSatisfy(present) else {
                net.restrictionsSkipped += 1; continue
            }
            var paths: [[Int32]] = []
            if viaWays.isEmpty {
                guard viaNodes.count == 1 else { net.restrictionsSkipped += 1; continue }
                let via = viaNodes[0]
                let arrivals = from.map { arriving($0, via) }, departures = to.map { leavingAt($0, via) }
                guard arrivals.allSatisfy({ !$0.isEmpty }), departures.allSatisfy({ !$0.isEmpty }) else { net.restrictionsSkipped += 1; continue }
                let uTurn = value.hasSuffix("_u_turn")
                for (f, ins) in zip(from, arrivals) {
                    for (t, outs) in zip(to, departures) {
                        for leave in outs {
                            for arrive in ins where f != t || ((arrive >> 1) == (leave >> 1)) == uTurn { paths.append([arrive, leave]) }
                        }
                    }
                }
            } else {
                guard viaNodes.isEmpty, from.count == 1, to.count == 1, let entry = junction(viaWays[0], from[0], excluding: nil) else {
                    net.restrictionsSkipped += 1; continue
                }
                var middle: [Int32] = [], current = entry, ok = true
                for (i, via) in viaWays.enumerated() {
                    let next = i + 1 < viaWays.count ? viaWays[i + 1] : to[0]
                    guard let exit = junction(via, next, excluding: current), let part = along(via, current, exit) else { ok = false; break }
                    middle += part
                    current = exit
                }
                let ins = arriving(from[0], entry), outs = leavingAt(to[0], current)
                guard ok, !middle.isEmpty, !ins.isEmpty, !outs.isEmpty else { net.restrictionsSkipped += 1; continue }
                for arrive in ins where arrive >> 1 != middle.first! >> 1 {
                    for leave in outs where leave >> 1 != middle.last! >> 1 { paths.append([arrive] + middle + [leave]) }
                }
            }
            guard !paths.isEmpty else { net.restrictionsSkipped += 1; continue }
            net.restrictionsKept += 1
            for path in paths {
                if prohibitory {
                    net.patterns.append(Network.Pattern(prefix: Array(path.dropLast()), next: [path.last!], mandatory: false))
                } else {
                    mandatoryGroups[Array(path.dropLast()), default: []].insert(path.last!)
                }
            }
        }
        for (prefix, allowed) in mandatoryGroups.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            net.patterns.append(Network.Pattern(prefix: prefix, next: allowed, mandatory: true))
        }
        for (p, pattern) in net.patterns.enumerated() { net.patternsStartingWith[pattern.prefix[0], default: []].append(Int32(p)) }
    }

    // MARK: Snapping

    /// A point on the mode's graph: on a node, or part-way along segment `segment` (fraction from its node a).
    struct Place: Equatable {
        var node: Int32?
        var segment: Int
        var fraction: Double
        var distance: Double
        var onMain: Bool
    }

    /// The nearest point of the nearest usable segment (of the main network only, with `mainOnly`) within
    /// `maxDistance` metres, by perpendicular distance in a local equirectangular projection.
    func snap(_ net: Network, latitude: Double, longitude: Double, maxDistance: Double = 1000, mainOnly: Bool = false) -> Place? {
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        let cosine = cos(latitude * Double.pi / 180)
        let dLat = maxDistance / metresPerDegree, dLon = maxDistance / (metresPerDegree * max(cosine, 0.01))
        var best: (distance: Double, segment: Int, t: Double)? = nil
        var seen = Set<Int32>()
        for cell in Self.cells(minLat: latitude - dLat, maxLat: latitude + dLat, minLon: longitude - dLon, maxLon: longitude + dLon, size: net.cellDegrees) {
            for k32 in net.grid[cell] ?? [] where seen.insert(k32).inserted {
                let k = Int(k32)
                if mainOnly && !net.segmentOnMain[k] { continue }
                let a = Int(net.segmentA[k]), b = Int(net.segmentB[k])
                let ax = (net.longitude[a] - longitude) * cosine * metresPerDegree, ay = (net.latitude[a] - latitude) * metresPerDegree
                let bx = (net.longitude[b] - longitude) * cosine * metresPerDegree, by = (net.latitude[b] - latitude) * metresPerDegree
                let dx = bx - ax, dy = by - ay
                let squared = dx * dx + dy * dy
                var t = squared > 0 ? -(ax * dx + ay * dy) / squared : 0
                t = min(1, max(0, t))
                let px = ax + t * dx, py = ay + t * dy
                let d = (px * px + py * py).squareRoot()
                if d <= maxDistance, best == nil || d < best!.distance { best = (d, k, t) }
            }
        }
        guard let best else { return nil }
        let k = best.segment
        let node: Int32? = best.t <= 0 ? net.segmentA[k] : best.t >= 1 ? net.segmentB[k] : nil
        return Place(node: node, segment: k, fraction: best.t, distance: best.distance, onMain: net.segmentOnMain[k])
    }

    /// A stop: its nearest road, and where it moves when a leg from or to it has no route.
    struct Stop { var nearest: Place; var moved: Place? }

    func stop(_ net: Network, latitude: Double, longitude: Double, maxDistance: Double = 1000) -> Stop? {
        guard let nearest = snap(net, latitude: latitude, longitude: longitude, maxDistance: maxDistance) else { return nil }
        var moved: Place? = nil
        if !nearest.onMain {
            moved = snap(net, latitude: latitude, longitude: longitude, maxDistance: min(maxDistance, nearest.distance + 50), mainOnly: true)
        }
        return Stop(nearest: nearest, moved: moved)
    }

    // MARK: Searching

    /// A search state: the directed segment just taken and the restriction patterns partly matched (pattern, symbols matched).
    struct State: Hashable {
        var segment: Int32
        var matches: [Int64]
    }

    /// The patterns matched after taking `next` in a state with `matches`, or nil when a restriction forbids it.
    func advance(_ net: Network, _ matches: [Int64], _ next: Int32) -> [Int64]? {
        if matches.isEmpty && net.patternsStartingWith[next] == nil { return [] }
        var result: [Int64] = []
        for m in matches {
            let p = Int(m >> 32), k = Int(m & 0xFFFF_FFFF)
            let pattern = net.patterns[p]
            if k == pattern.prefix.count {
                // The whole approach driven: the next segment is forbidden (prohibitory) or must be allowed (mandatory).
                if pattern.mandatory != pattern.next.contains(next) { return nil }
            } else if pattern.prefix[k] == next {
                result.append(Int64(p) << 32 | Int64(k + 1))
            }
        }
        for p in net.patternsStartingWith[next] ?? [] { result.append(Int64(p) << 32 | 1) }
        return result.sorted()
    }

    /// Whether a route that just took `d` may take `next` out of the node between.
    func mayMove(_ net: Network, from d: Int32, to next: Int32) -> Bool {
        guard net.time(next) != nil else { return false }
        let v = net.head(d)
        if next == d ^ 1 { return net.mayTurnBack(at: v) }
        return !net.blocked[Int(v)]
    }

    /// Seconds of the fastest route from `start` to each of `targets` (nil: none), one Dijkstra.
    func times(_ net: Network, from start: Place, to targets: [Place]) -> [Double?] {
        var best = [Double](repeating: .infinity, count: targets.count)
        // Targets by the node they are reached from.
        var onNode: [Int32: [Int]] = [:], onSegment: [Int: [Int]] = [:]
        for (i, t) in targets.enumerated() {
            if let n = t.node { onNode[n, default: []].append(i) } else { onSegment[t.segment, default: []].append(i) }
        }
        // Costs and settled marks: states without restriction history in arrays, the others in dictionaries.
        let directed = 2 * net.segmentA.count
        var plainCost = [Double](repeating: .infinity, count: directed)
        var plainDone = [Bool](repeating: false, count: directed)
        var cost: [State: Double] = [:]
        var done = Set<State>()
        var heap = Heap()
        func costOf(_ s: State) -> Double { s.matches.isEmpty ? plainCost[Int(s.segment)] : cost[s, default: .infinity] }
        func push(_ s: State, _ c: Double) {
            guard c < costOf(s) else { return }
            if s.matches.isEmpty { plainCost[Int(s.segment)] = c } else { cost[s] = c }
            heap.push(c, s)
        }
        /// Marks a state settled; false when it already was.
        func settle(_ s: State) -> Bool {
            if s.matches.isEmpty {
                if plainDone[Int(s.segment)] { return false }
                plainDone[Int(s.segment)] = true
                return true
            }
            return done.insert(s).inserted
        }
        /// The target reached along directed segment d, entered with `c` spent at its tail, part-way.
        func reachPartial(_ d: Int32, _ c: Double, startFraction: Double?) {
            let k = Int(d >> 1)
            guard let list = onSegment[k], let t = net.time(d) else { return }
            for i in list {
                let f = targets[i].fraction
                let from = startFraction ?? (d & 1 == 0 ? 0 : 1)
                let ahead = d & 1 == 0 ? f >= from : f <= from
                if ahead { best[i] = min(best[i], c + t * abs(f - from)) }
            }
        }
        if let n = start.node {
            for i in onNode[n] ?? [] { best[i] = 0 }
            for d in net.leaving[Int(n)] where net.time(d) != nil {
                reachPartial(d, 0, startFraction: nil)
                push(State(segment: d, matches: advance(net, [], d) ?? []), net.time(d)!)
            }
        } else {
            let k = Int32(start.segment)
            for d in [k << 1, k << 1 | 1] {
                guard let t = net.time(d) else { continue }
                reachPartial(d, 0, startFraction: start.fraction)
                let remaining = d & 1 == 0 ? 1 - start.fraction : start.fraction
                push(State(segment: d, matches: advance(net, [], d) ?? []), t * remaining)
            }
        }
        var worst = best.max() ?? 0
        while let (c, state) = heap.pop() {
            if c >= worst { break }
            if c > costOf(state) || !settle(state) { continue }
            let d = state.segment, v = net.head(d)
            for i in onNode[v] ?? [] { best[i] = min(best[i], c) }
            for next in net.leaving[Int(v)] where mayMove(net, from: d, to: next) {
                guard let matches = advance(net, state.matches, next) else { continue }
                reachPartial(next, c, startFraction: nil)
                push(State(segment: next, matches: matches), c + net.time(next)!)
            }
            worst = best.max() ?? 0
        }
        return best.map { $0 < .infinity ? $0 : nil }
    }

    /// Seconds of the leg between two stops: between their nearest roads, else with each stop moved off its island.
    func leg(_ net: Network, from a: Stop, to b: Stop) -> Double? {
        if let t = times(net, from: a.nearest, to: [b.nearest])[0] { return t }
        guard a.moved != nil || b.moved != nil else { return nil }
        return times(net, from: a.moved ?? a.nearest, to: [b.moved ?? b.nearest])[0]
    }

    /// A plain binary heap of (cost, state).
    struct Heap {
        var items: [(Double, State)] = []
        mutating func push(_ key: Double, _ value: State) {
            items.append((key, value))
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if items[parent].0 <= items[i].0 { break }
                items.swapAt(parent, i); i = parent
            }
        }
        mutating func pop() -> (Double, State)? {
            guard !items.isEmpty else { return nil }
            let top = items[0]
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var i = 0
                while true {
                    let l = 2 * i + 1, r = l + 1
                    var m = i
                    if l < items.count && items[l].0 < items[m].0 { m = l }
                    if r < items.count && items[r].0 < items[m].0 { m = r }
                    if m == i { break }
                    items.swapAt(m, i); i = m
                }
            }
            return top
        }
    }
}
