"""Raw HTTP/1.1 over plain sockets, for tests that send what no HTTP client library would:
exact bytes out, and every response parsed back as it arrived (how many status lines, whether
the server closed the connection). Standard library only.
"""

import json
import socket
import time


class RawResponse:
    def __init__(self, status, reason, headers, body):
        self.status = status
        self.reason = reason
        self.headers = headers  # lowercased name -> list of values
        self.body = body

    def header(self, name):
        values = self.headers.get(name.lower())
        return values[-1] if values else None

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def __repr__(self):
        return f"RawResponse({self.status} {self.reason}, {self.headers}, {self.body[:200]!r})"


class RawExchange:
    """What came back on one connection: the parsed responses, whether the server closed it,
    and any bytes that did not parse as a response."""

    def __init__(self, data, closed):
        self.raw = data
        self.closed = closed
        self.responses = []
        self.leftover = b""
        rest = data
        while rest:
            parsed = parse_response(rest)
            if parsed is None:
                self.leftover = rest
                break
            response, rest = parsed
            self.responses.append(response)

    @property
    def first(self):
        return self.responses[0] if self.responses else None

    def describe(self):
        return f"closed={self.closed} responses={self.responses} leftover={self.leftover[:200]!r}"


def parse_response(data):
    """(RawResponse, rest) for the response at the start of `data`, or None if it is incomplete
    or not a response."""
    end = data.find(b"\r\n\r\n")
    if end < 0 or not data.startswith(b"HTTP/"):
        return None
    lines = data[:end].split(b"\r\n")
    parts = lines[0].split(b" ", 2)
    try:
        status = int(parts[1])
    except (IndexError, ValueError):
        return None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers.setdefault(name.strip().lower().decode("latin-1"), []).append(value.strip().decode("latin-1"))
    rest = data[end + 4:]
    body = b""
    if "content-length" in headers:
        length = int(headers["content-length"][-1])
        if len(rest) < length:
            return None
        body, rest = rest[:length], rest[length:]
    elif "chunked" in ",".join(headers.get("transfer-encoding", [])).lower():
        body = b""
        while True:
            line_end = rest.find(b"\r\n")
            if line_end < 0:
                return None
            size = int(rest[:line_end].split(b";")[0], 16)
            rest = rest[line_end + 2:]
            if size == 0:
                trailer_end = rest.find(b"\r\n")
                if trailer_end < 0:
                    return None
                rest = rest[trailer_end + 2:]
                break
            body += rest[:size]
            rest = rest[size + 2:]
    return RawResponse(status, parts[2].decode("latin-1") if len(parts) > 2 else "", headers, body), rest


def connect(port, timeout=5.0, rcvbuf=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    return sock


def read_until_closed(sock, timeout=5.0):
    """(bytes, closed): everything the server sends until it closes the connection, or until
    `timeout` seconds pass without it closing (closed is then False)."""
    data = b""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return data, False
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return data, False
        except ConnectionResetError:
            return data, True
        if not chunk:
            return data, True
        data += chunk


def exchange(port, pieces, timeout=5.0, pause=0.0):
    """Sends `pieces` (bytes, or a list of bytes sent one after another with `pause` seconds
    between) on a new connection and returns the RawExchange of what came back."""
    if isinstance(pieces, bytes):
        pieces = [pieces]
    sock = connect(port, timeout)
    try:
        for index, piece in enumerate(pieces):
            if index and pause:
                time.sleep(pause)
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
        data, closed = read_until_closed(sock, timeout)
    finally:
        sock.close()
    return RawExchange(data, closed)


def request_bytes(method, target, headers=(), body=b"", version="HTTP/1.1", host="test"):
    """A well-formed request: Host first (unless host is None), then `headers` (name, value)."""
    lines = [f"{method} {target} {version}".encode()]
    if host is not None:
        lines.append(f"Host: {host}".encode())
    for name, value in headers:
        lines.append(name.encode() + b": " + (value if isinstance(value, bytes) else value.encode()))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
