#!/usr/bin/env bash
# Every error status of the lists API with its problem+json body (400, 404, 409, 412, 413, 415,
# 422), each rejected write checked to leave the list and its version alone; hostile bodies
# (invalid UTF-8, 1e999, deep nesting) leave the server alive. 401 and 507: auth_quota.sh.
source "$(dirname "$0")/lib.sh"
start_server --max-body 20000

list='{"title": "E", "columns": [{"key": "name"}, {"key": "pop", "kind": "number"},
  {"key": "wiki", "kind": "link"}, {"key": "flag", "kind": "image"}],
  "sections": [{"key": "s", "rows": [{"key": "r1", "cells": {"name": "one"}}, {"key": "r2", "cells": {"name": "two"}}]},
               {"key": "t", "rows": [{"key": "r3", "cells": {"name": "three"}}]}]}'
put_json /lists/e "$list"
check "setup list created" eq "$STATUS" 201
original=$(body_now /lists/e)

# unchanged: list e still holds its first version, byte for byte.
unchanged() { eq "$(etag_now /lists/e)" '"1"' && eq "$(body_now /lists/e)" "$original"; }

# rejected CODE DESCRIPTION: the last answer is a CODE problem and list e did not change.
rejected() {
    check "$2 is $1" is_problem "$1"
    check "$2 leaves the list at version 1" unchanged
}

# --- 400: bodies that are not JSON, or not a patch ---
put_json /lists/e '{"title": "E",'
rejected 400 "PUT of truncated JSON"
check "the 400 says why" contains "$(json_at /detail)" "not valid JSON"
put_json /lists/e 'hello'
rejected 400 "PUT of text"
put_json /lists/e ''
rejected 400 "PUT of an empty body"
put_json /lists/e '{"title": "E", "title": "F"}'
rejected 400 "PUT with a duplicate member name"
put_json /lists/e '{"title": "E"} {"title": "F"}'
rejected 400 "PUT of two JSON texts"
printf '{"title": "\xff\xfe bad"}' >"$TEST_TMP/bad-utf8"
http PUT /lists/e -H 'Content-Type: application/json' --data-binary @"$TEST_TMP/bad-utf8"
rejected 400 "PUT with invalid UTF-8"
printf '{"title": "\xc0\xaf overlong"}' >"$TEST_TMP/overlong"
http PUT /lists/e -H 'Content-Type: application/json' --data-binary @"$TEST_TMP/overlong"
rejected 400 "PUT with an overlong UTF-8 sequence"
printf '{"title": "\xed\xa0\x80 surrogate"}' >"$TEST_TMP/surrogate"
http PUT /lists/e -H 'Content-Type: application/json' --data-binary @"$TEST_TMP/surrogate"
rejected 400 "PUT with an encoded surrogate"
put_json /lists/e '{"title": "\ud800 lone escape"}'
check "a lone surrogate escape is refused (400 or 422): $STATUS" eval '[[ "$STATUS" == 400 || "$STATUS" == 422 ]]'
check "a lone surrogate escape leaves the list alone" unchanged
put_json /lists/e '{"title": "E", "rowHeight": 1e999}'
rejected 400 "PUT with 1e999"
put_json /lists/e '{"title": "E", "rowHeight": -1e999}'
rejected 400 "PUT with -1e999"
nested="$(printf '[%.0s' $(seq 100))$(printf ']%.0s' $(seq 100))"
put_json /lists/e "{\"title\": \"E\", \"emptyText\": $nested}"
rejected 400 "PUT with arrays nested 100 deep"
nested="$(printf '{"a":%.0s' $(seq 100))1$(printf '}%.0s' $(seq 100))"
put_json /lists/e "{\"title\": \"E\", \"state\": $nested}"
rejected 400 "PUT with objects nested 100 deep"
patch_json /lists/e "[{\"op\": \"add\", \"path\": \"/emptyText\", \"value\": $nested}]"
rejected 400 "PATCH with a value nested 100 deep"
printf '[{"op": "replace", "path": "/title", "value": "\xff"}]' >"$TEST_TMP/bad-utf8-patch"
http PATCH /lists/e -H 'Content-Type: application/json-patch+json' --data-binary @"$TEST_TMP/bad-utf8-patch"
rejected 400 "PATCH with invalid UTF-8"
printf '[{"key": "n1", "cells": {"name": "\xe2\x82"}}]' >"$TEST_TMP/bad-utf8-rows"
http POST /lists/e/sections/s/rows -H 'Content-Type: application/json' --data-binary @"$TEST_TMP/bad-utf8-rows"
rejected 400 "POST rows with truncated UTF-8"
patch_json /lists/e '[{"op": "add", "path": "/sections/0/rows/0/cells/pop", "value": 1e999}]'
rejected 400 "PATCH with 1e999"
put_json /lists/e/rows/r1 '{"cells": {"pop": -1e400}}'
rejected 400 "PUT row with -1e400"
http GET /healthz
check "alive after hostile bodies" eq "$STATUS $BODY" "200 ok"

