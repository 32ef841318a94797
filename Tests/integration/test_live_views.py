"""Live views over HTTP (issue 23 point 2, API.md section 9 "Live"): `/events` with `sort`, `q`
and filters, for `view=json` (whole and windowed) and `view=html`. Random lists, queries and
writes (rows rewritten so that they move across the sort order and in and out of the filter,
rows added and deleted, sections added and removed, whole-document PUTs) through the server;
after every write each stream's document is checked against the Python reference model of
test_views.py and against what a fresh request returns (`GET /lists/{id}?VIEW` for the whole
JSON view, a fresh subscription of the same window otherwise); then a resume by
`Last-Event-ID`, `…/more`, cursors bound to their view, and the limit of 64 live views per list.
"""
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from livetest import Checks, EventStream, LiveDoc, Server, etag_version, quote, short  # noqa: E402
from test_views import COLUMNS, WORDS, parameters, random_document, random_query, reference  # noqa: E402

LIST = "lv"


def random_row(rng, key):
    cells = {}
    if rng.random() < 0.85:
        cells["name"] = rng.choice(WORDS + [""])
    if rng.random() < 0.8:
        cells["qty"] = rng.choice([rng.randint(-20, 20), rng.randint(900, 20000), 2.5])
    if rng.random() < 0.6:
        cells["site"] = {"text": rng.choice(WORDS + [""]), "href": "https://example.com/x"}
    if rng.random() < 0.4:
        cells["pic"] = {"src": "/assets/demo/x.svg", "alt": rng.choice(WORDS)}
    return {"key": key, "cells": cells}


def random_write(rng, server, document, serial):
    """One write through the API; returns the new version."""
    rows = [(s["key"], r["key"]) for s in document["sections"] for r in s.get("rows", [])]
    choice = rng.random()
    if choice < 0.45 and rows:
        _, key = rng.choice(rows)
        status, headers, body = server.request("PUT", f"/lists/{LIST}/rows/{quote(key)}", random_row(rng, key),
                                               content_type="application/json")
    elif choice < 0.6:
        section = rng.choice(document["sections"])["key"]
        status, headers, body = server.request("POST", f"/lists/{LIST}/sections/{quote(section)}/rows",
                                               [random_row(rng, f"n{serial}")], content_type="application/json")
    elif choice < 0.72 and rows:
        _, key = rng.choice(rows)
        status, headers, body = server.request("DELETE", f"/lists/{LIST}/rows/{quote(key)}")
    elif choice < 0.82:
        section = {"key": f"x{serial}", "header": f"New {serial}",
                   "rows": [random_row(rng, f"x{serial}r{i}") for i in range(rng.randint(0, 3))]}
        position = rng.randint(0, len(document["sections"]))
        status, headers, body = server.request("PATCH", f"/lists/{LIST}",
                                               [{"op": "add", "path": f"/sections/{position}", "value": section}],
                                               content_type="application/json-patch+json")
    elif choice < 0.9 and len(document["sections"]) > 1:
        position = rng.randrange(len(document["sections"]))
        status, headers, body = server.request("PATCH", f"/lists/{LIST}", [{"op": "remove", "path": f"/sections/{position}"}],
                                               content_type="application/json-patch+json")
    else:
        new = json.loads(json.dumps(document))
        new["title"] = f"Views {serial}"
        if new["sections"]:
            section = rng.choice(new["sections"])
            section["header"] = f"Renamed {serial}"
            if section.get("rows"):
                section["rows"].insert(0, section["rows"].pop())
        status, headers, body = server.request("PUT", f"/lists/{LIST}", new, content_type="application/json")
    assert 200 <= status < 300, (status, body[:300])
    return etag_version(headers)


def window_rows(doc):
    return [r["key"] for s in doc["sections"] for r in s["rows"]]


def query_string(doc):
    until = doc.get("until")
    return f"until={until}" if until is not None else "limit=0"


