#!/usr/bin/python3
"""HEAD never carries a body, and raw bytes that are not UTF-8 in a request target are a 400.

- `HEAD` on every GET route answers GET's status and header fields and no body: a request
  pipelined behind it on the same connection is answered normally (a stray body byte would
  shift it). `HEAD /lists/{id}/events` used to send a chunked body; now it sends the stream's
  header fields, opens no subscription and closes the connection (a stream has no length).
- Raw non-UTF-8 bytes in a path or query (not percent-encoded) used to become U+FFFD and reach
  the handlers; now they are a 400 problem+json before any handler runs. Raw *valid* UTF-8 is
  still accepted.
- Errors libmicrohttpd used to make itself (413 for a declared length, with Expect: 100-continue)
  are one problem+json answer.

    /usr/bin/python3 Tests/integration/test_head_and_targets.py
"""

import json

from livetest import Checks, Server, main
from rawhttp import exchange, parse_response, read_until_closed, connect, request_bytes

checks = Checks("test_head_and_targets")
LIST = {"title": "Head", "sections": [{"key": "s", "rows": [{"key": f"r{n}", "cells": {"text": f"row {n}"}} for n in range(60)]}]}


def head_then_get(server, path, headers=()):
    """HEAD `path`, then GET /healthz on the same connection: (head status, head headers,
    bytes between the HEAD's header block and the next status line, whether the GET was answered,
    whether the server closed after the HEAD)."""
    sock = connect(server.port, timeout=5)
    sock.sendall(request_bytes("HEAD", path, list(headers)) + request_bytes("GET", "/healthz", [("Connection", "close")]))
    data, closed = read_until_closed(sock, timeout=5)
    sock.close()
    end = data.find(b"\r\n\r\n")
    if not data.startswith(b"HTTP/1.1 ") or end < 0:
        return None, {}, data, False, closed
    lines = data[:end].split(b"\r\n")
    status = int(lines[0].split(b" ")[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        fields[name.strip().lower().decode()] = value.strip().decode()
    rest = data[end + 4:]
    next_status = rest.find(b"HTTP/1.1 ")
    stray = rest if next_status < 0 else rest[:next_status]
    answered = next_status >= 0 and parse_response(rest[next_status:]) is not None
    return status, fields, stray, answered, closed


def get_fields(server, path, headers=()):
    result = exchange(server.port, request_bytes("GET", path, list(headers) + [("Connection", "close")]), timeout=5)
    response = result.first
    return (response.status, {name: values[-1] for name, values in response.headers.items()}) if response else (None, {})


def test_head(server):
    server.put_list("head", LIST)
    routes = [
        ("/", ()), ("/lists", ()), ("/lists", (("Accept", "text/html"),)),
        ("/lists/head", ()), ("/lists/head", (("Accept", "application/json"),)),
        ("/lists/head/rows?limit=5", ()), ("/lists/head/rows?limit=5", (("Accept", "text/html"),)),
        ("/assets/js/main.js", ()), ("/healthz", ()), ("/metrics", ()), ("/openapi.json", ()),
        ("/lists/missing", ()), ("/nothing/here", ()), ("/lists/missing/events", ()),
    ]
    for path, headers in routes:
        status, fields, stray, answered, _ = head_then_get(server, path, headers)
        get_status, get = get_fields(server, path, headers)
        label = f"HEAD {path}" + (f" ({headers[0][1]})" if headers else "")
        checks.check(f"{label}: GET's status and fields, no body, the next request answered",
                     status == get_status and stray == b"" and answered
                     and fields.get("content-type") == get.get("content-type")
                     # /metrics grows between the two requests: its length only has to be there.
                     and (fields.get("content-length") == get.get("content-length")
                          or (path == "/metrics" and "content-length" in fields))
                     and fields.get("etag") == get.get("etag"),
                     f"HEAD {status} {fields} stray={stray[:80]!r} answered={answered}; GET {get_status} {get}")

    for view in ("json", "html"):
        path = f"/lists/head/events?view={view}"
        status, fields, stray, answered, closed = head_then_get(server, path)
        checks.check(f"HEAD {path}: 200 text/event-stream, no body, no length, connection closed",
                     status == 200 and fields.get("content-type") == "text/event-stream" and stray == b""
                     and "content-length" not in fields and "transfer-encoding" not in fields and closed,
                     f"{status} {fields} stray={stray[:80]!r} closed={closed}")
    _, _, body = server.request("GET", "/metrics")
    checks.check("no stream was opened by those HEADs", "list_server_open_streams 0" in body.decode(),
                 [line for line in body.decode().splitlines() if "open_streams" in line])


def test_targets(server):
    server.put_list("utf", LIST)
    refused = [
        b"/lists/utf\xff", b"/lists/utf/rows?after=\xff", b"/lists/utf/rows/r\xc0\xaf",
        b"/lists/utf?x=\xed\xa0\x80", b"/assets/list\xfe.js", b"/healthz?\x80",
    ]
    for target in refused:
        result = exchange(server.port, b"GET " + target + b" HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        problem = result.first.json() if result.first else None
        checks.check(f"raw bytes that are not UTF-8 in {target!r}: one 400 problem+json",
                     len(result.responses) == 1 and result.first.status == 400
                     and result.first.header("content-type") == "application/problem+json"
                     and isinstance(problem, dict) and "UTF-8" in problem.get("detail", ""),
                     result.describe())
    status, _, _ = server.request("PUT", "/lists/utf/rows/r1", {"key": "r1", "cells": {"text": "x"}})
    checks.equal("setup: a row write", status, 200)
    result = exchange(server.port, "GET /lists/utf/rows?limit=2&note=café HTTP/1.1\r\nHost: test\r\nAccept: application/json\r\n"
                      "Connection: close\r\n\r\n".encode())
    checks.equal("raw valid UTF-8 in a query is accepted", result.first and result.first.status, 200)
    status, _, _ = server.request("POST", "/lists/utf/sections/s/rows", [{"key": "é", "cells": {"text": "accent"}}])
    checks.equal("setup: a row keyed é", status, 200)
    raw = exchange(server.port, "DELETE /lists/utf/rows/é HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".encode())
    checks.check("a raw valid UTF-8 row key in a path reaches the handler (the row is deleted)",
                 raw.first is not None and raw.first.status == 204, raw.describe())


def test_library_errors(server):
    result = exchange(server.port, request_bytes("PUT", "/lists/big", [("Content-Type", "application/json"),
                                                                       ("Content-Length", str(100 << 20)),
                                                                       ("Expect", "100-continue")]))
    problem = result.first.json() if result.first else None
    checks.check("a declared 100 MiB body with Expect: 100-continue: one 413 problem+json, no 100 Continue",
                 len(result.responses) == 1 and result.first.status == 413 and result.closed
                 and result.first.header("content-type") == "application/problem+json" and isinstance(problem, dict),
                 result.describe())


if __name__ == "__main__":
    with Server() as server:
        main(checks, [
            ("HEAD", lambda: test_head(server)),
            ("request targets", lambda: test_targets(server)),
            ("errors libmicrohttpd used to make", lambda: test_library_errors(server)),
        ])
