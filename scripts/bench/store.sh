#!/usr/bin/env bash
# Commit latency of the SQLite and PostgreSQL stores side by side, bulk creation, and the
# PostgreSQL change feed's delay (Benchmarks/store-bench). Starts a private PostgreSQL with
# durable settings (fsync on), removed at the end.
#   scripts/bench/store.sh [writes] [rows]
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps
swift build -c release --product store-bench
dir=/tmp/list-server-bench-pg-$$
tmp=$(mktemp -d)
trap 'scripts/pg-cluster destroy "$dir"; rm -rf "$tmp"' EXIT
url=$(scripts/pg-cluster start "$dir" --owner $$)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$(swift build -c release --show-bin-path)/store-bench" "$url" "$tmp/bench.sqlite" "$@"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
