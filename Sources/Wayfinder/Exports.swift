// What `import Wayfinder` gives a user: the map handle (`OfflineMap`), the request and answer types of this module,
// and the value types they are made of — routes, legs, steps, waypoints and coordinates from Routing, the transit
// itineraries from Transit, the graph file's errors from Graph — so the README's samples need no other import.
// The engine (routers, searches, the graph's arrays, the timetable) is not part of it.
@_exported import struct Graph.Coordinate
@_exported import struct Routing.BoundingBox
@_exported import struct Routing.Route
@_exported import struct Routing.RouteLeg
@_exported import struct Routing.RouteStep
@_exported import struct Routing.LegRoadTotals
@_exported import struct Routing.Waypoint
@_exported import enum Routing.ManeuverType
@_exported import enum Routing.ManeuverModifier
@_exported import enum Routing.RoutingError
@_exported import struct Routing.DistanceMatrix
@_exported import struct Routing.TripPlanner
// A moment and/or a cancellation flag the road searches stop at (requests' `deadline`).
@_exported import struct Routing.SearchDeadline
@_exported import class Routing.SearchCancellation
@_exported import enum Graph.GraphFileError
@_exported import struct Transit.TransitTrip
@_exported import struct Transit.TransitPlan
@_exported import struct Transit.TransitItinerary
@_exported import struct Transit.TransitLeg
@_exported import struct Transit.TransitStop
@_exported import struct Transit.TransitOptions
@_exported import enum Transit.TransitError
// Whether a path may be written as an output file (not a device, FIFO, socket or folder), for front ends writing results.
@_exported import enum Graph.OutputPath
