#!/usr/bin/env python3
"""bench/sameview.sh's helper (never run by the tests); standard library only (numpy, where present, only speeds up
decoding two PNGs that differ).

  sameview.py freeport                        prints a free TCP port on 127.0.0.1
  sameview.py wait-run URL TIMEOUT            polls GET URL (a run) every second until its status is finished;
                                              prints the status; exit 1 when TIMEOUT seconds pass first
  sameview.py screenshot URL PNG [WIDTH]      full-page screenshot of URL in headless Chromium, driven through
                                              chromedriver's W3C WebDriver API (no Selenium), once the page is settled
  sameview.py compare DIR                     compares DIR/before/ with DIR/after/ (run.json, report.md, report.html,
                                              page.png), writes DIR/summary.txt and the diffs, prints the summary;
                                              exit 0 when everything is identical, 1 otherwise
"""
import base64
import difflib
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib

FINISHED = ("succeeded", "failed", "cancelled", "interrupted")


# ---- small commands ----------------------------------------------------------------------------------------------

def freeport():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def wait_run(url, timeout):
    deadline = time.monotonic() + timeout
    status = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                status = json.load(r).get("status")
        except (OSError, ValueError) as e:
            status = f"unreadable ({e})"
        if status in FINISHED:
            print(status)
            return 0
        time.sleep(1)
    print(f"still {status} after {timeout:g} s", file=sys.stderr)
    return 1


# ---- the screenshot: chromedriver's W3C WebDriver API over HTTP --------------------------------------------------

# Whether the page has stopped changing: every image loaded, no "Loading…" text left, the document complete, and a
# signature of the DOM, its height and the resources fetched, compared between polls by the caller.
SETTLE_JS = r"""
const main = document.getElementById('main') || document.body;
const view = document.querySelector('[data-status]');
const text = main.innerText || '';
const html = document.documentElement.outerHTML;
let hash = 0;
for (let i = 0; i < html.length; i++) hash = (hash * 31 + html.charCodeAt(i)) | 0;
return {
  complete: document.readyState === 'complete',
  images: [...document.images].every(i => i.complete),
  loading: /\b(Loading|Looking for)\b/.test(text),
  status: view ? view.dataset.status : null,
  height: Math.ceil(Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)),
  signature: [hash, html.length, document.documentElement.scrollHeight,
              performance.getEntriesByType('resource').length].join(':'),
};
"""


class Driver:
    def __init__(self, chromedriver, chromium, width):
        self.profile = tempfile.mkdtemp(prefix="sameview-chromium-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = dict(os.environ, TZ="UTC", LANG="C.UTF-8", LC_ALL="C.UTF-8")  # times and numbers alike anywhere
        self.proc = subprocess.Popen([chromedriver, f"--port={self.port}"], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.session = None
        deadline = time.monotonic() + 30
        while True:
            try:
                self.call("GET", "/status")
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.close()
                    raise RuntimeError("chromedriver did not start")
                time.sleep(0.2)
        caps = {"browserName": "chrome", "goog:chromeOptions": {"binary": chromium, "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--disable-quic", "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-US",
            "--force-prefers-reduced-motion", f"--window-size={width},1000", f"--user-data-dir={self.profile}"]}}
        self.session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]
        self.call("POST", f"/session/{self.session}/timeouts", {"pageLoad": 60000, "script": 30000})

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"chromedriver {method} {path}: {e.code} {e.read()[:500]!r}") from None

    def run(self, script):
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": []})

    def cdp(self, cmd, params):
        return self.call("POST", f"/session/{self.session}/goog/cdp/execute", {"cmd": cmd, "params": params})

    def close(self):
        try:
            if self.session:
                self.call("DELETE", f"/session/{self.session}")
        except Exception:
            pass
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


def settle(driver, timeout, quiet_polls=4, every=0.5):
    """Polls the page until it is ready and its signature has not changed over quiet_polls polls; returns the last
    state and whether it settled before timeout."""
    deadline = time.monotonic() + timeout
    last, same = None, 0
    while True:
        state = driver.run(SETTLE_JS)
        ready = state["complete"] and state["images"] and not state["loading"] \
            and (state["status"] is None or state["status"] in FINISHED)
        same = same + 1 if ready and state["signature"] == last else 0
        last = state["signature"]
        if same >= quiet_polls:
            return state, True
        if time.monotonic() > deadline:
            return state, False
        time.sleep(every)


