import Foundation
import Graph

/// Builds a `Timetable` (without walking transfers, which need the foot graph: see `TransferBuilder`) from one
/// or more GTFS feeds: reads every file, interpolates missing times, expands frequencies, groups trips into
/// non-overtaking patterns and maps stops onto shapes. Bad rows are skipped and listed in `metadata.skipped`.
public struct TimetableBuilder {
    /// One run of a trip: its stops, times and flags, ready to be grouped into a pattern.
    struct TripRun {
        var route: Int
        var shape: String
        var stops: [Int]
        var arrivals: [Int32]
        var departures: [Int32]
        var flags: [UInt8]
        var distances: [Double]?
        var service: Int
        /// The trip of trips.txt it runs (an index into the feed reader's trips).
        var trip: Int
        /// Index into the timetable's headsigns (set once the feed's runs are collected).
        var headsign: Int = 0
    }

    /// transfers.txt rules of all feeds, stop indices resolved (applied by `TransferBuilder`).
    public private(set) var transferRules: [(from: Int, to: Int, type: Int, minimumTime: Int?)] = []

    /// A builder with no rules read yet.
    public init() {}

    /// Reads the feeds at `paths` (zip files or folders) into a timetable; each file of each feed stays within `limits`.
    public mutating func build(feeds paths: [String], limits: GTFSLimits = GTFSLimits()) throws(GTFSError) -> Timetable {
        var timetable = Timetable()
        var log = SkipLog()
        var runs: [TripRun] = []
        var shapesByFeed: [[String: [GTFSFeedReader.ShapePoint]]] = []
        var headsignIndex: [String: Int] = [:]
        for (index, path) in paths.enumerated() {
            let source = try FeedSource(path: path, limits: limits)
            var reader = GTFSFeedReader(feed: source, feedIndex: index, log: log)
            timetable.metadata.feeds.append(path)
            try reader.readAgencies(into: &timetable.metadata)
            try reader.readStops(into: &timetable.metadata, latitudes: &timetable.stopLatitudes, longitudes: &timetable.stopLongitudes)
            try reader.readRoutes(into: &timetable.metadata)
            try reader.readServices(into: &timetable.metadata)
            try reader.readTrips()
            try reader.readFrequencies()
            try reader.readTransfers()
            timetable.metadata.tripsRead += reader.trips.count
            var feedRuns = try readStopTimes(reader: &reader, timetable: &timetable)
            for i in feedRuns.indices {
                // No trip_headsign (it is optional): the trip's last stop, as riders read a vehicle's destination.
                let given = reader.trips[feedRuns[i].trip].headsign
                let text = given.isEmpty ? feedRuns[i].stops.last.map { timetable.metadata.stopNames[$0] } ?? "" : given
                if let known = headsignIndex[text] { feedRuns[i].headsign = known } else {
                    headsignIndex[text] = timetable.metadata.headsigns.count
                    feedRuns[i].headsign = timetable.metadata.headsigns.count
                    timetable.metadata.headsigns.append(text)
                }
                feedRuns[i].shape = feedRuns[i].shape.isEmpty ? "" : "\(index):\(feedRuns[i].shape)"
            }
            try reader.readShapes(used: Set(reader.trips.map(\.shape).filter { !$0.isEmpty }))
            shapesByFeed.append(reader.shapes)
            // A station stands for each of its stops, so one rule between two stations of many stops is many pairs;
            // the pairs of a feed's rules may not exceed the rows a feed file may have, counted before any is made.
            var pairs = 0
            for rule in reader.transferRules {
                pairs += rule.from.count * rule.to.count
                if pairs > limits.maxRows {
                    throw .limitExceeded(feed: path, file: "transfers.txt", message: "its rules make more than \(limits.maxRows) stop-to-stop transfers (a station stands for each of its \(max(rule.from.count, rule.to.count)) stops), more than a feed may have (raise the limit with import --gtfs-max-rows)")
                }
            }
            for rule in reader.transferRules {
                for a in rule.from { for b in rule.to { transferRules.append((a, b, rule.type, rule.minimumTime)) } }
            }
            log = reader.log
            runs.append(contentsOf: feedRuns)
        }
        var shapes: [String: [GTFSFeedReader.ShapePoint]] = [:]
        for (index, feedShapes) in shapesByFeed.enumerated() { for (id, points) in feedShapes { shapes["\(index):\(id)"] = points } }
        group(runs, shapes: shapes, into: &timetable)
        // The service range: days on which some trip runs.
        let usedServices = Set(timetable.tripService.map(Int.init))
        var first = Int.max, last = Int.min
        for s in usedServices {
            let service = timetable.metadata.services[s]
            let bits = Array(service.days.utf8)
            if let i = bits.firstIndex(of: UInt8(ascii: "1")) { first = min(first, service.firstDay + i) }
            if let i = bits.lastIndex(of: UInt8(ascii: "1")) { last = max(last, service.firstDay + i) }
        }
        timetable.metadata.firstDay = first == Int.max ? 0 : first
        timetable.metadata.lastDay = last == Int.min ? -1 : last
        timetable.metadata.skipped = log.all
        timetable.transferStart = [UInt32](repeating: 0, count: timetable.stopCount + 1)
        return timetable
    }

