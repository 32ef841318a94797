"""Three instances on one real PostgreSQL (issue 11, API.md section 8).

A list made on one is served by the others; concurrent writes from several clients on every
instance converge, and every instance's `view=json` stream replayed with python-jsonpatch equals
the final GET on every instance, and its `view=html` window equals a fresh one; the same
If-Match sent to two instances at once lets exactly one win (412 for the other).
"""
import json
import random
import threading

import clusterlib
import livetest
from clusterlib import document, request, subscribe
from testkit import wait_until

checks = livetest.Checks("cluster")
SEED = 1111


def test_made_on_one_served_by_all(servers, _postgres):
    gen = livetest.Generator(random.Random(SEED), prefix="m")
    made = gen.document(sections=3, rows=30)
    status, headers, _ = request(servers[0], "PUT", "/lists/made", made)
    checks.equal("PUT on instance 1 creates the list", status, 201)
    version, canonical = document(servers[0], "made")
    for index, server in enumerate(servers[1:], start=2):
        # At once, without waiting for a notification: an instance looks for a list it does not hold.
        got_version, got = document(server, "made")
        checks.equal(f"instance {index} serves it at once, same version", got_version, version)
        checks.equal(f"instance {index} serves the same document", got, canonical)
        status, _, page = request(server, "GET", "/lists/made")
        checks.check(f"instance {index} serves its HTML page", status == 200 and b'data-list="made"' in page)


def writer(server, name, rng, answers, count):
    """Random writes on one instance: appends of its own rows, replaces and removals of them,
    title patches and cell patches of any row (which may meet a row just removed elsewhere)."""
    mine = []
    for serial in range(count):
        kind = rng.choice(["append", "append", "replace", "remove", "title", "cell"])
        if kind in ("replace", "remove") and not mine:
            kind = "append"
        if kind == "append":
            key = f"{name}-{serial}"
            row = {"key": key, "cells": {"name": f"{name} {serial}", "pop": serial}}
            section = rng.choice(["a", "b", "c"])
            status, headers, body = request(server, "POST", f"/lists/shared/sections/{section}/rows", [row])
            if 200 <= status < 300:
                mine.append(key)
        elif kind == "replace":
            key = rng.choice(mine)
            status, headers, body = request(server, "PUT", f"/lists/shared/rows/{key}",
                                            {"cells": {"name": f"{name} again {serial}", "pop": -serial}})
        elif kind == "remove":
            key = mine.pop(rng.randrange(len(mine)))
            status, headers, body = request(server, "DELETE", f"/lists/shared/rows/{key}")
        elif kind == "title":
            status, headers, body = request(server, "PATCH", "/lists/shared", json.dumps(
                [{"op": "replace", "path": "/title", "value": f"{name} {serial}"}]),
                headers={"Content-Type": "application/json-patch+json"})
        else:
            status, headers, body = request(server, "PATCH", "/lists/shared", json.dumps(
                [{"op": "replace", "path": f"/sections/{rng.randrange(3)}/rows/0/cells/pop", "value": serial}]),
                headers={"Content-Type": "application/json-patch+json"})
        answers.append((kind, status, livetest.etag_version(headers), body[:200]))


def test_concurrent_writes_converge(servers, _postgres):
    sections = [{"key": key, "header": key.upper(), "rows": [{"key": f"{key}0", "cells": {"name": key}}]}
                for key in ("a", "b", "c")]
    base = {"title": "Shared", "columns": [{"key": "name"}, {"key": "pop", "kind": "number"}], "sections": sections}
    request(servers[0], "PUT", "/lists/shared", base)
    subscribers = []
    for index, server in enumerate(servers, start=1):
        for view, query in (("json", ""), ("html", "&limit=4"), ("html", "&limit=100")):
            stream, live = subscribe(server, "shared", view, query)
            subscribers.append((f"instance {index} {view}{query}", server, stream, live))
    answers = []
    threads = [threading.Thread(target=writer, args=(server, f"w{index}{client}", random.Random(SEED + index * 10 + client),
                                                      answers, 40))
               for index, server in enumerate(servers) for client in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accepted = [version for _, status, version, _ in answers if 200 <= status < 300]
    print(f"     {len(answers)} writes, {len(accepted)} accepted; outcomes: "
          f"{sorted({(kind, status) for kind, status, _, _ in answers})}")
    checks.check("no write answered 5xx", all(status < 500 for _, status, _, _ in answers),
                 [a for a in answers if a[1] >= 500][:3])
    checks.check("cell patches only ever refused as 409 (a row moved or gone elsewhere)",
                 all(status in (200, 409) for kind, status, _, _ in answers if kind == "cell"))
    checks.equal("every accepted write got its own version, consecutive from 2", sorted(accepted),
                 list(range(2, 2 + len(accepted))))
    final = 1 + len(accepted)
    reached = wait_until(lambda: all(document(server, "shared")[0] == final for server in servers), timeout=20)
    checks.check("every instance reaches the last version by itself", reached,
                 [document(server, "shared")[0] for server in servers])
    finals = [document(server, "shared")[1] for server in servers]
    checks.check("every instance serves the same final document", all(doc == finals[0] for doc in finals[1:]))
    for name, server, stream, live in subscribers:
        checks.check(f"{name}: the stream reached the last version", live.wait_version(final, timeout=20),
                     f"at {live.version}")
        checks.check(f"{name}: no patch failed, ids increased", not live.errors, live.errors[:3])
        if "json" in name:
            checks.check(f"{name}: replayed with jsonpatch, it equals the final GET on every instance",
                         all(live.doc == doc for doc in finals), livetest.first_difference(live.doc, finals[0]))
        else:
            fresh = [clusterlib.fresh_view(other, "shared", live.doc) for other in servers]
            checks.check(f"{name}: its window equals a fresh one of the same window on every instance",
                         all(live.doc == doc for doc in fresh), livetest.first_difference(live.doc, fresh[0]))
        stream.close()


def test_same_if_match_one_wins(servers, _postgres):
    request(servers[0], "PUT", "/lists/race", {"title": "Race", "columns": [{"key": "name"}], "sections": []})
    outcomes = []
    for round in range(20):
        version, _ = document(servers[round % 3], "race")
        pair = [servers[round % 3], servers[(round + 1) % 3]]
        barrier = threading.Barrier(2)
        statuses = []

        def send(server, label):
            barrier.wait()
            status, _, _ = request(server, "PATCH", "/lists/race", json.dumps(
                [{"op": "replace", "path": "/title", "value": label}]),
                headers={"Content-Type": "application/json-patch+json", "If-Match": f'"{version}"'})
            statuses.append(status)

        threads = [threading.Thread(target=send, args=(server, f"round {round} by {index}"))
                   for index, server in enumerate(pair)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        outcomes.append(sorted(statuses))
    checks.check("20 rounds: the same If-Match on two instances at once, exactly one 200 and one 412",
                 all(outcome == [200, 412] for outcome in outcomes), outcomes)


def main():
    clusterlib.run_on_cluster(checks, [
        ("a list made on one instance is served by the others", test_made_on_one_served_by_all),
        ("concurrent writes on every instance converge", test_concurrent_writes_converge),
        ("the same If-Match on two instances: one wins", test_same_if_match_one_wins),
    ])


if __name__ == "__main__":
    main()
