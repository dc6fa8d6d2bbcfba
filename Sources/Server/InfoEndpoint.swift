import Foundation
import Wayfinder

/// `/health` and `/info`: liveness, and the graph's metadata (bounds, counts, profiles, timetable flag and
/// service range, limits) for clients and the map.
enum InfoEndpoint {
    static func health() -> JSONValue { .object([("code", .string("Ok")), ("status", .string("ok"))]) }

    static func info(map: OfflineMap, engines: [String: ProfileEngine], transit: TransitEngine, limits: ServiceLimits) -> JSONValue {
        let info = map.info, box = info.coverage, view = map.view
        let degrees = { (v: Double) in JSONValue.rounded(v, 7) }
        let profiles: [JSONValue] = info.profiles.map { p in
            let aliases = OSRMRequest.profileAliases.filter { $0.value == p.name }.keys.sorted()
            return .object([("name", .string(p.name)), ("urlNames", .array(aliases.map { .string($0) })),
                            ("served", .bool(engines[p.name] != nil)), ("landmarks", .int(p.landmarks))])
        }
        let timetable = transit.map == nil ? nil : info.timetable
        var fields: [(String, JSONValue)] = [
            ("code", .string("Ok")),
            ("version", .string(wayfinderLibraryVersion)),
            ("generator", .string(info.generator)),
            ("graph", .string(info.url.lastPathComponent)),
            ("fileBytes", .int(info.fileBytes)),
            ("bounds", .array([degrees(box.minLongitude), degrees(box.minLatitude), degrees(box.maxLongitude), degrees(box.maxLatitude)])),
            // Where most of the roads are: the page opens on this box, not on `bounds`, which a few long ways can stretch.
            ("view", .array([degrees(view.minLongitude), degrees(view.minLatitude), degrees(view.maxLongitude), degrees(view.maxLatitude)])),
            ("centre", .array([degrees(map.centre.longitude), degrees(map.centre.latitude)])),
            ("nodes", .int(info.nodeCount)),
            ("edges", .int(info.edgeCount)),
            ("profiles", .array(profiles)),
            ("services", .array((["route", "table", "trip", "nearest"] + (timetable == nil ? [] : ["transit"])).map { .string($0) })),
            ("timetable", .bool(timetable != nil)),
        ]
        // The feed's time zone and the days on which any of its trips runs (transit queries outside them are refused).
        if let timetable {
            fields.append(("transit", .object([
                ("timeZone", .string(timetable.timeZone.identifier)),
                ("firstDate", .string(timetable.firstDate)), ("lastDate", .string(timetable.lastDate)),
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
