#!/usr/bin/python3
"""Editing one row on a real list-server (API.md section 2, "Editing one row"): row versions in
`GET /lists/{id}/rows/{row}` and on the page's rows, row preconditions (412 with `current`), merge
patch, move by key, a `view=json` and a `view=html` subscriber seeing them, and the versions kept
across a restart on the same SQLite file.

    /usr/bin/python3 Tests/integration/test_row_editing.py
"""

import json
import sys

from livetest import Checks, EventStream, LiveDoc, Server, etag_version

checks = Checks("test_row_editing")
MERGE = "application/merge-patch+json"
DOCUMENT = {
    "title": "Groceries",
    "columns": [{"key": "name"}, {"key": "qty", "kind": "number"}, {"key": "note"}],
    "sections": [
        {"key": "fruit", "rows": [{"key": "apple", "cells": {"name": "Apple", "qty": 1, "note": "red"}},
                                  {"key": "pear", "cells": {"name": "Pear", "qty": 2}}]},
        {"key": "veg", "rows": [{"key": "leek", "cells": {"name": "Leek", "qty": 3}}]},
    ],
}


def row_keys(doc):
    return [[row["key"] for row in section["rows"]] for section in doc["sections"]]


def run(server):
    checks.equal("PUT the list", server.put_list("g", DOCUMENT), 1)
    json_stream = EventStream(server, "/lists/g/events?view=json")
    html_stream = EventStream(server, "/lists/g/events?view=html")
    json_doc, html_doc = LiveDoc(json_stream), LiveDoc(html_stream)
    checks.check("both subscribers get the list", json_doc.wait_version(1) and html_doc.wait_version(1))
    checks.check("the live rows carry data-version", 'data-row=\\"leek\\" data-version=\\"1\\"' in json.dumps(html_doc.doc))

    status, headers, body = server.request("GET", "/lists/g/rows/apple")
    checks.equal("GET a row", (status, headers.get("etag")), (200, '"1"'))
    checks.equal("the row in canonical form", json.loads(body),
                 {"key": "apple", "section": "fruit", "cells": {"name": "Apple", "qty": 1, "note": "red"}, "style": "default"})
    checks.equal("If-None-Match: 304", server.request("GET", "/lists/g/rows/apple", headers={"If-None-Match": '"1"'})[0], 304)
    status, headers, body = server.request("GET", "/lists/g/rows/plum")
    checks.equal("an unknown row: 404 problem", (status, headers.get("content-type")), (404, "application/problem+json"))

    # Merge: qty set, note emptied; If-Match names the row's version.
    status, headers, body = server.request("PATCH", "/lists/g/rows/apple", {"cells": {"qty": 5, "note": None}},
                                           headers={"If-Match": '"1"'}, content_type=MERGE)
    checks.equal("merge", (status, etag_version(headers), json.loads(body)), (200, 2, {"id": "g", "version": 2, "rows": 3}))
    checks.equal("the merged row", json.loads(server.request("GET", "/lists/g/rows/apple")[2])["cells"], {"name": "Apple", "qty": 5})
    checks.equal("the merged row's version", etag_version(server.request("GET", "/lists/g/rows/apple")[1]), 2)
    checks.equal("another row keeps its version", etag_version(server.request("GET", "/lists/g/rows/pear")[1]), 1)
    status, _, body = server.request("PATCH", "/lists/g/rows/apple", {"key": "plum"}, content_type=MERGE)
    checks.equal("changing the key: 422", status, 422)

    # A write to pear with If-Match "1" still holds though the list is at 2.
    status, headers, _ = server.request("PUT", "/lists/g/rows/pear", {"cells": {"name": "Pear", "qty": 4}}, headers={"If-Match": '"1"'})
    checks.equal("a row's If-Match ignores writes to other rows", (status, etag_version(headers)), (200, 3))
    # A stale one fails with the row as it is.
    status, headers, body = server.request("PATCH", "/lists/g/rows/pear", {"cells": {"qty": 9}},
                                           headers={"If-Match": '"1"'}, content_type=MERGE)
    problem = json.loads(body)
    checks.equal("a stale row precondition: 412 problem", (status, headers.get("content-type")), (412, "application/problem+json"))
    checks.equal("with the current row", problem.get("current"),
                 {"key": "pear", "section": "fruit", "cells": {"name": "Pear", "qty": 4}, "style": "default"})

    # Move by key.
    # (Before leek: a live window reaches as far as the row it ended with, leek.)
    status, headers, _ = server.request("POST", "/lists/g/rows/apple/move?before=leek", headers={"If-Match": '"2"'})
    checks.equal("move into another section", (status, etag_version(headers)), (200, 4))
    checks.equal("moved", row_keys(server.get_list("g")[1]), [["pear"], ["apple", "leek"]])
    status, headers, _ = server.request("POST", "/lists/g/rows/pear/move?section=veg")
    checks.equal("move to the end of a section", (status, etag_version(headers)), (200, 5))
    checks.equal("moved again", row_keys(server.get_list("g")[1]), [[], ["apple", "leek", "pear"]])
    checks.equal("a moved row takes the write's version", etag_version(server.request("GET", "/lists/g/rows/pear")[1]), 5)
    checks.equal("move: none of before/after/section is 400", server.request("POST", "/lists/g/rows/pear/move")[0], 400)
    checks.equal("move: an unknown anchor is 404", server.request("POST", "/lists/g/rows/pear/move?after=plum")[0], 404)

    # Delete with a stale If-Match, then gone: current is null.
    checks.equal("a stale delete: 412", server.request("DELETE", "/lists/g/rows/leek", headers={"If-Match": '"2"'})[0], 412)
    checks.equal("delete", server.request("DELETE", "/lists/g/rows/leek", headers={"If-Match": '"1"'})[0], 204)
    status, _, body = server.request("PUT", "/lists/g/rows/leek", {"cells": {}}, headers={"If-Match": '"1"'})
    checks.equal("a precondition on a gone row: 412, current null", (status, json.loads(body).get("current", "absent")), (412, None))

    version, document = server.get_list("g")
    checks.check("the json subscriber saw every write", json_doc.wait_version(version))
    checks.equal("its document is the list's", json_doc.doc, document)
    checks.check("the html subscriber saw every write", html_doc.wait_version(version))
    rows = {row["key"]: row["html"] for section in html_doc.doc["sections"] for row in section["rows"]}
    checks.equal("the live rows' data-version", sorted((key, html.split('data-version="')[1].split('"')[0]) for key, html in rows.items()),
                 [("apple", "4")])
    checks.equal("no stream errors", json_doc.errors + html_doc.errors, [])
    page = server.request("GET", "/lists/g", headers={"Accept": "text/html"})[2].decode()
    checks.check("the page's rows carry data-version", '<tr data-row="apple" data-version="4">' in page
                 and '<tr data-row="pear" data-version="5">' in page)
    json_stream.close()
    html_stream.close()


server = Server(db="temp")
try:
    run(server)
    # The versions are stored: the same after a restart on the same file.
    server.stop()
    server.start()
    checks.equal("after a restart: apple's version", etag_version(server.request("GET", "/lists/g/rows/apple")[1]), 4)
    checks.equal("after a restart: pear's version", etag_version(server.request("GET", "/lists/g/rows/pear")[1]), 5)
finally:
    server.stop()
sys.exit(checks.summary())
