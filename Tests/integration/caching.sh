#!/usr/bin/env bash
# Caching and header fields on the wire (issue 25, points 3 and 4; API.md section 2, "Server
# (caching)"): 304s with the 200's fields and length, private answers, the paged and validated
# index, the CSP, trimmed values, a repeated Authorization or Origin, OPTIONS and Allow.
source "$(dirname "$0")/lib.sh"
start_server --demo --token caching-token --cors-origin https://app.example
AUTH='Authorization: Bearer caching-token'

# A 304 repeats the 200's ETag, Vary and Cache-Control, and its length is the 200's, never 0.
http GET /lists/countries -H 'Accept: application/json'
length=$(header content-length)
http GET /lists/countries -H 'Accept: application/json' -H 'If-None-Match: "1"'
check "304 for the current tag" eq "$STATUS" 304
check "the 304 has Cache-Control" eq "$(header cache-control)" "no-cache"
check "the 304 has the 200's Vary" eq "$(header vary)" "Accept, Accept-Encoding, Origin"
check "the 304's Content-Length is the 200's, not 0" eq "$(header content-length)" "$length"
check "the 304 has no Content-Type" eq "$(header content-type)" ""
http GET /lists/countries -H 'Accept: application/json' -H 'If-None-Match: "1"' -H 'Origin: https://app.example'
check "the 304 to an allowed origin carries its CORS fields" eq "$STATUS $(header access-control-allow-origin)" "304 https://app.example"
# Pages of rows (made per request; the server remembers the 304 of what it sent).
http GET '/lists/numbers/rows?limit=30' -H 'Origin: https://app.example'
rows_tag=$(header etag) rows_length=$(header content-length)
http GET '/lists/numbers/rows?limit=30' -H 'Origin: https://app.example' -H "If-None-Match: $rows_tag"
check "rows: 304 with the 200's length and CORS fields" \
    eq "$STATUS $(header content-length) $(header access-control-allow-origin)" "304 $rows_length https://app.example"
check "rows: the 304 has no Link or List-Cursor" eq "$(header link)$(header list-cursor)" ""
raw_request 'GET /lists/countries HTTP/1.1\r\nHost: x\r\nIf-None-Match: "1-html"\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
check "the connection stays open after a 304" contains "$RAW" $'HTTP/1.1 304 Not Modified'
check "and answers the next request" contains "$RAW" $'\nok'

# gzip answers have their own strong tag, and a write takes it as its version.
http GET /lists/countries -H 'Accept: application/json' -H 'Accept-Encoding: gzip'
check "the gzip answer's ETag ends in -gzip" eq "$(header content-encoding) $(header etag)" 'gzip "1-gzip"'
put_json /lists/countries/rows/it '{"cells": {"name": "Italy"}}' -H "$AUTH" -H 'If-Match: "1-gzip"'
check "If-Match with the gzip tag writes" eq "$STATUS $(header etag)" '200 "2"'

# The index: validators and pages.
for id in idx-a idx-b idx-c; do put_json "/lists/$id" '{"title": "I"}' -H "$AUTH" >/dev/null; done
http GET '/lists?after=idx-&limit=2'
check "GET /lists pages by limit" eq "$(json_at /lists/0/id) $(json_at /lists/1/id) $(json_at /next)" '"idx-a" "idx-b" "idx-b"'
check "with Link: rel=next" eq "$(header link)" '</lists?after=idx-b&limit=2>; rel="next"'
etag=$(header etag)
check "and an ETag" contains "$etag" '"lists-'
http GET '/lists?after=idx-&limit=2' -H "If-None-Match: $etag"
check "If-None-Match on the index is 304" eq "$STATUS $(header etag)" "304 $etag"
http GET '/lists?after=idx-b&limit=2'
check "the next page" eq "$(json_at /lists/0/id)" '"idx-c"'
put_json /lists/idx-b '{"title": "I2"}' -H "$AUTH" >/dev/null
http GET '/lists?after=idx-&limit=2' -H "If-None-Match: $etag"
check "a write to a list on the page changes its tag (200)" eq "$STATUS" 200
http GET '/?after=idx-&limit=2'
check "the HTML index links to its next page" contains "$BODY" '<a rel="next" href="/?after=idx-b&amp;limit=2">'
check "with Link too" eq "$(header link)" '</?after=idx-b&limit=2>; rel="next"'
http GET '/lists?after=..'
check "an after that is no list id is 400" eq "$STATUS" 400
http GET '/lists?limit=501'
check "a limit over 500 is 400" eq "$STATUS" 400

