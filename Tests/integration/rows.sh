#!/usr/bin/env bash
# Keyed row edits (append, before, after, replace in place, delete), percent-encoded keys in
# paths, and pages for tail loading (JSON and HTML fragments, Link, walking to the end).
source "$(dirname "$0")/lib.sh"
start_server

# row_keys [JSON]: the row keys of a document or page ($BODY by default), in order, space-separated.
row_keys() {
    /usr/bin/python3 -c '
import json, sys
value = json.loads(sys.argv[1])
print(" ".join(row["key"] for section in value["sections"] for row in section["rows"]))' "${1-$BODY}"
}

put_json /lists/t '{"title": "Tasks", "columns": [{"key": "task"}, {"key": "n", "kind": "number"}],
  "sections": [{"key": "todo", "header": "To do", "rows": [{"key": "a", "cells": {"task": "A"}}]},
               {"key": "done", "rows": []}]}'
check "setup list created" eq "$STATUS" 201

# --- append, before, after ---
post_json /lists/t/sections/todo/rows '[{"key": "b", "cells": {"task": "B"}}, {"key": "c", "cells": {"task": "C", "n": 3}}]'
check "append is 200" eq "$STATUS" 200
check "append has the new version" eq "$(header etag)" '"2"'
check "append body counts rows" eq "$(json_at "")" '{"id":"t","version":2,"rows":3}'
check "appended at the end, in order" eq "$(row_keys "$(body_now /lists/t)")" "a b c"
post_json '/lists/t/sections/todo/rows?before=a' '[{"key": "first", "cells": {"task": "First"}}]'
check "before=a is 200" eq "$STATUS $(header etag)" '200 "3"'
check "inserted before a" eq "$(row_keys "$(body_now /lists/t)")" "first a b c"
post_json '/lists/t/sections/todo/rows?after=b' '[{"key": "b2", "cells": {"task": "B2"}}, {"key": "b3", "cells": {}}]'
check "after=b is 200" eq "$STATUS" 200
check "inserted after b, in order" eq "$(row_keys "$(body_now /lists/t)")" "first a b b2 b3 c"
post_json /lists/t/sections/done/rows '[{"key": "d", "cells": {"task": "D"}}]'
check "append into an empty section" eq "$(row_keys "$(body_now /lists/t)")" "first a b b2 b3 c d"
post_json /lists/t/sections/done/rows '[]'
check "appending no rows is accepted" eq "$STATUS" 200
post_json '/lists/t/sections/todo/rows?after=c' '[{"key": "c2", "cells": {"task": "C2"}}]' -H "If-Match: $(etag_now /lists/t)"
check "insert with the right If-Match is 200" eq "$STATUS" 200
check "after the last row of a section" eq "$(row_keys "$(body_now /lists/t)")" "first a b b2 b3 c c2 d"
check "appended rows are canonical" eq "$(json_at /sections/0/rows/4 "$(body_now /lists/t)")" '{"key":"b3","cells":{},"style":"default"}'

# --- replace in place ---
version=$(etag_now /lists/t)
put_json /lists/t/rows/b '{"cells": {"task": "B!", "n": 2}, "style": "highlight", "href": "/b"}'
check "row replace is 200" eq "$STATUS" 200
check "row replace moves the version by one" eq "$(header etag)" "\"$(( ${version//\"/} + 1 ))\""
doc=$(body_now /lists/t)
check "the row is replaced" eq "$(json_at /sections/0/rows/2 "$doc")" '{"key":"b","cells":{"task":"B!","n":2},"href":"/b","style":"highlight"}'
check "the row keeps its place" eq "$(row_keys "$doc")" "first a b b2 b3 c c2 d"
put_json /lists/t/rows/b '{"key": "b", "cells": {"task": "B"}}'
check "a body naming the same key is fine" eq "$STATUS" 200
check "replace drops what the new row lacks" eq "$(json_at /sections/0/rows/2 "$(body_now /lists/t)")" '{"key":"b","cells":{"task":"B"},"style":"default"}'
put_json /lists/t/rows/d '{"cells": {"task": "D!"}}' -H "If-Match: $(etag_now /lists/t/rows/d)"
check "row replace with the right If-Match is 200" eq "$STATUS" 200
check "a row in another section is replaced there" eq "$(json_at /sections/1/rows/0/cells "$(body_now /lists/t)")" '{"task":"D!"}'

