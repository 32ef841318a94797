#!/usr/bin/env bash
# Keeps the README's "Try it" transcript true: runs each of its commands against a --demo server
# and compares the output line by line (Date headers and subscription ids aside). A command that
# opens /events runs in the background while the next block's commands run, as the README says.
source "$(dirname "$0")/lib.sh"
start_server --demo

readme_transcript "Try it"

# normalised FILE: the file with the README's address, Date headers and subscription ids made comparable.
normalised() {
    sed -e "s|http://127.0.0.1:$PORT|http://127.0.0.1:8080|g" -e 's/^Date: .*/Date: (date)/' \
        -e 's/"subscription":"[0-9a-f]\{32\}"/"subscription":"(id)"/g' "$1"
}

commands=$(ls "$TEST_TMP"/cmd-* 2>/dev/null | wc -l)
check "the README shows at least 8 commands" eval '[ "$commands" -ge 8 ]'
background=""
for n in $(seq 1 "$commands"); do
    sed -i "s|http://127.0.0.1:8080|$BASE_URL|g" "$TEST_TMP/cmd-$n"
    if [ -e "$TEST_TMP/background-$n" ]; then
        bash "$TEST_TMP/cmd-$n" 2>/dev/null | tr -d '\r' >"$TEST_TMP/actual-$n" &
        background="$n $!"
        sleep 1
        continue
    fi
    bash "$TEST_TMP/cmd-$n" 2>/dev/null | tr -d '\r' >"$TEST_TMP/actual-$n"
    echo >>"$TEST_TMP/actual-$n"
done
if [ -n "$background" ]; then
    set -- $background
    wait "$2"
    echo >>"$TEST_TMP/actual-$1"
fi
for n in $(seq 1 "$commands"); do
    # A body without a final newline and one with it look the same in the README.
    expected=$(normalised "$TEST_TMP/expected-$n")
    actual=$(normalised "$TEST_TMP/actual-$n")
    check "README command $n ($(head -c 60 "$TEST_TMP/cmd-$n" | head -1 | sed "s|$BASE_URL||"))" eq "$actual" "$expected"
done
finish
