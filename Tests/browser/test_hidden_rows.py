#!/usr/bin/python3
"""Collapsed sections say how many rows they hide (issue 26): on the Tasks demo of the real
list-server, a collapsed section's toggle reads "2 rows hidden" (and "1 row hidden" for one),
an expanded one says nothing; toggling shows and hides the count; rows added and removed over
HTTP (`curl`) while the page is open keep it right (polled: the assertion is the DOM). The
count is also read by screen readers as part of the toggle's name. Screenshots at 1280 and
390 px, light and dark.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, run  # noqa: E402

# Each section's toggle: [key, aria-expanded, the count's text, whether it shows]
COUNTS_JS = """
return Array.from(document.querySelectorAll('tbody[data-section] .section-toggle'), (b) => {
  const span = b.querySelector('.section-count');
  return [b.closest('tbody').dataset.section, b.getAttribute('aria-expanded'),
          span ? span.textContent : null, !!span && getComputedStyle(span).display !== 'none'];
});
"""


def counts(browser, expected, what):
    last = None
    for _ in range(250):
        last = browser.js(COUNTS_JS)
        if last == expected:
            break
        browser.js("return new Promise((done) => setTimeout(done, 20))")
    check(last == expected, f"{what}:\n  got      {last}\n  expected {expected}")


def shots(browser, name):
    for width in (1280, 390):
        for dark in (False, True):
            browser.emulate(width, dark, height=700)
            browser.shot(f"{name}-{width}-{'dark' if dark else 'light'}")
    browser.unemulate()


def test_collapsed_sections_count_their_rows(server, browser):
    browser.open(server.page_url("tasks"), {"reconnectBase": 100, "animate": False})
    browser.wait("return document.querySelector('table.list.list-enhanced')", 5, "the client enhanced the table")
    counts(browser, [["today", "true", "2 rows hidden", False], ["later", "false", "2 rows hidden", True],
                     ["done", "false", "1 row hidden", True]], "as served: collapsed sections show their count")
    name = browser.js("return document.querySelector('tbody[data-section=later] .section-toggle').innerText")
    check("2 rows hidden" in name, f"the count is part of the toggle's text: {name!r}")
    shots(browser, "hidden-rows")
    browser.js("document.querySelector('tbody[data-section=today] .section-toggle').click()")
    browser.js("document.querySelector('tbody[data-section=later] .section-toggle').click()")
    counts(browser, [["today", "false", "2 rows hidden", True], ["later", "true", "2 rows hidden", False],
                     ["done", "false", "1 row hidden", True]], "toggling shows and hides the count")
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the stream")
    server.write("POST", "/lists/tasks/sections/today/rows", [{"key": "t9", "cells": {"task": "New", "due": "now"}}])
    counts(browser, [["today", "false", "3 rows hidden", True], ["later", "true", "2 rows hidden", False],
                     ["done", "false", "1 row hidden", True]], "a row added live counts")
    server.write("DELETE", "/lists/tasks/rows/t1")
    server.write("DELETE", "/lists/tasks/rows/t2")
    counts(browser, [["today", "false", "1 row hidden", True], ["later", "true", "2 rows hidden", False],
                     ["done", "false", "1 row hidden", True]], "rows removed live count down, to the singular")
    rows = [{"key": f"n{i}", "cells": {"task": f"Task {i}", "due": "soon"}} for i in range(1200)]
    server.write("POST", "/lists/tasks/sections/done/rows", rows)
    browser.js("document.querySelector('tbody[data-section=done] .section-toggle').click()")
    browser.js("document.querySelector('tbody[data-section=done] .section-toggle').click()")
    counts(browser, [["today", "false", "1 row hidden", True], ["later", "true", "2 rows hidden", False],
                     ["done", "false", "1,201 rows hidden", True]], "counts are grouped as the page's numbers are")


if __name__ == "__main__":
    run([test_collapsed_sections_count_their_rows], lambda: RealListServer(demo=True))
