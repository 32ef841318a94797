#!/usr/bin/python3
"""The client against the real list-server (end to end): tail loading and live updates.

Uses LIST_SERVER_BIN, else the package's debug build (Tests/testkit.py; a missing binary fails
the file). Each file run starts one server on port 0 with an in-memory store.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import SNAPSHOT_JS, RealListServer, check, equal, run  # noqa: E402

CONFIG = {"reconnectBase": 100, "retryBase": 50, "animationMs": 60}
PATCH = "application/json-patch+json"


def document(sizes, title="Real", collapsible=False):
    sections, n = [], 0
    for s, size in enumerate(sizes):
        rows = []
        for _ in range(size):
            rows.append({"key": f"r{n}", "cells": {"name": f"Row {n}", "n": n}})
            n += 1
        sections.append({"key": f"s{s}", "header": f"Section {s}", "footer": f"{size} rows",
                         "collapsible": collapsible, "rows": rows})
    return {"title": title, "columns": [{"key": "name", "title": "Name"}, {"key": "n", "title": "Number", "kind": "number"}],
            "sections": sections}


def same_as_fresh_page(browser, what):
    browser.settle()
    fresh = browser.js("""return fetch(location.href, {cache: 'no-store'}).then(r => r.text())
                          .then(t => new DOMParser().parseFromString(t, 'text/html').querySelector('table.list').outerHTML)""")
    live, page = browser.snapshot(), browser.snapshot(fresh)
    page["more"] = live["more"]  # the fresh page shows one page; compare rows only when all fit
    equal(live, page, what)


def test_tail_loading_reaches_every_row_once(server, browser):
    server.write("PUT", "/lists/long", document([120, 3, 177]))
    browser.open(server.page_url("long"), CONFIG)
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return !document.querySelector('table.list > tbody.pagination')""", 20, "the end of the list")
    keys = browser.js("return [...document.querySelectorAll('tr[data-row]')].map(r => r.dataset.row)")
    equal(keys, [f"r{i}" for i in range(300)], "every row once, in order")
    started = browser.events("list:paginationstarted")
    ended = browser.events("list:paginationended")
    equal(len(started), len(ended), "each start ended")
    check(len(started) >= 5, f"pages loaded: {len(started)}")
    equal(ended[0]["detail"], {"section": 0, "row": 50}, "the first new row of page 2")
    equal(browser.js("return getComputedStyle(document.querySelector('.list-announcer')).position"), "absolute",
          "list-client.css served from /assets/ and applied")
    browser.shot("real-end")


def test_live_patch_matches_a_fresh_page(server, browser):
    version = server.write("PUT", "/lists/live", document([4, 4, 4]))
    browser.open(server.page_url("live"), CONFIG, reduced_motion=True)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 5, "the stream")
    ops = [{"op": "add", "path": "/sections/0/rows/0", "value": {"key": "new", "cells": {"name": "New", "n": 99}}},
           {"op": "remove", "path": "/sections/1/rows/1"},
           {"op": "move", "from": "/sections/2/rows/0", "path": "/sections/0/rows/2"},
           {"op": "replace", "path": "/sections/1/header", "value": "Renamed"},
           {"op": "replace", "path": "/sections/2/rows/0/cells/name", "value": "Changed"}]
    version = server.write("PATCH", "/lists/live", ops, PATCH)
    browser.wait_version(version, updated=False)
    same_as_fresh_page(browser, "after a PATCH")
    version = server.write("PATCH", "/lists/live", [{"op": "move", "from": "/sections/2", "path": "/sections/0"},
                                         {"op": "remove", "path": "/sections/1"}], PATCH)
    browser.wait_version(version, updated=False)
    same_as_fresh_page(browser, "after section moves")
    browser.shot("real-live")


def test_collapsed_section_survives_a_write(server, browser):
    server.write("PUT", "/lists/fold", document([3, 3], collapsible=True))
    browser.open(server.page_url("fold"), CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 5, "the stream")
    browser.js("document.querySelector('tbody[data-section=\"s1\"] button.section-toggle').click()")
    version = server.write("PATCH", "/lists/fold", [{"op": "replace", "path": "/sections/1/header", "value": "Folded"},
                                         {"op": "add", "path": "/sections/1/rows/0", "value": {"key": "x", "cells": {"name": "X"}}}], PATCH)
    browser.wait_version(version, updated=False)
    equal(browser.js("""const b = document.querySelector('tbody[data-section="s1"]');
        return [b.querySelector('button').textContent, b.querySelector('button').getAttribute('aria-expanded'),
                getComputedStyle(b.querySelector('tr[data-row="x"]')).display]"""), ["Folded4 rows hidden", "false", "none"],
          "still collapsed, and the new header says how many rows it hides (3 and x)")


def test_rows_added_above_keep_the_view_still(server, browser):
    server.write("PUT", "/lists/anchor", document([100, 100]))
    browser.open(server.page_url("anchor") + "?limit=200", CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 5, "the stream")
    browser.js("document.querySelector('tr[data-row=\"r150\"]').scrollIntoView()")
    top = "return document.querySelector('tr[data-row=\"r150\"]').getBoundingClientRect().top"
    before = browser.js(top)
    rows = [{"op": "add", "path": "/sections/0/rows/0", "value": {"key": f"n{i}", "cells": {"name": f"New {i}"}}} for i in range(3)]
    version = server.write("PATCH", "/lists/anchor", rows + [{"op": "remove", "path": "/sections/1/rows/10"}], PATCH)
    browser.wait_version(version, updated=False)
    browser.settle()
    after = browser.js(top)
    check(abs(after - before) < 1, f"r150 moved on screen from {before} to {after}")
    equal(browser.js("return document.querySelector('.list-announcer').textContent.trim()"), "3 rows added, 1 row removed",
          "announcement")


def test_deleted_list(server, browser):
    server.write("PUT", "/lists/gone", document([3]))
    browser.open(server.page_url("gone"), CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 5, "the stream")
    server.write("DELETE", "/lists/gone")
    browser.wait("return window.__events.some(e => e.type === 'list:deleted')", 5, "list:deleted")


if __name__ == "__main__":
    run([
        test_tail_loading_reaches_every_row_once,
        test_live_patch_matches_a_fresh_page,
        test_collapsed_section_survives_a_write,
        test_rows_added_above_keep_the_view_still,
        test_deleted_list,
    ], lambda: RealListServer(demo=False, quiet=False))
