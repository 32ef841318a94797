#!/usr/bin/python3
"""Live updates in a real browser: reset, JSON Patch events, keyed DOM, reconnects, safety."""
import copy
import sys
from pathlib import Path

import jsonpatch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import FixtureList, check, equal, render_view_table, run  # noqa: E402

LIVE = {"reconnectBase": 40, "reconnectMax": 200, "retryBase": 20, "animationMs": 120}


def small(list_id="live", collapsible=False):
    fixture = FixtureList.generated(list_id, [4, 4, 4], "Live")
    if collapsible:
        fixture.sections[1]["collapsible"] = True
        fixture.sections[2]["collapsible"] = True
        fixture.sections[2]["collapsed"] = True
    return fixture


def row(key, name=None, n=0):
    return {"key": key, "html": FixtureList.row_html({"key": key, "name": name or f"Row {key}", "n": n})}


def open_live(server, browser, fixture, limit=50, reduced=True, reset=True, config=None, version=5, sub="sub1",
              wait_first=True):
    """Opens the page; the fixture answers each stream with a reset of the page's window."""
    server.add_list(fixture, version=version, limit=limit)
    doc = fixture.view_doc(min(limit, len(fixture.flat())))
    if reset:
        server.on_stream = lambda st: st.send("reset", {"version": version, "subscription": sub, "doc": doc}, version)
    browser.open(server.page_url(fixture.id), {**LIVE, **(config or {})}, reduced_motion=reduced)
    if not wait_first:
        return None, copy.deepcopy(doc)
    stream = server.wait_stream(0)
    if reset:
        browser.wait_version(version)
    return stream, copy.deepcopy(doc)


def same_as_fresh_render(browser, list_id, doc, what):
    browser.settle()
    equal(browser.snapshot(), browser.snapshot(render_view_table(list_id, doc)), what)


def send_all(stream, browser, doc, events, first_id):
    """Sends each op list as one patch event; returns the expected final document."""
    version = first_id
    for ops, counts in events:
        stream.send("patch", ops, version)
        if counts:
            doc = jsonpatch.apply_patch(doc, ops)
        browser.wait_version(version)
        version += 1
    return doc, version - 1


def patch_script(fixture):
    section_new = {"key": "new", "header": '<tr class="section-header"><th scope="rowgroup" colspan="2">New section</th></tr>',
                   "footer": '<tr class="section-footer"><td colspan="2">2 rows</td></tr>', "rows": [row("n2"), row("n3")]}
    add_n1 = [{"op": "add", "path": "/sections/0/rows/1", "value": row("n1", "Inserted")}]
    # (ops, whether the expected document takes them: a replayed op must change nothing)
    return [
        (add_n1, True),
        (add_n1, False),  # replayed: must not duplicate the row
        ([{"op": "remove", "path": "/sections/1/rows/0"}], True),
        ([{"op": "move", "from": "/sections/0/rows/4", "path": "/sections/0/rows/0"}], True),
        ([{"op": "move", "from": "/sections/2/rows/1", "path": "/sections/0/rows/2"}], True),
        ([{"op": "add", "path": "/sections/1", "value": section_new}], True),
        ([{"op": "remove", "path": "/sections/3"}], True),
        ([{"op": "move", "from": "/sections/0", "path": "/sections/2"}], True),
        ([{"op": "replace", "path": "/sections/0/header",
           "value": '<tr class="section-header"><th scope="rowgroup" colspan="2">Renamed</th></tr>'},
          {"op": "replace", "path": "/sections/2/footer", "value": '<tr class="section-footer"><td colspan="2">changed</td></tr>'},
          {"op": "replace", "path": "/sections/1/rows/0/html", "value": row("r5", "Row 5 edited", 55)["html"]}], True),
        ([{"op": "add", "path": "/sections/1/rows/-", "value": row("n4")},
          {"op": "test", "path": "/title", "value": "Live"},
          {"op": "replace", "path": "/title", "value": "Live (edited)"}], True),
        ([{"op": "remove", "path": "/sections/0/rows/0"},
          {"op": "add", "path": "/sections/0/rows/0", "value": row("n5")},
          {"op": "move", "from": "/sections/1/rows/0", "path": "/sections/2/rows/-"},
          {"op": "copy", "from": "/sections/2/footer", "path": "/sections/1/footer"}], True),
        ([{"op": "replace", "path": "/status",
           "value": '<tbody class="empty"><tr><td colspan="2">A status</td></tr></tbody>'}], True),
        ([{"op": "replace", "path": "/status", "value": None}], True),
    ]


