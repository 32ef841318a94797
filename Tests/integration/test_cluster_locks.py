"""Writes wait for their list a bounded time, whatever PostgreSQL's locks do (issue 25 point 2).

Two instances with `--write-timeout 2` on a private PostgreSQL; locks are taken from `psql`
sessions kept open, as an operator (or a careless script) would:

- the list's advisory lock (the one every writer of the list takes): six writes sent 0.2 s
  apart, alternately to each instance, each answer 503 with `Retry-After` within about 2 s (not one after another, 30 s each),
  the detail naming the list and the lock; writes to other lists meanwhile (more of them than
  the pool has connections) answer 200 at once; once the session ends, writes succeed;
- `LOCK TABLE changes IN ACCESS EXCLUSIVE MODE` in an open transaction: writes to any list
  answer 503 within the bound (not after the lock is let go), and succeed once it is.

Before the change, the queued writes took 30 s, 60 s, ... each (statement_timeout adding up) and
a table lock held every write as long as it was held.
"""
import json
import subprocess
import threading
import time

import clusterlib
import livetest
from clusterlib import request
from testkit import wait_until

checks = livetest.Checks("cluster locks")
TIMEOUT = 2.0
# Above the timeout: the answer's trip and a loaded 2-core machine.
MARGIN = 1.5
LIST = {"title": "Locked", "columns": [{"key": "name"}], "sections": [{"key": "s", "rows": []}]}
ADVISORY_KEY = 1818850164


