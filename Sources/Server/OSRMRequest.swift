import Foundation
import Wayfinder

/// A parsed `/{service}/v1/{profile}/{coordinates}[.json]?options` request.
public struct OSRMRequest: Sendable {
    public var service: String
    /// The profile as written in the URL (`driving`, `car`, `walking`, `foot`).
    public var profile: String
    public var coordinates: [Coordinate]
    /// The query options, by name (a repeated option keeps its last value).
    public var options: [String: String]

    /// The profile names accepted in URLs, with the graph profile each stands for: the road names of Wayfinder's one
    /// table of mode names (`TransportType.acceptedNames`: driving, car, automobile, walking, foot, walk).
    public static let profileAliases: [String: String] = Dictionary(
        TransportType.acceptedNames.filter { $0.type != .transit }.map { ($0.name, $0.type.profileName) }, uniquingKeysWith: { a, _ in a })

    /// Parses the path and query of `request`; the service must be one of `services`.
    public init(_ request: HTTPRequest, services: Set<String>) throws(OSRMError) {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count == 4 else {
            throw .invalidUrl("expected /{service}/v1/{profile}/{coordinates}, got \(request.path)")
        }
        let items = Array(parts)
        service = String(items[0])
        guard services.contains(service) else {
            throw .invalidService("unknown service '\(service)' (this server has \(services.sorted().joined(separator: ", ")))")
        }
        guard items[1] == "v1" else { throw .invalidVersion("unknown version '\(items[1])' (only v1)") }
        profile = String(items[2])
        guard Self.profileAliases[profile] != nil else {
            throw .invalidOptions("unknown profile '\(profile)' (use driving, car, walking or foot)")
        }
        var text = String(items[3])
        if text.hasSuffix(".json") { text.removeLast(5) }
        coordinates = try Self.parseCoordinates(text)
        var options: [String: String] = [:]
        for (name, value) in request.query { options[name] = value }
        self.options = options
    }

    /// `lon,lat;lon,lat…`, `polyline(…)` or `polyline6(…)`; each coordinate must lie within ±180 / ±90.
    public static func parseCoordinates(_ text: String) throws(OSRMError) -> [Coordinate] {
        var result: [Coordinate] = []
        for (prefix, precision) in [("polyline6(", 6), ("polyline(", 5)] where text.hasPrefix(prefix) {
            guard text.hasSuffix(")") else { throw .invalidQuery("\(prefix)…) is not closed") }
            let encoded = String(text.dropFirst(prefix.count).dropLast())
            do { result = try PolylineEncoder.decode(encoded, precision: precision) } catch {
                throw .invalidQuery("the \(prefix.dropLast()) coordinates do not decode: \(error)")
            }
            try check(result)
            return result
        }
        guard !text.isEmpty else { throw .invalidQuery("no coordinates") }
        for (i, pair) in text.split(separator: ";", omittingEmptySubsequences: false).enumerated() {
            let numbers = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard numbers.count == 2, let longitude = Double(numbers[0]), let latitude = Double(numbers[1]),
                  longitude.isFinite, latitude.isFinite else {
                throw .invalidQuery("coordinate \(i + 1) ('\(pair)') is not {longitude},{latitude}")
            }
            result.append(Coordinate(latitude: latitude, longitude: longitude))
        }
        try check(result)
        return result
    }

    private static func check(_ coordinates: [Coordinate]) throws(OSRMError) {
        for (i, c) in coordinates.enumerated() where !(abs(c.longitude) <= 180 && abs(c.latitude) <= 90) {
            throw .invalidValue("coordinate \(i + 1) (\(c.longitude),\(c.latitude)) is out of range: longitude must lie within ±180 and latitude within ±90")
        }
    }

    /// Refuses options not in `accepted` (naming them) and the OSRM options this server does not implement.
    public func requireOnly(_ accepted: Set<String>) throws(OSRMError) {
        for name in options.keys.sorted() where !accepted.contains(name) {
            if Self.unsupported.contains(name) {
                throw .invalidOptions("option '\(name)' is not supported by this server")
            }
            throw .invalidOptions("unknown option '\(name)' for \(service) (accepted: \(accepted.sorted().joined(separator: ", ")))")
        }
    }

    /// OSRM options Wayfinder knows but does not implement.
    static let unsupported: Set<String> = ["bearings", "approaches", "exclude", "snapping", "waypoints", "fallback_speed",
                                           "fallback_coordinate", "scale_factor", "gaps", "tidy", "timestamps"]

    /// A `true`/`false` option (default when absent).
    public func bool(_ name: String, default value: Bool) throws(OSRMError) -> Bool {
        guard let text = options[name] else { return value }
        switch text {
        case "true": return true
        case "false": return false
        default: throw .invalidQuery("\(name) must be true or false, got '\(text)'")
        }
    }

    /// An option that must take one of `values` (default when absent).
    public func choice(_ name: String, _ values: [String], default value: String) throws(OSRMError) -> String {
        guard let text = options[name] else { return value }
        guard values.contains(text) else { throw .invalidQuery("\(name) must be one of \(values.joined(separator: ", ")), got '\(text)'") }
        return text
    }

    /// `radiuses`: one per coordinate, metres, `unlimited` or empty for the default; nil when absent.
    public func radiuses(limits: ServiceLimits) throws(OSRMError) -> [Double]? {
        guard let text = options["radiuses"] else { return nil }
        let items = text.split(separator: ";", omittingEmptySubsequences: false)
        guard items.count == coordinates.count else {
            throw .invalidOptions("radiuses has \(items.count) values for \(coordinates.count) coordinates")
        }
        var result: [Double] = []
        for item in items {
            if item.isEmpty { result.append(limits.defaultRadius); continue }
            if item == "unlimited" { result.append(limits.maximumRadius); continue }
            guard let r = Double(item), r.isFinite, r >= 0 else {
                throw .invalidQuery("radius '\(item)' is not a number of metres from 0 up (larger than \(Int(limits.maximumRadius)) counts as \(Int(limits.maximumRadius)), as does unlimited)")
            }
            result.append(min(r, limits.maximumRadius))
        }
        return result
    }

    /// A list of coordinate indices (`0;2;3`) or every index when absent or `all`.
    public func indices(_ name: String) throws(OSRMError) -> [Int] {
        guard let text = options[name], text != "all" else { return Array(coordinates.indices) }
        var result: [Int] = []
        for item in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let i = Int(item) else { throw .invalidQuery("\(name) must be 'all' or indices separated by ';', got '\(text)'") }
            guard coordinates.indices.contains(i) else {
                throw .invalidValue("\(name) index \(i) is out of range: there are \(coordinates.count) coordinates, so indices run from 0 to \(coordinates.count - 1)")
            }
            result.append(i)
        }
        return result
    }
}
