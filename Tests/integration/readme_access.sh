#!/usr/bin/env bash
# Keeps the README's "Sharing and access" transcript true: writes its tokens.txt (the output of
# its `cat tokens.txt`), starts the server with the flags of its `scripts/run` line, runs each
# curl command and compares the output (view-link keys and expiry times aside).
source "$(dirname "$0")/lib.sh"

readme_transcript "Sharing and access"

check "the section starts with cat tokens.txt" eq "$(cat "$TEST_TMP/cmd-1")" "cat tokens.txt"
check "then scripts/run with flags" contains "$(cat "$TEST_TMP/cmd-2")" "scripts/run "
cp "$TEST_TMP/expected-1" "$TEST_TMP/tokens.txt"
cd "$TEST_TMP" || exit 1
read -r -a flags <<<"$(sed 's/^scripts\/run //' "$TEST_TMP/cmd-2")"
start_server "${flags[@]}"

normalised() {
    sed -e 's/key=[A-Za-z0-9._-]*/key=(key)/g' -e 's/"expires":"[^"]*"/"expires":"(time)"/g' \
        -e "s|$BASE_URL|http://127.0.0.1:8080|g" "$1"
}

commands=$(ls "$TEST_TMP"/cmd-* | wc -l)
check "the section shows at least 6 commands" eval '[ "$commands" -ge 6 ]'
for n in $(seq 3 "$commands"); do
    sed -i "s|http://127.0.0.1:8080|$BASE_URL|g" "$TEST_TMP/cmd-$n"
    bash "$TEST_TMP/cmd-$n" 2>/dev/null >"$TEST_TMP/actual-$n"
    echo >>"$TEST_TMP/actual-$n"
    check "README access command $n ($(head -1 "$TEST_TMP/cmd-$n" | head -c 70 | sed "s|$BASE_URL||"))" \
        eq "$(normalised "$TEST_TMP/actual-$n")" "$(normalised "$TEST_TMP/expected-$n")"
done

# The view link the README made opens the private list, and its shape is the one shown.
link=$(sed -n 's/.*"url":"\([^"]*\)".*/\1/p' "$TEST_TMP/actual-$((commands - 1))")
check "the README's view link has the documented shape" eval '[[ "$link" =~ ^$BASE_URL/lists/groceries\?key=[0-9]+\.[A-Za-z0-9_-]{43}$ ]]'
http GET "${link#"$BASE_URL"}"
check "and opens the private list" eq "$STATUS" 200
check "whose page offers no editing" eval '[[ "$BODY" != *data-editable* ]]'
http GET /lists/groceries
check "which without the key is 401" eq "$STATUS" 401
# The edit link after it: its page offers editing.
link=$(sed -n 's/.*"url":"\([^"]*\)".*/\1/p' "$TEST_TMP/actual-$commands")
check "the README's edit link has the documented shape" eval '[[ "$link" =~ ^$BASE_URL/lists/groceries\?key=[0-9]+\.w\.[A-Za-z0-9_-]{43}$ ]]'
http GET "${link#"$BASE_URL"}"
check "and its page offers editing" contains "$BODY" 'data-editable="true"'
stop_server
finish
