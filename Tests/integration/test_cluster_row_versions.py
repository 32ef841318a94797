"""Row versions on two instances of one real PostgreSQL (API.md section 2, "Editing one row";
docs/STORE.md "Row versions"): random row writes (PUT, merge, move, insert, delete) sent to
either instance agree with a reference of the rules, on both instances (the other one catches up
from the change log after LISTEN/NOTIFY, or on a version conflict), and after a restart; a row
precondition sent to the instance that has not heard of the write yet is judged against the
committed row; a `view=html` subscriber on the other instance sees the new `data-version`.
"""
import json
import random

import clusterlib
import livetest
from clusterlib import document, request, subscribe
from testkit import wait_until

checks = livetest.Checks("cluster_row_versions")
MERGE = {"Content-Type": "application/merge-patch+json"}


def version_of(headers):
    return livetest.etag_version(headers)


def row_versions(server, keys):
    versions = {}
    for key in keys:
        status, headers, _ = request(server, "GET", f"/lists/rv/rows/{key}")
        versions[key] = version_of(headers) if status == 200 else status
    return versions


def test_random_row_writes(servers, _postgres):
    rng = random.Random(2417)
    a, b = servers[0], servers[1]
    sections = [{"key": f"s{s}", "rows": [{"key": f"r{s}-{r}", "cells": {"name": f"n{s}{r}"}} for r in range(5)]} for s in range(3)]
    status, _, _ = request(a, "PUT", "/lists/rv", {"title": "T", "columns": [{"key": "name"}, {"key": "note"}], "sections": sections})
    checks.equal("PUT on a", status, 201)
    reference = {row["key"]: 1 for section in sections for row in section["rows"]}
    html_stream, html_doc = subscribe(b, "rv", view="html", query="&limit=500")
    wrong = []
    final = 1
    for step in range(80):
        server = servers[rng.randrange(2)]
        keys = sorted(reference)
        key, other = rng.choice(keys), rng.choice(keys)
        kind = rng.randrange(6) if len(keys) > 4 else 3
        if_match = {"If-Match": f'"{reference[key]}"'}
        changed, removed = [], []
        if kind == 0:
            status, headers, body = request(server, "PUT", f"/lists/rv/rows/{key}", {"cells": {"name": f"p{step}"}}, if_match)
            changed = [key]
        elif kind == 1:
            status, headers, body = request(server, "PATCH", f"/lists/rv/rows/{key}",
                                            json.dumps({"cells": {"note": f"m{step}"}}).encode(), {**MERGE, **if_match})
            changed = [key]
        elif kind == 2:
            query = "section=s%d" % rng.randrange(3) if key == other else rng.choice(["before", "after"]) + "=" + other
            status, headers, body = request(server, "POST", f"/lists/rv/rows/{key}/move?{query}", None, if_match)
            changed = [key]
        elif kind == 3:
            new = f"new{step}"
            status, headers, body = request(server, "POST", "/lists/rv/sections/s%d/rows" % rng.randrange(3),
                                            [{"key": new, "cells": {"name": new}}])
            changed = [new]
        elif kind == 4:
            status, headers, body = request(server, "DELETE", f"/lists/rv/rows/{key}", None, if_match)
            removed = [key]
        else:
            # A stale row precondition, on either instance: 412 with the committed row.
            status, headers, body = request(server, "PUT", f"/lists/rv/rows/{key}", {"cells": {"name": "stale"}},
                                            {"If-Match": f'"{reference[key] + 1000}"'})
            _, _, current = request(server, "GET", f"/lists/rv/rows/{key}")
            if status != 412 or json.loads(body).get("current") != json.loads(current):
                wrong.append(f"step {step}: stale If-Match answered {status} {body[:200]!r}")
            continue
        if status not in (200, 204):
            wrong.append(f"step {step} kind {kind}: {status} {body[:200]!r}")
            continue
        version = version_of(headers)
        final = max(final, version)
        for row in removed:
            reference.pop(row)
        for row in changed:
            reference[row] = version
    checks.equal("every write answered as expected", wrong, [])
    # The last write may have gone to either: both catch up with it.
    checks.check("both hold the last version", wait_until(lambda: document(a, "rv")[0] == final == document(b, "rv")[0], timeout=20))
    for name, server in (("a", a), ("b", b)):
        checks.equal(f"every row's version on {name}", row_versions(server, sorted(reference)), reference)
    checks.check("b's view=html subscriber reached the last version", html_doc.wait_version(final))
    shown = {row["key"]: int(row["html"].split('data-version="')[1].split('"')[0])
             for section in html_doc.doc["sections"] for row in section["rows"]}
    # The window reaches as far as the row it ended with when it opened: rows added past it are not shown.
    checks.check("it shows rows", len(shown) >= 5, shown)
    checks.equal("its rows carry the versions", shown, {key: reference.get(key) for key in shown})
    checks.equal("no stream errors", html_doc.errors, [])
    html_stream.close()
    # A restarted instance loads the versions from the rows' column.
    b.stop()
    b.start()
    checks.equal("every row's version after b restarted", row_versions(b, sorted(reference)), reference)


def main():
    clusterlib.run_on_cluster(checks, [("random row writes on two instances", test_random_row_writes)], count=2)


if __name__ == "__main__":
    main()
