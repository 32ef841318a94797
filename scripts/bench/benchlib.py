"""Shared helpers for the list-server benchmark scripts (Python 3 standard library only).

Starts a release list-server on a free loopback port, makes test lists, sends requests on
keep-alive connections, and summarises timings (medians and percentiles, never timed asserts).
"""
import http.client
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def log(*parts):
    print(*parts, flush=True)


def uptime():
    """The load line of `uptime`, to quote next to every figure."""
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def raise_file_limit(wanted=65536):
    """Raises this process's open-file limit as far as the hard limit allows; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def server_binary(path=None):
    """The release binary: `path`, $LIST_SERVER_BIN, or .build/release/list-server (built if missing)."""
    path = path or os.environ.get("LIST_SERVER_BIN") or os.path.join(REPO, ".build", "release", "list-server")
    if not os.path.exists(path):
        log("building the release binary (several minutes on a loaded machine)...")
        subprocess.run(["swift", "build", "-c", "release", "--product", "list-server"], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
    return path


class Server:
    """A list-server process on 127.0.0.1 with an in-memory store (or the store `db` names)."""

    def __init__(self, binary=None, extra=(), db=":memory:"):
        self.log_file = tempfile.NamedTemporaryFile(prefix="list-server-bench-", suffix=".log", delete=False)
        args = [server_binary(binary), "--port", "0", "--db", db, "--quiet", *extra]
        self.process = subprocess.Popen(args, stdout=self.log_file, stderr=subprocess.STDOUT)
        self.port = None
        deadline = time.time() + 60
        while time.time() < deadline and self.port is None:
            if self.process.poll() is not None:
                raise RuntimeError("list-server exited: " + open(self.log_file.name).read())
            for line in open(self.log_file.name, errors="replace"):
                if "ready at http://" in line:
                    self.port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))
            time.sleep(0.05)
        if self.port is None:
            self.stop()
            raise RuntimeError("list-server did not report ready")
        self.pid = self.process.pid

    def connection(self, timeout=600):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def rss_kib(self, field="VmRSS"):
        """The server's resident memory (VmRSS; `VmHWM` for its peak so far) in KiB."""
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.unlink(self.log_file.name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def request(conn, method, path, body=None, headers=None):
    """Sends one request on a keep-alive connection; returns (status, headers dict, body bytes)."""
    headers = dict(headers or {})
    if body is not None and not isinstance(body, (bytes, bytearray)):
        body = json.dumps(body, separators=(",", ":")).encode()
        headers.setdefault("Content-Type", "application/json")
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def expect(status, wanted, what):
    if status not in wanted:
        raise RuntimeError(f"{what}: HTTP {status}, expected {wanted}")


COLUMNS = [
    {"key": "name", "title": "Name"},
    {"key": "n", "title": "Number", "kind": "number"},
    {"key": "link", "title": "Link", "kind": "link"},
    {"key": "note", "title": "Note"},
]


def make_row(key, n, note="plain"):
    return {"key": key, "cells": {
        "name": f"Item {n} <{key}> & co",
        "n": n * 1.5,
        "link": {"text": f"row {n}", "href": f"/items/{n}"},
        "note": note,
    }}


def make_document(sections, rows_per_section, title="Bench list"):
    """`sections` x `rows_per_section` rows x 4 columns (text, number, link, text), keys r0, r1, ..."""
    n = 0
    out = []
    for s in range(sections):
        rows = []
        for _ in range(rows_per_section):
            rows.append(make_row(f"r{n}", n))
            n += 1
        out.append({"key": f"s{s}", "header": f"Section {s}", "footer": f"End of section {s}", "rows": rows})
    return {"title": title, "columns": COLUMNS, "sections": out}


def put_list(conn, list_id, document):
    body = json.dumps(document, separators=(",", ":")).encode()
    started = time.perf_counter()
    status, headers, data = request(conn, "PUT", f"/lists/{list_id}", body, {"Content-Type": "application/json"})
    elapsed = time.perf_counter() - started
    expect(status, (200, 201), f"PUT /lists/{list_id} ({len(body)} bytes): {data[:200]!r}")
    return elapsed, len(body)


def median(values):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def percentile(values, fraction):
    """Nearest-rank percentile (fraction in 0...1)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = min(len(ordered), max(1, math.ceil(fraction * len(ordered))))
    return ordered[rank - 1]


def ms(seconds):
    return f"{seconds * 1000:.2f} ms"


def header(title):
    log(f"== {title}")
    log(f"   {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}; {uptime()}")
    log(f"   python {sys.version.split()[0]}, {os.cpu_count()} cores")
