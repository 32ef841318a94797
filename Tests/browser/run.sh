#!/bin/sh
# Runs every browser test file of the static client (docs/CLIENT.md) and prints the total.
# Needs Debian's chromium, chromium-driver and python3-selenium; exits non-zero on any failure.
cd "$(dirname "$0")/../.." || exit 2
passed=0 failed=0 status=0
for test in Tests/browser/test_*.py; do
    echo "== $test"
    out=$(/usr/bin/python3 "$test" 2>&1) || status=1
    printf '%s\n' "$out"
    line=$(printf '%s\n' "$out" | grep -E '^([^ ]+: )?[0-9]+ passed, [0-9]+ failed$' | tail -n 1 | sed 's/^[^ ]*: //')
    if [ -z "$line" ]; then
        echo "   (no summary line: counted as one failure)"
        failed=$((failed + 1)); status=1; continue
    fi
    passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
    failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
done
# The client's module graph: no cycles, imports only into lower layers (Public/js/README.md).
echo "== Tests/browser/check_modules.py"
if /usr/bin/python3 Tests/browser/check_modules.py; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); status=1
fi
# The client's JSDoc types, checked when TypeScript is installed (Debian: node-typescript).
if command -v tsc >/dev/null 2>&1; then
    echo "== tsc --checkJs --strict Public/js/*.js"
    if tsc --noEmit --allowJs --checkJs --strict --target es2022 --module es2022 --lib es2022,dom,dom.iterable Public/js/*.js; then
        echo "ok   types"; passed=$((passed + 1))
    else
        echo "FAIL types"; failed=$((failed + 1)); status=1
    fi
fi
echo "$passed passed, $failed failed"
exit $status
