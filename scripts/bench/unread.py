#!/usr/bin/env python3
"""Memory of subscribers that never read (issue 17): N `view=json` subscribers of a large list
connect with a small receive buffer and read nothing while writes go on; the server's VmRSS
before, after they connected, after the writes, and per subscriber.

    scripts/bench/unread.py [--subscribers 100] [--rows 3000] [--writes 20] [--bin PATH] [--vs LABEL=BIN]...

Each binary runs in turn, `--rounds` times, interleaved (A B A B). The list is 10 sections x ROWS
rows x 4 columns (3000: about 3.9 MB of JSON), so each subscriber's first event (the whole
document) is that large; the writes replace one row each. Before shared buffers, every reset
was a copy of the document per subscriber, held while it could not be sent.
"""
import argparse
import socket
import time

import benchlib


def run(binary, label, args):
    with benchlib.Server(binary, ["--max-subscribers", "20000"]) as server:
        conn = server.connection()
        _, size = benchlib.put_list(conn, "big", benchlib.make_document(10, args.rows))
        time.sleep(0.5)
        rss_before = server.rss_kib()
        sockets = []
        for _ in range(args.subscribers):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(f"GET /lists/big/events?view=json HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Accept: text/event-stream\r\n\r\n".encode())
            sockets.append(sock)
        time.sleep(2)
        rss_connected = server.rss_kib()
        for write in range(args.writes):
            row = write % (10 * args.rows)
            body = benchlib.json.dumps(benchlib.make_row(f"r{row}", row, f"write {write}")).encode()
            status, _, _ = benchlib.request(conn, "PUT", f"/lists/big/rows/r{row}", body, {"Content-Type": "application/json"})
            benchlib.expect(status, (200,), "row replace")
        time.sleep(2)
        rss_writes = server.rss_kib()
        for sock in sockets:
            sock.close()
        conn.close()
        per = (rss_writes - rss_before) / max(1, args.subscribers)
        benchlib.log(f"   {label}: list {size / 1e6:.1f} MB; VmRSS {rss_before / 1024:.0f} MiB -> {rss_connected / 1024:.0f} MiB "
                     f"with {args.subscribers} unread subscribers -> {rss_writes / 1024:.0f} MiB after {args.writes} writes: "
                     f"{per:.0f} KiB per subscriber")
        return per


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscribers", type=int, default=100)
    parser.add_argument("--rows", type=int, default=3000, help="rows per section (10 sections)")
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    parser.add_argument("--vs", action="append", default=[], metavar="LABEL=BIN")
    args = parser.parse_args()
    binaries = [("this", args.bin)] + [tuple(item.split("=", 1)) for item in args.vs]
    benchlib.header(f"unread subscribers: {args.subscribers} view=json, 10 x {args.rows} rows, {args.writes} writes")
    results = {label: [] for label, _ in binaries}
    for _ in range(args.rounds):
        for label, binary in binaries:
            results[label].append(run(binary, label, args))
    for label, values in results.items():
        benchlib.log(f"== {label}: median {benchlib.median(values):.0f} KiB per unread subscriber ({', '.join(f'{v:.0f}' for v in values)})")
    benchlib.log(f"   end: {benchlib.uptime()}")


if __name__ == "__main__":
    main()
