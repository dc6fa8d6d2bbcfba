import Foundation
import Routing
import Transit

/// Writes a transit trip as an RFC 7946 FeatureCollection: a LineString per leg of the primary itineraries (walk or
/// ride, with their properties) and a Point per boarding and alighting stop.
public struct TransitGeoJSONEncoder: Sendable {
    public var prettyPrinted: Bool

    /// Compact output unless `prettyPrinted`.
    public init(prettyPrinted: Bool = false) { self.prettyPrinted = prettyPrinted }

    /// The FeatureCollection of a trip.
    public func encode(_ trip: TransitTrip) -> String {
        var features: [JSONValue] = []
        let tz = trip.timeZone
        for (p, plan) in trip.plans.enumerated() {
            for (l, leg) in plan.primary.legs.enumerated() {
                var line = leg.geometry
                if line.count == 1 { line.append(line[0]) }
                features.append(.object([
                    ("type", .string("Feature")),
                    ("geometry", .object([("type", .string("LineString")), ("coordinates", .array(line.map(JSONValue.position)))])),
                    ("properties", .object([("tripLeg", .int(p)), ("index", .int(l))] + TransitJSONEncoder.legProperties(leg, tz))),
                ]))
                if leg.kind == .ride {
                    for (role, stop, date) in [("board", leg.from, leg.departure), ("alight", leg.to, leg.arrival)] {
                        features.append(.object([
                            ("type", .string("Feature")),
                            ("geometry", .object([("type", .string("Point")), ("coordinates", JSONValue.position(stop.coordinate))])),
                            ("properties", .object([("kind", .string(role)), ("tripLeg", .int(p)), ("name", .string(stop.name)),
                                                    ("stopId", .string(stop.id)), ("time", .string(ISO8601.string(date, in: tz)))])),
                        ]))
                    }
                }
            }
        }
        let document: JSONValue = .object([("type", .string("FeatureCollection")), ("features", .array(features))])
        return document.serialized(pretty: prettyPrinted)
    }
}
