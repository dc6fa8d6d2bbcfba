/// The map page's favourites: places kept in the browser's localStorage (gold markers, a list with editable title
/// and subtitle), added from a pin's or a search result's ☆ or at the map's centre, exported and imported as a
/// places file (`name,lat,lon,subtitle` CSV, read by `PlacesFile`; the import reads what `PlacesFile` reads).
enum MapPageFavourites {
    static let text = #"""

  const favouritesList = document.getElementById("favourites"), importInput = document.getElementById("favourites-import");
  const favourites = { list: [], key: "wayfinder.favourites" };

  function loadFavourites() {
    let saved = [];
    try { saved = JSON.parse(localStorage.getItem(favourites.key) || "[]"); } catch (error) { console.warn("unreadable favourites:", error); }
    for (const place of Array.isArray(saved) ? saved : []) if (Number.isFinite(place.lat) && Number.isFinite(place.lon)) addFavourite(place, false);
    renderFavourites(); placePins();
  }

  function saveFavourites() {
    localStorage.setItem(favourites.key, JSON.stringify(favourites.list.map(({ title, subtitle, lat, lon }) => ({ title, subtitle, lat, lon }))));
  }

  function addFavourite({ title, subtitle, lon, lat }, save = true) {
    const place = placeMarker("favourite", { title: String(title || ""), subtitle: String(subtitle || ""), lon, lat },
                              [["Pin", "add to the route's pins", p => dropPin(p.lon, p.lat, p.title)]]);
    favourites.list.push(place);
    if (save) { saveFavourites(); renderFavourites(); placePins(); setStatus(`kept “${place.title}” as a favourite`); }
    return place;
  }

  function removeFavourite(place) {
    removePlace(place);
    favourites.list = favourites.list.filter(p => p !== place);
    saveFavourites(); renderFavourites(); placePins();
  }

  // Each favourite: its title and subtitle as fields (saved as they are typed), Show and Remove.
  function renderFavourites() {
    favouritesList.replaceChildren(...favourites.list.map(place => {
      const field = (name, label) => {
        const input = document.createElement("input");
        input.className = name; input.value = place[name]; input.setAttribute("aria-label", label);
        input.addEventListener("input", () => { place[name] = input.value; fillCallout(place); saveFavourites(); placePins(); });
        return input;
      };
      const actions = document.createElement("div");
      actions.className = "actions";
      actions.append(button("Show", "show on the map", () => selectPlace(place), "show"),
                     button("×", "remove the favourite", () => removeFavourite(place), "remove"));
      const item = document.createElement("li");
      item.append(field("title", "favourite's title"), actions, field("subtitle", "favourite's subtitle"));
      return item;
    }));
  }

  // RFC 4180 records of a CSV text: fields, and the line each record starts on.
  function csvRecords(text) {
    const records = [];
    let fields = [], field = "", quoted = false, line = 1, start = 1;
    const end = () => { fields.push(field); if (fields.length > 1 || fields[0].trim()) records.push({ fields, line: start }); fields = []; field = ""; };
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
        else if (c === '"') quoted = false;
        else { if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) line++; field += c; }
      } else if (c === '"' && !field.trim()) { quoted = true; field = ""; }
      else if (c === ",") { fields.push(field); field = ""; }
      else if (c === "\r" || c === "\n") { if (c === "\r" && text[i + 1] === "\n") i++; end(); line++; start = line; }
      else field += c;
    }
    if (quoted) throw new Error(`line ${start}: a quoted field is not closed`);
    if (field || fields.length) end();
    return records;
  }

  // A places file as `PlacesFile` reads it: lat,lon | lat,lon,name | name,lat,lon, an optional subtitle column,
  // an optional header; a name,lat,lon header makes three numbers a name and then lat,lon.
  function parsePlacesFile(text) {
    const headers = ["name,lat,lon", "lat,lon", "lat,lon,name", "name,lat,lon,subtitle", "lat,lon,name,subtitle"];
    const number = value => /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value) ? Number(value) : NaN;
    let nameHeader = false;
    const places = [];
    csvRecords(text.replace(/^\uFEFF/, "")).forEach(({ fields, line }, index) => {
      const f = fields.map(v => v.trim()), header = f.join(",").toLowerCase();
      if (index === 0 && headers.includes(header)) { nameHeader = header.startsWith("name"); return; }
      if (f.length < 2 || f.length > 4) throw new Error(`line ${line}: expected lat,lon with optional name and subtitle columns, got ${f.length} fields`);
      const isNumber = i => i < f.length && !Number.isNaN(number(f[i]));
      const latLonFirst = f.length === 2 || (isNumber(0) && isNumber(1) && !(nameHeader && isNumber(2)));
      const [latText, lonText, title] = latLonFirst ? [f[0], f[1], f[2] || ""] : [f[1], f[2], f[0]];
      const lat = number(latText), lon = number(lonText);
      if (Number.isNaN(lat) || Number.isNaN(lon)) throw new Error(`line ${line}: latitude and longitude must be numbers, got '${latText}' and '${lonText}'`);
      if (Math.abs(lat) > 90 || Math.abs(lon) > 180) throw new Error(`line ${line}: ${latText},${lonText} is not a coordinate`);
      places.push({ title, subtitle: f[3] || "", lat, lon });
    });
    return places;
  }

  const csvField = text => /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  function favouritesCSV() {
    return ["name,lat,lon,subtitle", ...favourites.list.map(p =>
      [csvField(p.title.trim()), p.lat.toFixed(7), p.lon.toFixed(7), csvField(p.subtitle.trim())].join(","))].join("\n") + "\n";
  }

  function exportFavourites() {
    if (!favourites.list.length) { setStatus("no favourites to export", true); return; }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([favouritesCSV()], { type: "text/csv" }));
    link.download = "favourites.csv";
    document.body.append(link); link.click(); link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    setStatus(`exported ${favourites.list.length} favourite${favourites.list.length === 1 ? "" : "s"} as favourites.csv`);
  }

  // Adds the file's places, leaving out those already kept (same title and point).
  async function importFavourites() {
    const file = importInput.files[0];
    if (!file) return;
    try {
      const places = parsePlacesFile(await file.text());
      const kept = p => favourites.list.some(f => f.title === p.title && Math.abs(f.lat - p.lat) < 1e-7 && Math.abs(f.lon - p.lon) < 1e-7);
      const added = places.filter(p => !kept(p));
      for (const place of added) addFavourite(place, false);
      saveFavourites(); renderFavourites(); placePins();
      setStatus(`imported ${added.length} favourite${added.length === 1 ? "" : "s"} from ${file.name}` +
                (added.length < places.length ? ` (${places.length - added.length} already kept)` : ""));
    } catch (error) { setStatus(`${file.name}: ${error.message}`, true); }
    importInput.value = "";
  }

  document.getElementById("favourite-centre").addEventListener("click", () => {
    const [lon, lat] = freeCentre();
    addFavourite({ title: `Favourite ${favourites.list.length + 1}`, subtitle: "", lon, lat });
  });
  document.getElementById("favourites-export").addEventListener("click", exportFavourites);
  document.getElementById("favourites-import-button").addEventListener("click", () => importInput.click());
  importInput.addEventListener("change", importFavourites);
"""#
}