# --- delete ---
version=$(etag_now /lists/t)
http DELETE /lists/t/rows/b2
check "row delete is 204" eq "$STATUS" 204
check "row delete sends the new version" eq "$(header etag)" "\"$(( ${version//\"/} + 1 ))\""
check "the row is gone" eq "$(row_keys "$(body_now /lists/t)")" "first a b b3 c c2 d"
http DELETE /lists/t/rows/b2
check "deleting it again is 404" is_problem 404
http DELETE /lists/t/rows/d -H "If-Match: $(etag_now /lists/t/rows/d)"
check "row delete with the right If-Match is 204" eq "$STATUS" 204
check "the emptied section stays" eq "$(json_at /sections/1 "$(body_now /lists/t)")" \
    '{"key":"done","header":null,"footer":null,"collapsible":false,"collapsed":false,"rows":[]}'

# --- percent-encoded keys in paths ---
put_json /lists/keys '{"title": "Keys", "sections": [
  {"key": "a/b", "rows": [{"key": "x/y", "cells": {"text": "slash"}}]},
  {"key": "with space", "rows": [{"key": "my row", "cells": {"text": "space"}}]},
  {"key": "straße ✓", "rows": [{"key": "日本", "cells": {"text": "unicode"}}, {"key": "a+b", "cells": {"text": "plus"}},
                               {"key": "50%", "cells": {"text": "percent"}}, {"key": "q?#", "cells": {"text": "query"}}]}]}'
check "keys with any characters are accepted" eq "$STATUS" 201
post_json /lists/keys/sections/a%2Fb/rows '[{"key": "after/slash", "cells": {"text": "1"}}]'
check "section key with %2F" eq "$STATUS" 200
post_json '/lists/keys/sections/with%20space/rows?before=my%20row' '[{"key": "before space", "cells": {"text": "2"}}]'
check "section key with %20, before= with %20" eq "$STATUS" 200
post_json '/lists/keys/sections/stra%C3%9Fe%20%E2%9C%93/rows?after=%E6%97%A5%E6%9C%AC' '[{"key": "after unicode", "cells": {"text": "3"}}]'
check "unicode section and after= keys" eq "$STATUS" 200
post_json '/lists/keys/sections/with%20space/rows?after=my+row' '[{"key": "plus is space in a query", "cells": {"text": "4"}}]'
check "+ in a query is a space" eq "$STATUS" 200
check "every insert landed where it was asked" eq "$(row_keys "$(body_now /lists/keys)")" \
    "x/y after/slash before space my row plus is space in a query 日本 after unicode a+b 50% q?#"
put_json /lists/keys/rows/x%2Fy '{"cells": {"text": "slash!"}}'
check "row key with %2F replaced" eq "$STATUS" 200
check "the %2F row is the one replaced" eq "$(json_at /sections/0/rows/0/cells/text "$(body_now /lists/keys)")" '"slash!"'
put_json /lists/keys/rows/a+b '{"cells": {"text": "plus!"}}'
check "+ in a path is a plus" eq "$STATUS" 200
put_json /lists/keys/rows/50%25 '{"cells": {"text": "percent!"}}'
check "row key with %25" eq "$STATUS" 200
put_json /lists/keys/rows/q%3F%23 '{"cells": {"text": "query!"}}'
check "row key with %3F%23" eq "$STATUS" 200
http DELETE /lists/keys/rows/my%20row
check "row key with %20 deleted" eq "$STATUS" 204
http DELETE /lists/keys/rows/%E6%97%A5%E6%9C%AC
check "unicode row key deleted" eq "$STATUS" 204
check "the right rows changed" eq "$(row_keys "$(body_now /lists/keys)")" \
    "x/y after/slash before space plus is space in a query after unicode a+b 50% q?#"
