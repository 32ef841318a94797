#!/usr/bin/python3
"""The client on the HTML renderer's own snapshots (Tests/HTMLRendererTests/Snapshots); each page
also checked with axe-core, light and dark (axe_check.py)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import ROOT, check, equal, run, wait_until  # noqa: E402

SNAPSHOTS = ROOT / "Tests" / "HTMLRendererTests" / "Snapshots"
QUIET = {"live": False, "retries": 0, "retryBase": 10}


def snapshot(name):
    return (SNAPSHOTS / name).read_text()


# A 1x1 transparent PNG, for the images the countries snapshot shows.
PIXEL = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                      "0000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082")


def serve_what_snapshots_ask_for(server):
    """What the snapshot pages load besides themselves (their images, and the next page the
    client prefetches), so that the console stays empty."""
    for image in ("/img/it.png", "/img/jp.png"):
        server.add_static(image, PIXEL, "image/png")
    for rows in ("/lists/countries/rows?after=aW4&limit=50", "/lists/numbered/rows?after=b2s&limit=4"):
        server.add_static(rows, "")  # an empty last page: the rows read stay those of the snapshot


def test_every_page_snapshot_is_enhanced_without_errors(server, browser):
    pages = sorted(SNAPSHOTS.glob("page-*.html"))
    check(pages, "renderer page snapshots exist")
    serve_what_snapshots_ask_for(server)
    for page in pages:
        server.add_static(f"/snap/{page.name}", page.read_text())
        browser.open(server.url(f"/snap/{page.name}"), QUIET)
        read = browser.js("""const t = document.querySelector('table.list');
            const v = ListClient.get(t);
            return {doc: v.state.doc.sections.map(s => [s.key, s.rows.map(r => r.key)]),
                    dom: [...t.tBodies].filter(b => b.dataset.section !== undefined).map(b =>
                      [b.dataset.section, [...b.querySelectorAll('tr[data-row]')].map(r => r.dataset.row)]),
                    errors: window.__errors}""")
        equal(read["errors"], [], f"{page.name}: script errors or CSP violations")
        equal(read["doc"], read["dom"], f"{page.name}: the view document read from the page")
        for dark in (False, True):  # collapsed, empty, error and loading states, light and dark
            browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
                {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
            browser.axe(f"{page.name} ({'dark' if dark else 'light'})")


def test_loading_and_empty_states_are_kept(server, browser):
    server.add_static("/snap/loading", snapshot("page-loading.html"))
    browser.open(server.url("/snap/loading"), QUIET)
    equal(browser.js("return document.querySelector('table.list').getAttribute('aria-busy')"), "true", "loading stays busy")
    equal(browser.js("return ListClient.get(document.querySelector('table.list')).state.doc.status !== null"), True,
          "the status body is part of the view")
    server.add_static("/snap/empty", snapshot("page-empty.html"))
    browser.open(server.url("/snap/empty"), QUIET)
    check(browser.js("return !!document.querySelector('table.list > tbody.status')"), "empty text body kept")


def test_collapsible_snapshot_collapses_and_toggles(server, browser):
    server.add_static("/snap/collapsible", snapshot("page-collapsible.html"))
    browser.open(server.url("/snap/collapsible"), QUIET)
    hidden = """return [...document.querySelectorAll('tbody[data-section]')].map(b =>
        [b.dataset.section, b.querySelector('button').getAttribute('aria-expanded'),
         [...b.querySelectorAll('tr:not(.section-header)')].every(r => getComputedStyle(r).display === 'none')])"""
    state = browser.js(hidden)
    check(any(s[1] == "false" and s[2] for s in state) and all(s[2] == (s[1] == "false") for s in state),
          f"collapsed sections hide their rows and only they do: {state}")
    browser.shot("renderer-collapsible")
    browser.js("document.querySelector('tbody.collapsed button.section-toggle').click()")
    check(all(not s[2] for s in browser.js(hidden)), "expanded after a click")


def test_first_page_then_the_continued_fragment(server, browser):
    server.add_static("/lists/numbered", snapshot("page-first.html"))
    server.add_static("/lists/numbered/rows?after=b2s&limit=4", snapshot("fragment-continued.html"),
                      headers=[("Link", '</lists/numbered/rows?after=c3&limit=4>; rel="next"')])
    server.add_static("/lists/numbered/rows?after=c3&limit=4", "")  # the end
    server.set_delay("/lists/numbered/rows", 0.05)
    browser.open(server.url("/lists/numbered"), QUIET)
    browser.wait("return document.querySelectorAll('tr[data-row]').length === 8", 5, "the second page")
    layout = browser.js("""return [...document.querySelectorAll('tbody[data-section]')].map(b =>
        [b.dataset.section, [...b.rows].map(r => r.dataset.row || r.className)])""")
    equal(layout, [["s0", ["section-header", "r0-0", "r0-1", "r0-2", "section-footer"]],
                   ["s1", ["section-header", "r1-0", "r1-1", "r1-2", "section-footer"]],
                   ["s2", ["section-header", "r2-0", "r2-1"]]], "continued rows joined their section")
    events = browser.events("list:paginationstarted", "list:paginationended")
    equal(events[:2], [{"type": "list:paginationstarted", "detail": {"section": 1, "row": 0}},
                       {"type": "list:paginationended", "detail": {"section": 1, "row": 1}}], "events")
    # The pagination row stays in view, so the next page is asked for too.
    wait_until(lambda: len(server.requests("GET", "/lists/numbered/rows")) >= 2, 5, 0.02)
    equal([r["query"] for r in server.requests("GET", "/lists/numbered/rows")][:2],
          [{"after": "b2s", "limit": "4"}, {"after": "c3", "limit": "4"}], "cursors and the page size from the link")
    equal(browser.js("return window.__errors"), [], "no errors")


if __name__ == "__main__":
    run([
        test_every_page_snapshot_is_enhanced_without_errors,
        test_loading_and_empty_states_are_kept,
        test_collapsible_snapshot_collapses_and_toggles,
        test_first_page_then_the_continued_fragment,
    ])