patch_json /lists/e '{"op": "add", "path": "/emptyText", "value": "x"}'
rejected 400 "PATCH that is not an array"
patch_json /lists/e '[{"op": "jump", "path": "/title"}]'
rejected 400 "PATCH with an unknown op"
patch_json /lists/e '[{"op": "add", "value": "x"}]'
rejected 400 "PATCH op without a path"
patch_json /lists/e '[{"op": "replace", "path": "/title"}]'
rejected 400 "PATCH replace without a value"
patch_json /lists/e '[{"op": "move", "path": "/title"}]'
rejected 400 "PATCH move without from"
patch_json /lists/e '[{"op": "remove", "path": "title"}]'
rejected 400 "PATCH with a path that is not a JSON Pointer"
patch_json /lists/e '[{"op": "replace", "path": "/title", "value": "X"}, {"op": "frobnicate"}]'
rejected 400 "PATCH whose last op is malformed"
patch_json /lists/e '[{"op": '
rejected 400 "PATCH of truncated JSON"

# --- 400: ids, cursors, limits, positions, If-Match syntax ---
put_json /lists/-dash '{"title": "x"}'
check "an id starting with - is 400" is_problem 400
put_json /lists/a%20b '{"title": "x"}'
check "an id with a space is 400" is_problem 400
put_json /lists/$(printf 'a%.0s' $(seq 65)) '{"title": "x"}'
check "a 65-character id is 400" is_problem 400
http GET /lists/.hidden -H 'Accept: application/json'
check "GET of an id starting with . is 400" is_problem 400
http GET /lists/%C3%A9 -H 'Accept: application/json'
check "GET of a non-ASCII id is 400" is_problem 400
http GET /lists/e%2Fx/rows
check "pages of an id with %2F is 400" is_problem 400
check "no list was created by bad ids" eq "$(body_now /lists | grep -o '"id"' | wc -l)" 1

http GET '/lists/e/rows?after=xyz'
check "a garbage cursor is 400" is_problem 400
http GET '/lists/e/rows?after='
check "an empty cursor is 400" is_problem 400
next=$(curl -s "$BASE_URL/lists/e/rows?limit=1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["next"])')
http GET "/lists/e/rows?after=$next"
check "the real cursor works" eq "$STATUS" 200
tampered="${next:0:${#next}-2}$( [ "${next: -2:1}" = A ] && echo B || echo A )${next: -1}"
http GET "/lists/e/rows?after=$tampered"
check "a cursor with one character changed is 400" is_problem 400
http GET "/lists/e?after=$tampered"
check "the HTML page with a bad cursor is 400" is_problem 400
for limit in 0 501 -1 abc 1.5 ''; do
    http GET "/lists/e/rows?limit=$limit"
    check "limit=$limit is 400" is_problem 400
done
http GET '/lists/e?limit=0'
check "the HTML page with limit=0 is 400" is_problem 400

post_json '/lists/e/sections/s/rows?before=r1&after=r2' '[{"key": "n"}]'
rejected 400 "before and after together"
# Query values are percent-decoded as strictly as paths: bad escapes and non-UTF-8 are 400.
for query in 'after=%FF' 'after=%C3%28' 'limit=%zz' 'after=%4'; do
    http GET "/lists/e/rows?$query"
    check "?$query is 400" is_problem 400
done
check "the 400 names the query" contains "$(json_at /detail)" "query string"
post_json '/lists/e/sections/s/rows?after=%FF' '[{"key": "n"}]'
rejected 400 "an insert after a non-UTF-8 key"

for bad in '1' 'W/' '"1' 'x"'; do
    patch_json /lists/e '[{"op": "replace", "path": "/title", "value": "X"}]' -H "If-Match: $bad"
    rejected 400 "If-Match: $bad (not an entity tag)"
done
# Well-formed entity tags that name no version we issue never match (RFC 9110 13.1.1): 412.
for stale in '"x"' '""' '"-1"' '"01"' 'W/"1"'; do
    patch_json /lists/e '[{"op": "replace", "path": "/title", "value": "X"}]' -H "If-Match: $stale"
    rejected 412 "If-Match: $stale"
done

# --- 404: unknown lists, sections, rows, anchors ---
http GET /lists/nope -H 'Accept: application/json'
check "GET JSON of an unknown list is 404" is_problem 404
check "the 404 names the list" contains "$(json_at /detail)" 'list \"nope\"'
http GET /lists/nope
check "GET HTML of an unknown list is 404" is_problem 404
http GET /lists/nope/rows
check "pages of an unknown list are 404" is_problem 404
patch_json /lists/nope '[]'
check "PATCH of an unknown list is 404" is_problem 404
http DELETE /lists/nope
check "DELETE of an unknown list is 404" is_problem 404
post_json /lists/nope/sections/s/rows '[{"key": "x"}]'
check "POST rows to an unknown list is 404" is_problem 404
put_json /lists/nope/rows/r1 '{"cells": {}}'
check "PUT row of an unknown list is 404" is_problem 404
http DELETE /lists/nope/rows/r1
check "DELETE row of an unknown list is 404" is_problem 404
check "404s created no list" eq "$(body_now /lists | grep -o '"id"' | wc -l)" 1
post_json /lists/e/sections/zz/rows '[{"key": "x"}]'
rejected 404 "POST rows to an unknown section"
post_json '/lists/e/sections/s/rows?before=zz' '[{"key": "x"}]'
rejected 404 "before= an unknown row"
post_json '/lists/e/sections/s/rows?after=r3' '[{"key": "x"}]'
rejected 404 "after= a row of another section"
put_json /lists/e/rows/zz '{"cells": {}}'
rejected 404 "PUT of an unknown row"
http DELETE /lists/e/rows/zz
rejected 404 "DELETE of an unknown row"

# --- 409: patches that do not apply ---
patch_json /lists/e '[{"op": "test", "path": "/title", "value": "Not E"}]'
rejected 409 "a failed test"
patch_json /lists/e '[{"op": "replace", "path": "/title", "value": "X"}, {"op": "add", "path": "/emptyText", "value": "y"},
  {"op": "test", "path": "/sections/0/rows/0/key", "value": "r2"}]'
