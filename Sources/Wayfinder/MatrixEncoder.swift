import Foundation
import Routing

/// Writes a matrix response as CSV (one row per source–destination pair) or JSON (arrays of rows).
public enum MatrixEncoder {
    /// `source,destination,sourceName,destinationName,expectedTravelTime,distance` rows (1-based indices, sources
    /// outer; seconds and metres to 0.1), with empty figures for a pair that has no route.
    public static func csv(_ response: MatrixResponse) -> String {
        var out = CSV.row(["source", "destination", "sourceName", "destinationName", "expectedTravelTime", "distance"])
        let m = response.matrix
        for i in 0..<m.sourceCount {
            let from = "\(i + 1),", fromName = CSV.quote(response.sources[i].name)
            for j in 0..<m.destinationCount {
                let duration = m.duration(i, j).map { FixedDecimal.string($0, decimals: 1) } ?? ""
                let distance = m.distance(i, j).map { FixedDecimal.string($0, decimals: 1) } ?? ""
                out += from + "\(j + 1),\(fromName),\(CSV.quote(response.destinations[j].name)),\(duration),\(distance)\n"
            }
        }
        return out
    }

    /// `{"destinations", "distances": [[m|null]], "expectedTravelTimes": [[s|null]], "mode", "sources"}`, one line,
    /// sorted keys (docs/schemas/matrix.schema.json): each place with its name, `query` (the coordinate given),
    /// `location` (the point it snapped to) and `snappingDistance`; a row per source.
    public static func json(_ response: MatrixResponse) -> String {
        func place(_ p: ETAPlace, _ w: Waypoint) -> JSONValue {
            .object([("location", .coordinateObject(w.location)), ("name", .string(p.name)), ("query", .coordinateObject(p.coordinate)),
                     ("snappingDistance", .number(w.snappingDistance, decimals: 1))] + p.placeMember)
        }
        func rows(_ value: (Int, Int) -> Double?) -> JSONValue {
            let m = response.matrix
            return .array((0..<m.sourceCount).map { i in .array((0..<m.destinationCount).map { j in value(i, j).map { .number($0, decimals: 1) } ?? .null }) })
        }
        let document: JSONValue = .object([
            ("destinations", .array(zip(response.destinations, response.snappedDestinations).map(place))),
            ("distances", rows(response.matrix.distance)),
            ("expectedTravelTimes", rows(response.matrix.duration)),
            ("mode", .string(response.mode)),
            ("sources", .array(zip(response.sources, response.snappedSources).map(place))),
        ])
        return document.serialized()
    }
}
