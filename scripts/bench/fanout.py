#!/usr/bin/env python3
"""Fan-out: N `/events` subscribers on one list, held by this one process, then row replaces.

    scripts/bench/fanout.py [--runs floor:1x1:10000,html:10x1000:10000,json:1x50:10000,json:10x1000:100]
                            [--writes 5] [--bin PATH]

Each run VIEW:SECTIONSxROWS:N starts a fresh server (`--max-subscribers 20000`), PUTs a list of
SECTIONS x ROWS rows (4 columns), opens N subscribers `GET /lists/bench/events?view=VIEW&limit=50`
(each waits for its reset) and replaces a row inside their window `--writes` times.
A `view=json` subscriber's reset is the whole document, so 10,000 of them run on a 50-row list
(the size of one html window) and a few on the 10,000-row list to show the reset cost. Per write: delivered count, first/p50/p99/max of arrival (kernel receive
timestamp of the event's last packet, from just before the write was sent) and of seen (when
this client had parsed it), and when the write was answered (read by this client, and arrived by
the kernel's receive timestamp). Also the server's VmRSS before
and after connecting, and per subscriber; how long connecting took; and teardown: the time from
closing every subscriber and sending one more write until `/metrics` shows no open stream.
Target (docs/BENCHMARKS.md): all delivered, arrival p99 <= 1.25x the floor's (the `floor` run,
scripts/bench/floor_server.c, in alternating rounds), <= 8 KB per subscriber, writer <= 20 ms.
By default the floor runs first in each of 3 rounds, and the summary ends with each run's p99
against the floor's of its round and their median.
"""
import argparse
import os
import socket
import struct
import subprocess
import tempfile
import time

import benchlib
import livebench