def test_reset_then_patches_give_the_fresh_render(server, browser):
    fixture = small()
    stream, doc = open_live(server, browser, fixture, reset=False)
    equal(stream.query, {"view": "html", "until": "k12", "since": "5"}, "first subscription")
    changed = copy.deepcopy(doc)
    changed["sections"][0]["rows"][0] = row("r0", "Row 0 (reset)")
    stream.send("reset", {"version": 6, "subscription": "s", "doc": changed}, 6)
    browser.wait_version(6)
    same_as_fresh_render(browser, "live", changed, "after the reset")
    final, last = send_all(stream, browser, changed, patch_script(fixture), 7)
    same_as_fresh_render(browser, "live", final, "after the patches")
    browser.shot("live-after-patches")
    browser.axe("a page after a reset and 13 live patches")
    check(all(e["animating"] == 0 for e in browser.events("list:updated", raw=True)), "no animation under reduced motion")
    equal(len(server.streams), 1, "one stream throughout")


def test_animated_updates_end_in_the_same_dom(server, browser):
    fixture = small()
    stream, doc = open_live(server, browser, fixture, reduced=False)
    script = patch_script(fixture)
    stream.send("patch", script[0][0], 6)
    browser.wait("return document.querySelector('tr.list-enter[data-row=\"n1\"]')", 5, "the insert animation")
    browser.wait("return !!document.querySelector('tr[data-row=\"r1\"][style*=\"transform\"]')", 5, "rows below sliding (FLIP)")
    browser.settle()
    stream.send("patch", script[1][0], 7)  # replay
    stream.send("patch", script[2][0], 8)  # r4 leaves
    browser.wait("return document.querySelector('tr.list-leave[aria-hidden=\"true\"]:not([data-row])')", 5, "the fading row")
    check(browser.js("return !document.querySelector('tr[data-row=\"r4\"]')"), "the leaving row has no key any more")
    expected = jsonpatch.apply_patch(doc, script[0][0] + script[2][0])
    browser.settle()
    same_as_fresh_render(browser, "live", expected, "after animated changes")
    final, _ = send_all(stream, browser, expected, script[3:], 9)
    same_as_fresh_render(browser, "live", final, "after the whole script, animated")
    browser.shot("live-animated-final")


def test_collapsed_section_stays_collapsed_through_updates(server, browser):
    fixture = small("fold", collapsible=True)
    stream, doc = open_live(server, browser, fixture)
    hidden = "return getComputedStyle(document.querySelector(`tr[data-row=\"${arguments[0]}\"]`)).display === 'none'"
    check(browser.js(hidden, "r8"), "a section rendered collapsed is collapsed")
    check(not browser.js(hidden, "r4"), "an expanded section shows its rows")
    browser.js("document.querySelector('tbody[data-section=\"s1\"] button.section-toggle').click()")
    browser.js("document.querySelector('tbody[data-section=\"s2\"] button.section-toggle').click()")
    check(browser.js(hidden, "r4") and not browser.js(hidden, "r8"), "toggles flip both sections")
    ops = [{"op": "replace", "path": "/sections/1/header", "value": fixture.header_html(fixture.sections[1]).replace("Section 1", "Section one")},
           {"op": "add", "path": "/sections/1/rows/0", "value": row("x1")},
           {"op": "replace", "path": "/sections/1/rows/2/html", "value": row("r5", "changed")["html"]},
           {"op": "replace", "path": "/sections/2/header", "value": fixture.header_html(fixture.sections[2])}]
    stream.send("patch", ops, 6)
    browser.wait_version(6)
    state = browser.js("""const b = (k) => document.querySelector(`tbody[data-section="${k}"]`);
        return [b('s1').querySelector('button').getAttribute('aria-expanded'), b('s1').classList.contains('collapsed'),
                b('s1').querySelector('th').textContent, b('s2').querySelector('button').getAttribute('aria-expanded'),
                b('s2').classList.contains('collapsed'), b('s1').id]""")
    # The new header came without a count: the client adds it (4 rows and x1).
    equal(state, ["false", True, "Section one5 rows hidden", "true", False, "list-section-s1"],
          "collapsed state kept over new headers, which get the section's count")
    check(browser.js(hidden, "x1") and browser.js(hidden, "r5"), "new and changed rows of a collapsed section stay hidden")
    browser.shot("live-collapsed")
    browser.js("document.querySelector('tbody[data-section=\"s1\"] button.section-toggle').click()")
    check(not browser.js(hidden, "x1"), "expanding shows the new row")


