#!/usr/bin/python3
"""The page's editing mode (API.md section 10; Public/js/edit-mode.js) against the real server.

- On a server without tokens (writes open) every reader gets the Edit button: a cell edited in
  place, a row deleted and undone, rows moved by keyboard and by pointer drag, a row added; a
  second browser sees each change live; the stream's patch is what ends the pending state.
- A conflicting edit (the row written over HTTP while its cell is being edited) is refused with
  412 and shown beside the row with the current value; the server keeps the other write.
- On a server with a token: no edit control without a key or with a view link; an edit link
  gets them and its writes work.
- Screenshots in editing mode at 1280 and 390 px, light and dark (LIST_CLIENT_SHOTS).
"""
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Browser, RealListServer, check, equal, run, wait_until  # noqa: E402

CONFIG = {"reconnectBase": 100, "retryBase": 50, "animationMs": 60}
TOKEN = "edit-" + os.urandom(12).hex()
SECTIONS_JS = """return Array.from(document.querySelectorAll('table.list > tbody[data-section]'), (b) =>
  [b.dataset.section, Array.from(b.querySelectorAll(':scope > tr[data-row]'), (r) => r.dataset.row)])"""


def document():
    def row(key, name, n):
        return {"key": key, "cells": {"name": name, "n": n}}
    return {"title": "Edits", "columns": [{"key": "name", "title": "Name"}, {"key": "n", "title": "Number", "kind": "number"}],
            "sections": [{"key": "a", "header": "Alpha", "footer": "end of Alpha", "rows": [row(f"r{i}", f"Item {i}", i) for i in range(4)]},
                         {"key": "b", "header": "Beta", "rows": [row(f"r{i}", f"Item {i}", i) for i in range(4, 7)]}]}


def server_sections(server, list_id="edits"):
    status, _, text = server.curl("GET", f"/lists/{list_id}")
    equal(status, 200, "GET the document")
    return [[s["key"], [r["key"] for r in s.get("rows", [])]] for s in json.loads(text)["sections"]]


def server_row(server, key, list_id="edits"):
    status, headers, text = server.curl("GET", f"/lists/{list_id}/rows/{key}")
    return (json.loads(text), headers["etag"].strip('"')) if status == 200 else (None, None)


def shown_sections(browser):
    return [list(pair) for pair in browser.js(SECTIONS_JS)]


def wait_sections(browser, expected, what, timeout=5):
    """Waits until the page shows `expected` with no edit pending (the stream's patch came)."""
    settled = "return !document.querySelector('tr.edit-pending')"
    wait_until(lambda: shown_sections(browser) == expected and browser.js(settled), timeout, 0.02)
    equal(shown_sections(browser), expected, what)
    check(browser.js(settled), f"{what}: no edit is left pending")


def control(browser, row, name):
    """The button of `row` whose accessible name begins with `name` (Edit, Delete, Move up…)."""
    return browser.js("""for (const tr of document.querySelectorAll('tr[data-row]')) if (tr.dataset.row === arguments[0])
      for (const b of tr.querySelectorAll('button')) if ((b.getAttribute('aria-label') || b.textContent).startsWith(arguments[1])) return b;
      return null""", row, name)


def cell(browser, row, index):
    return browser.js("""for (const tr of document.querySelectorAll('tr[data-row]')) if (tr.dataset.row === arguments[0])
      return tr.cells[arguments[1]]; return null""", row, index)


def cell_text(browser, row, index):
    return browser.js("const c = arguments[0]; return c ? c.textContent : null", cell(browser, row, index))


def open_editing(server, browser, url=None):
    server.write("PUT", "/lists/edits", document())
    browser.open(url or server.url("/lists/edits"), CONFIG)
    browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the live stream")
    # The editing mode's modules come with the page (preloaded) but run after the table is enhanced.
    toggle = browser.wait("return document.querySelector('.edit-toolbar button[aria-pressed]')", 5, "an Edit button")
    equal(browser.js("return arguments[0].textContent", toggle), "Edit", "its name")
    equal(browser.js("return arguments[0].getAttribute('aria-pressed')", toggle), "false", "editing is off at first")
    check(control(browser, "r0", "Delete") is None, "no row control before editing is on")
    toggle.click()
    equal(browser.js("return arguments[0].getAttribute('aria-pressed')", toggle), "true", "the button says editing is on")
    browser.wait("return document.querySelector('.list-announcer').textContent.startsWith('Editing on')", 2, "editing on is announced")
    check(control(browser, "r0", "Delete") is not None, "rows get their controls")


