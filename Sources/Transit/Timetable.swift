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

    /// Every section the timetable writes.
    public static let all: Set<String> = [meta, stopPositions, patternRoute, patternStopStart, patternStops, patternTripStart,
                                          tripService, tripHeadsign, arrivals, departures, stopTimeFlags, transferStart,
                                          transferTo, transferTime, transferDistance, patternShapeRange,
                                          patternStopShapePoint, shapePositions]
}

extension Timetable {
    /// Appends the timetable's sections to a graph file being written.
    public func write(to writer: GraphFileWriter) throws(GraphFileError) {
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

    /// Reads the timetable of a graph file (copying its arrays); throws when the sections are missing or disagree.
    public init(file: GraphFile) throws(GraphFileError) {
        do {
            metadata = try JSONDecoder().decode(TransitMetadata.self, from: Data(try file.bytes(TransitSectionName.meta)))
        } catch let error as GraphFileError {
            throw error
        } catch {
            throw .corrupt(path: file.path, message: "the transit.meta section does not decode: \(error)")
        }
        func read<T: BitwiseCopyable>(_ name: String) throws(GraphFileError) -> [T] { Array(try file.array(name, of: T.self)) }
        let stops: [Int32] = try read(TransitSectionName.stopPositions)
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
        shapeLatitudes = stride(from: 0, to: shape.count, by: 2).map { shape[$0] }
        shapeLongitudes = stride(from: 1, to: shape.count, by: 2).map { shape[$0] }
        guard let problem = consistencyProblem() else { return }
        throw .corrupt(path: file.path, message: "transit sections disagree: \(problem)")
    }

    /// A description of the first way the arrays disagree with one another, nil when they are consistent.
    public func consistencyProblem() -> String? {
        let s = stopCount, p = patternCount
        if stopLongitudes.count != s || metadata.stopNames.count != s { return "stop arrays" }
        if patternStopStart.count != p + 1 || patternTripStart.count != p + 1 || patternShapeRange.count != 2 * p { return "pattern arrays" }
        if Int(patternStopStart[p]) != patternStops.count || patternStopShapePoint.count != patternStops.count { return "pattern stops" }
        if Int(patternTripStart[p]) != tripCount || tripHeadsign.count != tripCount { return "trips" }
        let times = patternTimeStarts()[p]
        if arrivals.count != times || departures.count != times || stopTimeFlags.count != times { return "stop times" }
        if transferStart.count != s + 1 || Int(transferStart[s]) != transferTo.count || transferTime.count != transferTo.count
            || transferDistance.count != transferTo.count { return "transfers" }
        if patternStops.contains(where: { Int($0) >= s }) || transferTo.contains(where: { Int($0) >= s }) { return "stop index out of range" }
        if patternRoute.contains(where: { Int($0) >= metadata.routes.count }) { return "route index out of range" }
        if tripService.contains(where: { Int($0) >= metadata.services.count }) { return "service index out of range" }
        if shapeLongitudes.count != shapeLatitudes.count || patternShapeRange.contains(where: { Int($0) > shapeLatitudes.count }) { return "shapes" }
        return nil
    }

    private func interleave(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(a.count * 2)
        for (x, y) in zip(a, b) { out.append(x); out.append(y) }
        return out
    }
}
