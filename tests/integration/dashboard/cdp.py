"""Headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, each message
JSON ended by a NUL byte), so the tests need nothing beyond Debian's
chromium and python3: no WebSocket client, no npm package."""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, exe, width=1280, height=900):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        self._profile = tempfile.mkdtemp(prefix="cuzk-chromium-")

        def fds():  # in the child: its fd 3 reads our commands, its fd 4 carries the replies
            # Copies first: a pipe may already sit on 3 or 4, and dup2 onto itself
            # would keep its close-on-exec flag.
            r, w = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        args = [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--no-first-run", "--disable-extensions", "--mute-audio",
                "--remote-debugging-pipe", "--user-data-dir=" + self._profile,
                "--window-size=%d,%d" % (width, height), "about:blank"]
        self._proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buf = b""
        self._next_id = 0
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        if page is None:
            page = {"targetId": self.call("Target.createTarget", {"url": "about:blank"})["targetId"]}
        self._session = self.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})[
            "sessionId"]
        self.page("Page.enable")
        self.page("Runtime.enable")
        self.viewport(width, height)

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def call(self, method, params=None, session=None, timeout=30):
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            for reply in self._messages(deadline, method):
                if reply.get("id") == self._next_id:
                    if "error" in reply:
                        raise BrowserError("%s: %s" % (method, reply["error"]))
                    return reply.get("result", {})

    def _messages(self, deadline, what):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("no reply to %s" % what)
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError("chromium closed the pipe (exit %s)" % self._proc.poll())
                self._buf += chunk
        out = []
        while b"\0" in self._buf:
            raw, self._buf = self._buf.split(b"\0", 1)
            out.append(json.loads(raw))
        return out

    def page(self, method, params=None, timeout=30):
        return self.call(method, params, session=self._session, timeout=timeout)

    def viewport(self, width, height):
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def goto(self, url, settle_s=0.5):
        self.page("Page.navigate", {"url": url})
        deadline = time.monotonic() + 30
        while self.eval("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise BrowserError("%s did not finish loading" % url)
            time.sleep(0.1)
        time.sleep(settle_s)

    def eval(self, expr):
        r = self.page("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise BrowserError("%s: %s" % (expr, r["exceptionDetails"].get("text")))
        return r["result"].get("value")

    def wait_for(self, expr, timeout_s, what):
        """Evaluates expr until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout_s
        while True:
            v = self.eval(expr)
            if v:
                return v
            if time.monotonic() > deadline:
                raise BrowserError("timed out after %.0f s waiting for %s" % (timeout_s, what))
            time.sleep(0.1)

    def screenshot(self, path, width, full_page=True):
        height = 900
        if full_page:
            height = int(self.eval("Math.ceil(document.documentElement.scrollHeight)")) or 900
        self.viewport(width, height)
        time.sleep(0.3)
        data = self.page("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return height

    # Horizontal fit: the document is no wider than the window, and no element
    # scrolls sideways inside it (a box with overflow auto/scroll whose content
    # is wider than the box). Cells that clip with an ellipsis are fine.
    FIT = """(() => {
      const doc = document.documentElement;
      const scrollers = [...document.querySelectorAll('*')].filter((e) => {
        const o = getComputedStyle(e).overflowX;
        return (o === 'auto' || o === 'scroll') && e.scrollWidth > e.clientWidth + 1;
      }).map((e) => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' + e.scrollWidth +
                     '>' + e.clientWidth);
      return {scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth, scrollers};
    })()"""

    def fit(self, width):
        self.viewport(width, 900)
        time.sleep(0.3)
        return self.eval(self.FIT)
