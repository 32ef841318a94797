#!/usr/bin/env bash
# Restart persistence on one SQLite file, then on one PostgreSQL database: documents, versions, row
# order after moves, cursors and deletions survive SIGTERM and a new start; --demo fills only an
# empty store.
source "$(dirname "$0")/lib.sh"

row_keys() {
    /usr/bin/python3 -c '
import json, sys
value = json.loads(sys.argv[1])
print(" ".join(row["key"] for section in value["sections"] for row in section["rows"]))' "${1-$BODY}"
}

# persistence_on DB DEMO_DB: the checks, with two empty stores.
persistence_on() {
local db=$1 demo_db=$2
start_server --db "$db"
put_json /lists/a '{"title": "A", "columns": [{"key": "name"}, {"key": "n", "kind": "number"}], "emptyText": "none",
  "sections": [{"key": "s1", "header": "One", "rows": [{"key": "r1", "cells": {"name": "1", "n": 1}}, {"key": "r2"}, {"key": "r3"}]},
               {"key": "s2", "footer": "Two", "collapsible": true, "rows": [{"key": "r4"}, {"key": "r5", "href": "/five", "style": "muted"}]},
               {"key": "s3", "rows": []}]}'
patch_json /lists/a '[{"op": "move", "from": "/sections/0/rows/0", "path": "/sections/1/rows/1"},
  {"op": "move", "from": "/sections/1/rows/0", "path": "/sections/0/rows/0"}]'
post_json '/lists/a/sections/s3/rows' '[{"key": "r6", "cells": {"name": "six"}}]'
post_json '/lists/a/sections/s1/rows?before=r3' '[{"key": "r2b"}]'
put_json /lists/a/rows/r2 '{"cells": {"name": "two", "n": 2.5}, "style": "highlight"}'
http DELETE /lists/a/rows/r5
patch_json /lists/a '[{"op": "move", "from": "/sections/2/rows/0", "path": "/sections/0/rows/1"}]'
check "seven writes later list a is at version 7" eq "$(etag_now /lists/a)" '"7"'
put_json /lists/b '{"title": "B"}'
patch_json /lists/b '[{"op": "replace", "path": "/title", "value": "B2"}]'
put_json /lists/gone '{"title": "Gone"}'
http DELETE /lists/gone
put_json /lists/keys '{"title": "Keys", "sections": [{"key": "a/b", "rows": [{"key": "日本 row"}]}]}'

doc_a=$(body_now /lists/a)
doc_b=$(body_now /lists/b)
doc_keys=$(body_now /lists/keys)
index=$(body_now /lists)
order=$(row_keys "$doc_a")
check "row order before the restart" eq "$order" "r4 r6 r2 r2b r3 r1"
http GET '/lists/a/rows?limit=2'
cursor=$(json_at /next | tr -d '"')
http GET "/lists/a/rows?limit=3&after=$cursor"
page_after=$BODY
html_page=$(curl -s "$BASE_URL/lists/a")

stop_server
check "SIGTERM exits 0" eq "$STOP_STATUS" 0

start_server --db "$db"
check "list a comes back byte for byte" eq "$(body_now /lists/a)" "$doc_a"
check "list a keeps its version" eq "$(etag_now /lists/a)" '"7"'
check "row order after moves survives" eq "$(row_keys "$(body_now /lists/a)")" "$order"
check "list b comes back with its version" eq "$(body_now /lists/b) $(etag_now /lists/b)" "$doc_b \"2\""
check "encoded keys come back" eq "$(body_now /lists/keys)" "$doc_keys"
check "a deleted list stays deleted" eq "$(etag_now /lists/gone)" none
check "GET /lists is the same" eq "$(body_now /lists)" "$index"
http GET "/lists/a/rows?limit=3&after=$cursor"
check "a cursor from before the restart still works" eq "$STATUS" 200
check "and gives the same page" eq "$BODY" "$page_after"
check "the HTML page is the same" eq "$(curl -s "$BASE_URL/lists/a")" "$html_page"
check "the stream resets at the stored version" contains "$(curl -s -N --max-time 1 "$BASE_URL/lists/a/events")" $'event: reset\nid: 7\n'
put_json /lists/a/rows/r4 '{"cells": {"name": "four"}}'
check "the next write continues the version count" eq "$STATUS $(header etag)" '200 "8"'
put_json /lists/gone '{"title": "Back"}'
gone_version=$(header etag)
check "a deleted id continues its version count after a restart" eq "$STATUS" 201
check "past the deleted list's versions" test "${gone_version//\"/}" -gt 1
doc_a=$(body_now /lists/a)
stop_server INT
check "SIGINT exits 0" eq "$STOP_STATUS" 0

start_server --db "$db"
check "writes after a restart survive the next one" eq "$(body_now /lists/a) $(etag_now /lists/a)" "$doc_a \"8\""
check "the re-created list is back" eq "$(etag_now /lists/gone)" "$gone_version"
stop_server

# --- --demo fills an empty store only ---
start_server --db "$demo_db" --demo
demo_index=$(body_now /lists)
demo_count=$(grep -o '"id"' <<<"$demo_index" | wc -l)
check "--demo loads demo lists into an empty store" eval '[ "$demo_count" -ge 3 ]'
check "the demo has the countries list at version 1" eq "$(etag_now /lists/countries)" '"1"'
patch_json /lists/countries '[{"op": "replace", "path": "/title", "value": "My countries"}]'
check "a demo list can be edited" eq "$STATUS" 200
http DELETE /lists/inbox
check "a demo list can be deleted" eq "$STATUS" 204
edited=$(body_now /lists)
stop_server

start_server --db "$demo_db" --demo
check "a second --demo start changes nothing" eq "$(body_now /lists)" "$edited"
check "the edit is not overwritten" contains "$(body_now /lists/countries)" '"title":"My countries"'
check "the deleted demo list is not brought back" eq "$(etag_now /lists/inbox)" none
stop_server

start_server --db "$db" --demo
check "--demo leaves a store that holds lists alone" eq "$(etag_now /lists/countries)" none
stop_server

start_server --db "$demo_db"
check "without --demo the stored lists are served" eq "$(body_now /lists)" "$edited"
stop_server
check "clean exit" eq "$STOP_STATUS" 0
}

echo "--- SQLite"
persistence_on "$TEST_TMP/x.sqlite" "$TEST_TMP/demo.sqlite"
check "the database file is created" eval '[ -s "$TEST_TMP/x.sqlite" ]'
echo "--- PostgreSQL"
start_postgres
persistence_on "$(postgres_db x)" "$(postgres_db demo)"
check "the server's log never shows the PostgreSQL password" eval '! grep -qF "$(cat "$PG_DIR/password")" "$TEST_TMP"/server-*.log'
finish
