#!/usr/bin/python3
"""Views in the page (issue 23, point 3; API.md section 9), end to end against the real
list-server: with JavaScript the sort header links, the search field and the filter-removal
links change the view in place (a new first page and a new stream, no reload: a marker set on
`window` survives), the URL follows (`history`, back and forward in place), focus stays, typing
is debounced (fewer requests than keystrokes, counted from resource timing), tail loading and
live writes follow the new view; without JavaScript the same controls navigate. Screenshots of
a sorted, filtered page at 1280 and 390 px, light and dark, go to a new temporary folder (its
path printed) for a person to look at.

Uses LIST_SERVER_BIN, else the package's debug build (Tests/testkit.py; a missing binary fails
the file).
"""
import atexit
import json
import os
import sys
import tempfile
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import SNAPSHOT_JS, Browser, RealListServer, check, equal, run  # noqa: E402

CONFIG = {"reconnectBase": 100, "retryBase": 50, "animate": False}
SIZES = [70, 20, 70]  # 160 rows: more than three pages of 50
COUNT = sum(SIZES)
TABLE = "document.querySelector('table.list')"
KEYS_JS = "return Array.from(document.querySelectorAll('table.list tr[data-row]'), (r) => r.dataset.row)"
_no_js = []
_private = []


def number(i):
    """Row i's number: every value once, in an order unlike the rows' (37 and 160 are coprime)."""
    return (i * 37) % COUNT


def document():
    sections, i = [], 0
    for s, size in enumerate(SIZES):
        rows = []
        for _ in range(size):
            rows.append({"key": f"r{i}", "cells": {"name": f"Row {i}", "n": number(i), "city": ["Oslo", "Lima", "Pune"][i % 3]}})
            i += 1
        sections.append({"key": f"s{s}", "header": f"Section {s}", "footer": f"{size} rows", "rows": rows})
    return {"title": "People", "columns": [{"key": "name", "title": "Name"}, {"key": "n", "title": "Number", "kind": "number"},
                                           {"key": "city", "title": "City"}], "sections": sections}


def expected_keys(descending=False, keep=lambda i: True):
    """The rows of the list's view, section by section in view order (`keep`: the filter)."""
    out, i = [], 0
    for size in SIZES:
        rows = [j for j in range(i, i + size) if keep(j)]
        out += [f"r{j}" for j in sorted(rows, key=number, reverse=descending)]
        i += size
    return out


def fresh(server):
    server.write("PUT", "/lists/people", document())


def open_page(browser, server, query="", **config):
    browser.open(server.page_url("people") + query, {**CONFIG, **config})
    browser.wait(f"return ListClient.get({TABLE}).state.connected", 10, "the stream")
    browser.js("window.__marker = 'no reload'")


def view_changes(browser):
    return browser.js("return window.__viewchanges.length")


def wait_view(browser, before, what):
    """Waits for the next `list:viewchanged` after `before` of them and the new view's stream."""
    browser.wait("return window.__viewchanges.length > arguments[0]", 10, what, before)
    browser.wait(f"return ListClient.get({TABLE}).state.connected", 10, f"the stream of {what}")
    equal(browser.js("return window.__marker"), "no reload", f"{what}: the page was not reloaded")


def record_view_changes(browser):
    browser.js("window.__viewchanges = []; document.addEventListener('list:viewchanged', (e) => window.__viewchanges.push(e.detail.url))")


def click(browser, css):
    from selenium.webdriver.common.by import By
    browser.driver.find_element(By.CSS_SELECTOR, css).click()


def query(browser):
    return urllib.parse.parse_qsl(urllib.parse.urlsplit(browser.driver.current_url).query)


def navigated_to(browser, expected, what):
    """Waits until the URL's query is `expected` (a navigation without JavaScript)."""
    from testkit import wait_until
    wait_until(lambda: query(browser) == expected and browser.js("return document.readyState") == "complete", 10, 0.05)
    equal(query(browser), expected, what)


def aria_sort(browser):
    return browser.js("return [...document.querySelectorAll('table.list thead th')].map(th => th.getAttribute('aria-sort'))")


