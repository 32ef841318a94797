#!/usr/bin/python3
"""Where a page load's time goes, from Chrome traces (not a test, not a benchmark).

    trace_load.py A_BIN:A_PUBLIC[:reader] [B_BIN:B_PUBLIC[:reader] ...] [--cache] [--loads N] [--list LIST]

Starts the servers as bench_load.py does, then loads `/lists/LIST` (default `numbers`) from each
in turn, `--loads` times (default 3), with the browser cache off (or on, `--cache`), each load
traced through the DevTools protocol (the browser's own websocket: tracing's events never reach
WebDriver). Per load, in ms from navigation start on the page's main thread: when the parser
ended, when the last script had arrived and how much layout ran before that, when the client's
script started to evaluate and for how long, DOMContentLoaded, and when the live stream's request
was sent and answered. With `--keep DIR` each trace is written there (chrome://tracing, Perfetto).
"""
import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_load import HOOK, start_servers  # noqa: E402
from harness import Browser, wait_until  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "blink.user_timing", "v8"]


class DevTools:
    """The browser target's DevTools websocket: enough to trace (commands and their events)."""

    def __init__(self, ws_url):
        url = urllib.parse.urlparse(ws_url)
        self.sock = socket.create_connection((url.hostname, url.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {url.path} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"no websocket: {head[:200]!r}")
        self.last_id = 0

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError("DevTools closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self):
        """The next text message (frames joined; control frames skipped)."""
        data = b""
        while True:
            first, second = self._read(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack(">H", self._read(2))[0]
            elif size == 127:
                size = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(size)
            if first & 0x0F in (0, 1, 2):
                data += payload
                if first & 0x80:
                    return json.loads(data)

    def send(self, method, params=None):
        self.last_id += 1
        payload = json.dumps({"id": self.last_id, "method": method, "params": params or {}}).encode()
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack(">H", size))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def trace(self, action):
        """Runs `action()` between Tracing.start and Tracing.end; returns the trace's events."""
        self.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES}, "transferMode": "ReportEvents"})
        while self.receive().get("id") != self.last_id:
            pass
        action()
        self.send("Tracing.end")
        events = []
        while True:
            message = self.receive()
            if message.get("method") == "Tracing.dataCollected":
                events += message["params"]["value"]
            elif message.get("method") == "Tracing.tracingComplete":
                return events


def summary(events, list_id):
    """The load's milestones on the page's main thread, in ms from its navigation start."""
    starts = [e for e in events if e.get("name") == "navigationStart" and f"/lists/{list_id}" in json.dumps(e.get("args"))]
    if not starts:
        return "no navigation of the page in the trace"
    start = starts[-1]
    main = [e for e in events if e.get("pid") == start["pid"] and e.get("tid") == start["tid"] and e["ts"] >= start["ts"]]
    at = lambda e, end=False: (e["ts"] + (e.get("dur", 0) if end else 0) - start["ts"]) / 1000  # noqa: E731
    urls = {e["args"]["data"]["requestId"]: e["args"]["data"]["url"] for e in main if e["name"] == "ResourceSendRequest"}
    url_of = lambda e: urls.get(e["args"]["data"].get("requestId"), "")  # noqa: E731
    parsed = max((at(e, True) for e in main if e["name"] == "ParseHTML"), default=None)
    scripts = max((at(e) for e in main if e["name"] == "ResourceFinish" and url_of(e).endswith(".js")), default=None)
    layout = sum(e["dur"] for e in main if e["name"] == "Layout" and e.get("ph") == "X" and scripts and at(e) < scripts) / 1000
    runs = [e for e in main if e["name"] in ("v8.evaluateModule", "EvaluateScript") and e.get("dur", 0) > 2000]
    sent = [at(e) for e in main if e["name"] == "ResourceSendRequest" and "/events?" in e["args"]["data"]["url"]]
    answered = [at(e) for e in main if e["name"] == "ResourceReceiveResponse" and "/events?" in url_of(e)]
    dcl = [at(e) for e in main if e["name"] == "MarkDOMContent"]
    show = lambda x: f"{x:6.1f}" if x is not None else "     -"  # noqa: E731
    run = f"{show(at(runs[0]))} for {runs[0]['dur'] / 1000:5.1f}" if runs else "     -"
    return (f"parsed {show(parsed)}  scripts in {show(scripts)} (layout before: {layout:5.1f})  client ran {run}  "
            f"DOMContentLoaded {show(dcl[0] if dcl else None)}  stream sent {show(sent[0] if sent else None)}, "
            f"answered {show(answered[0] if answered else None)}")


def main():
    args = sys.argv[1:]
    option = lambda name, default: args[args.index(name) + 1] if name in args else default  # noqa: E731
    loads, list_id, keep = int(option("--loads", 3)), option("--list", "numbers"), option("--keep", None)
    builds = [arg.split(":", 2) for arg in args if ":" in arg]
    servers = start_servers(builds)
    browser = Browser()
    driver = browser.driver
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": "--cache" not in args})
    address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    with urllib.request.urlopen(f"http://{address}/json/version") as answer:
        devtools = DevTools(json.load(answer)["webSocketDebuggerUrl"])
    named = list(zip("ABCDEFGH", servers))
    try:
        for which, server in named:  # warm-up, not counted
            driver.get(server.page_url(list_id))
            wait_until(lambda: driver.execute_script("return window.__t && window.__t.event"), 10, 0.01)
        for load in range(loads):
            for which, server in named:
                driver.get("about:blank")
                time.sleep(0.2)

                def page():
                    driver.get(server.page_url(list_id))
                    wait_until(lambda: driver.execute_script("return window.__t && window.__t.event"), 10, 0.01)
                    time.sleep(0.2)
                events = devtools.trace(page)
                if keep:
                    Path(keep).mkdir(parents=True, exist_ok=True)
                    (Path(keep) / f"{which}-{load + 1}.json").write_text(json.dumps({"traceEvents": events}))
                print(f"{which} load {load + 1}: {summary(events, list_id)}", flush=True)
    finally:
        browser.quit()
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
