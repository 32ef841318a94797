#!/usr/bin/python3
"""Times page loads of a real list page in headless Chromium, two builds interleaved (not a test).

    bench_load.py A_BIN:A_PUBLIC B_BIN:B_PUBLIC [C_BIN:C_PUBLIC ...] [rounds] [list] [--via PATH]

A build given as `BIN:PUBLIC:reader` runs with a write token (`--token`), so that its page is a
reader's, who may not write (no `data-editable`, no editing mode); without it the demo server has
no tokens and every page is a writer's. Starts the servers (`--demo`, `--public` of each), then loads `/lists/LIST` (default `numbers`)
from each in turn (A B, then B A, and so on: `rounds` of each, default 15), first with the browser cache
disabled (every script fetched whole), then with it on (scripts revalidated: `no-cache`, 304).
Each load starts from `about:blank` (another site: the page's renderer starts with an empty
memory cache), or with `--via PATH` from that page of the same server (e.g. `/`, the index: a
reader going from the index to a list, the renderer's memory cache warm with what the page
before it loaded).
Per load, in ms from navigation start: `enhanced` (the table got `list-enhanced`: the client ran),
`dcl` (DOMContentLoaded ended), `first event` (the live stream's first event, `subscription`),
`html` (the page's last byte), `parsed` (`domInteractive`: the HTML parsed), `edit` (on a
`data-editable` table, the editing mode's toolbar is in the page), and the scripts: when the last
one arrived, how many the page loaded and how many of them came over the network (the others
from the browser's cache). Prints the medians, and the gzip bytes of the scripts as served.
"""
import gzip
import http.client
import os
import re
import statistics
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import testkit  # noqa: E402
from harness import Browser, wait_until  # noqa: E402

HOOK = """
window.__t = {};
const NativeEventSource = window.EventSource;
window.EventSource = class extends NativeEventSource {
  constructor(url, init) {
    super(url, init);
    this.addEventListener('subscription', () => { window.__t.event ??= performance.now(); });
  }
};
new MutationObserver((records, observer) => {
  if (window.__t.enhanced || !document.querySelector('table.list.list-enhanced')) return;
  window.__t.enhanced = performance.now();
  observer.disconnect();
  // The editing mode of a table the server marked data-editable: its toolbar, now or later.
  if (!document.querySelector('table.list[data-editable="true"]')) return;
  const edited = () => {
    if (window.__t.edit || !document.querySelector('div.edit-toolbar')) return false;
    window.__t.edit = performance.now();
    return true;
  };
  if (!edited()) new MutationObserver((_, o) => { if (edited()) o.disconnect(); }).observe(document.body, {childList: true, subtree: true});
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});
"""

RESULT_JS = """
const nav = performance.getEntriesByType('navigation')[0];
const scripts = performance.getEntriesByType('resource').filter((r) => r.initiatorType === 'script' || /\\.js$/.test(r.name));
return {enhanced: window.__t.enhanced, event: window.__t.event, dcl: nav.domContentLoadedEventEnd,
        html: nav.responseEnd, parsed: nav.domInteractive, edit: window.__t.edit ?? null,
        scripts: scripts.length, fetched: scripts.filter((r) => r.transferSize > 0).length,
        scriptsDone: Math.max(0, ...scripts.map((r) => r.responseEnd))};
"""


def scripts_of(server, list_id):
    """The script URLs a page loads: its <script src> and, for modules, their imports."""
    def get(path):
        conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = conn.getresponse()
        body = response.read()
        conn.close()
        return response, body
    _, page = get(f"/lists/{list_id}")
    todo = re.findall(r'<script[^>]*src="([^"]+)"', gzip.decompress(page).decode() if page[:2] == b"\x1f\x8b" else page.decode())
    seen, sizes = [], {}
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        response, body = get(path)
        plain = gzip.decompress(body) if response.getheader("Content-Encoding") == "gzip" else body
        sizes[path] = (len(plain), len(body), response.getheader("Content-Type"), response.getheader("Cache-Control"))
        text = plain.decode()
        static = re.findall(r"""^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]""", text, re.M)
        dynamic = re.findall(r"""(?<![\w.])import\(\s*['"]([^'"]+\.js)['"]\s*\)(?!\.)""", text)  # not JSDoc types
        for target in static + dynamic:
            todo.append(urllib.parse.urljoin(path, target))
    return sizes



