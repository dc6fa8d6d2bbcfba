#!/usr/bin/env python3
"""Checks the offline map page of `wayfinder serve` in headless Chromium, driven over the DevTools protocol
(--remote-debugging-pipe: no extra packages, no network).

usage: map_page_check.py BASE_URL SCREENSHOT_FOLDER   (the server must hold the bundled Monaco sample)
On a 1280×800 desktop screen: loads the page, drops three pins with real mouse clicks, renames one, presses Lines,
then Routes (car), checks the drawn route (blue pixels on the overlay), the ETAs against /route, that the view fits the
pins, and the layout (devtools.check_layout: controls inside the viewport, clear of the zoom buttons and of each other,
no clipped text); routes on foot; checks that transit is not offered (Monaco has no timetable); pans by dragging,
zooms with the wheel, drops a pin by a long press; then presses Clear. Then on a 390×844 phone (mobile emulation,
device scale 3): routes to a pin in the sea and checks that the NoSegment error shows without overlapping the controls
(and again at 1280 px), then routes three pins and checks the layout. Saves map-page-{1280,390}-{route,error}.png in
SCREENSHOT_FOLDER. Exits 0 on success, 1 with a message on failure, 77 when no Chromium is installed.
"""
import json, os, sys, time, urllib.request

from devtools import DevTools, fail

base_url, folder = sys.argv[1].rstrip("/"), sys.argv[2]
os.makedirs(folder, exist_ok=True)
shot = lambda name: tools.screenshot(os.path.join(folder, f"map-page-{name}.png"))
phone = dict(width=390, height=844, mobile=True, scale=3)

