#!/usr/bin/python3
"""Times the client's DOM sync on a 1,000-row table in headless Chromium (not a test: prints medians).

Each figure is the median of N runs of ListClient's own update path (patch applied to the view
document, keyed DOM sync, scroll anchoring, FLIP setup) plus a forced layout, in milliseconds.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Browser, FixtureList, FixtureServer  # noqa: E402

BENCH_JS = """
const [name, runs] = arguments;
const t = document.querySelector('table.list');
const v = ListClient.get(t);
const row = (k, n) => ({key: k, html: `<tr data-row="${k}"><td>Row ${k}</td><td class="num">${n}</td></tr>`});
const cases = {
  'no-op update': () => [],
  'replace one row': (i) => [{op: 'replace', path: '/sections/4/rows/50/html', value: row('r450', i).html}],
  'insert at top, remove it': (i) => i % 2 ? [{op: 'remove', path: '/sections/0/rows/0'}] : [{op: 'add', path: '/sections/0/rows/0', value: row('x', i)}],
  'move across sections': (i) => i % 2 ? [{op: 'move', from: '/sections/8/rows/0', path: '/sections/1/rows/3'}]
                                        : [{op: 'move', from: '/sections/1/rows/3', path: '/sections/8/rows/0'}],
  'applyPatch only (copy of a 1,000-row view)': null,
};
const times = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  if (cases[name]) {
    v.update(ListClient.applyPatch(v.doc, cases[name](i)), String(100 + i));
  } else {
    ListClient.applyPatch(v.doc, [{op: 'replace', path: '/title', value: 't' + i}]);
  }
  void document.body.offsetHeight;
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
return times[times.length >> 1];
"""


def main():
    server = FixtureServer().start()
    browser = Browser()
    fixture = FixtureList.generated("bench", [100] * 10, "Bench")
    server.add_list(fixture, limit=1000)
    results = {}
    try:
        for motion in ("reduced motion", "animated"):
            browser.open(server.page_url("bench"), {"live": False, "animationMs": 1}, reduced_motion=motion == "reduced motion")
            browser.js("document.querySelector('tr[data-row=\"r500\"]').scrollIntoView()")
            # The first sync compares every server-rendered row once (parsing its markup).
            first = browser.js("""const v = ListClient.get(document.querySelector('table.list'));
                const s = performance.now(); v.update(ListClient.applyPatch(v.doc, []), '99');
                void document.body.offsetHeight; return performance.now() - s""")
            results[(motion, "first sync against the server-rendered DOM (1 run)")] = first
            for name in ("no-op update", "replace one row", "insert at top, remove it", "move across sections",
                         "applyPatch only (copy of a 1,000-row view)"):
                results[(motion, name)] = browser.js(BENCH_JS, name, 41)
        print(f"{'case':58} {'reduced motion':>15} {'animated':>10}")
        names = dict.fromkeys(name for _, name in results)
        for name in names:
            print(f"{name:58} {results[('reduced motion', name)]:>13.2f}ms {results[('animated', name)]:>8.2f}ms")
        import gzip
        modules = sorted((Path(__file__).resolve().parents[2] / "Public" / "js").glob("*.js"))
        sizes = [(len(m.read_bytes()), len(gzip.compress(m.read_bytes(), 9))) for m in modules]
        print(f"Public/js/*.js ({len(modules)} modules): {sum(s for s, _ in sizes)} bytes, "
              f"{sum(g for _, g in sizes)} gzipped one by one")
        print(json.dumps({f"{m}: {n}": round(t, 3) for (m, n), t in results.items()}))
    finally:
        browser.quit()
        server.stop()


if __name__ == "__main__":
    main()
