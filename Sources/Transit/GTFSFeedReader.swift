import Foundation
import Graph

/// The rows of one feed a timetable is built from, read and checked file by file, with ids resolved to indices
/// into the builder's shared tables (agencies, stops, routes, services) so several feeds can be merged.
struct GTFSFeedReader {
    struct Trip {
        var route: Int
        var service: Int
        var headsign: String
        var shape: String
        var id: String
        var line: Int
    }
    struct Frequency { var start: Int, end: Int, headway: Int }
    struct TransferRule { var from: [Int], to: [Int], type: Int, minimumTime: Int? }
    /// Longest min_transfer_time a transfers.txt row may give, seconds: a day.
    static let longestTransfer = 86_400
    struct ShapePoint { var sequence: Int, latitude: Double, longitude: Double, distance: Double? }

    let feed: FeedSource
    let feedIndex: Int
    var log: SkipLog

    // Resolved per feed (ids are unique within a feed only).
    var agencyByID: [String: Int] = [:]
    var stopByID: [String: Int] = [:]
    var childrenOfStation: [String: [Int]] = [:]
    var routeByID: [String: Int] = [:]
    var serviceByID: [String: Int] = [:]
    var trips: [Trip] = []
    var tripByID: [String: Int] = [:]
    var frequencies: [Int: [Frequency]] = [:]
    var transferRules: [TransferRule] = []
    var shapes: [String: [ShapePoint]] = [:]

    init(feed: FeedSource, feedIndex: Int, log: SkipLog) {
        self.feed = feed
        self.feedIndex = feedIndex
        self.log = log
    }

    private func place(_ table: CSVTable, _ r: Int) -> String { "\(table.file) line \(table.line(r))" }

    /// File `name` parsed as CSV, or nil when absent; a column named twice is noted in the log (the first is read).
    mutating func table(_ name: String) throws(GTFSError) -> CSVTable? {
        guard let table = try feed.table(name) else { return nil }
        for column in table.repeatedColumns {
            log.skip("repeated column (the first of the name is read)", "\(name) line 1: '\(column.name)' in columns \(column.first + 1) and \(column.repeated + 1)")
        }
        return table
    }

    /// File `name` parsed as CSV; throws naming the file when the feed lacks it.
    mutating func requiredTable(_ name: String) throws(GTFSError) -> CSVTable {
        guard let table = try self.table(name) else { throw .missingFile(feed: feed.path, file: name) }
        return table
    }

    /// agency.txt: name and time zone (IANA, checked against the system's tzdata).
    mutating func readAgencies(into metadata: inout TransitMetadata) throws(GTFSError) {
        let table = try requiredTable("agency.txt")
        let name = try table.require("agency_name"), zone = try table.require("agency_timezone")
        let id = table.columns["agency_id"], url = table.columns["agency_url"]
        for r in 0..<table.count {
            let zoneName = table.string(r, zone)
            guard TimeZone(identifier: zoneName) != nil else {
                throw .unknownTimeZone(feed: feed.path, file: "agency.txt", line: table.line(r), zone: zoneName)
            }
            agencyByID[table.string(r, id)] = metadata.agencies.count
            metadata.agencies.append(.init(name: table.string(r, name), url: table.string(r, url), timeZone: zoneName, feed: feedIndex))
        }
        guard table.count > 0 else { throw .malformedCSV(feed: feed.path, file: "agency.txt", line: 2, message: "no agency") }
    }

    /// stops.txt: stops and platforms (location_type 0) become timetable stops; stations are kept for transfers.
    mutating func readStops(into metadata: inout TransitMetadata, latitudes: inout [Int32], longitudes: inout [Int32]) throws(GTFSError) {
        let table = try requiredTable("stops.txt")
        let id = try table.require("stop_id"), lat = try table.require("stop_lat"), lon = try table.require("stop_lon")
        let name = table.columns["stop_name"], type = table.columns["location_type"], parent = table.columns["parent_station"]
        var stationNames: [String: String] = [:]
        var parents: [(stop: Int, parent: String)] = []
        for r in 0..<table.count {
            let stopID = table.string(r, id)
            let kind = table.int(r, type) ?? 0
            if kind == 1 { stationNames[stopID] = table.string(r, name); continue }
            guard kind == 0 else { continue }   // entrances, generic nodes, boarding areas: not served by trips
            guard !stopID.isEmpty else { log.skip("stop without stop_id", place(table, r)); continue }
            guard stopByID[stopID] == nil else { log.skip("duplicate stop_id", place(table, r) + ": '\(stopID)'"); continue }
            guard let latitude = table.double(r, lat), let longitude = table.double(r, lon), abs(latitude) <= 90, abs(longitude) <= 180,
                  !(latitude == 0 && longitude == 0) else {
                log.skip("stop with a bad position", place(table, r) + ": '\(stopID)'"); continue
            }
            let index = latitudes.count
            stopByID[stopID] = index
            latitudes.append(Geo.units(latitude))
            longitudes.append(Geo.units(longitude))
            metadata.stopIDs.append(feedIndex == 0 ? stopID : "\(feedIndex):\(stopID)")
            metadata.stopNames.append(table.string(r, name))
            let parentID = table.string(r, parent)
            if !parentID.isEmpty { childrenOfStation[parentID, default: []].append(index); parents.append((index, parentID)) }
        }
        for (stop, parentID) in parents where metadata.stopNames[stop].isEmpty { metadata.stopNames[stop] = stationNames[parentID] ?? "" }
    }