tools = DevTools()
try:
    tools.open_page(base_url + "/", 1280, 800)
    tools.wait_for("wayfinderMap.state.roads && wayfinderMap.state.roads.length > 50", "roads from /roads to be drawn")
    if tools.evaluate("(() => { const o = document.querySelector('#mode option[value=transit]'); return o.disabled && o.hidden; })()") is not True:
        fail("the mode selector offers transit on a graph without a timetable")

    stops = [(7.4270, 43.7395), (7.4197, 43.7312), (7.4150, 43.7275)]
    for i, (lon, lat) in enumerate(stops):
        tools.drop_pin(lon, lat)
        if i == 0 and not tools.evaluate("document.querySelector('.pin').classList.contains('dropping')"):
            fail("a new pin has no drop animation")
    pins = tools.evaluate("wayfinderMap.pins()")
    for pin, (lon, lat) in zip(pins, stops):
        if abs(pin["lon"] - lon) > 1e-4 or abs(pin["lat"] - lat) > 1e-4:
            fail(f"pin at {pin['lon']},{pin['lat']} instead of {lon},{lat}")

    # Rename pin 2 by typing into its callout.
    tools.evaluate("(() => { const input = document.querySelectorAll('.pin input')[1]; input.focus(); input.select(); })()")
    tools.call("Input.insertText", {"text": "Port Hercule"})
    if tools.evaluate("wayfinderMap.pins()[1].title") != "Port Hercule":
        fail("typing in a callout does not rename its pin")

    tools.click_button("lines")
    if tools.evaluate("wayfinderMap.state.overlay && wayfinderMap.state.overlay.kind") != "lines":
        fail("Lines did not draw straight lines")
    if "straight" not in tools.evaluate("wayfinderMap.pins()[1].eta"):
        fail("Lines did not label the legs")

    tools.click_button("routes")
    tools.wait_for("wayfinderMap.state.overlay && wayfinderMap.state.overlay.kind === 'route' && !wayfinderMap.state.busy",
                   "the route to be drawn")
    route = json.load(urllib.request.urlopen(
        f"{base_url}/route/v1/driving/" + ";".join(f"{p['lon']:.6f},{p['lat']:.6f}" for p in pins) + "?overview=false"))
    legs = [leg["duration"] for leg in route["routes"][0]["legs"]]
    etas = [p["eta"] for p in tools.evaluate("wayfinderMap.pins()")]
    if etas[0] != "start":
        fail(f"first pin's callout shows {etas[0]!r}")
    for eta, seconds in zip(etas[1:], legs):
        s = round(seconds)
        expected = f"ETA +{s} s" if s < 60 else f"ETA +{s // 60} min {s % 60} s"
        if eta != expected:
            fail(f"callout shows {eta!r}, the server says {expected!r}")
    blue = tools.evaluate("""(() => {
        const c = document.getElementById('overlay'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i + 2] > 180 && d[i] < 60 && d[i + 3] > 200) n++; return n; })()""")
    if blue < 500:
        fail(f"only {blue} route-coloured pixels on the overlay")
    inside = tools.evaluate("""wayfinderMap.pins().every(p => { const [x, y] = wayfinderMap.screenPoint(p.lon, p.lat);
        return x >= 40 && y >= 100 && x <= innerWidth - 40 && y <= innerHeight - 25; })""")
    if not inside:
        fail("the view does not fit the pins with padding")
    tools.check_layout("a car route through three pins")
    time.sleep(0.5)  # let the roads of the fitted view arrive before the picture
    shot("1280-route")

    # Walking: the same pins routed on foot take longer.
    tools.evaluate("(() => { const s = document.getElementById('mode'); s.value = 'walk'; s.dispatchEvent(new Event('change')); })()")
    tools.click_button("routes")
    tools.wait_for("document.getElementById('status').textContent.endsWith('by walk') && !wayfinderMap.state.busy",
                   "the walking route")
    walk_etas = [p["eta"] for p in tools.evaluate("wayfinderMap.pins()")]
    if walk_etas == etas or not all(e.startswith("ETA +") for e in walk_etas[1:]):
        fail(f"walking ETAs {walk_etas} against driving {etas}")

    # A drag pans without dropping a pin; the wheel zooms; a long press drops exactly one pin.
    before = tools.evaluate("[wayfinderMap.view.lon, wayfinderMap.view.lat, wayfinderMap.view.zoom]")
    tools.call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": 500, "y": 300, "button": "left", "clickCount": 1})
    for step in range(1, 11):
        tools.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 500 + 12 * step, "y": 300 + 6 * step, "button": "left", "buttons": 1})
    tools.call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": 620, "y": 360, "button": "left", "clickCount": 1})
    after = tools.evaluate("[wayfinderMap.view.lon, wayfinderMap.view.lat, wayfinderMap.view.zoom]")
    if after[0] >= before[0] or after[1] <= before[1] or tools.evaluate("document.querySelectorAll('.pin').length") != 3:
        fail(f"dragging right and down should move the view west and north without a pin: {before} -> {after}")
    tools.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": 500, "y": 300, "deltaX": 0, "deltaY": -100})
    if tools.evaluate("wayfinderMap.view.zoom") <= after[2]:
        fail("the wheel does not zoom in")
    # The long press on bare map (a canvas, not the panel or a callout), right of the panel.
    press = next(((x, y) for x in (700, 900, 1100) for y in (450, 600, 300) if tools.evaluate(
        f"(() => {{ const e = document.elementFromPoint({x}, {y}); return !!e && e.tagName === 'CANVAS'; }})()")), None)
    if press is None:
        fail("no bare map to long-press on")
    tools.call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": press[0], "y": press[1], "button": "left", "clickCount": 1})
    time.sleep(0.8)
    if tools.evaluate("document.querySelectorAll('.pin').length") != 4:
        fail("a long press does not drop a pin")
    tools.call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": press[0], "y": press[1], "button": "left", "clickCount": 1})
    if tools.evaluate("document.querySelectorAll('.pin').length") != 4:
        fail("releasing a long press drops a second pin")

    tools.click_button("clear")
    if tools.evaluate("document.querySelectorAll('.pin').length + (wayfinderMap.state.overlay ? 1 : 0)") != 0:
        fail("Clear left pins or overlays")
    # A phone: the page loaded afresh (the view fits the graph), a pin on a road and one in the sea, more than 1000 m
    # from any road: the error shows in the toolbar without covering a control, on the phone and on the desktop.
    tools.set_viewport(**phone)
    tools.call("Page.reload")
    tools.wait_for_page()
    tools.check_layout("freshly loaded")
    tools.drop_pin(7.4270, 43.7395)
    tools.drop_pin(7.4370, 43.7240)
    tools.click_button("routes")
    tools.wait_for("document.getElementById('status').classList.contains('error') && !wayfinderMap.state.busy", "the routing error")
    error = tools.evaluate("document.getElementById('status').textContent")
    if not error.startswith("NoSegment:"):
        fail(f"a pin in the sea gives {error!r}, expected a NoSegment error")
    tools.check_layout("the NoSegment error")
    shot("390-error")
    tools.set_viewport(1280, 800)
    tools.check_layout("the NoSegment error")
    shot("1280-error")

    # Back on the phone: three pins, the long title, a car route fitted between the toolbar and the zoom buttons.
    tools.set_viewport(**phone)
    tools.click_button("clear")
    for lon, lat in stops:
        tools.drop_pin(lon, lat)
    tools.evaluate("(() => { const input = document.querySelectorAll('.pin input')[1]; input.focus(); input.select(); })()")
    tools.call("Input.insertText", {"text": "Port Hercule"})
    tools.evaluate("document.activeElement.blur()")
    tools.click_button("routes")
    tools.wait_for("wayfinderMap.state.overlay && wayfinderMap.state.overlay.kind === 'route' && !wayfinderMap.state.busy",
                   "the route on the phone")
    tools.check_layout("a car route through three pins")
    time.sleep(0.5)
    shot("390-route")
    print(f"ok: 3 pins, car ETAs {etas}, walking ETAs {walk_etas}, {blue} route pixels, {error!r} on a phone, "
          f"layout checked at 1280 and 390 px, screenshots in {folder}")
finally:
    tools.close()
