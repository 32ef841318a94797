#!/usr/bin/python3
"""Times page loads of a real list page in headless Chromium, two builds interleaved (not a test).

    bench_load.py A_BIN:A_PUBLIC B_BIN:B_PUBLIC [C_BIN:C_PUBLIC ...] [rounds] [list]

Starts the servers (`--demo`, `--public` of each), then loads `/lists/LIST` (default `numbers`)
from each in turn (A B, then B A, and so on: `rounds` of each, default 15), first with the browser cache
disabled (every script fetched whole), then with it on (scripts revalidated: `no-cache`, 304).
Per load, in ms from navigation start: `enhanced` (the table got `list-enhanced`: the client ran),
`dcl` (DOMContentLoaded ended), `first event` (the live stream's first event, `subscription`),
and the scripts' requests. Prints the medians, and the gzip bytes of the scripts as served.
"""
import gzip
import http.client
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
new MutationObserver((records) => {
  if (!window.__t.enhanced && document.querySelector('table.list.list-enhanced')) window.__t.enhanced = performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});
"""

RESULT_JS = """
const nav = performance.getEntriesByType('navigation')[0];
const scripts = performance.getEntriesByType('resource').filter((r) => r.initiatorType === 'script' || /\\.js$/.test(r.name));
return {enhanced: window.__t.enhanced, event: window.__t.event, dcl: nav.domContentLoadedEventEnd,
        scripts: scripts.length, scriptsDone: Math.max(0, ...scripts.map((r) => r.responseEnd))};
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
        for target in re.findall(r"""^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]""", plain.decode(), re.M):
            todo.append(urllib.parse.urljoin(path, target))
    return sizes


def main():
    builds = [arg.split(":", 1) for arg in sys.argv[1:] if ":" in arg]
    rest = [arg for arg in sys.argv[1:] if ":" not in arg]
    pairs = int(rest[0]) if rest else 15
    list_id = rest[1] if len(rest) > 1 else "numbers"
    servers = []
    for binary, public in builds:
        testkit.os.environ["LIST_SERVER_BIN"] = binary
        servers.append(testkit.Server(demo=True, public=public))
    browser = Browser()
    driver = browser.driver
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    driver.execute_cdp_cmd("Network.enable", {})
    results = {}
    named = list(zip("ABCDEFGH", servers))
    try:
        for cache in ("cache disabled", "cache on (304s)"):
            driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": cache == "cache disabled"})
            for which, server in named:  # warm-up, not counted
                driver.get(server.page_url(list_id))
                wait_until(lambda: driver.execute_script("return window.__t && window.__t.event"), 10, 0.01)
            for round_ in range(pairs):
                for which, server in (named if round_ % 2 == 0 else named[::-1]):  # A B, B A, ...
                    driver.get("about:blank")
                    driver.get(server.page_url(list_id))
                    wait_until(lambda: driver.execute_script("return window.__t && window.__t.event"), 10, 0.01)
                    r = driver.execute_script(RESULT_JS)
                    results.setdefault((cache, which), []).append(r)
        print("medians in ms from navigation start (quartiles in brackets)")
        print(f"{'':18} {'':2} {'enhanced':>18} {'dcl':>18} {'1st event':>18} {'scripts done':>18} {'scripts':>8}")
        for (cache, which), runs in sorted(results.items()):
            def med(key):
                q = statistics.quantiles([r[key] for r in runs], n=4)
                return f"{q[1]:6.1f} [{q[0]:4.0f}-{q[2]:4.0f}]"
            print(f"{cache:18} {which:2} {med('enhanced'):>18} {med('dcl'):>18} {med('event'):>18} "
                  f"{med('scriptsDone'):>18} {int(statistics.median(r['scripts'] for r in runs)):8d}")
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
