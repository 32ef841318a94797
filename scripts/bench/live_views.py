#!/usr/bin/env python3
"""A one-row write to a 1,000,000-row list with 16 live views of it (issue 23): the writer's
answer against the same write to an identical list without views, and what the views cost.

    scripts/bench/live_views.py [--rows 1000000] [--writes 60] [--warm-up 100] [--views 16] [--bin PATH]

One server (release build or --bin / $LIST_SERVER_BIN), two identical lists of ROWS rows in one
section (a feed; 4 columns: text, number, link, text): `plain` with no subscriber, `viewed` with
VIEWS live views, each a `view=html` window of 50 rows with one subscriber (sorts, searches and
filters, all different). Writes alternate between the lists (plain, viewed, plain, viewed, ...):
a merge patch of one row's number cell (which moves it in the views sorted by number). Prints the
writer's answer (median, p90: until the whole answer was on the writer's socket, by the kernel's
receive timestamp, as `livebench` times fan-out; and as this client read it) for each list and
their ratio (target: at most 2x), how long after
the write's answer the last view's patch arrived, and the server's VmRSS growth from opening the
views, per row they hold (target: at most 32 bytes per row beyond the list). Last, one more live
view is opened (a new sort: seconds of sorting) while writes go on: how long the 16 views'
patches waited meanwhile (before, the new view was sorted under the list's lock). Not a test.

The 16 subscribers read their streams in a child process (`Watchers`): in the writer's process
their threads took Python's GIL whenever a patch arrived, just when the writer's answer came
back, and the writer's time swung from 1x to 4x the plain list's from run to run
(`--same-process` measures that way, for comparison).
"""
import argparse
import http.client
import json
import multiprocessing
import random
import sys
import threading
import time

import benchlib
import livebench

# Each query with the rows it keeps of benchlib.make_row(f"r{i}", i) (to count the views' rows).
QUERIES = [
    ("sort=n", lambda i: True), ("sort_desc=n", lambda i: True),
    ("sort=name", lambda i: True), ("sort_desc=name", lambda i: True),
    ("sort=note", lambda i: True), ("sort_desc=note", lambda i: True),
    ("sort=link", lambda i: True), ("sort_desc=link", lambda i: True),
    ("filter.n=lt:750000", lambda i: i * 1.5 < 750000),
    ("filter.n=ge:100000&sort_desc=n", lambda i: i * 1.5 >= 100000),
    ("filter.name=contains:7&sort=name", lambda i: "7" in str(i)),
    ("filter.note=eq:plain&sort=n", lambda i: True),
    ("filter.n=lt:300000&sort=name", lambda i: i * 1.5 < 300000),
    ("filter.n=gt:10&filter.note=eq:plain&sort=note", lambda i: i * 1.5 > 10),
    ("filter.name=contains:99&sort_desc=n", lambda i: "99" in str(i)),
    ("filter.n=ge:500000&sort=link", lambda i: i * 1.5 >= 500000),
]


class ViewSubscriber(threading.Thread):
    """One `view=html` subscriber of a live view: records when each version's patch arrived."""

    def __init__(self, port, query):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        path = f"/lists/viewed/events?view=html&limit=50&{query}"
        self.conn.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            raise RuntimeError(f"GET {path}: {self.response.status} {self.response.read()[:200]!r}")
        self.arrivals = {}
        self.ready = threading.Event()

    def run(self):
        event = None
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                line = line.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("id:") and event in ("patch", "reset"):
                    self.arrivals[int(line[3:].strip())] = time.perf_counter()
                    if event == "reset":
                        self.ready.set()
        except (OSError, ValueError, http.client.HTTPException):
            return