class Stream:
    """A subscription of one view and window, with what it asked for."""

    def __init__(self, server, query, view, window):
        self.query, self.view, self.window = query, view, window
        self.params = parameters(query)
        self.path = f"/lists/{LIST}/events?view={view}&{self.params}" + (f"&{window}" if window else "")
        self.live = LiveDoc(EventStream(server, self.path), strict_ids=False)
        self.live.wait_until(lambda doc: True, timeout=10)

    def fresh(self, server):
        """The document a new subscription of the same view and window gets now."""
        window = query_string(self.live.doc) if self.window else ""
        live = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view={self.view}&{self.params}" + (f"&{window}" if window else "")))
        live.wait_until(lambda doc: True, timeout=10)
        live.stream.close()
        return live.doc


def check_stream(server, stream, document, version, problems, step):
    live = stream.live
    if not live.wait_version(version, timeout=10):
        problems.append(f"step {step}: {stream.path} did not reach {version} (at {live.version}) {live.errors}")
        return
    if live.errors:
        problems.append(f"step {step}: {stream.path}: {live.errors[:2]}")
        live.errors.clear()
    expected = reference(document, stream.query)
    expected_rows = [key for _, rows in expected for key in rows]
    doc = live.doc
    if stream.view == "json" and not stream.window:
        status, _, body = server.request("GET", f"/lists/{LIST}?{stream.params}", headers={"Accept": "application/json"})
        if [(s["key"], [r["key"] for r in s["rows"]]) for s in doc["sections"]] != expected or json.loads(body) != doc:
            problems.append(f"step {step}: {stream.path} at {version}: not the view document")
        return
    if "state" not in document or stream.view == "json":
        held = window_rows(doc)
        if held != expected_rows[:len(held)] or doc["more"] != (len(held) < len(expected_rows)):
            problems.append(f"step {step}: {stream.path} at {version}: rows {held} more {doc['more']}, "
                            f"the reference view {expected_rows}")
    fresh = stream.fresh(server)
    if fresh != doc:
        problems.append(f"step {step}: {stream.path} at {version}: differs from a fresh subscription")


def check_random_live_views(checks, server, rng):
    problems, checked, moved = [], 0, 0
    for round in range(3):
        document = random_document(rng)
        server.put_list(LIST, document)
        streams = []
        for _ in range(4):
            query = random_query(rng)
            if not query:
                query = {"sort": ("qty", True)}
            streams.append(Stream(server, query, "json", ""))
            streams.append(Stream(server, query, "json", f"limit={rng.randint(0, 6)}"))
            streams.append(Stream(server, query, "html", f"limit={rng.randint(1, 6)}"))
        for step in range(25):
            _, document = server.get_list(LIST)
            version = random_write(rng, server, document, f"{round}-{step}")
            _, document = server.get_list(LIST)
            for stream in streams:
                check_stream(server, stream, document, version, problems, step)
                checked += 1
            if step % 8 == 7:
                stream = rng.choice([s for s in streams if s.window])
                status, _, body = server.request(
                    "POST", f"/lists/{LIST}/subscriptions/{stream.live.subscription}/more?limit={rng.randint(1, 4)}")
                if status != 202:
                    problems.append(f"more answered {status} {body[:200]!r}")
        moved += sum(s.live.patches for s in streams)
        for stream in streams:
            stream.live.stream.close()
    checks.check(f"random live views follow random writes: each stream equals the reference and a fresh request "
                 f"after every write ({checked} checks, {moved} patches)", not problems and checked > 500, problems[:4])


