#!/usr/bin/env python3
"""Checks the map page's place search, nearby ETAs, step list and favourites in headless Chromium (see devtools.py).

usage: map_page_places_check.py BASE_URL FOLDER   (the server must hold the bundled Monaco sample, with its place index)
On a 1280×800 desktop screen: searches a known name by typing it in the search box (a marker where /search/v1 puts
it, its callout with title, subtitle and ETA); picks "restaurant" in the Nearby picker and checks every result's ETA
by car, then on foot, against /table/v1 from the search's origin, and the list quickest first; selects a result from the list; routes two pins,
chooses the last of the route choices and checks the step list against /route/v1?steps=true; adds a favourite at the
map's centre and one from a pin's ☆, edits a title (with a comma and quotes) and a subtitle, reloads (same browser
profile: localStorage) and finds them again, exports them (FOLDER/favourites.csv, the download), removes them (gone
after a reload too), imports the exported file and gets them back, and imports it again without duplicates; checks
the layout (devtools.check_layout) along the way. Then on a 390×844 phone: the lists start folded, a Nearby search unfolds them, the layout holds.
Saves map-page-places-{search,route,favourites,390-search}.png in FOLDER.
Exits 0 on success, 1 with a message on failure, 77 when no Chromium is installed.
"""
import json, os, sys, time, urllib.parse, urllib.request

from devtools import DevTools, fail

base_url, folder = sys.argv[1].rstrip("/"), sys.argv[2]
os.makedirs(folder, exist_ok=True)
shot = lambda name: tools.screenshot(os.path.join(folder, f"map-page-places-{name}.png"))
get = lambda path: json.load(urllib.request.urlopen(base_url + path))
lonlat = lambda p: f"{p['lon']:.6f},{p['lat']:.6f}"