def focused(browser):
    return browser.js("""const a = document.activeElement;
                         return a ? (a.closest('th') ? 'th:' + a.closest('th').cellIndex : a.id || a.tagName) : null""")


def same_as_fresh_page(browser, what):
    """The table shows what a fresh load of the page's URL renders (every row fits one page)."""
    fresh_table = browser.js("""return fetch(location.href, {cache: 'no-store'}).then(r => r.text())
        .then(t => new DOMParser().parseFromString(t, 'text/html').querySelector('table.list').outerHTML)""")
    expected = browser.snapshot(fresh_table)
    last = None
    for _ in range(500):
        last = browser.snapshot()
        if last == expected:
            return
        browser.js("return new Promise(r => setTimeout(r, 20))")
    equal(last, expected, what)


def no_js_browser():
    if not _no_js:
        _no_js.append(Browser(width=1280, height=800, javascript=False))
        atexit.register(_no_js[0].quit)
    return _no_js[0]


def test_sort_in_place_and_back(server, browser):
    fresh(server)
    open_page(browser, server)
    record_view_changes(browser)
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 0, "sorted by number")
    equal(query(browser), [("sort", "n")], "the URL names the view")
    equal(browser.js(KEYS_JS), expected_keys()[:50], "the first page of the sorted view, in order")
    equal(aria_sort(browser), [None, "ascending", None], "aria-sort")
    equal(focused(browser), "th:1", "the clicked header's link keeps focus")
    equal(browser.driver.title, "People", "the title is unchanged")
    check("Sorted by Number, ascending" in browser.js("return document.querySelector('.list-announcer').textContent"),
          "the new view is announced")
    # Enter on the focused link sorts the other way.
    from selenium.webdriver.common.keys import Keys
    browser.driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_view(browser, 1, "sorted by number, descending")
    equal(query(browser), [("sort_desc", "n")], "the URL names the descending view")
    equal(browser.js(KEYS_JS), expected_keys(descending=True)[:50], "the first page, descending")
    equal(aria_sort(browser), [None, "descending", None], "aria-sort descending")
    equal(focused(browser), "th:1", "focus stays on the header link")
    browser.driver.back()
    wait_view(browser, 2, "back to ascending")
    equal(query(browser), [("sort", "n")], "back: the URL")
    equal(browser.js(KEYS_JS), expected_keys()[:50], "back: the ascending order again")
    equal(aria_sort(browser), [None, "ascending", None], "back: aria-sort")
    browser.driver.back()
    wait_view(browser, 3, "back to the list's order")
    equal(query(browser), [], "back again: the list's own URL")
    equal(browser.js(KEYS_JS), [f"r{i}" for i in range(50)], "back again: list order")
    browser.driver.forward()
    wait_view(browser, 4, "forward to ascending")
    equal(browser.js(KEYS_JS), expected_keys()[:50], "forward: the ascending order")


