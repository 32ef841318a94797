#!/usr/bin/env python3
"""What a list costs a running server in memory (issue 12 item 3): resident set growth per row
against the list's canonical JSON bytes per row.

    scripts/bench/server_memory.py [--rows 1000000] [--lists 3] [--store memory,sqlite]
                                   [--build put|appends|patches] [--shape bench|small]
                                   [--trim] [--restart] [--bin PATH]

For each store (`--db :memory:`, then a SQLite file in a temporary folder: the default store),
one release server (`--max-body 512 MiB`, `--write-timeout 600`) gets `--lists` lists of `--rows` rows (10 sections)
by PUT, one after another, and VmRSS is read after each (after the server has been idle for 5
s, so replaced versions are let go and the heap trimmed: `HeapTrim` trims a second after a burst
of writes ends; at load 10, 2.5 s was once too early). `--shape bench` rows have 4 columns (text with `<>&`,
number, link, text; about 161 B of canonical JSON each); `--shape small` rows a short key and
three short cells (text, number, text; about 85 B each, a feed's rows: where the fixed cost of a
row shows).
The first list's growth includes the heap the PUT's parse leaves to the allocator (the body,
the JSON tree); the following lists reuse that heap, so their growth is what a list holds:
its rows in memory, the store's share, and what the server caches of it.

`--build appends` makes each list as a feed grows: a PUT of its 10 empty sections, then 100
`POST …/sections/{s}/rows` of `rows / 100` rows each, the sections in turn; `--build patches`
the same rows in 1,000 JSON Patches of `add` operations (`/sections/K/rows/-`). Each write is
small (`--shape small`: under the 1 MiB after which the server trims its heap, `HeapTrim`):
what the list holds as it grows.

Two readings tell where the bytes go: `--trim` sends a 1 MiB body the server refuses (a
`PUT` of invalid JSON) once the lists are built, which makes it trim its heap, and reads VmRSS
again; `--restart` (SQLite file only) starts a new server on the same file and reads how long it
took to be ready, its peak while loading (VmHWM) and what the same lists cost loaded from the store.
"""
import argparse
import json
import os
import tempfile
import time

import benchlib


# Large bodies; a 1,000,000-row PUT takes more than the default 10 s on a loaded machine.
SERVER_ARGS = ["--max-body", str(512 << 20), "--write-timeout", "600"]


def make_small_row(key, n):
    """A feed's row: about 85 B of canonical JSON (`{"key":"f123456","cells":{…},"style":"default"}`)."""
    return {"key": key, "cells": {"name": f"Post {n}", "n": n % 1000, "tag": "new"}}


SMALL_COLUMNS = [
    {"key": "name", "title": "Name"},
    {"key": "n", "title": "Number", "kind": "number"},
    {"key": "tag", "title": "Tag"},
]


