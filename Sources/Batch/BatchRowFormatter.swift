import Foundation
import Wayfinder

/// One row of the output, already formatted: its UTF-8 bytes, line end included.
public struct BatchRow: Sendable {
    public var id: String
    public var ok: Bool
    public var bytes: [UInt8]
    /// The row as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public init(id: String, ok: Bool, bytes: [UInt8]) { self.id = id; self.ok = ok; self.bytes = bytes }
    public init(id: String, ok: Bool, text: String) { self.init(id: id, ok: ok, bytes: Array(text.utf8)) }
}

/// Formats results as NDJSON or CSV rows, with the names of the route JSON (`expectedTravelTime`, `distance`,
/// `expectedDepartureDate`, `expectedArrivalDate`, `instructions`), sorted keys, metres and seconds to 0.1
/// (docs/schemas/batch-job.schema.json). NDJSON rows are written by `JSONWriter`, CSV fields by `CSV`.
public struct BatchRowFormatter: Sendable {
    public let options: BatchOptions
    public init(options: BatchOptions) { self.options = options }

    /// The CSV columns, in order.
    public var columns: [String] {
        var columns = ["id", "status", "message", "distance", "expectedTravelTime", "expectedDepartureDate", "expectedArrivalDate",
                       "legDistances", "legExpectedTravelTimes"]
        if options.geometry != .none { columns.append("geometry") }
        if options.steps { columns.append("steps") }
        columns.append("places")
        return columns
    }

    /// The CSV header line (with its newline), or nil for NDJSON.
    public var header: String? { options.format == .csv ? CSV.row(columns) : nil }

    public func failure(id: String, status: String, message: String) -> BatchRow {
        switch options.format {
        case .ndjson:
            var w = JSONWriter(capacity: 128)
            w.beginObject()
            w.key("id"); w.string(id)
            w.key("message"); w.string(message)
            w.key("status"); w.string(status)
            w.endObject()
            return BatchRow(id: id, ok: false, bytes: Self.line(&w))
        case .csv:
            var fields = [id, status, message] + Array(repeating: "", count: columns.count - 3)
            fields.reserveCapacity(columns.count)
            return BatchRow(id: id, ok: false, text: CSV.row(fields))
        }
    }

    /// The row of a job routed in full (geometry and steps as the options ask); `places`, the job's stops when any
    /// was given by name, add a `places` member to an NDJSON row (`ResolvedStop.placeJSON`).
    public func success(id: String, result: RouteResult, places: [ResolvedStop] = []) -> BatchRow {
        let route = result.routes[0]
        return row(id: id, eta: result.eta, route: route, places: places)
    }

    /// The row of a job answered by an ETA alone (options with no geometry and no steps): the same text as
    /// `success(id:result:)` writes for that job's full route.
    public func success(id: String, eta: ETASummary, places: [ResolvedStop] = []) -> BatchRow {
        row(id: id, eta: eta, route: nil, places: places)
    }

    /// The row of a transit job: its ETA, the route form of its itineraries (for geometry and steps, nil without
    /// them) and, in NDJSON, its `rides`, `transfers` and `walkingDistance` (as `eta --mode transit --format json`).
    public func success(id: String, eta: ETASummary, route: Route?, transit: (rides: Int, transfers: Int, walkingDistance: Double),
                        places: [ResolvedStop] = []) -> BatchRow {
        row(id: id, eta: eta, route: route, places: places, transit: transit)
    }

    /// Whether these options need a full route (geometry or steps), not just an ETA.
    public var needsFullRoute: Bool { options.geometry != .none || options.steps }

