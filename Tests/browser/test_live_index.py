#!/usr/bin/python3
"""The live index (issue 26): the index page `/` of the real list-server, open in Chromium,
follows the index stream (`GET /events`): a list created over HTTP (`curl`) appears where
its id puts it, a renamed one shows its new title, a deleted one disappears, and the last one
deleted brings back "No lists yet.". After each write the page's rows must equal, markup and
all, those of a fresh load of `/` (polled: the assertion is the DOM, not a timing). Screenshots
at 1280 and 390 px, light and dark.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, run  # noqa: E402

ROWS_JS = """
const root = arguments[0] ? new DOMParser().parseFromString(arguments[0], 'text/html') : document;
const table = root.querySelector('table.list.index');
return {
  rows: Array.from(table.querySelectorAll('tbody > tr[data-id]'), (r) => r.outerHTML),
  empty: table.querySelector('tbody.empty') ? table.querySelector('tbody.empty').textContent : null,
};
"""


def fresh(server):
    import urllib.request
    with urllib.request.urlopen(server.url("/")) as response:
        return response.read().decode()


def converged(server, browser, what):
    expected = browser.js(ROWS_JS, fresh(server))
    last = None
    for _ in range(250):
        last = browser.js(ROWS_JS, None)
        if last == expected:
            break
        browser.js("return new Promise((done) => setTimeout(done, 20))")
    check(last == expected, f"{what}: the open index equals a fresh load of /\n  open:  {last}\n  fresh: {expected}")
    return last


def doc(title):
    return {"title": title, "sections": [{"key": "s", "rows": [{"key": "a", "cells": {}}, {"key": "b", "cells": {}}]}]}


def shots(browser, name):
    for width in (1280, 390):
        for dark in (False, True):
            browser.emulate(width, dark)
            browser.shot(f"{name}-{width}-{'dark' if dark else 'light'}")
    browser.unemulate()


def test_lists_appear_are_renamed_and_disappear(server, browser):
    browser.open(server.url("/"), {"reconnectBase": 100})
    check(browser.js("return !!document.querySelector('table.list.index[data-live]')"), "the index names its stream")
    before = converged(server, browser, "at first")
    ids = browser.js("return Array.from(document.querySelectorAll('tr[data-id]'), (r) => r.dataset.id)")
    check(len(ids) >= 5 and ids == sorted(ids), f"the demo lists, in id order: {ids}")
    # Wait for the stream's reset, so that the writes below are news to it.
    browser.wait("return window.__events.some((e) => e.type === 'list:indexupdated' && e.detail.event === 'reset')",
                 5, "the index stream's reset")
    new_id = ids[0] + "-new"  # sorts right after the first list
    server.write("PUT", f"/lists/{new_id}", doc("Made <em>by</em> curl"))
    after = converged(server, browser, "a list created over HTTP")
    check(len(after["rows"]) == len(before["rows"]) + 1, "one more row")
    check(browser.js("return document.querySelectorAll('tr[data-id]')[1].dataset.id") == new_id,
          "the new list appears where its id puts it (second)")
    check(browser.js("return document.querySelectorAll('tr[data-id]')[1].querySelector('a').textContent")
          == "Made <em>by</em> curl", "its title is text, not markup")
    shots(browser, "live-index-created")
    server.write("PATCH", f"/lists/{new_id}", [{"op": "replace", "path": "/title", "value": "Renamed"}],
                 "application/json-patch+json")
    converged(server, browser, "a renamed list")
    check(browser.js("return document.querySelector(`tr[data-id='${arguments[0]}'] a`).textContent", new_id) == "Renamed",
          "the renamed list shows its new title")
    server.write("DELETE", f"/lists/{new_id}")
    converged(server, browser, "a deleted list")
    for list_id in ids:
        server.write("DELETE", f"/lists/{list_id}")
    last = converged(server, browser, "every list deleted")
    check(last["empty"] == "No lists yet." and not last["rows"], f"the empty index says so: {last}")
    server.write("PUT", "/lists/again", doc("Again"))
    last = converged(server, browser, "a list created in an empty index")
    check(len(last["rows"]) == 1 and last["empty"] is None, f"the first list replaces 'No lists yet.': {last}")
    announced = browser.js("return document.querySelector('.list-announcer').textContent")
    check("Again" in announced, f"the new list is announced to screen readers: {announced!r}")
    shots(browser, "live-index-again")


if __name__ == "__main__":
    run([test_lists_appear_are_renamed_and_disappear], lambda: RealListServer(demo=True))
