"""Shared helpers for the live-update and tail-loading integration tests (test_live_*.py,
test_pages_walk.py): an SSE client with a reader thread, its live document, random documents
and writes. The server, checks and waits come from the one harness, Tests/testkit.py.

Standard library only (plus Debian's python3-jsonpatch in the tests themselves).
"""

import copy
import http.client
import json
import os
import queue
import socket
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The one harness (Tests/testkit.py); re-exported here for the tests that import livetest.
from testkit import (PACKAGE_ROOT, Checks, Server, etag_version, first_difference,  # noqa: E402,F401
                     server_binary, short, wait_until)


def quote(key):
    return urllib.parse.quote(key, safe="")


# MARK: - Server-Sent Events


class Event:
    def __init__(self, name, id, data):
        self.name = name
        self.id = id
        self.raw = data
        try:
            self.data = json.loads(data) if data else None
        except ValueError:
            self.data = data

    def __repr__(self):
        return f"Event({self.name}, id={self.id}, {short(self.raw, 160)})"


class StreamClosed(Exception):
    pass


class Presence:
    """One `presence` event: its event (for `id` and the raw data), how many other events came
    before it on the stream, and when it arrived (time.monotonic())."""

    def __init__(self, event, after, at):
        self.event = event
        self.after = after
        self.at = at
        self.viewers = event.data.get("viewers") if isinstance(event.data, dict) else None

    def __repr__(self):
        return f"Presence({self.event.raw}, after {self.after} events)"


class EventStream:
    """An SSE client on a plain socket and http.client: a reader thread parses events into a
    queue. With `rcvbuf` the socket's receive buffer is set before connecting; with
    `start=False` nothing is read until `start()` (a slow subscriber). `presence` events
    (docs/LIVE.md, "Presence") do not enter the queue: they are kept in `presence`, in order."""

    def __init__(self, server, path, headers=None, rcvbuf=None, start=True):
        self.path = path
        self.events = queue.Queue()
        self.presence = []
        self.received = 0  # events other than presence so far
        self.pings = 0
        self.closed = threading.Event()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.settimeout(30)
        sock.connect((server.host, server.port))
        self.sock = sock
        conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
        conn.sock = sock
        request_headers = {"Accept": "text/event-stream"}
        request_headers.update(headers or {})
        conn.request("GET", path, headers=request_headers)
        self.conn = conn
        self.response = conn.getresponse()
        self.status = self.response.status
        self.headers = {name.lower(): value for name, value in self.response.getheaders()}
        if self.status != 200:
            self.body = self.response.read()
            self.closed.set()
            sock.close()
            return
        self.sock.settimeout(None)
        self.thread = threading.Thread(target=self._read, daemon=True)
        if start:
            self.thread.start()

    def start(self):
        self.thread.start()

    def _parse_one(self):
        """Reads lines until one event is complete: the Event, or None at the end of the stream."""
        name, event_id, data = None, None, []
        while True:
            line = self.response.readline()
            if not line:
                return None
            line = line.decode("utf-8").rstrip("\r\n")
            if line == "":
                if data or name:
                    return Event(name or "message", event_id, "\n".join(data))
                name, event_id, data = None, None, []
                continue
            if line.startswith(":"):
                self.pings += 1
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                event_id = int(value) if value.isdigit() else value

    def read_now(self):
        """Reads one event on this thread (only before `start()`), queueing it like the reader
        would (a presence event is kept aside and the next one read)."""
        while True:
            event = self._parse_one()
            if not self._kept_aside(event):
                self.events.put(event)
                return event

    def _kept_aside(self, event):
        """Keeps a presence event in `presence` (True); counts any other."""
        if event is not None and event.name == "presence":
            self.presence.append(Presence(event, self.received, time.monotonic()))
            return True
        self.received += event is not None
        return False

    def viewers(self):
        """The viewer counts of the presence events received so far."""
        return [p.viewers for p in list(self.presence)]

    def _read(self):
        try:
            while True:
                event = self._parse_one()
                if event is None:
                    break
                if not self._kept_aside(event):
                    self.events.put(event)
        except (OSError, ValueError, http.client.HTTPException):
            pass
        self.closed.set()
        self.events.put(None)

    def next(self, timeout=20):
        """The next event; raises StreamClosed at the end of the stream, TimeoutError if none."""
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no event within {timeout} s on {self.path}")
        if event is None:
            self.events.put(None)
            raise StreamClosed(self.path)
        return event

    def pending(self):
        """Every event already received, without waiting."""
        out = []
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return out
            if event is None:
                self.events.put(None)
                return out
            out.append(event)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.closed.wait(5)