def screenshot(url, png, width=1400):
    chromedriver = os.environ.get("SAMEVIEW_CHROMEDRIVER", "/usr/bin/chromedriver")
    chromium = os.environ.get("SAMEVIEW_CHROMIUM", "/usr/bin/chromium")
    driver = Driver(chromedriver, chromium, width)
    try:
        driver.call("POST", f"/session/{driver.session}/url", {"url": url})
        state, settled = settle(driver, 60)
        # the whole page in one viewport (no stitching, nothing lazily left out): as tall as the document, then
        # settled again, since the layout may follow the viewport's height
        for _ in range(3):
            height = min(state["height"], 16000)
            driver.cdp("Emulation.setDeviceMetricsOverride",
                       {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            state, settled = settle(driver, 30)
            if min(state["height"], 16000) == height:
                break
        driver.run("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur && "
                   "document.activeElement.blur();")
        state, settled2 = settle(driver, 10, quiet_polls=2)
        shot = driver.cdp("Page.captureScreenshot", {"format": "png", "fromSurface": True})
        with open(png, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        note = "" if settled and settled2 else " (the page had NOT settled: still changing after the waits)"
        print(f"{width}x{height} px, status {state['status']}{note}")
        if state["height"] > 16000:
            print(f"page is {state['height']} px tall: only its first 16000 px were captured")
        return 0 if settled and settled2 else 3
    finally:
        driver.close()


# ---- PNG decoding (8-bit grey, RGB, grey+alpha, RGBA; not interlaced: what Chromium writes) ------------------------

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def read_png(path):
    """Returns (width, height, bytes per pixel, filtered scanlines as one bytes object)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    at, idat, ihdr = 8, [], None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        at += 12 + length
    width, height, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour not in CHANNELS or interlace:
        raise ValueError(f"{path}: bit depth {depth}, colour type {colour}, interlace {interlace}: not supported")
    raw = zlib.decompress(b"".join(idat))
    bpp = CHANNELS[colour]
    if len(raw) != height * (width * bpp + 1):
        raise ValueError(f"{path}: {len(raw)} bytes of scanlines, expected {height * (width * bpp + 1)}")
    return width, height, bpp, raw


def unfilter(width, height, bpp, raw):
    """The pixels, row after row (bytes), from filtered scanlines (PNG specification, section 9)."""
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    try:
        import numpy as np
    except ImportError:
        np = None
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if kind == 0:
            pass
        elif kind == 1 and np is not None:
            line = bytearray(np.cumsum(np.frombuffer(bytes(line), np.uint8).reshape(width, bpp), axis=0,
                                       dtype=np.uint8).tobytes())
        elif kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2 and np is not None:
            line = bytearray((np.frombuffer(bytes(line), np.uint8) + np.frombuffer(bytes(prev), np.uint8)).tobytes())
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        else:
            raise ValueError(f"row {y}: filter type {kind}")
        rows.append(bytes(line))
        prev = line
    return rows


def rgba(rows, bpp):
    """Rows of any supported colour type as RGBA, so that two files of different colour types compare."""
    if bpp == 4:
        return rows
    out = []
    for row in rows:
        px = [row[i:i + bpp] for i in range(0, len(row), bpp)]
        if bpp == 3:
            out.append(b"".join(p + b"\xff" for p in px))
        elif bpp == 1:
            out.append(b"".join(p * 3 + b"\xff" for p in px))
        else:
            out.append(b"".join(p[:1] * 3 + p[1:] for p in px))
    return out


def compare_png(a, b):
    """(differing pixels, pixels, a sentence): pixels that differ in any channel, over the larger of the two
    canvases (a pixel only one image has counts as differing)."""
    wa, ha, bpa, ra = read_png(a)
    wb, hb, bpb, rb = read_png(b)
    total = max(wa, wb) * max(ha, hb)
    if (wa, ha, bpa) == (wb, hb, bpb) and ra == rb:
        # the same filtered scanlines decode to the same pixels: no need to decode
        return 0, total, f"{wa}x{ha} both, scanlines identical"
    pa, pb = unfilter(wa, ha, bpa, ra), unfilter(wb, hb, bpb, rb)
    if bpa != bpb:
        pa, pb, bpa = rgba(pa, bpa), rgba(pb, bpb), 4
    bpp = bpa
    w, h = min(wa, wb), min(ha, hb)
    differ = total - w * h
    box = None
    for y in range(h):
        x_row, y_row = pa[y][:w * bpp], pb[y][:w * bpp]
        if x_row == y_row:
            continue
        for x in range(w):
            if x_row[x * bpp:(x + 1) * bpp] != y_row[x * bpp:(x + 1) * bpp]:
                differ += 1
                box = (x, y, x, y) if box is None else (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y))
    sizes = f"{wa}x{ha} both" if (wa, ha) == (wb, hb) else f"before {wa}x{ha}, after {wb}x{hb}"
    where = f"; differing pixels within x {box[0]}..{box[2]}, y {box[1]}..{box[3]}" if box else ""
    return differ, total, sizes + where


# ---- JSON and text -----------------------------------------------------------------------------------------------

def short(v, n=120):
    s = json.dumps(v, sort_keys=True)
    return s if len(s) <= n else s[:n - 1] + "…"


def json_differences(a, b, path="$"):
    """Every place where two JSON values differ, as lines: a changed value, a key or element only one side has."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            p = f"{path}.{k}"
            if k not in b:
                out.append(f"{p}: only before: {short(a[k])}")
            elif k not in a:
                out.append(f"{p}: only after: {short(b[k])}")
            else:
                out += json_differences(a[k], b[k], p)
        return out
    if isinstance(a, list) and isinstance(b, list):
        out = []
        for i in range(max(len(a), len(b))):
            p = f"{path}[{i}]"
            if i >= len(b):
                out.append(f"{p}: only before: {short(a[i])}")
            elif i >= len(a):
                out.append(f"{p}: only after: {short(b[i])}")
            else:
                out += json_differences(a[i], b[i], p)
        return out
    # strict: 1 and 1.0 (an integer became a double) or true and 1 differ, as their JSON texts do
    if a == b and type(a) is type(b):
        return []
    return [f"{path}: before {short(a)}, after {short(b)}"]


def compare(folder):
    before, after = os.path.join(folder, "before"), os.path.join(folder, "after")
    lines, same = [], True

    def missing(name):
        gone = [side for side in (before, after) if not os.path.exists(os.path.join(side, name))]
        return f"missing in {', '.join(os.path.basename(g) + '/' for g in gone)}" if gone else None

    # the run's JSON, canonical: parsed, keys sorted; nothing ignored
    m = missing("run.json")
    if m:
        lines.append(f"JSON: {m}")
        same = False
    else:
        a, b = (json.load(open(os.path.join(side, "run.json"))) for side in (before, after))
        for side, value in (("before", a), ("after", b)):
            with open(os.path.join(folder, f"run-{side}.canonical.json"), "w") as f:
                json.dump(value, f, sort_keys=True, indent=1, ensure_ascii=False)
                f.write("\n")
        diffs = json_differences(a, b)
        if diffs:
            same = False
            with open(os.path.join(folder, "json.diff.txt"), "w") as f:
                f.write("\n".join(diffs) + "\n")
            lines.append(f"JSON: {len(diffs)} difference{'' if len(diffs) == 1 else 's'} (json.diff.txt)")
            lines += [f"  {d}" for d in diffs[:20]]
            if len(diffs) > 20:
                lines.append(f"  … {len(diffs) - 20} more")
        else:
            lines.append("JSON: identical")

    for name, label in (("report.md", "report (Markdown)"), ("report.html", "report (HTML)")):
        m = missing(name)
        if m:
            lines.append(f"{label}: {m}")
            same = False
            continue
        a, b = (open(os.path.join(side, name), "rb").read() for side in (before, after))
        if a == b:
            lines.append(f"{label}: identical")
            continue
        same = False
        diff = list(difflib.unified_diff(a.decode("utf-8", "replace").splitlines(),
                                         b.decode("utf-8", "replace").splitlines(),
                                         f"before/{name}", f"after/{name}", lineterm="", n=1))
        with open(os.path.join(folder, f"{name}.diff"), "w") as f:
            f.write("\n".join(diff) + "\n")
        changed = sum(1 for d in diff if d[:1] in "+-" and d[:3] not in ("+++", "---"))
        lines.append(f"{label}: differs, {changed} line{'' if changed == 1 else 's'} changed ({name}.diff)")
        lines += [f"  {d}" for d in diff[2:14]]

    m = missing("page.png")
    if m:
        lines.append(f"screenshot: {m}")
        same = False
    else:
        n, total, detail = compare_png(os.path.join(before, "page.png"), os.path.join(after, "page.png"))
        same &= n == 0
        lines.append(f"screenshot: {n} of {total} pixels differ ({detail})")

    lines.append("=> identical everywhere" if same else "=> DIFFERENCES (see above)")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(folder, "summary.txt"), "a") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0 if same else 1


def main(argv):
    if len(argv) >= 1 and argv[0] == "freeport":
        return freeport()
    if len(argv) == 3 and argv[0] == "wait-run":
        return wait_run(argv[1], float(argv[2]))
    if len(argv) in (3, 4) and argv[0] == "screenshot":
        return screenshot(argv[1], argv[2], int(argv[3]) if len(argv) == 4 else 1400)
    if len(argv) == 2 and argv[0] == "compare":
        return compare(argv[1])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) or 0)
