#!/usr/bin/env python3
"""Checks the map page's transit mode in headless Chromium (see devtools.py).

usage: map_page_transit_check.py BASE_URL SCREENSHOT_FOLDER   (the server must hold Terre Haute with its GTFS feed)
On a 1280×800 desktop screen: checks that transit is offered, that the departure field defaults into the feed's
service range from /info (today when today lies inside it, else the current time of day on a date inside it with
today's weekday) and that a route from that default is not refused for its date; picks a departure time, drops two
pins, presses Routes, and checks the drawn walk and ride legs (green ride pixels on the overlay), the second pin's ETA
against /transit/v1 and the layout (devtools.check_layout); then a date outside the feed, whose error must not
overlap the controls. Then the same error and itinerary on a 390×844 phone (mobile emulation, device scale 3).
Saves map-page-transit-{1280,390}-{route,error}.png in SCREENSHOT_FOLDER.
Exits 0 on success, 1 with a message on failure, 77 when no Chromium is installed.
"""
import datetime, json, os, sys, time, urllib.request
from zoneinfo import ZoneInfo

from devtools import DevTools, fail

base_url, folder = sys.argv[1].rstrip("/"), sys.argv[2]
os.makedirs(folder, exist_ok=True)
shot = lambda name: tools.screenshot(os.path.join(folder, f"map-page-transit-{name}.png"))
depart = "2017-05-10T09:00"
stops = [(-87.39769, 39.48577), (-87.4164615, 39.4565472)]

def plan(when=None):
    """Presses Routes (from `when`, or the field as it is) and returns the status line once the plan is done."""
    if when is not None:
        tools.evaluate(f"document.getElementById('when').value = {json.dumps(when)}")
    tools.click_button("routes")   # sets the status to "planning transit…" before its first request
    tools.wait_for("!wayfinderMap.state.busy && !document.getElementById('status').textContent.startsWith('planning')",
                   f"the transit plan from {when or 'the default departure'}", timeout=30)
    return tools.evaluate("document.getElementById('status').textContent")

def itinerary(when):
    status = plan(when)
    if not status.startswith("leave ") or tools.evaluate("wayfinderMap.state.overlay && wayfinderMap.state.overlay.kind") != "transit":
        fail(f"no itinerary drawn from {when}: {status}")

def green_pixels():
    return tools.evaluate("""(() => {
        const c = document.getElementById('overlay'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i + 1] > 130 && d[i] < 60 && d[i + 2] < 90 && d[i + 3] > 200) n++; return n; })()""")

