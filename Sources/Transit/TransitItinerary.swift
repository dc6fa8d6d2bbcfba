import Foundation
import Graph
import Routing

/// A stop of the timetable as itineraries show it.
public struct TransitStop: Equatable, Sendable {
    public var id: String
    public var name: String
    public var coordinate: Coordinate
}

/// One leg of an itinerary: a walk along the foot graph, or a ride on one trip.
public struct TransitLeg: Equatable, Sendable {
    /// Walking along the foot graph, or riding one trip.
    public enum Kind: String, Sendable { case walk, ride }

    /// The details of a ride leg.
    public struct Ride: Equatable, Sendable {
        public var agency: String
        public var routeShortName: String
        public var routeLongName: String
        /// "bus", "tram", "rail", … from the GTFS route_type.
        public var mode: String
        public var headsign: String
        /// Stops travelled (alighting stop's position minus boarding stop's).
        public var numberOfStops: Int
        public var routeColor: String
    }

    public var kind: Kind
    public var departure: Date
    public var arrival: Date
    /// Where the leg starts and ends (a stop, or the itinerary's origin or destination: then `id` is empty).
    public var from: TransitStop
    public var to: TransitStop
    /// Metres: walked, or along the ride's geometry.
    public var distance: Double
    public var geometry: [Coordinate]
    /// Turn-by-turn steps of a walk leg (empty for rides).
    public var steps: [RouteStep]
    public var ride: Ride?

    /// Seconds from departure to arrival.
    public var duration: Double { arrival.timeIntervalSince(departure) }
}

/// A way from origin to destination: walks and rides, with its ETA figures.
public struct TransitItinerary: Equatable, Sendable {
    public var legs: [TransitLeg]
    public var departure: Date
    public var arrival: Date
    /// Metres walked over all walk legs.
    public var walkingDistance: Double
    /// Rides taken (0 for walking only).
    public var rides: Int
    /// Transfers between rides (rides − 1, at least 0).
    public var transfers: Int { max(0, rides - 1) }
    /// Seconds from departure to arrival.
    public var duration: Double { arrival.timeIntervalSince(departure) }
    /// The whole geometry, leg after leg.
    public var geometry: [Coordinate] {
        var out: [Coordinate] = []
        for leg in legs { for p in leg.geometry where out.last != p { out.append(p) } }
        return out
    }
}

/// The answer for one origin–destination pair: the Pareto set (fewest rides first, each arriving earlier, or for
/// arrive-by leaving later), and which itinerary is the primary one.
public struct TransitPlan: Equatable, Sendable {
    public var itineraries: [TransitItinerary]
    /// Index of the primary itinerary: the earliest arrival (depart-at) or latest departure (arrive-by).
    public var best: Int
    public var primary: TransitItinerary { itineraries[best] }
}

/// The answer for a trip through several stops: one plan per leg, each next leg leaving when the previous arrives
/// (arrive-by: each earlier leg arriving when the next leaves).
public struct TransitTrip: Equatable, Sendable {
    public var plans: [TransitPlan]
    public var stops: [Coordinate]
    /// The zone dates are shown in (the first agency's, unless asked otherwise).
    public var timeZone: TimeZone
    public var departure: Date { plans.first!.primary.departure }
    public var arrival: Date { plans.last!.primary.arrival }
    public var walkingDistance: Double { plans.reduce(0) { $0 + $1.primary.walkingDistance } }
    public var transfers: Int { plans.reduce(0) { $0 + $1.primary.transfers } }
    public var rides: Int { plans.reduce(0) { $0 + $1.primary.rides } }
}

/// Names of GTFS route types, basic and extended.
public enum TransitMode {
    /// "bus", "tram", "rail", … for a GTFS route_type (basic or extended).
    public static func name(_ routeType: Int) -> String {
        switch routeType {
        case 0, 900..<1000: return "tram"
        case 1, 400..<500: return "subway"
        case 2, 100..<200: return "rail"
        case 3, 700..<800, 200..<300: return "bus"
        case 4, 1000..<1100, 1200..<1300: return "ferry"
        case 5: return "cable tram"
        case 6, 1300..<1400: return "aerial lift"
        case 7, 1400..<1500: return "funicular"
        case 11, 800..<900: return "trolleybus"
        case 12: return "monorail"
        default: return "transit"
        }
    }
}
