import Foundation
import Graph

/// The timetable of one or more GTFS feeds, in plain arrays (structure of arrays), as stored in the graph file.
///
/// Trips with the same stops in the same order on the same route form a *pattern*; a pattern's trips never
/// overtake one another (their times at every stop are in the same order), so a search can binary-search them.
/// Times are seconds from the start of the trip's service day (noon minus 12 h, local time of its agency).
public struct Timetable: Sendable, Equatable {
    public var metadata = TransitMetadata()
    /// Stop positions, 1e-7 degrees.
    public var stopLatitudes: [Int32] = []
    public var stopLongitudes: [Int32] = []
    /// Pattern p: its route, its stops `patternStops[patternStopStart[p]..<patternStopStart[p+1]]` and its trips
    /// `patternTripStart[p]..<patternTripStart[p+1]` (sorted by departure).
    public var patternRoute: [UInt32] = []
    public var patternStopStart: [UInt32] = [0]
    public var patternStops: [UInt32] = []
    public var patternTripStart: [UInt32] = [0]
    /// Trip t: its service calendar and headsign (index into `metadata.headsigns`).
    public var tripService: [UInt32] = []
    public var tripHeadsign: [UInt32] = []
    /// Stop times, pattern by pattern, trip by trip, stop by stop (see `timeIndex`).
    public var arrivals: [Int32] = []
    public var departures: [Int32] = []
    /// Per stop time: bit 0 no boarding (pickup_type 1), bit 1 no alighting (drop_off_type 1).
    public var stopTimeFlags: [UInt8] = []
    /// Transfers from stop s: `transferTo/Time/Distance[transferStart[s]..<transferStart[s+1]]`, the stop itself
    /// included (0 s) unless transfers.txt forbids or times it.
    public var transferStart: [UInt32] = [0]
    public var transferTo: [UInt32] = []
    public var transferTime: [Int32] = []
    public var transferDistance: [Float] = []
    /// Pattern p's geometry: shape points `shapeStart[p]..<shapeEnd[p]` of `shapeLatitudes/Longitudes` (empty when the
    /// feed has no shape for it), and per pattern stop the shape point it lies at.
    public var patternShapeRange: [UInt32] = []
    public var patternStopShapePoint: [UInt32] = []
    public var shapeLatitudes: [Int32] = []
    public var shapeLongitudes: [Int32] = []

    /// Bits of `stopTimeFlags`.
    public static let noPickup: UInt8 = 1, noDropOff: UInt8 = 2

    /// An empty timetable (filled by `TimetableBuilder` and `TransferBuilder`).
    public init() {}

    public var stopCount: Int { stopLatitudes.count }
    public var patternCount: Int { patternRoute.count }
    public var tripCount: Int { tripService.count }

    /// Number of stops of pattern p.
    @inline(__always) public func length(ofPattern p: Int) -> Int { Int(patternStopStart[p + 1] - patternStopStart[p]) }

    /// Offsets of each pattern's first stop time (computed, not stored).
    public func patternTimeStarts() -> [Int] {
        var starts = [0]
        for p in 0..<patternCount {
            starts.append(starts[p] + length(ofPattern: p) * Int(patternTripStart[p + 1] - patternTripStart[p]))
        }
        return starts
    }
}

/// Section names of the timetable in a graph file (at most 18 bytes each, so `wayfinder info` shows them whole).
public enum TransitSectionName {
    public static let meta = "transit.meta"
    public static let stopPositions = "transit.stop_e7"
    public static let patternRoute = "transit.pat_route"
    public static let patternStopStart = "transit.pat_stop0"
    public static let patternStops = "transit.pat_stops"
    public static let patternTripStart = "transit.pat_trip0"
    public static let tripService = "transit.trip_svc"
    public static let tripHeadsign = "transit.trip_head"
    public static let arrivals = "transit.arr"
    public static let departures = "transit.dep"
    public static let stopTimeFlags = "transit.st_flags"
    public static let transferStart = "transit.xfer_start"
    public static let transferTo = "transit.xfer_to"
    public static let transferTime = "transit.xfer_time"
    public static let transferDistance = "transit.xfer_dist"
    public static let patternShapeRange = "transit.pat_shape"
    public static let patternStopShapePoint = "transit.pstop_pt"
    public static let shapePositions = "transit.shape_e7"

    /// Every section the timetable writes, in the order it writes them.
    public static let ordered: [String] = [meta, stopPositions, patternRoute, patternStopStart, patternStops, patternTripStart,
                                           tripService, tripHeadsign, arrivals, departures, stopTimeFlags, transferStart,
                                           transferTo, transferTime, transferDistance, patternShapeRange,
                                           patternStopShapePoint, shapePositions]

