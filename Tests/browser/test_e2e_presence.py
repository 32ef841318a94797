#!/usr/bin/python3
"""Presence in the page (docs/CLIENT.md): two Chromium sessions on one list of the real
list-server both show "2 viewing" above the table; when one leaves, the other shows "1 viewing";
the count stays through a view changed in place.
The count is a polite status (`role="status"`); without JavaScript the page shows none. At
390 px, light and dark, the count fits and reads in the page's muted colour (screenshots kept).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Browser, RealListServer, check, equal, other_browser, run  # noqa: E402

DOC = {"title": "Shared shopping", "columns": [{"key": "name", "title": "Name"}],
       "sections": [{"key": "s", "rows": [{"key": f"r{i}", "cells": {"name": f"Item {i}"}} for i in range(5)]}]}
# The count shown, or null while there is none.
BADGE_JS = "((b) => (b && !b.hidden ? b.textContent : null))(document.querySelector('p.list-presence'))"


def shows(browser, text, what):
    browser.wait(f"return ({BADGE_JS}) === {text!r}", 10, f"{what}: {text!r}")


def test_two_sessions_then_one(server, browser):
    second = other_browser()
    server.write("PUT", "/lists/presence", DOC)
    browser.open(server.page_url("presence"))
    shows(browser, "1 viewing", "the first session alone")
    second.open(server.page_url("presence"))
    shows(second, "2 viewing", "the second session")
    shows(browser, "2 viewing", "the first session, once the second opened")
    badge = browser.js("""const b = document.querySelector('p.list-presence'), t = document.querySelector('table.list');
        const next = b.nextElementSibling;
        return [b.getAttribute('role'), next === t || (next.matches('div.view-controls') && next.nextElementSibling === t)]""")
    equal(badge, ["status", True], "a polite status above the table (its caption is the title) and its view controls")
    browser.js("window.__marker = 'kept'")
    browser.driver.find_element("css selector", "table.list thead a.sort").click()
    browser.wait("return location.search.includes('sort') && window.__marker === 'kept'", 10, "the sort shown in place")
    shows(browser, "2 viewing", "the first session, after its view changed in place (a new stream)")
    second.driver.get("about:blank")
    shows(browser, "1 viewing", "the first session, once the second left")


def test_phone_light_and_dark(server, browser):
    server.write("PUT", "/lists/presence-phone", DOC)
    try:
        for dark in (False, True):
            browser.open(server.page_url("presence-phone"))
            browser.emulate(390, dark)
            shows(browser, "1 viewing", "the session alone")
            look = browser.js("""const b = document.querySelector('p.list-presence');
                const s = getComputedStyle(b), page = getComputedStyle(document.body);
                const r = b.getBoundingClientRect();
                return {color: s.color, page: page.backgroundColor, right: r.right, width: innerWidth,
                        scroll: document.documentElement.scrollWidth}""")
            check(look["right"] <= 390 and look["scroll"] == 390, f"fits 390 px ({'dark' if dark else 'light'}): {look}")
            check(look["color"] != look["page"], f"readable on the page's background: {look}")
            browser.shot(f"presence-{'dark' if dark else 'light'}-390")
            browser.axe(f"the presence count at 390 px {'dark' if dark else 'light'}")
    finally:
        browser.unemulate()


def test_without_javascript_nothing_shows(server, browser):
    server.write("PUT", "/lists/presence-nojs", DOC)
    plain = Browser(javascript=False)
    try:
        plain.driver.get(server.page_url("presence-nojs"))
        equal(len(plain.driver.find_elements("css selector", ".list-presence")), 0, "no count without JavaScript")
    finally:
        plain.quit()


if __name__ == "__main__":
    run([
        test_two_sessions_then_one,
        test_phone_light_and_dark,
        test_without_javascript_nothing_shows,
    ], lambda: RealListServer(demo=False, quiet=True))
