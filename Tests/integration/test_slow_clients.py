#!/usr/bin/python3
"""Slow clients cannot starve others (docs/SERVER.md, "Hostile clients: deadlines and caps").

Against a real server with short deadlines (--header-timeout 1, --body-timeout 1,
--body-min-rate 1000) and few connection slots (--max-connections 40):

- 60 slowloris clients, each sending one byte of its request head every 0.3 s and reconnecting
  whenever the server cuts it, while a normal client's requests keep being answered;
- a body trickling under the minimum rate is cut, a body at a fair rate is stored;
- a live stream (SSE) outlives every deadline and still gets its events, and a keep-alive
  connection idle between requests longer than the head deadline is still served;
- a second server with --max-connections-per-address 5: a sixth connection is closed unanswered,
  and served once one of the five is gone.
- live streams leave libmicrohttpd once their head is sent (the server owns their sockets), and
  still count against both caps: with 3 streams and 2 idle connections from one address (cap 5),
  or 15 streams and a keep-alive connection against --max-connections 16, one more connection is closed unanswered, and
  served once a stream is gone; the server holds one socket per stream, not two.

Before the deadlines, each byte restarted libmicrohttpd's 60 s idle timer: the slow clients held
every slot and the normal client hung. No assertion here times the server's speed; waits are
bounds (a client cut by a 1 s deadline must be cut within 15 s).

    /usr/bin/python3 Tests/integration/test_slow_clients.py
"""

import os
import socket
import threading
import time

from livetest import Checks, EventStream, Server, main, wait_until
from rawhttp import connect, exchange, read_until_closed, request_bytes

checks = Checks("test_slow_clients")
DEADLINE_FLAGS = ["--header-timeout", "1", "--body-timeout", "1", "--body-min-rate", "1000", "--max-connections", "40"]


class Slowloris:
    """`count` clients sending a request head a byte at a time, reconnecting when cut."""

    def __init__(self, port, count, interval=0.3):
        self.port = port
        self.interval = interval
        self.stop = threading.Event()
        self.cuts = 0
        self.completed_heads = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(count)]
        for thread in self.threads:
            thread.start()

    def run(self):
        head = b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: " + b"s" * 1000 + b"\r\n\r\n"
        while not self.stop.is_set():
            try:
                sock = connect(self.port, timeout=30)
            except OSError:
                time.sleep(0.1)
                continue
            try:
                for index in range(len(head)):
                    if self.stop.is_set():
                        break
                    sock.sendall(head[index:index + 1])
                    time.sleep(self.interval)
                else:
                    with self.lock:
                        self.completed_heads += 1
            except OSError:
                with self.lock:
                    self.cuts += 1
            finally:
                sock.close()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(5)


def test_slowloris(server):
    attack = Slowloris(server.port, 60)
    try:
        time.sleep(1.5)  # every slot taken by now, were nobody cut
        answered = []
        for _ in range(8):
            result = exchange(server.port, request_bytes("GET", "/healthz", [("Connection", "close")]), timeout=15)
            answered.append(result.first.status if result.first else None)
        checks.equal("a normal client is answered every time while 60 slow clients hang on 40 slots", answered, [200] * 8)
        wait_until(lambda: attack.cuts >= 60, 15, 0.2)
        checks.check("the slow clients are cut (each at least once)", attack.cuts >= 60, f"{attack.cuts} cuts")
        checks.equal("no slow head was ever completed", attack.completed_heads, 0)
    finally:
        attack.finish()


def test_slow_body(server):
    sock = connect(server.port, timeout=20)
    sock.sendall(request_bytes("PUT", "/lists/slow", [("Content-Type", "application/json"), ("Content-Length", "100000")]))
    cut = False
    started = time.monotonic()
    try:
        while time.monotonic() - started < 15:
            sock.sendall(b" " * 10)  # 20 bytes a second: under 1000
            time.sleep(0.5)
    except OSError:
        cut = True
    if not cut:
        data, cut = read_until_closed(sock, timeout=1)
    sock.close()
    checks.check("a body trickling at 20 bytes/s is cut", cut)

    doc = b'{"title": "Fair", "emptyText": "' + b"x" * 60000 + b'"}'
    head = request_bytes("PUT", "/lists/fair", [("Content-Type", "application/json"), ("Content-Length", str(len(doc))),
                                                ("Connection", "close")])
    pieces = [head] + [doc[i:i + 5000] for i in range(0, len(doc), 5000)]
    result = exchange(server.port, pieces, timeout=15, pause=0.1)  # about 50 kB/s, over 1.2 s
    checks.equal("a body at 50 kB/s taking longer than --body-timeout is stored", result.first and result.first.status, 201)


