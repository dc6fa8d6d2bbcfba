#!/usr/bin/env python3
"""Drives `wayfinder serve` with the unmodified routingpy OSRM client (from PyPI).

usage: routingpy_client.py BASE_URL   (the server must hold the bundled Monaco sample)
Exits 0 when routes and matrices come back right, 1 with a message otherwise; 77 when routingpy is missing.
"""
import sys

try:
    from routingpy import OSRM
    from routingpy.exceptions import RouterApiError
except ImportError:
    print("routingpy is not installed (pip install routingpy)")
    sys.exit(77)

base_url = sys.argv[1]
client = OSRM(base_url=base_url, retry_over_query_limit=False)
# Casino, port, Fontvieille (lon, lat as routingpy takes them)
stops = [[7.4270, 43.7395], [7.4197, 43.7312], [7.4150, 43.7275]]


def check(condition, message):
    if not condition:
        print("FAILED:", message)
        sys.exit(1)


route = client.directions(locations=stops, profile="driving")
check(route.duration > 60 and route.distance > 500, f"route figures {route.duration} s, {route.distance} m")
check(len(route.geometry) > 10, f"route geometry of {len(route.geometry)} points")
check(all(7.40 < lon < 7.44 and 43.72 < lat < 43.76 for lon, lat in route.geometry), "route geometry outside Monaco")
check(len(route.raw["routes"][0]["legs"]) == 2, "two legs")

walk = client.directions(locations=stops[:2], profile="walking", steps=True, geometries="geojson", overview="full",
                         annotations=True)
check(walk.duration > route.raw["routes"][0]["legs"][0]["duration"], "walking is slower than driving the first leg")
steps = walk.raw["routes"][0]["legs"][0]["steps"]
check(steps[0]["maneuver"]["type"] == "depart" and steps[-1]["maneuver"]["type"] == "arrive", "steps depart and arrive")

alternatives = client.directions(locations=[stops[0], stops[2]], profile="driving", alternatives=True,
                                 geometries="polyline6")
check(len(alternatives) >= 1, "at least the best route with alternatives=true")

matrix = client.matrix(locations=stops, profile="driving")
check(len(matrix.durations) == 3 and all(len(row) == 3 for row in matrix.durations), "3x3 durations")
check(len(matrix.distances) == 3, "3x3 distances")
check(all(matrix.durations[i][i] == 0 for i in range(3)), "zero diagonal")
pair = client.directions(locations=[stops[0], stops[1]], profile="driving")
check(round(matrix.durations[0][1]) == round(pair.raw["routes"][0]["duration"]), "matrix cell equals the route's duration")

partial = client.matrix(locations=stops, profile="foot", sources=[0], destinations=[1, 2], annotations=["distance"])
check(partial.durations is None and len(partial.distances) == 1 and len(partial.distances[0]) == 2, "1x2 distances only")

try:
    client.directions(locations=[stops[0], [7.45, 43.70]], profile="driving")
    check(False, "a stop at sea must fail")
except RouterApiError as error:
    check(error.status == 400 and "NoSegment" in str(error.message), f"NoSegment with 400, got {error.status} {error.message}")

print(f"ok: route {route.duration} s / {route.distance} m, walk {walk.duration} s, matrix row {matrix.durations[0]}")
