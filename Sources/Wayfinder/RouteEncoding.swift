import Foundation

/// What the output encoders write: the routes found for one request, its stops, travel mode and timing.
/// A plain value; `routes[0]` is the primary route, the others are alternatives.
public struct RouteResult: Equatable, Sendable {
    /// The routes, best first. Every route has one leg per pair of consecutive `waypoints`.
    public var routes: [Route]
    /// The stops in travel order, as snapped to the road network.
    public var waypoints: [Waypoint]
    /// The travel mode's name: "car" or "foot".
    public var mode: String
    /// When the primary route leaves its first stop and reaches its last.
    public var expectedDepartureDate: Date
    public var expectedArrivalDate: Date
    /// The time zone dates are written in (ISO 8601 with that zone's offset at each date).
    public var timeZone: TimeZone
    /// The "lines" view: routes are straight great-circle lines between stops, without steps.
    public var straightLines: Bool
    /// The dates were worked back from a requested arrival ("arrive by"): alternatives then arrive at that time
    /// and leave earlier, instead of leaving at the same time and arriving later.
    public var anchoredAtArrival: Bool

    /// A result from its parts; `straightLines` defaults to the road view.
    public init(routes: [Route], waypoints: [Waypoint], mode: String, expectedDepartureDate: Date, expectedArrivalDate: Date,
                timeZone: TimeZone, straightLines: Bool = false, anchoredAtArrival: Bool = false) {
        self.routes = routes; self.waypoints = waypoints; self.mode = mode
        self.expectedDepartureDate = expectedDepartureDate; self.expectedArrivalDate = expectedArrivalDate
        self.timeZone = timeZone; self.straightLines = straightLines; self.anchoredAtArrival = anchoredAtArrival
    }

    /// Departure and arrival of `routes[index]`: the primary route uses the result's dates; alternatives leave at
    /// the same time and arrive after their own travel time (or, `anchoredAtArrival`, arrive at the same time).
    public func expectedDates(forRoute index: Int) -> (departure: Date, arrival: Date) {
        if index == 0 { return (expectedDepartureDate, expectedArrivalDate) }
        var time = routes.indices.contains(index) ? routes[index].expectedTravelTime : 0
        if !time.isFinite { time = 0 }
        if anchoredAtArrival { return (expectedArrivalDate.addingTimeInterval(-time), expectedArrivalDate) }
        return (expectedDepartureDate, expectedDepartureDate.addingTimeInterval(time))
    }

    /// The estimated time of arrival of the primary route (distance 0 and the dates' difference when there is none).
    public var eta: ETASummary {
        let route = routes.first
        return ETASummary(distance: route?.distance ?? 0,
                          expectedTravelTime: route?.expectedTravelTime ?? expectedArrivalDate.timeIntervalSince(expectedDepartureDate),
                          expectedDepartureDate: expectedDepartureDate, expectedArrivalDate: expectedArrivalDate, timeZone: timeZone,
                          legDistances: route?.legs.map(\.distance) ?? [], legTravelTimes: route?.legs.map(\.expectedTravelTime) ?? [])
    }
}

/// An estimated time of arrival, as MapKit's ETA response gives it: distance, travel time and the two dates.
public struct ETASummary: Equatable, Sendable {
    /// Metres and seconds.
    public var distance: Double
    public var expectedTravelTime: Double
    public var expectedDepartureDate: Date
    public var expectedArrivalDate: Date
    /// The time zone dates are written in.
    public var timeZone: TimeZone
    /// Each leg's metres and seconds, in order (empty for transit).
    public var legDistances: [Double]
    public var legTravelTimes: [Double]
    /// With `DirectionsRequest.includesLegRoads`: each leg's roads and their metres, as its steps name them (nil for a
    /// leg whose steps must be laid out to tell: `LegRoadTotals`); else empty.
    public var legRoads: [LegRoadTotals?] = []
    /// The stops as the road route used them (empty for transit and for an ETA taken from a route result).
    public var waypoints: [Waypoint] = []

    /// An ETA from its parts.
    public init(distance: Double, expectedTravelTime: Double, expectedDepartureDate: Date, expectedArrivalDate: Date, timeZone: TimeZone,
                legDistances: [Double] = [], legTravelTimes: [Double] = []) {
        self.distance = distance; self.expectedTravelTime = expectedTravelTime
        self.expectedDepartureDate = expectedDepartureDate; self.expectedArrivalDate = expectedArrivalDate; self.timeZone = timeZone
        self.legDistances = legDistances; self.legTravelTimes = legTravelTimes
    }
}
