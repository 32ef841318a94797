#!/usr/bin/python3
"""Tail loading end to end (issue 6): the real list-server's 10,000-row demo list `numbers`.

Starts `list-server --port 0 --db :memory: --demo` (request log on, read by a thread, so every
request the browser makes is counted from the server's side too). Uses LIST_SERVER_BIN, else
the package's debug build (a missing binary fails the file).
"""
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Browser, RealListServer, check, equal, run  # noqa: E402

ALL_KEYS = [f"n{n}" for n in range(1, 10_001)]
# The page size of the scroll to the end. The server's default is 50 (200 pages), but on the
# debug build each `POST …/more` re-renders the whole window (about 1 s at 9,950 rows on this
# 2-core machine, see the report), so the whole scroll takes minutes: the test opens
# `/lists/numbers?limit=500` (20 pages; the client takes the size from the page's rel=next
# link). E2E_PAGE=50 runs it at the default size. The default size is also covered, for the
# first 1,500 rows, by test_pages_fetched_once_when_jumping_fast.
PAGE = int(os.environ.get("E2E_PAGE", "500"))
DEFAULT_PAGE = 50
GET_PAGE = 200
CONFIG = {"retryBase": 50, "reconnectBase": 100}

ROW_KEYS_JS = "return Array.from(document.querySelectorAll('table.list tr[data-row]'), (r) => r.dataset.row)"


