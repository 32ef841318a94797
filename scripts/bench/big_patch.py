#!/usr/bin/env python3
"""One large PATCH through a release server (issue 12 step 3, issue 17 item 6): 100,000 `add`
operations each inserting a row at /sections/0/rows/0 of a 1,000-row list (about 6.6 MB of
JSON Patch), timed end to end, with a small GET's latency measured while the PATCH runs.

    scripts/bench/big_patch.py [rounds] [rows]
"""
import json
import sys
import threading
import time

from benchlib import COLUMNS, Server, expect, header, log, median, ms, put_list, request


def big_patch(rows):
    ops = []
    for n in range(rows):
        ops.append({"op": "add", "path": "/sections/0/rows/0",
                    "value": {"key": f"n{n}"}})
    return json.dumps(ops, separators=(",", ":")).encode()


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    body = big_patch(rows)
    header(f"PATCH of {rows} row inserts at index 0 ({len(body):,} bytes), {rounds} rounds")
    with Server() as server:
        conn = server.connection()
        patch_times, get_times = [], []
        for round_ in range(rounds):
            list_id = f"big{round_}"
            document = {"title": "Big patch", "columns": COLUMNS, "sections": [
                {"key": "s0", "rows": [{"key": f"r{n}", "cells": {"name": f"Row {n}", "n": n}} for n in range(1_000)]}]}
            put_list(conn, list_id, document)
            # A reader on another connection while the PATCH runs: the first page of another list.
            put_list(conn, f"other{round_}", document)
            stop = threading.Event()
            reader_times = []

            def read():
                reader = server.connection()
                while not stop.is_set():
                    started = time.perf_counter()
                    status, _, _ = request(reader, "GET", f"/lists/other{round_}/rows?limit=50")
                    reader_times.append(time.perf_counter() - started)
                    expect(status, (200,), "GET rows")
                    time.sleep(0.01)

            thread = threading.Thread(target=read)
            thread.start()
            started = time.perf_counter()
            status, _, data = request(conn, "PATCH", f"/lists/{list_id}", body,
                                      {"Content-Type": "application/json-patch+json"})
            elapsed = time.perf_counter() - started
            stop.set()
            thread.join()
            expect(status, (200, 204), f"PATCH: {data[:300]!r}")
            patch_times.append(elapsed)
            get_times.extend(reader_times)
            log(f"   round {round_ + 1}: PATCH {ms(elapsed)}; reader GETs during it: {len(reader_times)}, "
                f"median {ms(median(reader_times))}, max {ms(max(reader_times))}")
        log(f"   PATCH median {ms(median(patch_times))}; server RSS {server.rss_kib() // 1024} MiB")


if __name__ == "__main__":
    main()
