import Foundation
import Routing

/// Writes a trip response: the visiting order, totals and saving, then the route as the route encoders do.
public enum TripEncoder {
    /// The order (1-based stop numbers), total time and distance, the given order's time and the saving, then
    /// the route's text summary.
    public static func text(_ trip: TripResponse) -> String {
        let route = trip.directions.routes[0]
        var order = trip.order.map { String($0 + 1) }
        if trip.shape == .roundtrip { order.append(String(trip.order[0] + 1)) }
        let shape = trip.shape == .roundtrip ? "round trip" : trip.shape == .endFixed ? "last stop fixed" : "open, ending anywhere"
        var lines = ["Wayfinder \(trip.directions.mode) trip through \(trip.order.count) stops (\(shape))"]
        lines.append("  order        " + order.joined(separator: " → "))
        lines.append("  total        \(TextEncoder.formatDuration(route.expectedTravelTime)), \(TextEncoder.formatDistance(route.distance))")
        if let given = trip.givenOrderTravelTime, let saving = trip.saving {
            let share = given > 0 ? " (\(FixedDecimal.string(100 * saving / given, decimals: 1, trimmingZeros: false)) %)" : ""
            lines.append("  given order  \(TextEncoder.formatDuration(given)): saves \(TextEncoder.formatDuration(saving))\(share)")
        } else {
            lines.append("  given order  has a leg with no route")
        }
        return lines.joined(separator: "\n") + "\n\n" + TextEncoder().encode(trip.directions)
    }

    /// `{"trip": {"order", "shape", "expectedTravelTime", "distance", "givenOrderTravelTime", "saving"}, "directions": …}`
    /// with `directions` as `RouteJSONEncoder` writes a route (waypoints in visiting order); `order` is 0-based.
    /// One line, sorted keys (docs/schemas/trip.schema.json).
    /// `places`: the stops as given, resolved (`StopResolver`); a `places` member when any was given by name.
    public static func json(_ trip: TripResponse, places: [ResolvedStop] = []) -> String {
        let route = trip.directions.routes[0]
        let summary: JSONValue = .object([
            ("order", .array(trip.order.map { .int($0) })),
            ("shape", .string(trip.shape.rawValue)),
            ("expectedTravelTime", .number(route.expectedTravelTime, decimals: 1)),
            ("distance", .number(route.distance, decimals: 1)),
            ("givenOrderTravelTime", trip.givenOrderTravelTime.map { .number($0, decimals: 1) } ?? .null),
            ("saving", trip.saving.map { .number($0, decimals: 1) } ?? .null),
        ])
        let document: JSONValue = .object([("trip", summary), ("directions", RouteJSONEncoder().document(trip.directions))]
                                          + ResolvedStop.placesMember(places))
        return document.serialized()
    }

    /// A transit trip for a terminal: the order, the totals, then the itineraries (as `route --mode transit`).
    public static func text(_ answer: TransitTripResponse) -> String {
        var order = answer.order.map { String($0 + 1) }
        if answer.shape == .roundtrip { order.append(String(answer.order[0] + 1)) }
        let shape = answer.shape == .roundtrip ? "round trip" : answer.shape == .endFixed ? "last stop fixed" : "open, ending anywhere"
        let trip = answer.trip
        var lines = ["Wayfinder transit trip through \(answer.order.count) stops (\(shape), greedy by earliest arrival)"]
        lines.append("  order        " + order.joined(separator: " → "))
        lines.append("  total        \(TextEncoder.formatDuration(trip.arrival.timeIntervalSince(trip.departure))), "
                     + "\(TextEncoder.formatDistance(trip.walkingDistance)) walking, \(trip.rides) \(trip.rides == 1 ? "ride" : "rides")")
        return lines.joined(separator: "\n") + "\n\n" + TransitTextEncoder().encode(trip)
    }

    /// A transit trip as JSON: `trip` (`order`, `shape`, `expectedTravelTime` s, `walkingDistance` m, `rides`) and
    /// `directions` (the document of `route --mode transit --format json`).
    public static func json(_ answer: TransitTripResponse, places: [ResolvedStop] = []) -> String {
        let trip = answer.trip
        let summary: JSONValue = .object([
            ("order", .array(answer.order.map { .int($0) })),
            ("shape", .string(answer.shape.rawValue)),
            ("expectedTravelTime", .number(trip.arrival.timeIntervalSince(trip.departure), decimals: 1)),
            ("walkingDistance", .number(trip.walkingDistance, decimals: 1)),
            ("rides", .int(trip.rides)),
        ])
        // Sorted keys: the transit document (already serialized) first, then the summary.
        let placesText = ResolvedStop.placesMember(places).first.map { ",\"places\":" + $0.1.serialized() } ?? ""
        return "{\"directions\":" + TransitJSONEncoder().encode(trip) + placesText + ",\"trip\":" + summary.serialized() + "}"
    }
}
