import Foundation
import XCTest
import Graph
import Routing

/// Routing on a drawn map: routers per profile, routes checked against the plain search, routes read as letters.
extension DrawnMap {
    /// The point at `fraction` of the straight line from letter `a` to letter `b`.
    public func point(_ a: Character, _ b: Character, _ fraction: Double) -> Coordinate {
        let p = coordinate(a), q = coordinate(b)
        return Coordinate(latitude: p.latitude + fraction * (q.latitude - p.latitude),
                          longitude: p.longitude + fraction * (q.longitude - p.longitude))
    }

    /// `c` moved `north` and `east` metres.
    public static func offset(_ c: Coordinate, north: Double = 0, east: Double = 0) -> Coordinate {
        Coordinate(latitude: c.latitude + north / metresPerDegree,
                   longitude: c.longitude + east / (metresPerDegree * cos(c.latitude * Double.pi / 180)))
    }

    /// The router of profile `name` (one per map and profile); with `hierarchy` the map must have been imported with one.
    public func router(_ name: String, hierarchy: Bool = true) throws -> Router {
        let key = hierarchy ? name : name + "/plain"
        if let router = routers[key] { return router }
        let router = try Router(graph: graph, profile: name, useHierarchy: hierarchy)
        if hierarchy { XCTAssertNotNil(router.hierarchy, "the map's graph has a contraction hierarchy (import with hierarchy: true)") }
        routers[key] = router
        return router
    }

    /// The routes through `stops` for profile `name`, over the contraction hierarchy; the best route must equal the
    /// plain A*'s (time, length and path), or both must fail alike.
    public func routes(_ name: String, _ stops: [Coordinate], options: RouteOptions = RouteOptions(),
                       file: StaticString = #filePath, line: UInt = #line) throws -> (routes: [Route], waypoints: [Waypoint]) {
        let plain = Result { try router(name, hierarchy: false).routes(through: stops, options: options) }
        let viaHierarchy = Result { try router(name).routes(through: stops, options: options) }
        switch (viaHierarchy, plain) {
        case let (.success(a), .success(b)):
            XCTAssertEqual(a.routes[0].expectedTravelTime, b.routes[0].expectedTravelTime, accuracy: 0.001, "hierarchy and A* times", file: file, line: line)
            XCTAssertEqual(a.routes[0].distance, b.routes[0].distance, accuracy: 0.001, "hierarchy and A* lengths", file: file, line: line)
            XCTAssertEqual(a.routes[0].polyline, b.routes[0].polyline, "hierarchy and A* paths", file: file, line: line)
        case let (.failure(a), .failure(b)):
            XCTAssertEqual("\(a)", "\(b)", "hierarchy and A* fail alike", file: file, line: line)
        default:
            XCTFail("the hierarchy and A* disagree: \(viaHierarchy) vs \(plain)", file: file, line: line)
        }
        return try viaHierarchy.get()
    }

    /// The best route through `stops` for profile `name`.
    public func route(_ name: String, _ stops: [Coordinate]) throws -> Route {
        try routes(name, stops).routes[0]
    }

    /// The best route from the node drawn as `from` to the one drawn as `to` (the stops lie exactly on them).
    public func route(_ name: String, from: Character, to: Character) throws -> Route {
        try route(name, [coordinate(from), coordinate(to)])
    }

    /// The letters a geometry passes through exactly (graph nodes and shape points), in order, repeats collapsed.
    public func letters(of geometry: [Coordinate]) -> String {
        var text = ""
        for point in geometry {
            guard let letter = letter(at: point) else { continue }
            if text.last != letter { text.append(letter) }
        }
        return text
    }

    /// The letters a route passes through.
    public func letters(of route: Route) -> String { letters(of: route.polyline) }

    /// The routing error a throwing call ends with (nil when it does not throw, or throws something else).
    public static func routingError<T>(_ body: () throws -> T) -> RoutingError? {
        do { _ = try body(); return nil } catch let error as RoutingError { return error } catch { return nil }
    }
}

/// Asserts a route's letters and duration (seconds, within `accuracy`) and that its distance and time are the
/// sums over its legs.
public func XCTAssertRoute(_ map: DrawnMap, _ route: Route, letters: String, seconds: Double, accuracy: Double = 0.01,
                           file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(map.letters(of: route), letters, "route letters", file: file, line: line)
    XCTAssertEqual(route.expectedTravelTime, seconds, accuracy: accuracy, "route time along \(map.letters(of: route))", file: file, line: line)
    XCTAssertEqual(route.expectedTravelTime, route.legs.reduce(0) { $0 + $1.expectedTravelTime }, accuracy: 1e-9, file: file, line: line)
    XCTAssertEqual(route.distance, route.legs.reduce(0) { $0 + $1.distance }, accuracy: 1e-9, file: file, line: line)
}
