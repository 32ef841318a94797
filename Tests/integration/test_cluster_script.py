"""scripts/cluster as a person runs it: PostgreSQL, two instances with --demo, nginx in front.

Through nginx's one port: the demo lists, a live stream that gets a write made through nginx
(SSE is not buffered), the stream's heartbeat-friendly read timeout in the config; then Ctrl-C
(SIGINT) stops every process it started and removes its folder.
"""
import json
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.parse

import livetest
from clusterlib import request
from testkit import wait_until

checks = livetest.Checks("scripts/cluster")
SCRIPT = os.path.join(livetest.PACKAGE_ROOT, "scripts", "cluster")


class Front:
    """What the clients need of a server: a host and a port (nginx's)."""

    def __init__(self, url):
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port


def processes_under(folder):
    """Command lines of running processes that name `folder`."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as file:
                    line = file.read().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                continue
            if folder in line:
                found.append(line)
    return found


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), 1).close()
        return True
    except OSError:
        return False


def port_in_use_is_refused():
    """A port another server holds: the script says so and exits non-zero before starting
    anything, and never prints "ready" (issue 26)."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        result = subprocess.run([SCRIPT, "1", "--port", str(port), "--bin", livetest.server_binary()],
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    finally:
        holder.close()
    output = result.stdout + result.stderr
    checks.check("a port in use: non-zero status, a message naming the port, no 'ready'",
                 result.returncode != 0 and f"port {port}" in output and "in use" in output and "ready" not in output, output)


def main():
    port_in_use_is_refused()
    script = subprocess.Popen([SCRIPT, "2", "--port", "0", "--no-fsync", "--bin", livetest.server_binary()],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()
    for pipe in (script.stdout, script.stderr):
        threading.Thread(target=lambda pipe=pipe: [lines.put(line.rstrip("\n")) for line in pipe], daemon=True).start()
    url = folder = None
    deadline = time.monotonic() + 180
    log = []
    while url is None and time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            if script.poll() is not None:
                break
            continue
        log.append(line)
        folder = folder or (re.search(r"data in (/tmp/list-cluster\.[^/ ]+)/pg", line) or [None, None])[1]
        match = re.search(r"cluster ready at (http://\S+?)/? ", line)
        url = match and match.group(1)
    try:
        checks.check("scripts/cluster prints the URL it serves", url is not None, "\n".join(log[-20:]))
        if url is None:
            return
        front = Front(url)
        status, _, body = request(front, "GET", "/lists", headers={"Accept": "application/json"})
        ids = [entry["id"] for entry in json.loads(body)["lists"]] if status == 200 else []
        checks.check("through nginx: the demo lists, made once though two instances started with --demo",
                     "countries" in ids and len(ids) == len(set(ids)), ids)
        stream = livetest.EventStream(front, "/lists/tasks/events?view=json")
        live = livetest.LiveDoc(stream)
        live.apply(stream.next(10))
        live.apply(stream.next(10))
        status, headers, _ = request(front, "PATCH", "/lists/tasks", json.dumps(
            [{"op": "replace", "path": "/title", "value": "Through nginx"}]),
            headers={"Content-Type": "application/json-patch+json"})
        checks.equal("a write through nginx is answered", status, 200)
        reached = live.wait_version(livetest.etag_version(headers), timeout=10)
        checks.check("a stream through nginx gets it (no proxy buffering)", reached and live.doc["title"] == "Through nginx",
                     live.log[-3:])
        stream.close()
        # Window growth through nginx: `…/more` must reach the instance holding each stream. The
        # streams stay open together, so that nginx spreads them over both instances.
        streams = []
        for _ in range(4):
            stream = livetest.EventStream(front, "/lists/numbers/events?view=html&limit=3")
            live = livetest.LiveDoc(stream)
            live.apply(stream.next(10))
            live.apply(stream.next(10))
            streams.append((stream, live))
        rows = lambda doc: sum(len(section["rows"]) for section in doc["sections"])
        grown = []
        for stream, live in streams:
            statuses = [request(front, "POST", f"/lists/numbers/subscriptions/{live.subscription}/more?limit=2")[0]
                        for _ in range(3)]
            grown.append((live.subscription.split(".")[0], statuses, live.wait_until(lambda doc: rows(doc) == 9, 10)))
            stream.close()
        checks.equal("nginx spread the streams over both instances", sorted({name for name, _, _ in grown}), ["i1", "i2"])
        checks.check("through nginx, every stream's …/more reaches its instance and the rows arrive",
                     all(statuses == [202] * 3 and arrived for _, statuses, arrived in grown), grown)
        with open(os.path.join(folder, "nginx", "nginx.conf")) as file:
            config = file.read()
        timeout = int(re.search(r"proxy_read_timeout (\d+)s", config).group(1))
        checks.check("nginx: proxy_buffering off, HTTP/1.1 upstream, read timeout above the 15 s heartbeat",
                     "proxy_buffering off" in config and "proxy_http_version 1.1" in config and timeout > 15)
    finally:
        script.send_signal(signal.SIGINT)
        try:
            status = script.wait(timeout=60)
        except subprocess.TimeoutExpired:
            script.kill()
            status = "hung"
        checks.check("Ctrl-C stops scripts/cluster", status != "hung", status)
        if folder:
            # pg-cluster's watcher of its owner notices within a second that the script is gone.
            wait_until(lambda: not processes_under(folder), timeout=10)
            left = processes_under(folder)
            checks.check("no process it started is left (PostgreSQL, instances, nginx)", not left, left)
            checks.check("its folder is removed", not os.path.exists(folder), folder)
        ports = [int(port) for line in log for port in re.findall(r"instance \d+ at http://127\.0\.0\.1:(\d+)/", line)]
        checks.check("its instances no longer listen", len(ports) == 2 and not any(listening(port) for port in ports), ports)
    raise SystemExit(checks.summary())


if __name__ == "__main__":
    main()
