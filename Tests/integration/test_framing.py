#!/usr/bin/python3
"""Strict request framing (docs/SERVER.md, "Hostile clients"): every ambiguous or malformed
request is answered once with application/problem+json and its connection closed, and nothing a
client hid behind it is ever served as a second request. Raw sockets, against a real server.

What libmicrohttpd 0.9.75 did with these before the framing guard: two Content-Length fields
(the first won, the rest of the body was served as a request), Transfer-Encoding with
Content-Length (chunked won), "Content-Length : N" (ignored, the body parsed as a request),
an unknown Transfer-Encoding (no answer for 60 s), obsolete line folding (appended to the field
*name*), "Content-Length: 2, 2" (HTML, status line twice).

    /usr/bin/python3 Tests/integration/test_framing.py
"""

import json

from livetest import Checks, Server, main
from rawhttp import exchange, request_bytes

checks = Checks("test_framing")
SMUGGLED = b"PUT /lists/smuggled HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"title\": \"x\"}\n"
DOC = json.dumps({"title": "Framing"}).encode()


def refused(server, description, data, status=400, detail=None, pieces_pause=0.0):
    """Sends `data`; checks one problem+json answer with `status`, the connection closed, and
    that no smuggled list appeared."""
    result = exchange(server.port, data, pause=pieces_pause)
    first = result.first
    problem = first.json() if first else None
    checks.check(f"{description}: one answer, {status} problem+json, connection closed",
                 len(result.responses) == 1 and first.status == status and result.closed and not result.leftover
                 and first.header("content-type") == "application/problem+json"
                 and isinstance(problem, dict) and problem.get("status") == status and problem.get("detail")
                 and first.header("connection") == "close",
                 result.describe())
    if detail is not None:
        checks.check(f"{description}: the detail says why", problem is not None and detail in problem.get("detail", ""),
                     problem)
    status_code, _, _ = server.request("GET", "/lists/smuggled", headers={"Accept": "application/json"})
    checks.equal(f"{description}: nothing hidden behind it was served", status_code, 404)


def test_content_length(server):
    body = b"{}" + SMUGGLED
    refused(server, "two different Content-Length", request_bytes(
        "PUT", "/lists/a", [("Content-Type", "application/json"), ("Content-Length", "2"),
                            ("Content-Length", str(len(body)))], body), detail="more than once")
    refused(server, "the same Content-Length twice", request_bytes(
        "PUT", "/lists/a", [("Content-Length", "2"), ("Content-Length", "2")], b"{}" + SMUGGLED))
    refused(server, "Content-Length: 2, 2", request_bytes(
        "PUT", "/lists/a", [("Content-Length", "2, 2")], b"{}" + SMUGGLED), detail="single decimal number")
    refused(server, "Content-Length: +2", request_bytes("PUT", "/lists/a", [("Content-Length", "+2")], b"{}"))
    refused(server, "a 30-digit Content-Length", request_bytes(
        "PUT", "/lists/a", [("Content-Length", "9" * 30)], b"{}"), status=413)
    refused(server, "a space before the colon", request_bytes(
        "PUT", "/lists/a", [("Content-Length ", str(len(SMUGGLED)))], SMUGGLED), detail="whitespace")
    refused(server, "a tab before the colon", request_bytes(
        "PUT", "/lists/a", [("Content-Length\t", str(len(SMUGGLED)))], SMUGGLED))


