"""Live-stream measurement shared by fanout.py and latency.py (Python 3 standard library only).

One process holds every `/events` subscriber on non-blocking sockets in one `selectors` loop,
then sends row replaces on a separate connection and times, for every subscriber, how long its
`event: patch` carrying the new version took to arrive completely.

Two clocks per delivery:
- arrival: the kernel's receive timestamp (SO_TIMESTAMPNS, CLOCK_REALTIME) of the last packet of
  the event, minus the wall time just before the write request was sent. This is when the event
  had fully arrived on the subscriber's socket, whatever the Python client was busy with.
- seen: the monotonic time at which this client read and parsed it; with 10,000 sockets this
  includes the client working through the others, so it is an upper bound.
The write's answer is timed both ways too: `ack` when this client read it (after whatever
subscriber events the same poll returned before it), `ack_arrival` by its kernel receive timestamp.
"""
import selectors
import socket
import struct
import time

import benchlib

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux value; the constant is not exported
CMSG_SPACE = socket.CMSG_SPACE(16)


class ChunkedDecoder:
    """Incremental HTTP/1.1 chunked transfer decoding."""

    def __init__(self):
        self.pending = b""
        self.left = 0
        self.need_crlf = False
        self.ended = False

    def feed(self, data):
        buf = self.pending + data if self.pending else data
        out = []
        i, n = 0, len(buf)
        while i < n and not self.ended:
            if self.left:
                take = min(self.left, n - i)
                out.append(buf[i:i + take])
                i += take
                self.left -= take
                self.need_crlf = self.left == 0
            elif self.need_crlf:
                if n - i < 2:
                    break
                i += 2
                self.need_crlf = False
            else:
                j = buf.find(b"\r\n", i)
                if j < 0:
                    break
                size = int(buf[i:j].split(b";")[0], 16)
                i = j + 2
                if size == 0:
                    self.ended = True
                self.left = size
        self.pending = buf[i:]
        return b"".join(out)


class Subscriber:
    """One `/events` stream: parses the response head, then SSE events (name, id, data)."""

    def __init__(self, port, path):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.setblocking(False)
        self.request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                        "Accept: text/event-stream\r\n\r\n").encode()
        self.sock.connect_ex(("127.0.0.1", port))
        self.head = b""
        self.head_done = False
        self.decoder = None
        self.body = b""
        self.version = None  # from the reset
        self.closed = False

    def send_request(self):
        self.sock.sendall(self.request)  # tiny: fits the empty send buffer of a fresh socket

    def receive(self):
        """Reads what is there: returns (events, kernel arrival ns or None)."""
        try:
            data, ancillary, _, _ = self.sock.recvmsg(262144, CMSG_SPACE)
        except (BlockingIOError, InterruptedError):
            return [], None
        if not data:
            self.closed = True
            return [], None
        arrival = None
        for level, kind, cdata in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                seconds, nanoseconds = struct.unpack("qq", cdata[:16])
                arrival = seconds * 1_000_000_000 + nanoseconds
        return self.feed(data), arrival

    def feed(self, data):
        if not self.head_done:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return []
            head, data = self.head[:end], self.head[end + 4:]
            self.head_done = True
            status = head.split(b"\r\n", 1)[0]
            if b" 200 " not in status + b" ":
                raise RuntimeError(f"subscribe failed: {status!r}")
            if b"transfer-encoding: chunked" in head.lower():
                self.decoder = ChunkedDecoder()
        if self.decoder:
            data = self.decoder.feed(data)
        self.body += data
        events = []
        while True:
            end = self.body.find(b"\n\n")
            if end < 0:
                break
            block, self.body = self.body[:end], self.body[end + 2:]
            name, event_id, payload = None, None, b""
            for line in block.split(b"\n"):
                if line.startswith(b"event: "):
                    name = line[7:]
                elif line.startswith(b"id: "):
                    event_id = int(line[4:])
                elif line.startswith(b"data: "):
                    payload = line[6:]
            if name is not None:
                events.append((name, event_id, payload))
                if name == b"reset":
                    self.version = event_id
        return events


class Writer:
    """Row replaces on one keep-alive connection, sent without blocking the event loop."""

    def __init__(self, port, list_id):
        self.port = port
        self.list_id = list_id
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.buffer = b""
        # The kernel's receive timestamp (ns, CLOCK_REALTIME) of the answer's last piece read.
        self.arrival_ns = None
        self.selector = None  # made by `answer`

    def send_replace(self, row_key, row_number, note):
        body = benchlib.json.dumps(benchlib.make_row(row_key, row_number, note), separators=(",", ":")).encode()
        self.send("PUT", f"/lists/{self.list_id}/rows/{row_key}", body, "application/json")

    def send(self, method, path, body, content_type):
        """Sends one request; read its answer with `receive` (or `answer`)."""
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        self.sock.sendall(head + body)
        self.sock.setblocking(False)

    def answer(self, timeout=30):
        """Waits for the whole answer of the request sent; returns (status, version)."""
        if self.selector is None:  # one for the connection's life, not one per write
            self.selector = selectors.DefaultSelector()
            self.selector.register(self.sock, selectors.EVENT_READ)
        while (answered := self.receive()) is None:
            if not self.selector.select(timeout):
                raise RuntimeError(f"no answer within {timeout} s")
        return answered

    def receive(self):
        """Returns (status, version) once the whole response is in, else None."""
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, CMSG_SPACE)
        except (BlockingIOError, InterruptedError):
            return None
        if not data:
            raise RuntimeError("the server closed the write connection")
        for level, kind, cdata in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                seconds, nanoseconds = struct.unpack("qq", cdata[:16])
                self.arrival_ns = seconds * 1_000_000_000 + nanoseconds
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = self.buffer[:end].decode("latin-1")
        length = 0
        version = None
        for line in head.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "etag":
                version = int(value.strip().removeprefix("W/").strip('"'))
        if len(self.buffer) < end + 4 + length:
            return None
        self.buffer = self.buffer[end + 4 + length:]
        self.sock.setblocking(True)
        return int(head.split()[1]), version