check "and hold their new cells" eq "$(json_at /sections/2/rows/1/cells/text "$(body_now /lists/keys)")$(json_at /sections/2/rows/2/cells/text "$(body_now /lists/keys)")" '"plus!""percent!"'
http DELETE /lists/keys/rows/x
check "a prefix of a %2F key is not that row (404)" is_problem 404
http GET /lists/keys
check "HTML carries keys escaped in data attributes" contains "$BODY" 'data-row="x/y"'

# --- pages ---
put_json /lists/pages '{"title": "Pages", "sections": [
  {"key": "s1", "header": "One", "footer": "end of one", "rows": [{"key": "r1"}, {"key": "r2"}, {"key": "r3"}]},
  {"key": "empty", "header": "Empty"},
  {"key": "s2", "header": "Two", "rows": [{"key": "r4"}, {"key": "r5"}]},
  {"key": "s3", "rows": [{"key": "r6"}, {"key": "r7"}]}]}'
http GET '/lists/pages/rows?limit=2'
check "first page is 200 JSON" eq "$STATUS $(header content-type)" "200 application/json"
check "first page holds the first rows" eq "$(row_keys)" "r1 r2"
check "first page has a next cursor" eval '[[ "$(json_at /next)" =~ ^\"[A-Za-z0-9_-]+\"$ ]]'
check "first page has Link rel=next" eq "$(header link)" "</lists/pages/rows?after=$(json_at /next | tr -d '"')&limit=2>; rel=\"next\""
check "first page has List-Cursor = next" eq "\"$(header list-cursor)\"" "$(json_at /next)"
check "a page's section has its header" eq "$(json_at /sections/0/header)" '"One"'
check "page has an ETag" eq "$(header etag)" '"1-rows"'
http GET '/lists/pages/rows?limit=2' -H 'If-None-Match: "1-rows"'
check "If-None-Match on a page is 304" eq "$STATUS" 304

walk=""
pages=0
path='/lists/pages/rows?limit=2'
while [ -n "$path" ] && [ "$pages" -lt 20 ]; do
    http GET "$path"
    walk="$walk $(row_keys)"
    pages=$((pages + 1))
    path=$(header link | sed -n 's/^<\([^>]*\)>; rel="next"$/\1/p')
    last_next=$(json_at /next)
    last_cursor=$(header list-cursor)
done
check "following Link walks every row once, in order" eq "$walk" " r1 r2 r3 r4 r5 r6 r7"
check "the walk took 4 pages" eq "$pages" 4
check "the last page's next is null" eq "$last_next" null
check "the last page still has List-Cursor" eval '[ -n "$last_cursor" ]'
http GET '/lists/pages/rows?limit=2&after='"$(curl -s "$BASE_URL/lists/pages/rows?limit=2" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["next"])')"
check "the second page starts a new section part" eq "$(json_at /sections/0/key)" '"s1"'
check "the empty section comes with the page that passes it" eq "$(json_at /sections/1/key)$(json_at /sections/1/rows)" '"empty"[]'
http GET '/lists/pages/rows?limit=500'
check "limit=500 is allowed and gives everything" eq "$(row_keys)" "r1 r2 r3 r4 r5 r6 r7"
check "a complete page has no Link" eq "$(header link)" ""
check "a complete page's next is null" eq "$(json_at /next)" null
http GET /lists/pages/rows
check "the default limit (50) gives everything here" eq "$(row_keys)" "r1 r2 r3 r4 r5 r6 r7"

