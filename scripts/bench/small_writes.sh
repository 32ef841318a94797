#!/usr/bin/env bash
# Small writes at 1k, 100k and 1M rows (issue 12): `list-bench patches-small` in several processes,
# one after another, and per write and size the min / median of the processes' medians, and of
# their 1M / 1k ratios.
#   scripts/bench/small_writes.sh [processes]      (default 5)
# Binary: $LIST_BENCH_BIN or .build/release/list-bench (built when missing). Prints `uptime`
# before and after, since the machine's load moves these numbers.
set -euo pipefail
cd "$(dirname "$0")/../.."
processes=${1:-5}
bin=${LIST_BENCH_BIN:-.build/release/list-bench}
[ -x "$bin" ] || swift build -c release --product list-bench >/dev/null
work=$(mktemp -d /tmp/small-writes.XXXXXX)
trap 'rm -rf "$work"' EXIT
uptime
for run in $(seq 1 "$processes"); do
    "$bin" patches-small >"$work/$run.txt"
done
uptime
python3 - "$work" "$processes" <<'PY'
import re, statistics, sys
work, processes = sys.argv[1], int(sys.argv[2])
table = {}  # write -> list of per-process value lists (ms), last one the ratio
order = []
for run in range(1, processes + 1):
    for line in open(f"{work}/{run}.txt"):
        fields = re.split(r"\s{2,}", line.strip())
        if len(fields) < 3 or not fields[1].endswith(" ms"):
            continue
        name, values = fields[0], [float(f.split()[0]) for f in fields[1:-1]]
        values.append(float(fields[-1].rstrip("x")))
        if name not in table:
            order.append(name)
        table.setdefault(name, []).append(values)
print(f"  min / median of {processes} processes' medians, in microseconds; ratio 1M / 1k")
print(f"  {'write':38}{'1k rows':>20}{'100k rows':>20}{'1M rows':>20}{'1M / 1k':>20}")
for name in order:
    columns = list(zip(*table[name]))
    cells = []
    for index, column in enumerate(columns):
        unit = "x" if index == len(columns) - 1 else ""
        scale, fmt = (1, "{:.2f}") if unit else (1000, "{:.1f}")
        low, middle = min(column) * scale, statistics.median(column) * scale
        cells.append(f"{fmt.format(low)}{unit} / {fmt.format(middle)}{unit}")
    print(f"  {name:38}" + "".join(f"{cell:>20}" for cell in cells))
PY
