#!/usr/bin/python3
"""Tail loading under concurrent writes (API.md section 4): walk every page of a list of a few
thousand rows with `GET /lists/{id}/rows?after=…&limit=…` (JSON, then HTML following
`Link: rel="next"`) while writer threads insert, delete and move rows and add and remove
sections. Every row that stayed in place for the whole walk must appear exactly once, in list
order; no row may appear twice unless it was moved. Without writers, the pages concatenated are
the list, and `until=List-Cursor` subscriptions hold exactly the rows loaded.

    /usr/bin/python3 Tests/integration/test_pages_walk.py [SEED]
"""

import collections
import html
import json
import random
import re
import sys
import threading
import time

from livetest import Checks, Server, main, quote, row_keys, wait_until

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 20261124
checks = Checks("test_pages_walk")
LIST = "walk"
ROWS = 2000


def make_document(rng):
    sections = []
    for index in range(12):
        sections.append({"key": f"sec{index}" + (" é" if index == 3 else ""),
                         "header": None if index % 4 == 1 else f"Section {index}",
                         "footer": f"End of {index}" if index % 3 == 0 else None, "rows": []})
    sections[5]["rows"] = []  # an empty section in the middle stays empty
    for n in range(ROWS):
        index = rng.choice([i for i in range(12) if i not in (5, 11)])
        key = f"p{n:04d}" + (" &<x>" if n % 97 == 0 else "")
        sections[index]["rows"].append({"key": key, "cells": {"text": f"row {n}"}})
    return {"title": "Walk", "sections": sections}


def original_number(key):
    """The index of an original section from its key ("sec3 é" → 3), None for added sections."""
    match = re.match(r"sec(\d+)", key)
    return int(match.group(1)) if match else None


