#!/usr/bin/env bash
# Runs every server benchmark in turn (about 25 minutes on a loaded 2-core machine) and keeps the
# output: scripts/bench/all.sh [log file]   (default /tmp/list-server-bench-<time>.txt)
# Build first: swift build -c release --product list-server  (or set LIST_SERVER_BIN).
set -euo pipefail
cd "$(dirname "$0")"
../install-deps wrk  # deep.py and pages.sh drive the server with wrk
log=${1:-/tmp/list-server-bench-$(date -u +%Y%m%dT%H%M%SZ).txt}
{
    echo "commit $(git rev-parse --short HEAD)"
    ./pages.sh 10 3
    python3 deep.py
    python3 latency.py
    python3 latency.py --rows 5
    python3 fanout.py
    python3 fanout_instances.py
} 2>&1 | tee "$log"
echo "output kept in $log"
