"""A long write holds up no reader (writes run off libmicrohttpd's threads).

libmicrohttpd serves each connection on the worker thread that accepted it; when a write's
handler ran there, every other connection of that worker waited for the whole write (a reader
of another list got nothing for the length of a 600 ms PATCH or a 3 s PUT). Now writes run on a
queue of their own. This opens eight reader connections (so some share the writer's worker),
sends a PUT of 60,000 rows that takes a debug server a second or more to parse, validate and
store, and checks that on every reader connection answers kept coming while it ran: no
connection's longest wait for an answer is more than half the PUT's time.
"""
import json
import threading
import time

from livetest import Checks, EventStream, LiveDoc, Server

checks = Checks("test_long_writes")
READERS = 8


def big_document(rows):
    sections = [{"key": f"s{s}", "rows": [{"key": f"r{n}", "cells": {"name": f"Row {n} <&>", "n": n}}
                                          for n in range(s * rows // 10, (s + 1) * rows // 10)]} for s in range(10)]
    return {"title": "Big", "columns": [{"key": "name"}, {"key": "n", "kind": "number"}], "sections": sections}


def test_readers_are_answered_while_a_long_put_runs():
    with Server("--max-body", str(64 << 20), db="temp") as server:
        server.put_list("small", {"title": "Small", "columns": [{"key": "name"}],
                                  "sections": [{"key": "s", "rows": [{"key": "a", "cells": {"name": "A"}}]}]})
        body = json.dumps(big_document(60_000)).encode()
        stop = threading.Event()
        answers = [[] for _ in range(READERS)]
        ready = threading.Barrier(READERS + 1)

        def read(index):
            times = answers[index]
            server.request("GET", "/lists/small")  # this thread's keep-alive connection is open
            ready.wait()
            while not stop.is_set():
                status, _, _ = server.request("GET", "/lists/small/rows?limit=10", headers={"Accept": "application/json"})
                if status == 200:
                    times.append(time.monotonic())
                time.sleep(0.005)

        threads = [threading.Thread(target=read, args=(index,)) for index in range(READERS)]
        for thread in threads:
            thread.start()
        ready.wait()
        time.sleep(0.2)
        started = time.monotonic()
        status, _, _ = server.request("PUT", "/lists/big", body, content_type="application/json")
        ended = time.monotonic()
        time.sleep(0.2)
        stop.set()
        for thread in threads:
            thread.join()
        checks.equal("the long PUT is accepted", status, 201)
        took = ended - started
        gaps = []
        for times in answers:
            during = [started] + [t for t in times if started < t < ended] + [ended]
            gaps.append(max(b - a for a, b in zip(during, during[1:])))
        print(f"     PUT took {took:.2f} s; longest wait per reader connection: "
              + ", ".join(f"{gap:.2f}" for gap in gaps) + " s")
        checks.check("the PUT took long enough to tell (over 0.5 s)", took > 0.5, f"{took:.2f} s")
        checks.check("every reader connection got answers while the PUT ran (longest wait under half of it)",
                     max(gaps) < took / 2, [round(gap, 2) for gap in gaps])
        # A view=json subscriber of a list this large has its reset document serialized off the
        # connection's thread (Response.offThread) before the stream starts: it arrives whole.
        stream = EventStream(server, "/lists/big/events?view=json")
        live = LiveDoc(stream)
        checks.check("a view=json subscriber of the large list gets its reset", live.wait_version(1, timeout=60))
        rows = sum(len(section["rows"]) for section in (live.doc or {}).get("sections", []))
        checks.equal("the reset holds every row", rows, 60_000)
        stream.close()


if __name__ == "__main__":
    checks.main([("readers are answered while a long PUT runs", test_readers_are_answered_while_a_long_put_runs)])
