"""Live streams as the SSE clients people use read them (issue 25): python `requests`
(`iter_lines()`), `sseclient-py` (as its README shows, over `requests`) and `httpx-sse`, from PyPI
in a venv this test makes (.build-venv/, pinned versions), each against a real server.

Each client must see every event as soon as it is sent: the first events of a subscription, the
patch of each write, and again after a resume with `Last-Event-ID`. A close-delimited body made
`requests` and `sseclient-py` hold an event back until 512 more bytes came (a minute of pings
later); the bound here, a second, is far below that, and the note's figures come from the
latencies this test prints. No event may come without data (a `retry:` block alone reached
httpx-sse users as an empty message, and `json.loads("")` crashed them).

Also on the wire itself: HTTP/1.1 streams are chunked, one chunk per write, and end with the last
chunk when the list is deleted; an HTTP/1.0 request gets a close-delimited body.
"""
import json
import os
import queue
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(os.environ.get("LIST_SERVER_ROOT", Path(__file__).resolve().parents[2]))
PINS = ["requests==2.34.2", "httpx==0.28.1", "httpx-sse==0.4.3", "sseclient-py==1.9.0"]
VENV = ROOT / ".build-venv" / "sse-clients-1"


def in_venv():
    """Runs this file again under the venv's python (made and filled first, once)."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--clear", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", *PINS],
                       check=True)
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


if Path(sys.prefix).resolve() != VENV.resolve():
    in_venv()

import httpx  # noqa: E402
import requests  # noqa: E402
import sseclient  # noqa: E402
from httpx_sse import connect_sse  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from testkit import Checks, Server  # noqa: E402

# An event is late when it has not arrived a second after it was sent: without framing, it
# waited for 512 more bytes (about 64 pings, 16 minutes).
LATE = 1.0


class Received:
    """Events a client's reader thread saw: (monotonic time, name, id, data, retry); `presence`
    events (docs/LIVE.md, "Presence") are kept aside in `presence`."""

    def __init__(self):
        self.events = queue.Queue()
        self.presence = []

    def put(self, name, event_id, data, retry=None):
        if name == "presence":
            self.presence.append((event_id, data))
            return
        self.events.put((time.monotonic(), name or "message", event_id, data, int(retry) if retry else None))

    def next(self, timeout=LATE):
        return self.events.get(timeout=timeout)


def read_requests(url, headers, received, stop):
    """python `requests`, the usual way: `iter_lines()` over a streamed answer, fields by hand."""
    with requests.get(url, headers=headers, stream=True, timeout=30) as answer:
        received.answer = answer
        name, event_id, data, retry = None, None, None, None
        for line in answer.iter_lines(decode_unicode=True):
            if stop.is_set():
                return
            if line == "":
                if data is not None:
                    received.put(name, event_id, data, retry)
                name, event_id, data, retry = None, None, None, None
            elif line.startswith(":"):
                continue
            else:
                field, _, value = line.partition(": ")
                if field == "event":
                    name = value
                elif field == "id":
                    event_id = value
                elif field == "data":
                    data = value
                elif field == "retry":
                    retry = int(value)


def read_sseclient(url, headers, received, stop):
    """`sseclient-py` as its README shows: `SSEClient(requests.get(url, stream=True)).events()`."""
    with requests.get(url, headers=headers, stream=True, timeout=30) as answer:
        received.answer = answer
        for event in sseclient.SSEClient(answer).events():
            if stop.is_set():
                return
            received.put(event.event, event.id, event.data, event.retry)


def read_httpx_sse(url, headers, received, stop):
    """`httpx-sse`: `connect_sse(client, "GET", url)` and `iter_sse()`."""
    with httpx.Client(timeout=httpx.Timeout(30, read=None)) as client:
        with connect_sse(client, "GET", url, headers=headers) as source:
            received.answer = source.response
            for event in source.iter_sse():
                if stop.is_set():
                    return
                received.put(event.event, event.id or None, event.data, event.retry)


CLIENTS = {"requests": read_requests, "sseclient-py": read_sseclient, "httpx-sse": read_httpx_sse}


def subscribe(reader, url, headers=None):
    received, stop = Received(), threading.Event()
    thread = threading.Thread(target=lambda: _guarded(reader, url, headers or {}, received, stop), daemon=True)
    thread.start()
    return received, stop


def _guarded(reader, url, headers, received, stop):
    try:
        reader(url, headers, received, stop)
    except Exception as error:  # the stream was closed under the reader, or it failed: both end it
        received.put("reader-ended", None, repr(error))


def is_json(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def patch(server, list_id, value):
    """A title write; returns (version, monotonic time its answer came)."""
    status, headers, body = server.request("PATCH", f"/lists/{list_id}",
                                           [{"op": "replace", "path": "/title", "value": value}],
                                           headers={"Content-Type": "application/json-patch+json"})
    return json.loads(body)["version"], time.monotonic()


def check_client(checks, server, name, reader, latencies):
    list_id = f"sse-{name}"
    server.put_list(list_id, {"title": "start", "columns": [{"key": "a"}],
                              "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"a": "x"}}]}]})
    url = f"{server.base}/lists/{list_id}/events?view=json"
    asked = time.monotonic()
    received, stop = subscribe(reader, url, {"Accept": "text/event-stream"})
    try:
        first = [received.next(), received.next()]
    except queue.Empty:
        checks.check(f"{name}: the first events (subscription, reset) within {LATE} s", False)
        return
    checks.check(f"{name}: subscription then reset", [event[1] for event in first] == ["subscription", "reset"], [event[1:3] for event in first])
    checks.check(f"{name}: the first event carries retry: 1000", first[0][4] == 1000, first[0][4])
    checks.check(f"{name}: every event's data is JSON", all(is_json(event[3]) for event in first),
                 [event[3][:60] for event in first])
    latencies.append(first[1][0] - asked)
    answer_headers = received.answer.headers
    checks.check(f"{name}: the stream is chunked", answer_headers.get("transfer-encoding") == "chunked", dict(answer_headers))
    last_id = first[1][2]
    for round in range(3):
        version, sent = patch(server, list_id, f"title {round}")
        try:
            event = received.next()
        except queue.Empty:
            checks.check(f"{name}: the patch of version {version} within {LATE} s", False)
            return
        checks.check(f"{name}: patch {version}", event[1] == "patch" and event[2] == str(version), event[1:3])
        latencies.append(max(0.0, event[0] - sent))
        last_id = event[2]
    # It has no id line, so it leaves the last event id as the reset set it (httpx-sse reports that id).
    checks.check(f"{name}: the presence event after the reset reads as one event, viewers 1, last event id kept",
                 received.presence[:1] in ([(None, '{"viewers":1}')], [(first[1][2], '{"viewers":1}')]),
                 received.presence)
    # Closing a response from this thread would wait for the reader's lock until the next ping:
    # the reader ends at its next event instead (the write below) and closes its own stream.
    stop.set()

    # A resume: Last-Event-ID brings the writes missed meanwhile, then live patches, at once.
    missed, _ = patch(server, list_id, "while away")
    asked = time.monotonic()
    received, stop = subscribe(reader, url, {"Accept": "text/event-stream", "Last-Event-ID": last_id})
    try:
        events = [received.next(), received.next()]
        checks.check(f"{name}: a resume gets the missed patch at once", [(event[1], event[2]) for event in events] == [("subscription", None), ("patch", str(missed))], [event[1:3] for event in events])
        latencies.append(events[1][0] - asked)
        version, sent = patch(server, list_id, "after resume")
        event = received.next()
        checks.check(f"{name}: a live patch after the resume", event[1] == "patch" and event[2] == str(version))
        latencies.append(max(0.0, event[0] - sent))
    except queue.Empty:
        checks.check(f"{name}: events after a resume within {LATE} s", False)
    finally:
        stop.set()
        patch(server, list_id, "done")  # wakes the reader, which then ends


def raw_stream(server, path, version):
    """A raw GET of `path` with `version`; returns (head bytes, socket, rest already read)."""
    sock = socket.create_connection((server.host, server.port), timeout=10)
    sock.sendall(f"GET {path} {version}\r\nHost: {server.host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.decode("latin-1"), sock, rest


def read_to_end(sock, rest):
    sock.settimeout(10)
    data = rest
    while True:
        piece = sock.recv(65536)
        if not piece:
            return data
        data += piece


def dechunk(data):
    """The chunks of a chunked body, in order, and whether it ended with the last chunk."""
    chunks = []
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            return chunks, data == b"\r\n"
        chunks.append(data[:size])
        if data[size:size + 2] != b"\r\n":
            raise ValueError("a chunk without its CRLF")
        data = data[size + 2:]
    return chunks, False


def check_wire(checks, server):
    server.put_list("wire", {"title": "w", "columns": [{"key": "a"}], "sections": []})
    head, sock, rest = raw_stream(server, "/lists/wire/events?view=json", "HTTP/1.1")
    checks.check("HTTP/1.1: Transfer-Encoding: chunked, no Content-Length", "transfer-encoding: chunked" in head.lower() and "content-length" not in head.lower(), head)
    time.sleep(0.2)
    patch(server, "wire", "one")
    time.sleep(0.2)
    server.request("DELETE", "/lists/wire")
    chunks, ended = dechunk(read_to_end(sock, rest))
    sock.close()
    names = [chunk.split(b"\n", 1)[0] for chunk in chunks]
    checks.check("one chunk per write: first events, the patch, deleted", names == [b"event: subscription", b"event: patch", b"event: deleted"] or
                 names == [b"event: subscription", b"event: reset", b"event: patch", b"event: deleted"], names)
    checks.check("each chunk holds whole events", all(chunk.endswith(b"\n\n") for chunk in chunks))
    checks.check("the stream ends with the last chunk (0 CRLF CRLF) when the list is deleted", ended)

    server.put_list("wire10", {"title": "w", "columns": [{"key": "a"}], "sections": []})
    head, sock, rest = raw_stream(server, "/lists/wire10/events?view=json", "HTTP/1.0")
    checks.check("HTTP/1.0: a close-delimited body", "transfer-encoding" not in head.lower() and "connection: close" in head.lower(), head)
    time.sleep(0.2)
    server.request("DELETE", "/lists/wire10")
    body = read_to_end(sock, rest)
    sock.close()
    checks.check("HTTP/1.0: the events as they are, until the connection ends", body.startswith(b"event: subscription\nretry: 1000\n") and b"event: deleted" in body, body[:80])


def main():
    checks = Checks("sse clients")
    server = Server()
    try:
        for name, reader in CLIENTS.items():
            latencies = []
            check_client(checks, server, name, reader, latencies)
            if latencies:
                print(f"{name}: {len(latencies)} events, median {statistics.median(latencies) * 1000:.1f} ms, "
                      f"slowest {max(latencies) * 1000:.1f} ms after sending")
        checks.run("the wire: chunks over HTTP/1.1, the connection's end over HTTP/1.0", check_wire, checks, server)
    finally:
        server.stop()
    sys.exit(checks.summary())


main()