def make_document(shape, rows):
    """10 sections of `rows / 10` rows of `shape`."""
    if shape == "bench":
        return benchlib.make_document(10, rows // 10, title="Memory")
    per_section = rows // 10
    sections = [{"key": f"s{s}", "header": f"Section {s}",
                 "rows": [make_small_row(f"f{n}", n) for n in range(s * per_section, (s + 1) * per_section)]}
                for s in range(10)]
    return {"title": "Memory", "columns": SMALL_COLUMNS, "sections": sections}


def trim_heap(conn):
    """Makes the server trim its heap: a 1 MiB body it refuses (invalid JSON) is followed by a trim."""
    junk = b"[" + b" " * (1 << 20)
    status, _, _ = benchlib.request(conn, "PUT", "/lists/trim-junk", junk, {"Content-Type": "application/json"})
    benchlib.expect(status, (400, 413, 415, 422), "the junk body is refused")
    time.sleep(2.5)


def build_by_writes(conn, list_id, document, how):
    """Makes `document` on the server by a PUT of its empty sections and many small writes."""
    sections = document["sections"]
    empty = dict(document, sections=[dict(section, rows=[]) for section in sections])
    status, _, data = benchlib.request(conn, "PUT", f"/lists/{list_id}", empty)
    benchlib.expect(status, (200, 201), f"PUT {list_id}: {data[:200]!r}")
    writes = 100 if how == "appends" else 1_000
    per_section = len(sections[0]["rows"])
    per_write = max(1, per_section * len(sections) // writes)
    for write in range(writes):
        index = write % len(sections)
        start = (write // len(sections)) * per_write
        rows = sections[index]["rows"][start:start + per_write]
        if not rows:
            continue
        if how == "appends":
            status, _, data = benchlib.request(conn, "POST", f"/lists/{list_id}/sections/{sections[index]['key']}/rows", rows)
        else:
            patch = [{"op": "add", "path": f"/sections/{index}/rows/-", "value": row} for row in rows]
            status, _, data = benchlib.request(conn, "PATCH", f"/lists/{list_id}", patch,
                                               {"Content-Type": "application/json-patch+json"})
        benchlib.expect(status, (200, 201), f"{how} write {write} to {list_id}: {data[:200]!r}")


def measure(binary, store, rows, lists, how="put", shape="bench", trim=False, restart=False):
    """VmRSS readings (KiB: empty, then after each list), the canonical JSON's bytes of one
    list, and the extra readings `trim` and `restart` ask for (by name)."""
    extra = {}
    extra_times = {}
    with tempfile.TemporaryDirectory(prefix="server-memory-") as folder:
        db = ":memory:" if store == "memory" else os.path.join(folder, "lists.sqlite")
        with benchlib.Server(binary, SERVER_ARGS, db=db) as server:
            conn = server.connection()
            document = make_document(shape, rows)
            body = json.dumps(document, separators=(",", ":")).encode()
            del document
            readings = [server.rss_kib()]
            for index in range(lists):
                if how == "put":
                    status, _, data = benchlib.request(conn, "PUT", f"/lists/m{index}", body,
                                                       {"Content-Type": "application/json"})
                    benchlib.expect(status, (200, 201), f"PUT m{index}: {data[:200]!r}")
                else:
                    build_by_writes(conn, f"m{index}", json.loads(body), how)
                time.sleep(5.0)
                readings.append(server.rss_kib())
            if trim:
                trim_heap(conn)
                extra["after a trim"] = server.rss_kib()
            # The canonical JSON (the server's own serialisation, as GET answers it); read last,
            # since the server keeps the answer for the version.
            status, _, data = benchlib.request(conn, "GET", "/lists/m0", headers={"Accept": "application/json"})
            benchlib.expect(status, (200,), "GET m0")
        if restart and store != "memory":
            started = time.monotonic()
            with benchlib.Server(binary, SERVER_ARGS, db=db) as server:
                extra_times["restarted (ready)"] = time.monotonic() - started
                time.sleep(2.5)
                extra["restarted, peak while loading (VmHWM)"] = server.rss_kib("VmHWM")
                extra["restarted"] = server.rss_kib()
                trim_heap(server.connection())
                extra["restarted, trimmed"] = server.rss_kib()
        for name, seconds in extra_times.items():
            benchlib.log(f"   {name} in {seconds:.1f} s")
        return readings, len(data), extra


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--lists", type=int, default=3)
    parser.add_argument("--store", default="memory,sqlite")
    parser.add_argument("--build", choices=["put", "appends", "patches"], default="put")
    parser.add_argument("--shape", choices=["bench", "small"], default="bench",
                        help="bench: 4 columns, about 161 B of JSON per row; small: 3 short cells, about 85 B")
    parser.add_argument("--trim", action="store_true", help="also read VmRSS after the server trims its heap")
    parser.add_argument("--restart", action="store_true",
                        help="also read VmRSS of a new server loading the same lists (SQLite file only)")
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    args = parser.parse_args()
    benchlib.header(f"server memory per row: {args.lists} lists of {args.rows:,} {args.shape} rows each, "
                    f"built by {args.build}")
    for store in args.store.split(","):
        readings, json_bytes, extra = measure(args.bin, store, args.rows, args.lists, args.build, args.shape,
                                              args.trim, args.restart)
        json_per_row = json_bytes / args.rows
        growths = [(after - before) * 1024 / args.rows for before, after in zip(readings, readings[1:])]
        benchlib.log(f"-- store {store}: canonical JSON {json_bytes / 1e6:.1f} MB ({json_per_row:.1f} B per row); "
                     f"VmRSS {' -> '.join(f'{r / 1024:.0f}' for r in readings)} MiB")
        benchlib.log("   growth per row, list by list: " + ", ".join(
            f"{g:.0f} B ({g / json_per_row:.2f}x JSON)" for g in growths))
        later = sorted(growths[1:]) or growths
        benchlib.log(f"   a list after the first (median): {later[len(later) // 2]:.0f} B per row, "
                     f"{later[len(later) // 2] / json_per_row:.2f}x its JSON; {benchlib.uptime()}")
        for name, reading in extra.items():
            # Every list's rows over the empty server's reading.
            per_row = (reading - readings[0]) * 1024 / (args.rows * args.lists)
            benchlib.log(f"   {name}: VmRSS {reading / 1024:.0f} MiB, {per_row:.0f} B per row of all "
                         f"{args.lists} lists ({per_row / json_per_row:.2f}x JSON)")


if __name__ == "__main__":
    main()