def test_patch_that_does_not_apply_asks_for_a_reset(server, browser):
    fixture = small()
    stream, doc = open_live(server, browser, fixture)
    stream.send("patch", [{"op": "remove", "path": "/sections/7/rows/0"}], 6)
    second = server.wait_stream(1)
    check("since" not in second.query, f"reconnected without since: {second.query}")
    check(stream.ended.wait(2), "the old stream was closed")
    equal(browser.events("list:resync")[0]["type"], "list:resync", "resync event")
    fresh = copy.deepcopy(doc)
    fresh["sections"][2]["rows"].insert(0, row("z", "After reset"))
    second.send("reset", {"version": 9, "subscription": "s2", "doc": fresh}, 9)
    browser.wait_version(9)
    same_as_fresh_render(browser, "live", fresh, "the reset after a failed patch")


def test_reconnect_after_a_dropped_stream_resumes_from_the_last_id(server, browser):
    fixture = small()
    stream, doc = open_live(server, browser, fixture)
    stream.send("patch", [{"op": "add", "path": "/sections/0/rows/-", "value": row("a1")}], 6)
    stream.send("patch", [{"op": "add", "path": "/sections/0/rows/-", "value": row("a2")}], 7)
    browser.wait_version(7)
    server.on_stream = None  # the server can resume: no reset
    stream.drop()
    second = server.wait_stream(1)
    equal(second.query.get("since"), "7", "resumes after the last event id")
    second.send("patch", [{"op": "remove", "path": "/sections/0/rows/0"}], 8)
    browser.wait_version(8)
    expected = jsonpatch.apply_patch(doc, [{"op": "add", "path": "/sections/0/rows/-", "value": row("a1")},
                                           {"op": "add", "path": "/sections/0/rows/-", "value": row("a2")},
                                           {"op": "remove", "path": "/sections/0/rows/0"}])
    same_as_fresh_render(browser, "live", expected, "after resuming")
    check(not second.ended.wait(0.3), "the resumed stream stays open")
    equal(len(server.streams), 2, "exactly one reconnect")


def test_reconnects_back_off_while_the_server_refuses(server, browser):
    fixture = small("backoff")
    server.fail_next("/lists/backoff/events", 4, 503)
    browser.expect_console(r"/lists/backoff/events\S* - Failed to load resource: .*status of 503")
    stream_config = {"reconnectBase": 60, "reconnectMax": 10000}
    open_live(server, browser, fixture, reset=True, config=stream_config, wait_first=False)
    server.wait_stream(0, timeout=8)  # the fifth try gets through
    tries = [r["time"] for r in server.requests("GET", "/lists/backoff/events")]
    equal(len(tries), 5, "four refusals, then the stream")
    gaps = [b - a for a, b in zip(tries, tries[1:])]
    # The k-th wait is 60 ms x 2^k less at most a quarter (jitter); a busy machine only adds to
    # it, so each gap is checked against its least (a client that did not back off would retry
    # every 45-60 ms), and the first against an upper bound (it did retry soon).
    least = [0.060 * 2 ** k * 0.75 for k in range(len(gaps))]
    check(all(gap >= floor - 0.002 for gap, floor in zip(gaps, least)),
          f"each wait at least 60 ms x 2^k less a quarter: {[round(g, 3) for g in gaps]} against {least}")
    check(0.04 < gaps[0] < 0.5, f"first retry after about 60 ms: {gaps[0]}")


