#!/usr/bin/env bash
# SIGTERM while Server-Sent Event streams are open: the streams end, the server exits 0.
# Until the events endpoint exists this test says so and passes.
source "$(dirname "$0")/lib.sh"
start_server

http PUT /lists/shutdown -H 'Content-Type: application/json' \
    --data '{"title":"Shutdown","sections":[{"key":"s","rows":[{"key":"a","cells":{"text":"A"}}]}]}'
check "a list is created ($STATUS)" eval '[[ "$STATUS" == 200 || "$STATUS" == 201 ]]'

probe=$(curl -s -o /dev/null -w '%{http_code}' -X HEAD --max-time 2 "$BASE_URL/lists/shutdown/events?view=json")
if [ "$probe" = 404 ] || [ "$probe" = 405 ]; then
    echo "SKIP no events endpoint yet ($probe): shutdown with open streams is covered by the Swift live tests"
    stop_server
    check "SIGTERM exits 0" eq "$STOP_STATUS" 0
    finish
    exit $?
fi

streams=()
for n in 1 2 3; do
    curl -sN -H 'Accept: text/event-stream' "$BASE_URL/lists/shutdown/events?view=json" >"$TEST_TMP/stream$n" 2>/dev/null &
    streams+=($!)
done
for _ in $(seq 1 100); do
    [ "$(grep -l 'event: reset' "$TEST_TMP"/stream* 2>/dev/null | wc -l)" -eq 3 ] && break
    sleep 0.05
done
check "three streams got their reset event" eq "$(grep -l 'event: reset' "$TEST_TMP"/stream* | wc -l)" 3
http GET /metrics
check "metrics count the open streams" contains "$BODY" "list_server_open_streams 3"

stop_server
check "SIGTERM with open streams exits 0" eq "$STOP_STATUS" 0
check "the shutdown names the open streams" contains "$(cat "$SERVER_LOG")" "shutting down (3 open streams)"
check "stop is logged" contains "$(cat "$SERVER_LOG")" "list-server stopped"
ended=0
for pid in "${streams[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null || ended=$((ended + 1))
done
check "every client saw its stream end" eq "$ended" 3
check "no libmicrohttpd panic" lacks "$(cat "$SERVER_LOG")" "Fatal error"
finish