def watch(port, queries, pipe):
    """The child process of `Watchers`: subscribes to `queries`, says "ready" once every reset
    came, then for each version it is sent, answers when the last subscriber saw its patch
    (`time.perf_counter()`: CLOCK_MONOTONIC, the same clock in every process), inf after 30 s."""
    subscribers = [ViewSubscriber(port, query) for query in queries]
    for subscriber in subscribers:
        subscriber.start()
    for subscriber in subscribers:
        if not subscriber.ready.wait(600):
            pipe.send("a view's reset never came")
            return
    pipe.send("ready")
    while (version := pipe.recv()) is not None:
        pipe.send(last_arrival(subscribers, version))


def last_arrival(subscribers, version):
    """When the last of `subscribers` saw `version`'s patch (inf if one did not within 30 s)."""
    deadline = time.time() + 30
    while time.time() < deadline and not all(version in s.arrivals for s in subscribers):
        time.sleep(0.0005)
    return max(s.arrivals.get(version, float("inf")) for s in subscribers)


class Watchers:
    """Subscribers of `queries`, read in a child process (or in this one, `same_process`)."""

    def __init__(self, port, queries, same_process=False):
        self.subscribers = None
        if same_process:
            self.subscribers = [ViewSubscriber(port, query) for query in queries]
            for subscriber in self.subscribers:
                subscriber.start()
            for subscriber in self.subscribers:
                if not subscriber.ready.wait(600):
                    raise RuntimeError("a view's reset never came")
            return
        self.pipe, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(target=watch, args=(port, queries, child), daemon=True)
        self.process.start()
        said = self.pipe.recv()
        if said != "ready":
            raise RuntimeError(said)

    def last_arrival(self, version):
        """When the last subscriber saw `version`'s patch."""
        if self.subscribers is not None:
            return last_arrival(self.subscribers, version)
        self.pipe.send(version)
        return self.pipe.recv()

    def close(self):
        if self.subscribers is None:
            self.pipe.send(None)
            self.process.join(10)

def merge_number(writer, row, value):
    """A merge patch of row `row`'s number cell; returns (how long until the whole answer was on
    the writer's socket by the kernel's receive timestamp, how long until this client had read
    it, when it had, the new version)."""
    body = json.dumps({"cells": {"n": value}}).encode()
    sent_ns = time.time_ns()
    started = time.perf_counter()
    writer.send("PATCH", f"/lists/{writer.list_id}/rows/r{row}", body, "application/merge-patch+json")
    status, version = writer.answer()
    answered = time.perf_counter()
    benchlib.expect(status, (200,), f"PATCH {writer.list_id} r{row}")
    return (writer.arrival_ns - sent_ns) / 1e9, answered - started, answered, version


