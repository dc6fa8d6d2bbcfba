import Foundation

/// A failed API request, as OSRM reports it: a `code` clients switch on, a message for people, an HTTP status.
public enum OSRMError: Error, Equatable, CustomStringConvertible {
    /// The URL is not of the form `/{service}/v1/{profile}/{coordinates}` (or names no page of this server).
    case invalidUrl(String)
    /// The service is not one of route, table, trip, nearest.
    case invalidService(String)
    /// The version is not `v1`.
    case invalidVersion(String)
    /// An option is unknown, unsupported, or the profile is unknown.
    case invalidOptions(String)
    /// The coordinates or an option's value do not parse.
    case invalidQuery(String)
    /// The values parse but are out of range (a latitude of 91, an index past the coordinates).
    case invalidValue(String)
    /// A coordinate lies too far from any road the profile may use.
    case noSegment(String)
    /// No route connects the coordinates.
    case noRoute(String)
    /// No trip visits all the coordinates (some cannot reach the others).
    case noTrips(String)
    /// A combination of trip options that OSRM does not implement either.
    case notImplemented(String)
    /// Too many coordinates, cells or results for the configured limits.
    case tooBig(String)
    /// The request ran past the per-request time limit.
    case timedOut(String)
    /// No page or endpoint at this path.
    case notFound(String)

    /// OSRM's code name.
    public var code: String {
        switch self {
        case .invalidUrl, .notFound: return "InvalidUrl"
        case .invalidService: return "InvalidService"
        case .invalidVersion: return "InvalidVersion"
        case .invalidOptions: return "InvalidOptions"
        case .invalidQuery: return "InvalidQuery"
        case .invalidValue: return "InvalidValue"
        case .noSegment: return "NoSegment"
        case .noRoute: return "NoRoute"
        case .noTrips: return "NoTrips"
        case .notImplemented: return "NotImplemented"
        case .tooBig: return "TooBig"
        case .timedOut: return "Timeout"
        }
    }

    /// The HTTP status: 400 for every OSRM error (as osrm-routed answers), 404 for unknown pages, 503 for a timeout.
    public var status: Int {
        switch self {
        case .notFound: return 404
        case .timedOut: return 503
        default: return 400
        }
    }

    public var description: String {
        switch self {
        case let .invalidUrl(m), let .invalidService(m), let .invalidVersion(m), let .invalidOptions(m), let .invalidQuery(m),
             let .invalidValue(m), let .noSegment(m), let .noRoute(m), let .noTrips(m), let .notImplemented(m), let .tooBig(m),
             let .timedOut(m), let .notFound(m):
            return m
        }
    }

    /// The error as OSRM's JSON body `{"code": …, "message": …}` with its status.
    public var response: HTTPResponse {
        .json(.object([("code", .string(code)), ("message", .string(description))]), status: status)
    }
}
