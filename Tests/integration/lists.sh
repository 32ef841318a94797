#!/usr/bin/env bash
# Whole lists over HTTP: create, replace, read (JSON, HTML, HEAD), patch with every op, delete,
# the /lists and / indexes, conditional reads, and a smoke check of the live stream.
source "$(dirname "$0")/lib.sh"
start_server

countries='{"title": "Countries",
  "columns": [{"key": "name", "title": "Name"}, {"key": "pop", "title": "Population", "kind": "number"},
              {"key": "flag", "title": "Flag", "kind": "image"}, {"key": "wiki", "title": "More", "kind": "link"}],
  "sections": [
    {"key": "eu", "header": "Europe", "footer": "2 countries", "rows": [
      {"key": "it", "cells": {"wiki": {"text": "Wikipedia", "href": "https://en.wikipedia.org/wiki/Italy"},
                              "name": "Italy", "pop": 58.9, "flag": {"src": "/img/it.png", "alt": "Italian flag"}}},
      {"key": "fr", "cells": {"name": "France", "pop": 68.2, "wiki": null}, "href": "/countries/fr"}]},
    {"key": "as", "header": "Asia", "collapsible": true, "rows": [
      {"key": "jp", "cells": {"name": "Japan"}, "style": "muted"}]}]}'

# --- PUT creates ---
put_json /lists/countries "$countries"
check "PUT of a new list is 201" eq "$STATUS" 201
check "201 has ETag \"1\"" eq "$(header etag)" '"1"'
check "201 has Location" eq "$(header location)" /lists/countries
check "201 body names id, version and rows" eq "$(json_at "")" '{"id":"countries","version":1,"rows":3}'

# --- GET JSON: the canonical form ---
http GET /lists/countries -H 'Accept: application/json'
check "GET JSON is 200" eq "$STATUS" 200
check "GET JSON is application/json" eq "$(header content-type)" application/json
check "GET JSON has ETag \"1\"" eq "$(header etag)" '"1"'
check "GET JSON varies on Accept" contains "$(header vary)" Accept
check "column defaults are filled in" eq "$(json_at /columns/0)" '{"key":"name","title":"Name","kind":"text"}'
check "section defaults are filled in" eq "$(json_at /sections/0/collapsible),$(json_at /sections/0/collapsed)" false,false
check "a null header stays null" eq "$(json_at /sections/1/footer)" null
check "row style defaults to default" eq "$(json_at /sections/0/rows/0/style)" '"default"'
check "cells come in column order" eq "$(json_at /sections/0/rows/0/cells)" \
    '{"name":"Italy","pop":58.9,"flag":{"src":"/img/it.png","alt":"Italian flag"},"wiki":{"text":"Wikipedia","href":"https://en.wikipedia.org/wiki/Italy"}}'
check "a null cell is dropped" eq "$(json_at /sections/0/rows/1/cells)" '{"name":"France","pop":68.2}'
check "href is kept" eq "$(json_at /sections/0/rows/1/href)" '"/countries/fr"'
check "absent optional members stay absent" eq "$(json_at /emptyText),$(json_at /state),$(json_at /sections/0/rows/0/href)" missing,missing,missing
check "canonical member order" contains "$BODY" '{"key":"eu","header":"Europe","footer":"2 countries","collapsible":false,"collapsed":false,"rows":['

http GET /lists/countries -H 'Accept: text/html;q=0.5, application/json'
check "Accept preferring JSON gets JSON" eq "$(header content-type)" application/json

# --- GET HTML ---
http GET /lists/countries
check "GET without Accept is HTML" eq "$STATUS $(header content-type)" "200 text/html; charset=utf-8"
check "HTML has data-list" contains "$BODY" 'data-list="countries"'
check "HTML has data-version" contains "$BODY" 'data-version="1"'
check "HTML has data-section" contains "$BODY" 'data-section="eu"'
check "HTML has data-row" contains "$BODY" 'data-row="it"'
check "HTML has the caption, holding the page's h1" contains "$BODY" '<caption><h1>Countries</h1></caption>'
check "HTML declares its icon (under the assets' version)" contains "$BODY" '/favicon.svg" type="image/svg+xml">'
check "HTML has a CSP without inline script" contains "$(header content-security-policy)" "script-src 'self'"
check "HTML has nosniff" eq "$(header x-content-type-options)" nosniff
check "HTML has its own ETag" eq "$(header etag)" '"1-html"'
check "HTML loads the client from /assets/" contains "$BODY" '/assets/'
check "HTML has no Link on a complete page" eq "$(header link)" ""
http GET /lists/countries -H 'Accept: text/html'
check "Accept: text/html is HTML" contains "$(header content-type)" text/html