    /// stop_times.txt: each trip's stop times in stop_sequence order, checked, interpolated and expanded by frequencies.
    private func readStopTimes(reader: inout GTFSFeedReader, timetable: inout Timetable) throws(GTFSError) -> [TripRun] {
        let table = try reader.requiredTable("stop_times.txt")
        let tripColumn = try table.require("trip_id"), arrival = try table.require("arrival_time")
        let departure = try table.require("departure_time"), stopColumn = try table.require("stop_id")
        let sequence = try table.require("stop_sequence")
        let pickup = table.columns["pickup_type"], dropOff = table.columns["drop_off_type"], distance = table.columns["shape_dist_traveled"]
        func place(_ r: Int) -> String { "stop_times.txt line \(table.line(r))" }
        var rows: [(trip: Int32, sequence: Int32, row: Int32)] = []
        rows.reserveCapacity(table.count)
        var tripCache: (id: ArraySlice<UInt8>, index: Int?) = ([], nil)
        for r in 0..<table.count {
            let idBytes = table.bytes(r, tripColumn)
            let trip: Int?
            if idBytes == tripCache.id && !idBytes.isEmpty { trip = tripCache.index } else {
                trip = reader.tripByID[String(decoding: idBytes, as: UTF8.self).trimmingSpaces]
                tripCache = (idBytes, trip)
            }
            guard let trip else { reader.log.skip("stop time of an unknown trip", place(r)); continue }
            guard let seq = table.int(r, sequence), seq >= 0, seq <= Int(Int32.max) else {
                reader.log.skip("stop time with a bad stop_sequence", place(r)); continue
            }
            rows.append((Int32(trip), Int32(seq), Int32(r)))
        }
        rows.sort { $0.trip != $1.trip ? $0.trip < $1.trip : $0.sequence < $1.sequence }
        var runs: [TripRun] = []
        var start = 0
        // The stop times the feed's runs make, frequencies expanded, may not exceed the rows a feed file may have: a
        // few lines of frequencies.txt (a headway of a second over two days, repeated) would otherwise make billions.
        var stopTimesMade = 0
        let maxStopTimes = reader.feed.limits.maxRows
        var timed = [Bool](repeating: false, count: reader.trips.count)
        for row in rows { timed[Int(row.trip)] = true }
        for (t, trip) in reader.trips.enumerated() where !timed[t] {
            reader.log.skip("trip without stop times", "trips.txt line \(trip.line): trip '\(trip.id)'")
        }
        while start < rows.count {
            var end = start
            while end < rows.count && rows[end].trip == rows[start].trip { end += 1 }
            let trip = reader.trips[Int(rows[start].trip)]
            defer { start = end }
            var stops: [Int] = [], arrivals: [Int?] = [], departures: [Int?] = [], flags: [UInt8] = [], distances: [Double?] = []
            var duplicate = false
            for k in start..<end {
                if k > start && rows[k].sequence == rows[k - 1].sequence { duplicate = true; break }
                let r = Int(rows[k].row)
                let stopID = table.string(r, stopColumn)
                guard let stop = reader.stopByID[stopID] else { reader.log.skip("stop time at an unknown stop", place(r) + ": stop_id '\(stopID)'"); continue }
                let a = table.isBlank(r, arrival) ? nil : ServiceDay.seconds(table.bytes(r, arrival))
                let d = table.isBlank(r, departure) ? nil : ServiceDay.seconds(table.bytes(r, departure))
                if (a == nil && !table.isBlank(r, arrival)) || (d == nil && !table.isBlank(r, departure)) {
                    reader.log.skip("stop time with an unparsable time", place(r)); continue
                }
                stops.append(stop)
                arrivals.append(a ?? d)
                departures.append(d ?? a)
                flags.append((table.int(r, pickup) == 1 ? Timetable.noPickup : 0) | (table.int(r, dropOff) == 1 ? Timetable.noDropOff : 0))
                distances.append(table.double(r, distance))
            }
            let tripPlace = "trips.txt line \(trip.line): trip '\(trip.id)'"
            if duplicate { reader.log.skip("trip with a repeated stop_sequence", tripPlace); continue }
            guard stops.count >= 2 else { reader.log.skip("trip with fewer than two stop times", tripPlace); continue }
            guard departures.first! != nil, arrivals.last! != nil else {
                reader.log.skip("trip whose first or last stop has no time", tripPlace); continue
            }
            let known = distances.allSatisfy { $0 != nil } ? distances.map { $0! } : nil
            guard let (arr, dep) = Self.interpolate(arrivals: arrivals, departures: departures, distances: known ?? cumulativeDistances(stops, timetable)) else {
                reader.log.skip("trip whose times go backwards", tripPlace); continue
            }
            timetable.metadata.stopTimesRead += stops.count
            let template = TripRun(route: trip.route, shape: trip.shape, stops: stops, arrivals: arr, departures: dep, flags: flags,
                                   distances: known, service: trip.service, trip: Int(rows[start].trip))
            if let runsOf = reader.frequencies[Int(rows[start].trip)] {
                // Counted before any run is made, so that a feed over the limit costs no memory.
                let runCount = runsOf.reduce(0) { $0 + ($1.end - $1.start + $1.headway - 1) / $1.headway }
                if runCount > (maxStopTimes - stopTimesMade) / stops.count {
                    throw .limitExceeded(feed: reader.feed.path, file: "frequencies.txt", message: "expanding its frequencies makes more than \(maxStopTimes) stop times (trip '\(trip.id)' alone \(runCount) runs of \(stops.count) stops), more than a feed may have (raise the limit with import --gtfs-max-rows)")
                }
                stopTimesMade += runCount * stops.count
                // Each run keeps the template's times, shifted so that its first stop departs at the run's start.
                for frequency in runsOf {
                    var t = frequency.start
                    while t < frequency.end {
                        var run = template
                        let shift = Int32(t) - template.departures[0]
                        run.arrivals = template.arrivals.map { $0 + shift }
                        run.departures = template.departures.map { $0 + shift }
                        runs.append(run)
                        t += frequency.headway
                    }
                }
            } else {
                stopTimesMade += stops.count
                runs.append(template)
            }
        }
        return runs
    }

