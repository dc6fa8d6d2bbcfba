import Foundation
import Routing
import Transit

/// Writes a transit trip as JSON: per pair of stops its itineraries (Pareto set, `best` marks the primary), each
/// with its legs (walk or ride, with times in the trip's zone, stops, route and geometry as an encoded polyline).
/// Keys sorted, numbers rounded (metres and seconds to 0.1, degrees to 7 decimals).
public struct TransitJSONEncoder: Sendable {
    public var prettyPrinted: Bool

    /// Compact output unless `prettyPrinted`.
    public init(prettyPrinted: Bool = false) { self.prettyPrinted = prettyPrinted }

    /// The whole trip.
    public func encode(_ trip: TransitTrip, places: [ResolvedStop] = []) -> String {
        let tz = trip.timeZone
        let document: JSONValue = .object(Self.summary(trip) + [
            ("mode", .string("transit")),
            ("timeZone", .string(tz.identifier)),
            ("stops", .array(trip.stops.map(JSONValue.coordinateObject))),
            ("legs", .array(trip.plans.map { plan in
                .object([("best", .int(plan.best)), ("itineraries", .array(plan.itineraries.map { Self.itinerary($0, tz) }))])
            })),
        ] + ResolvedStop.placesMember(places))
        return document.serialized(pretty: prettyPrinted)
    }

    /// The ETA alone: departure, arrival, travel time, walking distance, transfers.
    public func encodeETA(_ trip: TransitTrip, places: [ResolvedStop] = []) -> String {
        JSONValue.object(Self.summary(trip) + [("mode", .string("transit"))] + ResolvedStop.placesMember(places)).serialized(pretty: prettyPrinted)
    }

    static func summary(_ trip: TransitTrip) -> [(String, JSONValue)] {
        [("expectedDepartureDate", .string(ISO8601.string(trip.departure, in: trip.timeZone))),
         ("expectedArrivalDate", .string(ISO8601.string(trip.arrival, in: trip.timeZone))),
         ("expectedTravelTime", .number(trip.arrival.timeIntervalSince(trip.departure), decimals: 1)),
         ("walkingDistance", .number(trip.walkingDistance, decimals: 1)),
         ("transfers", .int(trip.transfers)),
         ("rides", .int(trip.rides))]
    }

    static func itinerary(_ itinerary: TransitItinerary, _ tz: TimeZone) -> JSONValue {
        .object([
            ("expectedDepartureDate", .string(ISO8601.string(itinerary.departure, in: tz))),
            ("expectedArrivalDate", .string(ISO8601.string(itinerary.arrival, in: tz))),
            ("expectedTravelTime", .number(itinerary.duration, decimals: 1)),
            ("walkingDistance", .number(itinerary.walkingDistance, decimals: 1)),
            ("rides", .int(itinerary.rides)),
            ("transfers", .int(itinerary.transfers)),
            ("legs", .array(itinerary.legs.map { .object(legProperties($0, tz) + [
                ("polyline", .string(PolylineEncoder.encode($0.geometry, precision: RouteJSONEncoder.polylinePrecision))),
                ("steps", .array($0.steps.map { step in
                    .object([("instructions", .string(step.instructions)), ("distance", .number(step.distance, decimals: 1)),
                             ("expectedTravelTime", .number(step.expectedTravelTime, decimals: 1))])
                })),
            ]) })),
        ])
    }

    /// The properties of a leg shared by the JSON and GeoJSON encoders.
    static func legProperties(_ leg: TransitLeg, _ tz: TimeZone) -> [(String, JSONValue)] {
        func stop(_ s: TransitStop) -> JSONValue {
            .object([("id", .string(s.id)), ("location", .coordinateObject(s.coordinate)), ("name", .string(s.name))])
        }
        var members: [(String, JSONValue)] = [
            ("kind", .string(leg.kind.rawValue)),
            ("expectedDepartureDate", .string(ISO8601.string(leg.departure, in: tz))),
            ("expectedArrivalDate", .string(ISO8601.string(leg.arrival, in: tz))),
            ("expectedTravelTime", .number(leg.duration, decimals: 1)),
            ("distance", .number(leg.distance, decimals: 1)),
            ("from", stop(leg.from)),
            ("to", stop(leg.to)),
        ]
        if let ride = leg.ride {
            members += [("agency", .string(ride.agency)), ("routeShortName", .string(ride.routeShortName)),
                        ("routeLongName", .string(ride.routeLongName)), ("transitMode", .string(ride.mode)),
                        ("headsign", .string(ride.headsign)), ("numberOfStops", .int(ride.numberOfStops)),
                        ("routeColor", .string(ride.routeColor))]
        }
        return members
    }
}
