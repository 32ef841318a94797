#!/usr/bin/env bash
# Body caps (413 declared and chunked) and malformed requests: answered or closed, never a crash.
source "$(dirname "$0")/lib.sh"
start_server --max-body 1024

head -c 1024 /dev/zero >"$TEST_TMP/at-cap"
head -c 5000 /dev/zero >"$TEST_TMP/over-cap"
head -c 3000000 /dev/zero >"$TEST_TMP/large"

http PUT /healthz --data-binary @"$TEST_TMP/at-cap"
check "a body at the cap is read (405 from the route)" eq "$STATUS" 405

http PUT /healthz --data-binary @"$TEST_TMP/over-cap"
check "declared Content-Length over the cap is 413" eq "$STATUS" 413
check "413 is problem+json" eq "$(header content-type)" "application/problem+json"
check "413 says the limit" contains "$BODY" "1024 bytes"

http PUT /healthz --data-binary @"$TEST_TMP/large" -H "Expect:"
check "large declared body without 100-continue is 413" eq "$STATUS" 413

http PUT /healthz --data-binary @"$TEST_TMP/over-cap" -H "Transfer-Encoding: chunked"
check "chunked body over the cap is 413" eq "$STATUS" 413
http PUT /healthz --data-binary @"$TEST_TMP/large" -H "Transfer-Encoding: chunked"
check "large chunked body is 413" eq "$STATUS" 413

raw_request 'GARBAGE\r\n\r\n'
check "garbage request line: closed or 400 ($RAW)" eval '[[ -z "$RAW" || "$RAW" == "HTTP/1.1 400"* ]]'
raw_request 'GET\r\n\r\n'
check "request line without target: closed or 400" eval '[[ -z "$RAW" || "$RAW" == "HTTP/1.1 400"* ]]'
raw_request 'GET / HTTP/1.1\r\nNoColonHeader\r\n\r\n'
check "header without colon is 400" contains "$RAW" "HTTP/1.1 400"
raw_request 'GET / HTTP/9.9\r\n\r\n'
check "unknown HTTP version is rejected" contains "$RAW" "HTTP/1.1 505"
raw_request '\x01\x02\x03\xff\xfe\r\n\r\n'
check "binary noise: closed or 400" eval '[[ -z "$RAW" || "$RAW" == "HTTP/1.1 400"* ]]'
raw_request 'GET /%%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
check "bad percent escape is 400 problem+json" contains "$RAW" "application/problem+json"
raw_request 'PUT /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nabc\r\n'
check "broken chunk framing: closed or 400" eval '[[ -z "$RAW" || "$RAW" == "HTTP/1.1 400"* ]]'
raw_request 'PUT /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n'
check "negative Content-Length: closed or 400" eval '[[ -z "$RAW" || "$RAW" == "HTTP/1.1 400"* || "$RAW" == "HTTP/1.1 413"* ]]'

long=$(head -c 20000 /dev/zero | tr '\0' a)
http GET "/$long"
check "very long target is refused ($STATUS)" eval '[[ "$STATUS" == 404 || "$STATUS" == 414 || "$STATUS" == 431 ]]'

http GET /healthz
check "server still healthy after all that" eq "$STATUS $BODY" "200 ok"
stop_server
check "clean exit after abuse" eq "$STOP_STATUS" 0
finish
