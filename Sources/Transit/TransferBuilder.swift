import Foundation
import Graph
import Routing

/// Fills a timetable's transfers: walks of at most `walkLimit` metres between different stops along the foot
/// graph (each stop snapped as a query point would be), 0 s at the same stop, then the transfers.txt overrides
/// (`2` exactly min_transfer_time, `3` forbidden, `0`/`1` allowed with the walking time even beyond the limit).
public struct TransferBuilder {
    public let graph: RoadGraph
    public let foot: ProfileGraph
    /// Longest walking transfer searched, metres.
    public var walkLimit: Double = 500
    /// Farthest a stop may lie from a walkable road to be snapped, metres.
    public var maxSnappingDistance: Double = 1000
    /// Walking speed for an allowed transfers.txt pair that no walkable path joins: the foot profile's 5 km/h.
    static let fallbackSpeed = 5.0 / 3.6

    /// Prepares transfers on the `foot` profile of `graph`.
    public init(graph: RoadGraph) throws(TransitError) {
        guard let foot = graph.profile(named: "foot") else { throw .noFootProfile(path: graph.file.path) }
        self.graph = graph
        self.foot = foot
    }

    /// Each stop's point on the foot graph, nil for stops beyond the snapping limit.
    public func snapStops(_ timetable: Timetable) -> [SearchEndpoint?] {
        let snapper = Snapper(graph: graph, profile: foot)
        return (0..<timetable.stopCount).map { s in
            let c = Coordinate(latitudeE7: timetable.stopLatitudes[s], longitudeE7: timetable.stopLongitudes[s])
            return snapper.snap(c, maxDistance: maxSnappingDistance).map { SearchEndpoint($0, in: graph) }
        }
    }

    /// Computes and stores the transfers of `timetable`, applying `rules` (from transfers.txt). Throws when the walks
    /// found exceed `maxTransfers` (stops packed so densely that every one reaches thousands of others: the walks
    /// grow with the square of their number).
    public func build(_ timetable: inout Timetable, rules: [(from: Int, to: Int, type: Int, minimumTime: Int?)],
                      maxTransfers: Int = GTFSLimits().maxRows) throws(TransitError) {
        let endpoints = snapStops(timetable)
        timetable.metadata.stopsOffNetwork = endpoints.filter { $0 == nil }.count
        timetable.metadata.transferWalkLimit = walkLimit
        let grid = StopGrid(latitudes: timetable.stopLatitudes, longitudes: timetable.stopLongitudes)
        let search = WalkSearch(graph: graph, profile: foot)
        var walks: [[Int: (time: Int32, distance: Float)]] = Array(repeating: [:], count: timetable.stopCount)
        var allowedFar: [Int: [Int]] = [:]
        var found = 0
        for rule in rules where rule.type == 0 || rule.type == 1 { allowedFar[rule.from, default: []].append(rule.to) }
        for s in 0..<timetable.stopCount {
            guard let start = endpoints[s] else { continue }
            let lat = Geo.degrees(timetable.stopLatitudes[s]), lon = Geo.degrees(timetable.stopLongitudes[s])
            // Walking distance along the graph between snapped points is at least their great-circle distance; the
            // stops themselves may lie off the road, so look a little wider and let the walk search decide.
            let near = grid.stops(near: lat, lon, within: walkLimit + 2 * maxSnappingDistance).map(\.stop).filter { $0 != s }
            search.run(from: start, maxDistance: walkLimit)
            for q in near {
                guard let end = endpoints[q], let walk = search.cost(to: end) else { continue }
                walks[s][q] = (Self.seconds(walk.duration), Float(walk.distance))
            }
            found += walks[s].count
            if found > maxTransfers {
                let feeds = timetable.metadata.feeds.joined(separator: ", ")
                throw .feed(.limitExceeded(feed: feeds, file: "stops.txt", message: "its stops make more than \(maxTransfers) walking transfers of at most \(Int(walkLimit)) m (stop '\(s < timetable.metadata.stopIDs.count ? timetable.metadata.stopIDs[s] : String(s + 1))' alone reaches \(walks[s].count) others), more than a feed may have rows (raise the limit with import --gtfs-max-rows)"))
            }
            // Pairs transfers.txt allows beyond the limit get their own, longer walk.
            let far = (allowedFar[s] ?? []).filter { $0 != s && walks[s][$0] == nil }.sorted()
            if !far.isEmpty {
                search.run(from: start, maxDistance: 20 * walkLimit)
                for q in far {
                    if let end = endpoints[q], let walk = search.cost(to: end) { walks[s][q] = (Self.seconds(walk.duration), Float(walk.distance)) }
                }
            }
        }
        Self.assemble(&timetable, walks: walks, rules: rules)
    }

    /// Lays out the transfers of `timetable` from the walks found (per stop: other stop → seconds, metres) and the
    /// transfers.txt `rules`: 0 s at the same stop, then the rules override, a pair a rule allows without a walk
    /// found taking the straight line at walking speed.
    public static func assemble(_ timetable: inout Timetable, walks: [[Int: (time: Int32, distance: Float)]],
                                rules: [(from: Int, to: Int, type: Int, minimumTime: Int?)]) {
        var overrides: [Int: [Int: (type: Int, minimumTime: Int?)]] = [:]
        for rule in rules { overrides[rule.from, default: [:]][rule.to] = (rule.type, rule.minimumTime) }
        timetable.transferStart = [0]
        timetable.transferTo = []; timetable.transferTime = []; timetable.transferDistance = []
        for s in 0..<timetable.stopCount {
            var targets = s < walks.count ? walks[s] : [:]
            targets[s] = (0, 0)
            for (q, rule) in overrides[s] ?? [:] {
                switch rule.type {
                case 2: targets[q] = (Int32(max(0, rule.minimumTime ?? 0)), targets[q]?.distance ?? 0)
                case 3: targets[q] = nil
                default:
                    if targets[q] == nil {
                        let d = Geo.distance(lat1: Geo.degrees(timetable.stopLatitudes[s]), lon1: Geo.degrees(timetable.stopLongitudes[s]),
                                             lat2: Geo.degrees(timetable.stopLatitudes[q]), lon2: Geo.degrees(timetable.stopLongitudes[q]))
                        targets[q] = (Self.seconds(d / Self.fallbackSpeed), Float(d))
                    }
                }
            }
            for (q, t) in targets.sorted(by: { $0.key < $1.key }) {
                timetable.transferTo.append(UInt32(q)); timetable.transferTime.append(t.time); timetable.transferDistance.append(t.distance)
            }
            timetable.transferStart.append(UInt32(timetable.transferTo.count))
        }
    }

    /// Walking seconds as whole seconds, rounded up (a transfer is never shorter than the walk).
    public static func seconds(_ duration: Double) -> Int32 { Int32((duration - 1e-6).rounded(.up)) }
}
