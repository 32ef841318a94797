"""REDbot, lint for HTTP (issue 25), on each kind of answer the server gives: an HTML page, a JSON
document, a page of rows, the index and `GET /lists`, a static asset, an error; the 304s come from
REDbot's own conditional requests (it revalidates each answer with If-None-Match and checks the
304 against the 200). A warning or worse that ALLOWED does not name, with its reason, fails the
test; each entry of ALLOWED is justified in docs/SERVER.md ("What REDbot says").

REDbot comes from PyPI into a venv this test makes (.build-venv/redbot-VERSION) with Debian's
python3-venv, as test_schemathesis.py does for schemathesis. Its command line is run with
`-o har`, whose `_red_messages` carry each note's id and level. REDbot's command line takes no
request headers, so the JSON document (`GET /lists/{id}` with `Accept: application/json`) is
checked by the same code the command line runs (`HttpResource`, the HAR formatter), given that
header (REDBOT_DRIVER below).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import livetest  # starts the server (LIST_SERVER_BIN) on port 0
from testkit import Checks

VERSION = "2.7.1"
ROOT = Path(os.environ.get("LIST_SERVER_ROOT", Path(__file__).resolve().parents[2]))
VENV = ROOT / ".build-venv" / f"redbot-{VERSION}"
BIN = VENV / "bin" / "redbot"

# note_id -> why the server keeps what REDbot flags (docs/SERVER.md, "What REDbot says", says
# the same). Empty: since issue 25 REDbot finds nothing to warn about on these answers.
ALLOWED: dict[str, str] = {}

# The command line's own code, with request headers (REDbot's command line has no flag for them).
REDBOT_DRIVER = r"""
import sys, thor
from configparser import ConfigParser
from redbot.formatter import find_formatter
from redbot.resource import HttpResource
config = ConfigParser(); config.read_dict({"redbot": {"enable_local_access": "True"}}); config = config["redbot"]
resource = HttpResource(config)
resource.set_request(sys.argv[1], headers=[tuple(h.split(": ", 1)) for h in sys.argv[2:]])
formatter = find_formatter("har", "text", False)(config, resource, sys.stdout.write, {"tty_out": False, "descend": False})
formatter.bind_resource(resource)
@thor.events.on(formatter)
def formatter_done():
    thor.stop()
resource.check()
thor.run()
"""


def install():
    """Makes the venv and installs REDbot unless that version is already there."""
    if BIN.exists():
        return
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--clear", str(VENV)], check=True)
    subprocess.run([str(VENV / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                    f"redbot=={VERSION}"], check=True)


def notes_of(messages):
    """Every note and subnote, flattened."""
    for message in messages:
        yield message
        yield from notes_of(message.get("subnotes", []))


def redbot(url, headers=()):
    """REDbot's answer on `url`: (status, [(note_id, level, summary)])."""
    if headers:
        command = [str(VENV / "bin" / "python"), "-c", REDBOT_DRIVER, url, *headers]
    else:
        command = [str(BIN), "-o", "har", url]
    out = subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    har = json.loads(out.stdout)
    entries = har["log"]["entries"]
    if not entries:  # REDbot could not fetch it at all (its reason is in its text output)
        return None, []
    found = []
    for entry in entries:
        for note in notes_of(entry.get("_red_messages", [])):
            found.append((note["note_id"], note["level"], note["summary"]))
    return entries[0]["response"]["status"], found


def check_target(checks, counts, description, url, headers=(), status=200, revalidated=True):
    """Runs REDbot on one answer: it must have been fetched with `status`, revalidated with a
    304 when `revalidated` (REDbot's INM_304 note: it sent If-None-Match with the 200's tag and
    got a 304), and draw no warning that ALLOWED does not name."""
    got, notes = redbot(url, headers)
    checks.equal(f"REDbot fetched {description}", got, status)
    ids = {note_id for note_id, _, _ in notes}
    if revalidated:
        checks.check(f"REDbot's If-None-Match on {description} got a 304", "INM_304" in ids, sorted(ids))
    flagged = sorted({(note_id, level, summary) for note_id, level, summary in notes if level in ("WARN", "BAD")})
    for note_id, level, summary in flagged:
        counts[(note_id, summary)] = counts.get((note_id, summary), 0) + 1
    unexplained = [f"{level} {note_id}: {summary}" for note_id, level, summary in flagged if note_id not in ALLOWED]
    checks.check(f"REDbot finds nothing unexplained on {description}", not unexplained, "; ".join(unexplained))
    return ids


def main():
    install()
    checks = Checks("redbot")
    counts = {}
    with livetest.Server("--demo") as server:
        # numbers has more than a page of rows, so its page and rows carry Link: rel=next.
        cursor = server.request("GET", "/lists/numbers/rows?limit=20")[1].get("list-cursor")
        targets = [
            ("the HTML page", "/lists/countries", ()),
            ("an HTML page with Link: rel=next", "/lists/numbers", ()),
            ("a later HTML page (after=)", f"/lists/numbers?after={cursor}", ()),
            ("the JSON document", "/lists/countries", ("Accept: application/json",)),
            ("a page of rows (JSON)", "/lists/numbers/rows?limit=20", ()),
            ("a page of rows (HTML)", "/lists/numbers/rows?limit=20", ("Accept: text/html",)),
            ("the HTML index", "/", ()),
            ("GET /lists", "/lists", ()),
            ("GET /lists, paged", "/lists?limit=2", ()),
            ("a static asset", "/assets/list.css", ()),
            ("the OpenAPI description", "/openapi.json", ()),
        ]
        for description, path, headers in targets:
            check_target(checks, counts, f"{description} ({path})", server.url(path), headers)
        check_target(checks, counts, "an error (404 problem+json)", server.url("/lists/no-such-list"),
                     status=404, revalidated=False)
    # Under --private: a page opened with a view link's key, and the document with a token.
    with livetest.Server("--demo", "--private", "--token", "redbot-token") as server:
        status, headers, body = server.request("POST", "/lists/countries/links", b"",
                                               {"Authorization": "Bearer redbot-token"})
        link = json.loads(body)["url"]
        # The link is absolute, on the host the request came to.
        ids = check_target(checks, counts, "a page opened with a view link (--private)", link)
        checks.check("REDbot reads it as private to one user", "STORE_PRIVATE_CC" in ids, sorted(ids))
        ids = check_target(checks, counts, "the document with a token (--private)", server.url("/lists/countries"),
                           ("Accept: application/json", "Authorization: Bearer redbot-token"))
        checks.check("REDbot reads the document as private to one user", "STORE_PRIVATE_CC" in ids, sorted(ids))
    print("REDbot's warnings by message (allowed ones included):")
    for (note_id, summary), count in sorted(counts.items()):
        print(f"  {count} x {note_id}: {summary}" + ("  [allowed]" if note_id in ALLOWED else ""))
    sys.exit(checks.summary())


main()
