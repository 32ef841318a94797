#!/usr/bin/python3
"""Number columns of a lazy-rows list take the width their numbers need (issue 26): on the
Numbers demo (10,000 rows, `estimatedRowHeight`, so each row is a grid of its own) at 1280 and
390 px, light and dark, the two number columns together take less than a quarter of the table
(a third on a phone),
every cell lines up with its column's header, section headers keep the full width, and after
more pages load (longer numbers) the columns still line up. Screenshots of each.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, run, wait_until  # noqa: E402

LAYOUT_JS = """
const table = document.querySelector('table.list');
const box = (el) => { const r = el.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.width)]; };
const heads = Array.from(table.tHead.rows[0].cells, box);
const rows = Array.from(table.querySelectorAll('tbody > tr[data-row]')).slice(-30);
return {
  table: Math.round(table.getBoundingClientRect().width),
  heads,
  misaligned: rows.flatMap((tr) => Array.from(tr.cells, box).map((b, i) => [tr.dataset.row, i, b, heads[i]]))
    .filter(([, , b, h]) => Math.abs(b[0] - h[0]) > 1 || Math.abs(b[1] - h[1]) > 1).slice(0, 3),
  section: box(table.querySelector('tr.section-header > th'))[1],
  scroll: document.documentElement.scrollWidth,
};
"""


def layout_ok(browser, width, what):
    share = 4 if width >= 1000 else 3  # a phone's words column gets less room, but still most
    # The columns are fitted again on a resize (the emulated width), in a task after it: waited for.
    fitted = "const l = (() => {" + LAYOUT_JS + "})(); return l.misaligned.length === 0 && " \
             "l.heads[0][1] + l.heads[1][1] < l.table / arguments[0] ? l : null"
    wait_until(lambda: browser.js(fitted, share), 5, 0.02)  # if never, the checks below say what is wrong
    layout = browser.wait("const l = (() => {" + LAYOUT_JS + "})(); return l.misaligned.length === 0 ? l : null",
                          5, f"{what}: cells aligned with their headers")
    numbers = layout["heads"][0][1] + layout["heads"][1][1]
    check(numbers < layout["table"] / share, f"{what}: the number columns take {numbers} of {layout['table']} px")
    check(layout["section"] >= layout["table"] - 2, f"{what}: a section header keeps the full width: {layout}")
    check(layout["scroll"] <= width, f"{what}: no sideways scrolling: {layout}")
    return layout


def test_number_columns_fit_their_numbers(server, browser):
    try:
        for width in (1280, 390):
            for dark in (False, True):
                browser.open(server.page_url("numbers"), {"live": True})
                browser.emulate(width, dark)
                what = f"{width} px {'dark' if dark else 'light'}"
                layout_ok(browser, width, what)
                browser.shot(f"numbers-{width}-{'dark' if dark else 'light'}")
        browser.emulate(1280, False)
        browser.open(server.page_url("numbers"), {"live": False, "rootMargin": "0px"})
        for _ in range(3):
            count = browser.js("return document.querySelectorAll('tr[data-row]').length")
            browser.js("ListClient.get(document.querySelector('table.list')).loadMore()")
            browser.wait("return document.querySelectorAll('tr[data-row]').length > arguments[0]", 10, "more rows", count)
        layout_ok(browser, 1280, "after three more pages")
    finally:
        browser.unemulate()


if __name__ == "__main__":
    run([test_number_columns_fit_their_numbers], lambda: RealListServer(demo=True))
