#!/usr/bin/env bash
# The icon: every page declares /assets/favicon.svg, which is served, and /favicon.ico (what a
# browser asks for when a page declares nothing, e.g. a JSON answer opened in a tab) is the same.
source "$(dirname "$0")/lib.sh"
start_server --demo

for page in / /lists/countries "/lists?x" ; do
    http GET "$page" -H 'Accept: text/html'
    check "$page declares the icon" contains "$BODY" '<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">'
    check "$page has a level-one heading" contains "$BODY" '<h1>'
done

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
