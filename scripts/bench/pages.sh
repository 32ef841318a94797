#!/usr/bin/env bash
# GET /lists/{id} first HTML page (50 rows) from list-server next to nginx serving the same bytes as
# a static file, in one run, rounds interleaved so that the machine's load hits both alike.
#   scripts/bench/pages.sh [seconds per wrk run] [rounds]      (defaults 10 and 3)
# The list: 10 sections x 1,000 rows x 4 columns (PUT). For context: GET /lists/{id} as JSON (the
# whole 10,000-row document), GET /healthz, and the page bytes as a static file served by
# list-server itself (/assets/: its HTTP layer without rendering). wrk -t1 -c64 --timeout 10s on
# loopback; nginx runs by hand, not as a service, from a config under a temp directory, with
# worker_processes auto (the server uses one thread per core too); "nginx+ofc" adds open_file_cache.
# Besides req/s, each run prints the serving processes' CPU time per request (utime + stime from
# /proc, list-server's one process or nginx's master and workers, over wrk's request count): wrk
# shares the 2 cores, so req/s ratios swing between rounds while CPU per request holds steadier.
# Binary: $LIST_SERVER_BIN or .build/release/list-server (built when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-3}
scripts/install-deps wrk  # wrk is only for the benchmarks; nginx, curl and python3 are always installed
bin=${LIST_SERVER_BIN:-.build/release/list-server}
[ -x "$bin" ] || swift build -c release --product list-server >/dev/null

work=$(mktemp -d /tmp/list-bench-pages.XXXXXX)
server="" nginx_pid=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"  # nginx workers run as nobody

echo "== pages: list-server vs nginx, wrk -t1 -c64 -d${seconds}s, $rounds rounds"
echo "   $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(uptime)"

mkdir -p "$work/www"
"$bin" --port 0 --db :memory: --quiet --public "$work/www" 2>"$work/server.log" &
server=$!
for _ in $(seq 1 300); do grep -q "ready at" "$work/server.log" && break; sleep 0.1; done
url=$(sed -n 's/.*ready at \(http:[^ ]*\)$/\1/p' "$work/server.log")
port=${url##*:}; port=${port%/}

PYTHONPATH=scripts/bench python3 - "$port" <<'EOF'
import sys, benchlib
conn = benchlib.http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=600)
seconds, size = benchlib.put_list(conn, "bench", benchlib.make_document(10, 1000))
print(f"   PUT /lists/bench: 10 x 1,000 rows x 4 columns, {size} bytes of JSON, {seconds * 1000:.0f} ms")
EOF

curl -sf "${url}lists/bench" -o "$work/www/page.html"
curl -sf -H 'Accept: application/json' "${url}lists/bench" -o "$work/doc.json"
echo "   first page: $(wc -c <"$work/www/page.html") bytes of HTML; JSON document: $(wc -c <"$work/doc.json") bytes"

nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes auto;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types { text/html html; }
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$nginx_port;
        location /plain/ { alias $work/www/; }
        location /cached/ {
            alias $work/www/;
            open_file_cache max=16 inactive=60s;
            open_file_cache_valid 60s;
        }
    }
}
EOF
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" 2>"$work/nginx/stderr" &
nginx_pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$nginx_port/plain/page.html" -o "$work/nginx.html" && break; sleep 0.1; done
cmp -s "$work/www/page.html" "$work/nginx.html" || { echo "nginx does not serve the same bytes" >&2; exit 1; }

# cpu_ticks PID: utime + stime of PID and its children (nginx's workers), in clock ticks.
cpu_ticks() {
    local total=0 pid
    for pid in "$1" $(pgrep -P "$1"); do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}
ticks_per_second=$(getconf CLK_TCK)

# wrk_rps NAME PID URL [header]: one wrk run; appends "NAME rps cpu-µs-per-request" (PID: the
# serving process) to results, fails on errors or non-2xx.
results="$work/results"
wrk_rps() {
    local name=$1 pid=$2 target=$3 out before after
    before=$(cpu_ticks "$pid")
    if [ $# -gt 3 ]; then out=$(wrk -t1 -c64 -d"${seconds}s" --timeout 10s -H "$4" "$target"); else out=$(wrk -t1 -c64 -d"${seconds}s" --timeout 10s "$target"); fi
    after=$(cpu_ticks "$pid")
    if grep -qE "Non-2xx|Socket errors" <<<"$out"; then echo "$out" >&2; echo "wrk saw errors on $name" >&2; exit 1; fi
    local rps requests us
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    us=$(awk -v t=$((after - before)) -v hz="$ticks_per_second" -v n="$requests" 'BEGIN {printf "%.2f", t / hz * 1e6 / n}')
    echo "$name $rps $us" >>"$results"
    printf '   %-28s %10s req/s %8s µs CPU per request\n' "$name" "$rps" "$us"
}

for round in $(seq 1 "$rounds"); do
    echo "-- round $round: $(uptime | sed 's/.*load/load/')"
    wrk_rps "list-server-html" "$server" "${url}lists/bench"
    wrk_rps "nginx" "$nginx_pid" "http://127.0.0.1:$nginx_port/plain/page.html"
    wrk_rps "nginx+ofc" "$nginx_pid" "http://127.0.0.1:$nginx_port/cached/page.html"
    wrk_rps "list-server-static" "$server" "${url}assets/page.html"
    wrk_rps "list-server-json" "$server" "${url}lists/bench" "Accept: application/json"
    wrk_rps "list-server-healthz" "$server" "${url}healthz"
done

python3 - "$results" <<'EOF'
import sys, statistics
runs, cpu = {}, {}
for line in open(sys.argv[1]):
    name, rps, us = line.split()
    runs.setdefault(name, []).append(float(rps))
    cpu.setdefault(name, []).append(float(us))
print("== medians over rounds (req/s; CPU per request of the serving processes)")
for name, values in runs.items():
    print(f"   {name:28} {statistics.median(values):10.0f}   (runs: {', '.join(f'{v:.0f}' for v in values)})"
          f"   {statistics.median(cpu[name]):6.2f} µs CPU per request")
html = runs["list-server-html"]
for base in ("nginx", "nginx+ofc"):
    ratios = [a / b for a, b in zip(html, runs[base])]
    print(f"   list-server HTML / {base:10} median ratio {statistics.median(ratios):.2f}x"
          f"   (per round: {', '.join(f'{r:.2f}' for r in ratios)}; target >= 0.8x)")
    cpu_ratios = [b / a for a, b in zip(cpu["list-server-html"], cpu[base])]
    print(f"   CPU per request, {base:10} / list-server HTML: median {statistics.median(cpu_ratios):.2f}x"
          f"   (per round: {', '.join(f'{r:.2f}' for r in cpu_ratios)}; 1.0x: as little CPU per page as nginx)")
EOF
echo "   end: $(uptime)"
