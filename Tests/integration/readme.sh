#!/usr/bin/env bash
# Keeps the README's "Try it" transcript true: runs each of its commands against a --demo server
# and compares the output line by line (Date headers and subscription ids aside). A command that
# opens /events runs in the background while the next block's commands run, as the README says.
source "$(dirname "$0")/lib.sh"
start_server --demo

# Split the console blocks of "## Try it" into $TEST_TMP/cmd-N (command), expected-N (its
# output) and background-N (present for a stream command).
/usr/bin/python3 - "$LIST_SERVER_ROOT/README.md" "$TEST_TMP" <<'EOF'
import sys
readme, out = open(sys.argv[1]).read(), sys.argv[2]
section = readme.split("## Try it", 1)[1].split("\n## ", 1)[0]
blocks = [part.split("```", 1)[0] for part in section.split("```console\n")[1:]]
count = 0
for block in blocks:
    lines = block.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        command = [lines[i][2:]]
        i += 1
        while (command[-1].endswith("\\") or "\n".join(command).count("'") % 2) and i < len(lines):
            command.append(lines[i])
            i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        count += 1
        open(f"{out}/cmd-{count}", "w").write("\n".join(command) + "\n")
        open(f"{out}/expected-{count}", "w").write("\n".join(output).rstrip("\n") + "\n")
        if "/events" in command[0]:
            open(f"{out}/background-{count}", "w").write("")

EOF

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