    /// A success row from the totals and each leg's; the geometry and steps, as the options ask, from `route`.
    private func row(id: String, eta: ETASummary, route: Route?, places: [ResolvedStop] = [],
                     transit: (rides: Int, transfers: Int, walkingDistance: Double)? = nil) -> BatchRow {
        switch options.format {
        case .ndjson:
            var w = JSONWriter(capacity: 512)
            w.beginObject()
            w.key("distance"); w.numberOrNull(eta.distance, decimals: 1)
            w.key("expectedArrivalDate"); w.string(ISO8601.string(eta.expectedArrivalDate, in: eta.timeZone))
            w.key("expectedDepartureDate"); w.string(ISO8601.string(eta.expectedDepartureDate, in: eta.timeZone))
            w.key("expectedTravelTime"); w.numberOrNull(eta.expectedTravelTime, decimals: 1)
            if let route {
                switch options.geometry {
                case .none: break
                case .polyline: w.key("geometry"); w.string(utf8: PolylineEncoder.encodedBytes(route.polyline, precision: 5))
                case .polyline6: w.key("geometry"); w.string(utf8: PolylineEncoder.encodedBytes(route.polyline, precision: 6))
                case .geojson: w.key("geometry"); w.raw(JSONValue.lineString(route.polyline).encoded())
                }
            }
            w.key("id"); w.string(id)
            w.key("legs"); w.beginArray()
            for (distance, time) in zip(eta.legDistances, eta.legTravelTimes) {
                w.beginObject()
                w.key("distance"); w.numberOrNull(distance, decimals: 1)
                w.key("expectedTravelTime"); w.numberOrNull(time, decimals: 1)
                w.endObject()
            }
            w.endArray()
            w.key("message"); w.string("")
            if !places.isEmpty { w.key("places"); w.raw(JSONValue.array(places.map(\.placeJSON)).encoded()) }
            if let transit { w.key("rides"); w.int(transit.rides) }
            w.key("status"); w.string("ok")
            if let route, options.steps {
                w.key("steps"); w.beginArray()
                for step in route.steps {
                    w.beginObject()
                    w.key("distance"); w.numberOrNull(step.distance, decimals: 1)
                    w.key("expectedTravelTime"); w.numberOrNull(step.expectedTravelTime, decimals: 1)
                    w.key("instructions"); w.string(step.instructions)
                    w.endObject()
                }
                w.endArray()
            }
            if let transit {
                w.key("transfers"); w.int(transit.transfers)
                w.key("walkingDistance"); w.numberOrNull(transit.walkingDistance, decimals: 1)
            }
            w.endObject()
            return BatchRow(id: id, ok: true, bytes: Self.line(&w))
        case .csv:
            var fields = [id, "ok", "", Self.number(eta.distance), Self.number(eta.expectedTravelTime),
                          ISO8601.string(eta.expectedDepartureDate, in: eta.timeZone),
                          ISO8601.string(eta.expectedArrivalDate, in: eta.timeZone),
                          eta.legDistances.map { Self.number($0) }.joined(separator: ";"),
                          eta.legTravelTimes.map { Self.number($0) }.joined(separator: ";")]
            if let route {
                switch options.geometry {
                case .none: break
                case .polyline: fields.append(PolylineEncoder.encode(route.polyline, precision: 5))
                case .polyline6: fields.append(PolylineEncoder.encode(route.polyline, precision: 6))
                case .geojson: fields.append(JSONValue.lineString(route.polyline).serialized())
                }
                if options.steps { fields.append(route.steps.map(\.instructions).joined(separator: " | ")) }
            }
            fields.append(Self.placesField(places))
            return BatchRow(id: id, ok: true, text: CSV.row(fields))
        }
    }

    /// The `places` field of a CSV row: each stop given by name as `stop N: NAME → "PLACE" (CATEGORY), LAT,LON`
    /// (`ResolvedStop.resolutionLine`, N from 1), joined by ` | `; empty when no stop was given by name.
    static func placesField(_ places: [ResolvedStop]) -> String {
        places.enumerated().compactMap { i, stop in stop.resolutionLine.map { "stop \(i + 1): \($0)" } }.joined(separator: " | ")
    }

    /// The writer's document and a line end, as a row's bytes.
    private static func line(_ w: inout JSONWriter) -> [UInt8] {
        var bytes = w.takeBytes()
        bytes.append(0x0A)
        return bytes
    }

    /// Metres or seconds to 0.1, without trailing zeros ("12.3", "75"), as every JSON output writes them.
    static func number(_ value: Double) -> String { FixedDecimal.string(value, decimals: 1) }
}
