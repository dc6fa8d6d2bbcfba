"""Headless Chromium driven over the DevTools protocol (--remote-debugging-pipe: no extra packages, no network),
shared by the map page checks. Importing it exits 77 when no Chromium is installed."""
import json, os, shutil, subprocess, sys, tempfile, time

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
