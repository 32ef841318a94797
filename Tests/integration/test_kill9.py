"""kill -9 during a stream of writes loses no acknowledged write.

Starts list-server on a database file, runs writers that append rows one request at a time
and remember every row whose append was acknowledged (2xx), kills the server with SIGKILL in the
middle, restarts it on the same file, and checks that every acknowledged row is there and that
the version is at least the last acknowledged one. Repeats a few rounds on the same file.
"""
import http.client
import json
import os
import signal
import sys
import tempfile
import threading
import time

import livetest  # starts servers (LIST_SERVER_BIN) on port 0
ROUNDS = 3
WRITERS = 3
passed = failed = 0


def check(condition, message):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print("FAIL:", message)


def start(db):
    """A server on the database file `db`: (its process, its port)."""
    server = livetest.Server(db=db)
    return server.process, server.port


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


db = os.path.join(tempfile.mkdtemp(), "durable.sqlite")
process, port = start(db)
status, _, _ = request(port, "PUT", "/lists/durable", {"title": "Durable", "sections": [{"key": "s"}]})
check(status == 201, f"create: {status}")
all_acknowledged = []
for round_number in range(ROUNDS):
    acknowledged = []
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(port, f"r{round_number}w{w}", acknowledged, stop)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    # Kill once a good number of writes went through, so the kill lands mid-stream.
    deadline = time.time() + 30
    while len(acknowledged) < 150 and time.time() < deadline:
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    stop.set()
    for thread in threads:
        thread.join()
    all_acknowledged += acknowledged
    check(len(acknowledged) >= 150, f"round {round_number}: only {len(acknowledged)} writes acknowledged before the kill")

    process, port = start(db)
    status, etag, body = request(port, "GET", "/lists/durable")
    check(status == 200, f"round {round_number}: GET after restart: {status}")
    document = json.loads(body)
    stored = {row["key"] for section in document["sections"] for row in section["rows"]}
    lost = [key for key, _ in all_acknowledged if key not in stored]
    check(not lost, f"round {round_number}: {len(lost)} acknowledged rows lost, e.g. {lost[:5]}")
    newest = max(version for _, version in all_acknowledged)
    check(int(etag.strip('"')) >= newest, f"round {round_number}: version {etag} is older than acknowledged version {newest}")
    check(len(stored) == len(set(stored)), "no row appears twice")
    print(f"round {round_number}: {len(acknowledged)} acknowledged writes, all {len(all_acknowledged)} present after kill -9, version {etag}")

process.send_signal(signal.SIGTERM)
check(process.wait(timeout=10) == 0, "clean exit at the end")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