    private func cumulativeDistances(_ stops: [Int], _ timetable: Timetable) -> [Double] {
        var out = [0.0]
        for k in 1..<stops.count {
            let a = stops[k - 1], b = stops[k]
            out.append(out[k - 1] + Geo.distance(lat1: Geo.degrees(timetable.stopLatitudes[a]), lon1: Geo.degrees(timetable.stopLongitudes[a]),
                                                 lat2: Geo.degrees(timetable.stopLatitudes[b]), lon2: Geo.degrees(timetable.stopLongitudes[b])))
        }
        return out
    }

    /// Fills missing times linearly by distance between the timepoints around them (rounded to the second) and
    /// checks that times never go backwards; nil when they do.
    static func interpolate(arrivals: [Int?], departures: [Int?], distances: [Double]) -> (arrivals: [Int32], departures: [Int32])? {
        let n = arrivals.count
        var arr = arrivals, dep = departures
        var k = 0
        while k < n {
            if arr[k] != nil { k += 1; continue }
            let before = k - 1
            var after = k
            while arr[after] == nil { after += 1 }
            let t0 = Double(dep[before]!), t1 = Double(arr[after]!)
            let d0 = distances[before], d1 = distances[after]
            for m in k..<after {
                let fraction = d1 > d0 ? (distances[m] - d0) / (d1 - d0) : Double(m - before) / Double(after - before)
                let t = Int((t0 + (t1 - t0) * min(1, max(0, fraction))).rounded())
                arr[m] = t; dep[m] = t
            }
            k = after
        }
        var outArr: [Int32] = [], outDep: [Int32] = []
        for m in 0..<n {
            let a = arr[m]!, d = dep[m]!
            if d < a { return nil }
            if m > 0 && a < dep[m - 1]! { return nil }
            outArr.append(Int32(a)); outDep.append(Int32(d))
        }
        return (outArr, outDep)
    }

