#!/usr/bin/env python3
"""Deep pages and write cost against list size.

    scripts/bench/deep.py [--sizes 10000,100000,1000000] [--samples 7] [--requests 300] [--wrk 5] [--bin PATH] [--writes-only]

One server (`--max-body 512 MiB`) gets one list per size (10 sections, 4 columns) by PUT.
Write cost, per size: a row replace (middle row), a row delete (near the end) and a row append
(end of the last section), each timed from request to answer, median of `--samples`; all go
through the row-edit path (edit, order keys and patch made directly, store commit of the touched
rows, publish). `--writes-only` stops after the write costs.
Pages, on the largest list: a walk over every page with limit=500 (per-page time against depth),
then `GET /lists/{id}/rows?limit=50` against `...?after=<cursor 500 rows before the end>&limit=50`,
JSON and HTML, interleaved on one keep-alive connection (medians of `--requests`), and with
`wrk -t1 -c64` in interleaved rounds. Target (docs/BENCHMARKS.md): a deep page costs about the first.
"""
import argparse
import subprocess
import time
import urllib.parse

import benchlib


def timed(conn, method, path, body=None, headers=None, wanted=(200,)):
    started = time.perf_counter()
    status, response_headers, data = benchlib.request(conn, method, path, body, headers)
    elapsed = time.perf_counter() - started
    benchlib.expect(status, wanted, f"{method} {path}: {data[:200]!r}")
    return elapsed, response_headers, data


def write_costs(conn, list_id, size, samples):
    """Median seconds of replace, delete and append on a list of `size` rows (count stays <= size)."""
    costs = {"replace": [], "delete": [], "append": []}
    middle = size // 2
    for i in range(samples):
        elapsed, _, _ = timed(conn, "PUT", f"/lists/{list_id}/rows/r{middle}",
                              benchlib.make_row(f"r{middle}", middle, f"replaced {i}"))
        costs["replace"].append(elapsed)
        victim = size - 1 - i
        elapsed, _, _ = timed(conn, "DELETE", f"/lists/{list_id}/rows/r{victim}", wanted=(204,))
        costs["delete"].append(elapsed)
        elapsed, _, _ = timed(conn, "POST", f"/lists/{list_id}/sections/s9/rows",
                              [benchlib.make_row(f"a{i}", size + i, "appended")], wanted=(200, 201))
        costs["append"].append(elapsed)
    return costs


def walk(conn, list_id, size):
    """Every page with limit=500: returns (per-page seconds, the cursor 500 rows before the end)."""
    times, cursor, deep = [], None, None
    delivered = 0
    while True:
        path = f"/lists/{list_id}/rows?limit=500" + (f"&after={urllib.parse.quote(cursor, safe='')}" if cursor else "")
        elapsed, _, data = timed(conn, "GET", path, headers={"Accept": "application/json"})
        times.append(elapsed)
        page = benchlib.json.loads(data)
        delivered += sum(len(section["rows"]) for section in page["sections"])
        cursor = page["next"]
        if delivered == size - 500:
            deep = cursor
        if cursor is None:
            break
    if delivered != size:
        raise RuntimeError(f"the walk delivered {delivered} rows of {size}")
    return times, deep


