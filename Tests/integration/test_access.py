#!/usr/bin/python3
"""Who may read and write what (issue 16; API.md section 2 "Scoped access"; docs/ACCESS.md),
against real servers on port 0.

- The matrix: every endpoint x (no token, unknown token, read, write on another list, write,
  admin, view link, expired link, altered link, link for another list), on a public server and
  on a `--private` one. Each cell asserts the status (and the challenge or the listed lists), and
  that the lists are exactly as before after every request that is not an allowed write.
- View links: what `POST /lists/{id}/links` answers, that its key is the HMAC-SHA256 the docs
  describe (checked here with Python's hmac), that it opens the page, its pages of rows, its
  stream and `more`, that links made by the server expire, and that the generated secret is kept
  in the store (a restarted server still accepts its links; another store does not).
- SIGHUP re-reads `--tokens`: an added token works, a removed one stops, a bad file keeps the old;
  the open streams the new tokens no longer allow end (the others go on), and a stream a view
  link opened ends when the link expires.
- Start-up rules: a bad tokens file, `--private` without a token, a short `--secret`.
- Every log line of every server is checked for tokens, keys and secrets.
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import time
import urllib.parse

import livetest
from livetest import Checks, EventStream, Server, wait_until

checks = Checks("test_access")
TMP = tempfile.mkdtemp(prefix="list-access-")
SECRET = "matrix-secret-" + os.urandom(16).hex()
TOKENS = {name: f"{name}-{os.urandom(12).hex()}" for name in ("master", "read", "write", "other", "admin", "unknown")}
TOKENS_FILE = f"""# the matrix's tokens
{TOKENS['read']}   read:alpha
{TOKENS['write']}  write:alp*        # a prefix: covers alpha, not beta
{TOKENS['other']}\twrite:beta
{TOKENS['admin']}  admin
"""
SECRETS_SEEN = set(TOKENS.values()) | {SECRET}  # every log line is checked for these
SERVERS = []  # every server started, for the log check at the end

ALPHA = {"title": "Alpha", "sections": [{"key": "s", "rows": [
    {"key": "r1", "cells": {"text": "one"}}, {"key": "r2", "cells": {"text": "two"}}, {"key": "r3", "cells": {"text": "three"}}]}]}
BETA = {"title": "Beta", "sections": [{"key": "s", "rows": [{"key": "b1"}]}]}


def write_file(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def start(*flags, db=":memory:"):
    server = Server(*flags, db=db, quiet=False)
    SERVERS.append(server)
    return server


def view_key(list_id, expiry, secret=SECRET, right="read"):
    """The key API.md section 2 describes: HMAC-SHA256 over the right, the list id and the expiry
    (an edit link's, `right="write"`, says `w.` before its MAC)."""
    message = f"list-server view link\0{right}\0{list_id}\0{expiry}".encode()
    mac = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    encoded = base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
    key = f"{expiry}." + ("w." if right == "write" else "") + encoded
    SECRETS_SEEN.add(key)
    SECRETS_SEEN.add(encoded)
    return key


def altered(key):
    """The key with one character of its MAC changed."""
    expiry, mac = key.split(".")
    changed = expiry + "." + ("B" if mac[0] == "A" else "A") + mac[1:]
    SECRETS_SEEN.add(changed.split(".")[1])
    return changed


def bearer(name):
    return {"Authorization": f"Bearer {TOKENS[name]}"}


def with_query(path, name, value):
    return path + ("&" if "?" in path else "?") + f"{name}={urllib.parse.quote(value, safe='')}"


def call(server, method, path, body=None, headers=None, content_type=None):
    """One request; `path` may be a view link's absolute URL (its path and query are sent)."""
    if path.startswith("http"):
        parts = urllib.parse.urlsplit(path)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
    return server.request(method, path, body, headers=headers, content_type=content_type)


def state(server):
    """(version, document) of alpha and beta, read with the master token."""
    out = []
    for list_id in ("alpha", "beta"):
        status, headers, body = call(server, "GET", f"/lists/{list_id}", headers={"Accept": "application/json", **bearer("master")})
        out.append((status, livetest.etag_version(headers), json.loads(body) if status == 200 else None))
    return out


def restore(server):
    status, _, body = call(server, "PUT", "/lists/alpha", ALPHA, headers=bearer("master"))
    assert status in (200, 201), (status, body)


def open_stream(server, path, headers):
    """GET of an event stream: (status, headers, the text up to the first reset event, or the body)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        connection.request("GET", path, headers={"Accept": "text/event-stream", **headers})
        response = connection.getresponse()
        result_headers = {k.lower(): v for k, v in response.getheaders()}
        if response.status != 200:
            return response.status, result_headers, response.read()
        text = b""
        for _ in range(40):
            line = response.readline()
            if not line:
                break
            text += line
            if b"event: reset" in text and text.endswith(b"\n\n"):
                break
        return 200, result_headers, text
    finally:
        connection.close()


def subscription(server):
    """An open view=html stream on alpha (master token) and its subscription id."""
    stream = EventStream(server, "/lists/alpha/events?view=html&limit=1", headers=bearer("master"))
    event = stream.next()
    assert event.name == "subscription", event
    return stream, event.data["subscription"]


# MARK: - The matrix

CREDENTIALS = ["no token", "unknown token", "read", "write on another list", "write", "admin",
               "view link", "expired link", "altered link", "link for another list",
               "edit link", "edit link for another list"]
BEARER_OF = {"unknown token": "unknown", "read": "read", "write on another list": "other", "write": "write", "admin": "admin"}
LINKS = {"view link", "expired link", "altered link", "link for another list", "edit link", "edit link for another list"}


def credential(name, keys):
    """(headers, key or None) a request carries for the credential `name`."""
    if name in BEARER_OF:
        return bearer(BEARER_OF[name]), None
    return {}, keys.get(name)


# (what, kind, method, path, body, content type, Accept, status when allowed, changes the lists)
ENDPOINTS = [
    ("GET /healthz", "public", "GET", "/healthz", None, None, None, 200, False),
    ("GET /assets/js/main.js", "public", "GET", "/assets/js/main.js", None, None, None, 200, False),
    ("GET /openapi.json", "public", "GET", "/openapi.json", None, None, None, 200, False),
    ("GET /", "index", "GET", "/", None, None, "text/html", 200, False),
    ("GET /lists", "index", "GET", "/lists", None, None, "application/json", 200, False),
    ("GET /events", "index", "STREAM", "/events", None, None, None, 200, False),
    ("GET /lists/alpha (JSON)", "read", "GET", "/lists/alpha", None, None, "application/json", 200, False),
    ("GET /lists/alpha (page)", "read", "GET", "/lists/alpha?limit=1", None, None, "text/html", 200, False),
    ("GET /lists/alpha/rows", "read", "GET", "/lists/alpha/rows?limit=1", None, None, "application/json", 200, False),
    ("GET /lists/alpha/events", "read", "STREAM", "/lists/alpha/events?view=html", None, None, None, 200, False),
    ("POST /lists/alpha/subscriptions/{sub}/more", "read", "MORE", "/lists/alpha/subscriptions/{sub}/more?limit=1",
     None, None, "application/json", 202, False),
    ("PUT /lists/alpha", "write", "PUT", "/lists/alpha", dict(ALPHA, title="Changed"), "application/json", None, 200, True),
    ("PATCH /lists/alpha", "write", "PATCH", "/lists/alpha", [{"op": "replace", "path": "/title", "value": "Patched"}],
     "application/json-patch+json", None, 200, True),
    ("POST /lists/alpha/sections/s/rows", "write", "POST", "/lists/alpha/sections/s/rows", [{"key": "new"}],
     "application/json", None, 200, True),
    ("PUT /lists/alpha/rows/r1", "write", "PUT", "/lists/alpha/rows/r1", {"cells": {"text": "changed"}},
     "application/json", None, 200, True),
    ("DELETE /lists/alpha/rows/r1", "write", "DELETE", "/lists/alpha/rows/r1", None, None, None, 204, True),
    ("POST /lists/alpha/links", "links", "POST", "/lists/alpha/links?expires=60", None, None, None, 201, False),
    ("DELETE /lists/alpha", "write", "DELETE", "/lists/alpha", None, None, None, 204, True),
    ("GET /metrics", "metrics", "GET", "/metrics", None, None, None, 200, False),
]


# The OpenAPI operation of each endpoint, and the statuses the matrix saw it answer.
OPERATION_OF = {"GET /healthz": "health", "GET /assets/js/main.js": "asset", "GET /openapi.json": "openapi", "GET /": "indexPage",
                "GET /lists": "listLists", "GET /events": "indexEvents", "GET /lists/alpha (JSON)": "getList", "GET /lists/alpha (page)": "getList",
                "GET /lists/alpha/rows": "listRows", "GET /lists/alpha/events": "events",
                "POST /lists/alpha/subscriptions/{sub}/more": "more", "PUT /lists/alpha": "putList",
                "PATCH /lists/alpha": "patchList", "POST /lists/alpha/sections/s/rows": "insertRows",
                "PUT /lists/alpha/rows/r1": "replaceRow", "DELETE /lists/alpha/rows/r1": "deleteRow",
                "POST /lists/alpha/links": "createViewLink", "DELETE /lists/alpha": "deleteList", "GET /metrics": "metrics"}
SEEN = {}


def expected_status(kind, name, private, allowed):
    known = name in BEARER_OF and name != "unknown token"
    if kind == "public":
        return allowed
    if kind == "links":  # making links needs a token: a key is no credential here
        return allowed if name == "write" else 403 if known else 401
    if kind == "write":  # public or private alike: a token with write, or an edit link of the list
        return allowed if name in ("write", "edit link") else 403 if known or name in LINKS else 401
    if not private:  # public reads ignore every credential
        return allowed
    if kind == "index":
        return allowed if known else 401
    if kind == "metrics":
        return allowed if name == "admin" else 403 if known else 401
    if name in ("read", "write", "view link", "edit link"):
        return allowed
    return 403 if known or name in LINKS else 401


def expected_lists(name, private):
    if not private:
        return ["alpha", "beta"]
    return {"read": ["alpha"], "write": ["alpha"], "write on another list": ["beta"], "admin": []}[name]


def send(server, endpoint, headers, key):
    what, kind, method, path, body, content_type, accept, allowed, _ = endpoint
    if key is not None:
        path = with_query(path, "key", key)
    if accept:
        headers = dict(headers, Accept=accept)
    if method == "STREAM":
        return open_stream(server, path, headers)
    if method == "MORE":
        stream, sub = subscription(server)
        try:
            return call(server, "POST", path.replace("{sub}", sub), headers=headers)
        finally:
            stream.close()
    return call(server, method, path, body, headers=headers, content_type=content_type)


def run_matrix(private):
    mode = "private" if private else "public"
    flags = ["--token", TOKENS["master"], "--tokens", write_file("matrix-tokens", TOKENS_FILE), "--secret", SECRET]
    server = start(*flags, *(["--private"] if private else []))
    try:
        restore(server)
        status, _, _ = call(server, "PUT", "/lists/beta", BETA, headers=bearer("master"))
        assert status == 201
        now = int(time.time())
        keys = {"view link": view_key("alpha", now + 3600), "expired link": view_key("alpha", now - 1),
                "link for another list": view_key("beta", now + 3600),
                "edit link": view_key("alpha", now + 3600, right="write"),
                "edit link for another list": view_key("beta", now + 3600, right="write")}
        keys["altered link"] = altered(keys["view link"])
        for endpoint in ENDPOINTS:
            what, kind, _, _, _, _, _, allowed, changes = endpoint
            for name in CREDENTIALS:
                headers, key = credential(name, keys)
                before = state(server)
                status, answer, body = send(server, endpoint, headers, key)
                SEEN.setdefault(OPERATION_OF[what], set()).add(status)
                want = expected_status(kind, name, private, allowed)
                cell = f"{mode}: {what} with {name}"
                if not checks.check(f"{cell} is {want}", status == want, f"got {status}: {body[:300]!r}"):
                    if changes and 200 <= status < 300:
                        restore(server)
                    continue
                if status == 401:
                    checks.check(f"{cell}: the 401 has a Bearer challenge",
                                 answer.get("www-authenticate", "").startswith("Bearer"), answer)
                if status in (401, 403):
                    checks.check(f"{cell}: the refusal is a problem", answer.get("content-type") == "application/problem+json", answer)
                if status == 403 and name in BEARER_OF:
                    checks.check(f"{cell}: the 403 names the missing scope",
                                 'error="insufficient_scope"' in answer.get("www-authenticate", ""), answer)
                if status == 200 and what == "GET /lists":
                    checks.equal(f"{cell} lists what it may read", [e["id"] for e in json.loads(body)["lists"]],
                                 expected_lists(name, private))
                if status == 200 and what == "GET /events":
                    reset = json.loads(body.split(b"data: ", 1)[1])
                    checks.equal(f"{cell}: its reset lists what it may read", [e["id"] for e in reset["lists"]],
                                 expected_lists(name, private))
                if status == 200 and what == "GET /":
                    shown = re.findall(r'href="/lists/([a-z]+)"', body.decode())
                    checks.equal(f"{cell} links what it may read", sorted(set(shown)), expected_lists(name, private))
                if status == 200 and what == "GET /lists/alpha/events":
                    checks.check(f"{cell} streams the list", b"event: reset" in body and b"Alpha" in body, body[:300])
                if changes and 200 <= status < 300:
                    restore(server)
                else:
                    checks.equal(f"{cell} changed nothing", state(server), before)
    finally:
        server.stop()


def test_public_matrix():
    run_matrix(private=False)


def test_private_matrix():
    run_matrix(private=True)


def test_openapi_documents_every_answer():
    """Public/openapi.json lists every status the matrix saw, 401 and 403 included, and the
    security schemes (bearer, the view link's key)."""
    with open(os.path.join(livetest.PACKAGE_ROOT, "Public", "openapi.json")) as f:
        spec = json.load(f)
    operations = {op["operationId"]: op for item in spec["paths"].values() for op in item.values()
                  if isinstance(op, dict) and "operationId" in op}
    for operation, statuses in sorted(SEEN.items()):
        documented = set(operations[operation]["responses"])
        missing = sorted(str(s) for s in statuses if str(s) not in documented)
        checks.check(f"OpenAPI: {operation} documents {sorted(statuses)}", not missing, f"missing {missing}")
    schemes = spec["components"]["securitySchemes"]
    checks.equal("OpenAPI: bearer is HTTP bearer", (schemes["bearer"]["type"], schemes["bearer"]["scheme"]), ("http", "bearer"))
    checks.equal("OpenAPI: the view link is the query's key", (schemes["viewLink"]["in"], schemes["viewLink"]["name"]), ("query", "key"))
    for operation in ("getList", "listRows", "events", "more"):
        checks.check(f"OpenAPI: {operation} accepts a view link", {"viewLink": []} in operations[operation]["security"])
    for operation in ("health", "asset", "openapi"):
        checks.equal(f"OpenAPI: {operation} needs nothing", operations[operation]["security"], [{}])


# MARK: - View links


def test_links():
    tokens = write_file("links-tokens", f"{TOKENS['write']} write:alpha\n")
    server = start("--private", "--tokens", tokens, "--secret", SECRET)
    try:
        call(server, "PUT", "/lists/alpha", ALPHA, headers=bearer("write"))
        before = int(time.time())
        status, headers, body = call(server, "POST", "/lists/alpha/links", headers=bearer("write"))
        checks.equal("POST /links is 201", status, 201)
        link = json.loads(body)
        checks.equal("the answer holds url and expires", sorted(link), ["expires", "url"])
        match = re.fullmatch(r"http://127\.0\.0\.1:\d+/lists/alpha\?key=(\d+)\.([A-Za-z0-9_-]{43})", link["url"])
        checks.check("the url is http://HOST/lists/alpha?key=EXPIRY.MAC (absolute, URL-safe)", match, link["url"])
        if not match:
            return
        key = link["url"].split("key=")[1]
        SECRETS_SEEN.update({key, match.group(2)})
        expiry = int(match.group(1))
        checks.check("the default lifetime is 7 days", before + 7 * 86400 <= expiry <= int(time.time()) + 7 * 86400 + 1, expiry)
        checks.equal("expires is the expiry in RFC 3339", link["expires"],
                     time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(expiry)))
        checks.equal("the key is HMAC-SHA256 of (read, list id, expiry) under the secret", key, view_key("alpha", expiry))
        checks.equal("Location names the link", headers.get("location"), link["url"])
        checks.equal("the answer is not cached", headers.get("cache-control"), "no-store")

        status, _, body = call(server, "POST", "/lists/alpha/links?expires=31536000", headers=bearer("write"))
        checks.equal("expires=31536000 (a year) is accepted", status, 201)
        year = int(re.search(r"key=(\d+)\.", json.loads(body)["url"]).group(1)) - int(time.time())
        checks.check("and the link lasts a year", 31536000 - 5 <= year <= 31536000, year)
        for bad in ("0", "-1", "31536001", "1.5", "abc", "", "99999999999999999999999"):
            status, _, _ = call(server, "POST", "/lists/alpha/links?expires=" + bad, headers=bearer("write"))
            checks.equal(f"expires={bad!r} is 400", status, 400)
        status, _, _ = call(server, "POST", "/lists/nope/links", headers=bearer("write"))
        checks.equal("a link to another list than the token's is 403 (not 404: nothing leaks)", status, 403)
        write_file("links-tokens", f"{TOKENS['write']} write:*\n")  # now it may write every list
        server.process.send_signal(signal.SIGHUP)
        wait_log(server, "re-read")
        status, _, _ = call(server, "POST", "/lists/nope/links", headers=bearer("write"))
        checks.equal("a link to a list that does not exist is 404", status, 404)

        page = link["url"] + "&limit=1"
        status, headers, body = call(server, "GET", page, headers={"Accept": "text/html"})
        checks.equal("the link opens the private page", status, 200)
        html = body.decode()
        checks.check("the page is the list's", 'data-list="alpha"' in html and "one" in html, html[:300])
        next_href = re.search(r'<a rel="next" href="([^"]+)"', html)
        checks.check("its Load more link carries the key", next_href and "key=" + key in next_href.group(1).replace("&amp;", "&"),
                     next_href and next_href.group(1))
        if next_href:
            status, _, body = call(server, "GET", next_href.group(1).replace("&amp;", "&"), headers={"Accept": "text/html"})
            checks.check("and that link opens the next page", status == 200 and "two" in body.decode(), status)
        status, headers, body = call(server, "GET", f"/lists/alpha/rows?limit=1&key={key}")
        checks.equal("the key reads pages of rows", status, 200)
        checks.check("whose Link: rel=next carries the key", "key=" + key in headers.get("link", ""), headers.get("link"))
        status, _, _ = call(server, "GET", f"/lists/alpha?key={key}", headers={"Accept": "application/json"})
        checks.equal("the key reads the document", status, 200)
        status, _, body = open_stream(server, f"/lists/alpha/events?view=json&key={key}", {})
        checks.check("the key opens the live stream", status == 200 and b"event: reset" in body, body[:200])
        for path in ("/lists/alpha", "/lists/alpha/rows/r1"):
            status, _, _ = call(server, "DELETE", f"{path}?key={key}")
            checks.equal(f"the view link's key does not grant DELETE {path} (403: it only reads)", status, 403)
        status, _, _ = call(server, "GET", f"/lists?key={key}")
        checks.equal("the key does not open GET /lists", status, 401)

        expiry_changed = f"{expiry + 1}.{match.group(2)}"
        status, _, _ = call(server, "GET", f"/lists/alpha?key={expiry_changed}")
        checks.equal("a key with its expiry moved is 403", status, 403)
        status, _, _ = call(server, "GET", "/lists/alpha?key=" + view_key("alpha", expiry, secret="another secret of 32 bytes or more!!"))
        checks.equal("a key signed with another secret is 403", status, 403)
        for junk in ("", "x", "1.", ".AAAA", key + "A", key + "=", key.replace(".", "%00."), "1" * 13 + "." + match.group(2)):
            status, _, _ = call(server, "GET", "/lists/alpha?key=" + junk)
            checks.equal(f"a malformed key {junk[:20]!r}... is 403", status, 403)

        status, _, body = call(server, "POST", "/lists/alpha/links?expires=1", headers=bearer("write"))
        short_url = json.loads(body)["url"]
        SECRETS_SEEN.add(short_url.split("key=")[1])
        status, _, _ = call(server, "GET", short_url)
        checks.equal("a one-second link works at once", status, 200)
        time.sleep(2.1)
        status, _, body = call(server, "GET", short_url)
        checks.equal("and is 403 once expired", status, 403)
        checks.check("the 403 says it expired", b"expired" in body, body)
    finally:
        server.stop()


def test_secret_kept_in_store():
    """Without --secret the server makes one secret and keeps it in the store."""
    db = os.path.join(TMP, "secret.sqlite")
    tokens = write_file("store-tokens", f"{TOKENS['write']} write:alpha\n")
    server = start("--private", "--tokens", tokens, db=db)
    try:
        call(server, "PUT", "/lists/alpha", ALPHA, headers=bearer("write"))
        _, _, body = call(server, "POST", "/lists/alpha/links", headers=bearer("write"))
        url = json.loads(body)["url"]
        SECRETS_SEEN.add(url.split("key=")[1])
        checks.equal("a link works on the server that made it", call(server, "GET", url)[0], 200)
    finally:
        server.stop()
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT value FROM settings WHERE name = 'view-link-secret'").fetchone()
    checks.check("the store holds a 32-byte secret", stored and len(stored[0]) == 32, stored)
    if stored:
        secret = bytes(stored[0])
        SECRETS_SEEN.update({secret.hex(), base64.b64encode(secret).decode(), base64.urlsafe_b64encode(secret).decode().rstrip("=")})
        expiry = int(url.split("key=")[1].split(".")[0])
        mac = hmac.new(secret, f"list-server view link\0read\0alpha\0{expiry}".encode(), hashlib.sha256).digest()
        checks.equal("links are signed with it", url.split(".")[-1], base64.urlsafe_b64encode(mac).rstrip(b"=").decode())
    again = start("--private", "--tokens", tokens, db=db)
    try:
        checks.equal("a server started again on the same store accepts the link", call(again, "GET", url)[0], 200)
    finally:
        again.stop()
    other = start("--private", "--tokens", tokens)
    try:
        call(other, "PUT", "/lists/alpha", ALPHA, headers=bearer("write"))
        checks.equal("a server on another store refuses it", call(other, "GET", url)[0], 403)
    finally:
        other.stop()


# MARK: - SIGHUP, start-up


def wait_log(server, text, timeout=10):
    """The last log line holding `text`, once there is one (None after `timeout` s)."""
    lines = wait_until(lambda: [line for line in server.log_lines() if text in line], timeout)
    return lines[-1] if lines else None


def test_reload():
    first, second, third = (f"reload-{n}-{os.urandom(8).hex()}" for n in range(3))
    SECRETS_SEEN.update({first, second, third})
    path = write_file("reload-tokens", f"{first} write:x\n")
    server = start("--private", "--tokens", path)
    try:
        def put(token):
            return call(server, "PUT", "/lists/x", {"title": "X"}, headers={"Authorization": f"Bearer {token}"})[0]

        checks.equal("the first token writes", put(first), 201)
        checks.equal("the second is unknown (401)", put(second), 401)
        write_file("reload-tokens", f"# swapped\n{second} write:x\n")
        server.process.send_signal(signal.SIGHUP)
        checks.check("SIGHUP re-reads the file", wait_log(server, "re-read: 1 tokens"), server.log[-3:])
        checks.equal("then the added token writes", put(second), 200)
        checks.equal("and the removed one is 401", put(first), 401)
        write_file("reload-tokens", f"{second} write:x\n\n{third} write:x,bogus:{third}\n")
        server.process.send_signal(signal.SIGHUP)
        line = wait_log(server, "not re-read")
        checks.check("a bad file is logged", line, server.log[-3:])
        checks.check("with its line number", line and "line 3" in line, line)
        checks.equal("the tokens from before stay", put(second), 200)
        checks.equal("and the bad file's tokens do not count", put(third), 401)
        os.remove(path)
        server.process.send_signal(signal.SIGHUP)
        checks.check("a missing file is logged too", wait_log(server, "cannot read"), server.log[-3:])
        checks.equal("and changes nothing", put(second), 200)
        checks.check("the server is still up", server.alive())
    finally:
        server.stop()


def test_reload_ends_streams():
    keep, drop, narrowed = (f"streams-{n}-{os.urandom(8).hex()}" for n in range(3))
    SECRETS_SEEN.update({keep, drop, narrowed})
    path = write_file("streams-tokens", f"{keep} write:s*\n{drop} read:s1\n{narrowed} read:s*\n")
    server = start("--private", "--tokens", path)
    streams = []
    try:
        def auth(token):
            return {"Authorization": f"Bearer {token}"}

        for list_id in ("s1", "s2"):
            status, _, _ = call(server, "PUT", f"/lists/{list_id}", {"title": list_id.upper()}, headers=auth(keep))
            checks.equal(f"PUT {list_id}", status, 201)

        def opened(path, token=None):
            stream = livetest.EventStream(server, path, auth(token) if token else {})
            streams.append(stream)
            checks.equal(f"{path} opens", stream.status, 200)
            first = stream.next(10)
            if first.name == "subscription":  # a list's stream names its subscription first
                first = stream.next(10)
            checks.equal(f"{path} starts with its reset", first.name, "reset")
            return stream

        kept = opened("/lists/s1/events?view=json", keep)
        dropped = opened("/lists/s1/events?view=json", drop)
        kept_index = opened("/events", keep)
        narrowed_index = opened("/events", narrowed)
        status, _, body = call(server, "POST", "/lists/s1/links?expires=3", headers=auth(keep))
        checks.equal("a link that expires in 3 s", status, 201)
        key = json.loads(body)["url"].split("key=")[1]
        SECRETS_SEEN.add(key)
        linked = opened(f"/lists/s1/events?view=json&key={key}")
        checks.check("its stream is open before the link expires", not linked.closed.wait(1))
        checks.check("and ends when the link expires", linked.closed.wait(10))
        status, _, _ = open_stream(server, f"/lists/s1/events?view=json&key={key}", {})
        checks.equal("after which the link opens no stream (403)", status, 403)

        write_file("streams-tokens", f"# drop removed, narrowed to s1\n{keep} write:s*\n{narrowed} read:s1\n")
        server.process.send_signal(signal.SIGHUP)
        line = wait_log(server, "open streams ended")
        checks.check("SIGHUP logs the streams it ended", line and "2 open streams ended" in line, server.log[-3:])
        checks.check("the removed token's stream ends", dropped.closed.wait(10))
        checks.check("the index stream whose token lost rights ends", narrowed_index.closed.wait(10))
        checks.check("the unchanged token's list stream stays open", not kept.closed.is_set())
        checks.check("and so does its index stream", not kept_index.closed.is_set())
        status, _, _ = open_stream(server, "/lists/s1/events?view=json", auth(drop))
        checks.equal("the removed token reconnecting is 401", status, 401)
        status, _, _ = call(server, "PATCH", "/lists/s1", [{"op": "replace", "path": "/title", "value": "S1 again"}],
                            headers=auth(keep), content_type="application/json-patch+json")
        checks.equal("a write after the reload", status, 200)
        event = kept.next(10)
        checks.check("reaches the stream that stayed", event.name == "patch" and "S1 again" in event.raw, event)
        event = kept_index.next(10)
        checks.check("and the index stream that stayed", event.name == "list" and "S1 again" in event.raw, event)
        reopened = livetest.EventStream(server, "/events", auth(narrowed))
        streams.append(reopened)
        reset = reopened.next(10)
        checks.equal("the narrowed token's index, opened again, shows only s1",
                     [line["id"] for line in reset.data["lists"]] if reset.name == "reset" else reset, ["s1"])
    finally:
        for stream in streams:
            stream.close()
        server.stop()


def test_start_rules():
    def refused(args, env_extra=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("LIST_SERVER_")}
        env.update(env_extra or {})
        process = subprocess.run([livetest.server_binary(), "--port", "0", "--db", ":memory:", *args],
                                 capture_output=True, text=True, timeout=30, env=env)
        SERVERS.append(type("Ran", (), {"log": process.stderr.splitlines()})())
        return process.returncode, process.stderr

    leaked = f"leaked-{os.urandom(8).hex()}"
    SECRETS_SEEN.add(leaked)
    bad = write_file("bad-tokens", f"{TOKENS['read']} read:alpha\n# fine so far\nwrite:alpha {leaked}\n")
    code, err = refused(["--tokens", bad])
    checks.equal("a bad tokens file refuses to start (exit 2)", code, 2)
    checks.check("saying which line", "line 3" in err, err)
    code, err = refused(["--tokens", os.path.join(TMP, "no-such-file")])
    checks.check("a missing tokens file refuses to start", code == 2 and "cannot read" in err, err)
    code, err = refused(["--private"])
    checks.check("--private without a token refuses to start", code == 2 and "--private" in err, err)
    code, err = refused(["--token", TOKENS["master"], "--secret", "short"])
    checks.check("a --secret under 32 bytes refuses to start", code == 2 and "32 bytes" in err, err)
    code, err = refused(["--token", TOKENS["master"]], {"LIST_SERVER_SECRET": "short"})
    checks.check("so does a short LIST_SERVER_SECRET", code == 2 and "32 bytes" in err, err)
    code, err = refused(["--host", "0.0.0.0"])
    checks.check("0.0.0.0 without a token still refuses", code == 2 and "no token" in err, err)
    empty = write_file("empty-tokens", "# nobody yet\n")
    server = start("--host", "0.0.0.0", "--tokens", empty)
    try:
        checks.check("0.0.0.0 with --tokens (even an empty file) starts", server.alive())
        status, _, _ = call(server, "PUT", "/lists/a", {"title": "A"})
        checks.equal("and then every write needs a token", status, 401)
    finally:
        server.stop()


def test_logs_hold_no_secret():
    lines = [line for server in SERVERS for line in server.log]
    checks.check("the servers logged their requests", sum(" /lists/" in line for line in lines) > 500, len(lines))
    checks.check("request lines show key=REDACTED", any("key=REDACTED" in line for line in lines))
    for secret in sorted(SECRETS_SEEN):
        found = [line for line in lines if secret in line]
        checks.check(f"no log line holds {secret[:12]}… ({len(secret)} chars)", not found, found[:2])
    checks.check("no log line holds a bearer header", not [line for line in lines if "Bearer " in line])


if __name__ == "__main__":
    livetest.main(checks, [
        ("public matrix", test_public_matrix),
        ("private matrix", test_private_matrix),
        ("OpenAPI documents every answer", test_openapi_documents_every_answer),
        ("view links", test_links),
        ("the secret kept in the store", test_secret_kept_in_store),
        ("SIGHUP re-reads --tokens", test_reload),
        ("SIGHUP ends the streams it revokes", test_reload_ends_streams),
        ("start-up rules", test_start_rules),
        ("no secret in any log line", test_logs_hold_no_secret),
    ])
