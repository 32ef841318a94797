"""Failures of three instances on one real PostgreSQL (issue 11, API.md section 8).

`kill -9` of an instance in the middle of writes loses no acknowledged write, and its subscriber
resumes on another instance with no `reset`; PostgreSQL stopped and started again in the middle
of a run: writes answer 503 with Retry-After meanwhile (never hang), reads serve what each
instance holds, /healthz says 503, and afterwards everything converges again without
restarting any instance.
"""
import json
import signal
import threading
import time

import clusterlib
import livetest
from clusterlib import document, request, subscribe
from testkit import wait_until

checks = livetest.Checks("cluster failures")
LIST = {"title": "Durable", "columns": [{"key": "name"}], "sections": [{"key": "s", "rows": []}]}


def appender(servers, start, name, acknowledged, stop):
    """Appends rows one request at a time, starting on servers[start] and moving to the next
    instance when one cannot be reached (as a load balancer would); records acknowledged keys.
    At most about 100 writes a second each: unthrottled, three writers on an idle machine made
    over 1,000 versions between the kill and the resume, past the change log's 1,000 entries,
    where a resume rightly gets a `reset` (API.md section 8)."""
    target = start
    serial = 0
    while not stop.wait(0.01):
        key = f"{name}-{serial}"
        serial += 1
        try:
            status, headers, _ = request(servers[target], "POST", "/lists/durable/sections/s/rows",
                                         [{"key": key, "cells": {"name": key}}], timeout=10)
        except OSError:
            target = (target + 1) % len(servers)  # never acknowledged: it may or may not be there
            continue
        if 200 <= status < 300:
            acknowledged.append((key, livetest.etag_version(headers)))


def test_kill9(servers, postgres):
    url = postgres.url
    request(servers[0], "PUT", "/lists/durable", LIST)
    victim = servers[2]
    stream, live = subscribe(victim, "durable", "json")
    acknowledged, stop = [], threading.Event()
    threads = [threading.Thread(target=appender, args=(servers, index, f"w{index}", acknowledged, stop))
               for index in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    live.pump()
    victim.process.send_signal(signal.SIGKILL)
    victim.process.wait()
    live.pump(0.5)
    seen = live.version
    checks.check("the victim's subscriber had received patches before the kill", seen is not None and seen > 1, seen)
    # The browser's EventSource reconnects, through the load balancer, to another instance.
    resumed, resumed_live = subscribe(servers[0], "durable", "json", last_event_id=seen)
    resumed_live.resume_from(seen, live.doc)
    held = document(servers[0], "durable")[0] or 0
    print(f"     resumed at version {seen}; the instance held {held} just after ({held - seen} behind)")
    time.sleep(1.0)
    stop.set()
    for thread in threads:
        thread.join()
    living = servers[:2]
    last = max(version for _, version in acknowledged)
    checks.check("writes were acknowledged after the kill", len(acknowledged) > 20, len(acknowledged))
    reached = wait_until(lambda: all((document(server, "durable")[0] or 0) >= last for server in living), timeout=20)
    checks.check("both living instances reach the last acknowledged version", reached)
    version, final = document(servers[0], "durable")
    keys = {row["key"] for row in final["sections"][0]["rows"]}
    lost = [key for key, _ in acknowledged if key not in keys]
    checks.check(f"no acknowledged write is lost ({len(acknowledged)} acknowledged)", not lost, lost[:5])
    checks.check("the resumed stream reached the last version", resumed_live.wait_version(version, timeout=20),
                 resumed_live.version)
    checks.equal("the resumed stream got no reset, only patches", resumed_live.resets, 0)
    checks.check("its patches applied in order", not resumed_live.errors, resumed_live.errors[:3])
    checks.check("resumed and replayed with jsonpatch, it equals the final GET", resumed_live.doc == final,
                 livetest.first_difference(resumed_live.doc, final))
    checks.equal("the other living instance serves the same document", document(servers[1], "durable")[1], final)
    resumed.close()
    stream.close()
    # The killed instance, started again, serves every acknowledged write too.
    servers[2] = livetest.Server(db=url)
    checks.equal("the killed instance, started again, serves the same document",
                 document(servers[2], "durable")[1], final)


def patch_title(server, title, timeout=20):
    return request(server, "PATCH", "/lists/outage", json.dumps([{"op": "replace", "path": "/title", "value": title}]),
                   headers={"Content-Type": "application/json-patch+json"}, timeout=timeout)


def test_postgres_restart(servers, postgres):
    request(servers[0], "PUT", "/lists/outage", {"title": "Before", "columns": [{"key": "name"}], "sections": []})
    checks.check("every instance holds the list", wait_until(lambda: all(document(s, "outage")[0] == 1 for s in servers), timeout=30))
    subscribers = [subscribe(server, "outage", "json") for server in servers]
    postgres.stop()
    answers = []
    for index, server in enumerate(servers):
        started = time.monotonic()
        try:
            status, headers, body = patch_title(server, f"during {index}", timeout=15)
            answers.append((status, headers.get("retry-after"), headers.get("content-type"), time.monotonic() - started))
        except OSError as error:
            answers.append(("no answer", str(error), None, time.monotonic() - started))
    print(f"     writes while PostgreSQL is down: {answers}")
    checks.check("writes answer 503 with Retry-After, as problem+json, within seconds (never hang)",
                 all(status == 503 and retry and kind == "application/problem+json" and seconds < 12
                     for status, retry, kind, seconds in answers), answers)
    checks.check("reads serve what each instance holds",
                 all(document(server, "outage")[1]["title"] == "Before" for server in servers))
    checks.check("/healthz answers 503 on every instance",
                 wait_until(lambda: all(request(s, "GET", "/healthz")[0] == 503 for s in servers), timeout=10))
    postgres.start()
    recovered = wait_until(lambda: all(patch_title(s, "after")[0] == 200 for s in servers), timeout=60, interval=0.5)
    checks.check("once PostgreSQL is back, every instance takes writes again without a restart", recovered)
    checks.check("/healthz answers 200 again",
                 wait_until(lambda: all(request(s, "GET", "/healthz")[0] == 200 for s in servers), timeout=20))
    version, final = document(servers[0], "outage")
    checks.check("every instance converges on the last version",
                 wait_until(lambda: all(document(s, "outage") == (version, final) for s in servers), timeout=20))
    for index, (stream, live) in enumerate(subscribers, start=1):
        checks.check(f"instance {index}'s subscriber reached it, patches replayed equal GET",
                     live.wait_version(version) and live.doc == final and not live.errors,
                     (live.version, live.errors[:2]))
        stream.close()



def main():
    clusterlib.run_on_cluster(checks, [
        ("kill -9 of an instance in the middle of writes", test_kill9),
        ("PostgreSQL stopped and started again", test_postgres_restart),
    ])


if __name__ == "__main__":
    main()