def test_escaped_payloads_stay_inert(server, browser):
    payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    # What the payloads provoke, on purpose: CSP refusing their handlers, and their image "x".
    browser.expect_console(r"Executing inline event handler violates the following Content Security Policy")
    browser.expect_console(r"/lists/x - Failed to load resource: .*status of 404")
    fixture = FixtureList("xss", "<b>Title</b>", [{"key": 's"><svg onload=window.__pwned=3>', "header": payload, "footer": payload,
                                                   "rows": [{"key": '"><script>window.__pwned=4</script>', "name": payload, "n": 1}]}])
    stream, doc = open_live(server, browser, fixture)
    ops = [{"op": "add", "path": "/sections/0/rows/-", "value": row("evil", payload)},
           {"op": "replace", "path": "/sections/0/header", "value": fixture.header_html({"header": payload})},
           {"op": "replace", "path": "/title", "value": payload}]
    stream.send("patch", ops, 6)
    browser.wait_version(6)
    # Even markup the server failed to escape stays inert: template parsing and the CSP.
    raw = {"key": "raw", "html": f'<tr data-row="raw"><td>{payload}</td><td><img src="x" onerror="window.__pwned=5"></td></tr>'}
    stream.send("patch", [{"op": "add", "path": "/sections/0/rows/-", "value": raw}], 7)
    browser.wait_version(7)
    browser.js("return new Promise(r => setTimeout(r, 200))")
    equal(browser.pwned(), None, "window.__pwned")
    errors = browser.js("const e = window.__errors; window.__errors = []; return e")
    check(all(e.startswith("CSP: script-src") for e in errors), f"only the CSP's blocks of inline handlers: {errors}")
    try:
        alert = browser.driver.switch_to.alert
        raise AssertionError(f"an alert opened: {alert.text}")
    except Exception as e:  # NoAlertPresentException
        if isinstance(e, AssertionError):
            raise
    texts = browser.js("return [...document.querySelectorAll('tr[data-row]')].map(r => [r.dataset.row, r.cells[0].textContent])")
    equal(texts[:2], [['"><script>window.__pwned=4</script>', payload], ["evil", payload]], "payloads shown as text")
    equal(browser.js("return document.querySelector('caption').textContent"), payload, "title as text")
    browser.shot("live-xss")


def test_odd_keys_reconcile_by_key(server, browser):
    rows = [{"key": k, "name": f"key {k!r}", "n": i} for i, k in enumerate(["\0nul", 'q"uote', "sp ace", "~1/", "ünï"])]
    fixture = FixtureList("odd", "Odd keys", [{"key": "a b/~c%", "header": "Odd", "footer": None, "collapsible": True, "rows": rows}])
    stream, doc = open_live(server, browser, fixture)
    check(browser.js("return document.querySelector('tbody[data-section]').id") == "list-section-a%20b/~c%25", "section id")
    ops = [{"op": "move", "from": "/sections/0/rows/0", "path": "/sections/0/rows/-"},
           {"op": "replace", "path": "/sections/0/rows/0/html", "value": FixtureList.row_html({"key": 'q"uote', "name": "changed", "n": 9})}]
    stream.send("patch", ops, 6)
    browser.wait_version(6)
    equal(browser.events("list:updated")[-1]["detail"], {"version": "6", "added": 0, "removed": 0}, "nothing added or removed")
    keys = browser.js("return [...document.querySelectorAll('tr[data-row]')].map(r => r.dataset.row)")
    equal(keys, ['q"uote', "sp ace", "~1/", "ünï", "\ufffdnul"], "keys in the new order (NUL reads back as U+FFFD)")
    equal(browser.js("return [...document.querySelectorAll('tr[data-row]')].find(r => r.dataset.row === arguments[0]).cells[0].textContent",
                     'q"uote'), "changed", "changed row")