    /// Every section the timetable writes.
    public static let all = Set(ordered)
}

extension Timetable: GraphExtensionSections {
    /// Appends the timetable's sections to a graph file being written (or the graph in memory during an import).
    public func write(to writer: some GraphSectionSink) throws(GraphFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(metadata)) ?? Data("{}".utf8)
        try writer.append(TransitSectionName.meta, [UInt8](json))
        try writer.append(TransitSectionName.stopPositions, interleave(stopLatitudes, stopLongitudes))
        try writer.append(TransitSectionName.patternRoute, patternRoute)
        try writer.append(TransitSectionName.patternStopStart, patternStopStart)
        try writer.append(TransitSectionName.patternStops, patternStops)
        try writer.append(TransitSectionName.patternTripStart, patternTripStart)
        try writer.append(TransitSectionName.tripService, tripService)
        try writer.append(TransitSectionName.tripHeadsign, tripHeadsign)
        try writer.append(TransitSectionName.arrivals, arrivals)
        try writer.append(TransitSectionName.departures, departures)
        try writer.append(TransitSectionName.stopTimeFlags, stopTimeFlags)
        try writer.append(TransitSectionName.transferStart, transferStart)
        try writer.append(TransitSectionName.transferTo, transferTo)
        try writer.append(TransitSectionName.transferTime, transferTime)
        try writer.append(TransitSectionName.transferDistance, transferDistance)
        try writer.append(TransitSectionName.patternShapeRange, patternShapeRange)
        try writer.append(TransitSectionName.patternStopShapePoint, patternStopShapePoint)
        try writer.append(TransitSectionName.shapePositions, interleave(shapeLatitudes, shapeLongitudes))
    }

    /// Whether a graph file holds a timetable.
    public static func isPresent(in file: GraphFile) -> Bool { file.has(TransitSectionName.meta) }

    /// The zone of the timetable's first agency (the zone its local times are read in, as `ServiceWindow.zones[0]`),
    /// read from `transit.meta` alone without opening the timetable; nil when the file has none or it does not decode.
    public static func timeZone(in file: GraphFile) -> TimeZone? {
        struct Agencies: Decodable { struct Agency: Decodable { let timeZone: String }; let agencies: [Agency] }
        guard isPresent(in: file), let bytes = try? file.bytes(TransitSectionName.meta),
              let first = (try? JSONDecoder().decode(Agencies.self, from: Data(bytes)))?.agencies.first else { return nil }
        return ServiceWindow.zone(named: first.timeZone)
    }

    /// Reads the timetable of a graph file (copying its arrays); throws when the sections are missing or disagree.
    public init(file: GraphFile) throws(GraphFileError) {
        do {
            metadata = try JSONDecoder().decode(TransitMetadata.self, from: Data(try file.bytes(TransitSectionName.meta)))
        } catch let error as GraphFileError {
            throw error
        } catch {
            throw .invalidSection(path: file.path, section: TransitSectionName.meta, problem: "does not decode: \(error)")
        }
        func read<T: BitwiseCopyable>(_ name: String) throws(GraphFileError) -> [T] { Array(try file.array(name, of: T.self)) }
        let stops: [Int32] = try read(TransitSectionName.stopPositions)
        guard stops.count % 2 == 0 else {
            throw .invalidSection(path: file.path, section: TransitSectionName.stopPositions, problem: "has \(stops.count) values, not two per stop")
        }
        stopLatitudes = stride(from: 0, to: stops.count, by: 2).map { stops[$0] }
        stopLongitudes = stride(from: 1, to: stops.count, by: 2).map { stops[$0] }
        patternRoute = try read(TransitSectionName.patternRoute)
        patternStopStart = try read(TransitSectionName.patternStopStart)
        patternStops = try read(TransitSectionName.patternStops)
        patternTripStart = try read(TransitSectionName.patternTripStart)
        tripService = try read(TransitSectionName.tripService)
        tripHeadsign = try read(TransitSectionName.tripHeadsign)
        arrivals = try read(TransitSectionName.arrivals)
        departures = try read(TransitSectionName.departures)
        stopTimeFlags = try read(TransitSectionName.stopTimeFlags)
        transferStart = try read(TransitSectionName.transferStart)
        transferTo = try read(TransitSectionName.transferTo)
        transferTime = try read(TransitSectionName.transferTime)
        transferDistance = try read(TransitSectionName.transferDistance)
        patternShapeRange = try read(TransitSectionName.patternShapeRange)
        patternStopShapePoint = try read(TransitSectionName.patternStopShapePoint)
        let shape: [Int32] = try read(TransitSectionName.shapePositions)
        guard shape.count % 2 == 0 else {
            throw .invalidSection(path: file.path, section: TransitSectionName.shapePositions, problem: "has \(shape.count) values, not two per point")
        }
        shapeLatitudes = stride(from: 0, to: shape.count, by: 2).map { shape[$0] }
        shapeLongitudes = stride(from: 1, to: shape.count, by: 2).map { shape[$0] }
        guard let (section, problem) = validationProblem() else { return }
        throw .invalidSection(path: file.path, section: section, problem: problem)
    }

    /// A description of the first way the arrays disagree with one another, nil when they are consistent.
    public func consistencyProblem() -> String? { validationProblem().map { "section '\($0.section)' \($0.problem)" } }

    /// The day numbers a service calendar may use: 0000-01-01 to 9999-12-31.
    public static let dayRange = ServiceDay.number(year: 0, month: 1, day: 1)...ServiceDay.number(year: 9999, month: 12, day: 31)
    /// Most stops of one pattern (the search packs a stop position into 24 bits).
    public static let longestPattern = (1 << 24) - 1

    /// The section and problem of the first way the arrays and the metadata disagree with one another or with what
    /// the searches and itineraries assume (indices in range, offsets that start at 0 and never go back, times and
    /// days that cannot overflow, stops on the sphere, distances that are numbers), nil when the timetable is sound.
    public func validationProblem() -> (section: String, problem: String)? {
        typealias N = TransitSectionName
        let s = stopCount, p = patternCount, t = tripCount, m = metadata
        func outOfRange<T: BinaryInteger>(_ values: [T], _ bound: Int) -> (index: Int, value: T)? {
            for (i, v) in values.enumerated() where v < 0 || Int(v) >= bound { return (i, v) }
            return nil
        }
        func offsetProblem(_ values: [UInt32], slices: Int, total: Int, _ what: String) -> String? {
            if values.count != slices + 1 { return "has \(values.count) elements, expected \(slices + 1) (one per \(what), plus one)" }
            if values[0] != 0 { return "starts at \(values[0]), not 0" }
            for i in 1..<values.count where values[i] < values[i - 1] { return "goes back at element \(i)" }
            if Int(values[values.count - 1]) != total { return "ends at \(values[values.count - 1]), not at \(total)" }
            return nil
        }
        func coordinateProblem(_ lats: [Int32], _ lons: [Int32]) -> Int? {
            for i in 0..<lats.count where abs(Int(lats[i])) > 900_000_000 || abs(Int(lons[i])) > 1_800_000_000 { return i }
            return nil
        }
        // The metadata: names per stop, a time zone to read times in, days that stay within the calendar.
        if m.stopNames.count != s || m.stopIDs.count != s { return (N.meta, "names \(m.stopNames.count) stops (ids: \(m.stopIDs.count)), the timetable has \(s)") }
        if m.agencies.isEmpty { return (N.meta, "lists no agency (times need an agency's time zone)") }
        if let (i, route) = m.routes.enumerated().first(where: { $0.element.agency < 0 || $0.element.agency >= m.agencies.count }) {
            return (N.meta, "gives route \(i) agency \(route.agency), not one of the \(m.agencies.count)")
        }
        if !Self.dayRange.contains(m.firstDay) || !Self.dayRange.contains(m.lastDay) { return (N.meta, "gives a service range of days \(m.firstDay) to \(m.lastDay)") }
        if let service = m.services.first(where: { !Self.dayRange.contains($0.firstDay) }) { return (N.meta, "gives service '\(service.id)' first day \(service.firstDay)") }
        if !(m.transferWalkLimit.isFinite && m.transferWalkLimit >= 0 && m.transferWalkLimit <= 1e7) { return (N.meta, "gives a transfer walk limit of \(m.transferWalkLimit) m") }
        if m.skipped.contains(where: { $0.count < 0 || $0.count > 1 << 48 }) { return (N.meta, "counts a negative or impossible number of skipped rows") }
        if let i = coordinateProblem(stopLatitudes, stopLongitudes) { return (N.stopPositions, "places stop \(i) off the sphere") }
        // Patterns: stops and trips by offsets, routes and stops by index.
        if let problem = offsetProblem(patternStopStart, slices: p, total: patternStops.count, "pattern") { return (N.patternStopStart, problem) }
        if let problem = offsetProblem(patternTripStart, slices: p, total: t, "pattern") { return (N.patternTripStart, problem) }
        if let (i, v) = outOfRange(patternRoute, m.routes.count) { return (N.patternRoute, "element \(i) is \(v), not below \(m.routes.count) (the routes)") }
        if let (i, v) = outOfRange(patternStops, s) { return (N.patternStops, "element \(i) is \(v), not below \(s) (the stops)") }
        if let i = (0..<p).first(where: { length(ofPattern: $0) > Self.longestPattern }) { return (N.patternStopStart, "gives pattern \(i) \(length(ofPattern: i)) stops") }
        // Trips and their stop times: one time per stop of each trip of each pattern.
        if tripHeadsign.count != t { return (N.tripHeadsign, "has \(tripHeadsign.count) elements, expected \(t) (one per trip)") }
        if let (i, v) = outOfRange(tripService, m.services.count) { return (N.tripService, "element \(i) is \(v), not below \(m.services.count) (the service calendars)") }
        if let (i, v) = outOfRange(tripHeadsign, m.headsigns.count) { return (N.tripHeadsign, "element \(i) is \(v), not below \(m.headsigns.count) (the headsigns)") }
        var times = 0
        for q in 0..<p {
            let (cells, o1) = length(ofPattern: q).multipliedReportingOverflow(by: Int(patternTripStart[q + 1] - patternTripStart[q]))
            let (sum, o2) = times.addingReportingOverflow(cells)
            if o1 || o2 { return (N.patternTripStart, "gives more stop times than can be counted") }
            times = sum
        }
        if arrivals.count != times { return (N.arrivals, "has \(arrivals.count) elements, expected \(times) (one per stop of each trip)") }
        if departures.count != times { return (N.departures, "has \(departures.count) elements, expected \(times) (one per stop of each trip)") }
        if stopTimeFlags.count != times { return (N.stopTimeFlags, "has \(stopTimeFlags.count) elements, expected \(times) (one per stop of each trip)") }
        // Times count from the start of the service day: never negative (a search negates them to run backwards).
        if let i = arrivals.firstIndex(where: { $0 < 0 }) { return (N.arrivals, "element \(i) is \(arrivals[i]) s, before the start of its service day") }
        if let i = departures.firstIndex(where: { $0 < 0 }) { return (N.departures, "element \(i) is \(departures[i]) s, before the start of its service day") }
        // Transfers.
        if let problem = offsetProblem(transferStart, slices: s, total: transferTo.count, "stop") { return (N.transferStart, problem) }
        if transferTime.count != transferTo.count { return (N.transferTime, "has \(transferTime.count) elements, expected \(transferTo.count) (one per transfer)") }
        if transferDistance.count != transferTo.count { return (N.transferDistance, "has \(transferDistance.count) elements, expected \(transferTo.count) (one per transfer)") }
        if let (i, v) = outOfRange(transferTo, s) { return (N.transferTo, "element \(i) is \(v), not below \(s) (the stops)") }
        if let i = transferTime.firstIndex(where: { $0 < 0 }) { return (N.transferTime, "element \(i) is \(transferTime[i]) s, a negative time") }
        if let i = transferDistance.firstIndex(where: { !($0 >= 0 && $0 <= 4e7) }) { return (N.transferDistance, "element \(i) is \(transferDistance[i]) m, not a distance on the Earth") }
        // Shapes: each pattern's range lies within the points; a shaped pattern's stops lie on its range.
        if patternShapeRange.count != 2 * p { return (N.patternShapeRange, "has \(patternShapeRange.count) elements, expected \(2 * p) (two per pattern)") }
        if patternStopShapePoint.count != patternStops.count { return (N.patternStopShapePoint, "has \(patternStopShapePoint.count) elements, expected \(patternStops.count) (one per pattern stop)") }
        for q in 0..<p {
            let start = patternShapeRange[2 * q], end = patternShapeRange[2 * q + 1]
            if start > end || Int(end) > shapeLatitudes.count { return (N.patternShapeRange, "gives pattern \(q) points \(start) to \(end) of \(shapeLatitudes.count)") }
            guard end > start else { continue }
            for i in Int(patternStopStart[q])..<Int(patternStopStart[q + 1]) where !(start..<end).contains(patternStopShapePoint[i]) {
                return (N.patternStopShapePoint, "element \(i) is \(patternStopShapePoint[i]), not on its pattern's points \(start) to \(end)")
            }
        }
        return nil
    }

    private func interleave(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(a.count * 2)
        for (x, y) in zip(a, b) { out.append(x); out.append(y) }
        return out
    }
}
