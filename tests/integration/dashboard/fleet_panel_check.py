#!/usr/bin/env python3
"""The live page's Fleet panel in headless Chromium, without a daemon: a small
HTTP server of this script serves the page's files (src/server/dashboard) and
a /status whose `fleet` object has the layout of a fleet daemon's
(docs/PROTOCOL.md §6; FleetBridgeTest checks the daemon's side). The panel
must show every daemon with its heartbeat and the jobs it holds with their
lease and attempts, mark the expired lease, the stale and the unregistered
daemon in words, show the database's error when the read failed, and fit
1280 and 1920 px without scrolling sideways. Screenshots land in OUT_DIR
(dashboard-fleet-*.png). Exit 77 when Chromium is missing.

usage: fleet_panel_check.py DASHBOARD_DIR [OUT_DIR]
"""
import copy
import http.server
import json
import os
import shutil
import sys
import threading

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from cdp import Browser, BrowserError  # noqa: E402

# A status as a single daemon gives it (only what the page reads), idle.
BASE = {
    "uptime_secs": 42, "memory": {"total": 2 << 30, "used": 1 << 28, "available": (2 << 30) - (1 << 28),
                                  "peak": 1 << 29, "payloads": {"limit": 1 << 30, "used": 0},
                                  "recycled": {"limit": 1 << 28, "held": 0}},
    "devices": [{"ordinal": 0, "name": "cpu", "memory_kind": "host", "memory_total": 8 << 30,
                 "memory_free": 6 << 30, "workers": 2, "busy_workers": 0}],
    "gpu_workers": [], "synthesis": {"max_concurrent": 2, "active": 0}, "pipelines": [],
    "allocations": {"srs": [], "pce": []}, "counters": {"completed": 3, "failed": 0, "queue_depth": 0},
    "queues": [], "recent": [],
}

HELD = "window-post-deadline-17-partition-3#1042"
FLEET = {
    "daemon_id": "gpu-b/127.0.0.1:9820", "database": "postgresql://cuzk:***@db/cuzk", "lease_s": 30.0,
    "slots": 3, "running": 0, "claims": 7, "completed": 6, "lease_expiries": 1, "results_discarded": 0,
    "released": 0, "queue": {"queued": 4, "claimed": 3, "by_kind": []}, "view_age_s": 0.4,
    "view_truncated": False,
    "daemons": [
        {"daemon_id": "gpu-a/127.0.0.1:9820", "this_daemon": False, "heartbeat_age_s": 0.6, "capacity": 3,
         "jobs": [{"job_id": HELD, "proof_kind": "window-post", "priority": "high", "circuit_id": "wpost-32g",
                   "lease_remaining_s": 21.3, "attempts": 1, "max_attempts": 3},
                  {"job_id": "porep-c2-sector-9#1040", "proof_kind": "porep-c2", "priority": "normal",
                   "circuit_id": "porep-32g", "lease_remaining_s": 27.9, "attempts": 2, "max_attempts": 3}]},
        {"daemon_id": "gpu-b/127.0.0.1:9820", "this_daemon": True, "heartbeat_age_s": 0.2, "capacity": 3,
         "jobs": []},
        {"daemon_id": "gpu-c/127.0.0.1:9820", "this_daemon": False, "heartbeat_age_s": 95.0, "capacity": 2,
         "jobs": []},
        {"daemon_id": "gone-host", "this_daemon": False, "heartbeat_age_s": None, "capacity": 0,
         "jobs": [{"job_id": "snap-update-5#1001", "proof_kind": "snap-update", "priority": "normal",
                   "circuit_id": "snap-32g", "lease_remaining_s": -4.2, "attempts": 3, "max_attempts": 3}]},
    ],
}
ERROR = ("fleet database: fleet view: no answer from postgresql://cuzk:***@db/cuzk in time; connection dropped "
         "(SQLSTATE 57014)")

WIDTHS = (1280, 1920)


def fail(msg):
    print("fleet-panel-check: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def serve(page_dir, state):
    types = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
             ".css": "text/css; charset=utf-8"}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            path = self.path.split("?")[0]
            if path == "/status":
                body, ctype = json.dumps(state["status"]).encode(), "application/json"
            elif path in ("/", "/index.html", "/dashboard.js", "/dashboard.css"):
                name = "index.html" if path == "/" else path[1:]
                with open(os.path.join(page_dir, name), "rb") as f:
                    body = f.read()
                ctype = types[os.path.splitext(name)[1]]
            else:  # /live: a listener without a TIMELINE buffer
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


