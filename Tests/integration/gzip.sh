#!/usr/bin/env bash
# gzip (API.md section 2): every kind of answer is compressed when the client accepts gzip, is
# byte-identical once decompressed, has an ETag of its own ("7" → "7-gzip") and its 304 (with
# the 200's Cache-Control, Vary and length), and is sent as it is otherwise.
source "$(dirname "$0")/lib.sh"
start_server --demo

# fetch NAME PATH [curl args...]: saves body and headers of GET PATH to $TEST_TMP/NAME.{body,headers}.
fetch() {
    local name=$1 path=$2
    shift 2
    curl -s --path-as-is -D "$TEST_TMP/$name.headers" -o "$TEST_TMP/$name.body" "$@" "$BASE_URL$path"
    tr -d '\r' <"$TEST_TMP/$name.headers" | sed 's/^\([^:]*\):/\L\1:/' >"$TEST_TMP/$name.h"
}
field() { sed -n "s/^$2: //p" "$TEST_TMP/$1.h" | tail -1; }
status_of() { head -1 "$TEST_TMP/$1.h" | cut -d' ' -f2; }

# kind NAME PATH [curl args...]: the whole set of checks for one kind of answer.
kind() {
    local name=$1 path=$2
    shift 2
    fetch "$name-id" "$path" "$@"
    fetch "$name-gz" "$path" -H 'Accept-Encoding: gzip' "$@"
    check "$name: identity answer is 200, not encoded" eq "$(status_of "$name-id") $(field "$name-id" content-encoding)" "200 "
    check "$name: identity answer varies on Accept-Encoding" contains "$(field "$name-id" vary)" "Accept-Encoding"
    check "$name: gzip answer is 200 gzip" eq "$(status_of "$name-gz") $(field "$name-gz" content-encoding)" "200 gzip"
    check "$name: gzip answer varies on Accept-Encoding" contains "$(field "$name-gz" vary)" "Accept-Encoding"
    check "$name: gzip answer has the same type" eq "$(field "$name-gz" content-type)" "$(field "$name-id" content-type)"
    check "$name: gzip answer's Content-Length is its compressed size" \
        eq "$(field "$name-gz" content-length)" "$(stat -c %s "$TEST_TMP/$name-gz.body")"
    gunzip -c <"$TEST_TMP/$name-gz.body" >"$TEST_TMP/$name-gz.plain" 2>/dev/null
    check "$name: decompressed bytes are the identity bytes" cmp -s "$TEST_TMP/$name-gz.plain" "$TEST_TMP/$name-id.body"
    check "$name: compressed is smaller" \
        test "$(stat -c %s "$TEST_TMP/$name-gz.body")" -lt "$(stat -c %s "$TEST_TMP/$name-id.body")"
    local etag
    etag=$(field "$name-id" etag)
    if [ -n "$etag" ]; then
        check "$name: the gzip answer's strong ETag is the identity one's with -gzip" \
            eq "$(field "$name-gz" etag)" "${etag%\"}-gzip\""
        fetch "$name-304" "$path" -H 'Accept-Encoding: gzip' -H "If-None-Match: $(field "$name-gz" etag)" "$@"
        check "$name: If-None-Match with the gzip tag gives 304 to a gzip client" eq "$(status_of "$name-304")" 304
        check "$name: the 304 has no body" eq "$(cat "$TEST_TMP/$name-304.body" 2>/dev/null | wc -c)" 0
        check "$name: the 304 repeats the 200's ETag, Vary and Cache-Control" \
            eq "$(field "$name-304" etag)|$(field "$name-304" vary)|$(field "$name-304" cache-control)" \
            "$(field "$name-gz" etag)|$(field "$name-gz" vary)|$(field "$name-gz" cache-control)"
        check "$name: the 304's Content-Length is the 200's" eq "$(field "$name-304" content-length)" "$(field "$name-gz" content-length)"
        fetch "$name-id304" "$path" -H "If-None-Match: $etag" "$@"
        check "$name: the identity tag gives 304 to an identity client, with its length" \
            eq "$(status_of "$name-id304") $(field "$name-id304" content-length)" "304 $(field "$name-id" content-length)"
        fetch "$name-mixed" "$path" -H 'Accept-Encoding: gzip' -H "If-None-Match: $etag" "$@"
        check "$name: the identity tag does not validate the gzip answer (200)" eq "$(status_of "$name-mixed")" 200
    fi
}