def start_servers(builds):
    """A demo server per `(BIN, PUBLIC[, "reader"])`; a reader's runs with a write token, so its
    page is one who may not write."""
    servers = []
    for binary, public, *kind in builds:
        testkit.os.environ["LIST_SERVER_BIN"] = binary
        flags = ["--token", "bench-" + os.urandom(8).hex()] if kind == ["reader"] else []
        servers.append(testkit.Server(*flags, demo=True, public=public))
    return servers

def main():
    args = sys.argv[1:]
    via = None
    if "--via" in args:
        at = args.index("--via")
        via = args[at + 1]
        del args[at:at + 2]
    builds = [arg.split(":", 2) for arg in args if ":" in arg]
    rest = [arg for arg in args if ":" not in arg]
    pairs = int(rest[0]) if rest else 15
    list_id = rest[1] if len(rest) > 1 else "numbers"
    servers = start_servers(builds)
    browser = Browser()
    driver = browser.driver
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    driver.execute_cdp_cmd("Network.enable", {})
    results = {}
    for which, build in zip("ABCDEFGH", builds):
        print(f"{which}: {':'.join(build)}")
    print(f"each load from {via or 'about:blank'}; load average before: {os.getloadavg()}", flush=True)
    named = list(zip("ABCDEFGH", servers))
    try:
        for cache in ("cache disabled", "cache on (304s)"):
            driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": cache == "cache disabled"})
            for which, server in named:  # warm-up, not counted
                driver.get(server.page_url(list_id))
                wait_until(lambda: driver.execute_script("return window.__t && window.__t.event"), 10, 0.01)
            for round_ in range(pairs):
                for which, server in (named if round_ % 2 == 0 else named[::-1]):  # A B, B A, ...
                    driver.get(server.url(via) if via else "about:blank")
                    driver.get(server.page_url(list_id))
                    wait_until(lambda: driver.execute_script("return window.__t && window.__t.event"), 10, 0.01)
                    r = driver.execute_script(RESULT_JS)
                    results.setdefault((cache, which), []).append(r)
        print(f"load average after: {os.getloadavg()}")
        print("medians in ms from navigation start (quartiles in brackets)")
        columns = [("html", "html"), ("parsed", "parsed"), ("scriptsDone", "scripts done"), ("enhanced", "enhanced"),
                   ("dcl", "dcl"), ("edit", "edit mode"), ("event", "1st event")]
        print(f"{'':18} {'':2} " + " ".join(f"{title:>18}" for _, title in columns) + f" {'scripts':>8} {'fetched':>8}")
        for (cache, which), runs in sorted(results.items()):
            def med(key):
                values = [r[key] for r in runs if r[key] is not None]
                if len(values) < 2:
                    return "-"
                q = statistics.quantiles(values, n=4)
                return f"{q[1]:6.1f} [{q[0]:4.0f}-{q[2]:4.0f}]"
            print(f"{cache:18} {which:2} " + " ".join(f"{med(key):>18}" for key, _ in columns)
                  + f" {int(statistics.median(r['scripts'] for r in runs)):8d}"
                  + f" {int(statistics.median(r['fetched'] for r in runs)):8d}")
        for cache in sorted({cache for cache, _ in results}):
            a = results.get((cache, "A"))
            for which, _ in named[1:]:
                b = results.get((cache, which))
                if not a or not b:
                    continue
                deltas = {key: statistics.median(y[key] - x[key] for x, y in zip(a, b)) for key in ("enhanced", "event")}
                print(f"{cache:18} {which} - A, median of the round pairs: enhanced {deltas['enhanced']:+.1f} ms, "
                      f"1st event {deltas['event']:+.1f} ms")
        for which, server in named:
            sizes = scripts_of(server, list_id)
            plain = sum(s[0] for s in sizes.values())
            packed = sum(s[1] for s in sizes.values())
            types = sorted({f"{s[2]} / {s[3]}" for s in sizes.values()})
            print(f"{which}: {len(sizes)} scripts, {plain} bytes, {packed} bytes gzip as served; {types}")
    finally:
        browser.quit()
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