def wrk(url, seconds, accept):
    out = subprocess.run(["wrk", "-t1", "-c64", f"-d{seconds}s", "-H", f"Accept: {accept}", url],
                         capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise RuntimeError("wrk saw errors:\n" + out)
    return float(next(line.split()[1] for line in out.splitlines() if line.startswith("Requests/sec")))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--wrk", type=int, default=5, help="seconds per wrk run (0: skip wrk)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bin", help="list-server binary (default $LIST_SERVER_BIN or .build/release)")
    parser.add_argument("--writes-only", action="store_true", help="skip the page walk and the page timings")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.wrk and not args.writes_only:
        subprocess.run([f"{benchlib.REPO}/scripts/install-deps", "wrk"], check=True)  # only if missing
    benchlib.header(f"deep pages and write cost; sizes {sizes}")
    ms = benchlib.ms
    med = benchlib.median
    with benchlib.Server(args.bin, ["--max-body", str(512 << 20)]) as server:
        conn = server.connection()
        write_rows = []
        for size in sizes:
            list_id = f"rows{size}"
            document = benchlib.make_document(10, size // 10, title=f"{size} rows")
            rss = server.rss_kib()
            seconds, body = benchlib.put_list(conn, list_id, document)
            del document
            benchlib.log(f"-- {size} rows: PUT {body / 1e6:.1f} MB in {seconds:.2f} s; server VmRSS "
                         f"{rss / 1024:.0f} -> {server.rss_kib() / 1024:.0f} MiB; {benchlib.uptime()}")
            costs = write_costs(conn, list_id, size, args.samples)
            write_rows.append((size, costs))
            benchlib.log("   " + "; ".join(f"{name} median {ms(med(values))} (min {ms(min(values))})"
                                           for name, values in costs.items()))
        if args.writes_only:
            write_table(write_rows, args.samples)
            return
        size = sizes[-1]
        list_id = f"rows{size}"
        # The writes above deleted the last `samples` rows and appended as many: still `size` rows.
        started = time.perf_counter()
        times, deep = walk(conn, list_id, size)
        tenth = max(1, len(times) // 10)
        benchlib.log(f"-- walk of {size} rows, {len(times)} pages of 500 in {time.perf_counter() - started:.1f} s: "
                     f"median page {ms(med(times))}; first tenth {ms(med(times[:tenth]))}, "
                     f"last tenth {ms(med(times[-tenth:]))}; {benchlib.uptime()}")
        after = urllib.parse.quote(deep, safe="")
        paths = {
            "first JSON": (f"/lists/{list_id}/rows?limit=50", "application/json"),
            "deep JSON": (f"/lists/{list_id}/rows?after={after}&limit=50", "application/json"),
            "first HTML": (f"/lists/{list_id}/rows?limit=50", "text/html"),
            "deep HTML": (f"/lists/{list_id}/rows?after={after}&limit=50", "text/html"),
            "page /lists/{id}": (f"/lists/{list_id}", "text/html"),
            "page ?after=deep": (f"/lists/{list_id}?after={after}", "text/html"),
        }
        samples = {name: [] for name in paths}
        sizes_seen = {}
        for _ in range(args.requests):
            for name, (path, accept) in paths.items():
                elapsed, _, data = timed(conn, "GET", path, headers={"Accept": accept})
                samples[name].append(elapsed)
                sizes_seen[name] = len(data)
        benchlib.log(f"-- {args.requests} interleaved requests each on one keep-alive connection:")
        for name, values in samples.items():
            benchlib.log(f"   {name:18} median {ms(med(values))}  p90 {ms(benchlib.percentile(values, .9))}  "
                         f"({sizes_seen[name]} bytes)")
        for kind in ("JSON", "HTML"):
            ratio = med(samples[f"deep {kind}"]) / med(samples[f"first {kind}"])
            benchlib.log(f"   deep/first {kind}: {ratio:.2f}x (target: about 1)")
        if args.wrk:
            base = f"http://127.0.0.1:{server.port}"
            rates = {"first JSON": [], "deep JSON": []}
            for round_number in range(args.rounds):
                for name in rates:
                    path, accept = paths[name]
                    rates[name].append(wrk(base + path, args.wrk, accept))
                benchlib.log(f"   wrk round {round_number + 1}: " + ", ".join(
                    f"{name} {values[-1]:.0f} req/s" for name, values in rates.items()) + f"; {benchlib.uptime()}")
            ratios = [d / f for d, f in zip(rates["deep JSON"], rates["first JSON"])]
            benchlib.log(f"   wrk -t1 -c64 medians: first {med(rates['first JSON']):.0f} req/s, deep "
                         f"{med(rates['deep JSON']):.0f} req/s; deep/first {med(ratios):.2f}x")
        write_table(write_rows, args.samples)


def write_table(write_rows, samples):
    benchlib.log("== write cost by list size (median of %d, ms)" % samples)
    benchlib.log("   rows        replace    delete    append")
    for size, costs in write_rows:
        benchlib.log(f"   {size:>9}  " + "  ".join(f"{benchlib.median(costs[n]) * 1000:8.2f}" for n in ("replace", "delete", "append")))
    benchlib.log(f"   end: {benchlib.uptime()}")


if __name__ == "__main__":
    main()
