"""kill -9 during a stream of writes loses no acknowledged write.

Starts list-server on a database file, runs writers that append rows one request at a time
and remember every row whose append was acknowledged (2xx), kills the server with SIGKILL in the
middle, restarts it on the same file, and checks that every acknowledged row is there and that
the version is at least the last acknowledged one. Repeats a few rounds on the same file.
"""
import http.client
import json
import signal
import sys
import threading

from livetest import Checks, Server, wait_until  # the one harness (Tests/testkit.py)

ROUNDS = 3
WRITERS = 3
checks = Checks("test_kill9")


def request(port, method, path, body=None, content_type="application/json", timeout=5):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": content_type, "Accept": "application/json"} if body is not None else {"Accept": "application/json"}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("ETag"), response.read()
    finally:
        connection.close()


def writer(port, name, acknowledged, stop):
    """Appends rows until the server dies; records (row key, version) of each acknowledged append."""
    serial = 0
    while not stop.is_set():
        key = f"{name}-{serial}"
        serial += 1
        try:
            status, etag, _ = request(port, "POST", "/lists/durable/sections/s/rows", [{"key": key, "cells": {"text": key}}])
        except OSError:
            return  # the server is gone: this write was never acknowledged
        if 200 <= status < 300:
            acknowledged.append((key, int(etag.strip('"'))))


server = Server(db="temp")
port = server.port
status, _, _ = request(port, "PUT", "/lists/durable", {"title": "Durable", "sections": [{"key": "s"}]})
checks.check(f"create: {status}", status == 201)
all_acknowledged = []
for round_number in range(ROUNDS):
    acknowledged = []
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(port, f"r{round_number}w{w}", acknowledged, stop)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    # Kill once a good number of writes went through, so the kill lands mid-stream.
    wait_until(lambda: len(acknowledged) >= 150, 30, 0.01)
    server.stop(signal.SIGKILL)
    stop.set()
    for thread in threads:
        thread.join()
    all_acknowledged += acknowledged
    checks.check(f"round {round_number}: {len(acknowledged)} writes acknowledged before the kill (150 or more)",
                 len(acknowledged) >= 150)

    server = Server(db=server.db)
    port = server.port
    status, etag, body = request(port, "GET", "/lists/durable")
    checks.check(f"round {round_number}: GET after restart: {status}", status == 200)
    document = json.loads(body)
    stored = {row["key"] for section in document["sections"] for row in section["rows"]}
    lost = [key for key, _ in all_acknowledged if key not in stored]
    checks.check(f"round {round_number}: no acknowledged row lost", not lost, f"{len(lost)} lost, e.g. {lost[:5]}")
    newest = max(version for _, version in all_acknowledged)
    checks.check(f"round {round_number}: version {etag} is not older than the acknowledged version {newest}",
                 int(etag.strip('"')) >= newest)
    checks.check("no row appears twice", len(stored) == len(set(stored)))
    print(f"round {round_number}: {len(acknowledged)} acknowledged writes, all {len(all_acknowledged)} present after kill -9, version {etag}")

checks.check("clean exit at the end", server.stop(signal.SIGTERM, timeout=10) == 0)
sys.exit(checks.summary())