class LiveDoc:
    """A subscriber's copy of its document: the `reset` document with every patch applied by
    the independent `jsonpatch`. Records problems (id order, failed patches) in `errors`."""

    def __init__(self, stream, strict_ids=True):
        self.stream = stream
        self.strict_ids = strict_ids
        self.doc = None
        self.version = None
        self.subscription = None
        self.resets = 0
        self.patches = 0
        self.errors = []
        self.deleted = False
        self.log = []
        # With no document (a resume whose base is unknown), count patches without applying them.
        self.blind = False

    def resume_from(self, version, doc=None):
        """Expects a resumed stream: patches after `version` apply to `doc`."""
        self.version = version
        self.doc = doc
        self.blind = doc is None
        return self

    def apply(self, event):
        import jsonpatch

        self.log.append(event)
        if event.name == "subscription":
            self.subscription = event.data["subscription"]
            return
        if event.name == "reset":
            if self.version is not None and event.id is not None and event.id < self.version:
                self.errors.append(f"reset id {event.id} after version {self.version}")
            self.doc = event.data["doc"]
            self.version = event.data["version"]
            if event.id != self.version:
                self.errors.append(f"reset id {event.id} but data version {self.version}")
            self.subscription = event.data.get("subscription", self.subscription)
            self.resets += 1
            return
        if event.name == "patch":
            if self.doc is None:
                if self.blind and isinstance(event.id, int):
                    self.version = event.id if self.version is None else max(self.version, event.id)
                else:
                    self.errors.append(f"patch {event.id} before any reset")
                self.patches += 1
                return
            if not isinstance(event.id, int):
                self.errors.append(f"patch without a numeric id: {event!r}")
            elif self.strict_ids and event.id <= self.version:
                self.errors.append(f"patch id {event.id} does not increase (last {self.version})")
            elif not self.strict_ids and event.id < self.version:
                self.errors.append(f"patch id {event.id} goes back (last {self.version})")
            try:
                self.doc = jsonpatch.apply_patch(self.doc, event.data)
            except Exception as error:  # jsonpatch raises several exception types
                self.errors.append(f"patch {event.id} does not apply: {error}: {short(event.data, 400)}")
            if isinstance(event.id, int):
                self.version = max(self.version, event.id)
            self.patches += 1
            return
        if event.name == "deleted":
            self.deleted = True
            return
        self.errors.append(f"unexpected event {event!r}")

    def pump(self, timeout=0.0):
        """Applies every received event; with a timeout, waits that long for the first."""
        try:
            if timeout:
                self.apply(self.stream.next(timeout))
            for event in self.stream.pending():
                self.apply(event)
        except (TimeoutError, StreamClosed):
            pass

    def wait_version(self, version, timeout=20):
        """Applies events until the document is at `version` (or later); True when reached."""
        return self._apply_until(lambda: self.version is not None and self.version >= version, timeout)

    def wait_until(self, predicate, timeout=20):
        """Applies events until `predicate(doc)` holds; True when it did in time."""
        return self._apply_until(lambda: self.doc is not None and predicate(self.doc), timeout)

    def _apply_until(self, condition, timeout):
        deadline = time.monotonic() + timeout
        while not condition():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                self.apply(self.stream.next(remaining))
            except (TimeoutError, StreamClosed):
                return False
        return True


def window_query(doc):
    """The query naming `doc`'s window: `until=` its cursor, else `limit=0` (no rows)."""
    until = doc.get("until")
    return f"until={until}" if until is not None else "limit=0"


