import Foundation
import Wayfinder

/// Limits on what one API request may ask for; over them a request gets `TooBig` (or `Timeout`).
public struct ServiceLimits: Sendable {
    /// Most coordinates of a route request.
    public var maximumRouteCoordinates = 500
    /// Most cells (sources × destinations) of a table request.
    public var maximumTableCells = 10_000
    /// Most coordinates of a trip request.
    public var maximumTripCoordinates = 100
    /// Most results of a nearest request.
    public var maximumNearestResults = 100
    /// Most alternative routes asked for.
    public var maximumAlternatives = 3
    /// Default snapping radius, metres (a request's `radiuses` may ask for less or more, up to `maximumRadius`).
    public var defaultRadius = 1000.0
    /// Largest snapping radius a request may ask for (`unlimited` means this), metres.
    public var maximumRadius = 10_000.0
    /// Most road edges one `/roads` answer holds.
    public var maximumRoadEdges = 60_000
    /// Seconds a request may compute before it is answered with `Timeout` (checked inside every road and transit
    /// search, and between a request's steps).
    public var requestTimeLimit = 10.0

    public init() {}
}

/// The moment a request must be done by; work checks it between searches, and the searches inside (`search`).
public struct RequestDeadline: Sendable {
    public let start: Date
    public let limit: Double
    /// The same moment on the monotonic clock, for the road searches to check as they go.
    public let search: SearchDeadline

    public init(limit: Double, start: Date = Date()) {
        self.start = start; self.limit = limit
        search = SearchDeadline(seconds: limit - Date().timeIntervalSince(start))
    }

    /// The moment itself, for searches that check it as they go.
    public var moment: Date { start.addingTimeInterval(limit) }

    /// Throws `Timeout` when the request has run longer than its limit.
    public func check() throws(OSRMError) {
        if Date().timeIntervalSince(start) > limit { throw timedOut(hint: "ask for fewer coordinates") }
    }

    /// The OSRM error for a failed road request: `Timeout` (with `hint`) when its searches ran past this deadline.
    public func error(_ error: RoutingError, hint: String = "ask for fewer coordinates") -> OSRMError {
        switch error {
        case .timedOut, .cancelled: return timedOut(hint: hint)
        default: return OSRMError(error)
        }
    }

    /// The OSRM error for a failed request of the Swift API: `Timeout` (with `hint`) when its searches ran past this deadline.
    public func error(_ error: DirectionsError, hint: String = "ask for fewer coordinates") -> OSRMError {
        switch error {
        case .routing(.timedOut), .routing(.cancelled), .cancelled: return timedOut(hint: hint)
        default: return OSRMError(error)
        }
    }

    /// The `Timeout` error of this limit, with a hint on what to ask for instead.
    public func timedOut(hint: String) -> OSRMError {
        .timedOut("the request took longer than the \(Self.format(limit)) s limit; \(hint)")
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
