#!/usr/bin/env bash
# Static files: types, ETag/304, Cache-Control, and every traversal trick we know refused.
source "$(dirname "$0")/lib.sh"

public="$TEST_TMP/site/Public"
mkdir -p "$public/img"
printf 'console.log("hi")\n' >"$public/app.js"
printf 'body { color: red }\n' >"$public/app.css"
printf '<svg xmlns="http://www.w3.org/2000/svg"/>' >"$public/img/dot.svg"
printf '\x89PNG\r\n' >"$public/img/dot.png"
printf 'SECRET-MARKER\n' >"$TEST_TMP/site/Package.swift"
printf 'SECRET-MARKER\n' >"$public/.hidden"
ln -s "$TEST_TMP/site/Package.swift" "$public/link.txt"
start_server --public "$public"

http GET /assets/app.js
check "script is served" eq "$STATUS" 200
check "script body" contains "$BODY" 'console.log("hi")'
check "script type" eq "$(header content-type)" "text/javascript; charset=utf-8"
check "nosniff" eq "$(header x-content-type-options)" "nosniff"
check "Cache-Control" eq "$(header cache-control)" "no-cache"
etag=$(header etag)
check "ETag is a quoted strong tag" contains "$etag" '"'

http GET /assets/app.css
check "stylesheet type" eq "$(header content-type)" "text/css; charset=utf-8"
http GET /assets/img/dot.svg
check "svg in a subfolder" eq "$STATUS $(header content-type)" "200 image/svg+xml"
http GET /assets/img/dot.png
check "png type" eq "$(header content-type)" "image/png"

http GET /assets/app.js -H "If-None-Match: $etag"
check "If-None-Match gives 304" eq "$STATUS" 304
check "304 has no body" eq "$BODY" ""
check "304 repeats the ETag" eq "$(header etag)" "$etag"
http GET /assets/app.js -H 'If-None-Match: "stale"'
check "stale ETag gives 200" eq "$STATUS" 200

sleep 0.01
printf 'console.log("changed")\n' >"$public/app.js"
http GET /assets/app.js -H "If-None-Match: $etag"
check "changed file gives 200 with new bytes" eq "$STATUS $BODY" '200 console.log("changed")'
check "changed file has a new ETag" lacks "$(header etag)" "$etag"

for path in "/assets/../Package.swift" "/assets/%2e%2e/Package.swift" "/assets/%2E%2E/Package.swift" \
    "/assets/..%2fPackage.swift" "/assets/..%2FPackage.swift" "/assets/img%2f..%2f..%2fPackage.swift" \
    "/assets/..%5cPackage.swift" '/assets/..\Package.swift' "/assets/img/../../Package.swift" \
    "/assets/.hidden" "/assets/link.txt" "/assets/img" "/assets/" "/assets//app.js" \
    "/assets/%2fetc%2fpasswd" "/assets/app.js%00.png" "/assets/%00" "/assets/..%00/Package.swift"; do
    http GET "$path"
    check "$path is refused ($STATUS)" eval '[[ "$STATUS" == 404 || "$STATUS" == 400 ]]'
    check "$path leaks nothing" lacks "$BODY" "SECRET-MARKER"
done
http GET /assets/app.js%00.png
check "encoded NUL is 400" eq "$STATUS" 400

stop_server
start_server
http GET /assets/js/main.js
check "default --public is the package's Public/" eq "$STATUS" 200
for module in "$LIST_SERVER_ROOT"/Public/js/*.js; do  # module scripts need a JavaScript type
    http GET "/assets/js/$(basename "$module")"
    check "js/$(basename "$module") is JavaScript" eq "$STATUS $(header content-type)" "200 text/javascript; charset=utf-8"
    check "js/$(basename "$module") is revalidated like every asset" eq "$(header cache-control)" "no-cache"
done
finish
