#!/usr/bin/env bash
# The icon: every page declares its assets' favicon.svg (/assets/v/VERSION/favicon.svg), which is
# served, and /favicon.ico (what a browser asks for when a page declares nothing, e.g. a JSON
# answer opened in a tab) is the same.
source "$(dirname "$0")/lib.sh"
start_server --demo

for page in / /lists/countries "/lists?x" ; do
    http GET "$page" -H 'Accept: text/html'
    icon_path=$(printf '%s' "$BODY" | sed -n 's|.*<link rel="icon" href="\(/assets/v/[0-9a-f]\{16\}/favicon.svg\)" type="image/svg+xml">.*|\1|p' | head -1)
    check "$page declares the icon under the assets' version" contains "$icon_path" "/favicon.svg"
    check "$page has a level-one heading" contains "$BODY" '<h1>'
done

http GET "$icon_path"
check "the declared icon is kept for good (immutable)" contains "$(header cache-control)" "immutable"
http GET /assets/favicon.svg
check "the declared icon is served" eq "$STATUS $(header content-type)" "200 image/svg+xml"
check "the icon is an SVG" contains "$BODY" '<svg xmlns="http://www.w3.org/2000/svg"'
icon=$BODY
etag=$(header etag)
http GET /favicon.ico
check "/favicon.ico answers 200 with the same icon" eq "$STATUS $(header content-type)" "200 image/svg+xml"
check "/favicon.ico holds the same bytes" eq "$BODY" "$icon"
http GET /favicon.ico -H "If-None-Match: $etag"
check "/favicon.ico honours If-None-Match" eq "$STATUS" 304
finish
