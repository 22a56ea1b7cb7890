#!/usr/bin/env python3
"""The daemon's live page as a person sees it, in headless Chromium: the page
loads from the status listener, shows the device; a batch starts, a job
appears in flight and then among the completed ones, with a utilization
figure; screenshots at 1280 and 1920 px; the page and the timeline report
(made from the daemon's GET /timeline) fit both widths without scrolling
sideways. Run by tests/integration/dashboard/run.sh.

usage: dashboard_check.py URL OUT_DIR CUZK_BENCH -- BATCH_COMMAND...
"""
import os
import shutil
import subprocess
import sys
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from cdp import Browser, BrowserError  # noqa: E402

WIDTHS = (1280, 1920)


def fail(msg):
    print("dashboard-check: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check_fit(b, what, out):
    for w in WIDTHS:
        f = b.fit(w)
        print("dashboard-check: %s at %d px: document %d px wide, inner scrollers: %s" %
              (what, w, f["scrollWidth"], f["scrollers"] or "none"))
        if f["scrollWidth"] > f["innerWidth"]:
            fail("%s is %d px wide in a %d px window" % (what, f["scrollWidth"], f["innerWidth"]))
        if f["scrollers"]:
            fail("%s at %d px has boxes that scroll sideways: %s" % (what, w, f["scrollers"]))


def main():
    sep = sys.argv.index("--")
    url, out, bench = sys.argv[1:sep]
    batch_cmd = sys.argv[sep + 1:]
    browser_exe = shutil.which("chromium") or shutil.which("chromium-browser")
    os.makedirs(out, exist_ok=True)
    batch = None
    with Browser(browser_exe, 1280, 900) as b:
        b.goto(url)
        device = b.wait_for("(document.querySelector('#devices .card.device h2') || {}).textContent", 20,
                            "the device card")
        print("dashboard-check: device card: %s" % device)
        if "Device 0" not in device:
            fail("device card reads %r" % device)
        # "live": /status and /live answered and every part rendered (a script error reads otherwise).
        b.wait_for("document.getElementById('conn').textContent === 'live'", 10, "the page to go live")

        batch = subprocess.Popen(batch_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        job = b.wait_for("""(() => { const r = document.querySelector('#jobs tbody tr[data-job-id]');
                                     return r && {id: r.dataset.jobId, stage: r.querySelector('.stage').textContent}; })()""",
                         60, "a job in flight")
        print("dashboard-check: in flight: %s (%s)" % (job["id"], job["stage"]))
        b.screenshot(os.path.join(out, "dashboard-inflight-1280.png"), 1280)
        b.viewport(1280, 900)
        done = b.wait_for("""(() => { const r = document.querySelector(
                                 '#recent tr[data-job-id="%s"]');
                                 return r && r.dataset.status; })()""" % job["id"], 90, "its completion")
        if done != "completed":
            fail("job %s ended %s" % (job["id"], done))
        print("dashboard-check: %s completed" % job["id"])
        out_text, _ = batch.communicate(timeout=120)
        if batch.returncode != 0:
            fail("the batch failed:\n" + out_text)
        busy = b.wait_for("""(() => { const e = document.querySelector('#devices [data-busy]');
                                      return e && Number(e.dataset.busy) > 0 && e.textContent; })()""", 20,
                          "a utilization figure above 0")
        verdict = b.wait_for("(document.querySelector('#verdict .badge') || {}).textContent", 20, "a verdict")
        if b.eval("document.getElementById('conn').textContent") != "live":
            fail("the page lost the daemon: " + b.eval("document.getElementById('conn').textContent"))
        # One bar per partition the daemon logged as done on a device (all in the 5-minute window).
        with urllib.request.urlopen(url.rstrip("/") + "/timeline", timeout=10) as r:
            timeline = r.read().decode()
        ended = sum(1 for l in timeline.splitlines() if l.split(",")[2:3] == ["GPU_END"])
        bars = b.wait_for("(() => { const n = document.querySelectorAll('#waterfall svg rect.bar').length; "
                          "return n === %d && n; })()" % ended, 10, "%d device bars in the waterfall" % ended)
        print("dashboard-check: utilization %r, verdict %r, %d device bars in the waterfall" % (busy, verdict, bars))
        # The last minute fills the picture (the page opens on five).
        b.eval("(() => { const s = document.getElementById('window'); s.value = '60'; "
               "s.dispatchEvent(new Event('change')); return true; })()")
        b.wait_for("(document.querySelector('#waterfall svg .title') || {}).textContent === 'last 1 min'", 10,
                   "the one-minute waterfall")
        for w in WIDTHS:
            b.viewport(w, 900)
            b.wait_for("document.querySelector('#waterfall svg') && "
                       "document.querySelector('#waterfall svg').getAttribute('width') <= %d" % w, 10,
                       "the waterfall redrawn for %d px" % w)
            b.screenshot(os.path.join(out, "dashboard-%d.png" % w), w)
        check_fit(b, "the live page", out)

        # The report of the same events, read back from the daemon's buffer.
        log = os.path.join(out, "dashboard-timeline.log")
        with open(log, "w") as f:
            f.write(timeline)
        report = os.path.join(out, "dashboard-report.html")
        subprocess.run([bench, "timeline", "html", log, "-o", report], check=True, stdout=subprocess.DEVNULL)
        b.goto("file://" + os.path.abspath(report))
        if not b.eval("!!document.querySelector('figure svg')"):
            fail("the report has no waterfall")
        b.screenshot(os.path.join(out, "dashboard-report-1280.png"), 1280)
        check_fit(b, "the timeline report", out)
    print("dashboard-check: ok; screenshots in %s" % out)


if __name__ == "__main__":
    try:
        main()
    except BrowserError as e:
        fail(str(e))