    /// routes.txt: names, mode and agency (the feed's only agency when agency_id is absent).
    mutating func readRoutes(into metadata: inout TransitMetadata) throws(GTFSError) {
        let table = try requiredTable("routes.txt")
        let id = try table.require("route_id"), type = try table.require("route_type")
        let agency = table.columns["agency_id"], short = table.columns["route_short_name"], long = table.columns["route_long_name"]
        let color = table.columns["route_color"]
        let onlyAgency = agencyByID.count == 1 ? agencyByID.values.first : nil
        for r in 0..<table.count {
            let routeID = table.string(r, id)
            guard routeByID[routeID] == nil else { log.skip("duplicate route_id", place(table, r) + ": '\(routeID)'"); continue }
            guard let routeType = table.int(r, type) else { log.skip("route with a bad route_type", place(table, r) + ": '\(routeID)'"); continue }
            let agencyID = table.string(r, agency)
            guard let agencyIndex = agencyByID[agencyID] ?? onlyAgency else {
                log.skip("route of an unknown agency", place(table, r) + ": agency_id '\(agencyID)'"); continue
            }
            routeByID[routeID] = metadata.routes.count
            metadata.routes.append(.init(id: routeID, agency: agencyIndex, shortName: table.string(r, short), longName: table.string(r, long),
                                         type: routeType, color: table.string(r, color)))
        }
    }

