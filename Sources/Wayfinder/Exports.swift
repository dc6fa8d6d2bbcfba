// What `import Wayfinder` gives a user: the request and answer types of this module, the routing types they
// are made of (`Coordinate`, `BoundingBox`, `Route`, `RouteStep`, …, from Routing) and, from Graph, the graph
// file handle and its errors — so the README's samples need no other import.
@_exported import Routing
@_exported import struct Graph.RoadGraph
@_exported import enum Graph.GraphFileError
