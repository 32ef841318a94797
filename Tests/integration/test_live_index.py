#!/usr/bin/python3
"""The live index, `GET /events` (API.md section 5, "The live index"), against a real
list-server: its `reset` is the page `GET /lists` answers; lists created, renamed, written and
deleted over HTTP arrive as `list` and `deleted` events; a paged stream reports where its page
ends; a reader with a token sees only the lists it may read (and gets 401 without one under
`--private`); the streams count against `--max-subscribers`; and on two instances sharing one
PostgreSQL, a stream on one hears of the other's creations, renames and deletions.

    /usr/bin/python3 Tests/integration/test_live_index.py
"""

import json
import os
import tempfile

import clusterlib
from livetest import Checks, EventStream, Server

checks = Checks("test_live_index")
TMP = tempfile.mkdtemp(prefix="list-index-")


def doc(title, rows=1):
    return {"title": title, "sections": [{"key": "s", "rows": [{"key": f"r{i}"} for i in range(rows)]}]}


def put(server, list_id, title, rows=1, headers=None):
    status, _, body = server.request("PUT", f"/lists/{list_id}", json.dumps(doc(title, rows)).encode(),
                                     headers=headers, content_type="application/json")
    assert status in (200, 201), (status, body)


def index_json(server, query="", headers=None):
    status, _, body = server.request("GET", f"/lists{query}", headers={"Accept": "application/json", **(headers or {})})
    assert status == 200, (status, body)
    return json.loads(body)


def next_event(stream, name):
    event = stream.next(20)
    checks.equal(f"the next event is {name}", event.name, name)
    return event.data


def test_events():
    with Server() as server:
        put(server, "beta", "Beta", rows=2)
        put(server, "delta", "Delta")
        stream = EventStream(server, "/events")
        checks.equal("the stream answers 200 text/event-stream", (stream.status, stream.headers.get("content-type")),
                     (200, "text/event-stream"))
        reset = next_event(stream, "reset")
        checks.equal("its reset is the page GET /lists answers", reset, index_json(server))
        put(server, "alpha", "Alpha", rows=3)
        checks.equal("a created list arrives as a list event", next_event(stream, "list"),
                     {"id": "alpha", "title": "Alpha", "rows": 3, "version": 1})
        status, _, _ = server.request("PATCH", "/lists/beta", json.dumps([{"op": "replace", "path": "/title", "value": "Bêta <b>"}]).encode(),
                                      content_type="application/json-patch+json")
        checks.equal("the title PATCH is accepted", status, 200)
        checks.equal("a renamed list arrives with its new title and version", next_event(stream, "list"),
                     {"id": "beta", "title": "Bêta <b>", "rows": 2, "version": 2})
        status, _, _ = server.request("DELETE", "/lists/delta")
        checks.equal("the DELETE is accepted", status, 204)
        checks.equal("a deleted list arrives as deleted, with the version it was deleted at",
                     next_event(stream, "deleted"), {"id": "delta", "version": 2})
        put(server, "delta", "Delta again")
        checks.equal("a list created again continues from its deletion's version", next_event(stream, "list"),
                     {"id": "delta", "title": "Delta again", "rows": 1, "version": 3})
        again = EventStream(server, "/events")
        checks.equal("a new stream's reset shows every change", next_event(again, "reset"), index_json(server))
        again.close()
        stream.close()


def test_paged():
    with Server() as server:
        for list_id in ("a", "b", "c"):
            put(server, list_id, list_id.upper())
        stream = EventStream(server, "/events?limit=1&after=a")
        reset = next_event(stream, "reset")
        checks.equal("a paged stream's reset is that page, with next", reset, index_json(server, "?limit=1&after=a"))
        checks.equal("next is the page's last id", reset["next"], "b")
        stream.close()
        status, _, page = server.request("GET", "/?after=a&limit=1", headers={"Accept": "text/html"})
        checks.check("the paged index page names the same page's stream",
                     status == 200 and b'data-live="/events?after=a&amp;limit=1"' in page, page[:400])
        status, _, body = server.request("GET", "/events?limit=0")
        checks.check("a limit out of range is 400 problem+json", status == 400 and b'"status":400' in body, body[:200])
        status, _, body = server.request("GET", "/events?after=..")
        checks.check("an after that is no list id is 400", status == 400, body[:200])


def test_access():
    master, reader = "master-" + os.urandom(8).hex(), "reader-" + os.urandom(8).hex()
    tokens = os.path.join(TMP, "tokens")
    with open(tokens, "w") as file:
        file.write(f"{reader} read:alpha*\n")
    with Server("--private", "--token", master, "--tokens", tokens) as server:
        as_master = {"Authorization": f"Bearer {master}"}
        as_reader = {"Authorization": f"Bearer {reader}"}
        put(server, "alpha", "Alpha", headers=as_master)
        put(server, "beta", "Secret beta", headers=as_master)
        anonymous = EventStream(server, "/events")
        checks.equal("--private: no token, 401", anonymous.status, 401)
        checks.check("and no list id or title in the answer", b"beta" not in anonymous.body and b"alpha" not in anonymous.body)
        stream = EventStream(server, "/events", headers=as_reader)
        reset = next_event(stream, "reset")
        checks.equal("the reader's reset holds only what it may read", [entry["id"] for entry in reset["lists"]], ["alpha"])
        put(server, "beta", "Secret beta, renamed", headers=as_master)
        server.request("DELETE", "/lists/beta", headers=as_master)
        put(server, "gamma", "Secret gamma", headers=as_master)
        put(server, "alpha2", "Alpha two", headers=as_master)
        # Events keep their order: had beta or gamma leaked, they would come before alpha2.
        event = stream.next(20)
        checks.equal("the next event the reader gets is alpha2's (beta's and gamma's are not sent)",
                     (event.name, event.data.get("id")), ("list", "alpha2"))
        stream.close()


def test_bounded():
    with Server("--max-subscribers", "1") as server:
        put(server, "x", "X")
        first = EventStream(server, "/events")
        next_event(first, "reset")
        second = EventStream(server, "/events")
        checks.equal("past --max-subscribers the index stream is refused with 503", second.status, 503)
        checks.equal("with Retry-After", second.headers.get("retry-after"), "5")
        list_stream = EventStream(server, "/lists/x/events")
        checks.equal("index streams count against the same limit as list streams", list_stream.status, 503)
        first.close()


def test_two_instances():
    postgres = clusterlib.Postgres()
    servers = []
    try:
        servers = clusterlib.instances(postgres.url, 2)
        one, two = servers
        stream = EventStream(two, "/events")
        next_event(stream, "reset")
        put(one, "shared", "Made on one")
        checks.equal("a list created on instance 1 reaches instance 2's index stream", next_event(stream, "list"),
                     {"id": "shared", "title": "Made on one", "rows": 1, "version": 1})
        put(one, "shared", "Renamed on one")
        checks.equal("its rename too", next_event(stream, "list")["title"], "Renamed on one")
        status, _, _ = one.request("DELETE", "/lists/shared")
        checks.equal("the DELETE on instance 1 is accepted", status, 204)
        checks.equal("and its deletion", next_event(stream, "deleted"), {"id": "shared", "version": 3})
        stream.close()
    finally:
        for server in servers:
            server.stop()
        postgres.destroy()


if __name__ == "__main__":
    checks.main([
        ("list, rename and delete events, and the reset", test_events),
        ("a paged index stream", test_paged),
        ("access: private servers and token rules", test_access),
        ("bounded by --max-subscribers", test_bounded),
        ("two instances on one PostgreSQL", test_two_instances),
    ])
