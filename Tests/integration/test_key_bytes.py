#!/usr/bin/python3
"""Keys compare by their bytes everywhere (API.md section 1, "Keys"), on a real list-server:
row, section and column keys that only look alike (NFC and NFD `é`, KELVIN SIGN and `K`,
fullwidth `Ａ`, the ligature `ﬁ`, a trailing ZERO WIDTH JOINER) are different keys. A document
holding them is accepted; each row's URL reads, replaces, merges, moves and deletes exactly that
row; a body key must have the URL's bytes (422 both ways); a `test` of a look-alike value fails;
sorted and filtered views and their cursors keep the rows apart; a live `view=json` subscriber's
patches address the right rows; SQLite and PostgreSQL give every row back after a restart, and a
second instance on the same PostgreSQL replays the writes to the right rows.

    /usr/bin/python3 Tests/integration/test_key_bytes.py
"""

import json
import sys
import urllib.parse

import clusterlib
from livetest import Checks, EventStream, LiveDoc, Server
from testkit import wait_until

checks = Checks("test_key_bytes")
MERGE = "application/merge-patch+json"
NFC, NFD, KELVIN = "\u00e9", "e\u0301", "\u212a"
LOOK_ALIKES = [NFC, NFD, "K", "\u212a", "A", "\uff21", "fi", "\ufb01", "a", "a\u200d"]
DOCUMENT = {
    "title": "Look-alikes",
    "columns": [{"key": "name"}, {"key": NFC}, {"key": NFD}],
    "sections": [
        {"key": NFC, "rows": [{"key": key, "cells": {"name": key}} for key in LOOK_ALIKES[:5]]},
        {"key": NFD, "rows": [{"key": key, "cells": {"name": key}} for key in LOOK_ALIKES[5:]]},
    ],
}


def url_key(key):
    return urllib.parse.quote(key, safe="")


def row_keys(doc):
    return [[row["key"] for row in section["rows"]] for section in doc["sections"]]


def get_row(server, key, list_id="k"):
    status, _, body = server.request("GET", f"/lists/{list_id}/rows/{url_key(key)}")
    return json.loads(body) if status == 200 else status


def edit_rows(server):
    checks.equal("a document with look-alike row, section and column keys is accepted", server.put_list("k", DOCUMENT), 1)
    _, document = server.get_list("k")
    checks.equal("every look-alike is its own row", row_keys(document), [LOOK_ALIKES[:5], LOOK_ALIKES[5:]])
    checks.equal("and the columns are two", [column["key"] for column in document["columns"]], ["name", NFC, NFD])
    checks.equal("each URL reads its own row", [get_row(server, key)["cells"]["name"] for key in LOOK_ALIKES], LOOK_ALIKES)

    stream = EventStream(server, "/lists/k/events?view=json")
    live = LiveDoc(stream)
    checks.check("a live subscriber gets the list", live.wait_version(1))

    status, _, _ = server.request("PUT", f"/lists/k/rows/{url_key(NFC)}", {"cells": {"name": "put", NFD: "x"}})
    checks.equal("PUT by the NFC URL", status, 200)
    status, _, _ = server.request("PATCH", f"/lists/k/rows/{url_key(NFD)}", {"cells": {NFC: "y"}}, content_type=MERGE)
    checks.equal("merge by the NFD URL", status, 200)
    checks.equal("the PUT reached the NFC row only", get_row(server, NFC)["cells"], {"name": "put", NFD: "x"})
    checks.equal("the merge reached the NFD row only", get_row(server, NFD)["cells"], {"name": NFD, NFC: "y"})
    for url, other in [(NFC, NFD), (NFD, NFC), ("K", "\u212a"), ("\u212a", "K")]:
        status, headers, body = server.request("PUT", f"/lists/k/rows/{url_key(url)}", {"key": other})
        checks.equal(f"PUT {url!a} with body key {other!a}: 422 problem", (status, headers.get("content-type")),
                     (422, "application/problem+json"))
        status, _, _ = server.request("PATCH", f"/lists/k/rows/{url_key(url)}", {"key": other}, content_type=MERGE)
        checks.equal(f"merge {url!a} with body key {other!a}: 422", status, 422)
    status, _, _ = server.request("POST", f"/lists/k/rows/{url_key(NFD)}/move?after={url_key('a')}")
    checks.equal("move the NFD row after 'a'", status, 200)
    status, _, _ = server.request("DELETE", f"/lists/k/rows/{url_key(NFC)}")
    checks.equal("delete the NFC row", status, 204)
    status, _, _ = server.request("DELETE", f"/lists/k/rows/{url_key(KELVIN)}")
    checks.equal("delete the KELVIN SIGN row", status, 204)
    expected = [["K", "A"], ["\uff21", "fi", "\ufb01", "a", NFD, "a\u200d"]]
    version, document = server.get_list("k")
    checks.equal("each edit reached its row only", row_keys(document), expected)
    checks.equal("the NFC row is gone, the NFD row is not", (get_row(server, NFC), get_row(server, NFD)["section"]), (404, NFD))

    patch = [{"op": "test", "path": "/sections/0/key", "value": NFD}, {"op": "replace", "path": "/title", "value": "no"}]
    status, _, _ = server.request("PATCH", "/lists/k", patch, content_type="application/json-patch+json")
    checks.equal("a test of the NFD form of an NFC key fails: 409", status, 409)
    patch[0]["value"] = NFC
    patch[1]["value"] = NFD
    status, _, _ = server.request("PATCH", "/lists/k", patch, content_type="application/json-patch+json")
    checks.equal("a test of its own bytes passes", status, 200)

    version, document = server.get_list("k")
    checks.check("the live subscriber followed every write", live.wait_version(version))
    checks.equal("its patches addressed the right rows: its document is the list's", live.doc, document)
    checks.equal("no stream errors", live.errors, [])
    stream.close()
    return document