def test_tail_loading_through_the_subscription(server, browser):
    fixture = FixtureList.generated("grow", [30, 45, 45])  # 120 rows, pages of 50
    posts = []

    def on_more(sub, limit):
        posts.append((sub, limit))
        count = 50 * (len(posts) + 1)
        old, new = fixture.view_doc(50 * len(posts)), fixture.view_doc(min(count, 120))
        server.streams[-1].send("patch", jsonpatch.make_patch(old, new).patch, 5 + len(posts))
        return 202

    server.on_more = on_more
    stream, doc = open_live(server, browser, fixture)
    browser.wait("""window.scrollTo(0, document.documentElement.scrollHeight);
                    return !document.querySelector('table.list > tbody.pagination')""", 10, "the end of the list")
    equal(posts, [("sub1", 50), ("sub1", 50)], "more requests")
    equal(server.requests("GET", "/lists/grow/rows"), [], "no GET pages while subscribed")
    equal([[e["type"], e["detail"]] for e in browser.events("list:paginationstarted", "list:paginationended")],
          [["list:paginationstarted", {"section": 1, "row": 19}], ["list:paginationended", {"section": 1, "row": 20}],
           ["list:paginationstarted", {"section": 2, "row": 24}], ["list:paginationended", {"section": 2, "row": 25}]],
          "pagination events")
    same_as_fresh_render(browser, "grow", fixture.view_doc(120), "every row once")
    equal(len(server.streams), 1, "one stream")


def test_resumed_stream_without_subscription_loads_by_get_then_resubscribes(server, browser):
    fixture = FixtureList.generated("resume", [60, 60])
    stream, doc = open_live(server, browser, fixture, reset=False)
    server.on_stream = lambda st: st.send("reset", {"version": 5, "subscription": "late", "doc": fixture.view_doc(100)}, 5)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    second = server.wait_stream(1)
    equal(second.query, {"view": "html", "until": "k100"}, "resubscribed with the new window and no since")
    browser.wait_version(5)
    equal([r["query"]["after"] for r in server.requests("GET", "/lists/resume/rows")], ["k50"], "one GET page")
    same_as_fresh_render(browser, "resume", fixture.view_doc(100), "rows after the reset")


def test_window_grown_by_the_stream_is_resumed_by_count_then_resubscribed(server, browser):
    fixture = FixtureList.generated("count", [100, 100])
    fixture.view_until = False  # a server that does not say where the window ends
    shown = {"count": 50}
    posts = []

    def on_more(sub, limit):
        posts.append((sub, limit))
        old, new = fixture.view_doc(shown["count"]), fixture.view_doc(shown["count"] + limit)
        shown["count"] += limit
        server.streams[-1].send("patch", jsonpatch.make_patch(old, new).patch, 5 + len(posts))
        return 202

    server.on_more = on_more
    stream, doc = open_live(server, browser, fixture)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    browser.wait("return document.querySelectorAll('tr[data-row]').length === 100", 5, "rows through the stream")
    browser.wait("return !ListClient.get(document.querySelector('table.list')).state.loading", 5, "idle")
    server.on_stream = None  # resumable: no reset, so no subscription id
    stream.drop()
    second = server.wait_stream(1)
    equal(second.query, {"view": "html", "limit": "100", "since": "6"}, "resumed by row count (no cursor known)")
    server.on_stream = lambda st: st.send("reset", {"version": 6, "subscription": "sub2", "doc": fixture.view_doc(100)}, 6)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    third = server.wait_stream(2)
    equal(third.query, {"view": "html", "limit": "100"}, "fresh subscription to continue the window")
    browser.wait("return document.querySelectorAll('tr[data-row]').length === 150", 5, "rows through the new subscription")
    equal(posts[:2], [("sub1", 50), ("sub2", 50)], "more requests")
    equal(server.requests("GET", "/lists/count/rows"), [], "no GET page with an unknown cursor")
    same_as_fresh_render(browser, "count", fixture.view_doc(shown["count"]), "rows once each")


def test_last_get_page_cursor_header_keeps_the_window_exact(server, browser):
    fixture = FixtureList.generated("tail", [40, 40])
    server.list_cursor_header = True
    stream, doc = open_live(server, browser, fixture, reset=False)
    server.on_stream = lambda st: st.send("reset", {"version": 5, "subscription": "t", "doc": fixture.view_doc(80)}, 5)
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    second = server.wait_stream(1)
    equal(second.query, {"view": "html", "until": "k80"}, "until the cursor the List-Cursor header gave")
    browser.wait_version(5)
    same_as_fresh_render(browser, "tail", fixture.view_doc(80), "every row")


