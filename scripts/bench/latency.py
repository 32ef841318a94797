#!/usr/bin/env python3
"""Write-to-delivery latency for one `view=html` subscriber: sequential row replaces.

    scripts/bench/latency.py [--writes 200] [--rows 1000] [--view html] [--bin PATH]

The list has 10 sections of `--rows` rows (4 columns); one subscriber opens
`GET /lists/bench/events?view=html&limit=50`; each write replaces a row inside its window and
the next write is sent once the patch has arrived. Reports p50/p99 of arrival (kernel receive
timestamp of the patch, from just before the write was sent), of seen (when this client had
parsed it), and of the write's answer. Target (docs/BENCHMARKS.md): p50 < 5 ms.
"""
import argparse
import time

import benchlib
import livebench


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--rows", type=int, default=1000, help="rows per section (10 sections)")
    parser.add_argument("--view", default="html")
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    args = parser.parse_args()
    benchlib.header(f"latency: 1 view={args.view} subscriber, {args.writes} sequential row replaces, "
                    f"list of 10 x {args.rows} rows")
    with benchlib.Server(args.bin) as server:
        conn = server.connection()
        benchlib.put_list(conn, "bench", benchlib.make_document(10, args.rows))
        conn.close()
        subscribers, selector = livebench.connect_all(server.port, f"/lists/bench/events?view={args.view}&limit=50", 1)
        writer = livebench.Writer(server.port, "bench")
        arrival, seen, ack, missing = [], [], [], 0
        for write in range(args.writes):
            row = write % 50
            result = livebench.measure_write(selector, subscribers, writer, f"r{row}", row, timeout=10)
            arrival += result["arrival"]
            seen += result["seen"]
            ack.append(result["ack"])
            missing += result["missing"] + result["wrong"]
        livebench.close_all(subscribers, selector)
    p = benchlib.percentile
    benchlib.log(f"   delivered {len(arrival)}/{args.writes}" + (f", {missing} missing or wrong" if missing else ""))
    for name, values in (("arrival", arrival), ("seen", seen), ("write answered", ack)):
        benchlib.log(f"   {name:15} p50 {benchlib.ms(p(values, .5))}  p99 {benchlib.ms(p(values, .99))}  "
                     f"max {benchlib.ms(max(values))}")
    benchlib.log(f"   target: arrival p50 < 5 ms.  end: {benchlib.uptime()}")


if __name__ == "__main__":
    main()
