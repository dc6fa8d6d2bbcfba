import Foundation
import Routing

/// Writes a matrix response as CSV (one row per source–destination pair) or JSON (arrays of rows).
public enum MatrixEncoder {
    /// `source,destination,source_name,destination_name,duration_s,distance_m` rows (1-based indices, sources
    /// outer), with empty duration and distance for a pair that has no route.
    public static func csv(_ response: MatrixResponse) -> String {
        var out = "source,destination,source_name,destination_name,duration_s,distance_m\n"
        let m = response.matrix
        for i in 0..<m.sourceCount {
            let from = "\(i + 1),", fromName = ETAListEncoder.quote(response.sources[i].name)
            for j in 0..<m.destinationCount {
                let duration = m.duration(i, j).map { EncodingFormat.number($0, decimals: 1) } ?? ""
                let distance = m.distance(i, j).map { EncodingFormat.number($0, decimals: 1) } ?? ""
                out += from + "\(j + 1),\(fromName),\(ETAListEncoder.quote(response.destinations[j].name)),\(duration),\(distance)\n"
            }
        }
        return out
    }

    /// `{"mode", "sources", "destinations", "durations": [[s|null]], "distances": [[m|null]]}`: each place with its
    /// name, the coordinate given, the one snapped to and the snapping distance; a row per source.
    public static func json(_ response: MatrixResponse) -> String {
        func place(_ p: ETAPlace, _ w: Waypoint) -> JSONValue {
            .object([("name", .string(p.name)), ("location", .coordinateObject(p.coordinate)),
                     ("snapped", .coordinateObject(w.location)), ("snappingDistance", .number(w.snappingDistance, decimals: 1))])
        }
        func rows(_ value: (Int, Int) -> Double?) -> JSONValue {
            let m = response.matrix
            return .array((0..<m.sourceCount).map { i in .array((0..<m.destinationCount).map { j in value(i, j).map { .number($0, decimals: 1) } ?? .null }) })
        }
        let document: JSONValue = .object([
            ("mode", .string(response.mode)),
            ("sources", .array(zip(response.sources, response.snappedSources).map(place))),
            ("destinations", .array(zip(response.destinations, response.snappedDestinations).map(place))),
            ("durations", rows(response.matrix.duration)),
            ("distances", rows(response.matrix.distance)),
        ])
        return document.serialized(pretty: true, sortedKeys: false)
    }
}