def test_search_by_typing_is_debounced(server, browser):
    from selenium.webdriver.common.by import By
    fresh(server)
    # A longer pause than the default 300 ms, so that a busy machine's slow keystrokes still
    # count as one run of typing.
    open_page(browser, server, "?sort_desc=n", searchDelay=1000)
    record_view_changes(browser)
    field = browser.driver.find_element(By.ID, "view-q")
    field.click()
    typed = "row 1"
    field.send_keys(typed)
    wait_view(browser, 0, "the search")
    browser.wait("return document.querySelectorAll('table.list tr[data-row]').length > 0", 5, "rows")
    equal(dict(query(browser)), {"sort_desc": "n", "q": typed}, "the URL holds the search and keeps the sort")
    keep = lambda i: "row 1" in f"row {i}"  # noqa: E731
    equal(browser.js(KEYS_JS), expected_keys(descending=True, keep=keep)[:50], "the matching rows, still sorted")
    requests = browser.js("""return performance.getEntriesByType('resource')
        .filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname === '/lists/people'
                && new URL(e.name).searchParams.has('q')).map(e => e.name)""")
    check(1 <= len(requests) < len(typed), f"fewer requests than keystrokes ({len(typed)}): {requests}")
    equal(focused(browser), "view-q", "the search field keeps focus")
    equal(browser.js("const q = document.getElementById('view-q'); return [q.value, q.selectionStart, q.selectionEnd]"),
          [typed, len(typed), len(typed)], "the text and the caret stay")
    filters = browser.js("return [...document.querySelectorAll('.view-filters li')].map(li => li.firstChild.textContent.trim())")
    equal(filters, ["Search: \u201crow 1\u201d"], "the active search shows as a filter")
    csv = browser.js("return new URL(document.querySelector('a.view-csv').href).searchParams.get('q')")
    equal(csv, typed, "the CSV link exports the new view")
    # Typing on: one history entry for the run of typing, so back returns to the view before it.
    field.send_keys("0")
    wait_view(browser, 1, "the longer search")
    equal(dict(query(browser))["q"], "row 10", "the URL follows the typing")
    browser.driver.back()
    wait_view(browser, 2, "back before the search")
    equal(query(browser), [("sort_desc", "n")], "back leaves the search")
    equal(browser.js("return document.getElementById('view-q').value"), "", "the field shows the view's (empty) search")
    equal(browser.js(KEYS_JS), expected_keys(descending=True)[:50], "every row again")


def test_remove_a_filter(server, browser):
    fresh(server)
    open_page(browser, server, "?filter.n=lt:40&q=row")
    record_view_changes(browser)
    equal(len(browser.js(KEYS_JS)), 40, "the filtered view")
    click(browser, ".view-filters li:nth-child(2) a")
    wait_view(browser, 0, "the filter removed")
    equal(query(browser), [("q", "row")], "the URL lost the filter")
    equal(browser.js(KEYS_JS), [f"r{i}" for i in range(50)], "every row matches again (list order)")
    equal(browser.js("return [...document.querySelectorAll('.view-filters li a')].map(a => a.getAttribute('aria-label'))"),
          ["Remove search \u201crow\u201d"], "only the search is left")
    equal(browser.js("return [...document.querySelectorAll('form.view-search input[type=hidden]')].map(i => i.name)"), [],
          "the form no longer carries the filter")
    equal(browser.js("return document.activeElement.getAttribute('aria-label')"), "Remove search \u201crow\u201d",
          "focus moves to the removal link now in its place")
    click(browser, ".view-filters li a")
    wait_view(browser, 1, "the search removed")
    equal(query(browser), [], "the list's own URL")
    equal(browser.js("return document.querySelectorAll('.view-filters').length"), 0, "no active filters left")
    equal(focused(browser), "view-q", "focus moves to the search field")