def path_of(index):
    """The index path {section, row} of the `index`-th row (0-based) of `numbers`: 10 x 1,000."""
    return {"section": index // 1000, "row": index % 1000}


def page_requests(server):
    """The server's log lines of tail-loading requests (`POST …/more` and `GET …/rows`)."""
    return [line for line in server.log_lines()
            if re.search(r" (POST /lists/numbers/subscriptions/[^ ]+/more|GET /lists/numbers/rows)\b", line)]


def scroll_to_end(browser, budget=90):
    """Jumps to the bottom repeatedly, waiting each time for the row count to grow, until the
    pagination body is gone. Returns the seconds it took."""
    started = time.time()
    count = browser.js("return document.querySelectorAll('table.list tr[data-row]').length")
    while time.time() - started < budget:
        done = browser.js("""window.scrollTo(0, document.documentElement.scrollHeight);
                             return !document.querySelector('table.list > tbody.pagination')""")
        if done:
            return time.time() - started
        deadline = time.time() + 10
        while time.time() < deadline:
            now = browser.js("""window.scrollTo(0, document.documentElement.scrollHeight);
                                return [document.querySelectorAll('table.list tr[data-row]').length,
                                        !document.querySelector('table.list > tbody.pagination')]""")
            if now[0] > count or now[1]:
                break
            time.sleep(0.01)
        else:
            raise AssertionError(f"no new rows for 10 s at {count} rows")
        count = now[0]
    raise AssertionError(f"the end was not reached in {budget} s ({count} rows)")


def expected_events(pages, size):
    """started/ended pairs for pages 2..pages+1 of `size` rows: the index paths of the last row
    shown and of the first new row (page p, from 1, ends at row size * p - 1)."""
    out = []
    for p in range(1, pages + 1):
        out.append({"type": "list:paginationstarted", "detail": path_of(size * p - 1)})
        out.append({"type": "list:paginationended", "detail": path_of(size * p)})
    return out


def test_scroll_to_the_end_loads_every_row_once(server, browser):
    before = len(page_requests(server))
    url = server.page_url("numbers") + ("" if PAGE == DEFAULT_PAGE else f"?limit={PAGE}")
    browser.open(url, CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the stream")
    equal(browser.js(ROW_KEYS_JS), ALL_KEYS[:PAGE], "the first page")
    browser.shot("e2e-numbers-start")
    took = scroll_to_end(browser, budget=90 if PAGE >= 200 else 400)
    print(f"     scrolled 10,000 rows in {took:.1f} s")
    browser.shot("e2e-numbers-end")
    keys = browser.js(ROW_KEYS_JS)
    check(len(keys) == len(set(keys)), f"{len(keys) - len(set(keys))} duplicate rows")
    equal(len(keys), 10_000, "row count")
    equal(keys, ALL_KEYS, "every row once, in order")
    equal(browser.js("return Array.from(document.querySelectorAll('table.list > tbody[data-section]'), (b) => b.dataset.section)"),
          [f"block-{b}" for b in range(10)], "the sections")
    equal(browser.js("return document.querySelectorAll('table.list tr.section-footer').length"), 10,
          "every section's footer once its last row is in")

    # The events: one started/ended pair per page, with the index paths of the last row shown
    # and of the first new row.
    events = browser.events("list:paginationstarted", "list:paginationended", "list:paginationfailed")
    pages = 10_000 // PAGE - 1
    expected = expected_events(pages, PAGE)
    check(len(events) == len(expected), f"{len(events)} pagination events, expected {len(expected)}: "
          f"{[e for e in events if e['type'] == 'list:paginationfailed'][:3]}")
    for i, (got, want) in enumerate(zip(events, expected)):
        equal(got, want, f"pagination event #{i}")

    # No page requested twice: exactly one tail-loading request per page, seen by the server
    # and by the browser (resource timing; the hook below enlarges its buffer).
    time.sleep(0.3)  # the log line is written after the answer
    requests = page_requests(server)[before:]
    equal(len(requests), pages, "tail-loading requests in the server's log")
    gets = [line for line in requests if "GET " in line]
    equal(gets, [], "no GET pages while subscribed")
    resources = browser.js("""return performance.getEntriesByType('resource').map((e) => e.name)
                              .filter((n) => /\\/lists\\/numbers\\/(rows|subscriptions\\/[^/]+\\/more)/.test(n))""")
    equal(len(resources), pages, "tail-loading requests the browser made")
    check(browser.js("return location.href").endswith(url[len(server.base):]), "the page never navigated")


def test_pages_fetched_once_when_jumping_fast(server, browser):
    """Jumping to the bottom every 5 ms for a while never asks for a page twice."""
    before = len(page_requests(server))
    browser.open(server.page_url("numbers"), CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the stream")
    browser.js("""window.__jumper = setInterval(() => window.scrollTo(0, document.documentElement.scrollHeight), 5)""")
    browser.wait("return document.querySelectorAll('table.list tr[data-row]').length >= 1500", 60, "1,500 rows")
    browser.js("clearInterval(window.__jumper); window.scrollTo(0, 0)")
    browser.wait("return !ListClient.get(document.querySelector('table.list')).state.loading", 10, "the last load")
    keys = browser.js(ROW_KEYS_JS)
    equal(keys, ALL_KEYS[:len(keys)], "a prefix of the list, every row once")
    time.sleep(0.3)
    requests = page_requests(server)[before:]
    equal(len(requests), len(keys) // DEFAULT_PAGE - 1, f"one request per page ({len(keys)} rows)")
    equal(browser.events("list:paginationstarted", "list:paginationended", "list:paginationfailed"),
          expected_events(len(requests), DEFAULT_PAGE), "pagination events at the default page size")


def test_without_the_stream_get_pages_come_once_each(server, browser):
    """With `live: false` the client walks `GET …/rows?after=` pages: every row once, in order,
    and each cursor asked for once (the log names the query). Pages of 200 (`?limit=200`, 49
    GETs) keep it near 10 s; at the default 50 it takes about 27 s here."""
    before = len(page_requests(server))
    browser.open(server.page_url("numbers") + f"?limit={GET_PAGE}", dict(CONFIG, live=False))
    took = scroll_to_end(browser, budget=120)
    print(f"     scrolled 10,000 rows by GET in {took:.1f} s")
    equal(browser.js(ROW_KEYS_JS), ALL_KEYS, "every row once, in order")
    time.sleep(0.3)
    requests = page_requests(server)[before:]
    check(all(" GET /lists/numbers/rows?" in line for line in requests), f"only GET pages: {requests[:2]}")
    cursors = [re.search(r"after=([^& ]+)", line).group(1) for line in requests]
    equal(len(cursors), 10_000 // GET_PAGE - 1, "one GET per page")
    check(all(f"limit={GET_PAGE}" in line for line in requests), "the page size of the page's link")
    equal(len(set(cursors)), len(cursors), "no cursor asked for twice")
    equal(browser.events("list:paginationstarted", "list:paginationended", "list:paginationfailed"),
          expected_events(len(cursors), GET_PAGE), "pagination events")


def no_js_keys(browser):
    # WebDriver's own scripts run although the page's do not.
    return browser.js(ROW_KEYS_JS)


def no_js_next(browser):
    from selenium.webdriver.common.by import By
    links = browser.driver.find_elements(By.CSS_SELECTOR, "table.list tbody.pagination a[rel~='next']")
    return links[0] if links else None


def click_when_still(browser, element):
    """Scrolls `element` into view and clicks it once its place stops changing: rows of a
    `lazy-rows` table keep the estimated height (36 px) until first shown, and this list's
    wrapped rows are taller, so the page grows under a jump to its end (a click right after
    the jump can miss the link)."""
    last = None
    for _ in range(50):
        rect = browser.js("""arguments[0].scrollIntoView({block: 'center'});
                             const r = arguments[0].getBoundingClientRect(); return [r.top, r.left]""", element)
        if rect == last:
            break
        last = rect
        time.sleep(0.1)
    element.click()


def test_without_javascript_load_more_links_reach_the_last_row(server, browser):
    """The no-JS page: the first page of rows and a working "Load more" link; following
    rel=next page by page reaches the last row. 10,000 rows at the default 50 a page would be
    200 page loads, so this follows two default pages (50 rows each, the link keeps the size),
    then walks the whole list from `?limit=500` (20 pages, every link followed)."""
    plain = Browser(javascript=False)
    try:
        plain.driver.get(server.page_url("numbers"))
        check(not plain.js("return typeof window.ListClient !== 'undefined'"), "the page's script did not run")
        equal(no_js_keys(plain), ALL_KEYS[:50], "the first page without JavaScript")
        link = no_js_next(plain)
        check(link is not None and link.text == "Load more", "a Load more link")
        plain.shot("e2e-numbers-nojs-first")
        click_when_still(plain, link)
        plain.wait("return location.search.includes('after=')", 5, "the next page")
        equal(no_js_keys(plain), ALL_KEYS[50:100], "the second page after following Load more")
        check(no_js_next(plain) is not None, "the second page links on")

        plain.driver.get(server.page_url("numbers") + "?limit=500")
        seen, pages = [], 0
        while True:
            pages += 1
            keys = no_js_keys(plain)
            check(keys, f"page {pages} shows rows")
            seen += keys
            link = no_js_next(plain)
            if link is None:
                break
            check("limit=500" in link.get_attribute("href"), f"the link keeps the page size: {link.get_attribute('href')}")
            check(pages < 25, "the walk ends")
            url = plain.js("return location.href")
            click_when_still(plain, link)
            plain.wait("return location.href !== arguments[0]", 5, f"page {pages + 1}", url)
        plain.shot("e2e-numbers-nojs-last")
        equal(pages, 20, "pages of 500")
        check(len(seen) == len(set(seen)), "no row on two pages")
        equal(seen, ALL_KEYS, "every row once, in order, across the pages")
        equal(no_js_keys(plain)[-1], "n10000", "the last page ends with the last row")
        check(no_js_next(plain) is None, "no Load more link on the last page")
        from selenium.webdriver.common.by import By
        check(plain.driver.find_elements(By.CSS_SELECTOR, "table.list tbody.pagination") == [], "no pagination body at the end")
    finally:
        plain.quit()


if __name__ == "__main__":
    run([
        test_scroll_to_the_end_loads_every_row_once,
        test_pages_fetched_once_when_jumping_fast,
        test_without_the_stream_get_pages_come_once_each,
        test_without_javascript_load_more_links_reach_the_last_row,
    ], lambda: RealListServer(demo=True, quiet=False))