def test_streams_and_keep_alive(server):
    server.put_list("live", {"title": "Live", "sections": [{"key": "s", "rows": [{"key": "a", "cells": {"text": "A"}}]}]})
    stream = EventStream(server, "/lists/live/events?view=json")
    first = [stream.next(), stream.next()]
    checks.equal("the stream starts", [event.name for event in first], ["subscription", "reset"])
    time.sleep(3)  # past the head and body deadlines
    status, _, _ = server.request("PUT", "/lists/live/rows/a", {"key": "a", "cells": {"text": "B"}})
    checks.equal("a write after 3 s", status, 200)
    event = stream.next(timeout=10)
    checks.check("the stream outlived the deadlines and got the patch", event.name == "patch" and "B" in event.raw, event)
    stream.close()

    sock = connect(server.port, timeout=10)
    sock.sendall(request_bytes("GET", "/healthz"))
    first_answer = sock.recv(4096)
    time.sleep(3)  # idle between requests: no deadline runs
    sock.sendall(request_bytes("GET", "/healthz", [("Connection", "close")]))
    data, closed = read_until_closed(sock, timeout=10)
    sock.close()
    checks.check("a keep-alive connection idle for 3 s between requests is served again",
                 first_answer.startswith(b"HTTP/1.1 200") and data.startswith(b"HTTP/1.1 200"), (first_answer[:40], data[:40]))

    silent = connect(server.port, timeout=15)
    data, closed = read_until_closed(silent, timeout=15)
    silent.close()
    checks.check("a connection that sends nothing is closed", closed and data == b"", data)

    status, _, body = server.request("GET", "/metrics")
    text = body.decode()
    checks.check("the metrics count slow heads and bodies",
                 'http_slow_requests_closed_total{part="head"} 0' not in text
                 and 'http_slow_requests_closed_total{part="body"} 0' not in text
                 and 'http_slow_requests_closed_total{part="body"}' in text, text[-600:])


def test_per_address_cap():
    with Server("--max-connections-per-address", "5", "--header-timeout", "60") as server:
        held = [connect(server.port, timeout=10) for _ in range(5)]
        time.sleep(0.3)
        checks.check("a sixth connection from the address is closed unanswered", refused_unanswered(server))
        held[0].sendall(request_bytes("GET", "/healthz"))
        checks.check("the five open connections are still served", held[0].recv(4096).startswith(b"HTTP/1.1 200"))
        held.pop().close()
        time.sleep(0.3)
        result = exchange(server.port, request_bytes("GET", "/healthz", [("Connection", "close")]), timeout=10)
        checks.equal("once one closes, a new connection is served", result.first and result.first.status, 200)
        for sock in held:
            sock.close()

    with Server() as server:
        held = [connect(server.port, timeout=10) for _ in range(300)]
        result = exchange(server.port, request_bytes("GET", "/healthz", [("Connection", "close")]), timeout=10)
        checks.equal("on loopback there is no cap by default (301st connection served)", result.first and result.first.status, 200)
        for sock in held:
            sock.close()


def server_sockets(server):
    """Sockets the server process holds open now."""
    fds = os.listdir(f"/proc/{server.process.pid}/fd")
    return sum(1 for fd in fds if os.readlink(f"/proc/{server.process.pid}/fd/{fd}").startswith("socket:"))


def refused_unanswered(server):
    """True when a new connection is closed without an answer."""
    extra = connect(server.port, timeout=10)
    try:
        extra.sendall(request_bytes("GET", "/healthz"))
    except OSError:
        pass
    data, closed = read_until_closed(extra, timeout=10)
    extra.close()
    return closed and data == b""


def served_within(server, seconds=5):
    """True when a new connection is served within `seconds` (a stream's slot frees at once)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        result = exchange(server.port, request_bytes("GET", "/healthz", [("Connection", "close")]), timeout=10)
        if result.first and result.first.status == 200:
            return True
        time.sleep(0.1)
    return False


def test_stream_caps():
    document = {"title": "Caps", "sections": [{"key": "s", "rows": [{"key": "a", "cells": {"text": "A"}}]}]}
    with Server("--max-connections-per-address", "5", "--header-timeout", "60") as server:
        server.put_list("caps", document)
        streams = [EventStream(server, "/lists/caps/events?view=json") for _ in range(3)]
        checks.check("three streams start", all(stream.next().name == "subscription" for stream in streams))
        held = [connect(server.port, timeout=10) for _ in range(2)]
        time.sleep(0.3)
        checks.check("streams count against the per-address cap: a sixth connection is closed unanswered",
                     refused_unanswered(server))
        streams.pop().close()
        checks.check("once a stream is gone, a new connection from the address is served", served_within(server))
        for sock in held:
            sock.close()
        for stream in streams:
            stream.close()

    with Server("--max-connections", "16", "--header-timeout", "60") as server:
        server.put_list("caps", document)
        before = server_sockets(server)
        # This thread's keep-alive connection (the PUT) holds the sixteenth slot.
        streams = [EventStream(server, "/lists/caps/events?view=json") for _ in range(15)]
        checks.check("fifteen streams start", all(stream.next().name == "subscription" for stream in streams))
        checks.check("the server holds one socket per stream (libmicrohttpd let go of its connection)",
                     server_sockets(server) - before <= 15, (before, server_sockets(server)))
        checks.check("streams count against --max-connections: a 17th connection is closed unanswered",
                     refused_unanswered(server))
        streams.pop().close()
        checks.check("once a stream is gone, a new connection is served", served_within(server))
        for stream in streams:
            stream.close()


if __name__ == "__main__":
    with Server(*DEADLINE_FLAGS) as server:
        main(checks, [
            ("slowloris heads", lambda: test_slowloris(server)),
            ("slow and fair bodies", lambda: test_slow_body(server)),
            ("streams and idle keep-alive connections", lambda: test_streams_and_keep_alive(server)),
            ("connections per address", test_per_address_cap),
            ("streams against the caps", test_stream_caps),
        ])