def walk_rows(server, query):
    """Every row key of a view, one page of one row at a time."""
    keys, after = [], ""
    for _ in range(len(LOOK_ALIKES) + 2):
        status, _, body = server.request("GET", f"/lists/k/rows?limit=1{query}{after}", headers={"Accept": "application/json"})
        if status != 200:
            return status
        page = json.loads(body)
        keys += [row["key"] for section in page["sections"] for row in section["rows"]]
        if not page["next"]:
            return keys
        after = "&after=" + page["next"]
    return keys


def views(server):
    server.put_list("k", DOCUMENT)
    for query in ["", "&sort=name", "&sort_desc=name"]:
        keys = walk_rows(server, query)
        checks.equal(f"pages of one row{query or ' (list order)'}: every look-alike once", sorted(keys), sorted(LOOK_ALIKES))

    def filtered(value):
        query = "&filter.name=" + urllib.parse.quote("eq:" + value, safe="")
        return walk_rows(server, query)

    checks.equal("eq with the NFC text: the NFC row only", filtered(NFC), [NFC])
    checks.equal("eq with the NFD text: the NFD row only", filtered(NFD), [NFD])
    checks.equal("eq:k matches K and KELVIN SIGN (case folding, as documented)", sorted(filtered("k")), ["K", "\u212a"])
    checks.equal("eq:a matches A by case folding, not a trailing ZWJ", sorted(filtered("a")), ["A", "a"])
    for value, expected in [(NFC, NFC), (NFD, NFD)]:
        status, _, body = server.request("GET", "/lists/k?q=" + url_key(value), headers={"Accept": "application/json"})
        checks.equal(f"q={value!a} finds only its form", [row["key"] for section in json.loads(body)["sections"]
                                                         for row in section["rows"]], [expected])


def restarts(server, label):
    server.put_list("k", DOCUMENT)
    server.request("PUT", f"/lists/k/rows/{url_key(NFD)}", {"cells": {"name": "nfd"}})
    server.request("DELETE", f"/lists/k/rows/{url_key('K')}")
    before = server.get_list("k")
    server.stop()
    server.start()
    checks.equal(f"{label}: the list after a restart", server.get_list("k"), before)
    checks.equal(f"{label}: each row by its URL after a restart",
                 [(key, get_row(server, key) if key == "K" else get_row(server, key)["cells"]["name"]) for key in LOOK_ALIKES],
                 [(key, 404 if key == "K" else "nfd" if key == NFD else key) for key in LOOK_ALIKES])


def two_instances(a, b):
    """Row writes on `a` reach `b` through the change log, which names rows by their keys."""
    a.put_list("k2", DOCUMENT)
    b_stream = EventStream(b, "/lists/k2/events?view=json")
    b_live = LiveDoc(b_stream)
    a.request("PUT", f"/lists/k2/rows/{url_key(NFD)}", {"cells": {"name": "via a"}})
    a.request("POST", f"/lists/k2/rows/{url_key(NFC)}/move?after={url_key('a')}")
    a.request("DELETE", f"/lists/k2/rows/{url_key(KELVIN)}")
    version, document = a.get_list("k2")
    checks.check("b catches up with a", wait_until(lambda: b.get_list("k2")[0] == version))
    checks.equal("b's list is a's", b.get_list("k2"), (version, document))
    checks.check("b's live subscriber follows", b_live.wait_version(version))
    checks.equal("b's live document is the list", b_live.doc, document)
    checks.equal("the NFD row as written on a, read on b", get_row(b, NFD, "k2")["cells"], {"name": "via a"})
    checks.equal("the NFC row moved after 'a', on b", (get_row(b, NFC, "k2")["section"], row_keys(document)[1][3:5]), (NFD, ["a", NFC]))
    b_stream.close()


server = Server(db="temp")
try:
    checks.run("row edits by look-alike keys", edit_rows, server)
    checks.run("views and cursors over look-alikes", views, server)
    checks.run("SQLite keeps every look-alike", restarts, server, "SQLite")
finally:
    server.stop()

postgres = clusterlib.Postgres()
try:
    server, other = Server(db=postgres.url), Server(db=postgres.url)
    try:
        checks.run("PostgreSQL keeps every look-alike", restarts, server, "PostgreSQL")
        checks.run("a second instance replays look-alike row writes", two_instances, server, other)
    finally:
        server.stop()
        other.stop()
finally:
    postgres.destroy()
sys.exit(checks.summary())