def duration(seconds):
    """The page's formatDuration."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    h, m = s // 3600, s % 3600 // 60
    return f"{h} h {m} min" if h else f"{m} min {s % 60} s"


def click_selector(selector, index=0):
    x, y = tools.evaluate(f"(() => {{ const r = document.querySelectorAll({json.dumps(selector)})[{index}].getBoundingClientRect();"
                          " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    tools.click(x, y)


def type_into(selector, text, index=0):
    """Replaces the text of an input, as typing does (an input event)."""
    tools.evaluate(f"(() => {{ const e = document.querySelectorAll({json.dumps(selector)})[{index}]; e.focus(); e.select(); }})()")
    if text:
        tools.call("Input.insertText", {"text": text})
    else:
        tools.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Delete", "code": "Delete", "windowsVirtualKeyCode": 46})
        tools.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Delete", "code": "Delete", "windowsVirtualKeyCode": 46})


def set_mode(mode):
    tools.evaluate(f"(() => {{ const s = document.getElementById('mode'); s.value = '{mode}'; s.dispatchEvent(new Event('change')); }})()")


def check_etas(words, profile, ranked=False):
    """Every result's ETA as the page writes it from /table/v1 (origin to each result); `ranked` (a nearby search by
    category): the list is quickest first, unreachable places last, and its heading says so."""
    tools.wait_for(f"wayfinderMap.results().length > 0 && wayfinderMap.results().every(r => r.eta.endsWith({json.dumps(words)}))",
                   f"the ETAs {words}", timeout=30)
    results, origin = tools.evaluate("wayfinderMap.results()"), tools.evaluate("wayfinderMap.origin()")
    table = get(f"/table/v1/{profile}/" + ";".join(lonlat(p) for p in [origin] + results) + "?sources=0")
    for result, seconds in zip(results, table["durations"][0][1:]):
        expected = f"ETA {duration(seconds)} {words}" if seconds is not None else f"no route {words}"
        if result["eta"] != expected:
            fail(f"{result['title']}: the page shows {result['eta']!r}, /table/v1 gives {expected!r}")
    if ranked:
        order = [s if s is not None else float("inf") for s in table["durations"][0][1:]]
        if order != sorted(order):
            fail(f"the nearby places are not quickest first {words}: {[r['title'] for r in results]} take {table['durations'][0][1:]} s")
        heading = tools.evaluate("document.querySelector('#results-box h2').textContent")
        if heading != "Places near the centre, quickest first":
            fail(f"the nearby list is headed {heading!r}")
    listed = tools.evaluate("[...document.querySelectorAll('#results .eta')].map(e => e.textContent)")
    if listed != [r["eta"] for r in results]:
        fail(f"the result list shows ETAs {listed}, the places have {[r['eta'] for r in results]}")
    return results


def favourites_now():
    return tools.evaluate("wayfinderMap.favourites()")


def same_places(a, b, what):
    if len(a) != len(b) or any(x["title"] != y["title"] or x["subtitle"] != y["subtitle"] or abs(x["lat"] - y["lat"]) > 1e-6
                               or abs(x["lon"] - y["lon"]) > 1e-6 for x, y in zip(a, b)):
        fail(f"{what}: {a} instead of {b}")


tools = DevTools()
try:
    tools.open_page(base_url + "/", 1280, 800)
    tools.wait_for("document.querySelectorAll('#category option').length > 5", "the Nearby picker to be filled from /search/v1/categories")
    values = tools.evaluate("[...document.querySelectorAll('#category option')].map(o => o.value)")
    served = get("/search/v1/categories")["categories"]
    if "amenity=restaurant" not in values or not {f"{c['key']}={c['value']}" for c in served} >= set(values[1:]):
        fail(f"the Nearby picker offers {values[:8]}…, /search/v1/categories has {served[:4]}…")
    tools.check_layout("freshly loaded, with the panel")

    # A known name, typed into the search box: a marker where the search puts it, its callout open.
    type_into("#query", "Vecchia Firenze")
    click_selector("#search button[type=submit]")
    tools.wait_for("wayfinderMap.results().length > 0 && wayfinderMap.results()[0].eta.startsWith('ETA')", "the search results", timeout=30)
    results, origin = tools.evaluate("wayfinderMap.results()"), tools.evaluate("wayfinderMap.origin()")
    found = get(f"/search/v1?q=Vecchia%20Firenze&near={lonlat(origin)}&limit=10")["features"]
    if results[0]["title"] != "Vecchia Firenze" or len(results) != len(found):
        fail(f"searching 'Vecchia Firenze' shows {[r['title'] for r in results]}, /search/v1 finds {len(found)}")
    lon, lat = found[0]["geometry"]["coordinates"]
    if abs(results[0]["lon"] - lon) > 1e-7 or abs(results[0]["lat"] - lat) > 1e-7:
        fail(f"the result is at {results[0]['lon']},{results[0]['lat']}, /search/v1 says {lon},{lat}")
    markers = tools.evaluate("""[...document.querySelectorAll('.place.result .marker')].map(m => {
        const r = m.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })""")
    if len(markers) != len(results):
        fail(f"{len(markers)} result markers for {len(results)} results")
    for (x, y), result in zip(markers, results):
        sx, sy = tools.evaluate(f"wayfinderMap.screenPoint({result['lon']}, {result['lat']})")
        if abs(x - sx) > 1.5 or abs(y - sy) > 1.5 or not (0 <= x <= 1280 and 0 <= y <= 800):
            fail(f"the marker of {result['title']} is at {x:.0f},{y:.0f}, its point at {sx:.0f},{sy:.0f}")
    callout = tools.evaluate("document.querySelector('.place.result.selected .callout').innerText")
    if not all(part in callout for part in ("Vecchia Firenze", "restaurant", results[0]["eta"])):
        fail(f"the selected result's callout reads {callout!r}, expected its title, subtitle and {results[0]['eta']!r}")
    tools.check_layout("a search result")

    # Nearby: restaurants around the map's centre, ETAs by car and on foot as /table/v1 gives them.
    type_into("#query", "")
    tools.evaluate("(() => { const s = document.getElementById('category'); s.value = 'amenity=restaurant'; s.dispatchEvent(new Event('change')); })()")
    tools.wait_for("wayfinderMap.results().length === 10 && wayfinderMap.results().every(r => r.subtitle.startsWith('restaurant'))",
                   "ten restaurants nearby", timeout=30)
    by_car = check_etas("by car", "driving", ranked=True)
    set_mode("walk")
    on_foot = check_etas("on foot", "walking", ranked=True)
    if [r["eta"] for r in by_car] == [r["eta"] for r in on_foot]:
        fail("the ETAs did not change with the mode")
    click_selector("#results button", 2)
    if tools.evaluate("document.querySelector('.place.result.selected .title').textContent") != on_foot[2]["title"]:
        fail("choosing the third result in the list does not open its callout")
    if tools.evaluate("document.querySelectorAll('#results button')[2].getAttribute('aria-pressed')") != "true":
        fail("the chosen result is not marked in the list")
    tools.check_layout("nearby restaurants")
    time.sleep(0.5)
    shot("search")

    # A route between two pins: its choices, and the steps of the chosen one.
    click_selector("#clear")
    if tools.evaluate("wayfinderMap.results().length + document.querySelectorAll('.place.result, .place.origin').length") != 0:
        fail("Clear left search results")
    tools.call("Page.reload")   # the view fits the graph again
    tools.wait_for_page()
    stops = [(7.4270, 43.7395), (7.4150, 43.7275)]
    for lon, lat in stops:
        tools.drop_pin(lon, lat)
    pins = tools.evaluate("wayfinderMap.pins()")
    tools.click_button("routes")
    tools.wait_for("wayfinderMap.state.overlay && wayfinderMap.state.overlay.kind === 'route' && !wayfinderMap.state.busy "
                   "&& !document.getElementById('route-box').hidden", "the route and its steps", timeout=30)
    routes = get("/route/v1/driving/" + ";".join(lonlat(p) for p in pins) + "?steps=true&alternatives=2&overview=false")["routes"]
    choices = tools.evaluate("[...document.querySelectorAll('#route-choices button')].map(b => b.textContent)")
    if len(choices) != len(routes):
        fail(f"the page offers {choices}, /route/v1 has {len(routes)} routes")
    pick = len(routes) - 1
    if pick:
        click_selector("#route-choices button", pick)
    expected = [s["maneuver"]["instruction"] for leg in routes[pick]["legs"] for s in leg["steps"]]
    steps = lambda: tools.evaluate("[...document.querySelectorAll('#steps li')].map(li => li.firstChild.textContent)")
    tools.wait_for(f"[...document.querySelectorAll('#steps li')].map(li => li.firstChild.textContent).join('\\n') === {json.dumps(chr(10).join(expected))}",
                   f"the steps of route {pick}", timeout=10)
    if len(expected) < 3 or tools.evaluate("wayfinderMap.pins()[1].eta") != f"ETA +{duration(routes[pick]['legs'][0]['duration'])}":
        fail(f"route {pick}: steps {steps()}, ETA {tools.evaluate('wayfinderMap.pins()[1].eta')!r}")
    if pick and tools.evaluate(f"document.querySelectorAll('#route-choices button')[{pick}].getAttribute('aria-pressed')") != "true":
        fail("the chosen route is not marked")
    tools.check_layout(f"route choice {pick} with its steps")
    time.sleep(0.5)
    shot("route")

    # Favourites: one at the map's centre, one from a pin's ☆; edited; kept across a reload.
    if favourites_now():
        fail(f"a fresh browser profile has favourites {favourites_now()}")
    tools.click_button("favourite-centre")
    click_selector(".pin .keep", 1)
    kept = favourites_now()
    if len(kept) != 2 or kept[1]["title"] != "Pin 2" or abs(kept[1]["lon"] - pins[1]["lon"]) > 1e-9:
        fail(f"after Add centre and the second pin's ☆: {kept}")
    centre = tools.evaluate(f"wayfinderMap.screenPoint({kept[0]['lon']}, {kept[0]['lat']})")
    if not (330 < centre[0] < 1280 and 0 < centre[1] < 800):
        fail(f"the favourite at the centre lies at {centre}, not in the map's free area")
    type_into("#favourites input.title", 'Le "Café", Casino', 0)
    type_into("#favourites input.subtitle", "meeting point, Place du Casino", 0)
    type_into("#favourites input.subtitle", "Stade Louis II", 1)
    edited = favourites_now()
    if edited[0]["title"] != 'Le "Café", Casino' or edited[0]["subtitle"] != "meeting point, Place du Casino" or edited[1]["subtitle"] != "Stade Louis II":
        fail(f"editing the favourites gives {edited}")
    click_selector("#favourites .show", 0)
    callout = tools.evaluate("document.querySelector('.place.favourite.selected .callout').innerText")
    if 'Le "Café", Casino' not in callout or "meeting point, Place du Casino" not in callout:
        fail(f"the favourite's callout reads {callout!r}")
    tools.check_layout("two favourites")
    shot("favourites")
    tools.call("Page.reload")
    tools.wait_for_page()
    tools.wait_for("wayfinderMap.favourites().length === 2 && document.querySelectorAll('.place.favourite').length === 2",
                   "the favourites after a reload")
    same_places(favourites_now(), edited, "after a reload the favourites are")
    if tools.evaluate("[...document.querySelectorAll('#favourites input.title')].map(i => i.value)") != [p["title"] for p in edited]:
        fail("the favourites list does not show the kept titles after a reload")

    # Export: the download is a places file.
    exported = os.path.join(folder, "favourites.csv")
    if os.path.exists(exported):
        os.remove(exported)
    tools.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder}, session=False)
    tools.click_button("favourites-export")
    deadline = time.time() + 30
    while time.time() < deadline and not (os.path.exists(exported) and os.path.getsize(exported) > 0):
        time.sleep(0.2)
    if not os.path.exists(exported):
        fail(f"Export wrote no {exported}")
    time.sleep(0.3)
    with open(exported, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if lines[0] != "name,lat,lon,subtitle" or len(lines) != 3 or not lines[1].startswith('"Le ""Café"", Casino",'):
        fail(f"the exported file reads {lines}")

    # Remove both (gone after a reload), import the file, import it again (nothing doubled).
    while tools.evaluate("document.querySelectorAll('#favourites .remove').length"):
        click_selector("#favourites .remove")
    if favourites_now() or tools.evaluate("document.querySelectorAll('.place.favourite').length") or \
            tools.evaluate("localStorage.getItem('wayfinder.favourites')") != "[]":
        fail("removing the favourites left some")
    tools.call("Page.reload")
    tools.wait_for_page()
    if favourites_now():
        fail(f"removed favourites came back after a reload: {favourites_now()}")
    chooser = tools.call("Runtime.evaluate", {"expression": "document.getElementById('favourites-import')"})["result"]["objectId"]
    for attempt in (1, 2):
        tools.call("DOM.setFileInputFiles", {"files": [exported], "objectId": chooser})
        tools.wait_for(f"document.getElementById('status').textContent.startsWith('imported {2 if attempt == 1 else 0} favourite')",
                       f"import {attempt}", timeout=15)
        same_places(favourites_now(), edited, f"import {attempt} gives")
    # A phone: the lists start folded; a nearby search unfolds them, and the layout holds.
    tools.set_viewport(390, 844, mobile=True, scale=3)
    tools.call("Page.reload")
    tools.wait_for_page()
    if not tools.evaluate("document.getElementById('panel').classList.contains('collapsed')"):
        fail("on a phone the panel's lists do not start folded")
    tools.check_layout("a phone, freshly loaded")
    tools.evaluate("(() => { const s = document.getElementById('category'); s.value = 'amenity=restaurant'; s.dispatchEvent(new Event('change')); })()")
    tools.wait_for("wayfinderMap.results().length === 10 && wayfinderMap.results().every(r => r.eta.startsWith('ETA'))",
                   "nearby restaurants on the phone", timeout=30)
    if tools.evaluate("document.getElementById('panel').classList.contains('collapsed')"):
        fail("a search on a phone leaves its results folded away")
    tools.check_layout("nearby restaurants on a phone")
    time.sleep(0.5)
    shot("390-search")
    print(f"ok: search markers and callout, {len(on_foot)} restaurants with ETAs by car and on foot, {len(routes)} route choices "
          f"({len(expected)} steps), favourites kept across reloads, exported to {exported} and imported")
finally:
    tools.close()
