#!/usr/bin/env python3
"""Checks the map page's transit mode in headless Chromium (see devtools.py).

usage: map_page_transit_check.py BASE_URL SCREENSHOT.png   (the server must hold Terre Haute with its GTFS feed)
Checks that transit is offered, picks it with a departure time, drops two pins, presses Routes, and checks the drawn
walk and ride legs (green ride pixels on the overlay) and the second pin's ETA against /transit/v1; saves a screenshot.
Exits 0 on success, 1 with a message on failure, 77 when no Chromium is installed.
"""
import base64, json, sys, urllib.request

from devtools import DevTools, fail

base_url, screenshot = sys.argv[1].rstrip("/"), sys.argv[2]
depart = "2017-05-10T09:00"
stops = [(-87.39769, 39.48577), (-87.4164615, 39.4565472)]

tools = DevTools()
try:
    target = tools.call("Target.createTarget", {"url": base_url + "/"}, session=False)["targetId"]
    tools.session = tools.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
    tools.wait_for("document.body && document.body.dataset.ready === 'true'", "the page to load /info")
    if tools.evaluate("(() => { const o = document.querySelector('#mode option[value=transit]'); return !o.disabled && !o.hidden; })()") is not True:
        fail("the mode selector does not offer transit on a graph with a timetable")
    tools.evaluate("(() => { const s = document.getElementById('mode'); s.value = 'transit'; s.dispatchEvent(new Event('change')); })()")
    if tools.evaluate("document.getElementById('when-label').hidden") is not False:
        fail("choosing transit does not show the departure time")
    tools.evaluate(f"document.getElementById('when').value = '{depart}'")

    for i, (lon, lat) in enumerate(stops):
        x, y = tools.evaluate(f"wayfinderMap.screenPoint({lon}, {lat})")
        tools.click(x, y)
        if not tools.evaluate(f"document.querySelectorAll('.pin').length === {i + 1}"):
            fail(f"pin {i + 1} was not dropped by a click at {x:.0f},{y:.0f}")
    pins = tools.evaluate("wayfinderMap.pins()")

    tools.click_button("routes")
    tools.wait_for("wayfinderMap.state.overlay && wayfinderMap.state.overlay.kind === 'transit' && !wayfinderMap.state.busy",
                   "the transit itinerary to be drawn", timeout=30)
    kinds = tools.evaluate("wayfinderMap.state.overlay.legs.map(l => l.kind)")
    if "walk" not in kinds or "ride" not in kinds:
        fail(f"the drawn itinerary has legs {kinds}, expected walk and ride legs")
    answer = json.load(urllib.request.urlopen(
        f"{base_url}/transit/v1/" + ";".join(f"{p['lon']:.6f},{p['lat']:.6f}" for p in pins) + f"?depart={depart}"))
    etas = [p["eta"] for p in tools.evaluate("wayfinderMap.pins()")]
    if etas[0] != "start" or not etas[1].startswith(f"ETA {answer['expectedArrivalDate'][11:16]} (+"):
        fail(f"callouts show {etas}, the server arrives at {answer['expectedArrivalDate']}")
    green = tools.evaluate("""(() => {
        const c = document.getElementById('overlay'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i + 1] > 130 && d[i] < 60 && d[i + 2] < 90 && d[i + 3] > 200) n++; return n; })()""")
    if green < 200:
        fail(f"only {green} ride-coloured pixels on the overlay")
    image = tools.call("Page.captureScreenshot", {"format": "png"})["data"]
    with open(screenshot, "wb") as f:
        f.write(base64.b64decode(image))
    print(f"ok: legs {kinds}, ETAs {etas}, {green} ride pixels, screenshot {screenshot}")
finally:
    tools.close()