def connect_all(port, path, count, in_flight=200, timeout=600, selector=None):
    """Opens `count` subscribers, at most `in_flight` awaiting their reset at once; returns them
    and the selector they are registered with (for reading): `selector` if given, else a new one."""
    selector = selector or selectors.DefaultSelector()
    ready, opening = [], {}
    started = 0
    deadline = time.monotonic() + timeout
    while len(ready) < count:
        while started < count and len(opening) < in_flight:
            subscriber = Subscriber(port, path)
            opening[subscriber.sock.fileno()] = subscriber
            selector.register(subscriber.sock, selectors.EVENT_WRITE, subscriber)
            started += 1
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {len(ready)} of {count} subscribers got their reset")
        for key, mask in selector.select(timeout=1):
            subscriber = key.data
            if mask & selectors.EVENT_WRITE:
                error = subscriber.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    raise RuntimeError(f"connect failed: {error}")
                subscriber.send_request()
                selector.modify(subscriber.sock, selectors.EVENT_READ, subscriber)
                continue
            subscriber.receive()
            if subscriber.closed:
                raise RuntimeError("a subscriber was closed before its reset")
            if subscriber.version is not None and subscriber.sock.fileno() in opening:
                del opening[subscriber.sock.fileno()]
                ready.append(subscriber)
    return ready, selector


def measure_write(selector, subscribers, writer, row_key, row_number, timeout=30):
    """One row replace; returns a dict with per-subscriber arrival and seen latencies (seconds)."""
    expected = max(s.version for s in subscribers) + 1
    note = f"write {expected}"
    marker = note.encode()
    pending = {s.sock.fileno(): s for s in subscribers}
    arrival, seen = [], []
    ack = None
    ack_arrival = None
    wrong = 0
    selector.register(writer.sock, selectors.EVENT_READ, writer)
    wall0 = time.time_ns()
    t0 = time.perf_counter()
    writer.send_replace(row_key, row_number, note)
    deadline = t0 + timeout
    while (pending or ack is None) and time.perf_counter() < deadline:
        for key, _ in selector.select(timeout=0.5):
            source = key.data
            if source is writer:
                answer = writer.receive()
                if answer:
                    ack = (time.perf_counter() - t0, answer)
                    ack_arrival = (writer.arrival_ns - wall0) / 1e9 if writer.arrival_ns else ack[0]
                continue
            events, kernel_ns = source.receive()
            now = time.perf_counter()
            for name, event_id, payload in events:
                if name == b"patch" and event_id is not None and event_id >= expected:
                    if source.sock.fileno() in pending:
                        del pending[source.sock.fileno()]
                        if marker not in payload:
                            wrong += 1
                        seen.append(now - t0)
                        arrival.append(((kernel_ns - wall0) / 1e9) if kernel_ns else now - t0)
                        source.version = event_id
    selector.unregister(writer.sock)
    if ack is None:
        raise RuntimeError("the write got no answer")
    status, version = ack[1]
    if status != 200 or version != expected:
        raise RuntimeError(f"write answered {status} version {version}, expected 200 version {expected}")
    return {"version": expected, "delivered": len(arrival), "missing": len(pending), "wrong": wrong,
            "arrival": arrival, "seen": seen, "ack": ack[0],
            "ack_arrival": ack_arrival}


def summary(result, total):
    a, s = result["arrival"], result["seen"]
    p = benchlib.percentile
    return (f"delivered {result['delivered']}/{total}"
            + (f" ({result['wrong']} without the new content)" if result["wrong"] else "")
            + f"; arrival first {benchlib.ms(min(a) if a else 0)} p50 {benchlib.ms(p(a, .5))} p99 {benchlib.ms(p(a, .99))} max {benchlib.ms(max(a) if a else 0)}"
            + f"; seen p50 {benchlib.ms(p(s, .5))} p99 {benchlib.ms(p(s, .99))} max {benchlib.ms(max(s) if s else 0)}"
            + f"; write answered after {benchlib.ms(result['ack'])} (arrived {benchlib.ms(result['ack_arrival'])})")


def close_all(subscribers, selector):
    for subscriber in subscribers:
        try:
            selector.unregister(subscriber.sock)
        except (KeyError, ValueError):
            pass
        subscriber.sock.close()
    selector.close()
