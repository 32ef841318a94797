# Shared helpers for integration tests: source it, call start_server, use check/http, end with finish.
# Needs LIST_SERVER_BIN (the server binary) and LIST_SERVER_ROOT (the package root); scripts/integration
# sets both. Each test starts its own server on port 0 with an in-memory store.
set -uo pipefail

: "${LIST_SERVER_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${LIST_SERVER_BIN:=$(cd "$LIST_SERVER_ROOT" && swift build --show-bin-path)/list-server}"
TEST_TMP=$(mktemp -d)
SERVER_PID=""
BASE_URL=""
PORT=""
FAILURES=0
CHECKS=0

cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
    fi
    rm -rf "$TEST_TMP"
}
trap cleanup EXIT

# start_server [flags...]: starts the server (--port 0 --db :memory: plus flags), waits for the
# ready line and sets BASE_URL ("http://127.0.0.1:PORT"), PORT, SERVER_PID, SERVER_LOG.
start_server() {
    SERVER_COUNT=$((${SERVER_COUNT:-0} + 1))
    SERVER_LOG="$TEST_TMP/server-$SERVER_COUNT.log"  # a fresh file: never read an earlier server's lines
    : >"$SERVER_LOG"
    "$LIST_SERVER_BIN" --port 0 --db :memory: "$@" 2>"$SERVER_LOG" >/dev/null &
    SERVER_PID=$!
    for _ in $(seq 1 200); do
        BASE_URL=$(sed -n 's/.*ready at \(http:\/\/[^ ]*\)\/$/\1/p' "$SERVER_LOG" | head -1)
        [ -n "$BASE_URL" ] && break
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "server exited before it was ready:"; cat "$SERVER_LOG"; exit 1
        fi
        sleep 0.05
    done
    [ -n "$BASE_URL" ] || { echo "no ready line in 10 s:"; cat "$SERVER_LOG"; exit 1; }
    PORT=${BASE_URL##*:}
}

# stop_server [SIGNAL]: signals the server (TERM by default) and sets STOP_STATUS to its exit status.
stop_server() {
    kill -"${1:-TERM}" "$SERVER_PID"
    STOP_STATUS=0
    wait "$SERVER_PID" || STOP_STATUS=$?
    SERVER_PID=""
}

# http METHOD PATH [curl args...]: sets STATUS, BODY and HEADERS (lowercased names) of the answer.
http() {
    local method=$1 path=$2
    shift 2
    rm -f "$TEST_TMP/body" "$TEST_TMP/headers"
    BODY=$(curl -s --path-as-is -X "$method" -D "$TEST_TMP/headers" -o "$TEST_TMP/body" -w '%{http_code}' "$@" "$BASE_URL$path" \
        ; echo)
    STATUS=${BODY%$'\n'}
    BODY=$(cat "$TEST_TMP/body" 2>/dev/null)
    HEADERS=$(tr -d '\r' <"$TEST_TMP/headers" | sed 's/^\([^:]*\):/\L\1:/')
}

# header NAME: the value of a response header from the last http call ("" if absent).
header() {
    printf '%s\n' "$HEADERS" | sed -n "s/^$1: //p" | tail -1
}

# raw_request BYTES: sends BYTES (printf format) over a plain TCP connection; sets RAW to the
# reply (empty if the server just closed the connection).
raw_request() {
    exec 3<>"/dev/tcp/127.0.0.1/$PORT"
    printf "$1" >&3
    RAW=$(timeout 5 cat <&3 | tr -d '\r')
    exec 3<&- 3>&-
}

# check DESCRIPTION COMMAND...: runs the command as a condition and records the outcome.
check() {
    local description=$1
    shift
    CHECKS=$((CHECKS + 1))
    if "$@"; then
        echo "ok   $description"
    else
        FAILURES=$((FAILURES + 1))
        echo "FAIL $description"
    fi
}

eq() { [ "$1" = "$2" ] || { echo "     expected [$2], got [$1]"; return 1; }; }
contains() { [[ "$1" == *"$2"* ]] || { echo "     [$2] not in [${1:0:300}]"; return 1; }; }
lacks() { [[ "$1" != *"$2"* ]] || { echo "     [$2] found in [${1:0:300}]"; return 1; }; }

# finish: prints the summary and exits non-zero if any check failed.
finish() {
    echo "$((CHECKS - FAILURES)) of $CHECKS checks passed"
    [ "$FAILURES" -eq 0 ]
}
