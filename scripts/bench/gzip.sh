#!/usr/bin/env bash
# gzip (API.md section 2): bytes saved on each kind of answer, and what compressing costs.
#   scripts/bench/gzip.sh [rounds]        (default 7)
# 1. Sizes: the server's own answers with and without Accept-Encoding: gzip (demo lists; the
#    document is the 10,000-row `numbers` list).
# 2. CPU: list-bench gzip compresses those identity answers with the server's Gzip.compress at
#    levels 1, 6 (the server's) and 9 (median thread-CPU time).
# 3. Per version, end to end: after a write, the first gzip GET of the document compresses it (and
#    keeps it); the next gzip GETs send the kept bytes. curl's time_total of first, next and an
#    identity GET, rounds interleaved; medians.
# Binaries: $LIST_SERVER_BIN or .build/release/list-server, and .build/release/list-bench (built
# when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-7}
bin=${LIST_SERVER_BIN:-.build/release/list-server}
[ -x "$bin" ] || swift build -c release --product list-server >/dev/null
[ -x .build/release/list-bench ] || swift build -c release --product list-bench >/dev/null

work=$(mktemp -d /tmp/list-bench-gzip.XXXXXX)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$bin" --port 0 --db :memory: --demo --quiet 2>"$work/log" >/dev/null &
server=$!
for _ in $(seq 1 600); do
    base=$(sed -n 's/.*ready at \(http:\/\/[^ ]*\)\/$/\1/p' "$work/log" | head -1)
    [ -n "$base" ] && break
    sleep 0.1
done
[ -n "$base" ] || { echo "no ready line"; cat "$work/log"; exit 1; }
uptime

mkdir "$work/answers"
fetch() { curl -s -o "$work/answers/$1" "${@:3}" "$base$2"; curl -s -o "$work/$1.gz" -H 'Accept-Encoding: gzip' "${@:3}" "$base$2"; }
fetch page.html /lists/numbers
fetch document.json /lists/numbers -H 'Accept: application/json'
fetch rows.json "/lists/numbers/rows?limit=50"
fetch rows.html "/lists/numbers/rows?limit=50" -H 'Accept: text/html'
fetch openapi.json /openapi.json
fetch main.js /assets/js/main.js
fetch list.css /assets/list.css
echo
echo "1. sizes (bytes on the wire)"
printf '%-16s %10s %10s %8s\n' answer identity gzip saved
for file in page.html document.json rows.json rows.html openapi.json main.js list.css; do
    plain=$(stat -c %s "$work/answers/$file")
    packed=$(stat -c %s "$work/$file.gz")
    printf '%-16s %10d %10d %7.1f%%\n' "$file" "$plain" "$packed" "$(echo "100 - 100 * $packed / $plain" | bc -l)"
done

echo
echo "2. CPU of Gzip.compress (list-bench gzip, median thread-CPU)"
GZIP_BENCH_DIR="$work/answers" .build/release/list-bench gzip | sed 1d

echo
echo "3. GET of the 10,000-row document per version: first gzip GET (compresses), next gzip GET (kept), identity GET"
times() { curl -s -o /dev/null -w '%{time_total}\n' "$@"; }
for round in $(seq 1 "$rounds"); do
    curl -s -o /dev/null -X PUT -H 'Content-Type: application/json' \
        --data "{\"cells\": {\"n\": $round, \"square\": 1, \"words\": \"round $round\"}}" "$base/lists/numbers/rows/n1"
    times -H 'Accept: application/json' "$base/lists/numbers" >>"$work/identity-first"  # serializes the version
    times -H 'Accept: application/json' -H 'Accept-Encoding: gzip' "$base/lists/numbers" >>"$work/first"
    times -H 'Accept: application/json' -H 'Accept-Encoding: gzip' "$base/lists/numbers" >>"$work/next"
    times -H 'Accept: application/json' "$base/lists/numbers" >>"$work/identity"
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {printf "%.2f ms", a[int((NR+1)/2)]*1000}'; }
echo "first gzip GET: $(median "$work/first")   next gzip GET: $(median "$work/next")   identity GET: $(median "$work/identity")   ($rounds rounds, curl on loopback)"
uptime