http GET '/lists/countries?limit=1'
check "HTML ?limit=1 has a next link" contains "$BODY" 'rel="next"'
check "HTML ?limit=1 sends Link rel=next" contains "$(header link)" 'rel="next"'
check "HTML ?limit=1 shows one row" eval '[ "$(grep -o "data-row=" <<<"$BODY" | wc -l)" -eq 1 ]'

# --- HEAD ---
raw_request 'HEAD /lists/countries HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n'
check "HEAD is 200" contains "$RAW" "HTTP/1.1 200 OK"
check "HEAD has the ETag" contains "$RAW" 'ETag: "1"'
check "HEAD has no body" lacks "$RAW" '"title"'
http HEAD /lists/nothing -I
check "HEAD of an unknown list is 404" eq "$STATUS" 404

# --- conditional GETs ---
http GET /lists/countries -H 'Accept: application/json' -H 'If-None-Match: "1"'
check "If-None-Match on JSON is 304" eq "$STATUS" 304
check "304 has no body" eq "$BODY" ""
check "304 repeats the ETag" eq "$(header etag)" '"1"'
http GET /lists/countries -H 'If-None-Match: "1-html"'
check "If-None-Match on HTML is 304" eq "$STATUS" 304
http GET /lists/countries -H 'If-None-Match: "1"'
check "the JSON tag does not validate the HTML page" eq "$STATUS" 200
http GET /lists/countries -H 'Accept: application/json' -H 'If-None-Match: "7", W/"1"'
check "a weak tag in a list matches (304)" eq "$STATUS" 304

# --- PUT replaces ---
replacement='{"title": "Countries", "columns": [{"key": "name"}, {"key": "pop", "kind": "number"}],
  "sections": [{"key": "eu", "rows": [{"key": "it", "cells": {"name": "Italy"}}, {"key": "de", "cells": {"name": "Germany", "pop": 84.5}}]},
               {"key": "as", "rows": []}]}'
put_json /lists/countries "$replacement"
check "PUT of an existing list is 200" eq "$STATUS" 200
check "replace has ETag \"2\"" eq "$(header etag)" '"2"'
check "replace has no Location" eq "$(header location)" ""
check "replace body" eq "$(json_at "")" '{"id":"countries","version":2,"rows":2}'
http GET /lists/countries -H 'Accept: application/json' -H 'If-None-Match: "1"'
check "an old ETag no longer matches" eq "$STATUS $(header etag)" '200 "2"'
check "the replacement is what is read" eq "$(json_at /sections/0/rows/1/cells)" '{"name":"Germany","pop":84.5}'
check "an empty section stays" eq "$(json_at /sections/1/rows)" '[]'

put_json /lists/countries "$replacement" -H 'If-Match: "2"'
check "PUT with the right If-Match is 200" eq "$STATUS $(header etag)" '200 "3"'
put_json /lists/countries "$replacement" -H 'If-Match: *'
check "PUT with If-Match: * is 200" eq "$STATUS $(header etag)" '200 "4"'
put_json /lists/fresh '{"title": "Fresh"}' -H 'If-None-Match: *'
check "PUT with If-None-Match: * creates" eq "$STATUS $(header etag)" '201 "1"'
check "a list without columns gets the default column" eq "$(body_now /lists/fresh)" \
    '{"title":"Fresh","columns":[{"key":"text","title":"","kind":"text"}],"sections":[]}'

# --- PATCH: every op ---
put_json /lists/p '{"title": "P", "columns": [{"key": "name"}],
  "sections": [{"key": "a", "header": "A", "rows": [{"key": "r1", "cells": {"name": "one"}}, {"key": "r2", "cells": {"name": "two"}}]},
               {"key": "b", "rows": [{"key": "r3", "cells": {"name": "three"}}]}]}'