class Windows:
    """Subscriptions to windows of one list in one view (`json` or `html`)."""

    def __init__(self, list_id, view):
        self.list_id = list_id
        self.view = view

    def subscribe(self, server, query, headers=None):
        """A LiveDoc on `/lists/ID/events?view=VIEW&QUERY` (ids not strict: a `more` patch carries
        the current version again)."""
        path = f"/lists/{self.list_id}/events?view={self.view}&{query}"
        return LiveDoc(EventStream(server, path, headers=headers), strict_ids=False)

    def fresh(self, server, doc, timeout=10):
        """The reset document of a new subscription with the same window as `doc`, or None."""
        live = self.subscribe(server, window_query(doc))
        ok = live.wait_until(lambda _: True, timeout=timeout)
        live.stream.close()
        return live.doc if ok else None

    def subscriber(self, server, name, query):
        return WindowSubscriber(self.subscribe(server, query), name, query)

    def grow(self, server, subscriber, limit, problems, step):
        """POST …/more and wait for the rows to arrive in the stream; returns the answer (None
        when not 202). What goes wrong is appended to `problems`, named by `step`."""
        live = subscriber.live
        status, _, body = server.request(
            "POST", f"/lists/{self.list_id}/subscriptions/{live.subscription}/more?limit={limit}")
        if status != 202:
            problems.append(f"step {step}: more for {subscriber.name} answered {status} {body[:200]!r}")
            return None
        answer = json.loads(body)
        if self.view == "html" and "state" in server.get_list(self.list_id)[1]:
            return answer  # the view shows the status, not rows; the window still grew
        if not live.wait_until(lambda doc: len(row_keys(doc)) == answer["rows"] and doc["more"] == answer["more"],
                               timeout=10):
            problems.append(f"step {step}: {subscriber.name} did not get the {answer} rows of more "
                            f"(has {len(row_keys(live.doc))}, more={live.doc['more']})")
        return answer


class WindowSubscriber:
    """A named subscription to a window, waited on until its first document arrived."""

    def __init__(self, live, name, query):
        self.name = name
        self.query = query
        self.live = live
        self.live.wait_until(lambda doc: True, timeout=10)


def first_events(stream, count=2, timeout=20):
    return [stream.next(timeout) for _ in range(count)]


# MARK: - Random documents and writes

COLUMNS = [
    {"key": "name", "title": "Name"},
    {"key": "pop", "title": "Population", "kind": "number"},
    {"key": "wiki", "title": "More", "kind": "link"},
    {"key": "flag", "title": "Flag", "kind": "image"},
    {"key": "a/b~c", "title": "Odd <key>"},
]

WORDS = ["alpha", "beta", "gamma", "delta", "Ærø", "naïve café", "<b>bold</b>", "a & b", "\"quoted\"",
         "tab\there", "line\nbreak", "cr\rcrlf\r\n", "nul\u0000x", "sep\u2028\u2029", "bell\u0007\u007f", "日本語", "emoji 🎉", "x" * 40]