class Writers:
    """Threads that insert, delete and move rows, and add and remove sections, until stopped
    (each bounded)."""

    instances = 0

    def __init__(self, server, rng, initial_doc):
        self.server = server
        self.rng = rng
        self.lock = threading.Lock()
        self.section_of = {row["key"]: section["key"] for section in initial_doc["sections"] for row in section["rows"]}
        self.initial = list(self.section_of)
        self.moved, self.deleted, self.inserted = set(), set(), set()
        self.writes = 0
        self.statuses = collections.Counter()
        self.stop = threading.Event()
        Writers.instances += 1
        self.tag = Writers.instances  # keeps the keys of each walk's added sections apart
        self.counter = 0
        self.threads = [threading.Thread(target=target, daemon=True)
                        for target in (self.inserter, self.deleter, self.mover, self.sectioner)]

    def start(self):
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(60)

    def record(self, status):
        with self.lock:
            self.statuses[status // 100 * 100 if status < 500 else status] += 1
            if 200 <= status < 300:
                self.writes += 1

    def inserter(self):
        rng = random.Random(self.rng.random())
        for _ in range(1500):
            if self.stop.is_set():
                return
            with self.lock:
                self.counter += 1
                new = [{"key": f"new{self.counter}-{i}", "cells": {"text": "inserted"}} for i in range(rng.randrange(1, 3))]
                anchor = rng.choice(self.initial)
                section = self.section_of[anchor]
                self.inserted.update(row["key"] for row in new)
            where = rng.choice(["before", "after", None])
            query = f"?{where}={quote(anchor)}" if where else ""
            status, _, _ = self.server.request("POST", f"/lists/{LIST}/sections/{quote(section)}/rows{query}", new)
            self.record(status)
            time.sleep(0.002)

    def deleter(self):
        rng = random.Random(self.rng.random())
        for _ in range(500):
            if self.stop.is_set():
                return
            key = rng.choice(self.initial)
            with self.lock:
                self.deleted.add(key)
            status, _, _ = self.server.request("DELETE", f"/lists/{LIST}/rows/{quote(key)}")
            self.record(status)
            time.sleep(0.01)

    def sectioner(self):
        """Adds sections (empty or with new rows) at random places and removes its own again,
        guarded by a test op on the section key."""
        rng = random.Random(self.rng.random())
        created = []
        for number in range(200):
            if self.stop.is_set():
                return
            _, doc = self.server.get_list(LIST)
            keys = [section["key"] for section in doc["sections"]]
            if created and rng.random() < 0.4:
                key = created.pop(rng.randrange(len(created)))
                if key not in keys:
                    continue
                index = keys.index(key)
                with self.lock:
                    self.deleted.update(row["key"] for row in doc["sections"][index]["rows"])
                patch = [{"op": "test", "path": f"/sections/{index}/key", "value": key},
                         {"op": "remove", "path": f"/sections/{index}"}]
            else:
                key = f"added{self.tag}-{number}"
                rows = [{"key": f"{key}-{n}", "cells": {"text": "in a new section"}} for n in range(rng.randrange(0, 3))]
                with self.lock:
                    self.inserted.update(row["key"] for row in rows)
                created.append(key)
                patch = [{"op": "add", "path": f"/sections/{rng.randrange(len(keys) + 1)}",
                          "value": {"key": key, "header": f"Added {number}", "rows": rows}}]
            status, _, _ = self.server.request("PATCH", f"/lists/{LIST}", patch, content_type="application/json-patch+json")
            self.record(status)
            time.sleep(0.02)

    def mover(self):
        """Moves one row at a time far from where it was (another section), guarded by a test op."""
        rng = random.Random(self.rng.random())
        for _ in range(500):
            if self.stop.is_set():
                return
            _, doc = self.server.get_list(LIST)
            positions = [(i, j) for i, section in enumerate(doc["sections"]) for j in range(len(section["rows"]))]
            i, j = rng.choice(positions)
            key = doc["sections"][i]["rows"][j]["key"]
            # Only original sections with rows, at least one full original section away: the
            # row passes hundreds of others, so no other row's order changes.
            numbers = [original_number(section["key"]) for section in doc["sections"]]
            if numbers[i] is None:
                continue
            targets = [k for k, number in enumerate(numbers)
                       if number is not None and number not in (5, 11) and abs(number - numbers[i]) >= 2
                       and not (numbers[i] < 5 < number or number < 5 < numbers[i]) or
                       (number is not None and number not in (5, 11) and abs(number - numbers[i]) >= 3)]
            k = rng.choice(targets)
            target_index = rng.randrange(len(doc["sections"][k]["rows"]) + 1)
            with self.lock:
                self.moved.add(key)
                self.section_of[key] = doc["sections"][k]["key"]
            patch = [{"op": "test", "path": f"/sections/{i}/rows/{j}/key", "value": key},
                     {"op": "move", "from": f"/sections/{i}/rows/{j}", "path": f"/sections/{k}/rows/{target_index}"}]
            status, _, _ = self.server.request("PATCH", f"/lists/{LIST}", patch, content_type="application/json-patch+json")
            self.record(status)
            time.sleep(0.005)


def walk_json(server, limit, between=None):
    """Every page's rows in walk order; calls `between(page_number)` before each next page."""
    seen, pages, statuses = [], [], []
    after = None
    for number in range(ROWS * 2):
        path = f"/lists/{LIST}/rows?limit={limit}" + (f"&after={after}" if after else "")
        status, _, body = server.request("GET", path, headers={"Accept": "application/json"})
        statuses.append(status)
        if status != 200:
            break
        page = json.loads(body)
        pages.append(page)
        seen.extend(row["key"] for section in page["sections"] for row in section["rows"])
        after = page["next"]
        if after is None:
            break
        if between:
            between(number)
    return seen, pages, statuses


def walk_html(server, limit, between=None):
    """Follows `Link: rel="next"` with `Accept: text/html`: the data-row keys and tbody parts."""
    seen, parts, statuses = [], [], []
    path = f"/lists/{LIST}/rows?limit={limit}"
    for number in range(ROWS * 2):
        status, headers, body = server.request("GET", path, headers={"Accept": "text/html"})
        statuses.append(status)
        if status != 200:
            break
        text = body.decode()
        for match in re.finditer(r'<tbody\b([^>]*)>(.*?)</tbody>', text, re.S):
            section = re.search(r'data-section="([^"]*)"', match.group(1))
            if not section:
                continue
            rows = [html.unescape(key) for key in re.findall(r'<tr\b[^>]*\bdata-row="([^"]*)"', match.group(2))]
            parts.append((html.unescape(section.group(1)), 'section-header' in match.group(2), rows))
            seen.extend(rows)
        link = re.search(r'<([^>]+)>;\s*rel="next"', headers.get("link", ""))
        if not link:
            has_pagination = 'rel="next"' in text
            statuses.append("pagination row without Link" if has_pagination else 200)
            break
        path = link.group(1)
        if between:
            between(number)
    return seen, parts, statuses


def merge_sections(pages):
    merged = []
    for page in pages:
        for section in page["sections"]:
            if merged and merged[-1]["key"] == section["key"]:
                merged[-1]["rows"].extend(section["rows"])
            else:
                merged.append(json.loads(json.dumps(section)))
    return merged


def check_walk(label, seen, statuses, writers):
    counts = collections.Counter(seen)
    stayed = [key for key in writers.initial if key not in writers.moved and key not in writers.deleted]
    missing = [key for key in stayed if counts[key] == 0]
    twice = [key for key in stayed if counts[key] > 1]
    duplicated = [key for key, count in counts.items() if count > 1 and key not in writers.moved]
    order = [key for key in seen if key in set(stayed)]
    expected_order = [key for key in writers.initial if key in set(stayed)]
    print(f"     {label}: {len(seen)} rows seen; writes {dict(writers.statuses)}; moved {len(writers.moved)}, "
          f"deleted {len(writers.deleted)}, inserted {len(writers.inserted)}; {len(stayed)} stayed in place")
    checks.check(f"{label}: every page answered 200", all(s == 200 for s in statuses), f"{statuses[-3:]}")
    checks.check(f"{label}: writers made inserts, deletes and moves during the walk",
                 writers.writes >= 20 and writers.moved and writers.deleted, f"{writers.writes} writes")
    checks.check(f"{label}: writers never got a 5xx", not any(s >= 500 for s in writers.statuses), f"{writers.statuses}")
    checks.check(f"{label}: every row that stayed in place appears", not missing, f"{len(missing)} missing, e.g. {missing[:5]}")
    checks.check(f"{label}: no row that stayed in place appears twice", not twice, f"{twice[:5]}")
    checks.check(f"{label}: no row appears twice unless it was moved", not duplicated, f"{duplicated[:5]}")
    checks.check(f"{label}: rows that stayed in place come in list order", order == expected_order,
                 f"first difference at {next((i for i, (a, b) in enumerate(zip(order, expected_order)) if a != b), None)}")


def paced(writers, per_page):
    """Before each next page, waits until the writers have made `per_page` more writes."""
    def between(number):
        wait_until(lambda: writers.writes >= (number + 1) * per_page, 10, 0.002)
    return between


def test_quiet_walks(server):
    """Without writers, the pages concatenated are exactly the list (JSON and HTML)."""
    _, doc = server.get_list(LIST)
    seen, pages, statuses = walk_json(server, 47)
    checks.check("quiet JSON walk: every page 200", all(s == 200 for s in statuses))
    checks.equal("quiet JSON walk: the rows are the list's, in order", seen, row_keys(doc))
    checks.equal("quiet JSON walk: the pages' sections concatenated are the list's sections", merge_sections(pages),
                 doc["sections"])
    checks.check("quiet JSON walk: every page but the last has `limit` rows",
                 all(sum(len(s["rows"]) for s in page["sections"]) == 47 for page in pages[:-1]))
    seen, parts, statuses = walk_html(server, 113)
    checks.check("quiet HTML walk: every page 200 and a Link while a pagination row is shown",
                 all(s == 200 for s in statuses), f"{statuses[-3:]}")
    checks.equal("quiet HTML walk: the data-row keys are the list's, in order", seen, row_keys(doc))
    merged = []
    continued_with_header = []
    for key, has_header, rows in parts:
        if merged and merged[-1] == key:
            if has_header:
                continued_with_header.append(key)
        else:
            merged.append(key)
    checks.equal("quiet HTML walk: tbody sections in order, each once (empty ones too)", merged,
                 [s["key"] for s in doc["sections"]])
    checks.check("quiet HTML walk: a continued section has no header row", not continued_with_header,
                 f"{continued_with_header[:3]}")
    check_list_cursor(server, doc)
    for bad in ["after=bogus", "after=", "limit=0", "limit=501", "limit=x"]:
        status, _, _ = server.request("GET", f"/lists/{LIST}/rows?{bad}", headers={"Accept": "application/json"})
        checks.equal(f"rows?{bad} is 400", status, 400)


def check_list_cursor(server, doc):
    """`List-Cursor` names the cursor after a page's last row: subscribing `until=` it gives a
    window of exactly the rows loaded so far (docs/LIVE.md)."""
    from livetest import EventStream, LiveDoc, view_row_keys

    after, seen, problems = None, [], []
    for number in range(ROWS):
        path = f"/lists/{LIST}/rows?limit=450" + (f"&after={after}" if after else "")
        status, headers, body = server.request("GET", path, headers={"Accept": "application/json"})
        page = json.loads(body)
        seen.extend(row["key"] for section in page["sections"] for row in section["rows"])
        cursor = headers.get("list-cursor")
        if cursor is None:
            problems.append(f"page {number} has no List-Cursor")
            break
        live = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=html&until={cursor}"), strict_ids=False)
        live.wait_until(lambda view: True)
        live.stream.close()
        if live.doc is None or view_row_keys(live.doc) != seen or live.doc["more"] != (page["next"] is not None):
            problems.append(f"page {number}: until=List-Cursor window has {len(view_row_keys(live.doc or {'sections': []}))}"
                            f" rows, {len(seen)} loaded")
        after = page["next"]
        if after is None:
            break
    checks.check("subscribing until=List-Cursor of each page gives exactly the rows loaded so far (last page too)",
                 not problems and seen == row_keys(doc), f"{problems[:3]}")


def test_walk_while_writing(server, walker, label, limit, per_page):
    rng = random.Random(SEED + limit)
    _, doc = server.get_list(LIST)
    writers = Writers(server, rng, doc)
    writers.start()
    try:
        seen, _, statuses = walker(server, limit, paced(writers, per_page))
    finally:
        writers.finish()
    check_walk(label, seen, statuses, writers)


if __name__ == "__main__":
    with Server() as server:
        server.put_list(LIST, make_document(random.Random(SEED)))
        main(checks, [
            ("walks without writers", lambda: test_quiet_walks(server)),
            ("JSON walk while writing", lambda: test_walk_while_writing(server, walk_json,
                                                                        "JSON walk", 80, 3)),
            ("HTML walk while writing", lambda: test_walk_while_writing(server, walk_html,
                                                                        "HTML walk", 97, 3)),
        ])
