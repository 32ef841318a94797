#!/usr/bin/env bash
# 401 for every write kind without the right bearer token (reads stay public); the limits:
# 507 past --max-lists, 422 past --max-rows, 503 past --max-subscribers.
source "$(dirname "$0")/lib.sh"
start_server --token s3cret

auth=(-H 'Authorization: Bearer s3cret')
put_json /lists/a '{"title": "A", "sections": [{"key": "s", "rows": [{"key": "r1"}]}]}' "${auth[@]}"
check "PUT with the token is 201" eq "$STATUS" 201

# refused DESCRIPTION: the last answer is a 401 problem with a Bearer challenge, and list a is unchanged.
refused() {
    check "$1 is 401" is_problem 401
    check "$1 has WWW-Authenticate: Bearer" contains "$(header www-authenticate)" "Bearer"
    check "$1 leaves the list at version 1" eq "$(etag_now /lists/a)" '"1"'
}

put_json /lists/a '{"title": "B"}'
refused "PUT without a token"
check "without a token, the challenge has no error" lacks "$(header www-authenticate)" "invalid_token"
put_json /lists/a '{"title": "B"}' -H 'Authorization: Bearer wrong'
refused "PUT with a wrong token"
check "a wrong token's challenge says invalid_token" contains "$(header www-authenticate)" 'error="invalid_token"'
put_json /lists/a '{"title": "B"}' -H 'Authorization: Bearer s3cre'
refused "PUT with a prefix of the token"
put_json /lists/a '{"title": "B"}' -H 'Authorization: Bearer s3cret2'
refused "PUT with the token plus a character"
put_json /lists/a '{"title": "B"}' -H 'Authorization: Basic czNjcmV0'
refused "PUT with Basic auth"
put_json /lists/a '{"title": "B"}' -H 'Authorization: s3cret'
refused "PUT with the bare token"
put_json /lists/b '{"title": "B"}'
check "creating without a token is 401" is_problem 401
check "and creates nothing" eq "$(etag_now /lists/b)" none
patch_json /lists/a '[{"op": "replace", "path": "/title", "value": "B"}]'
refused "PATCH without a token"
http DELETE /lists/a
refused "DELETE without a token"
post_json /lists/a/sections/s/rows '[{"key": "r2"}]' -H 'Authorization: Bearer nope'
refused "POST rows with a wrong token"
put_json /lists/a/rows/r1 '{"cells": {"text": "x"}}'
refused "PUT row without a token"
http DELETE /lists/a/rows/r1
refused "DELETE row without a token"
put_json /lists/a 'not even JSON'
check "auth is checked before the body (401, not 400)" eq "$STATUS" 401

http GET /lists/a -H 'Accept: application/json'
check "GET JSON is public" eq "$STATUS" 200
http GET /lists/a
check "GET HTML is public" eq "$STATUS" 200
http GET /lists/a/rows
check "pages are public" eq "$STATUS" 200
http GET /lists
check "GET /lists is public" eq "$STATUS" 200
http GET /
check "GET / is public" eq "$STATUS" 200
check "events are public" contains "$(curl -s -N --max-time 1 "$BASE_URL/lists/a/events")" "event: reset"

patch_json /lists/a '[{"op": "replace", "path": "/title", "value": "B"}]' -H 'Authorization: bearer s3cret'
check "the scheme name ignores case" eq "$STATUS $(header etag)" '200 "2"'
http DELETE /lists/a "${auth[@]}"
check "DELETE with the token is 204" eq "$STATUS" 204
stop_server

# --- 507: --max-lists ---
start_server --max-lists 1
put_json /lists/one '{"title": "One"}'
check "the first list is created" eq "$STATUS" 201
put_json /lists/two '{"title": "Two"}'
check "a second list is 507" is_problem 507
check "the 507 says the limit" contains "$(json_at /detail)" "limit of 1 list"
check "the 507 created nothing" eq "$(etag_now /lists/two)" none
check "GET /lists still names one list" eq "$(body_now /lists)" '{"lists":[{"id":"one","title":"One","rows":0,"version":1}],"next":null}'
put_json /lists/one '{"title": "One again"}'
check "replacing the one list is still fine" eq "$STATUS $(header etag)" '200 "2"'
http DELETE /lists/one
put_json /lists/two '{"title": "Two"}'
check "after a delete there is room again" eq "$STATUS" 201
stop_server

# --- --max-rows (422) and --max-subscribers (503) ---
start_server --max-rows 3 --max-subscribers 1
put_json /lists/r '{"title": "R", "sections": [{"key": "s", "rows": [{"key": "r1"}, {"key": "r2"}, {"key": "r3"}, {"key": "r4"}]}]}'
check "PUT over --max-rows is 422" is_problem 422
put_json /lists/r '{"title": "R", "sections": [{"key": "s", "rows": [{"key": "r1"}, {"key": "r2"}, {"key": "r3"}]}]}'
check "PUT at --max-rows is fine" eq "$STATUS" 201
post_json /lists/r/sections/s/rows '[{"key": "r4"}]'
check "POST past --max-rows is 422" is_problem 422
patch_json /lists/r '[{"op": "add", "path": "/sections/0/rows/-", "value": {"key": "r4"}}]'
check "PATCH past --max-rows is 422" is_problem 422
check "the refused writes left version 1" eq "$(etag_now /lists/r)" '"1"'
curl -s -N --max-time 30 "$BASE_URL/lists/r/events" >"$TEST_TMP/first-stream" &
stream_pid=$!
for _ in $(seq 50); do [ -s "$TEST_TMP/first-stream" ] && break; sleep 0.1; done
http GET /lists/r/events --max-time 2
check "a stream past --max-subscribers is 503" is_problem 503
check "the 503 has Retry-After" eval '[ -n "$(header retry-after)" ]'
kill "$stream_pid" 2>/dev/null
wait "$stream_pid" 2>/dev/null
# The slot is free as soon as the client hangs up (not at the next heartbeat, 15 s away).
for _ in $(seq 20); do
    http GET /metrics
    [[ "$BODY" == *"list_server_open_streams 0"* ]] && break
    sleep 0.1
done
check "the stream that hung up is gone within 2 s" contains "$BODY" "list_server_open_streams 0"
curl -s -N --max-time 1 "$BASE_URL/lists/r/events" >"$TEST_TMP/second-stream"
check "its slot serves the next subscriber" contains "$(cat "$TEST_TMP/second-stream")" "event: reset"

http GET /healthz
check "still healthy" eq "$STATUS $BODY" "200 ok"
stop_server
check "clean exit" eq "$STOP_STATUS" 0
finish