class PsqlSession:
    """A `psql` process whose session stays open until `end()` (stdin closed: psql exits, and
    PostgreSQL ends the session, letting go of its locks)."""

    def __init__(self, url, *statements):
        self.process = subprocess.Popen(
            ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for statement in statements:
            self.process.stdin.write(statement + "\n")
        self.process.stdin.flush()

    def end(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def query(url, sql):
    """One value from a short psql session."""
    result = subprocess.run(["psql", "-X", "-A", "-t", "-c", sql, url], capture_output=True, text=True, timeout=20)
    if result.returncode != 0:
        raise RuntimeError(f"psql: {result.stderr.strip()}")
    return result.stdout.strip()


def append(server, list_id, key, timeout=15):
    """POSTs one row; (status, headers, body, seconds taken); status None when no answer came
    within `timeout`."""
    started = time.monotonic()
    try:
        status, headers, body = request(server, "POST", f"/lists/{list_id}/sections/s/rows",
                                        [{"key": key, "cells": {"name": key}}], timeout=timeout)
    except OSError as error:
        return None, {}, str(error).encode(), time.monotonic() - started
    return status, headers, body, time.monotonic() - started


def send_spaced(servers, list_id, count, spacing, prefix):
    """`count` writes, each on its own thread, sent `spacing` seconds apart to each of `servers`
    in turn; returns the threads and the list their results go to (in sending order)."""
    results = [None] * count
    threads = []

    def one(index):
        results[index] = append(servers[index % len(servers)], list_id, f"{prefix}{index}")

    for index in range(count):
        thread = threading.Thread(target=one, args=(index,))
        thread.start()
        threads.append(thread)
        time.sleep(spacing)
    return threads, results


def check_busy_answers(results, list_id, what):
    statuses = [result[0] for result in results]
    times = [round(result[3], 2) for result in results]
    print(f"     {what}: statuses {statuses}, seconds {times}")
    checks.check(f"{what}: every write answers 503", all(status == 503 for status in statuses), statuses)
    checks.check(f"{what}: each within about {TIMEOUT:g} s (+{MARGIN:g} s)",
                 all(result[3] <= TIMEOUT + MARGIN for result in results), times)
    checks.check(f"{what}: each waited for the lock, not failed at once",
                 all(result[3] >= TIMEOUT * 0.75 for result in results), times)
    checks.check(f"{what}: each has Retry-After", all(result[1].get("retry-after") for result in results),
                 [result[1].get("retry-after") for result in results])
    details = []
    for result in results:
        try:
            details.append(json.loads(result[2]).get("detail", ""))
        except ValueError:
            details.append(result[2].decode(errors="replace"))
    checks.check(f"{what}: the detail names the list and the lock, not an unreachable store",
                 all(f'"{list_id}"' in detail and "being written by another writer (or locked in the store)" in detail
                     and "gave up after 2 s" in detail and "cannot be reached" not in detail for detail in details),
                 details[:2])


def test_advisory_lock(servers, url):
    server = servers[0]
    for list_id in ["held", "free0", "free1", "free2", "free3", "free4"]:
        status, _, body = request(server, "PUT", f"/lists/{list_id}", LIST)
        checks.check(f"PUT /lists/{list_id}", status in (200, 201), (status, body[:200]))
    holder = PsqlSession(url, f"SELECT pg_advisory_lock({ADVISORY_KEY}, hashtext('held'));")
    try:
        held = wait_until(lambda: query(url, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                                             f"AND classid = {ADVISORY_KEY} AND objid::int = hashtext('held')") == "1",
                          timeout=20)
        checks.check("psql holds the list's advisory lock", held)
        threads, results = send_spaced(servers, "held", 6, 0.2, "blocked")
        # Meanwhile: writes to five other lists at once (the pool has four connections).
        others = [None] * 5

        def other(index):
            others[index] = append(servers[index % len(servers)], f"free{index}", "meanwhile", timeout=10)

        other_threads = [threading.Thread(target=other, args=(index,)) for index in range(5)]
        for thread in other_threads:
            thread.start()
        for thread in other_threads + threads:
            thread.join(timeout=60)
        statuses = [result[0] for result in others]
        times = [round(result[3], 2) for result in others]
        print(f"     other lists meanwhile: statuses {statuses}, seconds {times}")
        checks.check("writes to five other lists meanwhile answer 200", all(status == 200 for status in statuses), statuses)
        checks.check("... at once (under 1 s each)", all(result[3] < 1.0 for result in others), times)
        check_busy_answers(results, "held", "six writes 0.2 s apart to the locked list, on two instances")
    finally:
        holder.end()
    for index, each in enumerate(servers):
        status, _, body, seconds = append(each, "held", f"after{index}")
        checks.check(f"once the psql session ends, a write to the list on instance {index + 1} answers 200",
                     status == 200, (status, body[:200], seconds))


def test_changes_table_lock(servers, url):
    server = servers[0]
    holder = PsqlSession(url, "BEGIN;", "LOCK TABLE changes IN ACCESS EXCLUSIVE MODE;")
    try:
        held = wait_until(lambda: query(url, "SELECT count(*) FROM pg_locks WHERE relation = 'changes'::regclass "
                                             "AND mode = 'AccessExclusiveLock' AND granted") == "1", timeout=20)
        checks.check("psql holds LOCK TABLE changes IN ACCESS EXCLUSIVE MODE", held)
        results = [None] * 3

        def one(index, list_id):
            results[index] = append(server, list_id, "table-locked")

        threads = [threading.Thread(target=one, args=(index, list_id))
                   for index, list_id in enumerate(["held", "free0", "free1"])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        for result, list_id in zip(results, ["held", "free0", "free1"]):
            check_busy_answers([result], list_id, f"a write to {list_id} while changes is locked")
        status, _, _ = request(server, "GET", "/lists/free0", headers={"Accept": "application/json"})
        checks.check("reads still answer 200 meanwhile", status == 200, status)
    finally:
        holder.end()
    for list_id in ["held", "free0"]:
        status, _, body, seconds = append(server, list_id, "after-table")
        checks.check(f"once the table lock is let go, a write to {list_id} answers 200", status == 200,
                     (status, body[:200], seconds))


def main():
    postgres = clusterlib.Postgres()
    servers = []
    try:
        url = postgres.database("locks")
        servers = [livetest.Server("--write-timeout", str(int(TIMEOUT)), db=url) for _ in range(2)]
        checks.run("a list's advisory lock held from psql", test_advisory_lock, servers, url)
        checks.run("the changes table locked from psql", test_changes_table_lock, servers, url)
        if servers[0].alive():
            warnings = [line for line in servers[0].log_lines() if "gave up after" in line]
            checks.check("the log says which write gave up and why", warnings, servers[0].log_lines()[-5:])
    finally:
        for server in servers:
            server.stop()
        postgres.destroy()
    raise SystemExit(checks.summary())


main()
