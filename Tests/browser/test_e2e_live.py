#!/usr/bin/python3
"""Live updates end to end (issue 7): two Chromium sessions on one list of the real list-server,
writes through real `curl` (subprocess).

After each write both sessions' tables must converge (polled for a few seconds: the assertion
is the DOM, not a timing) to what a fresh page load renders: the sequence of `data-section` and
`data-row` keys, each row's, header's and footer's outerHTML, the caption, the status body and
whether a pagination body shows. What the client adds for its animations is ignored: the
`list-enter`/`list-leave` classes and inline `style` of rows, and rows leaving (they have lost
`data-row`). Starts `list-server --port 0 --db :memory: --quiet --demo`; uses LIST_SERVER_BIN,
else the package's debug build (a missing binary fails the file).
"""
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, equal, other_browser, run  # noqa: E402

CONFIG = {"reconnectBase": 100, "retryBase": 50, "animationMs": 60}
CONVERGE_TIMEOUT = 5  # seconds; the writes normally show in well under one

# The table as comparable data; arguments[0] is the live table, or the HTML of a fresh page.
SNAPSHOT_JS = """
const table = arguments[0] instanceof Element ? arguments[0]
  : new DOMParser().parseFromString(arguments[0], 'text/html').querySelector('table.list');
const clean = (el) => {
  if (!el) return null;
  const copy = el.cloneNode(true);
  for (const e of [copy, ...copy.querySelectorAll('*')]) {
    e.classList.remove('list-enter', 'list-leave');
    if (e.getAttribute('class') === '') e.removeAttribute('class');
    e.removeAttribute('style');
  }
  return copy.outerHTML;
};
return {
  caption: table.caption ? table.caption.textContent : null,
  head: clean(table.tHead && table.tHead.rows[0]),
  sections: Array.from(table.tBodies)
    .filter((b) => b.hasAttribute('data-section') && !b.classList.contains('list-leave')).map((b) => ({
      key: b.getAttribute('data-section'),
      header: clean(b.querySelector(':scope > tr.section-header')),
      footer: clean(b.querySelector(':scope > tr.section-footer')),
      rows: Array.from(b.rows).filter((r) => r.hasAttribute('data-row')).map((r) => [r.getAttribute('data-row'), clean(r)]),
    })),
  status: clean(table.querySelector(':scope > tbody.status')),
  more: !!table.querySelector(':scope > tbody.pagination'),
};
"""

KEYS_JS = "return Array.from(document.querySelectorAll('table.list tr[data-row]'), (r) => r.dataset.row)"


def document(sections, title="Live"):
    """A list document from [(section key, header, [(row key, name, n)])]."""
    return {"title": title,
            "columns": [{"key": "name", "title": "Name"}, {"key": "n", "title": "Number", "kind": "number"}],
            "sections": [{"key": key, "header": header, "footer": f"{len(rows)} rows",
                          "rows": [row(*r) for r in rows]} for key, header, rows in sections]}


def row(key, name, n=0):
    return {"key": key, "cells": {"name": name, "n": n}}


def numbered(sizes, prefix="r"):
    out, n = [], 0
    for s, size in enumerate(sizes):
        out.append((f"s{s}", f"Section {s}", [(f"{prefix}{n + i}", f"Row {n + i}", n + i) for i in range(size)]))
        n += size
    return out


