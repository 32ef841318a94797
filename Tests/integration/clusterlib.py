"""Helpers for the tests of several instances on one PostgreSQL (test_cluster*.py): a private
PostgreSQL made by scripts/pg-cluster (stopped and removed at the end, even if the test is
killed), instances started on it with livetest.Server, and a few HTTP helpers that go through a
fresh connection each time (the instance may have been killed).

The password reaches the instances through libpq's PGPASSWORD, never their command lines.
"""

import http.client
import json
import os
import random
import subprocess

import livetest

PG_CLUSTER = os.path.join(livetest.PACKAGE_ROOT, "scripts", "pg-cluster")


class Postgres:
    """A private PostgreSQL in /tmp (the postgres user must be able to enter its folder)."""

    def __init__(self):
        self.dir = f"/tmp/list-server-cluster-test-{os.getpid()}-{random.randrange(1 << 30)}"
        url = self._run("start", "--no-fsync", "--owner", str(os.getpid()))
        with open(os.path.join(self.dir, "password")) as file:
            password = file.read().strip()
        os.environ["PGPASSWORD"] = password
        self.url = url.replace(f":{password}@", "@")

    def _run(self, command, *args):
        result = subprocess.run([PG_CLUSTER, command, self.dir, *args], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"pg-cluster {command}: {result.stderr}")
        return result.stdout.strip()

    def database(self, name):
        """A new database in this cluster, as a URL for --db."""
        return self._run("createdb", name).replace(f":{os.environ['PGPASSWORD']}@", "@")

    def stop(self):
        self._run("stop")

    def start(self):
        self._run("start", "--no-fsync")

    def destroy(self):
        self._run("destroy")


def instances(url, count, *flags):
    """`count` instances on the database `url`."""
    return [livetest.Server(*flags, db=url) for _ in range(count)]


def run_on_cluster(checks, tests, count=3):
    """Runs (description, function(servers, postgres)) pairs on `count` instances of one fresh
    PostgreSQL, stops them all after, and exits with the summary's status."""
    postgres = Postgres()
    servers = []
    try:
        servers = instances(postgres.url, count)
        for description, function in tests:
            checks.run(description, function, servers, postgres)
    finally:
        for server in servers:
            server.stop()
        postgres.destroy()
    raise SystemExit(checks.summary())


def request(server, method, path, body=None, headers=None, timeout=20):
    """One request on a new connection: (status, lowercased headers, body bytes). Raises OSError
    when the instance cannot be reached (or does not answer within `timeout`)."""
    headers = dict(headers or {})
    if isinstance(body, (dict, list)):
        headers.setdefault("Content-Type", "application/json")
        body = json.dumps(body).encode()
    connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    except http.client.HTTPException as error:
        raise ConnectionError(str(error))
    finally:
        connection.close()


def document(server, list_id):
    """(version, document) as GET answers them on `server`; (None, None) on 404."""
    status, headers, body = request(server, "GET", f"/lists/{list_id}", headers={"Accept": "application/json"})
    if status == 404:
        return None, None
    if status != 200:
        raise RuntimeError(f"GET /lists/{list_id}: {status} {body[:200]!r}")
    return livetest.etag_version(headers), json.loads(body)


def subscribe(server, list_id, view="json", query="", last_event_id=None):
    """An SSE stream on `server` and its LiveDoc (events applied with python-jsonpatch)."""
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id is not None else None
    stream = livetest.EventStream(server, f"/lists/{list_id}/events?view={view}{query}", headers=headers)
    return stream, livetest.LiveDoc(stream)


def fresh_view(server, list_id, view_doc):
    """The `view=html` document a fresh subscription of the same window gets on `server`."""
    until = view_doc.get("until")
    query = f"&until={until}" if until else "&limit=0"
    stream, live = subscribe(server, list_id, "html", query)
    try:
        while live.doc is None:
            live.apply(stream.next(20))
        return live.doc
    finally:
        stream.close()