def test_transfer_encoding(server):
    chunked = b"0\r\n\r\n" + SMUGGLED
    refused(server, "Transfer-Encoding with Content-Length", request_bytes(
        "PUT", "/lists/a", [("Content-Length", "5"), ("Transfer-Encoding", "chunked")], chunked), detail="ambiguous")
    refused(server, "Content-Length after Transfer-Encoding", request_bytes(
        "PUT", "/lists/a", [("Transfer-Encoding", "chunked"), ("Content-Length", "5")], chunked), detail="ambiguous")
    refused(server, "Transfer-Encoding twice", request_bytes(
        "PUT", "/lists/a", [("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")], chunked))
    refused(server, "Transfer-Encoding: chunked, chunked", request_bytes(
        "PUT", "/lists/a", [("Transfer-Encoding", "chunked, chunked")], chunked))
    # An unknown coding was answered by nothing for 60 s; now at once (the exchange waits 5 s).
    refused(server, "Transfer-Encoding: gzip", request_bytes(
        "PUT", "/lists/a", [("Transfer-Encoding", "gzip")], b"abc"), status=501, detail="chunked")
    refused(server, "Transfer-Encoding: gzip, chunked", request_bytes(
        "PUT", "/lists/a", [("Transfer-Encoding", "gzip, chunked")], chunked), status=501)
    refused(server, "Transfer-Encoding: chunked;x=1", request_bytes(
        "PUT", "/lists/a", [("Transfer-Encoding", "chunked;x=1")], chunked), status=501)
    refused(server, "Transfer-Encoding in HTTP/1.0", request_bytes(
        "PUT", "/lists/a", [("Transfer-Encoding", "chunked")], chunked, version="HTTP/1.0"))
    head = request_bytes("PUT", "/lists/a", [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
    refused(server, "a chunk size that is not hex", head + b"zz\r\n{}\r\n0\r\n\r\n" + SMUGGLED, detail="chunked body")
    refused(server, "chunk data longer than its size", head + b"2\r\n{}xx\r\n0\r\n\r\n" + SMUGGLED)
    refused(server, "a 20-digit chunk size", head + b"F" * 20 + b"\r\n", status=413)
    refused(server, "the reserved field as a trailer", head + b"2\r\n{}\r\n0\r\nList-Server-Framing-Violation: 1\r\n\r\n",
            detail="reserved")


def test_head_shape(server):
    refused(server, "HTTP/1.1 without Host", b"GET /healthz HTTP/1.1\r\n\r\n", detail="Host")
    refused(server, "two Host fields", request_bytes("GET", "/healthz", [("Host", "other")]), detail="more than once")
    refused(server, "a Host with a space", request_bytes("GET", "/healthz", host="a b"))
    refused(server, "obsolete line folding", b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-A: a\r\n b\r\n\r\n",
            detail="folding")
    # libmicrohttpd appended a folded line to the field *name*: this was "Transfer-Encoding: chunked".
    refused(server, "folding that would build Transfer-Encoding",
            b"PUT /lists/a HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\nTransfer-: chunked\r\n Encoding\r\n\r\n0\r\n\r\n" + SMUGGLED)
    refused(server, "a bare CR in a field", b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-A: a\rX-B: b\r\n\r\n",
            detail="control character")
    refused(server, "a NUL in a field", b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-A: a\x00b\r\n\r\n")
    refused(server, "a field without a colon", b"GET /healthz HTTP/1.1\r\nHost: test\r\nNoColon\r\n\r\n")
    refused(server, "the reserved field in a head", request_bytes(
        "GET", "/healthz", [("List-Server-Framing-Violation", "1")]), detail="reserved")
    refused(server, "HTTP/2.0", b"GET /healthz HTTP/2.0\r\nHost: test\r\n\r\n", status=505)
    refused(server, "a garbage request line", b"\x01\x02 what\r\n\r\n")
    refused(server, "a target with a space", b"GET /a b HTTP/1.1\r\nHost: test\r\n\r\n")
    refused(server, "a request line over the head limit", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: test\r\n\r\n", status=414)
    refused(server, "a head over the limit", request_bytes("GET", "/healthz", [("X-Big", "b" * 9000)]), status=431)
    refused(server, "65 fields", request_bytes("GET", "/healthz", [(f"X-{n}", "v") for n in range(65)]), status=431)
    refused(server, "1,000 query items", request_bytes("GET", "/healthz?" + "&".join("a" * 1000)), status=414,
            detail="query string")
    refused(server, "64 query items and a Host field", request_bytes("GET", "/healthz?" + "&".join("a" * 64)), status=431)
    chunked = request_bytes("PUT", "/lists/a", [("Transfer-Encoding", "chunked")] + [(f"X-{n}", "h" * 100) for n in range(40)])
    refused(server, "trailers past what the head left", chunked + b"2\r\n{}\r\n0\r\n"
            + b"".join(f"T-{n}: ".encode() + b"t" * 100 + b"\r\n" for n in range(40)) + b"\r\n", status=431)


def test_still_served(server):
    """Everything well-formed keeps working, including the awkward but valid."""
    def ok(description, data, statuses, pause=0.0):
        result = exchange(server.port, data, timeout=3, pause=pause)
        got = [response.status for response in result.responses]
        checks.check(f"{description}: answered {statuses}", got == statuses and not result.leftover, result.describe())
        return result

    # At the limits (8 KiB head, 64 fields) libmicrohttpd must still have room to answer.
    fields = [(f"X-{n}", "v") for n in range(61)] + [("Connection", "close")]
    filler = 8 * 1024 - len(request_bytes("GET", "/healthz", fields + [("X-Fill", "")]))
    ok("a head of exactly 8 KiB with 64 fields", request_bytes("GET", "/healthz", fields + [("X-Fill", "f" * filler)]), [200])
    ok("... and one byte more is refused", request_bytes("GET", "/healthz", fields + [("X-Fill", "f" * (filler + 1))]), [431])
    # libmicrohttpd keeps a record per header field, query item, cookie and trailer field in the
    # same 16 KiB: a Cookie of 1,000 pairs or 1,000 query items ran it out (HTML 431 sent twice,
    # or no answer at all).
    cookie = "; ".join(f"c{n}=v" for n in range(1000))[:7000]
    ok("a 7,000-byte Cookie of 1,000 pairs (list-server reads no cookies)", request_bytes(
        "GET", "/healthz", [("Cookie", cookie), ("Connection", "close")]), [200])
    ok("60 query items", request_bytes("GET", "/healthz?" + "&".join(f"q{n}=v" for n in range(60)),
                                       [("Connection", "close")]), [200])
    ok("a 4 KiB head and 4 KiB of trailers, 32 fields each", request_bytes(
        "PUT", "/lists/trailers", [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked"),
                                   ("Connection", "close")] + [(f"X-{n}", "h" * 100) for n in range(28)])
        + f"{len(DOC):x}".encode() + b"\r\n" + DOC + b"\r\n0\r\n"
        + b"".join(f"T-{n}: ".encode() + b"t" * 100 + b"\r\n" for n in range(32)) + b"\r\n", [201])
    pipelined = request_bytes("GET", "/healthz") + request_bytes("GET", "/healthz", [("Connection", "close")])
    ok("two pipelined requests", pipelined, [200, 200])
    chunked = request_bytes("PUT", "/lists/chunked", [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked"),
                                                      ("Connection", "close")])
    chunked += b"5;ext=1\r\n" + DOC[:5] + b"\r\n" + f"{len(DOC) - 5:x}".encode() + b"\n" + DOC[5:] + b"\r\n0\r\nX-Trailer: t\r\n\r\n"
    ok("a chunked PUT with an extension, a bare-LF line end and a trailer", chunked, [201])
    whole = request_bytes("PUT", "/lists/slowly", [("Content-Type", "application/json"), ("Content-Length", str(len(DOC))),
                                                   ("Connection", "close")], DOC)
    ok("a request sent a byte at a time", [whole[i:i + 1] for i in range(len(whole))], [201], pause=0.002)
    ok("HTTP/1.0 without Host", b"GET /healthz HTTP/1.0\r\n\r\n", [200])
    ok("empty lines before a request", b"\r\n\r\n" + request_bytes("GET", "/healthz", [("Connection", "close")]), [200])
    ok("Content-Length with leading zeros and spaces", request_bytes(
        "PUT", "/lists/zeros", [("Content-Type", "application/json"), ("Content-Length", f"  000{len(DOC)} "),
                                ("Connection", "close")], DOC), [201])
    mixed = request_bytes("GET", "/healthz") + b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-A: a\r\n b\r\n\r\n" + SMUGGLED
    result = ok("a good request pipelined before a folded one: answered, then refused", mixed, [200, 400])
    checks.check("... and the connection closed after the refusal", result.closed, result.describe())
    status, _, body = server.request("GET", "/healthz")
    checks.equal("the server is healthy after all of it", (status, body.decode().strip()), (200, "ok"))


if __name__ == "__main__":
    with Server() as server:
        main(checks, [
            ("Content-Length", lambda: test_content_length(server)),
            ("Transfer-Encoding and chunked bodies", lambda: test_transfer_encoding(server)),
            ("the shape of a head", lambda: test_head_shape(server)),
            ("well-formed requests still served", lambda: test_still_served(server)),
        ])