def test_tail_load_a_sorted_view_to_its_end(server, browser):
    fresh(server)
    open_page(browser, server)
    record_view_changes(browser)
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 0, "sorted by number")
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 1, "sorted descending")
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return !document.querySelector('table.list > tbody.pagination')""", 20, "the end of the view")
    equal(browser.js(KEYS_JS), expected_keys(descending=True), "every row once, in the view's order")
    failed = browser.events("list:paginationfailed")
    equal(failed, [], "no page failed")
    # From the end, through the sticky head: the new view shows from the table's top.
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 2, "sorted ascending from the end of the table")
    equal(browser.js(KEYS_JS), expected_keys()[:50], "the first page of the new view")
    top = browser.js(f"return {TABLE}.getBoundingClientRect().top")
    check(-1 <= top < 200, f"the table's top is in view: {top}")


def test_a_newer_view_wins_over_a_slower_older_one(server, browser):
    fresh(server)
    open_page(browser, server)
    record_view_changes(browser)
    hold_fetches(browser, "sort=name")  # the answer for the name sort comes late
    click(browser, "table.list thead th:nth-child(1) a.sort")
    click(browser, "table.list thead th:nth-child(3) a.sort")
    wait_view(browser, 0, "sorted by city")
    browser.js("window.__release()")
    browser.wait("return window.__heldOutcome", 10, "the held request to end")
    browser.js("return new Promise((r) => setTimeout(r, 0))")  # the client's reaction to it, had it one
    equal(browser.js("return window.__heldOutcome"), "AbortError", "the older request was aborted")
    equal(query(browser), [("sort", "city")], "the URL names the newer view")
    equal(aria_sort(browser), [None, None, "ascending"], "the newer view is shown")
    equal(view_changes(browser), 1, "one view shown")


HOLD_JS = """
  const realFetch = window.fetch;
  let release;
  window.__held = new Promise((r) => { release = r; });
  window.__release = () => release();
  window.__heldOutcome = null;
  window.fetch = async (url, init) => {
    if (!String(url).includes(arguments[0])) return realFetch(url, init);
    await window.__held;
    try {
      const response = await realFetch(url, init);
      const body = await response.text();
      window.__heldOutcome = 'answered';
      return new Response(body, { status: response.status, headers: response.headers });
    } catch (e) {
      window.__heldOutcome = e.name;
      throw e;
    }
  };"""


def hold_fetches(browser, url_part):
    """Holds back the answers to the page's fetches whose URL holds `url_part` (a slow network)
    until `window.__release()`; `window.__heldOutcome` says how the first held one ended."""
    browser.js(HOLD_JS, url_part)


def test_a_view_change_during_tail_loading(server, browser):
    """A page was loading when the view changed: that load ends (`view changed`), its late answer
    changes nothing, and the new view tails to its end from its own cursor."""
    fresh(server)
    open_page(browser, server)
    record_view_changes(browser)
    hold_fetches(browser, "/more")
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    browser.wait("return window.__events.some((e) => e.type === 'list:paginationstarted')", 10, "a page requested")
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 0, "sorted while a page was loading")
    equal(browser.events("list:paginationfailed"), [{"type": "list:paginationfailed", "detail": {"error": "view changed"}}],
          "the load in progress ended")
    # The old view's subscription closed with its stream: the held `more` is answered 404.
    browser.expect_console(r"/subscriptions/[^ ]*/more\?limit=\d+ - Failed to load resource: .* 404")
    browser.js("window.__release()")
    browser.wait("return window.__heldOutcome", 10, "the held page to end")
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return !document.querySelector('table.list > tbody.pagination')""", 20, "the end of the view")
    equal(browser.js(KEYS_JS), expected_keys(), "every row once, in the view's order")


def test_a_failed_view_falls_back_to_navigation(server, browser):
    """A view the server refuses (an unknown column: 400) is navigated to, as without
    JavaScript: the server's error page shows, at that URL."""
    fresh(server)
    open_page(browser, server)
    browser.expect_console(r"status of 400")
    browser.js("document.querySelector('table.list thead a.sort').setAttribute('href', '/lists/people?sort=nope')")
    click(browser, "table.list thead th:nth-child(1) a.sort")
    browser.wait("return window.__marker === undefined && document.readyState === 'complete'", 10, "a navigation")
    equal(query(browser), [("sort", "nope")], "the URL of the refused view")
    check("unknown column" in browser.js("return document.body.textContent"), "the error page says what is wrong")
    check(not browser.js("return document.querySelector('table.list')"), "no table")


def test_live_writes_follow_the_new_view(server, browser):
    fresh(server)
    open_page(browser, server, "?filter.n=lt:40")
    record_view_changes(browser)
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 0, "the filtered view sorted by number")
    keep = lambda i: number(i) < 40  # noqa: E731
    equal(browser.js(KEYS_JS), expected_keys(keep=keep), "sorted, filtered")
    first = expected_keys(keep=keep)[0]
    index = int(first[1:])
    # A write that changes the sort value of the first row of its section: it moves to that section's end.
    server.write("PUT", f"/lists/people/rows/{first}", {"key": first, "cells": {"name": f"Row {index}", "n": 39.5, "city": "Oslo"}})
    same_as_fresh_page(browser, "a row moved by a write")
    keys = browser.js("return [...document.querySelector('tr[data-row=\"%s\"]').parentElement.querySelectorAll('tr[data-row]')]"
                      ".map(r => r.dataset.row)" % first)
    equal(keys[-1], first, "the row moved to its section's end")
    # A write that makes a row stop matching the filter: it leaves the page.
    second = browser.js(KEYS_JS)[1]
    server.write("PUT", f"/lists/people/rows/{second}", {"key": second, "cells": {"name": "Gone", "n": 1000, "city": "Oslo"}})
    same_as_fresh_page(browser, "a row left the filtered view")
    check(second not in browser.js(KEYS_JS), f"{second} left the view")
    equal(browser.js("return window.__marker"), "no reload", "no reload")


