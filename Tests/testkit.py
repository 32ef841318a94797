"""The one Python test harness of list-server (Tests/README.md): starting a server, checks, waits.

Used by the integration tests (Tests/integration, through livetest.py) and the browser tests
(Tests/browser, through harness.py). Standard library only.

- `Server(*flags, db=":memory:")`: the real list-server on port 0 (`db="temp"`: a fresh SQLite
  file, removed at exit), ready when it printed its `ready at` line; stopped by `stop()`, `with`,
  or at interpreter exit. The binary is $LIST_SERVER_BIN, else `.build/debug/list-server`.
- `Checks(name)`: named checks printed as `ok`/`FAIL` lines, tests run by `run`/`test`, and a
  summary `name: N passed, N failed` (the exit status).
- `wait_until(predicate, timeout)`: polls until true; the one wait every test uses.
"""

import atexit
import http.client
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLIC = os.path.join(PACKAGE_ROOT, "Public")


# MARK: - Checks


class Checks:
    """Records named checks; `summary()` prints `name: N passed, N failed` and returns the exit status."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = []
        self.failures = []

    def check(self, description, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {description}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {description}", flush=True)
            if detail:
                print(f"     {str(detail)[:2000]}", flush=True)
            self.failures.append(f"FAIL {description}" + (f"\n     {str(detail)[:600]}" if detail else ""))
        return bool(condition)

    def equal(self, description, got, expected):
        if got == expected:
            return self.check(description, True)
        return self.check(description, False, f"expected {short(expected)}\n     got      {short(got)}"
                          + f"\n     first difference: {first_difference(got, expected)}")

    def known_bug(self, description, condition, detail=""):
        """A check that fails because of a reported server bug: a SKIP line saying KNOWN BUG while
        it fails (the suite stays green), a pass once the bug is fixed."""
        if condition:
            return self.check(description, True)
        self.skip(description, f"KNOWN BUG: {detail}")
        return False

    def skip(self, description, reason):
        self.skipped.append(description)
        print(f"SKIP {description}: {reason}", flush=True)

    def run(self, description, function, *args):
        """Runs one test function whose checks record themselves; an exception counts as a failure."""
        print(f"--- {description}", flush=True)
        started = time.monotonic()
        try:
            function(*args)
        except Exception:
            self.check(f"{description} ran without an exception", False, traceback.format_exc())
        print(f"--- {description}: {time.monotonic() - started:.1f} s", flush=True)

    def test(self, description, function, *args):
        """Runs one test function that asserts (raises AssertionError): one check, passed when it
        returns. Returns whether it passed."""
        started = time.monotonic()
        try:
            function(*args)
        except Exception:
            return self.check(description, False, traceback.format_exc())
        return self.check(f"{description} ({time.monotonic() - started:.2f}s)", True)

    def summary(self):
        extra = f", {len(self.skipped)} skipped" if self.skipped else ""
        if self.failures:
            print("Failures (repeated):")
            for failure in self.failures[-8:]:
                print(failure)
        print(f"{self.name}: {self.passed} passed, {self.failed} failed{extra}", flush=True)
        return 0 if self.failed == 0 and self.passed > 0 else 1

    def main(self, tests):
        """Runs (description, function) pairs with `run` and exits with the summary's status."""
        for description, function in tests:
            self.run(description, function)
        sys.exit(self.summary())


def check(condition, message):
    """Asserts `condition` (for tests run by `Checks.test`)."""
    if not condition:
        raise AssertionError(message)


def equal(actual, expected, what):
    """Asserts `actual == expected`, saying both and where they first differ."""
    if actual != expected:
        raise AssertionError(f"{what}:\n  actual:   {actual!r}\n  expected: {expected!r}"
                             + f"\n  first difference: {first_difference(actual, expected)}")


def short(value, limit=600):
    text = json.dumps(value, ensure_ascii=False, sort_keys=False) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


def first_difference(a, b, path=""):
    """The JSON Pointer of the first place where two JSON values differ, with both values."""
    if type(a) != type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return f"{path or '/'}: {short(a, 200)} vs {short(b, 200)}"
    if isinstance(a, dict):
        for key in list(a.keys()) + [k for k in b.keys() if k not in a]:
            if key not in a or key not in b:
                return f"{path}/{key}: present only in {'first' if key in a else 'second'}"
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for index, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}/{index}")
            if found:
                return found
        if len(a) != len(b):
            return f"{path}: lengths {len(a)} vs {len(b)}"
        return None
    return None if a == b else f"{path or '/'}: {short(a, 200)} vs {short(b, 200)}"


# MARK: - Waiting


def wait_until(predicate, timeout=20, interval=0.05):
    """Calls `predicate` until it returns something true (returned) or `timeout` seconds passed
    (then its last value, falsy). A predicate may block itself (then `interval` is 0)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        if interval:
            time.sleep(interval)


# MARK: - The server


def server_binary():
    """$LIST_SERVER_BIN, else the package's debug build (it may not exist: `Server` says so)."""
    return os.environ.get("LIST_SERVER_BIN") or os.path.join(PACKAGE_ROOT, ".build", "debug", "list-server")


