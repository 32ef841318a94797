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
    if [ -n "${PG_DIR:-}" ]; then "$LIST_SERVER_ROOT/scripts/pg-cluster" destroy "$PG_DIR"; fi
    rm -rf "$TEST_TMP"
}
trap cleanup EXIT

# start_postgres: starts a private PostgreSQL (scripts/pg-cluster; stopped at exit) and sets PG_DIR.
# postgres_db NAME: creates database NAME in it and prints its URL (for --db).
start_postgres() {
    PG_DIR=/tmp/list-server-pg-test-$$-$RANDOM
    "$LIST_SERVER_ROOT/scripts/pg-cluster" start "$PG_DIR" --no-fsync --owner $$ >/dev/null
}
postgres_db() { "$LIST_SERVER_ROOT/scripts/pg-cluster" createdb "$PG_DIR" "$1"; }

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

# put_json, post_json PATH JSON [curl args...]: http with an application/json body.
# patch_json PATH PATCH [curl args...]: http PATCH with an application/json-patch+json body.
put_json() { local path=$1 json=$2; shift 2; http PUT "$path" -H 'Content-Type: application/json' --data-binary "$json" "$@"; }
post_json() { local path=$1 json=$2; shift 2; http POST "$path" -H 'Content-Type: application/json' --data-binary "$json" "$@"; }
patch_json() { local path=$1 json=$2; shift 2; http PATCH "$path" -H 'Content-Type: application/json-patch+json' --data-binary "$json" "$@"; }

# json_at POINTER [JSON]: the value at an RFC 6901 pointer in JSON ($BODY by default) as compact
# JSON ("missing" when there is none). json_at "" gives the whole value, re-serialised.
json_at() {
    /usr/bin/python3 -c '
import json, sys
try:
    value = json.loads(sys.argv[2])
except ValueError:
    print("not JSON"); sys.exit(0)
for token in sys.argv[1].split("/")[1:]:
    token = token.replace("~1", "/").replace("~0", "~")
    try:
        value = value[int(token)] if isinstance(value, list) else value[token]
    except (KeyError, IndexError, ValueError, TypeError):
        print("missing"); sys.exit(0)
print(json.dumps(value, separators=(",", ":"), ensure_ascii=False))' "$1" "${2-$BODY}"
}

# is_problem CODE: the last answer has status CODE and an RFC 9457 problem+json body naming it.
is_problem() {
    eq "$STATUS" "$1" && eq "$(header content-type)" "application/problem+json" \
        && eq "$(json_at /status)" "$1" && eq "$(json_at /type)" '"about:blank"' \
        && eval '[ "$(json_at /detail)" != missing ]'
}

# etag_now PATH: the ETag GET PATH answers with (Accept: application/json) without touching
# STATUS, BODY or HEADERS; "none" when the answer has no ETag (e.g. 404).
etag_now() {
    local etag
    etag=$(curl -s --path-as-is -o /dev/null -D - -H 'Accept: application/json' "$BASE_URL$1" \
        | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
    echo "${etag:-none}"
}

# body_now PATH: the JSON body GET PATH answers with, without touching STATUS, BODY or HEADERS.
body_now() { curl -s --path-as-is -H 'Accept: application/json' "$BASE_URL$1"; }

# readme_transcript HEADING: splits the console blocks of the README's "## HEADING" section into
# $TEST_TMP/cmd-N (a `$ ` command with its continuation lines: a trailing backslash or an open
# single quote), expected-N (its output) and background-N (present when it opens /events).
readme_transcript() {
    /usr/bin/python3 - "$LIST_SERVER_ROOT/README.md" "$TEST_TMP" "$1" <<'PY'
import sys
readme, out, heading = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
section = readme.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
count = 0
for block in (part.split("```", 1)[0] for part in section.split("```console\n")[1:]):
    lines, i = block.split("\n"), 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        command = [lines[i][2:]]
        i += 1
        while (command[-1].endswith("\\") or "\n".join(command).count("'") % 2) and i < len(lines):
            command.append(lines[i])
            i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        count += 1
        open(f"{out}/cmd-{count}", "w").write("\n".join(command) + "\n")
        open(f"{out}/expected-{count}", "w").write("\n".join(output).rstrip("\n") + "\n")
        if "/events" in command[0]:
            open(f"{out}/background-{count}", "w").write("")
PY
}
