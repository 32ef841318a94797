#!/usr/bin/env python3
"""What a list costs a running server in memory (issue 12 item 3): resident set growth per row
against the list's canonical JSON bytes per row.

    scripts/bench/server_memory.py [--rows 1000000] [--lists 3] [--store memory,sqlite]
                                   [--build put|appends|patches] [--bin PATH]

For each store (`--db :memory:`, then a SQLite file in a temporary folder: the default store),
one release server (`--max-body 512 MiB`) gets `--lists` lists of `--rows` rows (10 sections,
4 columns: text with `<>&`, number, link, text) by PUT, one after another, and VmRSS is read
after each (after the server has been idle for a second, so replaced versions are let go).
The first list's growth includes the heap the PUT's parse leaves to the allocator (the body,
the JSON tree); the following lists reuse that heap, so their growth is what a list holds:
its rows in memory, the store's share, and what the server caches of it.

`--build appends` makes each list as a feed grows: a PUT of its 10 empty sections, then 100
`POST …/sections/{s}/rows` of `rows / 100` rows each, the sections in turn; `--build patches`
the same rows in 1,000 JSON Patches of `add` operations (`/sections/K/rows/-`). Each write is
small, so the allocator's trim after big bodies never runs: what the list holds as it grows.
"""
import argparse
import json
import os
import tempfile
import time

import benchlib


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


def measure(binary, store, rows, lists, how="put"):
    with tempfile.TemporaryDirectory(prefix="server-memory-") as folder:
        db = ":memory:" if store == "memory" else os.path.join(folder, "lists.sqlite")
        with benchlib.Server(binary, ["--max-body", str(512 << 20)], db=db) as server:
            conn = server.connection()
            document = benchlib.make_document(10, rows // 10, title="Memory")
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
                time.sleep(1.0)
                readings.append(server.rss_kib())
            # The canonical JSON (the server's own serialisation, as GET answers it); read last,
            # since the server keeps the answer for the version.
            status, _, data = benchlib.request(conn, "GET", "/lists/m0", headers={"Accept": "application/json"})
            benchlib.expect(status, (200,), "GET m0")
            return readings, len(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--lists", type=int, default=3)
    parser.add_argument("--store", default="memory,sqlite")
    parser.add_argument("--build", choices=["put", "appends", "patches"], default="put")
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    args = parser.parse_args()
    benchlib.header(f"server memory per row: {args.lists} lists of {args.rows:,} rows each, built by {args.build}")
    for store in args.store.split(","):
        readings, json_bytes = measure(args.bin, store, args.rows, args.lists, args.build)
        json_per_row = json_bytes / args.rows
        growths = [(after - before) * 1024 / args.rows for before, after in zip(readings, readings[1:])]
        benchlib.log(f"-- store {store}: canonical JSON {json_bytes / 1e6:.1f} MB ({json_per_row:.1f} B per row); "
                     f"VmRSS {' -> '.join(f'{r / 1024:.0f}' for r in readings)} MiB")
        benchlib.log("   growth per row, list by list: " + ", ".join(
            f"{g:.0f} B ({g / json_per_row:.2f}x JSON)" for g in growths))
        later = sorted(growths[1:]) or growths
        benchlib.log(f"   a list after the first (median): {later[len(later) // 2]:.0f} B per row, "
                     f"{later[len(later) // 2] / json_per_row:.2f}x its JSON; {benchlib.uptime()}")


if __name__ == "__main__":
    main()
