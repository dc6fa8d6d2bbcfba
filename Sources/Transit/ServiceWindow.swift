import Foundation

/// What a search needs to know about the days around a query: the start of the service days before, of and after
/// the query's local date (per time zone of the timetable) and the services running on each.
public struct ServiceWindow: Sendable {
    /// Time zones by index (agencies sharing a zone share an index); zone 0 is the first agency's.
    public let zones: [TimeZone]
    /// The time-zone index of each route.
    public let zoneOfRoute: [Int]
    public let calendar: ServiceCalendar
    public let firstDay: Int
    public let lastDay: Int

    /// The zone of an agency's `agency_timezone` (UTC when tzdata does not know it; the import refuses such a name).
    public static func zone(named name: String) -> TimeZone { TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")! }

    /// The zones and calendars of `metadata`.
    public init(_ metadata: TransitMetadata) {
        var names: [String] = []
        var zoneOfAgency: [Int] = []
        for agency in metadata.agencies {
            if let i = names.firstIndex(of: agency.timeZone) { zoneOfAgency.append(i) } else { zoneOfAgency.append(names.count); names.append(agency.timeZone) }
        }
        zones = names.map(Self.zone(named:))
        zoneOfRoute = metadata.routes.map { zoneOfAgency[$0.agency] }
        calendar = ServiceCalendar(metadata)
        firstDay = metadata.firstDay
        lastDay = metadata.lastDay
    }

    /// Day starts (`[zone * 3 + k]`, k = 0 the day before) and active services (`[k * services + s]`) around an
    /// instant (Unix seconds); throws when its local date (zone 0) lies outside the feed's service range.
    public func days(around instant: Int) throws(TransitError) -> (dayStarts: [Int], active: [UInt8]) {
        let day = ServiceDay.localDay(of: instant, in: zones[0])
        guard day >= firstDay && day <= lastDay else {
            throw .dateOutsideFeed(date: ServiceDay.iso(day), first: ServiceDay.iso(firstDay), last: ServiceDay.iso(lastDay))
        }
        var starts: [Int] = []
        for zone in zones { for k in -1...1 { starts.append(ServiceDay.start(day + k, in: zone)) } }
        return (starts, calendar.activeFlags(on: [day - 1, day, day + 1]))
    }

    /// A depart-at query in the forward direction (or, `reversed`, an arrive-by query at `-time`).
    public func query(reversed: Bool, time: Int, access: [(stop: Int, seconds: Int)], egress: [(stop: Int, seconds: Int)],
                      maxRides: Int) throws(TransitError) -> RaptorQuery {
        let around = try days(around: reversed ? -time : time)
        return RaptorQuery(access: access, egress: egress, departure: time, maxRides: maxRides,
                           dayStarts: reversed ? around.dayStarts.map { -$0 } : around.dayStarts, active: around.active)
    }
}