def open_view_during_writes(server, writer, watchers, rows, rng):
    """Opens one more live view (a sort not among QUERIES) while writing to the list every few
    ms; returns each write's lag to the last of `watchers` meanwhile, each write's answer time,
    and the opening's time."""
    opened = {}

    def open_one():
        started = time.perf_counter()
        subscriber = ViewSubscriber(server.port, "sort_desc=name&filter.note=ne:x")
        subscriber.start()
        subscriber.ready.wait(600)
        opened["took"] = time.perf_counter() - started
        opened["subscriber"] = subscriber

    opener = threading.Thread(target=open_one, daemon=True)
    opener.start()
    lags, answers = [], []
    while opener.is_alive() or not lags:
        _, took, answered, version = merge_number(writer, rng.randrange(rows), rng.randrange(1_500_000))
        answers.append(took)
        lags.append(watchers.last_arrival(version) - answered)
        time.sleep(0.01)
    opener.join()
    return lags, answers, opened["took"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--writes", type=int, default=60)
    parser.add_argument("--warm-up", type=int, default=100,
                        help="writes to each list before those measured (the first writes after the server "
                             "trimmed its heap fault pages back in)")
    parser.add_argument("--views", type=int, default=16)
    parser.add_argument("--bin")
    parser.add_argument("--same-process", action="store_true",
                        help="read the subscribers' streams in the writer's process (as this script did until the 7th session)")
    args = parser.parse_args()
    benchlib.header(f"{args.views} live views of a {args.rows:,}-row list, one-row writes")
    document = benchlib.make_document(1, args.rows)
    with benchlib.Server(args.bin, extra=["--max-body", str(1 << 30)]) as server:
        conn = server.connection()
        for list_id in ("plain", "viewed"):
            benchlib.put_list(conn, list_id, document)
        del document
        time.sleep(1)
        before = server.rss_kib()
        started = time.perf_counter()
        watchers = Watchers(server.port, [query for query, _ in QUERIES[:args.views]], args.same_process)
        opened = time.perf_counter() - started
        time.sleep(2.5)  # the server gives the sorts' free heap back once work pauses for 1 s
        after = server.rss_kib()
        rows = sum(sum(1 for i in range(args.rows) if keeps(i)) for _, keeps in QUERIES[:args.views])
        rng = random.Random(5)
        writers = {list_id: livebench.Writer(server.port, list_id) for list_id in ("plain", "viewed")}
        times = {"plain": [], "viewed": []}
        seen = {"plain": [], "viewed": []}
        lags = []
        for write in range(-args.warm_up, args.writes):
            row, value = rng.randrange(args.rows), rng.randrange(1_500_000)
            for list_id in (("plain", "viewed") if write % 2 == 0 else ("viewed", "plain")):
                arrived, took, answered, version = merge_number(writers[list_id], row, value)
                lag = watchers.last_arrival(version) - answered if list_id == "viewed" else None
                if write < 0:
                    continue
                times[list_id].append(arrived)
                seen[list_id].append(took)
                if lag is not None:
                    lags.append(lag)
        opening_lags, opening_answers, opening_took = open_view_during_writes(server, writers["viewed"], watchers, args.rows, rng)
        watchers.close()
        plain, viewed = benchlib.median(times["plain"]), benchlib.median(times["viewed"])
        seen_plain, seen_viewed = benchlib.median(seen["plain"]), benchlib.median(seen["viewed"])
        where = "the writer's process" if args.same_process else "a child process"
        benchlib.log(f"   views opened (built, reset sent) in {opened:.1f} s; their streams read in {where}")
        benchlib.log("   the writer's answer on its socket (kernel receive timestamp), from just before the request was sent:")
        benchlib.log(f"   writer, no views:   median {benchlib.ms(plain)}, p90 {benchlib.ms(benchlib.percentile(times['plain'], 0.9))}")
        benchlib.log(f"   writer, {args.views} views: median {benchlib.ms(viewed)}, p90 {benchlib.ms(benchlib.percentile(times['viewed'], 0.9))}"
                     f"  ({viewed / plain:.2f}x; target <= 2x)")
        benchlib.log(f"   as this client read it: median {benchlib.ms(seen_plain)} without views, {benchlib.ms(seen_viewed)} with them"
                     f" ({seen_viewed / seen_plain:.2f}x; the subscribers' reading shares the machine's two cores)")
        benchlib.log(f"   last view's patch after the answer: median {benchlib.ms(benchlib.median(lags))}, "
                     f"p90 {benchlib.ms(benchlib.percentile(lags, 0.9))}")
        benchlib.log(f"   a new view opened in {opening_took:.2f} s; meanwhile {len(opening_lags)} writes: answered in median "
                     f"{benchlib.ms(benchlib.median(opening_answers))}, max {benchlib.ms(max(opening_answers))}; their last "
                     f"patch after the answer: median {benchlib.ms(benchlib.median(opening_lags))}, max {benchlib.ms(max(opening_lags))}")
        benchlib.log(f"   VmRSS {before / 1024:.0f} MiB -> {after / 1024:.0f} MiB with the views: "
                     f"{(after - before) * 1024 / rows:.1f} bytes per view row ({rows:,} rows in {args.views} views; target <= 32)")
        benchlib.log(f"   {benchlib.uptime()}")


if __name__ == "__main__":
    sys.exit(main())