_running = []
_temp_dirs = []


@atexit.register
def _stop_all():
    for server in list(_running):
        server.stop()
    for path in _temp_dirs:
        shutil.rmtree(path, ignore_errors=True)


class Server:
    """A list-server on port 0, started by the constructor (or by `start()` when `start=False`).

    `db`: ":memory:" (default), a path or URL, or "temp" (a fresh SQLite file, removed at exit).
    `quiet=False` keeps the request log. `demo` adds `--demo`, `public` `--public DIR`.
    Every line the server writes to stderr is kept (`log`, `log_lines()`), read by a thread so the
    pipe never fills. `headers` go with every `request` (e.g. a bearer token).
    """

    def __init__(self, *flags, db=":memory:", quiet=True, demo=False, public=None, headers=None, start=True):
        if db == "temp":
            _temp_dirs.append(tempfile.mkdtemp(prefix="list-server-test-"))
            db = os.path.join(_temp_dirs[-1], "lists.sqlite")
        self.db = db
        self.args = [server_binary(), "--port", "0", "--db", self.db]
        self.args += ["--quiet"] if quiet else []
        self.args += ["--demo"] if demo else []
        self.args += ["--public", str(public)] if public else []
        self.args += list(flags)
        self.headers = dict(headers or {})
        self.log = []
        self.lock = threading.Lock()
        self.process = None
        self.local = threading.local()
        if start:
            self.start()

    def start(self):
        """Starts the process and waits (20 s at most) for its ready line; returns self."""
        if not os.access(self.args[0], os.X_OK):
            raise RuntimeError(f"no list-server binary at {self.args[0]}: build it (swift build) or set LIST_SERVER_BIN")
        self.process = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _running.append(self)
        ready = queue.Queue()

        def drain(process):
            for raw in process.stderr:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                with self.lock:
                    self.log.append(line)
                match = re.search(r"ready at (http://[^ ]+?)/?$", line)
                if match:
                    ready.put(match.group(1))
            ready.put(None)

        threading.Thread(target=drain, args=(self.process,), daemon=True).start()
        try:
            base = ready.get(timeout=20)
        except queue.Empty:
            base = None
        if not base:
            self.stop()
            raise RuntimeError("the server did not print its ready line:\n" + "\n".join(self.log[-20:]))
        self.base = base
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port = parsed.hostname, parsed.port
        self.local = threading.local()
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """Signals the server (SIGTERM, SIGKILL, ...) and waits for it; returns its exit status.
        A "temp" database stays until the interpreter exits (a new `Server(db=old.db)` reopens it)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self in _running:
            _running.remove(self)
        return self.process.returncode

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log_lines(self):
        with self.lock:
            return list(self.log)

    def url(self, path):
        return self.base + path

    def page_url(self, list_id):
        return f"{self.base}/lists/{urllib.parse.quote(list_id)}"

    # HTTP

    def connection(self):
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            self.local.conn = conn
        return conn

    def request(self, method, path, body=None, headers=None, content_type=None):
        """One request on this thread's keep-alive connection: (status, headers, body bytes).
        Header names are lowercased. A `dict`/`list` body is sent as JSON."""
        headers = {**self.headers, **(headers or {})}
        if isinstance(body, (dict, list)):
            body = json.dumps(body, ensure_ascii=False).encode()
            headers.setdefault("Content-Type", content_type or "application/json")
        elif isinstance(body, str):
            body = body.encode()
            if content_type:
                headers.setdefault("Content-Type", content_type)
        elif content_type:
            headers.setdefault("Content-Type", content_type)
        for attempt in range(2):
            conn = self.connection()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
                result_headers = {name.lower(): value for name, value in response.getheaders()}
                if result_headers.get("connection", "").lower() == "close":
                    conn.close()
                    self.local.conn = None
                return response.status, result_headers, data
            except (http.client.HTTPException, ConnectionError, socket.timeout):
                conn.close()
                self.local.conn = None
                if attempt == 1:
                    raise

    def get_list(self, list_id):
        """(version, document) from GET /lists/{id} as JSON; (None, None) on 404."""
        status, headers, body = self.request("GET", f"/lists/{list_id}", headers={"Accept": "application/json"})
        if status == 404:
            return None, None
        if status != 200:
            raise RuntimeError(f"GET /lists/{list_id}: {status} {body[:300]!r}")
        return etag_version(headers), json.loads(body)

    def put_list(self, list_id, document):
        status, headers, body = self.request("PUT", f"/lists/{list_id}", document)
        if status not in (200, 201):
            raise RuntimeError(f"PUT /lists/{list_id}: {status} {body[:300]!r}")
        return etag_version(headers)


def etag_version(headers):
    """The integer version an ETag header names (`"12"`, `W/"12"`, `"12-…"`), or None."""
    tag = headers.get("etag")
    if tag is None:
        return None
    match = re.fullmatch(r'(?:W/)?"(\d+)(?:[-;][^"]*)?"', tag.strip())
    return int(match.group(1)) if match else None
