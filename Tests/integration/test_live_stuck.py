#!/usr/bin/python3
"""A subscriber that stops reading is dropped by the server's own clock (docs/LIVE.md,
issue 17): once more than 1 MiB waits for it, it gets no more patches, is never sent a `reset`
while it is still stalled, and is disconnected `--stale-timeout` seconds later (3 here, 30 by
default), although libmicrohttpd never asks it for more bytes (its socket stays full). Writers and
a normal subscriber go on meanwhile.

    /usr/bin/python3 Tests/integration/test_live_stuck.py
"""

import time

from livetest import Checks, EventStream, LiveDoc, Server, main, wait_until

checks = Checks("test_live_stuck")
LIST = "stuck"
TIMEOUT = 3
WRITES = 100
CELL = 60_000


def open_streams(server):
    _, _, body = server.request("GET", "/metrics")
    for line in body.decode().splitlines():
        if line.startswith("list_server_open_streams "):
            return int(float(line.split()[1]))
    return -1


def test_stuck_subscriber(server):
    server.put_list(LIST, {"title": "Stuck", "sections": [
        {"key": "all", "rows": [{"key": f"r{n}", "cells": {"text": "a" * CELL}} for n in range(16)]}]})
    version, _ = server.get_list(LIST)
    normal = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=json"))
    normal.wait_version(version)
    stuck = EventStream(server, f"/lists/{LIST}/events?view=json", rcvbuf=4096, start=False)
    checks.equal("both streams are open", open_streams(server), 2)

    # About 60 kB a write: after a few dozen, far more than the socket buffers and 1 MiB wait.
    statuses = []
    started = time.monotonic()
    for n in range(WRITES):
        ops = [{"op": "replace", "path": f"/sections/0/rows/{n % 16}/cells/text", "value": chr(98 + n % 20) * CELL}]
        status, _, _ = server.request("PATCH", f"/lists/{LIST}", ops, content_type="application/json-patch+json")
        statuses.append(status)
    write_seconds = time.monotonic() - started
    version, doc = server.get_list(LIST)
    checks.equal("every write succeeds while one subscriber reads nothing", statuses, [200] * WRITES)
    checks.check("the normal subscriber keeps up", normal.wait_version(version, timeout=20) and normal.doc == doc,
                 f"at {normal.version} of {version}")
    stale_since = time.monotonic()  # the stuck one fell behind during the writes, at the latest now

    # It is disconnected by the server's clock: within the timeout (plus the sweeper's tick and
    # the time the writes took), never at libmicrohttpd's 60 s idle timeout.
    wait_until(lambda: open_streams(server) == 1, stale_since + TIMEOUT + 5 - time.monotonic(), 0.1)
    dropped_after = time.monotonic() - stale_since
    checks.equal("the stuck subscriber's stream is closed by the server", open_streams(server), 1)
    checks.check(f"within the stale timeout ({TIMEOUT} s) plus a margin, not at the 60 s idle timeout",
                 dropped_after <= TIMEOUT + 5, f"{dropped_after:.1f} s after the writes, which took {write_seconds:.1f} s")

    # What it does read, once it reads, ends with the connection: patches in order, and no
    # reset (it was never drained while stalled), then the end of the stream.
    stuck.start()
    events = []
    while True:
        try:
            event = stuck.next(timeout=20)
        except Exception:
            break
        if event is None:
            break
        events.append(event)
    names = [event.name for event in events]
    checks.check("the stuck subscriber read its first events and patches, then the end of the stream",
                 names[:2] == ["subscription", "reset"] and stuck.closed.is_set(), f"{names[:6]} … {len(names)} events")
    checks.check("it was never sent a reset while it was stalled", names.count("reset") == 1, f"{names.count('reset')} resets")
    patch_ids = [event.id for event in events if event.name == "patch"]
    checks.check("the patches it got are in order without gaps, and fewer than the writes",
                 patch_ids == list(range(patch_ids[0], patch_ids[0] + len(patch_ids))) and len(patch_ids) < WRITES if patch_ids
                 else True, f"{patch_ids[:3]}…{patch_ids[-3:]}")

    # A reconnect resumes (or resets) and is live again.
    again = LiveDoc(EventStream(server, f"/lists/{LIST}/events?view=json"))
    status, _, _ = server.request("PATCH", f"/lists/{LIST}", [{"op": "replace", "path": "/title", "value": "Unstuck"}],
                                  content_type="application/json-patch+json")
    version, doc = server.get_list(LIST)
    checks.check("a new subscription gets the newest document", status == 200 and again.wait_version(version) and again.doc == doc)
    for stream in (normal.stream, again.stream):
        stream.close()


if __name__ == "__main__":
    with Server("--stale-timeout", str(TIMEOUT)) as server:
        main(checks, [("a stuck subscriber is dropped by the server's clock", lambda: test_stuck_subscriber(server))])
