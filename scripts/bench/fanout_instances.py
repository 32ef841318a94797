#!/usr/bin/env python3
"""Fan-out on several instances sharing one PostgreSQL: 15,000 subscribers on each (issue 14).

    scripts/bench/fanout_instances.py [--instances 3] [--subscribers 15000] [--writes 5]
                                      [--rows 1000] [--bin PATH] [--floor]

Starts a private PostgreSQL (scripts/pg-cluster) and `--instances` list-servers on it, each on
its own port (`--max-subscribers 20000`). PUTs a list of 10 x ROWS rows on the first, then opens
`--subscribers` `view=html&limit=50` subscribers on every instance, each instance's from its own
client process (one process may hold at most 20,000 sockets). Then `--writes` row replaces inside
the window, sent to the first instance: the others get them through PostgreSQL (LISTEN/NOTIFY).
Per write and instance: delivered count and arrival p50/p99/max (kernel receive timestamp of
each subscriber's patch, from just before the write was sent; the clocks are the same machine's),
and when the write was answered. Per instance: VmRSS before and after connecting, per subscriber.

`--floor` runs the same with fanout.py's floor server (scripts/bench/floor_server.c: the kernel's
send of one event to every subscriber from 2 threads, nothing else) in place of each instance,
and no PostgreSQL: each write is one PUT to every floor server, sent back to back, timed from
just before the first. Run it beside a list-server run to see what the machine itself allows.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import benchlib
import fanout
import livebench

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def child(port, count, path):
    """One instance's client: connects `count` subscribers, says "ready N", then for each line
    "write EXPECTED WALL0_NS" on stdin reads until every subscriber has the patch EXPECTED (the
    kernel stamped each arrival, so reading after the fact does not change it) and prints one
    JSON line of arrival seconds."""
    benchlib.raise_file_limit(20000)
    subscribers, selector = livebench.connect_all(port, path, count)
    print(f"ready {len(subscribers)}", flush=True)
    for line in sys.stdin:
        _, expected, wall0 = line.split()
        expected, wall0 = int(expected), int(wall0)
        pending = {s.sock.fileno(): s for s in subscribers}
        arrival = []
        deadline = time.monotonic() + 60
        while pending and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=0.5):
                source = key.data
                events, kernel_ns = source.receive()
                for name, event_id, _ in events:
                    if name == b"patch" and event_id is not None and event_id >= expected:
                        source.version = event_id
                        if pending.pop(source.sock.fileno(), None) is not None:
                            arrival.append((kernel_ns - wall0) / 1e9 if kernel_ns else time.time() - wall0 / 1e9)
        print(json.dumps({"delivered": len(arrival), "arrival": arrival}), flush=True)
    livebench.close_all(subscribers, selector)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--instances", type=int, default=3)
    parser.add_argument("--subscribers", type=int, default=15000, help="subscribers on each instance")
    parser.add_argument("--writes", type=int, default=5)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between writes")
    parser.add_argument("--rows", type=int, default=1000, help="rows per section (10 sections)")
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    parser.add_argument("--floor", action="store_true", help="floor servers in place of list-server and PostgreSQL")
    parser.add_argument("--child", nargs=3, metavar=("PORT", "COUNT", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(int(args.child[0]), int(args.child[1]), args.child[2])
        return
    what = "floor servers (C, 2 threads each)" if args.floor else "list-server instances sharing PostgreSQL"
    benchlib.header(f"fan-out on {args.instances} {what}, {args.subscribers} view=html subscribers each (one client "
                    f"process per instance), {args.writes} writes" + (" (one PUT to each)" if args.floor else " sent to the first"))
    folder = tempfile.mkdtemp(prefix="list-bench-pg-", dir="/tmp")
    os.chmod(folder, 0o755)
    pg = os.path.join(folder, "pg")
    servers, clients = [], []
    try:
        if args.floor:
            servers = [fanout.FloorServer(2) for _ in range(args.instances)]
            size = 0
        else:
            url = subprocess.run([os.path.join(ROOT, "scripts", "pg-cluster"), "start", pg, "--owner", str(os.getpid())],
                                 check=True, capture_output=True, text=True).stdout.strip()
            password = open(os.path.join(pg, "password")).read().strip()
            os.environ["PGPASSWORD"] = password
            url = url.replace(f":{password}@", "@")
            servers = [benchlib.Server(args.bin, ["--max-subscribers", "20000"], db=url) for _ in range(args.instances)]
            conn = servers[0].connection()
            _, size = benchlib.put_list(conn, "bench", benchlib.make_document(10, args.rows))
            conn.close()
        time.sleep(1.0)
        rss_before = [server.rss_kib() for server in servers]
        path = "/lists/bench/events?view=html&limit=50"
        started = time.perf_counter()
        clients = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", str(server.port),
                                     str(args.subscribers), path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                   for server in servers]
        for client in clients:
            line = client.stdout.readline().split()
            if not line or line[0] != "ready" or int(line[1]) != args.subscribers:
                raise RuntimeError(f"a client did not connect its subscribers: {line}")
        connect_seconds = time.perf_counter() - started
        time.sleep(0.5)
        rss_after = [server.rss_kib() for server in servers]
        for index, server in enumerate(servers):
            per = (rss_after[index] - rss_before[index]) / args.subscribers
            benchlib.log(f"-- instance {index + 1}: {args.subscribers} subscribers; VmRSS {rss_before[index] / 1024:.1f} -> "
                         f"{rss_after[index] / 1024:.1f} MiB: {per:.2f} KiB per subscriber")
        benchlib.log(f"   list of 10 x {args.rows} rows ({size} bytes of JSON); "
                     f"{args.instances * args.subscribers} subscribers connected in {connect_seconds:.1f} s; {benchlib.uptime()}")
        writers = [livebench.Writer(server.port, "bench") for server in (servers if args.floor else servers[:1])]
        version = 1
        per_instance = [[] for _ in servers]
        answers = []
        for write in range(args.writes):
            version += 1
            row = (5 + 7 * write) % 50
            wall0 = time.time_ns()
            t0 = time.perf_counter()
            for writer in writers:
                writer.send_replace(f"r{row}", row, f"write {version}")
            for client in clients:
                client.stdin.write(f"write {version} {wall0}\n")
                client.stdin.flush()
            for writer in writers:
                writer.sock.setblocking(True)
                answer = None
                while answer is None:
                    answer = writer.receive()
                if answer != (200, version):
                    raise RuntimeError(f"write answered {answer}, expected (200, {version})")
            answers.append(time.perf_counter() - t0)
            line = []
            for index, client in enumerate(clients):
                result = json.loads(client.stdout.readline())
                per_instance[index].append(result)
                values = result["arrival"]
                p = benchlib.percentile
                line.append(f"instance {index + 1}: {result['delivered']}/{args.subscribers}, p50 {benchlib.ms(p(values, .5))} "
                            f"p99 {benchlib.ms(p(values, .99))} max {benchlib.ms(max(values))}")
            benchlib.log(f"   write {write + 1} (version {version}, answered after {benchlib.ms(answers[-1])}): " + "; ".join(line))
            time.sleep(args.pause)
        benchlib.log("== summary (median over writes; target per instance: all delivered, p99 <= 250 ms; compare with --floor)")
        med, p = benchlib.median, benchlib.percentile
        for index, results in enumerate(per_instance):
            delivered = sum(r["delivered"] for r in results)
            benchlib.log(f"   instance {index + 1}{' (written to)' if index == 0 and not args.floor else ''}: delivered {delivered}/"
                         f"{args.subscribers * len(results)}; arrival p50 {benchlib.ms(med([p(r['arrival'], .5) for r in results]))}, "
                         f"p99 {benchlib.ms(med([p(r['arrival'], .99) for r in results]))}, "
                         f"max {benchlib.ms(med([max(r['arrival']) for r in results]))}; "
                         f"{(rss_after[index] - rss_before[index]) / args.subscribers:.2f} KiB per subscriber")
        benchlib.log(f"   write answered: median {benchlib.ms(med(answers))}.  end: {benchlib.uptime()}")
    finally:
        for client in clients:
            if client.poll() is None:
                client.stdin.close()
                try:
                    client.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    client.kill()
                    client.wait()
        for server in servers:
            server.stop()
        if not args.floor:
            subprocess.run([os.path.join(ROOT, "scripts", "pg-cluster"), "destroy", pg], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