    /// calendar.txt and calendar_dates.txt (at least one of them): the days each service runs.
    mutating func readServices(into metadata: inout TransitMetadata) throws(GTFSError) {
        let calendar = try self.table("calendar.txt"), dates = try self.table("calendar_dates.txt")
        guard calendar != nil || dates != nil else { throw .noService(feed: feed.path) }
        var days: [String: Set<Int>] = [:]
        var order: [String] = []
        if let table = calendar {
            let id = try table.require("service_id"), start = try table.require("start_date"), end = try table.require("end_date")
            var weekdays: [Int] = []
            for day in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] { weekdays.append(try table.require(day)) }
            for r in 0..<table.count {
                let serviceID = table.string(r, id)
                guard let first = ServiceDay.parse(table.string(r, start)), let last = ServiceDay.parse(table.string(r, end)), first <= last,
                      last - first < 20_000 else {
                    log.skip("calendar row with bad dates", place(table, r) + ": service '\(serviceID)'"); continue
                }
                let runs = weekdays.map { table.int(r, $0) == 1 }
                if days[serviceID] == nil { order.append(serviceID); days[serviceID] = [] }
                for day in first...last where runs[ServiceDay.weekday(day)] { days[serviceID]!.insert(day) }
            }
        }
        if let table = dates {
            let id = try table.require("service_id"), date = try table.require("date"), type = try table.require("exception_type")
            var removals: [(String, Int)] = []
            for r in 0..<table.count {
                let serviceID = table.string(r, id)
                guard let day = ServiceDay.parse(table.string(r, date)) else {
                    log.skip("calendar_dates row with a bad date", place(table, r)); continue
                }
                switch table.int(r, type) {
                case 1:
                    if days[serviceID] == nil { order.append(serviceID); days[serviceID] = [] }
                    days[serviceID]!.insert(day)
                case 2: removals.append((serviceID, day))
                default: log.skip("calendar_dates row with a bad exception_type", place(table, r))
                }
            }
            // Removals win over additions of the same date, whatever the row order.
            for (serviceID, day) in removals { days[serviceID]?.remove(day) }
        }
        for serviceID in order {
            let set = days[serviceID]!
            let first = set.min() ?? 0, last = set.max() ?? -1
            var bits = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, last - first + 1))
            for day in set { bits[day - first] = UInt8(ascii: "1") }
            serviceByID[serviceID] = metadata.services.count
            metadata.services.append(.init(id: feedIndex == 0 ? serviceID : "\(feedIndex):\(serviceID)", firstDay: first,
                                           days: String(decoding: bits, as: UTF8.self)))
        }
    }

    /// trips.txt: route, service, headsign and shape of each trip.
    mutating func readTrips() throws(GTFSError) {
        let table = try requiredTable("trips.txt")
        let route = try table.require("route_id"), service = try table.require("service_id"), id = try table.require("trip_id")
        let headsign = table.columns["trip_headsign"], shape = table.columns["shape_id"]
        for r in 0..<table.count {
            let tripID = table.string(r, id)
            guard tripByID[tripID] == nil else { log.skip("duplicate trip_id", place(table, r) + ": '\(tripID)'"); continue }
            guard let routeIndex = routeByID[table.string(r, route)] else {
                log.skip("trip of an unknown route", place(table, r) + ": route_id '\(table.string(r, route))'"); continue
            }
            guard let serviceIndex = serviceByID[table.string(r, service)] else {
                log.skip("trip of an unknown service", place(table, r) + ": service_id '\(table.string(r, service))'"); continue
            }
            tripByID[tripID] = trips.count
            trips.append(Trip(route: routeIndex, service: serviceIndex, headsign: table.string(r, headsign), shape: table.string(r, shape),
                              id: tripID, line: table.line(r)))
        }
    }

    /// frequencies.txt (optional): runs of a template trip every headway_secs.
    mutating func readFrequencies() throws(GTFSError) {
        guard let table = try self.table("frequencies.txt") else { return }
        let id = try table.require("trip_id"), start = try table.require("start_time"), end = try table.require("end_time")
        let headway = try table.require("headway_secs")
        for r in 0..<table.count {
            guard let trip = tripByID[table.string(r, id)] else { log.skip("frequency of an unknown trip", place(table, r)); continue }
            guard let from = ServiceDay.seconds(table.bytes(r, start)), let to = ServiceDay.seconds(table.bytes(r, end)),
                  let step = table.int(r, headway), step > 0, from <= to else {
                log.skip("frequency row with bad times or headway", place(table, r)); continue
            }
            frequencies[trip, default: []].append(Frequency(start: from, end: to, headway: step))
        }
    }

    /// transfers.txt (optional): stop-to-stop rules, a station standing for its child stops; rows naming routes or
    /// trips are ignored.
    mutating func readTransfers() throws(GTFSError) {
        guard let table = try self.table("transfers.txt") else { return }
        let from = try table.require("from_stop_id"), to = try table.require("to_stop_id"), type = try table.require("transfer_type")
        let time = table.columns["min_transfer_time"]
        let narrowing = ["from_route_id", "to_route_id", "from_trip_id", "to_trip_id"].compactMap { table.columns[$0] }
        for r in 0..<table.count {
            if narrowing.contains(where: { !table.isBlank(r, $0) }) { continue }
            let kind = table.isBlank(r, type) ? 0 : table.int(r, type)
            guard let kind, (0...3).contains(kind) else { log.skip("transfer with a bad transfer_type", place(table, r)); continue }
            func stops(_ id: String) -> [Int] { stopByID[id].map { [$0] } ?? childrenOfStation[id] ?? [] }
            let a = stops(table.string(r, from)), b = stops(table.string(r, to))
            guard !a.isEmpty, !b.isEmpty else { log.skip("transfer between unknown stops", place(table, r)); continue }
            // A whole number of seconds, from none to a day (GTFS: a non-negative integer; more than a day is no transfer).
            let minimumTime = table.int(r, time)
            if !table.isBlank(r, time), minimumTime.map({ (0...Self.longestTransfer).contains($0) }) != true {
                log.skip("transfer with a bad min_transfer_time", place(table, r)); continue
            }
            transferRules.append(TransferRule(from: a, to: b, type: kind, minimumTime: minimumTime))
        }
    }

    /// shapes.txt (optional): the points of the shapes `used` names.
    mutating func readShapes(used: Set<String>) throws(GTFSError) {
        guard !used.isEmpty, let table = try self.table("shapes.txt") else { return }
        let id = try table.require("shape_id"), lat = try table.require("shape_pt_lat"), lon = try table.require("shape_pt_lon")
        let sequence = try table.require("shape_pt_sequence")
        let distance = table.columns["shape_dist_traveled"]
        for r in 0..<table.count {
            let shapeID = table.string(r, id)
            guard used.contains(shapeID) else { continue }
            guard let la = table.double(r, lat), let lo = table.double(r, lon), let seq = table.int(r, sequence) else {
                log.skip("shape point with bad values", place(table, r)); continue
            }
            shapes[shapeID, default: []].append(ShapePoint(sequence: seq, latitude: la, longitude: lo, distance: table.double(r, distance)))
        }
        for key in shapes.keys { shapes[key]!.sort { $0.sequence < $1.sequence } }
    }
}