def check_resume_and_cursors(checks, server, rng):
    document = random_document(random.Random(5))
    server.put_list(LIST, document)
    query = {"sort": ("qty", False), "filters": [("qty", "ge", "0")]}
    stream = Stream(server, query, "html", "limit=3")
    first = stream.live.version
    until = stream.live.doc["until"]
    stream.live.stream.close()
    held = stream.live.doc
    version = first
    for step in range(3):
        _, current = server.get_list(LIST)
        version = random_write(random.Random(step), server, current, f"r{step}")
    resumed = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=html&{parameters(query)}&until={until}",
                                  headers={"Last-Event-ID": str(first)}), strict_ids=False).resume_from(first, held)
    reached = resumed.wait_version(version, timeout=10)
    fresh = Stream(server, query, "html", f"until={until}")
    checks.check("a view stream resumed by Last-Event-ID gets a patch, no reset, and equals a fresh subscription",
                 reached and resumed.resets == 0 and resumed.patches >= 1 and not resumed.errors
                 and resumed.doc == fresh.live.doc,
                 (reached, resumed.resets, resumed.errors, resumed.log[:3]))
    other = parameters({"sort": ("name", False)})
    status, _, body = server.request("GET", f"/lists/{LIST}/events?view=html&{other}&until={until}",
                                     headers={"Accept": "text/event-stream"})
    checks.check("another view's cursor as until is 400", status == 400 and b"another view" in body, (status, body[:200]))
    status, _, body = server.request("GET", f"/lists/{LIST}/events?view=json&sort=nope",
                                     headers={"Accept": "text/event-stream"})
    checks.check("an unknown sort column is 400", status == 400, (status, body[:200]))
    resumed.stream.close()
    fresh.live.stream.close()


def check_view_limit(checks, server):
    server.put_list(LIST, random_document(random.Random(9)))
    streams = []
    for index in range(64):
        streams.append(EventStream(server, f"/lists/{LIST}/events?view=json&q=v{index}"))
    opened = [s.status for s in streams]
    refused = EventStream(server, f"/lists/{LIST}/events?view=json&q=extra")
    checks.check("64 live views with subscribers open; a 65th view is 503 with Retry-After",
                 opened == [200] * 64 and refused.status == 503 and "retry-after" in refused.headers,
                 (opened.count(200), refused.status, refused.headers))
    again = EventStream(server, f"/lists/{LIST}/events?view=json&q=v7")
    checks.check("a view that exists takes more subscribers", again.status == 200, again.status)
    streams[3].close()
    # The closed stream's view has no subscriber left once the server sees the socket close.
    deadline = __import__("time").monotonic() + 10
    while True:
        extra = EventStream(server, f"/lists/{LIST}/events?view=json&q=extra")
        if extra.status == 200 or __import__("time").monotonic() > deadline:
            break
        __import__("time").sleep(0.2)
    live = LiveDoc(extra) if extra.status == 200 else None
    checks.check("once a view has no subscriber, a new view replaces it",
                 live is not None and live.wait_until(lambda doc: True, timeout=10), extra.status)
    for stream in streams + [again, extra]:
        stream.close()


def check_view_page_boot(checks, server, rng):
    """The client's boot path on a view page: the view document built from the page at version V
    equals a fresh view subscription with until=data-cursor, and since=V patches bring it to
    the view after later writes."""
    from test_live_html import view_from_page

    document = random_document(rng)
    server.put_list(LIST, document)
    observer = EventStream(server, f"/lists/{LIST}/events?view=html&limit=0")  # keeps recent versions
    mismatches, resumed, compared = [], 0, 0
    for step in range(12):
        query = random_query(rng) or {"sort": ("name", False)}
        params = parameters(query)
        limit = rng.choice([1, 3, 50])
        status, _, body = server.request("GET", f"/lists/{LIST}?{params}&limit={limit}", headers={"Accept": "text/html"})
        version, page_view = view_from_page(body.decode())
        window = f"until={page_view['until']}" if page_view["until"] else "limit=0"
        fresh = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=html&{params}&{window}"))
        fresh.wait_until(lambda doc: True, timeout=10)
        fresh.stream.close()
        if fresh.version != version or fresh.doc != page_view:
            mismatches.append(f"step {step} {params} limit {limit}: page {short(page_view, 300)} stream {short(fresh.doc, 300)}")
            continue
        compared += 1
        _, current = server.get_list(LIST)
        now = random_write(rng, server, current, f"boot{step}")
        live = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=html&{params}&{window}&since={version}"),
                       strict_ids=False).resume_from(version, page_view)
        live.wait_version(now, timeout=10)
        live.stream.close()
        again = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=html&{params}&{window}"))
        again.wait_until(lambda doc: True, timeout=10)
        again.stream.close()
        resumed += live.resets == 0
        if live.errors or live.doc != again.doc:
            mismatches.append(f"step {step} {params}: since= {live.errors[:1]} {short(live.doc, 200)} vs {short(again.doc, 200)}")
    observer.close()
    checks.check(f"a view page's view equals its view stream, and since=data-version patches bring it along "
                 f"({compared} pages, {resumed} resumed with patches)", not mismatches and compared >= 8 and resumed >= 4,
                 "\n     ".join(mismatches[:4]))