class Generator:
    """Random rows, sections, documents and writes against a known current document."""

    def __init__(self, rng, prefix="r"):
        self.rng = rng
        self.prefix = prefix
        self.counter = 0

    def new_key(self, kind="row"):
        self.counter += 1
        base = f"{self.prefix}{self.counter}" if kind == "row" else f"s{self.prefix}{self.counter}"
        variant = self.rng.random()
        if variant < 0.08:
            return base + " é"
        if variant < 0.12:
            return base + "/x~y"
        if variant < 0.15:
            return base + "?a=1&b=%"
        if variant < 0.18:
            return base + " <\"'>&amp;"
        return base

    def cells(self):
        rng = self.rng
        cells = {}
        if rng.random() < 0.9:
            cells["name"] = rng.choice(WORDS) + f" {rng.randrange(1000)}"
        if rng.random() < 0.6:
            cells["pop"] = rng.choice([rng.randrange(-100, 10_000), round(rng.uniform(0, 100), 2)])
        if rng.random() < 0.3:
            cells["wiki"] = {"text": rng.choice(WORDS), "href": rng.choice(["/w/x", "https://example.org/?q=1&r=2"])}
        if rng.random() < 0.2:
            cells["flag"] = {"src": "/img/f.png", "alt": rng.choice(WORDS)}
        if rng.random() < 0.2:
            cells["a/b~c"] = rng.choice(WORDS)
        return cells

    def row(self, key=None):
        row = {"key": key or self.new_key(), "cells": self.cells()}
        if self.rng.random() < 0.15:
            row["href"] = f"/items/{self.rng.randrange(100)}"
        if self.rng.random() < 0.2:
            row["style"] = self.rng.choice(["highlight", "muted", "default"])
        return row

    def section(self, rows=0, key=None):
        rng = self.rng
        return {
            "key": key or self.new_key("section"),
            "header": rng.choice([None, "Header " + rng.choice(WORDS)]),
            "footer": rng.choice([None, None, "Footer " + rng.choice(WORDS)]),
            "collapsible": rng.random() < 0.2,
            "rows": [self.row() for _ in range(rows)],
        }

    def document(self, sections=4, rows=40, title="Live test"):
        doc = {"title": title, "columns": copy.deepcopy(COLUMNS), "sections": []}
        counts = [0] * sections
        for _ in range(rows):
            counts[self.rng.randrange(sections)] += 1
        doc["sections"] = [self.section(count) for count in counts]
        return doc

    # Writes: each returns a Write; `valid` is what the contract says the server must do.

    def write(self, doc, list_id, target_rows=50):
        """One random write against `doc` (the current canonical document)."""
        rng = self.rng
        kinds = ["put", "patch", "append", "replace_row", "delete_row"]
        weights = [1, 4, 2, 2, 1.5]
        rows = all_rows(doc)
        if len(rows) > target_rows * 1.4:
            weights[4] = 5
        if len(rows) < target_rows * 0.6:
            weights[2] = 5
        kind = rng.choices(kinds, weights)[0]
        invalid = rng.random() < 0.15
        write = getattr(self, "write_" + kind)(doc, list_id, invalid)
        if rng.random() < 0.05:
            write.if_match = "wrong"
        return write

    def write_put(self, doc, list_id, invalid):
        rng = self.rng
        new = copy.deepcopy(doc)
        if rng.random() < 0.05:
            new = self.document(sections=rng.randrange(1, 6), rows=rng.randrange(0, 60),
                                title="Fresh " + rng.choice(WORDS))
        else:
            sections = new["sections"]
            if rng.random() < 0.5:
                rng.shuffle(sections)
            for _ in range(rng.randrange(0, 4)):  # rows moved across sections
                donors = [s for s in sections if s["rows"]]
                if donors:
                    donor = rng.choice(donors)
                    row = donor["rows"].pop(rng.randrange(len(donor["rows"])))
                    target = rng.choice(sections)
                    target["rows"].insert(rng.randrange(len(target["rows"]) + 1), row)
            for section in sections:
                for row in section["rows"]:
                    if rng.random() < 0.1:
                        row["cells"] = self.cells()
                if rng.random() < 0.2:
                    section["header"] = rng.choice([None, "H " + rng.choice(WORDS)])
                if rng.random() < 0.1:
                    section["footer"] = rng.choice([None, "F " + rng.choice(WORDS)])
                if section["rows"] and rng.random() < 0.1:
                    section["rows"].pop(rng.randrange(len(section["rows"])))
                if rng.random() < 0.15:
                    section["rows"].insert(rng.randrange(len(section["rows"]) + 1), self.row())
            if rng.random() < 0.1 and len(sections) < 8:
                sections.insert(rng.randrange(len(sections) + 1), self.section(rng.randrange(0, 4)))
            if rng.random() < 0.07 and len(sections) > 1:
                sections.pop(rng.randrange(len(sections)))
            if rng.random() < 0.1:
                new["title"] = "Live " + rng.choice(WORDS)
            if rng.random() < 0.05:
                new["emptyText"] = rng.choice([None, "Nothing here"])
            if rng.random() < 0.05:
                new["state"] = rng.choice([None, {"kind": "loading"}, {"kind": "error", "message": "Oops <b>"}])
            if rng.random() < 0.05:
                rng.choice(new["columns"])["title"] = "Column " + rng.choice(WORDS)
            if rng.random() < 0.05 and sections:
                section = rng.choice(sections)
                section["collapsible"] = True
                section["collapsed"] = not section.get("collapsed", False)
        if invalid:
            rows = all_rows(new)
            problem = rng.randrange(4)
            if problem == 0 and rows:
                duplicate = copy.deepcopy(rng.choice(rows))
                rng.choice(new["sections"])["rows"].append(duplicate)
            elif problem == 1 and rows:
                rng.choice(rows)["href"] = "javascript:alert(1)"
            elif problem == 2:
                new["colour"] = "red"
            else:
                if rows:
                    rng.choice(rows)["cells"]["nope"] = "x"
                else:
                    new["sections"] = "not an array"
        return Write("PUT", f"/lists/{list_id}", new, "application/json", not invalid, "put")

    def write_patch(self, doc, list_id, invalid):
        import jsonpatch

        rng = self.rng
        scratch = copy.deepcopy(doc)
        ops = []
        for _ in range(rng.randrange(1, 7)):
            op = self.patch_op(scratch)
            if op is None:
                continue
            try:
                scratch = jsonpatch.apply_patch(scratch, op)
            except Exception:
                continue
            ops.extend(op)
        if not ops:
            ops = [{"op": "replace", "path": "/title", "value": "Patched " + rng.choice(WORDS)}]
        if invalid:
            problem = rng.randrange(5)
            sections = scratch["sections"]
            if problem == 0:
                ops.append({"op": "test", "path": "/title", "value": "not the title \u2603"})
            elif problem == 1:
                ops.append({"op": "remove", "path": f"/sections/{len(sections) + 3}"})
            elif problem == 2 and all_rows(scratch):
                i, j = rng.choice(row_positions(scratch))
                ops.append({"op": "copy", "from": f"/sections/{i}/rows/{j}", "path": f"/sections/{i}/rows/-"})
            elif problem == 3 and sections:
                ops.append({"op": "add", "path": "/sections/0/rows/0/cells/nope", "value": "x"}
                           if sections[0]["rows"] else {"op": "add", "path": "/sections/0/bogus", "value": 1})
            else:
                ops.insert(0, {"op": "test", "path": "/sections/0/key", "value": {"not": "a key"}})
        return Write("PATCH", f"/lists/{list_id}", ops, "application/json-patch+json", not invalid, "patch")

    def patch_op(self, doc):
        """One valid edit of `doc` as a list of ops (copy needs a key fix after it)."""
        rng = self.rng
        sections = doc["sections"]
        positions = row_positions(doc)
        choice = rng.randrange(13)
        if choice == 0 or not sections:
            if len(sections) < 8:
                return [{"op": "add", "path": f"/sections/{rng.randrange(len(sections) + 1)}",
                         "value": self.section(rng.randrange(0, 3))}]
            return None
        if choice == 1:
            i = rng.randrange(len(sections))
            return [{"op": "add", "path": f"/sections/{i}/rows/{rng.choice([rng.randrange(len(sections[i]['rows']) + 1), '-'])}",
                     "value": self.row()}]
        if choice == 2 and positions:
            i, j = rng.choice(positions)
            return [{"op": "remove", "path": f"/sections/{i}/rows/{j}"}]
        if choice == 3 and positions:
            i, j = rng.choice(positions)
            row = sections[i]["rows"][j]
            ops = [{"op": "test", "path": f"/sections/{i}/rows/{j}/key", "value": row["key"]}]
            if "name" in row["cells"]:
                ops.append({"op": "replace", "path": f"/sections/{i}/rows/{j}/cells/name", "value": rng.choice(WORDS)})
            else:
                ops.append({"op": "add", "path": f"/sections/{i}/rows/{j}/cells/a~1b~0c", "value": rng.choice(WORDS)})
            return ops
        if choice == 4 and positions:  # move a row, often across sections
            i, j = rng.choice(positions)
            k = rng.randrange(len(sections))
            limit = len(sections[k]["rows"]) + (0 if k == i else 1)
            return [{"op": "move", "from": f"/sections/{i}/rows/{j}", "path": f"/sections/{k}/rows/{rng.randrange(limit)}"}]
        if choice == 5 and len(sections) > 1:
            i, k = rng.sample(range(len(sections)), 2)
            return [{"op": "move", "from": f"/sections/{i}", "path": f"/sections/{k}"}]
        if choice == 6 and positions:  # copy a row, then give the copy a new key
            i, j = rng.choice(positions)
            k = rng.randrange(len(sections))
            l = rng.randrange(len(sections[k]["rows"]) + 1)
            return [{"op": "copy", "from": f"/sections/{i}/rows/{j}", "path": f"/sections/{k}/rows/{l}"},
                    {"op": "replace", "path": f"/sections/{k}/rows/{l}/key", "value": self.new_key()}]
        if choice == 7:
            i = rng.randrange(len(sections))
            return [{"op": "replace", "path": f"/sections/{i}/{rng.choice(['header', 'footer'])}",
                     "value": rng.choice([None, "P " + rng.choice(WORDS)])}]
        if choice == 8 and len(sections) > 1 and rng.random() < 0.5:
            return [{"op": "remove", "path": f"/sections/{rng.randrange(len(sections))}"}]
        if choice == 9 and positions:
            i, j = rng.choice(positions)
            return [{"op": "replace", "path": f"/sections/{i}/rows/{j}", "value": self.row(sections[i]["rows"][j]["key"])}]
        if choice == 11:
            if "state" in doc:
                return [{"op": "remove", "path": "/state"}]
            return [{"op": "add", "path": "/state", "value": rng.choice([{"kind": "loading"},
                                                                         {"kind": "error", "message": "failed & <gone>"}])}]
        if choice == 12:
            column = rng.randrange(len(doc["columns"]))
            return [{"op": "replace", "path": f"/columns/{column}/title", "value": "C " + rng.choice(WORDS)}]
        if choice == 10:
            return [{"op": "test", "path": "/title", "value": doc["title"]},
                    {"op": "replace", "path": "/title", "value": "T " + rng.choice(WORDS)}]
        return None

    def write_append(self, doc, list_id, invalid):
        rng = self.rng
        sections = doc["sections"]
        rows = [self.row() for _ in range(rng.randrange(1, 4))]
        if not sections:
            return Write("POST", f"/lists/{list_id}/sections/none/rows", rows, "application/json", False, "append")
        section = rng.choice(sections)
        query = ""
        anchors = [row["key"] for row in section["rows"]]
        if anchors and rng.random() < 0.6:
            query = f"?{rng.choice(['before', 'after'])}={quote(rng.choice(anchors))}"
        if invalid:
            problem = rng.randrange(4)
            if problem == 0:
                query = "?before=no-such-row"
            elif problem == 1 and all_rows(doc):
                rows.append({"key": rng.choice(all_rows(doc))["key"], "cells": {}})
            elif problem == 2:
                rows[0]["cells"]["pop"] = "not a number"
            else:
                return Write("POST", f"/lists/{list_id}/sections/{quote(section['key'])}no/rows", rows,
                             "application/json", False, "append")
        return Write("POST", f"/lists/{list_id}/sections/{quote(section['key'])}/rows{query}", rows,
                     "application/json", not invalid, "append")

    def write_replace_row(self, doc, list_id, invalid):
        rng = self.rng
        rows = all_rows(doc)
        if not rows:
            return Write("PUT", f"/lists/{list_id}/rows/missing", {"cells": {}}, "application/json", False, "replace_row")
        key = rng.choice(rows)["key"]
        body = self.row(key)
        if rng.random() < 0.5:
            del body["key"]
        if invalid:
            problem = rng.randrange(3)
            if problem == 0:
                key = key + "-missing"
            elif problem == 1:
                body["key"] = key + "-other"
            else:
                body["cells"]["wiki"] = "not a link"
        return Write("PUT", f"/lists/{list_id}/rows/{quote(key)}", body, "application/json", not invalid, "replace_row")

    def write_delete_row(self, doc, list_id, invalid):
        rows = all_rows(doc)
        if invalid or not rows:
            return Write("DELETE", f"/lists/{list_id}/rows/{quote('gone-' + self.new_key())}", None, None, False, "delete_row")
        key = self.rng.choice(rows)["key"]
        return Write("DELETE", f"/lists/{list_id}/rows/{quote(key)}", None, None, True, "delete_row")