ROWS = """[...document.querySelectorAll('#fleetdaemons tbody tr')].map((r) => ({
  daemon: r.dataset.daemon || null, job: r.dataset.jobId || null,
  cells: [...r.cells].map((c) => c.textContent.trim())}))"""


def main():
    page_dir = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.getcwd()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("fleet panel check skipped: chromium not found (scripts/install-test-peers.sh installs it)")
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    status = dict(BASE, fleet=copy.deepcopy(FLEET))
    state = {"status": BASE}
    srv = serve(page_dir, state)
    url = "http://127.0.0.1:%d/" % srv.server_address[1]
    with Browser(exe, 1280, 900) as b:
        b.goto(url)
        b.wait_for("document.getElementById('conn').textContent === 'live'", 10, "the page to go live")
        if not b.eval("document.getElementById('fleet').hidden"):
            fail("the Fleet panel shows without a fleet object")
        state["status"] = status
        b.wait_for("!document.getElementById('fleet').hidden && "
                   "document.querySelectorAll('#fleetdaemons tbody tr').length === 5", 10, "the Fleet panel")
        rows = b.eval(ROWS)
        for r in rows:
            print("fleet-panel-check: " + " | ".join(r["cells"]))
        # One row per held job, one per daemon holding none, in the order given.
        want = [("gpu-a/127.0.0.1:9820", HELD), ("gpu-a/127.0.0.1:9820", "porep-c2-sector-9#1040"),
                ("gpu-b/127.0.0.1:9820", None), ("gpu-c/127.0.0.1:9820", None), ("gone-host", "snap-update-5#1001")]
        got = [(r["daemon"], r["job"]) for r in rows]
        if got != want:
            fail("rows %r, expected %r" % (got, want))
        held, second, me, stale, gone = (r["cells"] for r in rows)
        checks = [
            (held[0] == "gpu-a/127.0.0.1:9820", "the holder's name"),
            (held[1] == "0.6 s ago", "its heartbeat"),
            (held[2] == "3", "its slots"),
            (held[3] == HELD and held[4] == "window-post" and held[5] == "high", "the held job"),
            (held[6] == "21 s left", "its lease"),
            (held[7] == "1 of 3", "its attempts"),
            (second[0] == "" and second[6] == "28 s left" and second[7] == "2 of 3", "the holder's second job"),
            (me[0] == "gpu-b/127.0.0.1:9820 this daemon" and me[3] == "no job held", "this daemon, idle"),
            (stale[1] == "stale 1 min 35 s ago", "a daemon not seen for longer than a lease"),
            (gone[1] == "not registered" and gone[6] == "expired 4.2 s ago", "an unregistered holder, lease expired"),
        ]
        for ok, what in checks:
            if not ok:
                fail(what + " reads wrong")
        body = b.eval("document.getElementById('fleetbody').textContent")
        if "4 queued · 3 claimed" not in body or "gpu-b/127.0.0.1:9820" not in body:
            fail("this daemon's figures: %r" % body)
        for w in WIDTHS:
            b.viewport(w, 900)
            f = b.fit(w)
            if f["scrollWidth"] > f["innerWidth"] or f["scrollers"]:
                fail("the page at %d px: %r" % (w, f))
            b.screenshot(os.path.join(out, "dashboard-fleet-%d.png" % w), w)

        # The database did not answer: the error, no stale rows.
        failed = copy.deepcopy(status)
        for k in ("daemons", "view_truncated"):
            del failed["fleet"][k]
        failed["fleet"]["view_error"] = ERROR
        state["status"] = failed
        b.viewport(1280, 900)
        text = b.wait_for("!document.getElementById('fleeterror').hidden && "
                          "document.getElementById('fleeterror').textContent", 10, "the database error")
        if ERROR not in text:
            fail("the error reads %r" % text)
        rows = b.eval(ROWS)
        if len(rows) != 1 or rows[0]["daemon"] or rows[0]["cells"] != ["not available"]:
            fail("rows while the database is out of reach: %r" % rows)
        b.screenshot(os.path.join(out, "dashboard-fleet-error-1280.png"), 1280)
    srv.shutdown()
    print("fleet-panel-check: ok; screenshots in %s" % out)


if __name__ == "__main__":
    try:
        main()
    except BrowserError as e:
        fail(str(e))