tools = DevTools()
try:
    info = json.load(urllib.request.urlopen(base_url + "/info"))
    feed = info.get("transit")
    if not feed or not {"timeZone", "firstDate", "lastDate"} <= feed.keys():
        fail(f"/info reports no transit zone and service range: {info}")
    tools.open_page(base_url + "/", 1280, 800)
    if tools.evaluate("(() => { const o = document.querySelector('#mode option[value=transit]'); return !o.disabled && !o.hidden; })()") is not True:
        fail("the mode selector does not offer transit on a graph with a timetable")
    tools.evaluate("(() => { const s = document.getElementById('mode'); s.value = 'transit'; s.dispatchEvent(new Event('change')); })()")
    if tools.evaluate("document.getElementById('when-label').hidden") is not False:
        fail("choosing transit does not show the departure time")

    # The default departure: empty (now) when today lies in the feed's range, else today's weekday and time inside it.
    default = tools.evaluate("document.getElementById('when').value")
    now = datetime.datetime.now(ZoneInfo(feed["timeZone"]))
    first, last = datetime.date.fromisoformat(feed["firstDate"]), datetime.date.fromisoformat(feed["lastDate"])
    if first <= now.date() <= last:
        if default != "":
            fail(f"today {now.date()} lies in the feed's range {first} to {last}, yet the departure defaults to {default!r}")
    else:
        try:
            chosen = datetime.datetime.fromisoformat(default)
        except ValueError:
            fail(f"today {now.date()} lies outside the feed's range {first} to {last}, and the departure defaults to {default!r}")
        if not first <= chosen.date() <= last:
            fail(f"the departure defaults to {default}, outside the feed's range {first} to {last} from /info")
        if (last - first).days >= 6 and chosen.weekday() != now.weekday():
            fail(f"the departure defaults to {default}, a different weekday from today ({now:%A})")
        minutes = abs((chosen.hour * 60 + chosen.minute) - (now.hour * 60 + now.minute))
        if min(minutes, 1440 - minutes) > 3:
            fail(f"the departure defaults to {default}, not the time of day in {feed['timeZone']} ({now:%H:%M})")

    for lon, lat in stops:
        tools.drop_pin(lon, lat)
    pins = tools.evaluate("wayfinderMap.pins()")

    # From the default departure the page plans (an itinerary, or no route at this hour), never a date error.
    status = plan()
    if "service range" in status or "InvalidValue" in status:
        fail(f"planning from the default departure {default!r} fails: {status}")

    itinerary(depart)
    kinds = tools.evaluate("wayfinderMap.state.overlay.legs.map(l => l.kind)")
    if "walk" not in kinds or "ride" not in kinds:
        fail(f"the drawn itinerary has legs {kinds}, expected walk and ride legs")
    answer = json.load(urllib.request.urlopen(
        f"{base_url}/transit/v1/" + ";".join(f"{p['lon']:.6f},{p['lat']:.6f}" for p in pins) + f"?depart={depart}"))
    etas = [p["eta"] for p in tools.evaluate("wayfinderMap.pins()")]
    if etas[0] != "start" or not etas[1].startswith(f"ETA {answer['expectedArrivalDate'][11:16]} (+"):
        fail(f"callouts show {etas}, the server arrives at {answer['expectedArrivalDate']}")
    # The step list: the walk steps and each ride (departure, line, stops) of the itinerary the server plans.
    plan_legs = answer["legs"][0]["itineraries"][answer["legs"][0]["best"]]["legs"]
    expected_steps = []
    for leg in plan_legs:
        if leg["kind"] == "ride":
            expected_steps.append(f"{leg['expectedDepartureDate'][11:16]} " + " ".join(
                x for x in (leg.get("transitMode"), leg.get("routeShortName") or leg.get("routeLongName")) if x))
        else:
            expected_steps += [step["instructions"] for step in leg["steps"]] or [f"Walk to {leg['to']['name']}"]
    listed = tools.evaluate("document.getElementById('route-box').hidden ? null : [...document.querySelectorAll('#steps li')].map(li => li.firstChild.textContent)")
    if listed is None or len(listed) != len(expected_steps) or any(not text.startswith(want) for text, want in zip(listed, expected_steps)):
        fail(f"the step list reads {listed}, the itinerary has {expected_steps}")
    green = green_pixels()
    if green < 200:
        fail(f"only {green} ride-coloured pixels on the overlay")
    tools.check_layout("a transit itinerary")
    time.sleep(0.5)  # the roads of the fitted view
    shot("1280-route")

    # A date outside the feed: the server's long message shows as an error clear of the controls.
    error = plan("2030-01-07T09:00")
    if "outside the feed's service range" not in error or not tools.evaluate("document.getElementById('status').classList.contains('error')"):
        fail(f"a departure in 2030 gives {error!r}")
    tools.check_layout("the date error")
    shot("1280-error")

    # A phone.
    tools.set_viewport(390, 844, mobile=True, scale=3)
    tools.check_layout("the date error", callouts_clear=False)   # not refitted: the pins may lie anywhere
    shot("390-error")
    itinerary(depart)
    if green_pixels() < 200:
        fail("the itinerary on the phone has too few ride-coloured pixels")
    tools.check_layout("a transit itinerary")
    time.sleep(0.5)
    shot("390-route")
    print(f"ok: default departure {default!r} in {feed['firstDate']} to {feed['lastDate']}, legs {kinds}, ETAs {etas}, "
          f"{green} ride pixels, layout checked at 1280 and 390 px, screenshots in {folder}")
finally:
    tools.close()