def second_browser(server):
    other = Browser()
    other.open(server.url("/lists/edits"), CONFIG)
    other.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the second browser's stream")
    return other


def type_into_cell(browser, row, index, text):
    from selenium.webdriver.common.keys import Keys
    target = cell(browser, row, index)
    browser.js("arguments[0].focus()", target)
    target.send_keys(Keys.ENTER)
    field = browser.wait("return document.querySelector('td.edit-cell input')", 5, "the cell's field")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text)
    return field


def test_edit_delete_undo_add_live_in_a_second_browser(server, browser):
    from selenium.webdriver.common.keys import Keys
    open_editing(server, browser)
    other = second_browser(server)
    try:
        # A text cell, by keyboard: Enter opens the field, Enter saves.
        field = type_into_cell(browser, "r1", 0, "Renamed")
        equal(browser.js("return arguments[0].getAttribute('aria-label')", field), "Edit Name of Item 1", "the field's name")
        field.send_keys(Keys.ENTER)
        browser.wait("return [...document.querySelectorAll('tr[data-row=\"r1\"]')].some((r) => r.cells[0].textContent === 'Renamed'"
                     " && !r.classList.contains('edit-pending'))", 5, "the stream's patch ends the pending edit")
        equal(server_row(server, "r1")[0]["cells"], {"name": "Renamed", "n": 1}, "the server has the new name")
        other.wait("return document.querySelector('tr[data-row=\"r1\"]').cells[0].textContent === 'Renamed'", 5, "the second browser")
        equal(browser.js("return document.querySelector('tr[data-row=\"r1\"]').dataset.version"), server_row(server, "r1")[1],
              "the row shows its new version")

        # A number cell by double click gets a number field; Escape cancels.
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(browser.driver).double_click(cell(browser, "r2", 1)).perform()
        field = browser.wait("return document.querySelector('td.edit-cell input')", 5, "the number field")
        equal(field.get_attribute("type"), "number", "a number column gets a number field")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("99")
        field.send_keys(Keys.ESCAPE)
        equal(cell_text(browser, "r2", 1), "2", "Escape puts the old value back")
        equal(server_row(server, "r2")[0]["cells"]["n"], 2, "and sends nothing")
        field = type_into_cell(browser, "r2", 1, "42.5")
        browser.js("arguments[0].blur()", field)  # leaving the field saves
        wait_until(lambda: server_row(server, "r2")[0]["cells"]["n"] == 42.5, 5, 0.05)
        equal(server_row(server, "r2")[0]["cells"]["n"], 42.5, "leaving a number field saves a number")
        other.wait("return document.querySelector('tr[data-row=\"r2\"]').cells[1].textContent === '42.5'", 5, "the second browser")

        # Ctrl+Z outside a field undoes the last edit by the inverse write.
        browser.js("document.activeElement && document.activeElement.blur()")
        ActionChains(browser.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_until(lambda: server_row(server, "r2")[0]["cells"]["n"] == 2, 5, 0.05)
        equal(server_row(server, "r2")[0]["cells"]["n"], 2, "Ctrl+Z merged the old value back")
        other.wait("return document.querySelector('tr[data-row=\"r2\"]').cells[1].textContent === '2'", 5, "the second browser")

        # Delete, then undo with the button: the row comes back where it was, with its cells.
        before = server_sections(server)
        control(browser, "r2", "Delete").click()
        check(browser.js("return document.querySelector('tr[data-row=\"r2\"]')?.classList.contains('edit-pending') ?? true"),
              "the deleted row shows as pending at once (or is already gone)")
        expected = [["a", ["r0", "r1", "r3"]], ["b", ["r4", "r5", "r6"]]]
        wait_sections(browser, expected, "the row is gone")
        wait_sections(other, expected, "in the second browser too")
        equal(server_row(server, "r2")[0], None, "and on the server")
        browser.js("document.querySelector('.edit-toolbar button.edit-undo').click()")
        wait_sections(browser, before, "undo puts the row back at its place")
        wait_sections(other, before, "in the second browser too")
        equal(server_row(server, "r2")[0]["cells"], {"name": "Item 2", "n": 2}, "with its cells")

        # Add a row to section b: it arrives at the section's end and its first cell gets focus.
        browser.js("""for (const b of document.querySelectorAll('tr.edit-add button'))
                        if (b.getAttribute('aria-label') === 'Add row to Beta') b.click()""")
        browser.wait("return document.querySelector('tbody[data-section=\"b\"] > tr[data-row]:nth-last-child(2)')?.dataset.row.startsWith('row-')",
                     5, "the new row at the end of Beta")
        new_key = shown_sections(browser)[1][1][-1]
        check(new_key.startswith("row-"), f"a new key: {new_key}")
        browser.wait("return document.activeElement && document.activeElement.matches('td.edit-cell')"
                     " && document.activeElement.parentElement.dataset.row === arguments[0]", 5, "its first cell has focus", new_key)
        field = type_into_cell(browser, new_key, 0, "Fresh")
        field.send_keys(Keys.ENTER)
        wait_until(lambda: (server_row(server, new_key)[0] or {}).get("cells") == {"name": "Fresh"}, 5, 0.05)
        equal(server_row(server, new_key)[0]["cells"], {"name": "Fresh"}, "the new row's cell was saved")
        equal(server_sections(server)[1][1][-1], new_key, "at the end of its section")
        other.wait("return [...document.querySelectorAll('tr[data-row]')].some((r) => r.cells[0].textContent === 'Fresh')", 5,
                   "the second browser sees the new row")
    finally:
        other.quit()


def test_move_by_keyboard_and_by_drag(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    open_editing(server, browser)
    other = second_browser(server)
    try:
        down = control(browser, "r0", "Move down")
        equal(down.get_attribute("aria-label"), "Move down Item 0", "the button's name")
        browser.js("arguments[0].focus()", down)
        down.send_keys(Keys.ENTER)
        expected = [["a", ["r1", "r0", "r2", "r3"]], ["b", ["r4", "r5", "r6"]]]
        wait_sections(browser, expected, "Move down moved the row one place")
        equal(server_sections(server), expected, "on the server")
        wait_sections(other, expected, "in the second browser")
        browser.wait("return document.activeElement?.getAttribute('aria-label') === 'Move down Item 0'", 5,
                     "focus stays on the moved row's button when the stream replaces the row")

        up = control(browser, "r4", "Move up")
        browser.js("arguments[0].focus()", up)
        up.send_keys(Keys.ENTER)
        expected = [["a", ["r1", "r0", "r2", "r3", "r4"]], ["b", ["r5", "r6"]]]
        wait_sections(browser, expected, "Move up on a section's first row moves it to the end of the section before")
        equal(server_sections(server), expected, "on the server")

        # Drag r5 by its handle onto the lower half of r0: it lands after r0.
        handle = browser.js("return document.querySelector('tr[data-row=\"r5\"] .edit-handle')")
        target = browser.js("return document.querySelector('tr[data-row=\"r0\"]')")
        height = browser.js("return arguments[0].getBoundingClientRect().height", target)
        ActionChains(browser.driver).click_and_hold(handle).move_to_element_with_offset(target, 0, 2) \
            .move_to_element_with_offset(target, 0, int(height / 4)).release().perform()
        expected = [["a", ["r1", "r0", "r5", "r2", "r3", "r4"]], ["b", ["r6"]]]
        wait_sections(browser, expected, "a pointer drag moved the row")
        equal(server_sections(server), expected, "on the server")
        wait_sections(other, expected, "in the second browser")

        # A touch drag (a touch pointer: the handle takes it instead of scrolling): r6 onto r1's upper half.
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput
        from selenium.webdriver.common.actions import interaction
        handle = browser.js("return document.querySelector('tr[data-row=\"r6\"] .edit-handle')")
        target = browser.js("return document.querySelector('tr[data-row=\"r1\"]')")
        touch = ActionBuilder(browser.driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        touch.pointer_action.move_to(handle).pointer_down().move_to(target, 0, -2).move_to(target, 0, -int(height / 4)).pointer_up()
        touch.perform()
        expected = [["a", ["r6", "r1", "r0", "r5", "r2", "r3", "r4"]], ["b", []]]
        wait_sections(browser, expected, "a touch drag moved the row, out of its section")
        equal(server_sections(server), expected, "on the server")
        browser.js("document.querySelector('.edit-toolbar button.edit-undo').click()")
        expected = [["a", ["r1", "r0", "r5", "r2", "r3", "r4"]], ["b", ["r6"]]]
        wait_sections(browser, expected, "undo put it back in its (otherwise empty) section")
        equal(server_sections(server), expected, "on the server")

        # Undo the drag: the row goes back to its section.
        browser.js("document.querySelector('.edit-toolbar button.edit-undo').click()")
        expected = [["a", ["r1", "r0", "r2", "r3", "r4"]], ["b", ["r5", "r6"]]]
        wait_sections(browser, expected, "undo moved it back")
        equal(server_sections(server), expected, "on the server")
    finally:
        other.quit()


def test_a_conflicting_edit_is_refused_and_shown_with_the_current_value(server, browser):
    from selenium.webdriver.common.keys import Keys
    open_editing(server, browser)
    version = browser.js("return document.querySelector('tr[data-row=\"r3\"]').dataset.version")
    field = type_into_cell(browser, "r3", 0, "Mine")
    server.write("PATCH", "/lists/edits/rows/r3", {"cells": {"name": "Theirs"}}, "application/merge-patch+json")
    browser.wait("return document.querySelector('tr[data-row=\"r3\"]').dataset.version !== arguments[0]", 5,
                 "the other write reaches the page while the field is open", version)
    field = browser.js("return document.querySelector('td.edit-cell input')")
    equal(browser.js("return arguments[0].value", field), "Mine", "the field keeps what was typed")
    field.send_keys(Keys.ENTER)
    browser.expect_console(r"412 \(Precondition Failed\)")
    message = browser.wait("const e = document.querySelector('tr.edit-error'); return e && e.textContent", 5, "the message beside the row")
    check("someone changed this row first" in message and "Name: Theirs" in message, f"it says why, with the current value: {message}")
    equal(browser.js("return document.querySelector('tr.edit-error').previousElementSibling.dataset.row"), "r3", "beside the row")
    equal(server_row(server, "r3")[0]["cells"]["name"], "Theirs", "the other write was not overwritten")
    browser.wait("return document.querySelector('tr[data-row=\"r3\"]').cells[0].textContent === 'Theirs'", 5, "the row shows the truth")
    check(not browser.js("return document.querySelector('tr[data-row=\"r3\"]').classList.contains('edit-pending')"), "no pending overlay")
    browser.wait("return document.querySelector('.list-announcer').textContent.includes('was not saved')", 2, "the refusal is announced")
    browser.js("document.querySelector('tr.edit-error button').click()")
    check(not browser.js("return document.querySelector('tr.edit-error')"), "the message can be dismissed")


def test_refused_moves_and_deletes_put_the_row_back(server, browser):
    open_editing(server, browser)
    browser.js("ListClient.get(document.querySelector('table.list')).disconnect()")  # the page stops hearing of writes
    server.write("PATCH", "/lists/edits/rows/r1", {"cells": {"name": "Changed elsewhere"}}, "application/merge-patch+json")
    server.write("DELETE", "/lists/edits/rows/r5")
    browser.expect_console(r"(412 \(Precondition Failed\)|404 \(Not Found\))")
    shown = [["a", ["r0", "r1", "r2", "r3"]], ["b", ["r4", "r5", "r6"]]]

    control(browser, "r1", "Move down").click()
    message = browser.wait("const e = document.querySelector('tr.edit-error'); return e && e.textContent", 5, "the refusal beside the row")
    check("Moving Item 1 was not saved: someone changed this row first" in message and "Name: Changed elsewhere" in message,
          f"a stale move says why, with the current value: {message}")
    equal(shown_sections(browser), shown, "the row is back where it was")
    check(not browser.js("return document.querySelector('tr.edit-pending')"), "no pending overlay is left")
    equal(server_sections(server)[0][1], ["r0", "r1", "r2", "r3"], "the server did not move it")

    control(browser, "r5", "Delete").click()
    browser.wait("return [...document.querySelectorAll('tr.edit-error')].some((e) => e.textContent.includes('no longer in the list'))",
                 5, "a delete of a row that is gone says so")
    equal(shown_sections(browser), shown, "and leaves the page's row in place")
    check(not browser.js("return document.querySelector('tr.edit-pending')"), "no pending overlay is left")

    browser.js("ListClient.get(document.querySelector('table.list')).connect(false)")  # a fresh reset shows the truth
    wait_sections(browser, [["a", ["r0", "r1", "r2", "r3"]], ["b", ["r4", "r6"]]], "the stream's reset is the truth")


def test_a_sorted_view_edits_cells_and_deletes_but_does_not_move(server, browser):
    from selenium.webdriver.common.keys import Keys
    open_editing(server, browser, server.url("/lists/edits?sort_desc=n"))
    check(control(browser, "r6", "Delete") is not None, "a view's rows can be deleted")
    check(control(browser, "r6", "Move up") is None and not browser.js("return document.querySelector('.edit-handle')"),
          "but not moved: the view's order is not the list's")
    field = type_into_cell(browser, "r6", 0, "Sorted edit")
    field.send_keys(Keys.ENTER)
    wait_until(lambda: server_row(server, "r6")[0]["cells"]["name"] == "Sorted edit", 5, 0.05)
    equal(server_row(server, "r6")[0]["cells"]["name"], "Sorted edit", "a cell edited in the view")
    browser.wait("return [...document.querySelectorAll('tr[data-row=\"r6\"]')].some((r) => r.cells[0].textContent === 'Sorted edit'"
                 " && !r.classList.contains('edit-pending'))", 5, "and streamed back into the view")


def test_screenshots_in_editing_mode(server, browser):
    open_editing(server, browser)
    # With a message beside a row, as a refused edit leaves one.
    browser.js("ListClient.get(document.querySelector('table.list')).disconnect()")
    server.write("PATCH", "/lists/edits/rows/r1", {"cells": {"name": "Changed elsewhere"}}, "application/merge-patch+json")
    browser.expect_console(r"412 \(Precondition Failed\)")
    control(browser, "r1", "Delete").click()
    browser.wait("return document.querySelector('tr.edit-error')", 5, "the message beside the row")
    browser.js("document.querySelector('tr[data-row=\"r2\"]').classList.add('edit-pending')")  # how a pending row looks
    try:
        for dark in (False, True):
            for width in (1280, 390):
                browser.emulate(width, dark)
                inner, scroll = browser.js("return [window.innerWidth, document.documentElement.scrollWidth]")
                check(inner == width and scroll <= width, f"editing mode fits {width} px without sideways scrolling: {inner}, {scroll}")
                browser.shot(f"edit-mode-{width}-{'dark' if dark else 'light'}")
                browser.axe(f"editing mode with a message and a pending row at {width} px {'dark' if dark else 'light'}")
    finally:
        browser.unemulate()


EDIT_SCRIPTS_JS = """return performance.getEntriesByType('resource').map((r) => r.name)
  .filter((name) => /\\/js\\/edit-[a-z-]+\\.js$/.test(name)).map((name) => name.replace(/^.*\\//, '')).sort()"""


def test_only_a_reader_who_may_write_gets_the_controls(server, browser):
    guarded = RealListServer(demo=False, flags=["--token", TOKEN], token=TOKEN).start()
    try:
        guarded.write("PUT", "/lists/edits", document())
        for url, what in ((guarded.url("/lists/edits"), "no key"), (guarded.url("/lists/edits?sort=name"), "a view's page")):
            browser.open(url, CONFIG)
            browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the live stream")
            check(not browser.js("return document.querySelector('.edit-toolbar, [data-edit-control]')"), f"{what}: no edit control")
            check(not browser.js("return document.querySelector('table.list').dataset.editable"), f"{what}: the page says so")
            equal(browser.js(EDIT_SCRIPTS_JS), [], f"{what}: the editing mode's modules are not even fetched")
        status, _, text = guarded.curl("POST", "/lists/edits/links?expires=600")
        browser.open(json.loads(text)["url"], CONFIG)
        check(not browser.js("return document.querySelector('.edit-toolbar, [data-edit-control]')"), "a view link: no edit control")
        equal(browser.js(EDIT_SCRIPTS_JS), [], "a view link: the editing mode's modules are not fetched")

        status, _, text = guarded.curl("POST", "/lists/edits/links?right=write&expires=600")
        equal(status, 201, "an edit link")
        browser.open(json.loads(text)["url"], CONFIG)
        browser.wait("return ListClient.get(document.querySelector('table.list')).state.connected", 10, "the live stream")
        equal(browser.js(EDIT_SCRIPTS_JS), ["edit-mode.js", "edit-rows.js", "edit-writes.js"], "an edit link's page loads the editing mode")
        browser.wait("return document.querySelector('.edit-toolbar button[aria-pressed]')", 5, "the Edit button").click()
        control(browser, "r0", "Delete").click()
        wait_until(lambda: server_sections(guarded)[0][1] == ["r1", "r2", "r3"], 5, 0.05)
        equal(server_sections(guarded)[0][1], ["r1", "r2", "r3"], "the edit link's delete was allowed")
        wait_sections(browser, [["a", ["r1", "r2", "r3"]], ["b", ["r4", "r5", "r6"]]], "and streamed back")
    finally:
        guarded.stop()


if __name__ == "__main__":
    run([test_edit_delete_undo_add_live_in_a_second_browser, test_move_by_keyboard_and_by_drag,
         test_a_conflicting_edit_is_refused_and_shown_with_the_current_value, test_refused_moves_and_deletes_put_the_row_back,
         test_a_sorted_view_edits_cells_and_deletes_but_does_not_move, test_screenshots_in_editing_mode,
         test_only_a_reader_who_may_write_gets_the_controls],
        lambda: RealListServer(demo=False))