rejected 409 "a failed test after good ops"
patch_json /lists/e '[{"op": "remove", "path": "/sections/9"}]'
rejected 409 "remove of a missing index"
patch_json /lists/e '[{"op": "replace", "path": "/nope", "value": 1}]'
rejected 409 "replace of a missing member"
patch_json /lists/e '[{"op": "add", "path": "/a/b", "value": 1}]'
rejected 409 "add under a missing parent"
patch_json /lists/e '[{"op": "copy", "from": "/nope", "path": "/emptyText"}]'
rejected 409 "copy from a missing path"
patch_json /lists/e '[{"op": "move", "from": "/sections/0", "path": "/sections/0/rows/-"}]'
rejected 409 "move into its own child"

# --- 412: If-Match on every write kind, If-None-Match: * on an existing list ---
put_json /lists/e "$list" -H 'If-Match: "7"'
rejected 412 "PUT with a stale If-Match"
check "the 412 names the current version" contains "$(json_at /detail)" "version 1"
patch_json /lists/e '[]' -H 'If-Match: "7"'
rejected 412 "PATCH with a stale If-Match"
http DELETE /lists/e -H 'If-Match: "7"'
rejected 412 "DELETE with a stale If-Match"
post_json /lists/e/sections/s/rows '[{"key": "x"}]' -H 'If-Match: "7"'
rejected 412 "POST rows with a stale If-Match"
put_json /lists/e/rows/r1 '{"cells": {}}' -H 'If-Match: "0"'
rejected 412 "PUT row with a stale If-Match"
http DELETE /lists/e/rows/r1 -H 'If-Match: "2"'
rejected 412 "DELETE row with a stale If-Match"
put_json /lists/e "$list" -H 'If-None-Match: *'
rejected 412 "PUT with If-None-Match: * on an existing list"
put_json /lists/new1 '{"title": "x"}' -H 'If-Match: "1"'
check "PUT with If-Match to a missing list is 412" is_problem 412
check "and creates nothing" eq "$(etag_now /lists/new1)" none

# --- 413: bodies over --max-body ---
big=$(/usr/bin/python3 -c 'import json; print(json.dumps({"title": "x" * 30000}))')
put_json /lists/e "$big"
rejected 413 "PUT over --max-body"
patch_json /lists/e "[{\"op\": \"add\", \"path\": \"/emptyText\", \"value\": \"$(head -c 30000 /dev/zero | tr '\0' y)\"}]"
rejected 413 "PATCH over --max-body"
post_json /lists/e/sections/s/rows "[{\"key\": \"big\", \"cells\": {\"name\": \"$(head -c 30000 /dev/zero | tr '\0' y)\"}}]"
rejected 413 "POST rows over --max-body"

