#!/usr/bin/python3
"""Every page of the real list-server in Chromium (issue 13): the index and each demo list's
page have a level-one heading, declare an icon the server serves, and leave the console empty
(the runner checks the console after every test; no test here expects any line in it).
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, equal, run, wait_until  # noqa: E402


def icon_requests(server):
    return [line for line in server.log_lines() if re.search(r" GET /(assets/(v/[0-9a-f]+/)?favicon\.svg|favicon\.ico) ", line)]


def wait_for_icon(server, count):
    """Waits (up to 5 s) until the server has answered `count` icon requests; returns them."""
    wait_until(lambda: len(icon_requests(server)) >= count, 5)
    return icon_requests(server)


def test_index_has_a_heading_and_an_icon(server, browser):
    before = len(icon_requests(server))
    browser.driver.get(server.url("/"))
    equal(browser.js("return [...document.querySelectorAll('h1')].map(h => h.textContent)"), ["Lists"], "the index's h1")
    equal(browser.js("return document.querySelector('table.list caption h1') !== null"), True, "the h1 is the table's caption")
    requests = wait_for_icon(server, before + 1)
    check(len(requests) > before, "the browser fetched the declared icon")
    check(all(line.split()[-2] in ("200", "304") for line in requests), f"the icon was served: {requests}")


def test_every_demo_list_page_has_its_title_as_heading(server, browser):
    browser.driver.get(server.url("/"))
    links = browser.js("return [...document.querySelectorAll('a.row-link')].map(a => [a.getAttribute('href'), a.textContent])")
    check(len(links) >= 3, f"the index links the demo lists: {links}")
    for href, title in links:
        browser.open(server.url(href), {"live": True})
        equal(browser.js("return [...document.querySelectorAll('h1')].map(h => h.textContent)"), [title], f"{href}: its h1")
        equal(browser.js("return document.title"), title, f"{href}: its title")
        check(browser.js("return !!document.querySelector('link[rel=icon]')"), f"{href}: declares an icon")
        console = browser.console()
        check(not console, f"{href}: the console is not empty: {console}")


def test_a_live_title_change_keeps_the_heading(server, browser):
    browser.open(server.page_url("countries"), {"live": True})
    browser.wait("return !!ListClient.get(document.querySelector('table.list')).subscription", 5, "subscribed")
    server.write("PATCH", "/lists/countries", '[{"op": "replace", "path": "/title", "value": "Countries <renamed>"}]',
                          "application/json-patch+json")
    browser.wait("return document.querySelector('table.list caption h1')?.textContent === 'Countries <renamed>'", 5,
                 "the heading to show the new title")
    equal(browser.js("return document.querySelectorAll('h1').length"), 1, "still one h1")
    equal(browser.js("return document.title"), "Countries <renamed>", "the tab's title follows (issue 26)")


if __name__ == "__main__":
    run([
        test_index_has_a_heading_and_an_icon,
        test_every_demo_list_page_has_its_title_as_heading,
        test_a_live_title_change_keeps_the_heading,
    ], lambda: RealListServer(demo=True, quiet=False))
