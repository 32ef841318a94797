#!/usr/bin/python3
"""View links in a real browser (issue 16; docs/ACCESS.md): a `--private` list-server, a list
of 180 rows, and a link from `POST /lists/{id}/links`.

- The link opens the private list in Chromium, tails to the end (every row once, in order, the
  client carrying the key on its stream and `more` requests) and shows live edits made with a
  token.
- The same URL with the key altered, or with no key, shows nothing of the list.
Starts `list-server --port 0 --db :memory: --private --token T` (LIST_SERVER_BIN, else the
package's debug build); writes go through `curl` with the token.
"""
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, equal, run, wait_until  # noqa: E402

CONFIG = {"reconnectBase": 100, "retryBase": 50, "animationMs": 60}
TOKEN = "browser-" + os.urandom(12).hex()
TITLE = "Private plans"
KEYS_JS = "return Array.from(document.querySelectorAll('table.list tr[data-row]'), (r) => r.dataset.row)"


def row(key, name, n):
    return {"key": key, "cells": {"name": name, "n": n}}


def document():
    sections = [{"key": f"s{s}", "header": f"Part {s}", "footer": "60 rows",
                 "rows": [row(f"r{s * 60 + i}", f"Plan {s * 60 + i}", s * 60 + i) for i in range(60)]} for s in range(3)]
    return {"title": TITLE, "columns": [{"key": "name", "title": "Name"}, {"key": "n", "title": "Number", "kind": "number"}],
            "sections": sections}


def view_link(server):
    status, _, text = server.curl("POST", "/lists/plans/links?expires=600")
    equal(status, 201, "POST /lists/plans/links")
    return json.loads(text)["url"]


def scroll_to_end(browser, budget=60):
    """Jumps to the bottom until the pagination body is gone."""
    if not wait_until(lambda: browser.js("""window.scrollTo(0, document.documentElement.scrollHeight);
                                          return !document.querySelector('table.list > tbody.pagination')"""), budget):
        raise AssertionError(f"the end was not reached in {budget} s ({len(browser.js(KEYS_JS))} rows)")


def wait_keys(browser, expected, what):
    wait_until(lambda: browser.js(KEYS_JS) == expected, 5, 0.02)
    equal(browser.js(KEYS_JS), expected, what)


def test_a_view_link_opens_tails_and_goes_live(server, browser):
    server.write("PUT", "/lists/plans", document())
    url = view_link(server)
    before = len(server.log_lines())
    browser.open(url, CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the live stream")
    equal(browser.js("return document.querySelector('table.list').dataset.list"), "plans", "the page's list")
    equal(browser.js("return document.querySelector('table.list caption').textContent"), TITLE, "the caption")
    equal(len(browser.js(KEYS_JS)), 50, "rows on the first page")

    scroll_to_end(browser)
    keys = [f"r{i}" for i in range(180)]
    wait_keys(browser, keys, "every row once, in order, after tailing to the end")

    server.write("POST", "/lists/plans/sections/s2/rows", [row("new", "Added live", 999)])
    keys.append("new")
    wait_keys(browser, keys, "a row appended at the end")
    server.write("PUT", "/lists/plans/rows/r3", row("r3", "Renamed live", 3))
    browser.wait("return document.querySelector('tr[data-row=\"r3\"] td').textContent === 'Renamed live'", 5, "the replaced row")
    server.write("DELETE", "/lists/plans/rows/r100")
    keys.remove("r100")
    wait_keys(browser, keys, "a row deleted")
    server.write("PATCH", "/lists/plans", [{"op": "replace", "path": "/title", "value": "Plans, renamed"}], "application/json-patch+json")
    browser.wait("return document.querySelector('table.list caption').textContent === 'Plans, renamed'", 5, "the new title")
    browser.shot("access-view-link")

    # What the client asked for, from the server's request log: the key went everywhere.
    lines = server.log_lines()[before:]
    client = [line for line in lines if re.search(r" (GET|POST) /lists/plans/(events|rows|subscriptions)", line)]
    check(any("/events?" in line for line in client), f"the stream was opened: {client[:5]}")
    check(any("/more?" in line for line in client), f"more rows were asked for: {client[:5]}")
    check(all("key=REDACTED" in line for line in client), f"every request of the client carried the key: {client}")
    check(all(re.search(r" (200|202) ", line) for line in client), f"and was allowed: {client}")


def test_an_altered_or_missing_key_shows_nothing(server, browser):
    server.write("PUT", "/lists/plans", document())
    url = view_link(server)
    expiry, mac = url.split("key=")[1].split(".")
    altered = url.replace(mac, ("A" if mac[0] != "A" else "B") + mac[1:])
    browser.expect_console(r"status of 40[13] \((Forbidden|Unauthorized)\)")  # the refused pages, on purpose
    for what, target in (("an altered key", altered), ("an altered expiry", url.replace(expiry, str(int(expiry) + 1))),
                         ("no key", url.split("?")[0])):
        browser.driver.get(target)
        text = browser.js("return document.body ? document.body.innerText : ''")
        check(not browser.js("return document.querySelector('table')"), f"{what}: no table")
        check(TITLE not in text and "Plan 1" not in text and "Part 0" not in text, f"{what}: nothing of the list shows: {text[:300]}")
        # A page that says what happened and what is needed, not a problem+json dump (issue 26).
        check(("Forbidden" in text or "Unauthorized" in text) and "view link" in text and '"status"' not in text,
              f"{what}: a readable 401/403 page is shown: {text[:300]}")
        check(not browser.js("return document.querySelector('a[href=\"/\"]')"), f"{what}: no link to the index it cannot open")
    browser.open(url, CONFIG)  # the genuine link still works in the same browser
    equal(browser.js("return document.querySelector('table.list').dataset.list"), "plans", "the genuine link")


if __name__ == "__main__":
    run([test_a_view_link_opens_tails_and_goes_live, test_an_altered_or_missing_key_shows_nothing],
        lambda: RealListServer(demo=False, quiet=False, flags=["--private", "--token", TOKEN], token=TOKEN))