def check_max_views_flag(checks):
    with Server("--max-views", "2") as small:
        small.put_list(LIST, random_document(random.Random(3)))
        held = [EventStream(small, f"/lists/{LIST}/events?view=html&sort=qty&q={q}") for q in ("a", "b")]
        third = EventStream(small, f"/lists/{LIST}/events?view=html&sort=qty&q=c")
        checks.check("--max-views 2: a third view with both held is 503",
                     [s.status for s in held] == [200, 200] and third.status == 503, (third.status,))
        for stream in held:
            stream.close()


def check_large_list_live_views(checks, server, rng):
    """Live views of a list of 24,000 rows (the server sorts such a view off the connection's
    thread, in a turn, before the stream starts): windows follow row writes and a resume."""
    sections = [{"key": f"s{s}", "rows": [random_row(rng, f"s{s}r{i}") for i in range(12_000)]} for s in range(2)]
    document = {"title": "Large", "columns": COLUMNS, "sections": sections}
    server.put_list(LIST, document)
    queries = [{"sort": ("qty", True)}, {"sort": ("name", False), "filters": [("qty", "ge", "900")]}]
    streams = [Stream(server, queries[0], "html", "limit=5"), Stream(server, queries[1], "json", "limit=4")]
    first = streams[0].live.version
    held, until = streams[0].live.doc, streams[0].live.doc["until"]
    problems, version = [], first
    for step in range(6):
        _, current = server.get_list(LIST)
        # A row rewritten to the top of the first view, or any row rewritten.
        key = rng.choice(current["sections"][step % 2]["rows"])["key"]
        row = random_row(rng, key)
        if step % 2 == 0:
            row["cells"]["qty"] = 30_000 + step
        status, headers, body = server.request("PUT", f"/lists/{LIST}/rows/{quote(key)}", row)
        if status != 200:
            problems.append(f"PUT {key}: {status} {body[:200]!r}")
            continue
        version = etag_version(headers)
        _, current = server.get_list(LIST)
        for stream in streams:
            check_stream(server, stream, current, version, problems, f"large {step}")
    resumed = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=html&{parameters(queries[0])}&until={until}",
                                  headers={"Last-Event-ID": str(first)}), strict_ids=False).resume_from(first, held)
    reached = resumed.wait_version(version, timeout=10)
    fresh = Stream(server, queries[0], "html", f"until={until}")
    checks.check("live views of a 24,000-row list follow row writes (a row moved to the top shows), and a resume "
                 "equals a fresh subscription",
                 not problems and reached and resumed.resets == 0 and resumed.doc == fresh.live.doc,
                 (problems[:3], reached, resumed.resets, resumed.errors))
    for stream in streams + [fresh]:
        stream.live.stream.close()
    resumed.stream.close()


def main():
    checks = Checks("live views")
    server = Server()
    try:
        checks.run("random live views", check_random_live_views, checks, server, random.Random(2026))
        checks.run("resume and cursors", check_resume_and_cursors, checks, server, random.Random(7))
        checks.run("live views of a large list", check_large_list_live_views, checks, server, random.Random(24))
        checks.run("at most 64 live views per list", check_view_limit, checks, server)
        checks.run("--max-views", check_max_views_flag, checks)
        checks.run("a view page boots its stream", check_view_page_boot, checks, server, random.Random(41))
    finally:
        server.stop()
    sys.exit(checks.summary())


main()
