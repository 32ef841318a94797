#!/usr/bin/env bash
# healthz, index, metrics, 404/405 problem+json, HEAD.
source "$(dirname "$0")/lib.sh"
start_server

http GET /healthz
check "healthz is 200 ok" eq "$STATUS $BODY" "200 ok"
check "healthz is text/plain" contains "$(header content-type)" "text/plain"

http GET /
check "index is 200" eq "$STATUS" 200
check "index is HTML" contains "$(header content-type)" "text/html"
check "index is a document" contains "$BODY" "<html"
check "index has a CSP" contains "$(header content-security-policy)" "default-src 'self'"

http GET /nowhere
check "unknown path is 404" eq "$STATUS" 404
check "404 is problem+json" eq "$(header content-type)" "application/problem+json"
check "404 body names the status" contains "$BODY" '"status":404'
check "404 body has a title" contains "$BODY" '"title":"Not Found"'

http DELETE /healthz
check "wrong method is 405" eq "$STATUS" 405
check "405 has Allow" eq "$(header allow)" "GET, HEAD, OPTIONS"
check "405 is problem+json" eq "$(header content-type)" "application/problem+json"

raw_request 'HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
check "HEAD is answered" contains "$RAW" "HTTP/1.1 200 OK"
check "HEAD has the GET length" contains "$RAW" "Content-Length: 3"
check "HEAD has no body" lacks "$RAW" "ok"

http GET /metrics
check "metrics is 200" eq "$STATUS" 200
check "metrics is Prometheus text" contains "$(header content-type)" "text/plain; version=0.0.4"
check "metrics counts 404s" contains "$BODY" 'list_server_http_responses_total{status="404"} 1'
check "metrics counts 200s" contains "$BODY" 'list_server_http_responses_total{status="200"}'
check "metrics has open streams" contains "$BODY" "list_server_open_streams 0"

check "requests are logged" contains "$(cat "$SERVER_LOG")" "GET /nowhere 404"
finish
