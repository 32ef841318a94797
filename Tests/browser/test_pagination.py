#!/usr/bin/python3
"""Tail loading in a real browser: prefetch, events, spinner, errors and retry, steady scroll."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import FixtureList, check, equal, run  # noqa: E402

SIZES = [37, 150, 3, 210, 1, 99, 200, 120, 80, 100]  # 1,000 rows; pages cross section ends
FAST = {"live": False, "retryBase": 20, "retries": 3}


def thousand():
    return FixtureList.generated("big", SIZES, "A thousand rows")


def path(fixture, index):
    si, ri, _, _ = fixture.flat()[index]
    return {"section": si, "row": ri}


def scroll_until(browser, rows, timeout=5):
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return document.querySelectorAll('tr[data-row]').length >= arguments[0]""", timeout, f"{rows} rows", rows)


def scroll_to_end(browser, timeout=20):
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return !document.querySelector('table.list > tbody.pagination')""", timeout, "the last page")


def test_scrolling_loads_every_row_exactly_once(server, browser):
    fixture = thousand()
    server.add_list(fixture)
    server.set_delay("/lists/big/rows", 0.02)
    browser.open(server.page_url("big"), FAST)
    scroll_until(browser, 150)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight - 2 * innerHeight)")
    browser.shot("pagination-mid-scroll")
    scroll_to_end(browser)
    browser.shot("pagination-end")
    snap = browser.snapshot()
    keys = [k for s in snap["sections"] for k, _ in s["rows"]]
    equal(keys, [f"r{i}" for i in range(1000)], "row keys in order, once each")
    equal([s["key"] for s in snap["sections"]], [s["key"] for s in fixture.sections], "sections")
    equal([len(s["rows"]) for s in snap["sections"]], SIZES, "rows per section")
    equal([s["header"] for s in snap["sections"]], [s["header"] for s in fixture.sections], "one header each")
    equal([s["footer"] for s in snap["sections"]], [s["footer"] for s in fixture.sections], "footers")
    cursors = [r["query"]["after"] for r in server.requests("GET", "/lists/big/rows")]
    equal(len(cursors), 19, "pages fetched")
    equal(len(set(cursors)), len(cursors), "no page fetched twice")
    events = browser.events("list:paginationstarted", "list:paginationended")
    expected = []
    for page in range(1, 20):
        expected.append({"type": "list:paginationstarted", "detail": path(fixture, 50 * page - 1)})
        expected.append({"type": "list:paginationended", "detail": path(fixture, 50 * page)})
    equal(events, expected, "pagination events and their index paths")
    check(browser.js("return !document.querySelector('table.list').hasAttribute('aria-busy')"), "not busy at the end")


def test_fast_scrolling_never_fetches_a_page_twice(server, browser):
    server.add_list(thousand())
    server.set_delay("/lists/big/rows", 0.08)
    browser.open(server.page_url("big"), FAST)
    # Jump to the bottom every few milliseconds while pages are in flight.
    browser.js("""window.__jumper = setInterval(() => window.scrollTo(0, document.documentElement.scrollHeight), 5)""")
    browser.wait("return !document.querySelector('table.list > tbody.pagination')", 20, "the last page")
    browser.js("clearInterval(window.__jumper)")
    cursors = [r["query"]["after"] for r in server.requests("GET", "/lists/big/rows")]
    equal(len(cursors), len(set(cursors)), "distinct cursors")
    equal(browser.js("return document.querySelectorAll('tr[data-row]').length"), 1000, "rows")
    equal(len(browser.events("list:paginationstarted")), 19, "one started event per page")


def test_spinner_row_while_a_page_loads(server, browser):
    server.add_list(thousand())
    server.set_delay("/lists/big/rows", 0.6)
    browser.open(server.page_url("big"), FAST)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    browser.wait("return document.querySelector('tbody.pagination[aria-busy=\"true\"] tr.list-loading .list-spinner')",
                 2, "the spinner row")
    check(browser.js("return document.querySelector('table.list').getAttribute('aria-busy') === 'true'"), "table busy")
    check(browser.js("return document.querySelector('tr.list-loading [role=status]').textContent.includes('Loading')"),
          "spinner announces loading")
    browser.shot("pagination-spinner")
    browser.wait("return document.querySelectorAll('tr[data-row]').length >= 100", 5, "the second page")
    check(browser.js("return !document.querySelector('tr.list-loading')"), "spinner gone")


def test_spinner_row_is_axe_clean(server, browser):
    server.add_list(thousand())
    server.set_delay("/lists/big/rows", 30)  # the page stays loading while axe looks (the next test leaves it)
    browser.open(server.page_url("big"), FAST)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    for dark in (False, True):
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
        browser.wait("return document.querySelector('tr.list-loading .list-spinner')", 5, "the spinner row")
        browser.axe(f"the pagination spinner row ({'dark' if dark else 'light'})")
        check(browser.js("return !!document.querySelector('tr.list-loading')"), "axe looked at the spinner row")
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_failed_page_shows_error_row_and_retry_loads_it(server, browser):
    server.add_list(thousand())
    server.fail_next("/lists/big/rows", 4)  # the first try and its 3 automatic retries
    browser.expect_console(r"/lists/big/rows\S* - Failed to load resource: .*status of 500")
    browser.open(server.page_url("big"), FAST)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    browser.wait("return document.querySelector('tbody.pagination tr.list-error button.list-retry')", 5, "the error row")
    browser.shot("pagination-error")
    for dark in (False, True):  # the error row and its retry button, light and dark
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
        browser.axe(f"the pagination error row ({'dark' if dark else 'light'})")
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    equal(len(server.requests("GET", "/lists/big/rows")), 4, "tries before giving up")
    equal([e["type"] for e in browser.events("list:paginationstarted", "list:paginationended", "list:paginationfailed")],
          ["list:paginationstarted", "list:paginationfailed"], "events before the retry")
    equal(browser.js("return document.querySelectorAll('tr[data-row]').length"), 50, "no rows added on failure")
    browser.js("document.querySelector('button.list-retry').click()")
    browser.wait("return document.querySelectorAll('tr[data-row]').length >= 100", 5, "the page after retry")
    check(browser.js("return !document.querySelector('tr.list-error')"), "error row gone")
    keys = browser.js("return [...document.querySelectorAll('tr[data-row]')].map(r => r.dataset.row)")
    equal(len(keys), len(set(keys)), "no duplicate rows")
    types = [e["type"] for e in browser.events("list:paginationstarted", "list:paginationended", "list:paginationfailed")]
    equal(types[:4], ["list:paginationstarted", "list:paginationfailed", "list:paginationstarted", "list:paginationended"],
          "events after the retry")


def test_pagination_row_removed_after_the_last_page(server, browser):
    fixture = FixtureList.generated("short", [30, 40])  # 70 rows: two pages
    server.add_list(fixture)
    browser.open(server.page_url("short"), FAST)
    scroll_to_end(browser, 5)
    equal(browser.js("return document.querySelectorAll('tr[data-row]').length"), 70, "all rows")
    equal(browser.js("return document.querySelectorAll('table.list > tbody.pagination, tr.list-loading').length"), 0,
          "no pagination or spinner row")
    equal(browser.events("list:paginationended")[-1]["detail"], {"section": 1, "row": 20}, "first row of page 2")


def test_scroll_position_stays_put_while_a_page_appends(server, browser):
    server.add_list(thousand())
    server.set_delay("/lists/big/rows", 0.3)
    browser.open(server.page_url("big"), {**FAST, "rootMargin": "0px 0px 900px 0px"})
    # Scroll so the pagination row is inside the prefetch margin but not on screen.
    browser.js("""const p = document.querySelector('tbody.pagination').getBoundingClientRect();
                  window.scrollTo(0, window.scrollY + p.top - innerHeight - 300)""")
    browser.wait("return document.querySelector('tr.list-loading')", 5, "the prefetch")
    before = browser.js("""const r = [...document.querySelectorAll('tr[data-row]')].find(r => r.getBoundingClientRect().top >= 0);
                           return [scrollY, r.dataset.row, r.getBoundingClientRect().top]""")
    browser.wait("return document.querySelectorAll('tr[data-row]').length >= 100", 5, "the second page")
    after = browser.js("return [scrollY, arguments[0], document.querySelector(`tr[data-row=\"${arguments[0]}\"]`).getBoundingClientRect().top]",
                       before[1])
    equal(after, before, "scroll offset and the first visible row's position")


def test_back_forward_cache_does_not_refetch_pages(server, browser):
    server.add_list(thousand())
    server.add_list(FixtureList.generated("other", [3]))
    browser.open(server.page_url("big"), FAST)
    scroll_until(browser, 150)
    browser.wait("return !ListClient.get(document.querySelector('table.list')).state.loading", 5, "idle")
    fetched = [r["query"]["after"] for r in server.requests("GET", "/lists/big/rows")]
    browser.driver.get(server.page_url("other"))
    browser.driver.back()
    browser.wait("return window.__pageshows && window.__pageshows.length > 0 && !!window.ListClient", 5, "pageshow")
    persisted = browser.js("return window.__pageshows[window.__pageshows.length - 1]")
    if not persisted:
        print("  (this Chromium did not restore from the back/forward cache: a fresh page was loaded)")
        return
    rows_now = browser.js("return document.querySelectorAll('tr[data-row]').length")
    check(rows_now >= 150, "restored rows kept")
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    browser.wait("return document.querySelectorAll('tr[data-row]').length > arguments[0]", 5, "the next page", rows_now)
    again = [r["query"]["after"] for r in server.requests("GET", "/lists/big/rows")]
    equal(len(again), len(set(again)), "no page fetched twice across the back/forward cache")
    check(set(fetched) <= set(again), "earlier pages still counted")


def test_rows_moved_during_the_walk_are_shown_once(server, browser):
    class Moving(FixtureList):
        def fragment(self, start, limit):
            body, nxt = super().fragment(start, limit)
            # r3 moved behind the cursor while the walk went on: the page repeats it.
            again = '<tbody data-section="s1" class="continued">' + self.row_html({"key": "r3", "name": "Row 3 (moved)", "n": 3}) + "</tbody>"
            return again + body, nxt

    fixture = Moving("moving", "Moving", FixtureList.generated("x", [40, 40]).sections)
    server.add_list(fixture)
    browser.open(server.page_url("moving"), FAST)
    scroll_to_end(browser, 5)
    keys = browser.js("return [...document.querySelectorAll('tr[data-row]')].map(r => r.dataset.row)")
    equal(keys, [f"r{i}" for i in range(80)], "every row once, in its first place")


if __name__ == "__main__":
    run([
        test_scrolling_loads_every_row_exactly_once,
        test_fast_scrolling_never_fetches_a_page_twice,
        test_spinner_row_while_a_page_loads,
        test_spinner_row_is_axe_clean,
        test_failed_page_shows_error_row_and_retry_loads_it,
        test_pagination_row_removed_after_the_last_page,
        test_scroll_position_stays_put_while_a_page_appends,
        test_back_forward_cache_does_not_refetch_pages,
        test_rows_moved_during_the_walk_are_shown_once,
    ])
