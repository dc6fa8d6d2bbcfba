"""Headless Chromium driven over the DevTools protocol (--remote-debugging-pipe: no extra packages, no network),
shared by the map page checks, with the page's layout checks. Importing it exits 77 when no Chromium is installed."""
import base64, json, os, shutil, subprocess, sys, tempfile, time

browser = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)), None)
if browser is None:
    print("no chromium installed (apt-get install chromium)")
    sys.exit(77)


def fail(message):
    print("FAILED:", message)
    sys.exit(1)


class DevTools:
    """The DevTools protocol over the pipe Chromium reads on fd 3 and writes on fd 4 (NUL-separated JSON)."""

    def __init__(self):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def plumb():
            # os.pipe() descriptors are close-on-exec, and dup2 onto the same number keeps that: clear it explicitly.
            for source, target in ((to_browser_read, 3), (from_browser_write, 4)):
                if source != target:
                    os.dup2(source, target)
                os.set_inheritable(target, True)

        self.profile = tempfile.mkdtemp(prefix="wayfinder-chromium-")
        self.process = subprocess.Popen(
            [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking", "--remote-debugging-pipe",
             f"--user-data-dir={self.profile}", "--window-size=1000,700", "about:blank"],
            preexec_fn=plumb, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def call(self, method, params=None, session=True, timeout=20):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self.next_id:
                    if "error" in answer:
                        fail(f"{method}: {answer['error']}")
                    return answer.get("result", {})
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                fail("chromium closed the pipe")
            self.buffer += chunk
        fail(f"{method} timed out")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            fail(f"script error in {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.1)
        fail(f"timed out waiting for {what}")

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def click_button(self, element_id):
        x, y = self.evaluate(f"(() => {{ const r = document.getElementById('{element_id}').getBoundingClientRect();"
                             " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        self.click(x, y)

    def open_page(self, url, width, height, mobile=False, scale=1):
        """A new tab on a `width`×`height` screen showing `url`, once the page has read /info."""
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        self.viewport = (width, height)
        self.call("Page.navigate", {"url": url})
        self.wait_for_page()

    def wait_for_page(self):
        self.wait_for("document.readyState === 'complete' && document.body.dataset.ready === 'true'", "the page to load /info")

    def set_viewport(self, width, height, mobile=False, scale=1):
        """Emulates a screen: `mobile` applies the page's viewport meta tag and touch-style scroll bars, like a phone."""
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        self.viewport = (width, height)
        self.wait_for("wayfinderMap.view.width === document.getElementById('map').clientWidth && "
                      "wayfinderMap.view.height === document.getElementById('map').clientHeight", f"the page to take the {width} px screen")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"]))

    def drop_pin(self, lon, lat):
        """Clicks the map at a coordinate, after checking that the map (not a control) is what lies there."""
        count = self.evaluate("document.querySelectorAll('.pin').length")
        x, y = self.evaluate(f"wayfinderMap.screenPoint({lon}, {lat})")
        if not self.evaluate(f"(() => {{ const e = document.elementFromPoint({x}, {y}); return !!e && document.getElementById('map').contains(e); }})()"):
            fail(f"{lon},{lat} is at {x:.0f},{y:.0f}, which is not on the map (off screen or under a control)")
        self.click(x, y)
        if self.evaluate("document.querySelectorAll('.pin').length") != count + 1:
            fail(f"no pin was dropped by a click at {x:.0f},{y:.0f}")

    def check_layout(self, what, callouts_clear=True):
        """Fails when the page's layout is broken at the current viewport: a control outside the viewport, the toolbar
        under the zoom buttons, two controls (or the status / error box and a control) overlapping, text that does not
        fit its button, label, select, input, status or callout, a search box narrower than its placeholder, or (`callouts_clear`, after a fit) a callout off
        screen or under a control."""
        problems = self.evaluate(LAYOUT_CHECK % json.dumps(callouts_clear))
        # A phone widens its layout viewport (and shrinks the page) when something is wider than the screen.
        width, height = self.viewport
        inner = self.evaluate("[innerWidth, innerHeight, document.documentElement.scrollWidth]")
        if inner != [width, height, width]:
            problems.insert(0, f"the page lays out {inner[0]}x{inner[1]} px ({inner[2]} px of content) on a {width}x{height} screen")
        if problems:
            fail(f"layout at {width} px, {what}:\n  " + "\n  ".join(problems))

    def close(self):
        try:
            self.call("Browser.close", session=False, timeout=5)
        except SystemExit:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# The layout check, evaluated in the page; returns a list of problems.
LAYOUT_CHECK = """(() => {
  const callouts = %s, problems = [], W = innerWidth, H = innerHeight;
  const visible = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const name = e => (e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.className ? '.' + e.className.split(' ')[0] : ''))
    + (e.textContent.trim() ? ' "' + e.textContent.trim().slice(0, 24) + '"' : e.value ? ' "' + e.value.slice(0, 24) + '"' : '');
  const box = e => { const r = e.getBoundingClientRect(); return `${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`; };
  const meet = (a, b) => { const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom; };
  const inside = e => { const r = e.getBoundingClientRect(); return r.left >= 0 && r.top >= 0 && r.right <= W && r.bottom <= H; };
  const toolbar = document.getElementById('toolbar'), status = document.getElementById('status'), panel = document.getElementById('panel');
  const zoom = [...document.querySelectorAll('#zoom button')];
  // The toolbar's items (labels holding their select or input, buttons, the status line), the panel (search, results,
  // steps, favourites), the zoom buttons, the attribution.
  const items = [...toolbar.children].filter(visible), controls = [...items, ...[panel].filter(visible), ...zoom, document.getElementById('attribution')];
  const fields = [...toolbar.querySelectorAll('select, input, button')].filter(visible);
  for (const e of [toolbar, ...controls, ...fields]) if (!inside(e)) problems.push(`${name(e)} (${box(e)}) is not inside the ${W}x${H} viewport`);
  for (const z of zoom) if (meet(toolbar, z)) problems.push(`the toolbar (${box(toolbar)}) lies under the zoom button ${name(z)} (${box(z)})`);
  for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++)
    if (meet(controls[i], controls[j])) problems.push(`${name(controls[i])} (${box(controls[i])}) overlaps ${name(controls[j])} (${box(controls[j])})`);
  if (status.classList.contains('error') && visible(status))
    for (const e of [...fields, ...zoom]) if (meet(status, e)) problems.push(`the error ${name(status)} (${box(status)}) overlaps ${name(e)} (${box(e)})`);
  // Text that does not fit: overflowing boxes, and selects or date fields narrower than their natural width.
  const texts = document.querySelectorAll('#toolbar label, #toolbar button, #toolbar input, #zoom button, #status, #attribution, .callout, .callout input, .callout .eta, #panel button, #panel h2');
  for (const e of [...texts].filter(visible))
    if (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)
      problems.push(`the text of ${name(e)} is clipped: ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`);
  for (const e of [...toolbar.querySelectorAll('select, input:not([type=text]), button')].filter(visible)) {
    const probe = e.cloneNode(true);
    probe.removeAttribute('id');
    for (const p of ['font', 'padding', 'border', 'letter-spacing']) probe.style.setProperty(p, getComputedStyle(e).getPropertyValue(p));
    probe.style.cssText += ';position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none;left:0;top:0';
    if (e.tagName === 'SELECT') probe.selectedIndex = e.selectedIndex;
    document.body.appendChild(probe);
    const natural = probe.getBoundingClientRect().width, actual = e.getBoundingClientRect().width;
    probe.remove();
    if (actual < natural - 0.5) problems.push(`${name(e)} is ${actual.toFixed(1)} px wide, narrower than its text (${natural.toFixed(1)} px)`);
  }
  // The search box shows at least its whole placeholder ("Search places"), so there is room to type a name.
  const query = document.getElementById('query');
  if (query && visible(query)) {
    const probe = document.createElement('span'), style = getComputedStyle(query);
    probe.textContent = query.placeholder;
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;left:0;top:0;font:' + style.font;
    document.body.appendChild(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    const room = query.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (room < needed) problems.push(`the search box has ${room.toFixed(1)} px for text, less than its placeholder "${query.placeholder}" (${needed.toFixed(1)} px)`);
  }
  if (callouts) for (const c of [...document.querySelectorAll('.pin .callout, .place .callout')].filter(visible)) {
    if (!inside(c)) problems.push(`the callout ${name(c)} (${box(c)}) is not inside the viewport`);
    for (const e of [toolbar, panel, ...zoom]) if (meet(c, e)) problems.push(`the callout ${name(c)} (${box(c)}) lies under ${name(e)} (${box(e)})`);
  }
  return problems;
})()"""
