#!/usr/bin/python3
"""The page on a phone (issue 26): at 320, 390 and 480 px, light and dark, the index and every
demo list read without sideways scrolling of the page (columns wrap and shrink), the client
still enhances the table, and a view (sorted, searched) fits too. Screenshots of each are kept
(`browser.shot`) for a person to look at; at 390 px each is also checked with axe-core
(axe_check.py; test_axe.py checks more states).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, run  # noqa: E402

WIDTHS = [320, 390, 480]


def fits(browser, width, what):
    # A phone widens its layout viewport to fit content that is too wide: both must stay put.
    sizes = browser.js("return [window.innerWidth, document.documentElement.scrollWidth]")
    check(sizes == [width, width], f"{what} at {width} px fits without sideways scrolling: innerWidth, scrollWidth = {sizes}")


def pages(server, browser):
    browser.driver.get(server.url("/"))
    hrefs = browser.js("return [...document.querySelectorAll('a.row-link')].map(a => a.getAttribute('href'))")
    check(len(hrefs) >= 5, f"the demo lists: {hrefs}")
    return ["/"] + hrefs + ["/lists/countries?sort_desc=pop&q=an"]


def test_every_page_fits_a_phone(server, browser):
    targets = pages(server, browser)
    try:
        for dark in (False, True):
            for width in WIDTHS:
                browser.emulate(width, dark)
                for target in targets:
                    if target == "/":
                        browser.driver.get(server.url(target))
                    else:
                        browser.open(server.url(target), {"live": True})
                        browser.emulate(width, dark)  # open() sets its own emulated media
                        browser.wait("return document.querySelector('table.list.list-enhanced')", 5, "the client enhanced the table")
                    check(browser.js("return matchMedia('(prefers-color-scheme: dark)').matches") == dark, "the color scheme is emulated")
                    fits(browser, width, f"{target} ({'dark' if dark else 'light'})")
                    if width == 390:
                        browser.axe(f"{target} at {width} px {'dark' if dark else 'light'}")
                        browser.shot(f"phone-{'dark' if dark else 'light'}-{target.strip('/').replace('/', '-').split('?')[0] or 'index'}")
    finally:
        browser.unemulate()


if __name__ == "__main__":
    run([test_every_page_fits_a_phone], lambda: RealListServer(demo=True))
