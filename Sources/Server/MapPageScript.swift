/// The page's JavaScript, one closure in one file (`/map.js`) put together from its parts: the map (`core`), the
/// route's step list (`MapPageSteps`), the place search (`MapPageSearch`), the favourites (`MapPageFavourites`) and
/// the start-up (`start`). The parts share the closure's functions and `state`.
enum MapPageScript {
    static let text = core + MapPageSteps.text + MapPageSearch.text + MapPageFavourites.text + start

    /// A Web Mercator canvas map of `/roads` vectors with pins, straight lines, routes and transit itineraries (walk
    /// legs dotted, ride legs solid green).
    static let core = #"""
"use strict";
(() => {
  const TILE = 256, PAD = 60;
  const map = document.getElementById("map"), roadsCanvas = document.getElementById("roads"),
        overlayCanvas = document.getElementById("overlay"), pinsLayer = document.getElementById("pins"),
        statusLine = document.getElementById("status"), modeSelect = document.getElementById("mode"),
        whenInput = document.getElementById("when"), whenLabel = document.getElementById("when-label"),
        toolbar = document.getElementById("toolbar"), zoomButtons = document.getElementById("zoom"), panel = document.getElementById("panel");
  const view = { lon: 0, lat: 0, zoom: 2, width: 0, height: 0 };
  // pins: the route's stops; places: markers of search results, favourites and the search's origin.
  const state = { pins: [], places: [], selected: null, overlay: null, roads: null, roadsKey: "", requestSerial: 0, busy: false, info: null };
  const tierStyle = [["#e8a33d", 4], ["#f6d365", 3], ["#ffffff", 2], ["#d8d2c8", 1]];
  const tierCasing = ["#b5762a", "#c8a64a", "#cfc8bc", null];

  // Web Mercator: degrees to world pixels at zoom z, and back.
  const worldX = (lon, z) => (lon + 180) / 360 * TILE * 2 ** z;
  const worldY = (lat, z) => { const s = Math.sin(lat * Math.PI / 180);
    return (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * TILE * 2 ** z; };
  const lonOf = (x, z) => x / (TILE * 2 ** z) * 360 - 180;
  const latOf = (y, z) => { const n = Math.PI - 2 * Math.PI * y / (TILE * 2 ** z); return 180 / Math.PI * Math.atan(Math.sinh(n)); };
  const toScreen = (lon, lat) => [worldX(lon, view.zoom) - worldX(view.lon, view.zoom) + view.width / 2,
                                  worldY(lat, view.zoom) - worldY(view.lat, view.zoom) + view.height / 2];
  const toLonLat = (x, y) => [lonOf(worldX(view.lon, view.zoom) + x - view.width / 2, view.zoom),
                              latOf(worldY(view.lat, view.zoom) + y - view.height / 2, view.zoom)];

  function decodePolyline(text, precision) {
    const factor = 10 ** precision, points = [];
    let index = 0, lat = 0, lon = 0;
    while (index < text.length) {
      for (const which of [0, 1]) {
        let result = 0, shift = 0, byte;
        do { byte = text.charCodeAt(index++) - 63; result |= (byte & 0x1f) << shift; shift += 5; } while (byte >= 0x20);
        const delta = result & 1 ? ~(result >> 1) : result >> 1;
        if (which === 0) lat += delta; else lon += delta;
      }
      points.push([lon / factor, lat / factor]);
    }
    return points;
  }

  function resize() {
    const ratio = window.devicePixelRatio || 1;
    view.width = map.clientWidth; view.height = map.clientHeight;
    for (const c of [roadsCanvas, overlayCanvas]) {
      c.width = Math.round(view.width * ratio); c.height = Math.round(view.height * ratio);
      c.getContext("2d").setTransform(ratio, 0, 0, ratio, 0, 0);
    }
    placePanel(); redraw(); loadRoads();
  }

  function visibleBox() {
    const [w, n] = toLonLat(0, 0), [e, s] = toLonLat(view.width, view.height);
    return [Math.max(-180, w), Math.max(-85, s), Math.min(180, e), Math.min(85, n)];
  }

  let roadsTimer = null;
  function loadRoads() {
    clearTimeout(roadsTimer);
    roadsTimer = setTimeout(async () => {
      const box = visibleBox(), zoom = Math.round(view.zoom);
      const key = box.map(v => v.toFixed(5)).join(",") + "@" + zoom;
      if (key === state.roadsKey) return;
      const serial = ++state.requestSerial;
      try {
        const answer = await (await fetch(`/roads?bbox=${box.map(v => v.toFixed(6)).join(",")}&zoom=${zoom}`)).json();
        if (serial !== state.requestSerial || answer.code !== "Ok") return;
        state.roadsKey = key;
        state.roads = answer.roads.map(([tier, line]) => ({ tier, points: decodePolyline(line, 5) }));
        drawRoads();
      } catch (error) { setStatus("roads could not be loaded: " + error, true); }
    }, 120);
  }

  function drawRoads() {
    const g = roadsCanvas.getContext("2d");
    g.clearRect(0, 0, view.width, view.height);
    if (!state.roads) return;
    g.lineCap = "round"; g.lineJoin = "round";
    const thin = view.zoom < 12 ? 0.6 : view.zoom < 14 ? 0.8 : 1;   // thinner lines when zoomed out
    for (const casing of [true, false]) {
      for (let tier = 3; tier >= 0; tier--) {
        const [colour, width] = tierStyle[tier];
        if (casing && !tierCasing[tier]) continue;
        g.strokeStyle = casing ? tierCasing[tier] : colour;
        g.lineWidth = (casing ? width + 2 : width) * thin;
        g.beginPath();
        for (const road of state.roads) {
          if (road.tier !== tier) continue;
          road.points.forEach(([lon, lat], i) => { const [x, y] = toScreen(lon, lat); if (i) g.lineTo(x, y); else g.moveTo(x, y); });
        }
        g.stroke();
      }
    }
  }

  function drawOverlay() {
    const g = overlayCanvas.getContext("2d");
    g.clearRect(0, 0, view.width, view.height);
    const o = state.overlay;
    if (!o) return;
    g.lineCap = "round"; g.lineJoin = "round";
    if (o.kind === "transit") { drawTransit(g, o.legs); return; }
    g.setLineDash(o.kind === "lines" ? [10, 8] : []);
    for (const [colour, width] of o.kind === "lines" ? [["#555", 3]] : [["#0b3d91", 8], ["#1a73e8", 5]]) {
      g.strokeStyle = colour; g.lineWidth = width; g.beginPath();
      o.points.forEach(([lon, lat], i) => { const [x, y] = toScreen(lon, lat); if (i) g.lineTo(x, y); else g.moveTo(x, y); });
      g.stroke();
    }
    g.setLineDash([]);
  }

  // Transit: walk legs as blue dots, ride legs as solid green lines over a dark casing.
  function drawTransit(g, legs) {
    for (const leg of legs) {
      const ride = leg.kind === "ride";
      const strokes = ride ? [["#0b5d1e", 8], ["#1e9e3e", 5]] : [["#1a73e8", 4]];
      g.setLineDash(ride ? [] : [2, 7]);
      for (const [colour, width] of strokes) {
        g.strokeStyle = colour; g.lineWidth = width; g.beginPath();
        leg.points.forEach(([lon, lat], i) => { const [x, y] = toScreen(lon, lat); if (i) g.lineTo(x, y); else g.moveTo(x, y); });
        g.stroke();
      }
    }
    g.setLineDash([]);
  }

  // Each pin and place at its point, its callout centred above it but shifted (while still over it) to stay on screen.
  function placePins() {
    const markers = state.pins.concat(state.places);
    const widths = markers.map(pin => pin.element.querySelector(".callout").offsetWidth);   // one layout, then writes
    markers.forEach((pin, i) => {
      const [x, y] = toScreen(pin.lon, pin.lat), w = widths[i], margin = 4;
      pin.element.style.left = x + "px"; pin.element.style.top = y + "px";
      let shift = -w / 2;
      shift = Math.max(shift, margin - x);                        // past the left edge
      shift = Math.min(shift, view.width - margin - w - x);       // past the right edge
      shift = Math.max(-w + 12, Math.min(-12, shift));            // but never off the pin
      pin.element.querySelector(".callout").style.transform = `translateX(${shift}px)`;
    });
  }

  // A callout's title field as wide as its text.
  const measure = document.createElement("canvas").getContext("2d");
  function sizeTitle(input) {
    const cs = getComputedStyle(input);
    measure.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    input.style.width = Math.max(24, Math.ceil(measure.measureText(input.value).width) + 3) + "px";
  }

  function redraw() { drawRoads(); drawOverlay(); placePins(); }

  // The panel moves with the toolbar's height at once (the resize observer alone runs only before the next frame).
  function setStatus(text, error = false) { statusLine.textContent = text; statusLine.classList.toggle("error", error); placePanel(); }

  function formatDuration(seconds) {
    const s = Math.round(seconds);
    if (s < 60) return `${s} s`;
    const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
    return h ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
  }
  const formatDistance = metres => metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;

  function dropPin(lon, lat, title) {
    const element = document.createElement("div");
    element.className = "pin dropping";
    const number = state.pins.length + 1;
    element.innerHTML = `<div class="marker"></div><div class="callout"><input class="title" aria-label="pin title"><button type="button" class="keep" title="keep as a favourite" aria-label="keep as a favourite">☆</button><span class="eta"></span></div>`;
    const pin = { lon, lat, title: title || `Pin ${number}`, element };
    const input = element.querySelector("input");
    input.value = pin.title;
    input.addEventListener("input", () => { pin.title = input.value; sizeTitle(input); placePins(); });
    for (const type of ["pointerdown", "click", "dblclick", "wheel"]) element.querySelector(".callout").addEventListener(type, e => e.stopPropagation());
    element.querySelector(".keep").addEventListener("click", () => addFavourite({ title: pin.title, subtitle: "", lon: pin.lon, lat: pin.lat }));
    element.querySelector(".marker").addEventListener("animationend", () => element.classList.remove("dropping"));
    pinsLayer.appendChild(element);
    sizeTitle(input);
    state.pins.push(pin);
    placePins();
    setStatus(`${state.pins.length} pin${state.pins.length === 1 ? "" : "s"}`);
  }

  function setETA(pin, text) { pin.element.querySelector(".eta").textContent = text; }

  // The marker of a search result, a favourite or the search's origin (`kind`), its callout's buttons as
  // [label, description, action(place)]; clicking the marker selects the place (its callout opens).
  function placeMarker(kind, place, buttons = []) {
    const element = document.createElement("div");
    element.className = `place ${kind}`;
    element.innerHTML = `<div class="marker"></div><div class="callout"><span class="title"></span><span class="subtitle"></span><span class="eta"></span></div>`;
    for (const type of ["pointerdown", "click", "dblclick", "wheel"]) element.addEventListener(type, e => e.stopPropagation());
    element.querySelector(".marker").addEventListener("click", () => selectPlace(place));
    for (const [label, description, action] of buttons) element.querySelector(".callout").append(button(label, description, () => action(place)));
    place.element = element;
    pinsLayer.appendChild(element);
    state.places.push(place);
    fillCallout(place);
    return place;
  }
  function fillCallout(place) {
    for (const name of ["title", "subtitle", "eta"]) place.element.querySelector("." + name).textContent = place[name] || "";
  }
  function removePlace(place) {
    place.element.remove();
    state.places = state.places.filter(p => p !== place);
    if (state.selected === place) state.selected = null;
  }
  // Opens a place's callout (closing the previous one), panning the map when the place is not in its free area.
  function selectPlace(place) {
    if (state.selected) state.selected.element.classList.remove("selected");
    state.selected = place;
    place.element.classList.add("selected");
    const area = freeArea(), [x, y] = toScreen(place.lon, place.lat);
    if (x < area.left || x > view.width - area.right || y < area.top || y > view.height - area.bottom) {
      view.lon = lonOf(worldX(place.lon, view.zoom) - ((area.left + view.width - area.right) / 2 - view.width / 2), view.zoom);
      view.lat = latOf(worldY(place.lat, view.zoom) - ((area.top + view.height - area.bottom) / 2 - view.height / 2), view.zoom);
      redraw(); loadRoads();
    }
    renderResults(); placePins();
  }
  function button(label, description, action, className = "") {
    const element = document.createElement("button");
    element.type = "button"; element.textContent = label; element.title = description; element.className = className;
    element.setAttribute("aria-label", description);
    element.addEventListener("click", action);
    return element;
  }
  function textElement(tag, text, className = "") {
    const element = document.createElement(tag);
    element.textContent = text; element.className = className;
    return element;
  }

  // The part of the map clear of the controls, as margins in pixels (with room above for callouts).
  function freeArea() {
    // The panel: a column on the left of a wide screen, a band under the toolbar on a phone.
    const bar = toolbar.getBoundingClientRect(), zoomBox = zoomButtons.getBoundingClientRect(), side = panel.getBoundingClientRect();
    const band = side.width > view.width / 2;
    const top = Math.max(PAD, (band ? side.bottom : bar.bottom) + 80), right = PAD, left = band ? PAD : Math.max(PAD, side.right + PAD);
    // Room above the zoom buttons where they sit at the bottom (phones).
    const bottom = zoomBox.top > view.height / 2 ? Math.max(PAD / 2, view.height - zoomBox.top + 12) : PAD / 2;
    return { top, right, bottom, left };
  }
  // The centre of the free area, [lon, lat].
  const freeCentre = () => { const a = freeArea(); return toLonLat((a.left + view.width - a.right) / 2, (a.top + view.height - a.bottom) / 2); };

  // After each action: fit the pins and the drawn line with padding.
  function fit(points) {
    if (!points.length) return;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [lon, lat] of points) {
      const x = worldX(lon, 0), y = worldY(lat, 0);
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const spanX = Math.max(maxX - minX, 1e-9), spanY = Math.max(maxY - minY, 1e-9);
    // Room for the callouts below the toolbar and the panel, and above the zoom buttons.
    const { top, right, bottom, left } = freeArea();
    const zoom = Math.log2(Math.min(Math.max(50, view.width - left - right) / spanX, Math.max(50, view.height - top - bottom) / spanY));
    view.zoom = Math.max(1, Math.min(18, zoom));
    const scale = 2 ** view.zoom;
    const centreX = (minX + maxX) / 2 * scale - ((left + view.width - right) / 2 - view.width / 2);
    const centreY = (minY + maxY) / 2 * scale - ((top + view.height - bottom) / 2 - view.height / 2);
    view.lon = lonOf(centreX, view.zoom); view.lat = latOf(centreY, view.zoom);
    redraw(); loadRoads();
  }
  const fitAll = () => fit(state.pins.map(p => [p.lon, p.lat]).concat(state.overlay ? state.overlay.points : []));
  const modeWords = () => ({ car: "by car", walk: "on foot", transit: "by transit" })[modeSelect.value];
  const lonLat = p => `${p.lon.toFixed(6)},${p.lat.toFixed(6)}`;

  function showLines() {
    if (state.pins.length < 2) { setStatus("drop at least two pins first", true); return; }
    hideSteps();
    state.overlay = { kind: "lines", points: state.pins.map(p => [p.lon, p.lat]) };
    state.pins.forEach((pin, i) => {
      if (i === 0) { setETA(pin, "start"); return; }
      const a = state.pins[i - 1], metres = greatCircle(a, pin);
      setETA(pin, `${formatDistance(metres)} straight`);
    });
    setStatus("straight lines");
    fitAll();
  }

  function greatCircle(a, b) {
    const r = Math.PI / 180, dLat = (b.lat - a.lat) * r, dLon = (b.lon - a.lon) * r;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(dLon / 2) ** 2;
    return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
  }

  async function showRoutes() {
    if (state.pins.length < 2) { setStatus("drop at least two pins first", true); return; }
    if (modeSelect.value === "transit") { await showTransit(); return; }
    const profile = modeSelect.value === "walk" ? "walking" : "driving";
    const coordinates = state.pins.map(lonLat).join(";");
    // Between two pins, up to two alternatives to choose from (OSRM gives them only for two coordinates).
    const alternatives = state.pins.length === 2 ? Math.min(2, state.info.limits.alternatives) : 0;
    setStatus("routing…");
    state.busy = true;
    try {
      const answer = await (await fetch(`/route/v1/${profile}/${coordinates}?overview=full&geometries=geojson&steps=true&alternatives=${alternatives}`)).json();
      if (answer.code !== "Ok") { setStatus(`${answer.code}: ${answer.message}`, true); return; }
      showRouteChoices(answer.routes);
      fitAll();
    } catch (error) {
      setStatus("routing failed: " + error, true);
    } finally { state.busy = false; }
  }

  // Draws one of the car or foot routes, its legs' times in the pins' callouts and its steps in the panel.
  function selectRoute(route) {
    state.overlay = { kind: "route", points: route.geometry.coordinates };
    state.pins.forEach((pin, i) => setETA(pin, i === 0 ? "start" : `ETA +${formatDuration(route.legs[i - 1].duration)}`));
    setStatus(`${formatDistance(route.distance)}, ${formatDuration(route.duration)} by ${modeSelect.value}`);
    drawOverlay();
  }

  // One /transit/v1 request per pair of consecutive pins, each leaving when the previous arrives; each pin's callout
  // shows its arrival time (the feed's local clock) and the time from the previous pin.
  async function showTransit() {
    setStatus("planning transit…");
    state.busy = true;
    try {
      const legs = [], etas = ["start"], itineraries = [];
      let depart = whenInput.value, first = null, last = null, rides = 0;
      for (let i = 1; i < state.pins.length; i++) {
        const a = state.pins[i - 1], b = state.pins[i];
        const pair = `${a.lon.toFixed(6)},${a.lat.toFixed(6)};${b.lon.toFixed(6)},${b.lat.toFixed(6)}`;
        const query = depart ? `?depart=${encodeURIComponent(depart)}` : "";
        const answer = await (await fetch(`/transit/v1/${pair}${query}`)).json();
        if (answer.code !== "Ok") { setStatus(`${answer.code}: ${answer.message}`, true); return; }
        const plan = answer.legs[0], itinerary = plan.itineraries[plan.best];
        for (const leg of itinerary.legs) legs.push({ kind: leg.kind, points: decodePolyline(leg.polyline, 6) });
        itineraries.push(itinerary);
        rides += itinerary.rides;
        first = first || answer.expectedDepartureDate;
        last = answer.expectedArrivalDate;
        etas.push(`ETA ${answer.expectedArrivalDate.slice(11, 16)} (+${formatDuration(answer.expectedTravelTime)})`);
        depart = answer.expectedArrivalDate;
      }
      state.overlay = { kind: "transit", legs, points: legs.flatMap(l => l.points) };
      showTransitSteps(itineraries);
      state.pins.forEach((pin, i) => setETA(pin, etas[i]));
      const total = (Date.parse(last) - Date.parse(first)) / 1000;
      setStatus(`leave ${first.slice(11, 16)}, arrive ${last.slice(11, 16)}: ${formatDuration(total)}, ${rides} ride${rides === 1 ? "" : "s"}`);
      fitAll();
    } catch (error) {
      setStatus("transit planning failed: " + error, true);
    } finally { state.busy = false; }
  }

  // The departure field starts empty (now) unless today lies outside the feed's service range: then it holds the
  // current time of day on the nearest date inside the range with today's weekday (all on the feed's local clock).
  function defaultDeparture({ timeZone, firstDate, lastDate }) {
    whenInput.min = firstDate + "T00:00"; whenInput.max = lastDate + "T23:59";
    whenInput.title = `the timetable runs from ${firstDate} to ${lastDate}`;
    const clock = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
                                                     hour: "2-digit", minute: "2-digit" });
    const now = Object.fromEntries(clock.formatToParts(new Date()).map(p => [p.type, p.value]));
    const dayNumber = iso => Date.parse(iso + "T00:00Z") / 86400000;
    const today = dayNumber(`${now.year}-${now.month}-${now.day}`), first = dayNumber(firstDate), last = dayNumber(lastDate);
    if (today >= first && today <= last) return;
    let day = today > last ? today - 7 * Math.ceil((today - last) / 7) : today + 7 * Math.ceil((first - today) / 7);
    if (day < first || day > last) day = today > last ? last : first;   // a range shorter than a week
    whenInput.value = `${new Date(day * 86400000).toISOString().slice(0, 10)}T${now.hour}:${now.minute}`;
  }

  function clearAll() {
    state.pins.forEach(p => p.element.remove());
    state.pins = []; state.overlay = null;
    hideSteps(); clearResults();
    drawOverlay(); setStatus("cleared");
  }

  // Pointer: drag pans; a click, or a long press without moving, drops a pin.
  let press = null;
  map.addEventListener("pointerdown", e => {
    if (e.button !== 0) return;
    map.setPointerCapture(e.pointerId);
    press = { x: e.clientX, y: e.clientY, lon: view.lon, lat: view.lat, moved: false, dropped: false,
              timer: setTimeout(() => { if (press && !press.moved) { press.dropped = true; dropPin(...toLonLat(press.x, press.y)); } }, 550) };
  });
  map.addEventListener("pointermove", e => {
    if (!press) return;
    const dx = e.clientX - press.x, dy = e.clientY - press.y;
    if (!press.moved && Math.hypot(dx, dy) < 5) return;
    press.moved = true; clearTimeout(press.timer); map.classList.add("panning");
    view.lon = lonOf(worldX(press.lon, view.zoom) - dx, view.zoom);
    view.lat = latOf(worldY(press.lat, view.zoom) - dy, view.zoom);
    redraw();
  });
  map.addEventListener("pointerup", e => {
    if (!press) return;
    clearTimeout(press.timer); map.classList.remove("panning");
    if (!press.moved && !press.dropped) dropPin(...toLonLat(press.x, press.y));
    if (press.moved) loadRoads();
    press = null;
  });
  map.addEventListener("pointercancel", () => { if (press) clearTimeout(press.timer); press = null; map.classList.remove("panning"); });

  function zoomAbout(x, y, delta) {
    const [lon, lat] = toLonLat(x, y);
    view.zoom = Math.max(1, Math.min(19, view.zoom + delta));
    // Keep the point under the cursor where it was.
    view.lon = lonOf(worldX(lon, view.zoom) - (x - view.width / 2), view.zoom);
    view.lat = latOf(worldY(lat, view.zoom) - (y - view.height / 2), view.zoom);
    redraw(); loadRoads();
  }
  map.addEventListener("wheel", e => { e.preventDefault(); zoomAbout(e.clientX, e.clientY, -Math.sign(e.deltaY) * 0.5); }, { passive: false });
  document.getElementById("zoom-in").addEventListener("click", () => zoomAbout(view.width / 2, view.height / 2, 1));
  document.getElementById("zoom-out").addEventListener("click", () => zoomAbout(view.width / 2, view.height / 2, -1));
  document.getElementById("lines").addEventListener("click", showLines);
  document.getElementById("routes").addEventListener("click", showRoutes);
  document.getElementById("clear").addEventListener("click", clearAll);
"""#

    /// Event handlers, the hooks for tests, and the start-up: read `/info`, fit the graph, load favourites and categories.
    static let start = #"""
  modeSelect.addEventListener("change", () => { whenLabel.hidden = modeSelect.value !== "transit"; placePanel(); resultETAs(); });
  window.addEventListener("resize", resize);
  // The panel sits under the toolbar (whose height changes with its status line) and stays on screen.
  function placePanel() {
    const top = toolbar.getBoundingClientRect().bottom + 8;
    panel.style.top = top + "px";
    panel.style.maxHeight = Math.max(120, (view.width <= 600 ? 0.45 * view.height : view.height - 30) - top) + "px";
  }
  new ResizeObserver(placePanel).observe(toolbar);
  // The lists fold away under the search row (folded at the start on a phone, unfolded by a search).
  const panelToggle = document.getElementById("panel-toggle");
  function foldPanel(folded) {
    panel.classList.toggle("collapsed", folded);
    panelToggle.textContent = folded ? "▾" : "▴";
    panelToggle.setAttribute("aria-expanded", String(!folded));
    panelToggle.setAttribute("aria-label", folded ? "show the lists" : "hide the lists");
  }
  panelToggle.addEventListener("click", () => foldPanel(!panel.classList.contains("collapsed")));

  // For scripts and tests: the view, and where a coordinate is on screen.
  window.wayfinderMap = {
    view, state,
    screenPoint: (lon, lat) => toScreen(lon, lat),
    pins: () => state.pins.map(p => ({ lon: p.lon, lat: p.lat, title: p.title, eta: p.element.querySelector(".eta").textContent })),
    results: () => search.results.map(({ lon, lat, title, subtitle, eta }) => ({ lon, lat, title, subtitle, eta })),
    origin: () => search.origin && { lon: search.origin.lon, lat: search.origin.lat },
    favourites: () => favourites.list.map(({ lon, lat, title, subtitle }) => ({ lon, lat, title, subtitle })),
  };

  (async () => {
    foldPanel(map.clientWidth <= 600);
    resize();
    try {
      const info = state.info = await (await fetch("/info")).json();
      // The box most roads lie in (a few long ways can stretch the bounds far beyond the city).
      const [w, s, e, n] = info.view || info.bounds;
      fit([[w, s], [e, n]]);
      // Transit only where the graph has a timetable.
      const transit = modeSelect.querySelector('option[value="transit"]');
      transit.disabled = transit.hidden = !info.timetable;
      if (info.transit) {
        try { defaultDeparture(info.transit); } catch (error) { console.warn("no default departure:", error); }
      }
      loadFavourites();
      await loadCategories();
      setStatus("click or long-press to drop pins");
      document.body.dataset.ready = "true";
    } catch (error) { setStatus("the server did not answer /info: " + error, true); }
  })();
})();
"""#
}