    /// Groups runs into patterns (same route, shape and stops), each split so that no trip overtakes another,
    /// and lays out the arrays of `timetable`.
    private func group(_ runs: [TripRun], shapes: [String: [GTFSFeedReader.ShapePoint]], into timetable: inout Timetable) {
        struct Key: Hashable { var route: Int, shape: String, stops: [Int] }
        var keyOrder: [Key] = []
        var byKey: [Key: [Int]] = [:]
        for (i, run) in runs.enumerated() {
            let key = Key(route: run.route, shape: run.shape, stops: run.stops)
            if byKey[key] == nil { keyOrder.append(key) }
            byKey[key, default: []].append(i)
        }
        var shapeStartByID: [String: (start: Int, end: Int)] = [:]
        for key in keyOrder {
            let members = byKey[key]!.sorted {
                let a = runs[$0], b = runs[$1]
                return a.departures[0] != b.departures[0] ? a.departures[0] < b.departures[0] : (a.arrivals.last! != b.arrivals.last! ? a.arrivals.last! < b.arrivals.last! : $0 < $1)
            }
            var groups: [[Int]] = []
            for m in members {
                let run = runs[m]
                if let g = groups.firstIndex(where: { group in
                    let last = runs[group.last!]
                    return (0..<run.stops.count).allSatisfy { last.departures[$0] <= run.departures[$0] && last.arrivals[$0] <= run.arrivals[$0] }
                }) {
                    groups[g].append(m)
                } else {
                    groups.append([m])
                }
            }
            // The pattern's geometry: its shape, once per shape, and each stop's point on it.
            var range = (start: 0, end: 0)
            var stopPoints = [UInt32](repeating: UInt32.max, count: key.stops.count)
            if !key.shape.isEmpty, let points = shapes[key.shape], points.count >= 2 {
                if let known = shapeStartByID[key.shape] { range = known } else {
                    range = (timetable.shapeLatitudes.count, timetable.shapeLatitudes.count + points.count)
                    for p in points {
                        timetable.shapeLatitudes.append(Geo.units(p.latitude))
                        timetable.shapeLongitudes.append(Geo.units(p.longitude))
                    }
                    shapeStartByID[key.shape] = range
                }
                let onShape = Self.stopPositions(stops: key.stops, distances: runs[members[0]].distances, points: points, timetable: timetable)
                stopPoints = onShape.map { UInt32(range.start + $0) }
            }
            for group in groups {
                timetable.patternRoute.append(UInt32(key.route))
                timetable.patternStops.append(contentsOf: key.stops.map(UInt32.init))
                timetable.patternStopStart.append(UInt32(timetable.patternStops.count))
                timetable.patternStopShapePoint.append(contentsOf: stopPoints)
                timetable.patternShapeRange.append(contentsOf: [UInt32(range.start), UInt32(range.end)])
                for m in group {
                    let run = runs[m]
                    timetable.tripService.append(UInt32(run.service))
                    timetable.tripHeadsign.append(UInt32(run.headsign))
                    timetable.arrivals.append(contentsOf: run.arrivals)
                    timetable.departures.append(contentsOf: run.departures)
                    timetable.stopTimeFlags.append(contentsOf: run.flags)
                }
                timetable.patternTripStart.append(UInt32(timetable.tripService.count))
            }
        }
    }

    /// The shape point each stop lies at: by shape_dist_traveled when both files give it, else the nearest point
    /// ahead of the previous stop's (within a window along the shape, so loops do not jump ahead).
    static func stopPositions(stops: [Int], distances: [Double]?, points: [GTFSFeedReader.ShapePoint], timetable: Timetable) -> [Int] {
        var result: [Int] = []
        if let distances, points.allSatisfy({ $0.distance != nil }) {
            var i = 0
            for d in distances {
                while i + 1 < points.count && points[i + 1].distance! <= d { i += 1 }
                if i + 1 < points.count && abs(points[i + 1].distance! - d) < abs(points[i].distance! - d) { result.append(i + 1) } else { result.append(i) }
            }
            return result
        }
        var along = [0.0]
        for k in 1..<points.count {
            along.append(along[k - 1] + Geo.distance(lat1: points[k - 1].latitude, lon1: points[k - 1].longitude, lat2: points[k].latitude, lon2: points[k].longitude))
        }
        var from = 0
        var previous: (Double, Double)? = nil
        for stop in stops {
            let lat = Geo.degrees(timetable.stopLatitudes[stop]), lon = Geo.degrees(timetable.stopLongitudes[stop])
            let hop = previous.map { Geo.distance(lat1: $0.0, lon1: $0.1, lat2: lat, lon2: lon) } ?? 0
            let window = max(2000, 4 * hop)
            var best = from, bestDistance = Double.infinity
            var k = from
            while k < points.count && along[k] - along[from] <= window {
                let d = Geo.distance(lat1: lat, lon1: lon, lat2: points[k].latitude, lon2: points[k].longitude)
                if d < bestDistance { bestDistance = d; best = k }
                k += 1
            }
            result.append(best)
            from = best
            previous = (lat, lon)
        }
        return result
    }
}