patch_json /lists/p '[
  {"op": "test", "path": "/title", "value": "P"},
  {"op": "replace", "path": "/title", "value": "Patched"},
  {"op": "add", "path": "/sections/1/rows/-", "value": {"key": "r4", "cells": {"name": "four"}}},
  {"op": "add", "path": "/emptyText", "value": "none"},
  {"op": "move", "from": "/sections/0/rows/0", "path": "/sections/1/rows/0"},
  {"op": "copy", "from": "/sections/0/header", "path": "/sections/1/footer"},
  {"op": "remove", "path": "/sections/0/header"},
  {"op": "replace", "path": "/sections/0/rows/0/cells/name", "value": "TWO"},
  {"op": "add", "path": "/sections/0/rows/0/style", "value": "highlight"}]'
check "PATCH is 200" eq "$STATUS" 200
check "PATCH has ETag \"2\"" eq "$(header etag)" '"2"'
check "PATCH body" eq "$(json_at "")" '{"id":"p","version":2,"rows":4}'
http GET /lists/p -H 'Accept: application/json'
check "replace applied" eq "$(json_at /title)" '"Patched"'
check "add of an optional member applied" eq "$(json_at /emptyText)" '"none"'
check "move and add applied (row order)" eq "$(json_at /sections/1/rows | grep -o '"key":"r[0-9]"' | tr -d '\n')" '"key":"r1""key":"r3""key":"r4"'
check "copy applied" eq "$(json_at /sections/1/footer)" '"A"'
check "remove of a defaulted member gives the default" eq "$(json_at /sections/0/header)" null
check "nested replace and add applied" eq "$(json_at /sections/0/rows/0)" '{"key":"r2","cells":{"name":"TWO"},"style":"highlight"}'
patch_json /lists/p '[{"op": "remove", "path": "/emptyText"}]' -H 'If-Match: "2"'
check "PATCH with the right If-Match is 200" eq "$STATUS $(header etag)" '200 "3"'
check "remove of an optional member makes it absent" eq "$(json_at /emptyText "$(body_now /lists/p)")" missing
patch_json /lists/p '[]'
check "an empty patch is accepted" eq "$STATUS" 200
check "an empty patch still counts as a write" eq "$(header etag)" '"4"'
patch_json /lists/p '[{"op": "test", "path": "/title", "value": "Patched"}]' -H 'Content-Type: application/json-patch+json; charset=utf-8'
check "a charset parameter on the patch type is fine" eq "$STATUS" 200

before=$(body_now /lists/p)
version=$(etag_now /lists/p)
patch_json /lists/p '[{"op": "replace", "path": "/title", "value": "Lost"},
  {"op": "remove", "path": "/sections/1"},
  {"op": "test", "path": "/title", "value": "Patched"}]'
check "a failing test at the end is 409" is_problem 409
check "the failed patch changed nothing" eq "$(body_now /lists/p)" "$before"
check "the failed patch kept the version" eq "$(etag_now /lists/p)" "$version"

# --- GET /lists and / ---
http GET /lists
check "GET /lists is 200 JSON" eq "$STATUS $(header content-type)" "200 application/json"
check "GET /lists names every list by id, with title, rows and version" eq "$BODY" \
    '{"lists":[{"id":"countries","title":"Countries","rows":2,"version":4},{"id":"fresh","title":"Fresh","rows":0,"version":1},{"id":"p","title":"Patched","rows":4,"version":5}],"next":null}'
http GET /lists -H 'Accept: text/html'
check "GET /lists for HTML is the index" eq "$STATUS $(header content-type)" "200 text/html; charset=utf-8"
check "the HTML index links each list" contains "$BODY" 'href="/lists/countries"'
check "the HTML index has nosniff" eq "$(header x-content-type-options)" nosniff
http GET /
check "GET / is the HTML index" eq "$STATUS $(header content-type)" "200 text/html; charset=utf-8"
check "GET / links each list" contains "$BODY" 'href="/lists/p"'
check "GET / shows titles" contains "$BODY" 'Patched'
check "GET / has a CSP" contains "$(header content-security-policy)" "default-src 'self'"

