import Foundation
import Graph
import Transit
import Wayfinder

/// `/health` and `/info`: liveness, and the graph's metadata (bounds, counts, profiles, timetable flag and
/// service range, limits) for clients and the map.
enum InfoEndpoint {
    static func health() -> JSONValue { .object([("code", .string("Ok")), ("status", .string("ok"))]) }

    static func info(graph: RoadGraph, engines: [String: ProfileEngine], transit: TransitEngine, limits: ServiceLimits) -> JSONValue {
        let s = graph.metadata.statistics
        let degrees = { (v: Int32) in JSONValue.rounded(Double(v) * 1e-7, 7) }
        let profiles: [JSONValue] = graph.profiles.map { p in
            let aliases = OSRMRequest.profileAliases.filter { $0.value == p.profile.name }.keys.sorted()
            return .object([("name", .string(p.profile.name)), ("urlNames", .array(aliases.map { .string($0) })),
                            ("served", .bool(engines[p.profile.name] != nil)), ("landmarks", .int(p.landmarkCount))])
        }
        var fields: [(String, JSONValue)] = [
            ("code", .string("Ok")),
            ("version", .string(wayfinderVersion)),
            ("generator", .string(graph.metadata.generator)),
            ("graph", .string(URL(fileURLWithPath: graph.file.path).lastPathComponent)),
            ("fileBytes", .int(graph.file.size)),
            ("bounds", .array([degrees(s.minLongitude), degrees(s.minLatitude), degrees(s.maxLongitude), degrees(s.maxLatitude)])),
            ("nodes", .int(graph.nodeCount)),
            ("edges", .int(graph.edgeCount)),
            ("profiles", .array(profiles)),
            ("services", .array((["route", "table", "trip", "nearest"] + (transit.router == nil ? [] : ["transit"])).map { .string($0) })),
            ("timetable", .bool(transit.router != nil)),
        ]
        // The feed's time zone and the days on which any of its trips runs (transit queries outside them are refused).
        if let router = transit.router {
            fields.append(("transit", .object([
                ("timeZone", .string(router.timeZone.identifier)),
                ("firstDate", .string(ServiceDay.iso(router.window.firstDay))), ("lastDate", .string(ServiceDay.iso(router.window.lastDay))),
            ])))
        }
        fields += [
            ("limits", .object([
                ("routeCoordinates", .int(limits.maximumRouteCoordinates)), ("tableCells", .int(limits.maximumTableCells)),
                ("tripCoordinates", .int(limits.maximumTripCoordinates)), ("nearestResults", .int(limits.maximumNearestResults)),
                ("alternatives", .int(limits.maximumAlternatives)), ("defaultRadius", .number(limits.defaultRadius, decimals: 3)),
                ("maximumRadius", .number(limits.maximumRadius, decimals: 3)), ("requestSeconds", .number(limits.requestTimeLimit, decimals: 3)),
            ])),
        ]
        return .object(fields)
    }
}
