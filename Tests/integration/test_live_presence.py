#!/usr/bin/python3
"""Presence against a real list-server (docs/LIVE.md, "Presence"): every stream of a list, of
every kind, is told how many streams of the list are open (`event: presence`, data
`{"viewers": N}`, no id), after its reset or resumed patches, again when the count changes, and
at most once a second.

    /usr/bin/python3 Tests/integration/test_live_presence.py
"""

import threading
import time

from livetest import Checks, EventStream, Server, main, wait_until

checks = Checks("test_live_presence")

DOC = {"title": "Presence", "columns": [{"key": "name", "title": "Name"}, {"key": "n", "title": "N", "kind": "number"}],
       "sections": [{"key": s, "rows": [{"key": f"{s}{i}", "cells": {"name": f"{s} {i}", "n": i}} for i in range(3)]}
                    for s in ("a", "b")]}

# One of each kind of stream: whole and windowed, JSON and HTML, and live views (API.md section 9).
KINDS = ["view=json", "view=json&limit=2", "view=html", "view=html&limit=2", "view=json&sort_desc=n",
         "view=html&sort=n&limit=2", "view=json&q=a", "view=html&filter.n=ge:1"]


def open_stream(server, list_id, query):
    return EventStream(server, f"/lists/{list_id}/events?{query}")


def settles_at(stream, viewers, timeout=10):
    """Waits until the stream's last presence event says `viewers`."""
    return wait_until(lambda: stream.viewers()[-1:] == [viewers], timeout=timeout)


def well_formed(streams):
    """Every presence event of `streams` is `{"viewers":N}` with no id; the wrong ones."""
    return [(s.path, p.event.id, p.event.raw) for s in streams for p in list(s.presence)
            if p.event.id is not None or p.event.raw != '{"viewers":%d}' % p.viewers]


def test_two_then_one(server):
    server.put_list("two", DOC)
    first = open_stream(server, "two", "view=json")
    names = [first.next().name, first.next().name]
    checks.equal("a stream starts with subscription and reset", names, ["subscription", "reset"])
    checks.check("then it is told: 1 viewing", settles_at(first, 1), first.presence)
    second = open_stream(server, "two", "view=html&limit=2")
    checks.check("a second stream is told 2", settles_at(second, 2), second.presence)
    checks.check("the first is told 2 as well", settles_at(first, 2), first.presence)
    second.close()
    checks.check("the second closes: the first is told 1", settles_at(first, 1), first.presence)
    checks.equal("the first stream's counts", first.viewers(), [1, 2, 1])
    checks.equal("each is {\"viewers\": N} without id", well_formed([first, second]), [])
    first.close()


def test_every_kind(server):
    server.put_list("kinds", DOC)
    streams = []
    for index, query in enumerate(KINDS):
        stream = open_stream(server, "kinds", query)
        first = [stream.next().name, stream.next().name]
        checks.equal(f"{query}: subscription and reset first", first, ["subscription", "reset"])
        checks.check(f"{query}: told {index + 1} (the streams open so far) after its reset",
                     settles_at(stream, index + 1) and stream.presence[0].after == 2, stream.presence)
        streams.append(stream)
    for stream in streams:
        checks.check(f"{stream.path}: told {len(KINDS)} once all are open", settles_at(stream, len(KINDS)),
                     stream.presence)
    checks.equal("each is {\"viewers\": N} without id", well_formed(streams), [])
    for stream in streams:
        stream.close()


def test_resume(server):
    server.put_list("resume", DOC)
    version, _ = server.get_list("resume")
    current = open_stream(server, "resume", f"view=json&since={version}")
    checks.equal("a resume with nothing missed starts with subscription", current.next().name, "subscription")
    checks.check("then the count, right after it", settles_at(current, 1) and current.presence[0].after == 1,
                 current.presence)
    status, _, _ = server.request("PATCH", "/lists/resume", [{"op": "replace", "path": "/title", "value": "New"}],
                                  content_type="application/json-patch+json")
    for query in (f"view=json&since={version}", f"view=html&limit=6&since={version}"):
        behind = open_stream(server, "resume", query)
        names = [behind.next().name, behind.next().name]
        checks.equal(f"{query}: subscription and the missed patch first", names, ["subscription", "patch"])
        checks.check(f"{query}: the count comes after the patch", settles_at(behind, 2) and behind.presence[0].after == 2,
                     behind.presence)
        behind.close()
    current.close()


def test_churn(server):
    server.put_list("churn", DOC)
    watcher = open_stream(server, "churn", "view=json")
    settles_at(watcher, 1)
    stop = threading.Event()
    opened = [0]

    def churn():
        streams = []
        while not stop.is_set():
            streams.append(open_stream(server, "churn", KINDS[opened[0] % len(KINDS)]))
            opened[0] += 1
            if len(streams) > 3:
                streams.pop(0).close()
            time.sleep(0.05)
        for stream in streams:
            stream.close()

    thread = threading.Thread(target=churn)
    started = time.monotonic()
    thread.start()
    time.sleep(4)
    stop.set()
    thread.join()
    lasted = time.monotonic() - started
    during = [p for p in list(watcher.presence)[1:] if p.at <= started + lasted]
    checks.check(f"{opened[0]} streams opened and closed in {lasted:.1f} s: the watcher is told at most once a second",
                 1 <= len(during) <= int(lasted) + 2, [p.viewers for p in during])
    checks.check("when the churn ends the watcher is told 1 again", settles_at(watcher, 1), watcher.viewers()[-5:])
    watcher.close()


if __name__ == "__main__":
    with Server() as server:
        main(checks, [
            ("two streams, then one", lambda: test_two_then_one(server)),
            ("every kind of stream carries presence", lambda: test_every_kind(server)),
            ("resumed streams: the count after the missed patches", lambda: test_resume(server)),
            ("at most once a second under churn", lambda: test_churn(server)),
        ])