BIG = 24_000  # over the server's 20,000: the first page of a view not built yet is read at once


def test_a_large_list_sorted_in_place_stays_live(server, browser):
    """On a large list the server reads a view's first page without the view and builds the view
    behind it: in the page, the sorted rows come, the stream follows the new view, a write moves
    a row into the first page, and tail loading goes on in view order."""
    columns = document()["columns"]
    rows = [{"key": f"b{i}", "cells": {"name": f"Item {i}", "n": (i * 7919) % BIG, "city": "Oslo"}} for i in range(BIG)]
    server.write("PUT", "/lists/big", {"title": "Big", "columns": columns, "sections": [{"key": "all", "rows": rows}]})
    browser.open(server.page_url("big"), CONFIG)
    browser.wait(f"return ListClient.get({TABLE}).state.connected", 10, "the stream")
    browser.js("window.__marker = 'no reload'")
    record_view_changes(browser)
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 0, "the large list sorted by number")
    by_number = [row["key"] for row in sorted(rows, key=lambda row: row["cells"]["n"])]
    equal(browser.js(KEYS_JS)[:50], by_number[:50], "the first 50 rows by number")
    # The row with the largest number is written to come first.
    last = by_number[-1]
    server.write("PUT", f"/lists/big/rows/{last}", {"key": last, "cells": {"name": "Now first", "n": -1, "city": "Lima"}})
    browser.wait("return document.querySelector('table.list tr[data-row]').dataset.row === arguments[0]", 10,
                 "the written row at the top", last)
    equal(browser.js(KEYS_JS)[:50], [last] + by_number[:49], "the write moved the row into the first page")
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return document.querySelectorAll('table.list tr[data-row]').length >= 150""", 20, "two more pages")
    shown = browser.js(KEYS_JS)
    equal(shown, ([last] + by_number[:-1])[:len(shown)], "the pages after it, in view order")
    equal(browser.events("list:paginationfailed"), [], "no page failed")
    equal(browser.js("return window.__marker"), "no reload", "no reload")


def test_without_javascript_the_controls_navigate(server, browser):
    from selenium.webdriver.common.by import By
    fresh(server)
    plain = no_js_browser()
    plain.driver.get(server.page_url("people"))
    check(not plain.js("return document.querySelector('table.list.list-enhanced')"), "the client did not run")
    plain.driver.find_element(By.CSS_SELECTOR, "table.list thead th:nth-child(2) a.sort").click()
    navigated_to(plain, [("sort", "n")], "the header link navigated")
    equal(plain.js(KEYS_JS), expected_keys()[:50], "sorted")
    equal(aria_sort(plain), [None, "ascending", None], "aria-sort")
    field = plain.driver.find_element(By.ID, "view-q")
    field.send_keys("row 1")
    field.submit()
    navigated_to(plain, [("q", "row 1"), ("sort", "n")], "the form navigated")
    keep = lambda i: "row 1" in f"row {i}"  # noqa: E731
    equal(plain.js(KEYS_JS), expected_keys(keep=keep)[:50], "searched, still sorted")
    plain.driver.find_element(By.CSS_SELECTOR, ".view-filters li a").click()
    navigated_to(plain, [("sort", "n")], "the removal link navigated")
    equal(plain.js(KEYS_JS), expected_keys()[:50], "every row again")


def private_server():
    """A second server, `--private` with a token, started once per file run."""
    if not _private:
        token = "views-" + os.urandom(12).hex()
        _private.append(RealListServer(demo=False, flags=("--private", "--token", token), token=token).start())
        atexit.register(_private[0].stop)
    return _private[0]


def test_a_view_link_changes_view_in_place(server, browser):
    """A private list opened through a view link (docs/ACCESS.md): the key stays on the URL, the
    new view's page, its stream and its pages (a browser sends no token), so the new view loads
    to its end and goes live."""
    private = private_server()
    private.write("PUT", "/lists/people", document())
    status, _, text = private.curl("POST", "/lists/people/links?expires=600")
    equal(status, 201, "a view link")
    link = json.loads(text)["url"]
    key = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))["key"]
    browser.open(link, CONFIG)
    browser.wait(f"return ListClient.get({TABLE}).state.connected", 10, "the stream")
    browser.js("window.__marker = 'no reload'")
    record_view_changes(browser)
    # A stream's reset writes the head without the key (one head serves every subscriber).
    browser.js(f"const v = ListClient.get({TABLE}); v.disconnect(); v.connect(false)")
    browser.wait("return window.__events.some((e) => e.type === 'list:updated')", 10, "the reset")
    check("key=" not in browser.js("return document.querySelector('table.list thead a.sort').getAttribute('href')"),
          "the reset's head links carry no key")
    click(browser, "table.list thead th:nth-child(2) a.sort")
    wait_view(browser, 0, "sorted by number through the view link")
    equal(dict(query(browser)), {"sort": "n", "key": key}, "the URL keeps the key")
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return !document.querySelector('table.list > tbody.pagination')""", 20, "the end of the view")
    equal(browser.js(KEYS_JS), expected_keys(), "every row once, in the view's order")
    equal(browser.js(KEYS_JS)[0], "r0", "r0 (number 0) comes first")
    private.write("PUT", "/lists/people/rows/r0", {"key": "r0", "cells": {"name": "Row 0", "n": 1000, "city": "Oslo"}})
    browser.wait("""const rows = [...document.querySelector('tbody[data-section="s0"]').querySelectorAll('tr[data-row]')];
                    return rows[rows.length - 1].dataset.row === 'r0'""", 10, "r0 moved to its section's end")


