#!/usr/bin/env bash
# Scoped access (docs/ACCESS.md): what the checks cost on the read path. One release server with
# --private and a tokens file of 1,000 tokens (a token's check compares against all of them), a
# 50-row list; wrk -t1 -c64 on the first HTML page (the cached, prepared answer), rounds
# interleaved: with a bearer token, with a view link (such pages are rendered per request: their
# "Load more" link carries the key), and, from a second, public server on the same list, with
# no credential (reads there check nothing). Prints requests/s per round and the medians.
#   scripts/bench/access.sh [rounds] [seconds]       (defaults 5 and 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
seconds=${2:-5}
scripts/install-deps wrk  # only what is missing
bin=${LIST_SERVER_BIN:-.build/release/list-server}
[ -x "$bin" ] || swift build -c release --product list-server >/dev/null

work=$(mktemp -d /tmp/list-bench-access.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
for n in $(seq 1 1000); do echo "bench-token-$n-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n') read:list-$n"; done >"$work/tokens"
echo "bench-reader-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n') read:*" >>"$work/tokens"
reader=$(tail -1 "$work/tokens" | cut -d' ' -f1)
start() {  # start LOG FLAGS...: sets BASE to the server's base URL (no subshell: the pid must stay in pids)
    local log=$1; shift
    "$bin" --port 0 --db :memory: --quiet --token bench-master-token "$@" 2>"$log" >/dev/null &
    pids+=($!)
    BASE=""
    for _ in $(seq 1 600); do
        BASE=$(sed -n 's/.*ready at \(http:\/\/[^ ]*\)\/$/\1/p' "$log" | head -1)
        [ -n "$BASE" ] && return
        sleep 0.1
    done
    echo "no ready line" >&2; exit 1
}
start "$work/private.log" --private --tokens "$work/tokens"; private=$BASE
start "$work/public.log"; public=$BASE
doc=$(python3 -c 'import json; print(json.dumps({"title": "Bench", "sections": [{"key": "s", "rows": [{"key": f"r{i}", "cells": {"text": f"Row {i}"}} for i in range(50)]}]}))')
for base in "$private" "$public"; do
    curl -sf -o /dev/null -X PUT "$base/lists/bench" -H 'Authorization: Bearer bench-master-token' -H 'Content-Type: application/json' -d "$doc"
done
url=$(curl -sf -X POST "$private/lists/bench/links" -H 'Authorization: Bearer bench-master-token' | sed -n 's/.*"url":"\([^"]*\)".*/\1/p')

declare -A results
run() {  # run NAME URL [wrk args]
    local name=$1 target=$2; shift 2
    local rps; rps=$(wrk -t1 -c64 -d"${seconds}s" "$@" "$target" | awk '/Requests\/sec/ {print $2}')
    results[$name]+="$rps "
    echo "round $round $name: $rps requests/s"
}
for round in $(seq 1 "$rounds"); do
    run "public, no credential" "$public/lists/bench"
    run "private, bearer (1,001 tokens)" "$private/lists/bench" -H "Authorization: Bearer $reader"
    run "private, view link" "$private$url"
done
echo "medians over $rounds rounds of ${seconds}s (load: $(cut -d' ' -f1-3 /proc/loadavg)):"
for name in "public, no credential" "private, bearer (1,001 tokens)" "private, view link"; do
    median=$(tr ' ' '\n' <<<"${results[$name]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "  $name: $median requests/s"
done