def connect(browser, url):
    browser.open(url, CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the stream")


def fresh_page(server, list_id):
    """The HTML of a fresh page load holding every row (the lists here stay under 500 rows)."""
    import subprocess
    return subprocess.run(["curl", "-sS", "--max-time", "10", server.page_url(list_id) + "?limit=500"],
                          capture_output=True, text=True, check=True, timeout=15).stdout


def converge(server, list_id, sessions, version, what):
    """Waits until every session shows `version` and the table a fresh page renders; returns
    the seconds the slowest took."""
    page = fresh_page(server, list_id)
    started = time.time()
    for i, browser in enumerate(sessions):
        expected = browser.js(SNAPSHOT_JS, page)
        deadline = started + CONVERGE_TIMEOUT
        while True:
            shown = browser.js("return document.querySelector('table.list').dataset.version")
            live = browser.js(SNAPSHOT_JS, browser.table())
            if shown == version and live == expected:
                break
            if time.time() > deadline:
                equal(live, expected, f"session {i + 1} after {what} (version {shown}, expected {version})")
                raise AssertionError(f"session {i + 1} after {what}: version {shown}, expected {version}")
            time.sleep(0.02)
    return time.time() - started


def no_page_errors(browser, who):
    errors = browser.js("return window.__errors || []")
    check(not errors, f"{who}: script errors or CSP violations: {errors}")


def test_writes_show_in_both_sessions(server, browser):
    second = other_browser()
    server.write("PUT", "/lists/live", document(numbered([4, 4, 4])))
    for b in (browser, second):
        connect(b, server.page_url("live"))
    sessions = [browser, second]
    writes = [
        ("a row appended to the first section", "POST", "/lists/live/sections/s0/rows", [row("a1", "Appended", 100)], None),
        ("a row inserted before r5", "POST", "/lists/live/sections/s1/rows?before=r5", [row("b1", "Inserted", 101)], None),
        ("a row replaced", "PUT", "/lists/live/rows/r2", row("r2", "Replaced <b>bold</b> & more", 2002), None),
        ("a row deleted", "DELETE", "/lists/live/rows/r6", None, None),
        ("a row moved across sections (PATCH)", "PATCH", "/lists/live",
         [{"op": "move", "from": "/sections/0/rows/1", "path": "/sections/2/rows/0"}], "application/json-patch+json"),
        ("a section header changed (PATCH)", "PATCH", "/lists/live",
         [{"op": "replace", "path": "/sections/1/header", "value": "Renamed section"}], "application/json-patch+json"),
        ("a section footer and a cell changed (PATCH)", "PATCH", "/lists/live",
         [{"op": "replace", "path": "/sections/2/footer", "value": "New footer"},
          {"op": "replace", "path": "/sections/2/rows/0/cells/n", "value": 7}], "application/json-patch+json"),
        ("a row appended after the window's end (both tail-load it)", "POST", "/lists/live/sections/s2/rows",
         [row("z1", "At the end", 999)], None),
    ]
    times = []
    for what, method, path, body, ctype in writes:
        version = server.write(method, path, body, ctype or "application/json")
        times.append(converge(server, "live", sessions, version, what))
        if what.startswith("a row moved"):
            browser.shot("e2e-live-moved-1")
            second.shot("e2e-live-moved-2")
    print("     converged after " + ", ".join(f"{t * 1000:.0f}" for t in times) + " ms")
    keys = browser.js(KEYS_JS)
    equal(keys, ["r0", "r2", "r3", "a1", "r4", "b1", "r5", "r7", "r1", "r8", "r9", "r10", "r11", "z1"], "the final rows")
    equal(browser.js("return document.querySelector('tr[data-row=\"r2\"] td').textContent"), "Replaced <b>bold</b> & more",
          "replaced text shown as text")
    no_page_errors(second, "session 2")


def test_tail_loading_while_writing(server, browser):
    """One session scrolls page by page while a thread writes above, inside and below the loaded
    window; every row shows at most once and in the list's order, and at the end the table is
    what a fresh load renders."""
    server.write("PUT", "/lists/churn", document(numbered([150, 150, 150]), title="Churn"))
    connect(browser, server.page_url("churn"))
    stop, done, failures, versions = threading.Event(), threading.Event(), [], []

    def writer():
        # Rounds of five writes until the session holds 300 rows (at least 12 rounds, at most 60).
        try:
            for i in range(60):
                if i >= 12 and stop.is_set():
                    break
                versions.append(server.write("PATCH", "/lists/churn", [  # above the window's end
                    {"op": "add", "path": "/sections/0/rows/0", "value": row(f"a{i}", f"Above {i}", -i)}],
                    "application/json-patch+json"))
                versions.append(server.write("DELETE", f"/lists/churn/rows/r{2 * i + 1}"))  # in the first page
                versions.append(server.write("POST", f"/lists/churn/sections/s1/rows?after=r{200 + i}",
                                             [row(f"m{i}", f"Middle {i}", 1000 + i)]))
                versions.append(server.write("POST", "/lists/churn/sections/s2/rows",  # below the window
                                             [row(f"z{i}", f"Below {i}", 2000 + i)]))
                versions.append(server.write("DELETE", f"/lists/churn/rows/r{449 - 2 * i}"))
                time.sleep(0.05)
        except Exception as error:  # noqa: BLE001 (reported by the test)
            failures.append(error)
        finally:
            done.set()

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    samples, rounds = 0, 0
    while not done.is_set():  # a page every 0.4 s while the writes go on
        count = len(browser.js(KEYS_JS))
        if count >= 300:
            stop.set()
        else:
            browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
        deadline = time.time() + 3
        while time.time() < deadline and not done.is_set():
            keys = browser.js(KEYS_JS)
            samples += 1
            check(len(keys) == len(set(keys)), f"a row shown twice while writing: {[k for k in keys if keys.count(k) > 1][:5]}")
            if len(keys) != count:
                break
            time.sleep(0.02)
        time.sleep(0.4)
    thread.join(10)
    check(not failures, f"the writer failed: {failures}")
    browser.shot("e2e-churn-during")
    status, _, text = server.curl("GET", "/lists/churn")
    import json
    doc = json.loads(text)
    order = [r["key"] for s in doc["sections"] for r in s["rows"]]
    browser.wait("return document.querySelector('table.list').dataset.version === arguments[0]", CONVERGE_TIMEOUT,
                 "the last write", versions[-1])
    keys = browser.js(KEYS_JS)
    check(len(keys) == len(set(keys)), "every row at most once")
    position = {k: i for i, k in enumerate(order)}
    missing = [k for k in keys if k not in position]
    equal(missing, [], "rows the list no longer has")
    check([position[k] for k in keys] == sorted(position[k] for k in keys), "rows in the list's order")
    equal(keys, order[:len(keys)], "the session shows a prefix of the list")
    print(f"     {len(keys)} of {len(order)} rows loaded while {len(versions)} writes ran ({samples} samples)")
    # Then to the end: what a fresh load renders.
    deadline = time.time() + 30
    while browser.js("""window.scrollTo(0, document.documentElement.scrollHeight);
                        return !!document.querySelector('table.list > tbody.pagination')"""):
        check(time.time() < deadline, "the end of the list within 30 s")
        time.sleep(0.05)
    converge(server, "churn", [browser], versions[-1], "scrolling to the end")
    equal(browser.js(KEYS_JS), order, "every row of the list, once, in order")
    browser.shot("e2e-churn-end")


PAYLOADS = [
    '<img src=x onerror="window.__pwned=1">',
    "<script>window.__pwned=1</script>",
    '"><svg onload="window.__pwned=1">',
    "'><img src=x onerror=alert(1)>",
    "</td></tr></tbody><tbody><tr><td><img src=x onerror=window.__pwned=1>",
]


def test_xss_payloads_stay_inert(server, browser):
    """Payload rows PUT through curl show as text in both sessions, on the first render and
    through live patches; nothing runs (no `window.__pwned`, no alert, no CSP violation: the
    page's CSP would block inline handlers anyway, so the check that counts is that no element
    came out of the text)."""
    second = other_browser()
    sections = [("s0", 'Header <img src=x onerror="window.__pwned=1">',
                 [(f"p{i}", text, i) for i, text in enumerate(PAYLOADS)])]
    server.write("PUT", "/lists/xss", document(sections, title='<script>window.__pwned=1</script>'))
    for b in (browser, second):
        connect(b, server.page_url("xss"))
    sessions = [browser, second]
    # Live: a replaced document (diffed into patches), then an appended row.
    sections.append(("s1", '"><svg onload="window.__pwned=1">', [(f"q{i}", text, i) for i, text in enumerate(PAYLOADS)]))
    sections[0][2][0] = ("p0", PAYLOADS[1] + PAYLOADS[0], 0)
    version = server.write("PUT", "/lists/xss", document(sections, title='"><svg onload="window.__pwned=1">'))
    converge(server, "xss", sessions, version, "a PUT of payloads")
    version = server.write("POST", "/lists/xss/sections/s1/rows", [row("late", PAYLOADS[0] + PAYLOADS[2], 9)])
    converge(server, "xss", sessions, version, "an appended payload row")
    # Payloads as keys (attribute values): a row and a section.
    evil_key = '"><img src=x onerror="window.__pwned=1">'
    version = server.write("PATCH", "/lists/xss", [
        {"op": "add", "path": "/sections/-", "value": {"key": evil_key + "s", "header": "Keys", "rows": [row(evil_key, "Evil key", 1)]}}],
        "application/json-patch+json")
    converge(server, "xss", sessions, version, "payloads as keys")
    from selenium.common.exceptions import NoAlertPresentException
    for i, b in enumerate(sessions):
        who = f"session {i + 1}"
        time.sleep(0.2)  # time for an onerror to fire, were there an element
        check(b.pwned() is None, f"{who}: window.__pwned is {b.pwned()!r}")
        try:
            b.driver.switch_to.alert
            raise AssertionError(f"{who}: an alert opened")
        except NoAlertPresentException:
            pass
        equal(b.js("return document.querySelectorAll('table.list img, table.list svg, table.list script').length"), 0,
              f"{who}: no element made from the text")
        texts = b.js("""return Array.from(document.querySelectorAll('table.list tr[data-row]'),
                          (r) => [r.dataset.row, r.cells[0].textContent])""")
        expected = [[f"p{i}", t] for i, t in enumerate(PAYLOADS)] + [[f"q{i}", t] for i, t in enumerate(PAYLOADS)]
        expected[0][1] = PAYLOADS[1] + PAYLOADS[0]
        expected.append(["late", PAYLOADS[0] + PAYLOADS[2]])
        expected.append([evil_key, "Evil key"])
        equal(texts, expected, f"{who}: the payloads shown as text")
        equal(b.js("return document.querySelector('table.list caption').textContent"), '"><svg onload="window.__pwned=1">',
              f"{who}: the caption as text")
        equal(b.js("return document.querySelector('tbody[data-section=\"s1\"] tr.section-header').textContent"),
              '"><svg onload="window.__pwned=1">', f"{who}: the header as text")
        equal(b.js("return document.querySelectorAll('table.list > tbody[data-section]')[2].dataset.section"), evil_key + "s",
              f"{who}: the section key kept as an attribute value")
        no_page_errors(b, who)
    browser.shot("e2e-xss-1")
    second.shot("e2e-xss-2")


if __name__ == "__main__":
    run([
        test_writes_show_in_both_sessions,
        test_tail_loading_while_writing,
        test_xss_payloads_stay_inert,
    ], lambda: RealListServer(demo=True, quiet=True))