# The page's CSP loads no image over plain http:.
http GET /lists/countries
check "the CSP's img-src has no http:" contains "$(header content-security-policy)" "img-src 'self' https: data:;"

# Header values: trimmed; Authorization and Origin once.
raw_request 'PUT /lists/idx-c HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer caching-token \t\r\nContent-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{"title": "T"}'
check "Authorization: Bearer TOKEN<space><tab> is the token" contains "$RAW" 'HTTP/1.1 200 OK'
raw_request 'GET /lists/countries/events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 2 \r\nConnection: close\r\n\r\n'
check "Last-Event-ID: 2<space> resumes (200)" contains "$RAW" 'HTTP/1.1 200 OK'
http GET /lists -H 'Authorization: Bearer a' -H 'Authorization: Bearer b'
check "a repeated Authorization is 400 problem+json" eq "$STATUS $(header content-type)" "400 application/problem+json"
check "naming the field" contains "$BODY" "Authorization"
http GET /lists -H 'Origin: https://app.example' -H 'Origin: https://evil.example'
check "a repeated Origin is 400" eq "$STATUS" 400

# OPTIONS and Allow.
http OPTIONS /lists/countries/rows/it
check "OPTIONS on a known path is 204 with Allow" eq "$STATUS $(header allow)" "204 GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
http POST /lists/countries/rows/it
check "a 405's Allow lists OPTIONS" eq "$STATUS $(header allow)" "405 GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
http OPTIONS /nowhere
check "OPTIONS on an unknown path is 404" eq "$STATUS" 404
stop_server

# Under --private, and with a view link's key on a public server: private answers.
start_server --demo --private --token caching-token
http GET /lists/countries -H "$AUTH"
check "--private: the page is private" eq "$(header cache-control)" "private, no-cache"
http GET /lists/countries -H "$AUTH" -H 'Accept: application/json'
check "--private: the document is private" eq "$(header cache-control)" "private, no-cache"
etag=$(header etag)
http GET /lists/countries -H "$AUTH" -H 'Accept: application/json' -H "If-None-Match: $etag"
check "--private: its 304 too" eq "$STATUS $(header cache-control)" "304 private, no-cache"
http GET /lists/countries/rows -H "$AUTH"
check "--private: rows are private" eq "$(header cache-control)" "private, no-cache"
http GET /lists -H "$AUTH"
check "--private: the index is private" eq "$(header cache-control)" "private, no-cache"
post_json '/lists/countries/links' '' -H "$AUTH"
link=$(json_at /url | tr -d '"' | sed 's|^http[s]*://[^/]*||')  # the path of the absolute URL
http GET "$link"
check "--private: a page opened with a view link is private" eq "$STATUS $(header cache-control)" "200 private, no-cache"
http GET "$(printf '%s' "$link" | sed 's/?/\/events?/')" -m 1
check "--private: its live stream is private" eq "$(header cache-control)" "private, no-cache"
stop_server

start_server --demo --token caching-token --secret "caching-secret-of-at-least-32-bytes!"
post_json '/lists/countries/links' '' -H "$AUTH"
link=$(json_at /url | tr -d '"' | sed 's|^http[s]*://[^/]*||')  # the path of the absolute URL
http GET "$link"
check "public server: a page fetched with key is private" eq "$(header cache-control)" "private, no-cache"
http GET /lists/countries
check "public server: without key it is not" eq "$(header cache-control)" "no-cache"
finish