def test_resumed_stream_with_subscription_event_loads_through_it(server, browser):
    fixture = FixtureList.generated("subev", [60, 60])
    server.subscription_event = True  # list-server's first event on every stream
    posts = []

    def on_more(sub, limit):
        posts.append((sub, limit))
        server.streams[-1].send("patch", jsonpatch.make_patch(fixture.view_doc(50), fixture.view_doc(100)).patch, 6)
        return 202

    server.on_more = on_more
    stream, doc = open_live(server, browser, fixture, reset=False)  # resumed: no reset
    browser.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    browser.wait("return document.querySelectorAll('tr[data-row]').length === 100", 5, "rows through the stream")
    equal(posts, [("fx1", 50)], "more through the subscription the stream named")
    equal(len(server.streams), 1, "no resubscription")
    equal(server.requests("GET", "/lists/subev/rows"), [], "no GET page")
    equal(browser.js("return document.querySelector('table.list').dataset.cursor"), "k100", "the window's end from `until`")


def test_scroll_stays_anchored_when_rows_change_above(server, browser):
    fixture = FixtureList.generated("anchor", [100, 100])
    for reduced in (True, False):
        server.reset()
        stream, doc = open_live(server, browser, fixture, limit=200, reduced=reduced)
        browser.js("document.querySelector('tr[data-row=\"r120\"]').scrollIntoView()")
        browser.js("window.scrollBy(0, -10)")
        top = "return document.querySelector(`tr[data-row=\"${arguments[0]}\"]`).getBoundingClientRect().top"
        before = browser.js(top, "r120")
        ops = [{"op": "add", "path": "/sections/0/rows/0", "value": row(f"top{i}")} for i in range(3)]
        ops += [{"op": "remove", "path": "/sections/0/rows/50"}, {"op": "move", "from": "/sections/1/rows/0", "path": "/sections/0/rows/5"}]
        stream.send("patch", ops, 6)
        browser.wait_version(6)
        browser.settle()
        after = browser.js(top, "r120")
        check(abs(after - before) < 1, f"anchor row moved from {before} to {after} (reduced motion: {reduced})")
        announced = browser.js("return document.querySelector('.list-announcer').textContent.trim()")
        equal(announced, "3 rows added, 1 row removed", "polite announcement")
        equal(browser.js("return document.querySelector('.list-announcer').getAttribute('aria-live')"), "polite", "aria-live")
        if not reduced:
            browser.shot("live-anchored")


def test_deleted_list_stops(server, browser):
    stream, doc = open_live(server, browser, FixtureList.generated("gone", [60]))
    stream.send("deleted", {}, 6)
    browser.wait("return window.__events.some(e => e.type === 'list:deleted')", 5, "list:deleted")
    check(stream.ended.wait(2), "stream closed")
    check(browser.js("return !document.querySelector('tbody.pagination')"), "pagination removed")
    browser.js("return new Promise(r => setTimeout(r, 150))")
    equal(len(server.streams), 1, "no reconnect after deletion")


if __name__ == "__main__":
    run([
        test_reset_then_patches_give_the_fresh_render,
        test_animated_updates_end_in_the_same_dom,
        test_collapsed_section_stays_collapsed_through_updates,
        test_patch_that_does_not_apply_asks_for_a_reset,
        test_reconnect_after_a_dropped_stream_resumes_from_the_last_id,
        test_reconnects_back_off_while_the_server_refuses,
        test_escaped_payloads_stay_inert,
        test_odd_keys_reconcile_by_key,
        test_tail_loading_through_the_subscription,
        test_resumed_stream_without_subscription_loads_by_get_then_resubscribes,
        test_window_grown_by_the_stream_is_resumed_by_count_then_resubscribed,
        test_last_get_page_cursor_header_keeps_the_window_exact,
        test_resumed_stream_with_subscription_event_loads_through_it,
        test_scroll_stays_anchored_when_rows_change_above,
        test_deleted_list_stops,
    ])
