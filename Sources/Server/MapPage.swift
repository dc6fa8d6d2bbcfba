/// The offline map page served at `/`: HTML, CSS and JavaScript embedded in the binary (no CDN, no tile server).
/// The page draws the graph's roads from `/roads`, routes with `/route/v1` (and `/transit/v1` with a timetable),
/// searches places with `/search/v1` (ETAs from `/table/v1` or `/transit/v1/table`) and keeps favourites in the browser.
public enum MapPage {
    /// `/`: the page.
    public static let html = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(MapPageHTML.text.utf8),
                                          headers: [("Cache-Control", "no-cache")])
    /// `/map.css`.
    public static let style = HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", body: Array(MapPageStyle.text.utf8),
                                           headers: [("Cache-Control", "no-cache")])
    /// `/map.js`.
    public static let script = HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array(MapPageScript.text.utf8),
                                            headers: [("Cache-Control", "no-cache")])
}

/// The page's HTML.
enum MapPageHTML {
    static let text = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wayfinder map</title>
<link rel="stylesheet" href="/map.css">
</head>
<body>
<div id="map" aria-label="map: click or long-press to drop a pin, drag to pan, wheel to zoom">
  <canvas id="roads"></canvas>
  <canvas id="overlay"></canvas>
  <div id="pins"></div>
</div>
<div id="toolbar">
  <label>Mode <select id="mode"><option value="car">Car</option><option value="walk">Walk</option><option value="transit" disabled hidden>Transit</option></select></label>
  <label id="when-label" hidden>Depart <input id="when" type="datetime-local" aria-label="departure time (the feed's local time; empty: now)"></label>
  <button id="lines" type="button">Lines</button>
  <button id="routes" type="button">Routes</button>
  <button id="clear" type="button">Clear</button>
  <span id="status" role="status"></span>
</div>
<div id="panel">
  <form id="search" role="search">
    <input id="query" type="text" placeholder="Search places" aria-label="search places by name or address" enterkeyhint="search">
    <select id="category" aria-label="nearby: places of a category around the map's centre"><option value="">Nearby…</option></select>
    <button type="submit">Search</button>
    <button id="panel-toggle" type="button" aria-expanded="true" aria-label="hide the lists" title="hide or show the lists">▴</button>
  </form>
  <section id="results-box" hidden><h2>Places near the centre</h2><ol id="results"></ol></section>
  <section id="route-box" hidden><h2>Route</h2><div id="route-choices"></div><ol id="steps"></ol></section>
  <section id="favourites-box"><h2>Favourites</h2>
    <div class="actions">
      <button id="favourite-centre" type="button">Add centre</button>
      <button id="favourites-export" type="button">Export</button>
      <button id="favourites-import-button" type="button">Import</button>
      <input id="favourites-import" type="file" accept=".csv,text/csv" hidden aria-label="a places file to import">
    </div>
    <ol id="favourites"></ol>
  </section>
</div>
<div id="zoom">
  <button id="zoom-in" type="button" aria-label="zoom in">+</button>
  <button id="zoom-out" type="button" aria-label="zoom out">−</button>
</div>
<div id="attribution">Map data © OpenStreetMap contributors (ODbL) · Wayfinder</div>
<script src="/map.js"></script>
</body>
</html>
"""#
}

/// The page's style sheet.
enum MapPageStyle {
    static let text = #"""
html, body { margin: 0; height: 100%; overflow: hidden; font: 14px/1.3 system-ui, sans-serif; background: #f2efe9; }
#map { position: absolute; inset: 0; overflow: hidden; cursor: grab; touch-action: none; user-select: none; }  /* pins off screen widen nothing */
#map.panning { cursor: grabbing; }
#map canvas { position: absolute; inset: 0; width: 100%; height: 100%; }
#pins { position: absolute; inset: 0; pointer-events: none; }
#toolbar { position: absolute; top: 10px; left: 10px; box-sizing: border-box; max-width: calc(100% - 72px); /* clear of #zoom */
           background: #fff; padding: 6px 8px; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.3);
           display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
#toolbar [hidden] { display: none; }
#toolbar label { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; }
#toolbar select, #when { font: inherit; }
#toolbar button, #zoom button { font: inherit; padding: 4px 10px; border: 1px solid #bbb; border-radius: 6px; background: #fafafa;
                                cursor: pointer; white-space: nowrap; }
#toolbar button:hover, #zoom button:hover { background: #e8f0fe; }
#status { flex: 1 1 12em; min-width: 0; color: #555; margin-left: 4px; overflow-wrap: anywhere; }
#status:empty { display: none; }
#status.error { color: #b00020; background: #fdecea; border-radius: 6px; padding: 2px 6px; }
#zoom { position: absolute; right: 10px; top: 10px; display: flex; flex-direction: column; gap: 4px; }
#zoom button { min-width: 32px; }
#attribution { position: absolute; right: 4px; bottom: 2px; font-size: 11px; color: #555; background: rgba(255,255,255,.7); padding: 1px 4px; }
/* Phones: the toolbar spans the width (mode and buttons, then the departure time, then the status on rows of
   their own), the zoom buttons move to the bottom right with the attribution beside them, and controls get 16 px
   text and larger targets. */
@media (max-width: 600px) {
  #toolbar { right: 10px; max-width: none; }
  #toolbar select, #toolbar input, #toolbar button { font-size: 16px; }
  #toolbar button { padding: 6px 12px; }
  #when-label { order: 1; }
  #status { order: 2; flex-basis: 100%; margin-left: 0; }
  #zoom { top: auto; bottom: 10px; }
  #attribution { left: 4px; right: auto; max-width: calc(100% - 64px); font-size: 10px; }
  #zoom button { width: 40px; height: 40px; padding: 0; font-size: 20px; }
}
.pin { position: absolute; width: 0; height: 0; pointer-events: none; }
.pin .marker { position: absolute; left: -11px; top: -30px; width: 22px; height: 22px; border-radius: 50% 50% 50% 0;
               background: #d93025; transform: rotate(-45deg); box-shadow: 0 1px 3px rgba(0,0,0,.4); }
.pin .marker::after { content: ""; position: absolute; left: 7px; top: 7px; width: 8px; height: 8px; border-radius: 50%; background: #fff; }
.pin.dropping .marker { animation: drop .35s cubic-bezier(.3,1.4,.6,1); }
@keyframes drop { from { transform: translateY(-40px) rotate(-45deg); opacity: 0; } to { transform: translateY(0) rotate(-45deg); opacity: 1; } }
.pin .callout { position: absolute; left: 0; bottom: 34px; transform: translateX(-50%); background: #fff; border-radius: 6px;
                padding: 3px 6px; box-shadow: 0 1px 4px rgba(0,0,0,.35); white-space: nowrap; pointer-events: auto; }
.pin .callout input { font: inherit; font-weight: 600; border: none; width: 7em; padding: 0; background: transparent; }
.pin .callout input:focus { outline: 1px solid #1a73e8; }
.pin .eta, .place .eta { display: block; color: #1a73e8; font-size: 12px; }
.pin .callout button, .place .callout button { font: inherit; font-size: 12px; padding: 0 5px; margin-left: 4px; border: 1px solid #bbb;
                                               border-radius: 4px; background: #fafafa; cursor: pointer; }
/* Search results and favourites: round markers (purple, gold) that can be clicked; a callout for the selected one. */
.place { position: absolute; width: 0; height: 0; pointer-events: none; }
.place .marker { position: absolute; left: -8px; top: -8px; width: 16px; height: 16px; border-radius: 50%; background: #7b1fa2;
                 border: 2px solid #fff; box-sizing: border-box; box-shadow: 0 1px 3px rgba(0,0,0,.5); pointer-events: auto; cursor: pointer; }
.place.favourite .marker { background: #f9a825; }
.place.origin .marker { background: #fff; border: 4px solid #1a73e8; pointer-events: none; }
.place .callout { position: absolute; left: 0; bottom: 14px; background: #fff; border-radius: 6px; padding: 3px 6px;
                  box-shadow: 0 1px 4px rgba(0,0,0,.35); white-space: nowrap; pointer-events: auto; display: none; }
.place.selected .callout { display: block; }
.place.selected { z-index: 1; }
.callout .title { font-weight: 600; }
.callout .subtitle { display: block; color: #555; font-size: 12px; }
#panel { position: absolute; left: 10px; top: 60px; width: 320px; box-sizing: border-box; overflow: auto; background: #fff; padding: 6px 8px;
         border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.3); display: flex; flex-direction: column; gap: 6px; }
#panel [hidden], #panel.collapsed section { display: none; }
#panel h2 { font-size: 13px; margin: 2px 0; color: #333; }
#panel ol { margin: 0; padding: 0; list-style: none; }
/* The search box has the first row to itself (room to type a name); the category, Search and the fold button the next. */
#search { display: flex; flex-wrap: wrap; gap: 4px; }
#search input { flex: 1 1 100%; min-width: 0; box-sizing: border-box; font: inherit; padding: 3px 6px; border: 1px solid #bbb; border-radius: 6px; }
#search select { flex: 1 1 auto; }
#search #panel-toggle { margin-left: auto; }
#panel select { font: inherit; max-width: 9em; }
#panel button { font: inherit; padding: 3px 8px; border: 1px solid #bbb; border-radius: 6px; background: #fafafa; cursor: pointer; }
#panel button:hover { background: #e8f0fe; }
#panel .actions { display: flex; flex-wrap: wrap; gap: 4px; }
#results button { display: block; width: 100%; text-align: left; border: none; border-radius: 4px; background: none; padding: 3px 4px; }
#results button[aria-pressed="true"], #route-choices button[aria-pressed="true"] { background: #e8f0fe; border-color: #1a73e8; }
#results small, #favourites small { display: block; color: #555; }
#results .eta { display: block; color: #1a73e8; font-size: 12px; }
#route-choices { display: flex; flex-wrap: wrap; gap: 4px; }
#steps { max-height: 40vh; overflow: auto; }
#steps li { padding: 2px 0; border-bottom: 1px solid #eee; }
#steps small { color: #555; margin-left: 4px; }
#favourites li { display: grid; grid-template-columns: 1fr auto; gap: 2px 4px; padding: 3px 0; border-bottom: 1px solid #eee; }
#favourites input { font: inherit; min-width: 0; border: 1px solid #ddd; border-radius: 4px; padding: 1px 4px; }
#favourites input.subtitle { font-size: 12px; color: #555; }
#favourites .actions { grid-row: span 2; flex-direction: column; }
@media (max-width: 600px) {
  #panel { right: 10px; width: auto; }
  #panel input, #panel select, #panel button { font-size: 16px; }
  #steps { max-height: 20vh; }
}
"""#
}