class FloorServer:
    """floor_server.c (compiled on first use): the kernel's send of one event to every
    subscriber from THREADS threads and nothing else, measured by the same client."""

    def __init__(self, threads):
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floor_server.c")
        binary = os.path.join(tempfile.gettempdir(), "list-server-floor-server")
        if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
            subprocess.run(["cc", "-O2", "-pthread", "-o", binary, source], check=True)
        self.process = subprocess.Popen([binary, str(threads)], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        self.port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))
        self.pid = self.process.pid

    def rss_kib(self):
        return benchlib.Server.rss_kib(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        self.process.kill()
        self.process.wait()


def start_server(args, view, binary):
    if view == "floor":
        return FloorServer(args.floor_threads)
    return benchlib.Server(binary, ["--max-subscribers", "20000", *args.server_arg])


def keep_server_log(args, server, label):
    """Appends the server's log (its debug lines with `--server-arg=--log-level=debug`) to `--server-log`."""
    if not args.server_log or isinstance(server, FloorServer):
        return
    with open(server.log_file.name, errors="replace") as source, open(args.server_log, "a") as kept:
        kept.write(f"== {label}\n" + source.read())


def run_view(args, spec, binary=None, label=""):
    view, shape, count = spec.split(":")
    sections, rows = (int(x) for x in shape.split("x"))
    count = int(count)
    with start_server(args, view, binary or args.bin) as server:
        if view == "floor":
            size = 0
        else:
            conn = server.connection()
            seconds, size = benchlib.put_list(conn, "bench", benchlib.make_document(sections, rows))
            conn.close()
        time.sleep(0.5)
        rss_before = server.rss_kib()
        started = time.perf_counter()
        path = f"/lists/bench/events?view={view}&limit=50"
        # In two halves: the first half's growth can hide in heap the list's upload freed, so the
        # second half's growth per subscriber is the figure to quote ("marginal").
        subscribers, selector = livebench.connect_all(server.port, path, count // 2)
        time.sleep(0.5)
        rss_half = server.rss_kib()
        more, _ = livebench.connect_all(server.port, path, count - count // 2, selector=selector)
        subscribers += more
        connect_seconds = time.perf_counter() - started
        time.sleep(0.5)
        rss_after = server.rss_kib()
        per = (rss_after - rss_before) * 1024 / max(1, len(subscribers))
        marginal = (rss_after - rss_half) * 1024 / max(1, len(more))
        benchlib.log(f"-- {label} view={view}, list {sections} x {rows} rows ({size} bytes of JSON): {len(subscribers)} subscribers connected (each got its reset) in "
                     f"{connect_seconds:.1f} s; server VmRSS {rss_before / 1024:.1f} MiB before, {rss_half / 1024:.1f} MiB at half, "
                     f"{rss_after / 1024:.1f} MiB after: {per / 1024:.1f} KiB per subscriber, "
                     f"{marginal / 1024:.1f} KiB per subscriber of the second half")
        benchlib.log(f"   {benchlib.uptime()}")
        writer = livebench.Writer(server.port, "bench")
        results = []
        for write in range(args.writes):
            row = (5 + 7 * write) % min(50, sections * rows)  # inside the first 50 rows
            result = livebench.measure_write(selector, subscribers, writer, f"r{row}", row)
            results.append(result)
            benchlib.log(f"   write {write + 1} (version {result['version']}): "
                         + livebench.summary(result, len(subscribers)))
            time.sleep(args.pause)
        rss_end = server.rss_kib()
        if view == "floor":
            livebench.close_all(subscribers, selector)
            return {"teardown": 0.0, "view": f"floor, {args.floor_threads} thread(s)", "label": label, "n": len(subscribers),
                    "results": results, "rss_before": rss_before, "rss_after": rss_after, "rss_end": rss_end, "per": per,
                    "marginal": marginal, "connect": connect_seconds}
        teardown = measure_teardown(server, subscribers, selector, writer, (5 + 7 * args.writes) % min(50, sections * rows))
        keep_server_log(args, server, label)
        benchlib.log(f"   teardown: {len(subscribers)} subscribers closed, one more write, every stream released "
                     f"after {teardown:.2f} s (open_streams in /metrics back to 0)")
        return {"teardown": teardown, "view": f"{view} {shape}", "label": label, "n": len(subscribers), "results": results, "rss_before": rss_before,
                "rss_after": rss_after, "rss_end": rss_end, "per": per, "marginal": marginal, "connect": connect_seconds}


def open_streams(server):
    conn = server.connection(timeout=60)
    _, _, data = benchlib.request(conn, "GET", "/metrics")
    conn.close()
    for line in data.decode().splitlines():
        if line.startswith("list_server_open_streams "):
            return int(float(line.split()[1]))
    raise RuntimeError("no list_server_open_streams in /metrics")


def measure_teardown(server, subscribers, selector, writer, row):
    """Closes every subscriber, sends one write (a suspended stream notices a gone peer only when
    written to), and times until the server has released all streams. The sockets close with
    a reset (SO_LINGER 0) so that the first write to each fails at once."""
    linger = struct.pack("ii", 1, 0)
    for subscriber in subscribers:
        subscriber.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
    livebench.close_all(subscribers, selector)
    started = time.perf_counter()
    writer.send_replace(f"r{row}", row, "teardown")
    writer.sock.setblocking(True)
    while writer.receive() is None:
        pass
    while open_streams(server) > 0:
        if time.perf_counter() - started > 300:
            return float("inf")
        time.sleep(0.05)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", default="floor:1x1:10000,html:10x1000:10000,json:1x50:10000,json:10x1000:100",
                        help="comma-separated VIEW:SECTIONSxROWS:SUBSCRIBERS (VIEW floor: floor_server.c)")
    parser.add_argument("--writes", type=int, default=5)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between writes")
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    parser.add_argument("--vs", action="append", default=[], metavar="LABEL=BIN",
                        help="also run these binaries, interleaved round by round with --bin (repeatable)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every binary and run (the floor's in turn with them)")
    parser.add_argument("--floor-threads", type=int, default=2, help="sending threads of the floor server")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="an extra list-server argument (repeatable; e.g. --server-arg=--log-level=debug)")
    parser.add_argument("--server-log", metavar="PATH", help="append each list-server's log here")
    args = parser.parse_args()
    limit = benchlib.raise_file_limit(65536)
    most = max(int(spec.split(":")[2]) for spec in args.runs.split(","))
    if limit < most + 100:
        raise SystemExit(f"the open-file limit is {limit}; {most} subscribers need more (ulimit -Hn)")
    binaries = [("this", args.bin)] + [tuple(item.split("=", 1)) for item in args.vs]
    benchlib.header(f"fan-out: runs {args.runs}, {args.writes} row replaces each, binaries "
                    + ", ".join(f"{label}={binary or 'default'}" for label, binary in binaries)
                    + f", {args.rounds} round(s)")
    runs = []
    for round_number in range(args.rounds):
        for spec in args.runs.split(","):
            for label, binary in (binaries if not spec.startswith("floor") else [("floor", None)]):
                runs.append(run_view(args, spec, binary, f"[round {round_number + 1}, {label}]"))
    benchlib.log("== summary (per write: median over writes of each figure; target: all delivered, p99 <= 50 ms)")
    for run in runs:
        results = run["results"]
        p = benchlib.percentile
        med = benchlib.median
        delivered = sum(r["delivered"] for r in results)
        benchlib.log(
            f"   {run['label']} view={run['view']}: delivered {delivered}/{run['n'] * len(results)}; "
            f"arrival first {benchlib.ms(med([min(r['arrival']) for r in results]))}, "
            f"p50 {benchlib.ms(med([p(r['arrival'], .5) for r in results]))}, "
            f"p99 {benchlib.ms(med([p(r['arrival'], .99) for r in results]))}, "
            f"max {benchlib.ms(med([max(r['arrival']) for r in results]))}; "
            f"seen p99 {benchlib.ms(med([p(r['seen'], .99) for r in results]))}; "
            f"write answered {benchlib.ms(med([r['ack'] for r in results]))} "
            f"(arrived {benchlib.ms(med([r['ack_arrival'] for r in results]))}); "
            f"VmRSS {run['rss_before'] / 1024:.0f} -> {run['rss_after'] / 1024:.0f} MiB "
            f"({run['per'] / 1024:.1f} KiB/subscriber, second half {run['marginal'] / 1024:.1f}; {run['rss_end'] / 1024:.0f} MiB after the writes); "
            f"connect {run['connect']:.1f} s, teardown {run['teardown']:.2f} s")
    log_floor_ratios(runs)
    benchlib.log(f"   end: {benchlib.uptime()}")


def log_floor_ratios(runs):
    """Each run's arrival p99 against the floor's of the same round (target: at most 1.25x)."""
    def p99(run):
        return benchlib.median([benchlib.percentile(r["arrival"], .99) for r in run["results"]])
    floors = {run["label"].split(",")[0]: p99(run) for run in runs if run["label"].endswith("floor]")}
    if not floors:
        return
    ratios = {}
    for run in runs:
        round_label = run["label"].split(",")[0]
        if run["label"].endswith("floor]") or round_label not in floors or run["n"] < 1000:
            continue
        ratios.setdefault(f"{run['label'].split(', ')[1].rstrip(']')} view={run['view']}", []).append(p99(run) / floors[round_label])
    for name, values in ratios.items():
        benchlib.log(f"   p99 / the floor's, {name}: median {benchlib.median(values):.2f}x "
                     f"(per round: {', '.join(f'{v:.2f}' for v in values)}; target <= 1.25x)")


if __name__ == "__main__":
    main()
