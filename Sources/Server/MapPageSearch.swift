/// The map page's place search: words and/or a category (the "Nearby…" picker, from `/search/v1/categories`) near
/// the map's centre with `/search/v1`; the results as purple markers and a list, each with the ETA from the centre
/// for the chosen mode (`/table/v1`, or `/transit/v1/table` at the departure time). A search by words keeps the
/// search's order (best match first); a "nearby" search by category alone lists the places quickest first once their
/// ETAs arrive, unreachable ones last, as `wayfinder nearby` ranks them.
enum MapPageSearch {
    static let text = #"""

  const queryInput = document.getElementById("query"), categorySelect = document.getElementById("category"),
        resultsBox = document.getElementById("results-box"), resultsList = document.getElementById("results");
  const search = { results: [], origin: null, serial: 0, etaSerial: 0, byETA: false };
  const resultsHeading = resultsBox.querySelector("h2");

  async function loadCategories() {
    try {
      const answer = await (await fetch("/search/v1/categories")).json();
      if (answer.code !== "Ok") throw new Error(answer.message);
      // Bare addresses, uncategorised places and streets (highway=residential…) make no "nearby" list, bus stops do;
      // a value under two keys shows its key.
      const useful = answer.categories.filter(c => c.key && c.key !== "addr" && (c.key !== "highway" || c.value === "bus_stop")), seen = {};
      for (const c of useful) seen[c.value] = (seen[c.value] || 0) + 1;
      for (const c of useful)
        categorySelect.add(new Option(`${seen[c.value] > 1 ? c.key + "=" : ""}${c.value.replace(/_/g, " ")} (${c.count})`, `${c.key}=${c.value}`));
    } catch (error) {
      for (const control of [queryInput, categorySelect]) { control.disabled = true; control.title = "no place search: " + error.message; }
    }
  }

  // A GeoJSON feature of /search/v1 as a place: its name (or address) and "category, address".
  function describe(feature) {
    const p = feature.properties, [lon, lat] = feature.geometry.coordinates;
    const address = [[p.street, p.housenumber].filter(Boolean).join(" "), [p.postcode, p.city].filter(Boolean).join(" ")].filter(Boolean).join(", ");
    const category = (p.category || "").replace(/_/g, " ");
    return { lon, lat, title: p.name || address || category, subtitle: [category, p.name ? address : ""].filter(Boolean).join(", "), eta: "" };
  }

  async function searchPlaces() {
    const words = queryInput.value.trim(), category = categorySelect.value;
    clearResults();
    if (!words && !category) { setStatus("type a name or an address, or pick a category", true); return; }
    const [lon, lat] = freeCentre(), origin = { lon, lat }, serial = ++search.serial;
    search.byETA = !words;
    let query = `near=${lonLat(origin)}&limit=10`;
    if (words) query += `&q=${encodeURIComponent(words)}`;
    if (category) query += `&category=${encodeURIComponent(category)}`;
    setStatus("searching…");
    try {
      const answer = await (await fetch(`/search/v1?${query}`)).json();
      if (serial !== search.serial) return;
      if (answer.code) { setStatus(`${answer.code}: ${answer.message}`, true); return; }
      if (!answer.features.length) { setStatus("no places match", true); return; }
      search.origin = placeMarker("origin", { ...origin, title: "search centre" });
      const keep = place => addFavourite({ title: place.title, subtitle: place.subtitle, lon: place.lon, lat: place.lat });
      search.results = answer.features.map(f => placeMarker("result", describe(f),
        [["Pin", "add to the route's pins", place => dropPin(place.lon, place.lat, place.title)], ["☆", "keep as a favourite", keep]]));
      // The list first, so the fit keeps the places clear of the panel at its full height (on a phone, a band above them).
      renderResults();
      foldPanel(false);
      fit(search.results.map(p => [p.lon, p.lat]).concat([[lon, lat]]));
      selectPlace(search.results[0]);
      const n = search.results.length;
      setStatus(`${n} place${n === 1 ? "" : "s"}${words ? ` for “${words}”` : ""} near the centre`);
      await resultETAs();
    } catch (error) { setStatus("the search failed: " + error, true); }
  }

  // The departure for transit ETAs: the field, or now on the feed's clock.
  function departure() {
    if (whenInput.value) return whenInput.value;
    const clock = new Intl.DateTimeFormat("en-US", { timeZone: state.info.transit.timeZone, hourCycle: "h23", year: "numeric", month: "2-digit",
                                                     day: "2-digit", hour: "2-digit", minute: "2-digit" });
    const now = Object.fromEntries(clock.formatToParts(new Date()).map(p => [p.type, p.value]));
    return `${now.year}-${now.month}-${now.day}T${now.hour}:${now.minute}`;
  }

  // One table request from the search's origin to every result, for the chosen mode.
  async function resultETAs() {
    if (!search.results.length) return;
    const serial = ++search.etaSerial, mode = modeSelect.value, words = modeWords();
    const points = [search.origin, ...search.results].map(lonLat).join(";");
    const url = mode === "transit" ? `/transit/v1/table/${points}?sources=0&depart=${encodeURIComponent(departure())}`
                                   : `/table/v1/${mode === "walk" ? "walking" : "driving"}/${points}?sources=0`;
    for (const place of search.results) place.eta = "…";
    try {
      const answer = await (await fetch(url)).json();
      if (serial !== search.etaSerial) return;
      if (answer.code !== "Ok") {
        for (const place of search.results) place.eta = "";
        setStatus(`no ETAs ${words}: ${answer.code}: ${answer.message}`, true);
      } else {
        answer.durations[0].slice(1).forEach((seconds, i) => {
          search.results[i].eta = seconds === null ? `no route ${words}` : `ETA ${formatDuration(seconds)} ${words}`;
          search.results[i].seconds = seconds;
        });
        // Nearby: quickest first, unreachable last; equal ETAs keep the nearer place first (the sort is stable).
        if (search.byETA) search.results.sort((a, b) => (a.seconds ?? Infinity) - (b.seconds ?? Infinity));
      }
    } catch (error) { setStatus("the ETAs failed: " + error, true); }
    search.results.forEach(fillCallout);
    renderResults(); placePins();
  }

  function renderResults() {
    resultsBox.hidden = !search.results.length;
    const ranked = search.byETA && search.results.some(place => place.seconds !== undefined);
    resultsHeading.textContent = ranked ? "Places near the centre, quickest first" : "Places near the centre";
    resultsList.replaceChildren(...search.results.map(place => {
      const choice = button(place.title, `show ${place.title}`, () => selectPlace(place));
      choice.replaceChildren(textElement("strong", place.title), textElement("small", place.subtitle), textElement("span", place.eta, "eta"));
      choice.setAttribute("aria-pressed", String(state.selected === place));
      const item = document.createElement("li");
      item.append(choice);
      return item;
    }));
  }

  function clearResults() {
    search.serial++; search.etaSerial++;
    for (const place of [search.origin, ...search.results]) if (place) removePlace(place);
    search.results = []; search.origin = null;
    renderResults();
  }

  document.getElementById("search").addEventListener("submit", event => { event.preventDefault(); searchPlaces(); });
  categorySelect.addEventListener("change", searchPlaces);
"""#
}
