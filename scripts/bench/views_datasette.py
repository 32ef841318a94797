#!/usr/bin/env python3
"""Views side by side with Datasette (issue 23): the same rows in list-server (one list) and in
Datasette (one SQLite table, indexed on the sorted and filtered columns), the same questions
asked of both in alternating rounds (A B A B), JSON pages of 50 rows.

    scripts/bench/views_datasette.py [--rows 1000000] [--rounds 5] [--pages 20] [--bin PATH]

Datasette comes from PyPI into .build-venv/datasette-VERSION (made on first use). list-server
is the release build (or --bin / $LIST_SERVER_BIN). For each question: the first page right after
the data is loaded (uncached: list-server reads the view's first rows without the view and
builds the view behind them, Datasette runs the query cold), the page after it asked at once
(before the other side is asked anything), then `--pages` pages walked with each side's own next link, and the same first page again (warm).
Prints medians per question and the ratio list-server / Datasette (below 1: list-server faster),
with `uptime`. Not a test.
"""
import argparse
import http.client
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import benchlib

ROOT = Path(__file__).resolve().parents[2]
VERSION = "0.65.5"
VENV = ROOT / ".build-venv" / f"datasette-{VERSION}"
WORDS = ["apple", "banana", "cherry", "damson", "elder", "fig", "grape", "hazel", "Item", "kiwi"]

QUESTIONS = [
    # (name, list-server query, Datasette query)
    ("sort by qty, descending", "sort_desc=qty", "_sort_desc=qty"),
    ("sort by name", "sort=name", "_sort=name"),
    ("filter qty >= 900000, sorted by qty", "filter.qty=ge:900000&sort=qty", "qty__gte=900000&_sort=qty"),
    ("name contains 'fig', list order", "filter.name=contains:fig", "name__contains=fig"),
]


def install():
    python = VENV / "bin" / "python"
    if not (VENV / "bin" / "datasette").exists():
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--clear", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                        f"datasette=={VERSION}"], check=True)
    return VENV / "bin" / "datasette", python


def make_rows(count, seed=7):
    rng = random.Random(seed)
    return [(f"r{i}", f"{rng.choice(WORDS)} {rng.randint(1, 99999)}", rng.randint(0, 1_000_000)) for i in range(count)]


def get(conn, path):
    started = time.perf_counter()
    conn.request("GET", path, headers={"Accept": "application/json"})
    response = conn.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status} {body[:200]!r}")
    return elapsed, json.loads(body), dict(response.getheaders())


def walk_list_server(conn, query, pages):
    times, target = [], f"/lists/bench/rows?{query}&limit=50"
    for _ in range(pages):
        elapsed, body, _ = get(conn, target)
        times.append(elapsed)
        if not body.get("next"):
            break
        target = f"/lists/bench/rows?{query}&limit=50&after={body['next']}"
    return times


def walk_datasette(conn, query, pages):
    times, target = [], f"/bench/rows.json?{query}&_size=50&_shape=objects"
    for _ in range(pages):
        elapsed, body, _ = get(conn, target)
        times.append(elapsed)
        token = body.get("next")
        if not token:
            break
        target = f"/bench/rows.json?{query}&_size=50&_shape=objects&_next={urllib.parse.quote(str(token))}"
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    args = parser.parse_args()
    datasette, _ = install()
    rows = make_rows(args.rows)
    work = tempfile.mkdtemp(prefix="views-datasette-")
    database = os.path.join(work, "bench.db")
    db = sqlite3.connect(database)
    db.execute("CREATE TABLE rows (key TEXT PRIMARY KEY, name TEXT, qty INTEGER)")
    db.executemany("INSERT INTO rows VALUES (?, ?, ?)", rows)
    db.execute("CREATE INDEX rows_qty ON rows (qty)")
    db.execute("CREATE INDEX rows_name ON rows (name)")
    db.commit()
    db.close()

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    ds_port = probe.getsockname()[1]
    probe.close()
    ds = subprocess.Popen([str(datasette), "serve", database, "--port", str(ds_port), "--setting", "sql_time_limit_ms", "20000",
                           "--setting", "default_page_size", "50", "--setting", "max_returned_rows", "1000"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = benchlib.Server(args.bin, extra=["--max-body", str(512 << 20)])
    try:
        document = {"title": "Bench", "columns": [{"key": "name", "title": "Name"}, {"key": "qty", "title": "Qty", "kind": "number"}],
                    "sections": [{"key": "s", "rows": [{"key": k, "cells": {"name": n, "qty": q}} for k, n, q in rows]}]}
        benchlib.put_list(server.connection(), "bench", document)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", ds_port), 1).close()
                break
            except OSError:
                time.sleep(0.2)
        ls = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        dsc = http.client.HTTPConnection("127.0.0.1", ds_port, timeout=120)
        print(f"{args.rows:,} rows; {time.strftime('%H:%M:%S')} {benchlib.uptime()}")
        results = {}
        for name, ls_query, ds_query in QUESTIONS:
            # Each side's first page, then at once the page after it (list-server read the first
            # page without the view and builds the view meanwhile; Datasette runs its query again).
            cold_ls, first_ls, _ = get(ls, f"/lists/bench/rows?{ls_query}&limit=50")
            second_ls = get(ls, f"/lists/bench/rows?{ls_query}&limit=50&after={first_ls['next']}")[0] \
                if first_ls.get("next") else 0.0
            cold_ds, first_ds, _ = get(dsc, f"/bench/rows.json?{ds_query}&_size=50&_shape=objects")
            second_ds = get(dsc, f"/bench/rows.json?{ds_query}&_size=50&_shape=objects"
                                 f"&_next={urllib.parse.quote(str(first_ds['next']))}")[0] if first_ds.get("next") else 0.0
            pages_ls, pages_ds, warm_ls, warm_ds = [], [], [], []
            for round in range(args.rounds):
                order = [("ls", ls), ("ds", dsc)] if round % 2 == 0 else [("ds", dsc), ("ls", ls)]
                for side, conn in order:
                    if side == "ls":
                        pages_ls += walk_list_server(conn, ls_query, args.pages)
                        warm_ls.append(get(conn, f"/lists/bench/rows?{ls_query}&limit=50")[0])
                    else:
                        pages_ds += walk_datasette(conn, ds_query, args.pages)
                        warm_ds.append(get(conn, f"/bench/rows.json?{ds_query}&_size=50&_shape=objects")[0])
            results[name] = (cold_ls, cold_ds, second_ls, second_ds, statistics.median(pages_ls), statistics.median(pages_ds),
                             statistics.median(warm_ls), statistics.median(warm_ds))
        titles = ["first page, cold", "second page, at once", "page (median)", "first page, warm"]
        print(f"{'question':40} " + " ".join(f"{title:>24}" for title in titles))
        print(f"{'':40} " + " ".join(f"{'list-server / Datasette':>24}" for _ in titles))
        for name, times in results.items():
            cell = lambda a, b: f"{a * 1000:8.1f} /{b * 1000:8.1f} ms ({a / b if b else 0:4.2f}x)"
            print(f"{name:40} " + " ".join(f"{cell(times[i], times[i + 1]):>24}" for i in range(0, 8, 2)))
        print(f"end {time.strftime('%H:%M:%S')} {benchlib.uptime()}")
    finally:
        ds.terminate()
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
