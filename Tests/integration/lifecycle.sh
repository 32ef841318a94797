#!/usr/bin/env bash
# Start-up refusals, the ready line, --help, and clean shutdown on SIGTERM and SIGINT.
source "$(dirname "$0")/lib.sh"

status=0
output=$(LIST_SERVER_TOKEN= timeout 10 "$LIST_SERVER_BIN" --host 0.0.0.0 --port 0 --db :memory: 2>&1) || status=$?
check "0.0.0.0 without a token refuses to start" eval '[ "$status" -ne 0 ]'
check "the refusal says why" contains "$output" "no token"

output=$("$LIST_SERVER_BIN" --write-timeout 0 2>&1)
check "--write-timeout 0 is refused, saying why" contains "$output" "--write-timeout must be in"

output=$("$LIST_SERVER_BIN" --help 2>&1)
for flag in --host --port --db --token --public --demo --max-body --write-timeout; do
    check "--help mentions $flag" contains "$output" "$flag"
done

LIST_SERVER_TOKEN=secret start_server --host 0.0.0.0
check "0.0.0.0 with a token from the environment starts" contains "$BASE_URL" "http://0.0.0.0:"
http GET /healthz
check "and serves" eq "$STATUS" 200
stop_server
check "SIGTERM exits 0" eq "$STOP_STATUS" 0
check "shutdown is logged" contains "$(cat "$SERVER_LOG")" "received SIGTERM, shutting down"
check "stop is logged" contains "$(cat "$SERVER_LOG")" "list-server stopped"

start_server --token secret
check "ready line names the real port" eval '[[ "$PORT" =~ ^[0-9]+$ && "$PORT" -gt 0 ]]'
taken=$PORT
status=0
output=$(timeout 10 "$LIST_SERVER_BIN" --port "$taken" --db :memory: 2>&1) || status=$?
check "a port in use is an error" eval '[ "$status" -ne 0 ]'
check "the error names the address" contains "$output" "cannot listen on"
check "info lines are logged by default" contains "$output" "static files:"
status=0
output=$(timeout 10 "$LIST_SERVER_BIN" --port "$taken" --db :memory: --log-level warning 2>&1) || status=$?
check "--log-level warning still logs the error, with its level" contains "$output" "error: cannot listen on"
check "--log-level warning leaves out info lines" lacks "$output" "static files:"
status=0
output=$(timeout 10 "$LIST_SERVER_BIN" --port 0 --db :memory: --log-level verbose 2>&1) || status=$?
check "an unknown --log-level is refused" eq "$status" 64
check "the refusal names the levels" contains "$output" "debug, info, warning, error"
stop_server INT
check "SIGINT exits 0" eq "$STOP_STATUS" 0
check "SIGINT is logged" contains "$(cat "$SERVER_LOG")" "received SIGINT"
finish