def test_screenshots_of_a_sorted_filtered_page(server, browser):
    fresh(server)
    folder = Path(tempfile.mkdtemp(prefix="views-shots-"))
    shots = []
    try:
        for dark in (False, True):
            for width in (1280, 390):
                open_page(browser, server, "?filter.city=eq:Oslo&q=row%201")
                browser.emulate(width, dark)
                record_view_changes(browser)
                click(browser, "table.list thead th:nth-child(2) a.sort")
                wait_view(browser, 0, "sorted in place")
                sizes = browser.js("return [window.innerWidth, document.documentElement.scrollWidth]")
                check(sizes[1] <= sizes[0] == width, f"{width} px: no sideways scrolling: innerWidth, scrollWidth = {sizes}")
                browser.settle()
                browser.axe(f"a sorted, filtered view changed in place at {width} px {'dark' if dark else 'light'}")
                shots.append(folder / f"views-{width}-{'dark' if dark else 'light'}.png")
                browser.driver.save_screenshot(str(shots[-1]))
    finally:
        browser.unemulate()
    print("     shots: " + " ".join(str(s) for s in shots))


if __name__ == "__main__":
    run([
        test_sort_in_place_and_back,
        test_search_by_typing_is_debounced,
        test_remove_a_filter,
        test_tail_load_a_sorted_view_to_its_end,
        test_a_newer_view_wins_over_a_slower_older_one,
        test_a_view_change_during_tail_loading,
        test_a_failed_view_falls_back_to_navigation,
        test_live_writes_follow_the_new_view,
        test_a_large_list_sorted_in_place_stays_live,
        test_a_view_link_changes_view_in_place,
        test_without_javascript_the_controls_navigate,
        test_screenshots_of_a_sorted_filtered_page,
    ], lambda: RealListServer(demo=False, quiet=True))