class Write:
    def __init__(self, method, path, body, content_type, valid, kind):
        self.method, self.path, self.body, self.content_type = method, path, body, content_type
        self.valid, self.kind = valid, kind
        self.if_match = None

    def send(self, server, version=None):
        """Sends the write: (status, new version or None). With `if_match` set to "wrong", sends
        an `If-Match` that cannot match (the write must fail with 412)."""
        headers = {}
        if self.if_match == "wrong":
            headers["If-Match"] = '"999999999"'
        elif self.if_match == "right" and version is not None:
            headers["If-Match"] = f'"{version}"'
        status, response_headers, body = server.request(
            self.method, self.path, self.body, headers=headers, content_type=self.content_type)
        self.answer = body
        return status, etag_version(response_headers) if 200 <= status < 300 else None

    @property
    def expected_valid(self):
        return self.valid and self.if_match != "wrong"

    def __repr__(self):
        return f"{self.method} {self.path} ({self.kind}, {'valid' if self.valid else 'invalid'}) {short(self.body, 300)}"


def all_rows(doc):
    return [row for section in doc["sections"] for row in section["rows"]]


def row_positions(doc):
    return [(i, j) for i, section in enumerate(doc["sections"]) for j in range(len(section["rows"]))]


def row_keys(doc):
    return [row["key"] for row in all_rows(doc)]


def view_row_keys(view):
    return [row["key"] for section in view["sections"] for row in section["rows"]]


def main(checks, tests):
    """Runs (description, function) pairs and exits with the summary's status."""
    checks.main(tests)
