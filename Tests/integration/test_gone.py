#!/usr/bin/python3
"""410 Gone for a deleted list (issue 26, API.md section 2): every endpoint of a list that
existed and was deleted answers 410 (problem+json for API clients, the HTML error page for a
browser's navigation) until the list is created again, on SQLite and on PostgreSQL, after a
restart too (the store's tombstone), and on an instance that never held the list; an id that
never existed stays 404.

    /usr/bin/python3 Tests/integration/test_gone.py
"""

import json
import os
import tempfile

import clusterlib
from livetest import Checks, Server

checks = Checks("test_gone")
DOC = {"title": "Gone soon", "sections": [{"key": "s", "rows": [{"key": "r", "cells": {}}]}]}
NAVIGATE = {"Accept": "text/html,application/xhtml+xml", "Sec-Fetch-Mode": "navigate"}
JSON = {"Accept": "application/json"}

# (method, path, body, content type) of every endpoint of list "g"
ENDPOINTS = [
    ("GET", "/lists/g", None, None),
    ("GET", "/lists/g?format=csv", None, None),
    ("GET", "/lists/g/rows?limit=1", None, None),
    ("GET", "/lists/g/events", None, None),
    ("POST", "/lists/g/subscriptions/0123456789abcdef0123456789abcdef/more?limit=1", None, None),
    ("PATCH", "/lists/g", [{"op": "replace", "path": "/title", "value": "x"}], "application/json-patch+json"),
    ("DELETE", "/lists/g", None, None),
    ("POST", "/lists/g/sections/s/rows", [{"key": "n"}], "application/json"),
    ("GET", "/lists/g/rows/r", None, None),
    ("PUT", "/lists/g/rows/r", {"cells": {}}, "application/json"),
    ("PATCH", "/lists/g/rows/r", {"cells": {}}, "application/merge-patch+json"),
    ("DELETE", "/lists/g/rows/r", None, None),
    ("POST", "/lists/g/rows/r/move?section=s", None, None),
    ("POST", "/lists/g/links?expires=60", None, None),
]


def every_endpoint_is_gone(server, label):
    wrong = []
    for method, path, body, content_type in ENDPOINTS:
        status, headers, answer = server.request(method, path, body, headers=JSON, content_type=content_type)
        problem = json.loads(answer) if headers.get("content-type") == "application/problem+json" else {}
        if status != 410 or problem.get("detail") != 'List "g" was deleted.':
            wrong.append(f"{method} {path}: {status} {answer[:160]!r}")
    checks.check(f"{label}: every endpoint of the deleted list answers 410 problem+json", not wrong, "\n     ".join(wrong))
    status, headers, page = server.request("GET", "/lists/g", headers=NAVIGATE)
    checks.check(f"{label}: a browser gets the HTML error page, 410",
                 status == 410 and headers.get("content-type", "").startswith("text/html")
                 and b"was deleted" in page and b'href="/"' in page, f"{status} {page[:300]!r}")
    status, _, _ = server.request("GET", "/lists/never", headers=JSON)
    checks.equal(f"{label}: a list that never existed is 404", status, 404)


def made_and_deleted(server):
    status, _, body = server.request("PUT", "/lists/g", DOC)
    assert status == 201, (status, body)
    status, _, body = server.request("DELETE", "/lists/g")
    assert status == 204, (status, body)


def created_again(server, label):
    status, headers, _ = server.request("PUT", "/lists/g", DOC)
    checks.equal(f"{label}: PUT creates it again (201), continuing its versions", (status, headers.get("etag")), (201, '"3"'))
    status, _, _ = server.request("GET", "/lists/g", headers=JSON)
    checks.equal(f"{label}: then it is served again", status, 200)


def test_sqlite():
    db = os.path.join(tempfile.mkdtemp(prefix="list-gone-"), "lists.sqlite")
    with Server(db=db) as server:
        made_and_deleted(server)
        every_endpoint_is_gone(server, "SQLite")
    with Server(db=db) as server:
        every_endpoint_is_gone(server, "SQLite, restarted")
        created_again(server, "SQLite")


def test_postgres():
    postgres = clusterlib.Postgres()
    servers = []
    try:
        one = Server(db=postgres.url)
        servers.append(one)
        made_and_deleted(one)
        every_endpoint_is_gone(one, "PostgreSQL")
        one.stop()
        two = Server(db=postgres.url)
        servers.append(two)
        every_endpoint_is_gone(two, "PostgreSQL, an instance started after the deletion")
        created_again(two, "PostgreSQL")
    finally:
        for server in servers:
            server.stop()
        postgres.destroy()


if __name__ == "__main__":
    checks.main([("SQLite: deleted lists are 410, after a restart too", test_sqlite),
                 ("PostgreSQL: deleted lists are 410 on every instance", test_postgres)])
