import Foundation
import Routing

/// Writes ETA lists as an aligned text table, a JSON array or CSV.
public enum ETAListEncoder {
    /// An aligned table: place, travel time, distance, arrival (ISO 8601 with offset).
    public static func text(_ entries: [ETAListEntry], timeZone: TimeZone) -> String {
        let rows = entries.map { entry -> [String] in
            let name = TextEncoder.clean(entry.place.name)
            guard entry.status == .ok, let time = entry.expectedTravelTime, let distance = entry.distance, let arrival = entry.expectedArrivalDate else {
                return [name, "-", "-", entry.status == .noRoad ? "no road" : "no route"]
            }
            return [name, TextEncoder.formatDuration(time), TextEncoder.formatDistance(distance), ISO8601.string(arrival, in: timeZone)]
        }
        return TextEncoder.table(["place", "travel time", "distance", "arrival"], rows, right: [false, true, true, false])
            .map { String($0.dropFirst(2)) }.joined(separator: "\n") + "\n"
    }

    /// A JSON array of objects, one line, sorted keys (docs/schemas/eta-list.schema.json): `name`, `query` (the
    /// coordinate given), `location` and `snappingDistance` (where it snapped; null without a road),
    /// `expectedTravelTime` (s), `distance` (m), `expectedArrivalDate`, `status` (`ok`, `no_road`, `no_route`);
    /// the figures are null unless ok.
    public static func json(_ entries: [ETAListEntry], timeZone: TimeZone) -> String {
        let items = entries.map { entry -> JSONValue in
            .object([
                ("distance", entry.distance.map { .number($0, decimals: 1) } ?? .null),
                ("expectedArrivalDate", entry.expectedArrivalDate.map { .string(ISO8601.string($0, in: timeZone)) } ?? .null),
                ("expectedTravelTime", entry.expectedTravelTime.map { .number($0, decimals: 1) } ?? .null),
                ("location", entry.waypoint.map { .coordinateObject($0.location) } ?? .null),
                ("name", .string(entry.place.name)),
                ("query", .coordinateObject(entry.place.coordinate)),
                ("snappingDistance", entry.waypoint.map { .number($0.snappingDistance, decimals: 1) } ?? .null),
                ("status", .string(entry.status.rawValue)),
            ])
        }
        return JSONValue.array(items).serialized()
    }

    /// CSV with a header `name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status`; empty figures unless ok.
    public static func csv(_ entries: [ETAListEntry], timeZone: TimeZone) -> String {
        var out = "name,lat,lon,expectedTravelTime,distance,expectedArrivalDate,status\n"
        for entry in entries {
            let fields = [
                CSV.quote(entry.place.name),
                FixedDecimal.string(entry.place.coordinate.latitude, decimals: 7),
                FixedDecimal.string(entry.place.coordinate.longitude, decimals: 7),
                entry.expectedTravelTime.map { FixedDecimal.string($0, decimals: 1) } ?? "",
                entry.distance.map { FixedDecimal.string($0, decimals: 1) } ?? "",
                entry.expectedArrivalDate.map { ISO8601.string($0, in: timeZone) } ?? "",
                entry.status.rawValue,
            ]
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }
}
