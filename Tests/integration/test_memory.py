"""A large list costs the server memory in proportion to the list, not to the write that made it
(issue 12 item 3: a list resident in at most 4x its canonical JSON).

A PUT of 20,000 rows (about 3 MB of JSON) parses the body into millions of small allocations;
they are free once the write is done, but glibc kept their pages, and the server stayed about
7x the list's JSON larger instead of about 2x. The server now gives them back after a large
write (`HeapTrim`). This checks the resident set (VmRSS) a moment after the PUT, on the default
store (a SQLite file): at most 6x the canonical JSON's bytes more than before it. The issue's 4x
is met at 1,000,000 rows (2.0x, `scripts/bench/server_memory.py`); at 20,000 rows (what a debug
build parses in seconds) what does not grow with the list weighs more: SQLite's page cache
(2 MB) and the allocator's per-thread heaps. Without the trim this test saw 11x.

A feed grown by 80 POSTs of 500 rows (42 KB each, 3.4 MB in all) leaves free heap the same way,
a little per write; the server trims after a burst of small writes too (once their bodies add up
to 1 MiB and writes pause). Before that the same check saw 9.3x (a release build), now 4.3-4.7x.
"""
import json
import time

from livetest import Checks, Server
from testkit import wait_until

checks = Checks("test_memory")
ROWS = 20_000
COLUMNS = [{"key": "name"}, {"key": "n", "kind": "number"}, {"key": "link", "kind": "link"}, {"key": "note"}]


def document(count=ROWS):
    sections = []
    for s in range(10):
        rows = [{"key": f"r{n}", "cells": {"name": f"Item {n} <r{n}> & co", "n": n * 1.5,
                                            "link": {"text": f"row {n}", "href": f"/items/{n}"}, "note": "plain"}}
                for n in range(s * count // 10, (s + 1) * count // 10)]
        sections.append({"key": f"s{s}", "header": f"Section {s}", "rows": rows})
    return {"title": "Memory", "columns": COLUMNS, "sections": sections}


def rss_bytes(server):
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def test_a_large_put_leaves_the_server_about_the_lists_size():
    with Server("--max-body", str(64 << 20), db="temp") as server:
        body = json.dumps(document(), separators=(",", ":")).encode()
        # What any first write costs once (threads' heaps, the store's page cache, the hub) is
        # not the list's: a small list is written and read first.
        server.put_list("warm-up", document(1_000))
        server.request("GET", "/lists/warm-up", headers={"Accept": "application/json"})
        before = rss_bytes(server)
        started = time.monotonic()
        status, _, answer = server.request("PUT", "/lists/big", body, content_type="application/json")
        checks.equal("the 20,000-row PUT is accepted", status, 201)
        print(f"     PUT of {len(body):,} B answered in {time.monotonic() - started:.1f} s")
        # Within 6x of the body's bytes (the canonical JSON is a little larger; checked below).
        limit = before + 6 * len(body)
        wait_until(lambda: rss_bytes(server) <= limit, timeout=15, interval=0.25)
        growth = rss_bytes(server) - before
        # Read last: the server keeps the JSON answer of the version it serves.
        status, _, canonical = server.request("GET", "/lists/big", headers={"Accept": "application/json"})
        checks.equal("GET answers the document", status, 200)
        print(f"     canonical JSON {len(canonical):,} B; VmRSS grew {growth:,} B ({growth / len(canonical):.2f}x)")
        checks.check("the server grew by at most 6x the list's canonical JSON", growth <= 6 * len(canonical),
                     f"{growth / len(canonical):.2f}x")


FEED_ROWS = 40_000
FEED_WRITES = 80


def feed_rows(first, count):
    """Rows of a feed: a short key and three short cells, about 85 B of canonical JSON each."""
    return [{"key": f"f{n}", "cells": {"name": f"Post {n}", "n": n % 1000, "tag": "new"}}
            for n in range(first, first + count)]


def test_a_feed_grown_by_small_writes_leaves_the_server_about_the_lists_size():
    columns = [{"key": "name"}, {"key": "n", "kind": "number"}, {"key": "tag"}]
    sections = [{"key": f"s{s}", "rows": []} for s in range(10)]
    with Server(db="temp") as server:
        server.put_list("warm-up", {"title": "Warm-up", "columns": columns, "sections": sections})
        status, _, _ = server.request("POST", "/lists/warm-up/sections/s0/rows", feed_rows(0, 1_000))
        checks.equal("the warm-up rows are added", status, 200)
        server.request("GET", "/lists/warm-up", headers={"Accept": "application/json"})
        before = rss_bytes(server)
        server.put_list("feed", {"title": "Feed", "columns": columns, "sections": sections})
        # Each POST is a 42 KB body, far under the 1 MiB of a large write; together 3.4 MB.
        per_write = FEED_ROWS // FEED_WRITES
        statuses = set()
        for write in range(FEED_WRITES):
            rows = feed_rows(write * per_write, per_write)
            status, _, _ = server.request("POST", f"/lists/feed/sections/s{write % 10}/rows", rows)
            statuses.add(status)
        checks.equal(f"{FEED_WRITES} POSTs of {per_write} rows are accepted", statuses, {200})
        status, _, canonical = server.request("GET", "/lists/feed", headers={"Accept": "application/json"})
        checks.equal("GET answers the document", status, 200)
        limit = before + 6 * len(canonical)
        # The server keeps the JSON answer of the version it serves: counted against the limit.
        wait_until(lambda: rss_bytes(server) <= limit + len(canonical), timeout=15, interval=0.25)
        growth = rss_bytes(server) - before - len(canonical)
        print(f"     canonical JSON {len(canonical):,} B; VmRSS grew {growth:,} B ({growth / len(canonical):.2f}x) "
              "beyond the kept answer")
        checks.check("the server grew by at most 6x the feed's canonical JSON", growth <= 6 * len(canonical),
                     f"{growth / len(canonical):.2f}x")


if __name__ == "__main__":
    checks.main([
        ("a large PUT leaves the server about the list's size", test_a_large_put_leaves_the_server_about_the_lists_size),
        ("a feed grown by small writes leaves the server about the list's size",
         test_a_feed_grown_by_small_writes_leaves_the_server_about_the_lists_size),
    ])