# --- escaping ---
put_json /lists/xss '{"title": "<script>alert(1)</script>", "columns": [{"key": "c", "title": "\"><b>"}],
  "sections": [{"key": "s\"><i>", "rows": [{"key": "r&<", "cells": {"c": "<img src=x onerror=alert(1)>"}}]}]}'
check "a list with markup in every string is accepted" eq "$STATUS" 201
http GET /lists/xss
check "HTML escapes the title" lacks "$BODY" '<script>alert(1)'
check "HTML escapes cells" lacks "$BODY" '<img src=x'
check "HTML escapes attributes" lacks "$BODY" 'data-section="s"><i>'
http GET /
check "the index escapes titles" lacks "$BODY" '<script>alert(1)'

# --- the live stream (smoke) ---
curl -s -N --max-time 2 -D "$TEST_TMP/sse-headers" -o "$TEST_TMP/sse" "$BASE_URL/lists/p/events"
check "events is text/event-stream" contains "$(tr -d '\r' <"$TEST_TMP/sse-headers")" "Content-Type: text/event-stream"
check "the stream sends a reset" contains "$(cat "$TEST_TMP/sse")" $'event: reset\nid: 5\ndata: {'
check "the reset holds the document" contains "$(cat "$TEST_TMP/sse")" '"title":"Patched"'

http GET /lists/nothing/events
check "events of an unknown list is 404" is_problem 404

# --- PATCH inside one row (applied to that row alone): answers like any other patch ---
version=$(etag_now /lists/p)
patch_json /lists/p '[{"op": "test", "path": "/sections/0/rows/0/key", "value": "r2"},
  {"op": "replace", "path": "/sections/0/rows/0/cells/name", "value": "deux"},
  {"op": "add", "path": "/sections/0/rows/0/href", "value": "/rows/2"},
  {"op": "replace", "path": "/sections/0/rows/0/style", "value": "muted"}]'
check "a one-row PATCH is 200 with the next version" eq "$STATUS $(header etag)" "200 \"$(( ${version//\"/} + 1 ))\""
check "the one-row PATCH applied" eq "$(json_at /sections/0/rows/0 "$(body_now /lists/p)")" \
    '{"key":"r2","cells":{"name":"deux"},"href":"/rows/2","style":"muted"}'
before=$(body_now /lists/p)
for bad in '[{"op": "replace", "path": "/sections/0/rows/0/key", "value": "r1"}]' \
           '[{"op": "add", "path": "/sections/0/rows/0/href", "value": "javascript:alert(1)"}]' \
           '[{"op": "test", "path": "/sections/0/rows/0/cells/name", "value": "two"}]' \
           '[{"op": "remove", "path": "/sections/0/rows/0/cells/nope"}]' \
           '[{"op": "replace", "path": "/sections/0/rows/9/cells/name", "value": "x"}]'; do
    patch_json /lists/p "$bad"
    check "one-row PATCH $bad is refused with its full pointer" contains "$(json_at /detail)" "/sections/0/rows/"
    check "and changed nothing" eq "$(body_now /lists/p)" "$before"
done

# --- DELETE ---
http DELETE /lists/p
check "DELETE is 204" eq "$STATUS" 204
check "204 has no body" eq "$BODY" ""
http GET /lists/p -H 'Accept: application/json'
check "a deleted list is 410 Gone" is_problem 410
http GET /lists/p
check "a deleted list's page is 410" is_problem 410
http DELETE /lists/p
check "DELETE again is 410" is_problem 410
put_json /lists/p '{"title": "Again"}'
# Versions continue across the deletion, so an old If-Match or Last-Event-ID never matches the new list.
again=$(header etag)
check "a deleted id can be created again" eq "$STATUS" 201
check "the new list's version is past the deleted one's" test "${again//\"/}" -gt 2
http DELETE /lists/p -H 'If-Match: "1"'
check "an If-Match from before the deletion is 412" eq "$STATUS" 412
http DELETE /lists/p -H "If-Match: $again"
check "DELETE with the right If-Match is 204" eq "$STATUS" 204
check "GET /lists no longer names it" lacks "$(body_now /lists)" '"id":"p"'

http GET /healthz
check "still healthy" eq "$STATUS $BODY" "200 ok"
finish
