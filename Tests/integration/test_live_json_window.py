#!/usr/bin/python3
"""End-to-end consistency of windowed `view=json` streams (API.md section 5, docs/LIVE.md)
against a real list-server: subscribers with `limit=0`, `limit=5`, `limit=30` and `until=` a page
cursor follow random writes through every write endpoint. Each document, patched with the
independent `jsonpatch`, must hold only its window's rows (a prefix of the list's, with the list's
other members as they are), say `more` and `until` right, equal the `reset` of a fresh subscription
with the same window, and grow through `…/more`. Also resume with `Last-Event-ID`, and the whole
document without `limit`/`until`.

    /usr/bin/python3 Tests/integration/test_live_json_window.py [SEED]
"""

import json
import random
import sys

from livetest import Checks, Generator, Server, Windows, first_difference, main, row_keys, window_query

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 20261124
checks = Checks("test_live_json_window")
LIST = "live-json-window"
WINDOWS = Windows(LIST, "json")
subscribe, fresh_doc, Subscriber, grow = WINDOWS.subscribe, WINDOWS.fresh, WINDOWS.subscriber, WINDOWS.grow


def check_window(subscriber, doc, problems, step):
    """The window holds a prefix of the list's rows, the list's other members as they are, and
    `more` says whether rows remain after it."""
    window = subscriber.live.doc
    keys, all_keys = row_keys(window), row_keys(doc)
    if keys != all_keys[:len(keys)]:
        problems.append(f"step {step}: {subscriber.name} rows {keys[:12]} are not a prefix of {all_keys[:12]}")
    if window.get("more") != (len(keys) < len(all_keys)):
        problems.append(f"step {step}: {subscriber.name} more={window.get('more')} with {len(keys)} of {len(all_keys)} rows")
    members = {key: value for key, value in window.items() if key not in ("sections", "more", "until")}
    expected = {key: value for key, value in doc.items() if key != "sections"}
    if members != expected:
        problems.append(f"step {step}: {subscriber.name} list members differ: {first_difference(members, expected)}")


def test_windows(server):
    rng = random.Random(SEED)
    gen = Generator(rng, prefix="j")
    server.put_list(LIST, gen.document(sections=5, rows=50))
    status, _, body = server.request("GET", f"/lists/{LIST}/rows?limit=7", headers={"Accept": "application/json"})
    cursor = json.loads(body)["next"]
    subscribers = [Subscriber(server, "limit=0", "limit=0"), Subscriber(server, "limit=5", "limit=5"),
                   Subscriber(server, "limit=30", "limit=30"), Subscriber(server, "until=page 7", f"until={cursor}"),
                   Subscriber(server, "growing", "limit=10")]
    whole = subscribe(server, "")
    whole.wait_until(lambda doc: True)
    _, doc = server.get_list(LIST)
    checks.equal("the windows hold 0, 5, 30, 7 and 10 rows", [len(row_keys(s.live.doc)) for s in subscribers],
                 [0, 5, 30, 7, 10])
    checks.equal("until=<next of the first 7-row page> holds exactly those rows", row_keys(subscribers[3].live.doc),
                 row_keys(doc)[:7])
    checks.equal("its until is that cursor", subscribers[3].live.doc.get("until"), cursor)
    checks.equal("limit=0: more rows to load, until null", (subscribers[0].live.doc["more"], subscribers[0].live.doc["until"]),
                 (True, None))
    checks.equal("without limit or until, view=json is the whole document", whole.doc, doc)

    lag, windows, fresh, answers, grown = [], [], [], [], []
    for step in range(200):
        write = gen.write(doc, LIST)
        status, _ = write.send(server)
        if (200 <= status < 300) != write.expected_valid:
            answers.append(f"step {step}: {status} {write.answer[:160]!r} for {write!r}")
        version, doc = server.get_list(LIST)
        for subscriber in subscribers:
            if not subscriber.live.wait_version(version, timeout=10):
                lag.append(f"step {step}: {subscriber.name} stuck at {subscriber.live.version} of {version}")
                continue
            check_window(subscriber, doc, windows, step)
        if step % 40 == 39:
            grow(server, subscribers[-1], 3, grown, step)
        if step % 20 == 19:
            for subscriber in subscribers:
                other = fresh_doc(server, subscriber.live.doc)
                if other != subscriber.live.doc:
                    fresh.append(f"step {step}: {subscriber.name} differs from a fresh subscription: "
                                 f"{first_difference(subscriber.live.doc, other)}")
                    subscriber.live.doc = other
    whole.wait_version(version)
    checks.check("every write answered as the contract says", not answers, "\n     ".join(answers[:5]))
    checks.check("every windowed subscriber reached every version", not lag, "\n     ".join(lag[:5]))
    checks.check("every window stays a prefix of the list, with the list's members and the right more", not windows,
                 "\n     ".join(windows[:5]))
    checks.check("every patched window equals a fresh subscription's reset with the same window", not fresh,
                 "\n     ".join(fresh[:5]))
    checks.check("…/more delivered its rows in the stream every time", not grown, "\n     ".join(grown[:5]))
    checks.check("no patch failed to apply, no id went back",
                 not any(s.live.errors for s in subscribers) and not whole.errors,
                 "; ".join(e for s in subscribers for e in s.live.errors[:2]))
    checks.equal("the whole-document subscriber still equals GET", whole.doc, doc)

    # Resume: a client that saw version V reconnects with its window and Last-Event-ID.
    resumer = subscribers[1]
    resumer.live.stream.close()
    seen, base = resumer.live.version, resumer.live.doc
    for _ in range(3):
        write = gen.write(doc, LIST)
        write.send(server)
        version, doc = server.get_list(LIST)
    resumed = subscribe(server, window_query(base), headers={"Last-Event-ID": str(seen)}).resume_from(seen, base)
    resumed.wait_version(version)
    names = [e.name for e in resumed.log]
    checks.check("a resume by Last-Event-ID sends only patches, no reset", "reset" not in names and "patch" in names
                 or version == seen, f"{names}")
    checks.equal("the resumed window equals a fresh subscription with its window", resumed.doc, fresh_doc(server, resumed.doc))
    whole_status, _, whole_body = server.request("POST", f"/lists/{LIST}/subscriptions/{whole.subscription}/more?limit=5")
    checks.equal("a whole-document subscription cannot grow: 409", whole_status, 409)
    for live in [resumed, whole] + [s.live for s in subscribers]:
        live.stream.close()


if __name__ == "__main__":
    with Server() as server:
        main(checks, [("windowed view=json follows random writes; more; resume", lambda: test_windows(server))])
