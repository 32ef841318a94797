#!/usr/bin/env python3
"""A write on one instance to its event on another (issue 11), beside one instance alone.

    scripts/bench/cluster_latency.py [--writes 300] [--rows 1000] [--bin PATH]

Starts a private PostgreSQL (scripts/pg-cluster, fsync on), instances A and B on it, and a
single instance on SQLite in memory (what scripts/bench/latency.py measures), each holding the
same list of 10 sections of `--rows` rows. One `view=html&limit=50` subscriber on A, one on B,
one on the single instance. Sequential row replaces inside the window, alternating one by one
between the cluster (written on A, timed at A's and B's subscribers) and the single instance, so
that both see the same machine load. Reports p50/p99/max of arrival (kernel
receive timestamp of the patch, from just before the write was sent) and of the write's answer.
Target (docs/BENCHMARKS.md): a write on one instance to a subscriber on another, p99 < 50 ms.
"""
import argparse
import os
import selectors
import shutil
import subprocess
import tempfile
import time

import benchlib
import livebench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def measure(writer, subscribers, row, timeout=30):
    """One row replace through `writer`; returns (answer seconds, [arrival seconds per subscriber])."""
    expected = max(s.version for s in subscribers) + 1
    selector = selectors.DefaultSelector()
    for subscriber in subscribers:
        selector.register(subscriber.sock, selectors.EVENT_READ, subscriber)
    selector.register(writer.sock, selectors.EVENT_READ, writer)
    arrival = {}
    ack = None
    wall0 = time.time_ns()
    t0 = time.perf_counter()
    writer.send_replace(f"r{row}", row, f"write {expected}")
    while (len(arrival) < len(subscribers) or ack is None) and time.perf_counter() < t0 + timeout:
        for key, _ in selector.select(timeout=0.5):
            source = key.data
            if source is writer:
                answer = writer.receive()
                if answer:
                    if answer != (200, expected):
                        raise RuntimeError(f"write answered {answer}, expected (200, {expected})")
                    ack = time.perf_counter() - t0
                continue
            events, kernel_ns = source.receive()
            for name, event_id, _ in events:
                if name == b"patch" and event_id is not None and event_id >= expected:
                    source.version = event_id
                    if source not in arrival:
                        arrival[source] = (kernel_ns - wall0) / 1e9 if kernel_ns else time.perf_counter() - t0
    selector.close()
    if ack is None or len(arrival) < len(subscribers):
        raise RuntimeError(f"write {expected}: {len(arrival)} of {len(subscribers)} events, answer {ack}")
    return ack, [arrival[s] for s in subscribers]


def subscriber(port):
    subscribers, selector = livebench.connect_all(port, "/lists/bench/events?view=html&limit=50", 1)
    selector.close()
    return subscribers[0]


def summary(name, values):
    p = benchlib.percentile
    return (f"   {name:34} p50 {benchlib.ms(p(values, .5))}  p99 {benchlib.ms(p(values, .99))}  "
            f"max {benchlib.ms(max(values))}  ({len(values)} writes)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=300, help="writes on each side")
    parser.add_argument("--rows", type=int, default=1000, help="rows per section (10 sections)")
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    args = parser.parse_args()
    benchlib.header(f"cluster latency: {args.writes} row replaces on instance A (PostgreSQL) timed at subscribers on "
                    f"A and B, and {args.writes} on one instance (SQLite in memory), alternating; "
                    f"list of 10 x {args.rows} rows")
    folder = tempfile.mkdtemp(prefix="list-bench-pg-", dir="/tmp")
    os.chmod(folder, 0o755)
    pg = os.path.join(folder, "pg")
    servers = []
    try:
        url = subprocess.run([os.path.join(ROOT, "scripts", "pg-cluster"), "start", pg, "--owner", str(os.getpid())],
                             check=True, capture_output=True, text=True).stdout.strip()
        password = open(os.path.join(pg, "password")).read().strip()
        os.environ["PGPASSWORD"] = password
        url = url.replace(f":{password}@", "@")
        a = benchlib.Server(args.bin, db=url)
        b = benchlib.Server(args.bin, db=url)
        single = benchlib.Server(args.bin)
        servers = [a, b, single]
        document = benchlib.make_document(10, args.rows)
        for server in (a, single):
            conn = server.connection()
            benchlib.put_list(conn, "bench", document)
            conn.close()
        sub_a, sub_b, sub_single = subscriber(a.port), subscriber(b.port), subscriber(single.port)
        writer_a, writer_single = livebench.Writer(a.port, "bench"), livebench.Writer(single.port, "bench")
        results = {"same": [], "other": [], "cluster answer": [], "single": [], "single answer": []}
        for write in range(args.writes):
            row = write % 50
            ack, (same, other) = measure(writer_a, [sub_a, sub_b], row)
            results["cluster answer"].append(ack)
            results["same"].append(same)
            results["other"].append(other)
            ack, (alone,) = measure(writer_single, [sub_single], row)
            results["single answer"].append(ack)
            results["single"].append(alone)
        benchlib.log(summary("A write -> B event (arrival)", results["other"]))
        benchlib.log(summary("A write -> A event (arrival)", results["same"]))
        benchlib.log(summary("A write answered (PostgreSQL commit)", results["cluster answer"]))
        benchlib.log(summary("single instance, SQLite (arrival)", results["single"]))
        benchlib.log(summary("single instance write answered", results["single answer"]))
        benchlib.log(f"   target: A -> B p99 < 50 ms.  end: {benchlib.uptime()}")
    finally:
        for server in servers:
            server.stop()
        subprocess.run([os.path.join(ROOT, "scripts", "pg-cluster"), "destroy", pg], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
