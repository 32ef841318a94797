#!/usr/bin/env bash
# CORS (API.md section 2): --cors-origin origins get preflights and CORS headers on every kind of
# answer; other origins get none; without the flag nothing changes.
source "$(dirname "$0")/lib.sh"

APP=https://app.example.com
OTHER=http://localhost:9999
start_server --demo --token secret --cors-origin "$APP" --cors-origin "$OTHER"

# A preflight for a write with every header a client may send.
http OPTIONS /lists/countries -H "Origin: $APP" -H 'Access-Control-Request-Method: PATCH' \
    -H 'Access-Control-Request-Headers: authorization, content-type, if-match'
check "preflight from an allowed origin is 204" eq "$STATUS" 204
check "preflight names the origin" eq "$(header access-control-allow-origin)" "$APP"
for method in GET HEAD PUT POST PATCH DELETE; do
    check "preflight allows $method" contains "$(header access-control-allow-methods)" "$method"
done
for name in Authorization Content-Type If-Match If-None-Match Last-Event-ID; do
    check "preflight allows the header $name" contains "$(header access-control-allow-headers)" "$name"
done
check "preflight has a max age" eq "$(header access-control-max-age)" 600
check "preflight varies on Origin" contains "$(header vary)" Origin
http OPTIONS /lists/countries/rows/it -H "Origin: $OTHER" -H 'Access-Control-Request-Method: DELETE'
check "the second origin is allowed too" eq "$STATUS $(header access-control-allow-origin)" "204 $OTHER"

# Answers of each kind carry the origin and expose the headers a client reads.
expose_ok() { contains "$(header access-control-expose-headers)" "ETag" && contains "$(header access-control-expose-headers)" "Link" \
    && contains "$(header access-control-expose-headers)" "List-Cursor" && contains "$(header access-control-expose-headers)" "Location"; }
for target in /lists/countries "/lists/numbers/rows?limit=2" /lists /openapi.json /assets/js/main.js /healthz /lists/nope; do
    http GET "$target" -H "Origin: $APP" -H 'Accept: application/json'
    check "GET $target: allows the origin" eq "$(header access-control-allow-origin)" "$APP"
    check "GET $target: exposes ETag, Link, List-Cursor, Location" expose_ok
    check "GET $target: varies on Origin" contains "$(header vary)" Origin
done
http GET /lists/countries -H "Origin: $APP" -H 'Accept-Encoding: gzip'
check "a gzip page (a kept variant) allows the origin" eq "$(header content-encoding) $(header access-control-allow-origin)" "gzip $APP"
http GET /lists/countries -H "Origin: $OTHER"
check "the same page for the other origin names that origin" eq "$(header access-control-allow-origin)" "$OTHER"
put_json /lists/cors '{"title": "CORS"}' -H "Origin: $APP" -H 'Authorization: Bearer secret'
check "a write answers with the origin and Location exposed" eq "$STATUS $(header access-control-allow-origin) $(header location)" "201 $APP /lists/cors"
put_json /lists/cors2 '{"title": "CORS"}' -H "Origin: $APP"
check "a refused write (401) still lets the page read why" eq "$STATUS $(header access-control-allow-origin)" "401 $APP"
events=$(curl -s -N --max-time 1 -D - -o /dev/null -H "Origin: $APP" "$BASE_URL/lists/countries/events" | tr -d '\r')
check "the live stream allows the origin" contains "$events" "Access-Control-Allow-Origin: $APP"

# Other origins and same-origin requests get no CORS header.
http OPTIONS /lists/countries -H 'Origin: https://evil.example' -H 'Access-Control-Request-Method: DELETE'
check "preflight from another origin is not allowed (the plain OPTIONS answer: 204 with Allow)" eq "$STATUS $(header allow)" "204 PUT, GET, HEAD, PATCH, DELETE, OPTIONS"
check "and carries no CORS header" eq "$(header access-control-allow-origin)$(header access-control-allow-methods)" ""
http GET /lists/countries -H 'Origin: https://evil.example' -H 'Accept: application/json'
check "GET from another origin has no CORS header" eq "$(header access-control-allow-origin)$(header access-control-expose-headers)" ""
check "but varies on Origin" contains "$(header vary)" Origin
http GET /lists/countries -H "Origin: $APP.evil" -H 'Accept: application/json'
check "an origin that only starts like an allowed one gets nothing" eq "$(header access-control-allow-origin)" ""
http GET /lists/countries -H 'Accept: application/json'
check "a request without Origin gets no CORS header" eq "$(header access-control-allow-origin)" ""
http OPTIONS /lists/countries -H "Origin: $APP"
check "OPTIONS without Access-Control-Request-Method is no preflight (204 with Allow)" eq "$STATUS $(header allow) $(header access-control-allow-methods)" "204 PUT, GET, HEAD, PATCH, DELETE, OPTIONS "
stop_server

# Without --cors-origin: no CORS header, no Vary: Origin.
start_server --demo
http GET /lists/countries -H "Origin: $APP" -H 'Accept: application/json'
check "without --cors-origin: no CORS header" eq "$(header access-control-allow-origin)" ""
check "without --cors-origin: no Vary: Origin" lacks "$(header vary)" Origin
http OPTIONS /lists/countries -H "Origin: $APP" -H 'Access-Control-Request-Method: GET'
check "without --cors-origin: preflight gets the plain OPTIONS answer, no CORS header" eq "$STATUS $(header access-control-allow-origin)" "204 "
http POST /lists/countries
check "a 405's Allow lists OPTIONS" eq "$STATUS $(header allow)" "405 PUT, GET, HEAD, PATCH, DELETE, OPTIONS"
stop_server

# A malformed origin is refused at start.
output=$("$LIST_SERVER_BIN" --port 0 --db :memory: --cors-origin 'https://app.example.com/' 2>&1)
check "a trailing slash is refused" contains "$output" "an origin is scheme://host[:port]"
output=$("$LIST_SERVER_BIN" --help 2>&1)
check "--help documents --cors-origin" contains "$output" "--cors-origin <origin>"
finish