kind page /lists/numbers
kind later-page "/lists/numbers?limit=200&after=$(curl -s "$BASE_URL/lists/numbers/rows?limit=3" -D - -o /dev/null | tr -d '\r' | sed -n 's/^[Ll]ist-[Cc]ursor: //p')"
kind document /lists/numbers -H 'Accept: application/json'
kind rows "/lists/numbers/rows?limit=200"
kind rows-html "/lists/numbers/rows?limit=200" -H 'Accept: text/html'
kind openapi /openapi.json
for module in "$LIST_SERVER_ROOT"/Public/js/*.js; do  # every module of the client, as list.js was
    kind "js-$(basename "$module")" "/assets/js/$(basename "$module")"
done
kind list.css /assets/list.css
kind index /
kind lists /lists

# What counts as accepting gzip (RFC 9110 q-values).
for accept in 'gzip' 'GZIP' 'x-gzip' 'gzip;q=0.5' 'br, gzip;q=0.001' '*' '*;q=0.1' 'deflate, *;q=1' 'identity, gzip'; do
    fetch q /lists/numbers -H 'Accept: application/json' -H "Accept-Encoding: $accept"
    check "Accept-Encoding: $accept gets gzip" eq "$(field q content-encoding)" gzip
done
for accept in 'gzip;q=0' 'gzip;q=0.000' 'gzip; q=0, *' '*;q=0' 'identity' 'br' 'deflate' '' 'gzip;q=2' 'gzip;q=abc' 'gzip;q=1.5'; do
    fetch q /lists/numbers -H 'Accept: application/json' -H "Accept-Encoding: $accept"
    check "Accept-Encoding: '$accept' gets identity" eq "$(field q content-encoding)" ""
done

# HEAD tells the coding and length of what GET would send, without a body.
fetch head /lists/numbers -I -H 'Accept: application/json' -H 'Accept-Encoding: gzip'
check "HEAD with gzip names the coding" eq "$(field head content-encoding)" gzip
check "HEAD with gzip names the compressed length" eq "$(field head content-length)" "$(stat -c %s "$TEST_TMP/document-gz.body")"

# Small answers, writes and errors stay identity.
fetch small /healthz -H 'Accept-Encoding: gzip'
check "a tiny answer is not compressed" eq "$(field small content-encoding)" ""
fetch missing /lists/nope -H 'Accept: application/json' -H 'Accept-Encoding: gzip'
check "a 404 problem is not compressed" eq "$(status_of missing) $(field missing content-encoding)" "404 "

# After a write the new version is compressed too (the cache is per version).
put_json /lists/numbers/rows/n1 '{"cells": {"n": 1, "square": 1, "words": "one, changed"}}' >/dev/null
fetch after /lists/numbers -H 'Accept: application/json' -H 'Accept-Encoding: gzip'
check "the next version's document is compressed" eq "$(field after content-encoding) $(field after etag)" 'gzip "2-gzip"'
check "and holds the write" contains "$(gunzip -c <"$TEST_TMP/after.body")" '"one, changed"'

# A client that read the gzip answer's tag writes with it: If-Match takes it as the version.
put_json /lists/numbers/rows/n1 '{"cells": {"n": 1, "square": 1, "words": "one, again"}}' -H 'If-Match: "2-gzip"' >/dev/null
check "If-Match with the gzip tag of the current version writes" eq "$STATUS $(header etag)" '200 "3"'
put_json /lists/numbers/rows/n1 '{"cells": {"n": 1, "square": 1, "words": "one, late"}}' -H 'If-Match: "2-gzip"' >/dev/null
check "If-Match with the gzip tag of an old version is 412" eq "$STATUS" 412
finish