http GET '/lists/pages/rows?limit=3' -H 'Accept: text/html'
check "HTML page is 200 HTML" eq "$STATUS $(header content-type)" "200 text/html; charset=utf-8"
check "HTML page is tbody fragments" eq "${BODY:0:6}" "<tbody"
check "HTML page has no document around it" lacks "$BODY" "<html"
check "HTML page has the rows" eq "$(grep -o 'data-row="[^"]*"' <<<"$BODY" | tr '\n' ' ')" 'data-row="r1" data-row="r2" data-row="r3" '
check "HTML page ends with the pagination row" contains "$BODY" 'rel="next"'
check "HTML page sends Link" contains "$(header link)" 'rel="next"'
check "HTML page has nosniff" eq "$(header x-content-type-options)" nosniff
check "HTML page has its own ETag" eq "$(header etag)" '"1-rows-html"'
check "the footer comes with the section's last row" contains "$BODY" "end of one"
etag=$(header etag)
http GET '/lists/pages/rows?limit=3' -H 'Accept: text/html' -H "If-None-Match: $etag"
check "If-None-Match on an HTML page is 304" eq "$STATUS" 304
next=$(curl -s "$BASE_URL/lists/pages/rows?limit=3" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["next"])')
http GET "/lists/pages/rows?limit=3&after=$next" -H 'Accept: text/html'
check "HTML next page has its rows" eq "$(grep -o 'data-row="[^"]*"' <<<"$BODY" | tr '\n' ' ')" 'data-row="r4" data-row="r5" data-row="r6" '
check "HTML next page has the empty section" contains "$BODY" 'data-section="empty"'
http GET "/lists/pages/rows?limit=5&after=$next" -H 'Accept: text/html'
check "the last HTML page has no pagination row" lacks "$BODY" 'rel="next"'
check "the last HTML page has no Link" eq "$(header link)" ""

# A bigger walk: 300 rows in 6 sections (one empty) in pages of 13, JSON and HTML.
big=$(/usr/bin/python3 -c '
import json
sections = [{"key": f"s{s}", "rows": [{"key": f"r{s}-{r}"} for r in range(0 if s == 3 else 60)]} for s in range(6)]
print(json.dumps({"title": "Big", "sections": sections}))')
put_json /lists/big "$big"
expected=$(/usr/bin/python3 -c 'print(" ".join(f"r{s}-{r}" for s in range(6) if s != 3 for r in range(60)))')
for accept in application/json text/html; do
    walk=""
    pages=0
    path='/lists/big/rows?limit=13'
    while [ -n "$path" ] && [ "$pages" -lt 100 ]; do
        http GET "$path" -H "Accept: $accept"
        if [ "$accept" = text/html ]; then
            walk="$walk $(grep -o 'data-row="[^"]*"' <<<"$BODY" | sed 's/data-row="\(.*\)"/\1/' | tr '\n' ' ')"
        else
            walk="$walk $(row_keys)"
        fi
        pages=$((pages + 1))
        path=$(header link | sed -n 's/^<\([^>]*\)>; rel="next"$/\1/p')
    done
    check "walking 300 rows as $accept returns each once, in order" eq "$(echo $walk)" "$expected"
    check "the $accept walk took 24 pages" eq "$pages" 24
done

# A cursor stays valid when its row is deleted: the walk goes on after it.
http GET '/lists/pages/rows?limit=2'
cursor=$(json_at /next | tr -d '"')
http DELETE /lists/pages/rows/r2
http GET "/lists/pages/rows?limit=2&after=$cursor"
check "a cursor whose row was deleted still positions the walk" eq "$(row_keys)" "r3 r4"
check "a page after a write has the new version's ETag" eq "$(header etag)" '"2-rows"'
http GET '/lists/pages/rows?limit=2' -H 'If-None-Match: "1-rows"'
check "an old page ETag no longer matches" eq "$STATUS" 200

http GET /healthz
check "still healthy" eq "$STATUS $BODY" "200 ok"
finish
