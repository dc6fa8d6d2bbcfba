import Foundation
import Graph
import Routing
import Transit

extension Directions {
    /// The transit itineraries through the request's stops (`transportType: .transit`): per pair of stops the Pareto
    /// set over arrival and rides, each next leg leaving when the previous arrives. Each stop is snapped once.
    public func calculateTransit() throws(DirectionsError) -> TransitTrip {
        try computeTransit(Cancellation.never)
    }

    /// The transit itineraries; throws `.cancelled` when the task is cancelled (checked before each leg's search).
    public func calculateTransit() async throws(DirectionsError) -> TransitTrip {
        try computeTransit(Cancellation.task)
    }

    /// The work of `calculateTransit`, checking `cancel` before each pair of stops.
    func computeTransit(_ cancel: Cancellation) throws(DirectionsError) -> TransitTrip {
        if request.departureDate != nil && request.arrivalDate != nil { throw .conflictingDates }
        let router = try map.transitRouter()
        var options = request.transitOptions
        options.maxSnappingDistance = request.maximumSnappingDistance
        guard request.stops.count >= 2 else { throw .transit(.tooFewStops(request.stops.count)) }
        var snapped: [SnappedStop] = []
        for (i, c) in request.stops.enumerated() {
            guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= 180 else { throw .transit(.invalidCoordinate(stop: i)) }
            let radius = request.stopRadii.flatMap { i < $0.count ? $0[i] : nil } ?? options.maxSnappingDistance
            guard let stop = map.snapStop(c, router: router.footRouter, maximumDistance: radius) else {
                throw .transit(.noRoad(stop: i, maxDistance: radius))
            }
            snapped.append(stop)
        }
        do {
            var trip = try router.trip(through: snapped, departure: request.arrivalDate == nil ? (request.departureDate ?? Date()) : nil,
                                       arrival: request.arrivalDate, options: options,
                                       between: { () throws(TransitError) in if cancel.isCancelled() { throw .timedOut } })
            trip.timeZone = request.timeZone
            return trip
        } catch {
            if cancel.isCancelled() { throw .cancelled }
            throw .transit(error)
        }
    }
}

extension OfflineMap {
    /// The time zone of the timetable's first agency (the zone transit times without an offset are read in); nil
    /// when the map has no timetable. Read from the timetable's description alone (the timetable is not opened).
    public var transitTimeZone: TimeZone? { timeZoneSlot.value { Timetable.timeZone(in: graph.file) } }

    /// The map's own zone, in which every front end reads dates without an offset and prints dates unless told
    /// another: the timetable's (`transitTimeZone`) when the file has one, else the system's. So `--depart 18:00`
    /// means the same moment by car, on foot and by transit on one map.
    public var localTimeZone: TimeZone { transitTimeZone ?? .current }

    /// The first and last service days of the timetable (`yyyy-MM-dd`), when the map has one.
    public var transitServiceDays: (first: String, last: String)? {
        guard let router = try? transitRouter() else { return nil }
        return (ServiceDay.iso(router.window.firstDay), ServiceDay.iso(router.window.lastDay))
    }

    /// A local date-time without offset (2017-05-10T08:30, seconds optional) in `zone`, read by `ISO8601`; an
    /// ambiguous time on a daylight-saving change is its first occurrence. Nil when `text` is not such a time.
    public static func localDate(_ text: String, in zone: TimeZone) -> Date? {
        guard let date = try? ISO8601.date(from: text, timeZone: zone), ISO8601.hasNoOffset(text) else { return nil }
        return date
    }

    /// A transit query time (`ISO8601`): local time in the timetable's zone when `text` has no offset
    /// (2017-05-10T08:30), or with an offset (2017-05-10T08:30:00-04:00) or Z; nil when it is neither. Without a
    /// timetable, local times are read in `fallbackZone`.
    public func transitDate(_ text: String, fallbackZone: TimeZone = .current) -> Date? {
        try? ISO8601.date(from: text, timeZone: transitTimeZone ?? fallbackZone)
    }
}

extension TransitTrip {
    /// The primary itineraries as a plain route result (one route, a leg per pair of stops, walk steps and one step
    /// per ride), for code that handles every transport type alike.
    public var routeResult: RouteResult {
        var legs: [RouteLeg] = []
        for plan in plans {
            let itinerary = plan.primary
            var steps: [RouteStep] = []
            for leg in itinerary.legs {
                if let ride = leg.ride {
                    let line = [ride.routeShortName, ride.routeLongName].filter { !$0.isEmpty }.joined(separator: " ")
                    steps.append(RouteStep(maneuver: .depart, name: line, ref: ride.routeShortName, distance: leg.distance,
                                           expectedTravelTime: leg.duration, location: leg.from.coordinate, bearingBefore: 0, bearingAfter: 0,
                                           instructions: "Take the \(ride.mode) \(line)\(ride.towards) from \(leg.from.name) to \(leg.to.name) (\(ride.numberOfStops) stops)",
                                           geometry: leg.geometry))
                } else {
                    steps += leg.steps
                }
            }
            var geometry = itinerary.geometry
            if geometry.count == 1 { geometry.append(geometry[0]) }
            legs.append(RouteLeg(distance: itinerary.legs.reduce(0) { $0 + $1.distance }, expectedTravelTime: itinerary.duration,
                                 geometry: geometry, steps: steps, boundingBox: BoundingBox(geometry)!, traversals: []))
        }
        var polyline: [Coordinate] = []
        for leg in legs { for p in leg.geometry where polyline.last != p { polyline.append(p) } }
        if polyline.count == 1 { polyline.append(polyline[0]) }
        let box = legs.dropFirst().reduce(legs[0].boundingBox) { $0.union($1.boundingBox) }
        let names = plans.flatMap { $0.primary.legs.compactMap { $0.ride.map { $0.routeShortName.isEmpty ? $0.routeLongName : $0.routeShortName } } }
        let route = Route(distance: legs.reduce(0) { $0 + $1.distance }, expectedTravelTime: arrival.timeIntervalSince(departure),
                          polyline: polyline, legs: legs, boundingBox: box, name: names.joined(separator: ", "))
        let waypoints = stops.map { Waypoint(query: $0, location: $0, snappingDistance: 0, name: "") }
        return RouteResult(routes: [route], waypoints: waypoints, mode: "transit", expectedDepartureDate: departure,
                           expectedArrivalDate: arrival, timeZone: timeZone)
    }

    /// The ETA of the trip: departure, arrival, travel time and the distance covered.
    public var eta: ETASummary {
        ETASummary(distance: plans.reduce(0) { $0 + $1.primary.legs.reduce(0) { $0 + $1.distance } },
                   expectedTravelTime: arrival.timeIntervalSince(departure), expectedDepartureDate: departure,
                   expectedArrivalDate: arrival, timeZone: timeZone)
    }
}
