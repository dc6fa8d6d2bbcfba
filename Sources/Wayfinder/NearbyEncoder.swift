import Foundation
import Routing
import Transit

/// Writes a nearby search's answer as an aligned text table or as JSON (docs/schemas/nearby.schema.json).
public enum NearbyEncoder {
    /// The route of the first ride (its short name, else its long name), or nil when walking only or unknown.
    static func firstRoute(_ entry: ETAListEntry) -> String? {
        guard let ride = entry.transit?.itinerary?.legs.first(where: { $0.kind == .ride })?.ride else { return nil }
        return ride.routeShortName.isEmpty ? ride.routeLongName : ride.routeShortName
    }

    /// What the table calls a place: its name, else its address, else "(no name, LAT,LON)" (a point to route to).
    static func title(_ item: MapItem) -> String {
        if !item.name.isEmpty { return TextEncoder.clean(item.name) }
        if !item.address.isEmpty { return TextEncoder.clean(item.address) }
        return String(format: "(no name, %.5f,%.5f)", item.coordinate.latitude, item.coordinate.longitude)
    }

    /// A table: rank, place, category, travel time, arrival, distance (by transit: walking, rides and the first
    /// boarding as time, stop and route; `walk only` when walking is quicker); unreachable places end it unranked. With
    /// a latest arrival, a line after the table counts the places reached later or not at all.
    public static func text(_ response: NearbySearchResponse, transit: Bool) -> String {
        let tz = response.timeZone
        let rows = response.places.map { place -> [String] in
            let e = place.eta
            var row = [place.rank.map(String.init) ?? "-", title(place.mapItem), TextEncoder.clean(place.mapItem.category)]
            guard e.status == .ok, let time = e.expectedTravelTime, let distance = e.distance, let arrival = e.expectedArrivalDate else {
                return row + ["-", e.status == .noRoad ? "no road" : "no route", "-"] + (transit ? ["-", "-"] : [])
            }
            row += [TextEncoder.formatDuration(time), ISO8601.string(arrival, in: tz), TextEncoder.formatDistance(distance)]
            if transit {
                row.append(e.transit.map { String($0.rides) } ?? "-")
                if let boarding = e.transit?.firstBoarding {
                    let route = firstRoute(e).map { " (\(TextEncoder.clean($0)))" } ?? ""
                    row.append("\(TransitTextEncoder.clock(boarding.departure, tz)) \(TextEncoder.clean(boarding.stop.name))\(route)")
                } else {
                    row.append("walk only")
                }
            }
            return row
        }
        var header = ["rank", "place", "category", "travel time", "arrival", transit ? "walking" : "distance"]
        var right = [true, false, false, true, false, true]
        if transit { header += ["rides", "first boarding"]; right += [true, false] }
        let body = TextEncoder.table(header, rows, right: right).map { String($0.dropFirst(2)) }.joined(separator: "\n")
        var text = response.places.isEmpty ? "no place of the category within the radius\n" : body + "\n"
        if let latest = response.latestArrival {
            let by = ISO8601.string(latest, in: tz), others = response.reachedLater
            let later = "\(others) more place\(others == 1 ? " is" : "s are") reached after \(by) or not at all"
            text = response.places.isEmpty ? "no place of the category within the radius is reached by \(by)"
                + (others > 0 ? " (\(others) reached later or not at all)\n" : "\n") : text + (others > 0 ? "\(later)\n" : "")
        }
        return text
    }

    /// One JSON object, sorted keys: `expectedDepartureDate`, `candidates` (places within the radius before the
    /// limit), with a latest arrival `latestArrival` and `reachedLater` (the candidates reached after it or not at all),
    /// and `places`, each with `rank` (null when unreachable), `name`, `category`, `categoryKey`, `address`,
    /// `location`, `straightLineDistance` (m), `status`, `expectedTravelTime` (s), `expectedArrivalDate`, `distance`
    /// (m; by transit the walking) and, by transit, `expectedDepartureDate`, `rides`, `walkingDistance` and
    /// `firstBoarding` (`stop`, `stopId`, `route`, `departure`; null when walking only).
    public static func json(_ response: NearbySearchResponse, transit: Bool) -> String {
        let tz = response.timeZone
        let places = response.places.map { place -> JSONValue in
            let e = place.eta, item = place.mapItem
            var fields: [(String, JSONValue)] = [
                ("address", .string(item.address)),
                ("category", .string(item.category)),
                ("categoryKey", .string(item.categoryKey)),
                ("distance", e.distance.map { .number($0, decimals: 1) } ?? .null),
                ("expectedArrivalDate", e.expectedArrivalDate.map { .string(ISO8601.string($0, in: tz)) } ?? .null),
                ("expectedTravelTime", e.expectedTravelTime.map { .number($0, decimals: 1) } ?? .null),
                ("location", .coordinateObject(item.coordinate)),
                ("name", .string(item.name)),
                ("rank", place.rank.map { .int($0) } ?? .null),
                ("status", .string(e.status.rawValue)),
                ("straightLineDistance", .number(item.distance ?? 0, decimals: 1)),
            ]
            if transit {
                let arrival = e.transit
                fields += [
                    ("expectedDepartureDate", arrival?.itinerary.map { .string(ISO8601.string($0.departure, in: tz)) } ?? .null),
                    ("rides", arrival.map { .int($0.rides) } ?? .null),
                    ("walkingDistance", arrival.map { .number($0.itinerary?.walkingDistance ?? $0.walkingDistance, decimals: 1) } ?? .null),
                    ("firstBoarding", arrival?.firstBoarding.map { boarding in
                        .object([("departure", .string(ISO8601.string(boarding.departure, in: tz))),
                                 ("route", firstRoute(e).map { .string($0) } ?? .null),
                                 ("stop", .string(boarding.stop.name)), ("stopId", .string(boarding.stop.id))])
                    } ?? .null),
                ]
                fields.sort { $0.0 < $1.0 }
            }
            return .object(fields)
        }
        var members: [(String, JSONValue)] = [
            ("candidates", .int(response.candidateCount)),
            ("expectedDepartureDate", .string(ISO8601.string(response.expectedDepartureDate, in: tz))),
        ]
        if let latest = response.latestArrival { members.append(("latestArrival", .string(ISO8601.string(latest, in: tz)))) }
        members.append(("places", .array(places)))
        if response.latestArrival != nil { members.append(("reachedLater", .int(response.reachedLater))) }
        return JSONValue.object(members).serialized()
    }
}
