#!/usr/bin/python3
"""A slow subscriber never stalls writers or other subscribers (API.md section 5).

One `view=json` subscriber does not read its socket (a small receive buffer set before
connecting) while large writes flow; a normal subscriber reads along. Every write must succeed,
the normal subscriber must get every patch in order, and the slow one, once it reads, must get
a `reset` (or be disconnected, then resume) and end at the document `GET` returns. A slow
`view=html` subscriber whose window grows through `…/more` while it is behind must end at the
view of a fresh subscription with the grown window.

    /usr/bin/python3 Tests/integration/test_live_slow.py [SEED]
"""

import json
import random
import string
import sys

from livetest import Checks, EventStream, LiveDoc, Server, main, view_row_keys

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 20261125
checks = Checks("test_live_slow")
LIST = "slow"
ROWS = 16
CELL = 50_000  # characters per cell: the list is about 800 kB, each write about 200 kB
WRITES = 30


def big_text(rng):
    return rng.choice(string.ascii_letters) * CELL


def test_slow_subscriber(server):
    rng = random.Random(SEED)
    server.put_list(LIST, {"title": "Slow", "sections": [
        {"key": "all", "rows": [{"key": f"r{n}", "cells": {"text": big_text(rng)}} for n in range(ROWS)]}]})
    start_version, _ = server.get_list(LIST)

    normal = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=json"))
    slow_stream = EventStream(server, f"/lists/{LIST}/events?view=json", rcvbuf=4096, start=False)
    slow = LiveDoc(slow_stream)
    html_stream = EventStream(server, f"/lists/{LIST}/events?view=html&limit=12", rcvbuf=4096, start=False)
    slow_html = LiveDoc(html_stream, strict_ids=False)
    checks.check("both streams open", normal.stream.status == 200 and slow_stream.status == 200)
    checks.check("the normal subscriber gets its reset", normal.wait_version(start_version), f"{normal.version}")

    statuses = []
    lagging = []
    for n in range(WRITES):
        ops = [{"op": "replace", "path": f"/sections/0/rows/{index}/cells/text", "value": big_text(rng)}
               for index in rng.sample(range(ROWS), 4)]
        status, _, body = server.request("PATCH", f"/lists/{LIST}", ops, content_type="application/json-patch+json")
        statuses.append(status)
        if status != 200:
            continue
        # Lockstep with the normal subscriber: it is never behind when the next write is published.
        version = start_version + statuses.count(200)
        if not normal.wait_version(version, timeout=20):
            lagging.append(f"write {n}: normal subscriber at {normal.version}, expected {version}")
    end_version, end_doc = server.get_list(LIST)
    checks.equal(f"all {WRITES} large writes succeed while one subscriber does not read", statuses, [200] * WRITES)
    checks.equal("the version advanced once per write", end_version, start_version + WRITES)
    checks.check("the normal subscriber kept up with every write", not lagging, "; ".join(lagging[:3]))
    patch_ids = [e.id for e in normal.log if e.name == "patch"]
    checks.equal("the normal subscriber got every patch, in order", patch_ids,
                 list(range(start_version + 1, end_version + 1)))
    checks.equal("the normal subscriber got no reset but its first", normal.resets, 1)
    checks.check("the normal subscriber's patches all applied", not normal.errors, "; ".join(normal.errors[:3]))
    checks.check("the normal subscriber's document equals GET", normal.doc == end_doc)

    # The slow html one grows its window while it is behind: the rows must come with its reset.
    html_subscription = html_stream.read_now().data["subscription"]
    status, _, body = server.request("POST", f"/lists/{LIST}/subscriptions/{html_subscription}/more?limit=4")
    checks.equal("more on a stalled html subscription is accepted", status, 202)
    checks.equal("and answers the grown window", json.loads(body)["rows"] if status == 202 else None, 16)

    # The slow ones start reading now.
    slow_stream.start()
    html_stream.start()
    disconnected = False
    reached = slow.wait_version(end_version, timeout=60)
    if not reached and slow_stream.closed.is_set():
        disconnected = True
        resumed = EventStream(server, f"/lists/{LIST}/events?view=json",
                              headers={"Last-Event-ID": str(slow.version)} if slow.version else {})
        slow.stream = resumed
        reached = slow.wait_version(end_version, timeout=30)
    received = [e.id for e in slow.log if e.name == "patch"]
    print(f"     slow subscriber: {len(received)} patches then {slow.resets} resets; disconnected: {disconnected}")
    checks.check("the slow subscriber reaches the last version", reached, f"at {slow.version} of {end_version}")
    checks.check("the slow subscriber fell behind and was sent a reset, or was disconnected",
                 slow.resets >= 2 or disconnected, f"resets {slow.resets}, {len(received)} patches of {WRITES}")
    checks.check("the slow subscriber got fewer patches than there were writes (it was skipped, not queued forever)",
                 len(received) < WRITES, f"{len(received)}")
    before_reset = [e.id for e in slow.log[:next((i for i, e in enumerate(slow.log) if e.name == "reset" and i > 1),
                                                  len(slow.log))] if e.name == "patch"]
    checks.equal("the patches it got before the reset are in order without gaps", before_reset,
                 list(range(start_version + 1, start_version + 1 + len(before_reset))))
    checks.check("every event it got applied in order", not slow.errors, "; ".join(slow.errors[:3]))
    checks.check("the slow subscriber's document equals GET", slow.doc == end_doc)

    # The more patch carries the same id as the last write's: wait for the grown window too.
    reached = slow_html.wait_version(end_version, timeout=60) and slow_html.wait_until(
        lambda view: len(view_row_keys(view)) == 16, timeout=10)
    checks.check("the slow html subscriber reaches the last version", reached, f"at {slow_html.version}")
    print(f"     slow html subscriber: {slow_html.patches} patches, {slow_html.resets} resets")
    checks.check("the slow html subscriber's events all applied", not slow_html.errors, f"{slow_html.errors[:2]}")
    fresh = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=html&until={slow_html.doc['until']}"))
    fresh.wait_version(end_version)
    checks.check("its view, window grown by more, equals a fresh subscription's", slow_html.doc == fresh.doc and
                 len(view_row_keys(slow_html.doc)) == 16,
                 f"{len(view_row_keys(slow_html.doc))} rows; events {[(e.name, e.id) for e in slow_html.log]}; "
                 f"fresh has {len(view_row_keys(fresh.doc))} rows")
    fresh.stream.close()

    # Both are live again: one more write reaches both.
    status, _, _ = server.request("PUT", f"/lists/{LIST}/rows/r0", {"cells": {"text": "small again"}})
    checks.equal("a write after the catch-up succeeds", status, 200)
    version, doc = server.get_list(LIST)
    normal.wait_version(version)
    slow.wait_version(version)
    checks.check("after catching up, the slow subscriber gets patches again", slow.doc == doc and
                 slow.log[-1].name == "patch", f"{slow.log[-1]!r}")
    checks.check("and so does the normal one", normal.doc == doc)
    normal.stream.close()
    slow.stream.close()
    html_stream.close()


if __name__ == "__main__":
    with Server() as server:
        main(checks, [("a slow subscriber among large writes", lambda: test_slow_subscriber(server))])
