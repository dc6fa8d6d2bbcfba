import Foundation
import Routing
import Transit

/// Writes ETA lists as an aligned text table, a JSON array or CSV.
public enum ETAListEncoder {
    /// An aligned table: place, travel time, distance, arrival (ISO 8601 with offset); with `transit`, the distance
    /// is the walking, then rides and first boarding (stop and departure), and the window's best/median/worst when given.
    public static func text(_ entries: [ETAListEntry], timeZone: TimeZone, transit: Bool = false) -> String {
        let window = entries.contains { $0.departureWindow != nil }
        let rows = entries.map { entry -> [String] in
            let name = TextEncoder.clean(entry.place.name)
            guard entry.status == .ok, let time = entry.expectedTravelTime, let distance = entry.distance, let arrival = entry.expectedArrivalDate else {
                let blank = transit ? ["-", "-"] + (window ? ["-", "-", "-"] : []) : []
                return [name, "-", "-", entry.status == .noRoad ? "no road" : "no route"] + blank
            }
            var row = [name, TextEncoder.formatDuration(time), TextEncoder.formatDistance(distance), ISO8601.string(arrival, in: timeZone)]
            if transit {
                row.append(entry.transit.map { String($0.rides) } ?? "-")
                row.append(entry.transit?.firstBoarding.map { "\(TransitTextEncoder.clock($0.departure, timeZone)) \(TextEncoder.clean($0.stop.name))" } ?? "walk only")
                if window {
                    let w = entry.departureWindow
                    row += [w?.best, w?.median, w?.worst].map { $0.map(TextEncoder.formatDuration) ?? "-" }
                }
            }
            return row
        }
        var header = ["place", "travel time", transit ? "walking" : "distance", "arrival"]
        var right = [false, true, true, false]
        if transit { header += ["rides", "first boarding"]; right += [true, false] }
        if transit && window { header += ["best", "median", "worst"]; right += [true, true, true] }
        return TextEncoder.table(header, rows, right: right)
            .map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\n"
    }

    /// A JSON array of objects, one line, sorted keys (docs/schemas/eta-list.schema.json): `name`, `query` (the
    /// coordinate given), `location` and `snappingDistance` (where it snapped; null without a road),
    /// `expectedTravelTime` (s), `distance` (m), `expectedArrivalDate`, `status` (`ok`, `no_road`, `no_route`);
    /// the figures are null unless ok. With `transit` also `expectedDepartureDate` (the latest departure still
    /// arriving then, as the pair's own eta), `rides`, `walkingDistance` (m), `firstBoarding`
    /// (`stop`, `stopId`, `departure`; null when walking only) and, with a window, `departureWindow` (`best`,
    /// `median`, `worst` in s, `departures`: how many were compared).
    public static func json(_ entries: [ETAListEntry], timeZone: TimeZone, transit: Bool = false) -> String {
        let items = entries.map { entry -> JSONValue in
            var fields: [(String, JSONValue)] = [
                ("distance", entry.distance.map { .number($0, decimals: 1) } ?? .null),
                ("expectedArrivalDate", entry.expectedArrivalDate.map { .string(ISO8601.string($0, in: timeZone)) } ?? .null),
                ("expectedTravelTime", entry.expectedTravelTime.map { .number($0, decimals: 1) } ?? .null),
                ("location", entry.waypoint.map { .coordinateObject($0.location) } ?? .null),
                ("name", .string(entry.place.name)),
                ("query", .coordinateObject(entry.place.coordinate)),
                ("snappingDistance", entry.waypoint.map { .number($0.snappingDistance, decimals: 1) } ?? .null),
                ("status", .string(entry.status.rawValue)),
            ] + entry.place.placeMember
            if transit { fields += transitFields(entry, timeZone: timeZone); fields.sort { $0.0 < $1.0 } }
            return .object(fields)
        }
        return JSONValue.array(items).serialized()
    }

    /// The transit keys of an entry's JSON object.
    static func transitFields(_ entry: ETAListEntry, timeZone: TimeZone) -> [(String, JSONValue)] {
        let arrival = entry.transit
        var fields: [(String, JSONValue)] = [
            ("expectedDepartureDate", arrival?.itinerary.map { .string(ISO8601.string($0.departure, in: timeZone)) } ?? .null),
            ("rides", arrival.map { .number(Double($0.rides), decimals: 0) } ?? .null),
            ("walkingDistance", arrival.map { .number($0.walkingDistance, decimals: 1) } ?? .null),
            ("firstBoarding", arrival?.firstBoarding.map { boarding in
                .object([("departure", .string(ISO8601.string(boarding.departure, in: timeZone))), ("stop", .string(boarding.stop.name)),
                         ("stopId", .string(boarding.stop.id))])
            } ?? .null),
        ]
        if let window = entry.departureWindow {
            fields.append(("departureWindow", .object([("best", .number(window.best, decimals: 1)), ("departures", .number(Double(window.departures.count), decimals: 0)),
                                                      ("median", .number(window.median, decimals: 1)), ("worst", .number(window.worst, decimals: 1))])))
        }
        return fields
    }

    /// CSV with a header `name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status` (with `transit` then
    /// `rides,firstBoardingStop,firstBoardingDeparture` and, with a window, `best,median,worst`); empty figures unless ok.
    public static func csv(_ entries: [ETAListEntry], timeZone: TimeZone, transit: Bool = false) -> String {
        let window = entries.contains { $0.departureWindow != nil }
        var out = "name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status"
        if transit { out += ",rides,firstBoardingStop,firstBoardingDeparture" + (window ? ",best,median,worst" : "") }
        out += "\n"
        for entry in entries {
            var fields = [
                CSV.quote(entry.place.name),
                FixedDecimal.string(entry.place.coordinate.latitude, decimals: 7),
                FixedDecimal.string(entry.place.coordinate.longitude, decimals: 7),
                entry.expectedTravelTime.map { FixedDecimal.string($0, decimals: 1) } ?? "",
                entry.distance.map { FixedDecimal.string($0, decimals: 1) } ?? "",
                entry.expectedArrivalDate.map { ISO8601.string($0, in: timeZone) } ?? "",
                entry.status.rawValue,
            ]
            if transit {
                fields.append(entry.transit.map { String($0.rides) } ?? "")
                fields.append(entry.transit?.firstBoarding.map { CSV.quote($0.stop.name) } ?? "")
                fields.append(entry.transit?.firstBoarding.map { ISO8601.string($0.departure, in: timeZone) } ?? "")
                if window {
                    let w = entry.departureWindow
                    fields += [w?.best, w?.median, w?.worst].map { $0.map { FixedDecimal.string($0, decimals: 1) } ?? "" }
                }
            }
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }
}
