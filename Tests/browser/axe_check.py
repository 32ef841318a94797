"""axe-core in the browser tests (issues 24 and 26: every page "axe-clean").

axe-core's `axe.min.js` comes from PyPI, inside the pinned wheel of `axe-selenium-python`
(AXE_WHEEL; npm is not reachable here). The first use makes a venv with Debian's python3-venv
(as Tests/integration/test_redbot.py does), downloads that wheel with its pip (`pip download
--no-deps`, sha256 checked) into `.build-venv/axe-selenium-python-VERSION/` and extracts the
script there; later runs reuse it. Only the script is used: the wheel's Python code (which wants Python
3.12) is never imported, so the tests keep running on Debian's /usr/bin/python3.

`assert_axe_clean(driver, context)` injects the script with WebDriver's `execute_script` (a
DevTools evaluation, which the page's Content-Security-Policy does not govern) and runs
`axe.run` on the whole document with RULES; any violation fails with a readable list.
"""
import hashlib
import subprocess
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE_PACKAGE, AXE_VERSION = "axe-selenium-python", "3.0.0"  # ships axe-core 4.10.2
AXE_WHEEL = "axe_selenium_python-3.0.0-py3-none-any.whl"
AXE_SHA256 = "847e3925861133a523609ff27d0fef387e7588a26f23a27c208a30682b8e9240"
AXE_DIR = ROOT / ".build-venv" / f"{AXE_PACKAGE}-{AXE_VERSION}"
AXE_JS = AXE_DIR / "axe.min.js"

# The rule set: WCAG 2.0 and 2.1, levels A and AA (colour contrast included), and axe's best
# practices (landmarks, one h1, heading order, …). WCAG 2.2's only automated rule (target-size)
# is a level-AA addition we have not been asked for; AAA rules (enhanced contrast) are left out.
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

# Rules switched off, each with the reason (docs/CLIENT.md, "Accessibility", lists them too).
DISABLED: dict[str, str] = {}


def axe_source():
    """The text of axe.min.js, fetched (once) from the pinned wheel."""
    if not AXE_JS.is_file():
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        wheel = AXE_DIR / AXE_WHEEL
        if not wheel.is_file():
            # --ignore-requires-python: the wheel says Python >= 3.12 for its Python code, which
            # is never run; only the JavaScript file inside is read.
            venv = AXE_DIR / "venv"
            if not (venv / "bin" / "pip").exists():
                subprocess.run(["/usr/bin/python3", "-m", "venv", "--clear", str(venv)], check=True)
            subprocess.run([str(venv / "bin" / "pip"), "download", "--quiet", "--disable-pip-version-check",
                            "--no-deps", "--only-binary=:all:", "--ignore-requires-python",
                            "--dest", str(AXE_DIR), f"{AXE_PACKAGE}=={AXE_VERSION}"], check=True)
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        if digest != AXE_SHA256:
            wheel.unlink()
            raise RuntimeError(f"{AXE_WHEEL}: sha256 {digest}, expected {AXE_SHA256}")
        with zipfile.ZipFile(wheel) as archive:
            source = archive.read("axe_selenium_python/node_modules/axe-core/axe.min.js")
        partial = AXE_JS.with_suffix(".partial")
        partial.write_bytes(source)
        partial.replace(AXE_JS)
    return AXE_JS.read_text()


RUN_JS = """
const done = arguments[arguments.length - 1];
const rules = Object.fromEntries(arguments[1].map((id) => [id, {enabled: false}]));
const undecidedFails = arguments[2];
const brief = (v, undecided) => ({id: v.id, impact: v.impact || 'serious', helpUrl: v.helpUrl,
  help: undecided ? v.help + ' (axe could not decide: ' + undecided + ')' : v.help,
  nodes: v.nodes.map((n) => ({target: n.target.join(' '), summary: n.failureSummary
    || n.any.map((c) => c.message).join('; ')}))});
// An icon (a control whose content is only symbols, named by aria-label) is not text: WCAG 1.4.3
// does not apply to it, and axe leaves it undecided with messageKey 'nonBmp'.
const isIcon = (n) => n.any.some((c) => c.data && c.data.messageKey === 'nonBmp');
const undecided = (v) => Object.assign({}, v, {nodes: v.nodes.filter((n) => !isIcon(n))});
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, rules})
  .then((r) => done({violations: r.violations.map((v) => brief(v))
    .concat(r.incomplete.filter((v) => undecidedFails.includes(v.id)).map(undecided)
      .filter((v) => v.nodes.length > 0).map((v) => brief(v, 'check by eye')))}))
  .catch((e) => done({error: String(e && e.stack || e)}));
"""

# Rules whose undecided ("incomplete") results fail too: a colour pair axe cannot measure (text
# over an image or gradient, or covered by another element) is one nobody has checked.
UNDECIDED_FAILS = ["color-contrast"]


# A bound on one axe.run (seconds): a page of a few hundred rows takes about one on a quiet machine.
AXE_TIMEOUT = 60


def axe_violations(driver):
    """axe's violations on the current document: [{id, impact, help, helpUrl, nodes}]."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(axe_source())
    previous = driver.timeouts.script
    driver.set_script_timeout(AXE_TIMEOUT)
    try:
        result = driver.execute_async_script(RUN_JS, RULES, list(DISABLED), UNDECIDED_FAILS)
    finally:
        driver.set_script_timeout(previous)
    if result.get("error"):
        raise AssertionError(f"axe.run failed: {result['error']}")
    return result["violations"]


def describe(violations, limit=8):
    """A readable list: rule id, impact, help and its URL, then each offending node's selector."""
    lines = []
    for v in violations:
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl'].split('?')[0]})")
        for node in v["nodes"][:limit]:
            summary = " ".join((node.get("summary") or "").split())[:300]
            lines.append(f"      {node['target']}  -- {summary}")
        if len(v["nodes"]) > limit:
            lines.append(f"      … and {len(v['nodes']) - limit} more")
    return "\n".join(lines)


def assert_axe_clean(driver, context):
    """Fails (AssertionError) when axe finds any violation on the current page; `context` names
    the page and state (e.g. "/lists/countries dark 390 px after a live update")."""
    violations = axe_violations(driver)
    if violations:
        raise AssertionError(f"axe: {len(violations)} rule(s) violated on {context}:\n{describe(violations)}")


if __name__ == "__main__":  # scripts/test: fetch axe-core before the browser tests need it
    print(f"axe-core {axe_source()[:40].split('axe v')[1].split()[0]} from {AXE_PACKAGE}=={AXE_VERSION}: {AXE_JS}")