# --- 415: the wrong Content-Type ---
http PUT /lists/e -H 'Content-Type: text/plain' --data-binary "$list"
rejected 415 "PUT as text/plain"
http PUT /lists/e --data-binary "$list"
rejected 415 "PUT as a form (curl's default)"
http PUT /lists/e -H 'Content-Type: application/json-patch+json' --data-binary "$list"
rejected 415 "PUT as a JSON patch"
http PATCH /lists/e -H 'Content-Type: application/json' --data-binary '[]'
rejected 415 "PATCH as application/json"
check "415 on PATCH advertises Accept-Patch" eq "$(header accept-patch)" application/json-patch+json
http PATCH /lists/e -H 'Content-Type: application/merge-patch+json' --data-binary '{"title": "X"}'
rejected 415 "PATCH as a merge patch"
http POST /lists/e/sections/s/rows -H 'Content-Type: text/plain' --data-binary '[{"key": "x"}]'
rejected 415 "POST rows as text/plain"
http PUT /lists/e/rows/r1 -H 'Content-Type: text/plain' --data-binary '{"cells": {}}'
rejected 415 "PUT row as text/plain"

# --- 422: valid JSON that is not a valid list ---
put_json /lists/e '{"title": "E", "colour": "red"}'
rejected 422 "an unknown top-level member"
check "the 422 names the member's pointer" contains "$(json_at /detail)" "/colour"
put_json /lists/e '{"title": "E", "sections": [{"key": "s", "rows": [{"key": "r", "colour": "red"}]}]}'
rejected 422 "an unknown row member"
put_json /lists/e '{"title": "E", "columns": [{"key": "c", "width": 3}]}'
rejected 422 "an unknown column member"
put_json /lists/e '{"columns": []}'
rejected 422 "a list without a title"
put_json /lists/e '{"title": "E", "columns": []}'
rejected 422 "an empty columns array"
put_json /lists/e '{"title": "E", "sections": [{"key": "s"}, {"key": "s"}]}'
rejected 422 "duplicate section keys"
put_json /lists/e '{"title": "E", "sections": [{"key": "s", "rows": [{"key": "r"}]}, {"key": "t", "rows": [{"key": "r"}]}]}'
rejected 422 "duplicate row keys across sections"
check "the duplicate 422 names both places" contains "$(json_at /detail)" "also at /sections/0/rows/0/key"
put_json /lists/e '{"title": "E", "columns": [{"key": "c"}, {"key": "c"}]}'
rejected 422 "duplicate column keys"
put_json /lists/e '{"title": "E", "sections": [{"key": ""}]}'
rejected 422 "an empty key"
put_json /lists/e "{\"title\": \"E\", \"sections\": [{\"key\": \"$(head -c 257 /dev/zero | tr '\0' k)\"}]}"
rejected 422 "a 257-byte key"
put_json /lists/e '{"title": "E", "columns": [{"key": "n", "kind": "number"}], "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"n": "58.9"}}]}]}'
rejected 422 "a string in a number column"
check "the kind 422 says what it expected" contains "$(json_at /detail)" "must be a number"
put_json /lists/e '{"title": "E", "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"text": 5}}]}]}'
rejected 422 "a number in a text column"
put_json /lists/e '{"title": "E", "columns": [{"key": "l", "kind": "link"}], "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"l": "https://x"}}]}]}'
rejected 422 "a string in a link column"
put_json /lists/e '{"title": "E", "columns": [{"key": "i", "kind": "image"}], "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"i": {"alt": "no src"}}}]}]}'
rejected 422 "an image without src"
put_json /lists/e '{"title": "E", "columns": [{"key": "c", "kind": "colour"}]}'
rejected 422 "an unknown column kind"
put_json /lists/e '{"title": "E", "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"area": "x"}}]}]}'
rejected 422 "a cell naming an undeclared column"
put_json /lists/e '{"title": "E", "sections": [{"key": "s", "rows": [{"key": "r", "style": "bold"}]}]}'
rejected 422 "an unknown row style"
put_json /lists/e '{"title": "E", "rowHeight": 0}'
rejected 422 "rowHeight 0"
put_json /lists/e '{"title": "E", "state": {"kind": "error"}}'
rejected 422 "an error state without a message"
put_json /lists/e '{"title": 5}'
rejected 422 "a number as title"
put_json /lists/e '[]'
rejected 422 "an array as the document"

