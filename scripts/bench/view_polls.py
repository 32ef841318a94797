#!/usr/bin/env python3
"""A client polling a sorted view of a large list that is being written: each round writes one
row, then reads the view's first page (a new version each time, so the view is never built).

    scripts/bench/view_polls.py [--rows 1000000] [--rounds 20] [--sort name] [--bin PATH]

One server (release build or --bin / $LIST_SERVER_BIN), one list of ROWS rows in one section.
Each round: a merge patch of one row's number, then `GET /lists/bench/rows?sort=SORT&limit=50`.
Prints the first page's median and p90 time, and the server's CPU time per round (user +
system, from /proc, counted until the server is idle again after the last round: work it does
in the background counts too). Then, `--busy` times: the second page of a view asked while two
CSV exports of other views not built yet hold both turns of costly view reads (that page comes
from the view's first rows, kept by its first page). Not a test.
"""
import argparse
import json
import os
import random
import sys
import time

import benchlib


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--sort", default="name")
    parser.add_argument("--busy", type=int, default=5)
    parser.add_argument("--bin")
    args = parser.parse_args()
    benchlib.header(f"polling the first page of a view of a {args.rows:,}-row list after each write (sort={args.sort})")
    with benchlib.Server(args.bin, extra=["--max-body", str(1 << 30)]) as server:
        conn = server.connection()
        benchlib.put_list(conn, "bench", benchlib.make_document(1, args.rows))
        time.sleep(1)
        rng = random.Random(3)
        started_cpu, started = cpu_seconds(server.pid), time.perf_counter()
        pages = []
        for _ in range(args.rounds):
            body = json.dumps({"cells": {"n": rng.randrange(1_500_000)}}).encode()
            status, _, data = benchlib.request(conn, "PATCH", f"/lists/bench/rows/r{rng.randrange(args.rows)}", body,
                                               {"Content-Type": "application/merge-patch+json"})
            benchlib.expect(status, (200,), f"PATCH: {data[:200]!r}")
            before = time.perf_counter()
            status, _, data = benchlib.request(conn, "GET", f"/lists/bench/rows?sort={args.sort}&limit=50")
            pages.append(time.perf_counter() - before)
            benchlib.expect(status, (200,), f"GET: {data[:200]!r}")
        # Background work (views built behind the pages) counts until the server is idle.
        last = cpu_seconds(server.pid)
        while True:
            time.sleep(0.5)
            now = cpu_seconds(server.pid)
            if now - last < 0.02:
                break
            last = now
        cpu = (last - started_cpu) / args.rounds
        benchlib.log(f"   first page: median {benchlib.ms(benchlib.median(pages))}, p90 {benchlib.ms(benchlib.percentile(pages, 0.9))}")
        benchlib.log(f"   server CPU per round (write + page + background): {cpu * 1000:.0f} ms; "
                     f"rounds took {time.perf_counter() - started:.1f} s")
        busy = [second_page_while_busy(server, conn, round) for round in range(args.busy)]
        if busy:
            benchlib.log(f"   second page while two exports sort: median {benchlib.ms(benchlib.median(busy))}, "
                         f"max {benchlib.ms(max(busy))} ({len(busy)} times)")
        benchlib.log(f"   {benchlib.uptime()}")


def second_page_while_busy(server, conn, round):
    """Writes a row (a new version: no view built), reads a view's first page, starts two CSV
    exports of other views, and times that view's second page asked meanwhile."""
    body = json.dumps({"cells": {"note": f"busy {round}"}}).encode()
    status, _, data = benchlib.request(conn, "PATCH", "/lists/bench/rows/r1", body,
                                       {"Content-Type": "application/merge-patch+json"})
    benchlib.expect(status, (200,), f"PATCH: {data[:200]!r}")
    status, _, data = benchlib.request(conn, "GET", "/lists/bench/rows?sort_desc=n&limit=50")
    benchlib.expect(status, (200,), f"GET: {data[:200]!r}")
    after = json.loads(data)["next"]
    exports = []
    for sort in ("sort=name", "sort_desc=name"):
        export = server.connection()
        export.putrequest("GET", f"/lists/bench?{sort}&format=csv")
        export.endheaders()
        exports.append(export)
    time.sleep(0.05)  # both exports are sorting
    started = time.perf_counter()
    status, _, data = benchlib.request(conn, "GET", f"/lists/bench/rows?sort_desc=n&limit=50&after={after}")
    took = time.perf_counter() - started
    benchlib.expect(status, (200,), f"GET second page: {data[:200]!r}")
    for export in exports:
        export.getresponse().read()
        export.close()
    return took


if __name__ == "__main__":
    sys.exit(main())
