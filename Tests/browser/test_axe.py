#!/usr/bin/python3
"""Every page axe-clean (issues 24 and 26), checked by axe-core in Chromium (axe_check.py: the
rule set is WCAG 2.0/2.1 A and AA plus axe's best practices, colour contrast included).

Each state is checked at 1280 and 390 px wide, light and dark: the index and every demo list, a
sorted and searched view (loaded, and changed in place), the HTML error pages (404; 401 and 403
on a --private server), a list tail-loaded to its end, and a list after a live update. The
index and every demo page are kept as screenshots in each mode (`page-WIDTH-MODE-…png`).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, run  # noqa: E402

MODES = [(width, dark) for dark in (False, True) for width in (1280, 390)]
CONFIG = {"live": True, "animationMs": 60, "retryBase": 50}
TOKEN = "axe-token-0123456789"


def name(width, dark):
    return f"{width} px {'dark' if dark else 'light'}"


def open_list(browser, url, width, dark):
    """Opens a list page in the given mode and waits until the client enhanced it and settled."""
    browser.open(url, CONFIG)
    browser.emulate(width, dark)
    browser.wait("return document.querySelector('table.list.list-enhanced')", 5, "the client enhanced the table")
    browser.settle()


def long_list(rows):
    return {"title": "Long", "columns": [{"key": "name", "title": "Name"}, {"key": "n", "title": "Number", "kind": "number"}],
            "sections": [{"key": "s0", "header": "All", "footer": f"{rows} rows",
                          "rows": [{"key": f"r{i}", "cells": {"name": f"Row {i}", "n": i}} for i in range(rows)]}]}


def test_every_page_and_view(server, browser):
    browser.driver.get(server.url("/"))
    hrefs = browser.js("return [...document.querySelectorAll('a.row-link')].map(a => a.getAttribute('href'))")
    check(len(hrefs) >= 5, f"the index links the demo lists: {hrefs}")
    try:
        for width, dark in MODES:
            browser.emulate(width, dark)
            browser.driver.get(server.url("/"))
            browser.axe(f"/ at {name(width, dark)}")
            browser.shot(f"page-{width}-{'dark' if dark else 'light'}-index")
            for href in hrefs + ["/lists/countries?sort_desc=pop&q=an"]:
                open_list(browser, server.url(href), width, dark)
                browser.axe(f"{href} at {name(width, dark)}")
                # Every demo page in every mode, for a person to look at (issue 26).
                browser.shot(f"page-{width}-{'dark' if dark else 'light'}-{href.strip('/').split('?')[0].replace('/', '-')}")
    finally:
        browser.unemulate()


def test_a_view_changed_in_place(server, browser):
    try:
        for width, dark in MODES:
            open_list(browser, server.url("/lists/countries"), width, dark)
            browser.js("document.querySelector('table.list thead a.sort').click()")
            browser.wait("return location.search.includes('sort')", 5, "the sorted view in place")
            browser.settle()
            browser.axe(f"/lists/countries sorted in place at {name(width, dark)}")
    finally:
        browser.unemulate()


def test_error_pages(server, browser):
    try:
        for width, dark in MODES:
            browser.emulate(width, dark)
            for path in ("/no-such-page", "/lists/no-such-list"):
                browser.expect_console(r"404 \(Not Found\)")
                browser.driver.get(server.url(path))
                check("404" in browser.driver.title, f"{path}: the HTML 404 page ({browser.driver.title!r})")
                browser.axe(f"{path} (404) at {name(width, dark)}")
    finally:
        browser.unemulate()


def test_private_server_error_pages(server, browser):
    private = RealListServer(demo=True, flags=["--private", "--token", TOKEN], token=TOKEN)
    private.start()
    try:
        for width, dark in MODES:
            browser.emulate(width, dark)
            for path, status in (("/", "401"), ("/lists/countries", "401"), ("/lists/countries?key=forged", "403")):
                browser.expect_console(f"{status} \\(")
                browser.driver.get(private.url(path))
                check(status in browser.driver.title, f"{path}: the HTML {status} page ({browser.driver.title!r})")
                browser.axe(f"{path} ({status}, --private) at {name(width, dark)}")
    finally:
        browser.unemulate()
        private.stop()


def test_tail_loaded_to_the_end(server, browser):
    server.write("PUT", "/lists/long", long_list(160))
    try:
        for width, dark in MODES:
            open_list(browser, server.page_url("long"), width, dark)
            browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                            return !document.querySelector('table.list > tbody.pagination')""", 20, "the end of the list")
            check(browser.js("return document.querySelectorAll('tr[data-row]').length") == 160, "every row is shown")
            browser.settle()
            browser.axe(f"/lists/long tail-loaded to its end at {name(width, dark)}")
    finally:
        browser.unemulate()


def test_after_a_live_update(server, browser):
    try:
        for number, (width, dark) in enumerate(MODES):
            open_list(browser, server.page_url("tasks"), width, dark)
            browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 5, "the stream")
            _, doc = server.get_list("tasks")
            row = dict(doc["sections"][0]["rows"][0], key=f"added-{number}")
            version = server.write("PATCH", "/lists/tasks", [
                {"op": "add", "path": "/sections/0/rows/0", "value": row},
                {"op": "replace", "path": "/title", "value": f"Tasks {number}"}], "application/json-patch+json")
            browser.wait_version(version)
            check(browser.js("return !!document.querySelector(`tr[data-row='added-${arguments[0]}']`)", number), "the row came live")
            browser.settle()
            browser.axe(f"/lists/tasks after a live update at {name(width, dark)}")
    finally:
        browser.unemulate()


if __name__ == "__main__":
    run([
        test_every_page_and_view,
        test_a_view_changed_in_place,
        test_error_pages,
        test_private_server_error_pages,
        test_tail_loaded_to_the_end,
        test_after_a_live_update,
    ], lambda: RealListServer(demo=True))
