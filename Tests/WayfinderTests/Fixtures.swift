import Foundation
import Wayfinder

/// Small hand-made results for the encoder tests: three stops, one route of two legs with three steps each.
enum Fixtures {
    static let newYork = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600)!
    /// 2026-12-01T13:30:00Z, 08:30 in New York.
    static let departure = Date(timeIntervalSince1970: 1_796_131_800)
    static let trickyName = "A & B <\"x\">"

    static let stops = [
        Waypoint(query: Coordinate(latitude: 40.0, longitude: -75.0), location: Coordinate(latitude: 40.00001, longitude: -75.00002),
                 snappingDistance: 2.04, name: "Main Street"),
        Waypoint(query: Coordinate(latitude: 40.0101, longitude: -74.99), location: Coordinate(latitude: 40.01, longitude: -74.99),
                 snappingDistance: 11.12, name: ""),
        Waypoint(query: Coordinate(latitude: 40.02, longitude: -75.0), location: Coordinate(latitude: 40.02, longitude: -75.0),
                 snappingDistance: 0, name: trickyName),
    ]

    static func step(_ maneuver: ManeuverType, _ modifier: ManeuverModifier? = nil, exit: Int? = nil, name: String, ref: String = "",
                     distance: Double, time: Double, _ geometry: [Coordinate], instructions: String,
                     bearings: (Int, Int) = (0, 0)) -> RouteStep {
        RouteStep(maneuver: maneuver, modifier: modifier, exit: exit, name: name, ref: ref, distance: distance,
                  expectedTravelTime: time, location: geometry[0], bearingBefore: bearings.0, bearingAfter: bearings.1,
                  instructions: instructions, geometry: geometry)
    }

    static func leg(_ geometry: [Coordinate], distance: Double, time: Double, steps: [RouteStep]) -> RouteLeg {
        RouteLeg(distance: distance, expectedTravelTime: time, geometry: geometry, steps: steps,
                 boundingBox: BoundingBox(geometry)!, traversals: [])
    }

    static var legs: [RouteLeg] {
        let a = stops[0].location, b = stops[1].location, c = stops[2].location
        let p1 = Coordinate(latitude: 40.005, longitude: -75.00002), p2 = Coordinate(latitude: 40.005, longitude: -74.99)
        let p3 = Coordinate(latitude: 40.015, longitude: -74.99), p4 = Coordinate(latitude: 40.015, longitude: -75.0)
        let leg1 = leg([a, p1, p2, b], distance: 5000.44, time: 370.04, steps: [
            step(.depart, name: "Main Street", distance: 555.55, time: 40.04, [a, p1], instructions: "Head north on Main Street",
                 bearings: (0, 0)),
            step(.turn, .right, name: "Market Street", ref: "PA 3", distance: 4444.89, time: 330, [p1, p2, b],
                 instructions: "Turn right onto Market Street", bearings: (0, 90)),
            step(.arrive, name: "Market Street", distance: 0, time: 0, [b], instructions: "Arrive at your destination",
                 bearings: (0, 0)),
        ])
        let leg2 = leg([b, p3, p4, c], distance: 7345.26, time: 479.96, steps: [
            step(.depart, name: "Market Street", distance: 1112, time: 80, [b, p3], instructions: "Head north on Market Street"),
            step(.roundabout, .slightLeft, exit: 2, name: trickyName, distance: 6233.26, time: 399.96, [p3, p4, c],
                 instructions: "At the roundabout, take the 2nd exit onto \(trickyName)", bearings: (0, 270)),
            step(.arrive, name: trickyName, distance: 0, time: 0, [c], instructions: "Arrive at \(trickyName)", bearings: (0, 0)),
        ])
        return [leg1, leg2]
    }

    static func route(name: String = "Market Street, Main Street", legs: [RouteLeg] = Fixtures.legs) -> Route {
        let polyline = legs.enumerated().flatMap { i, leg in i == 0 ? leg.geometry : Array(leg.geometry.dropFirst()) }
        return Route(distance: legs.reduce(0) { $0 + $1.distance }, expectedTravelTime: legs.reduce(0) { $0 + $1.expectedTravelTime },
                     polyline: polyline, legs: legs, boundingBox: BoundingBox(polyline)!, name: name)
    }

    /// One route (850 s, 12 345.7 m) leaving at 08:30 New York time; `alternatives` adds slower copies.
    static func result(alternatives: Int = 0, straightLines: Bool = false) -> RouteResult {
        var routes = [route()]
        for i in 0..<alternatives {
            var alternative = route(name: "Alternative \(i + 1)")
            alternative.expectedTravelTime += Double(60 * (i + 1))
            routes.append(alternative)
        }
        if straightLines {
            routes = [straightRoute()]
        }
        return RouteResult(routes: routes, waypoints: stops, mode: "car", expectedDepartureDate: departure,
                           expectedArrivalDate: departure.addingTimeInterval(routes[0].expectedTravelTime), timeZone: newYork,
                           straightLines: straightLines)
    }

    /// The "lines" view: straight lines between the stops, no steps.
    static func straightRoute() -> Route {
        let points = stops.map(\.location)
        let legs = zip(points, points.dropFirst()).map { a, b in
            leg([a, b], distance: a.distance(to: b), time: a.distance(to: b) / 10, steps: [])
        }
        return route(name: "", legs: legs)
    }

    /// A result holding just `route` between its geometry's end points.
    static func result(with route: Route) -> RouteResult {
        let ends = [route.polyline.first, route.polyline.last].compactMap { $0 }
        let stops = ends.map { Waypoint(query: $0, location: $0, snappingDistance: 0, name: "") }
        return RouteResult(routes: [route], waypoints: stops, mode: "foot", expectedDepartureDate: departure,
                           expectedArrivalDate: departure.addingTimeInterval(route.expectedTravelTime), timeZone: TimeZone(secondsFromGMT: 0)!)
    }
}