# javascript: and other schemes, in every spelling, in every URL slot and every write kind
for url in 'javascript:alert(1)' 'JavaScript:alert(1)' 'JAVASCRIPT:alert(1)' ' javascript:alert(1)' \
           '\tjavascript:alert(1)' 'java\tscript:alert(1)' 'java\nscript:alert(1)' 'java\u0000script:alert(1)' \
           '\u0001javascript:alert(1)' 'javascript\t:alert(1)' 'data:text/html,<script>alert(1)</script>' \
           'DATA:text/html;base64,PHNjcmlwdD4=' 'vbscript:msgbox(1)' 'file:///etc/passwd'; do
    put_json /lists/e "{\"title\": \"E\", \"sections\": [{\"key\": \"s\", \"rows\": [{\"key\": \"r\", \"href\": \"$url\"}]}]}"
    rejected 422 "row href \"$url\""
done
put_json /lists/e '{"title": "E", "columns": [{"key": "l", "kind": "link"}], "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"l": {"text": "x", "href": " JavaScript:alert(1)"}}}]}]}'
rejected 422 "a link cell's href \" JavaScript:\""
put_json /lists/e '{"title": "E", "columns": [{"key": "i", "kind": "image"}], "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"i": {"src": "java\tscript:alert(1)"}}}]}]}'
rejected 422 "an image src \"java\\tscript:\""
patch_json /lists/e '[{"op": "add", "path": "/sections/0/rows/0/href", "value": "JavaScript:alert(1)"}]'
rejected 422 "PATCH adding a javascript: href"
patch_json /lists/e '[{"op": "add", "path": "/sections/0/rows/0/cells/wiki", "value": {"text": "x", "href": "data:text/html,x"}}]'
rejected 422 "PATCH adding a data: link"
post_json /lists/e/sections/s/rows '[{"key": "x", "href": " javascript:alert(1)"}]'
rejected 422 "POST of a row with a javascript: href"
put_json /lists/e/rows/r1 '{"cells": {"flag": {"src": "java\tscript:alert(1)"}}}'
rejected 422 "PUT row with a java\\tscript: image"
for url in 'https://example.com/a' 'HTTP://example.com' 'mailto:a@b.c' '/relative?q=javascript:x' 'page#javascript:x' './javascript:x' ' https://x '; do
    put_json /lists/ok "{\"title\": \"OK\", \"sections\": [{\"key\": \"s\", \"rows\": [{\"key\": \"r\", \"href\": \"$url\"}]}]}"
    check "href \"$url\" is allowed" eval '[[ "$STATUS" == 200 || "$STATUS" == 201 ]]'
done

# 422 through the row and patch endpoints
patch_json /lists/e '[{"op": "add", "path": "/colour", "value": "red"}]'
rejected 422 "PATCH adding an unknown member"
patch_json /lists/e '[{"op": "copy", "from": "/sections/0/rows/0", "path": "/sections/1/rows/0"}]'
rejected 422 "PATCH copying a row (duplicate key)"
patch_json /lists/e '[{"op": "add", "path": "/sections/0/rows/0/cells/pop", "value": "many"}]'
rejected 422 "PATCH putting a string in a number cell"
post_json /lists/e/sections/s/rows '[{"key": "r3"}]'
rejected 422 "POST of a row whose key is taken (in another section)"
post_json /lists/e/sections/s/rows '[{"key": "n1"}, {"key": "n1"}]'
rejected 422 "POST of two rows with one key"
post_json /lists/e/sections/s/rows '[{"key": "n1", "cells": {"area": 1}}]'
rejected 422 "POST of a row naming an undeclared column"
post_json /lists/e/sections/s/rows '{"key": "n1"}'
rejected 422 "POST of a row object instead of an array"
put_json /lists/e/rows/r1 '{"key": "other"}'
rejected 422 "PUT row whose body names another key"
put_json /lists/e/rows/r1 '{"cells": {"pop": "x"}}'
rejected 422 "PUT row with a cell of the wrong kind"
put_json /lists/e/rows/r1 '{"cells": {}, "extra": 1}'
rejected 422 "PUT row with an unknown member"

# --- 405 and the server afterwards ---
http POST /lists/e -H 'Content-Type: application/json' --data-binary '{}'
check "POST to a list is 405" is_problem 405
check "405 names the allowed methods" contains "$(header allow)" PATCH
check "no rejected write moved the version (GET /lists)" contains "$(body_now /lists)" '{"id":"e","title":"E","rows":3,"version":1}'
check "the failures are logged" contains "$(cat "$SERVER_LOG")" "PATCH /lists/e 409"
http GET /healthz
check "still healthy" eq "$STATUS $BODY" "200 ok"
stop_server
check "clean exit" eq "$STOP_STATUS" 0
finish
