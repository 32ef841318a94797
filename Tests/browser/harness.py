"""Browser test harness for the static client (Public/js/): a fixture server, the real one, a headless Chromium, a runner.

The tests talk to the fixture server only through FixtureServer's methods (add_list, page_url,
requests, fail_next, set_delay, wait_stream, Stream.send/drop, on_stream/on_more hooks).
The real list-server, checks and waits come from the one harness, Tests/testkit.py.
Run a test file directly with Debian's /usr/bin/python3 (docs/CLIENT.md, Tests/README.md).
"""
import atexit
import html
import json
import os
import queue
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import testkit  # noqa: E402  the one harness: the real server, checks, waits
from axe_check import assert_axe_clean  # noqa: E402,F401  axe-core on the current page (re-exported)
from testkit import Checks, check, equal, wait_until  # noqa: E402,F401  (re-exported for the tests)

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "Public"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHOTS = Path(os.environ.get("LIST_CLIENT_SHOTS", "/tmp/list-client-shots"))
CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'"


def esc(value):
    return html.escape(str(value), quote=True)


# ------------------------------------------------------------------------------------------
# Fixture lists, rendered the way API.md section 3 and docs/LIVE.md describe


class FixtureList:
    """A list model: sections of rows with `name` and `n` cells, rendered like the server."""

    def __init__(self, list_id, title, sections):
        self.id = list_id
        self.title = title
        # sections: [{"key", "header", "footer", "collapsible", "collapsed", "rows": [{"key", "name", "n"}]}]
        self.sections = sections

    @staticmethod
    def generated(list_id, sizes, title="Generated"):
        sections, counter = [], 0
        for s, size in enumerate(sizes):
            rows = []
            for _ in range(size):
                rows.append({"key": f"r{counter}", "name": f"Row {counter}", "n": counter})
                counter += 1
            sections.append({"key": f"s{s}", "header": f"Section {s}", "footer": f"{size} rows", "rows": rows})
        return FixtureList(list_id, title, sections)

    columns = 2
    view_until = True

    def flat(self):
        return [(si, ri, s, r) for si, s in enumerate(self.sections) for ri, r in enumerate(s["rows"])]

    def head_html(self):
        return '<tr><th scope="col">Name</th><th scope="col">Number</th></tr>'

    @staticmethod
    def row_html(row):
        return (f'<tr data-row="{esc(row["key"])}"><td>{esc(row["name"])}</td>'
                f'<td class="num">{esc(row["n"])}</td></tr>')

    @staticmethod
    def section_id(key):
        out = "".join(f"%{ord(c):02X}" if ord(c) <= 0x20 or c in "%\x7f" else c for c in key)
        return "list-section-" + out

    def header_html(self, section):
        if section.get("header") is None:
            return None
        text = esc(section["header"])
        if section.get("collapsible"):
            expanded = "false" if section.get("collapsed") else "true"
            text = (f'<button type="button" class="section-toggle" aria-expanded="{expanded}" '
                    f'aria-controls="{esc(self.section_id(section["key"]))}">{text}</button>')
        return f'<tr class="section-header"><th scope="rowgroup" colspan="{self.columns}">{text}</th></tr>'

    def footer_html(self, section):
        if section.get("footer") is None:
            return None
        return f'<tr class="section-footer"><td colspan="{self.columns}">{esc(section["footer"])}</td></tr>'

    def cursor(self, index):
        return f"k{index}"

    def index_of(self, cursor):
        if not cursor or not cursor.startswith("k") or not cursor[1:].isdigit():
            return None
        index = int(cursor[1:])
        return index if 0 < index <= len(self.flat()) else None

    def tbodies(self, start, end):
        """The `<tbody data-section>` markup of rows [start, end)."""
        out, position = [], 0
        for section in self.sections:
            first, last = position, position + len(section["rows"])
            position = last
            if last <= start or first >= end:
                continue
            continued = start > first
            attrs = f' data-section="{esc(section["key"])}"'
            classes = []
            if section.get("collapsible"):
                if not continued:
                    attrs += f' id="{esc(self.section_id(section["key"]))}"'
                classes.append("collapsible")
                if section.get("collapsed"):
                    classes.append("collapsed")
            if continued:
                classes.append("continued")
            if classes:
                attrs += f' class="{" ".join(classes)}"'
            parts = [f"<tbody{attrs}>"]
            if not continued and self.header_html(section):
                parts.append(self.header_html(section))
            parts += [self.row_html(r) for r in section["rows"][max(start - first, 0):end - first]]
            if last <= end and self.footer_html(section):
                parts.append(self.footer_html(section))
            parts.append("</tbody>")
            out.append("\n".join(parts) + "\n")
        return "".join(out)

    def pagination(self, after, limit):
        href = f"/lists/{self.id}?after={self.cursor(after)}&limit={limit}"
        return (f'<tbody class="pagination"><tr><td colspan="{self.columns}">'
                f'<a rel="next" href="{esc(href)}">Load more</a></td></tr></tbody>')

    def page_html(self, limit, version):
        total = len(self.flat())
        end = min(limit, total)
        cursor = f' data-cursor="{self.cursor(end)}"' if end else ""
        more = self.pagination(end, limit) if end < total else ""
        return (
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{esc(self.title)}</title>"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">'
            '<link rel="stylesheet" href="/assets/list.css">'
            '<script type="module" src="/assets/js/main.js"></script></head><body><main>'
            f"<h1>{esc(self.title)}</h1>"
            f'<table class="list" data-list="{esc(self.id)}" data-version="{version}"{cursor}>'
            f"<caption>{esc(self.title)}</caption><thead>{self.head_html()}</thead>"
            f"{self.tbodies(0, end)}{more}</table>"
            '<p class="after-list">End of page.</p></main></body></html>'
        )

    def fragment(self, start, limit):
        """(markup, next index or None) of the page of rows after `start`."""
        total = len(self.flat())
        end = min(start + limit, total)
        more = self.pagination(end, limit) if end < total else ""
        return self.tbodies(start, end) + more, (end if end < total else None)

    def view_doc(self, count):
        """The view=html document of the first `count` rows."""
        sections, position = [], 0
        total = len(self.flat())
        for section in self.sections:
            first, last = position, position + len(section["rows"])
            position = last
            if first >= count and not (first == last == count == total):
                continue
            rows = section["rows"][: max(0, count - first)]
            sections.append({
                "key": section["key"],
                "header": self.header_html(section),
                "footer": self.footer_html(section) if last <= count else None,
                "rows": [{"key": r["key"], "html": self.row_html(r)} for r in rows],
            })
        doc = {"title": self.title, "head": self.head_html(), "sections": sections,
               "status": None, "more": count < total}
        if self.view_until:  # what the real server adds: the cursor that reopens the window
            doc["until"] = self.cursor(count) if count else None
        return doc


def render_view_table(list_id, doc):
    """A fresh render of a view document as the table a page would hold."""
    parts = [f'<table class="list" data-list="{esc(list_id)}"><caption>{esc(doc.get("title", ""))}</caption>']
    if doc.get("head"):
        parts.append(f"<thead>{doc['head']}</thead>")
    for s in doc["sections"]:
        parts.append(f'<tbody data-section="{esc(s["key"])}">')
        parts.append(s.get("header") or "")
        parts += [r["html"] for r in s["rows"]]
        parts.append(s.get("footer") or "")
        parts.append("</tbody>")
    parts.append(doc.get("status") or "")
    if doc.get("more"):
        parts.append('<tbody class="pagination"><tr><td>more</td></tr></tbody>')
    parts.append("</table>")
    return "".join(parts)


# ------------------------------------------------------------------------------------------
# The fixture server


class Stream:
    """One open `/events` connection; the test scripts what it sends."""

    def __init__(self, query, headers):
        self.query = query
        self.headers = headers
        self.items = queue.Queue()
        self.ended = threading.Event()

    def send(self, event, data, event_id=None):
        self.items.put((event, data, event_id))

    def drop(self):
        """Closes the connection from the server side."""
        self.items.put(None)


class FixtureServer:
    def __init__(self):
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.stopping = threading.Event()
        self.reset()

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def reset(self):
        with self.lock:
            self.lists, self.versions, self.limits = {}, {}, {}
            self.log, self.failures, self.delays, self.streams = [], [], {}, []
        self.on_stream = None  # callable(stream) when a stream opens
        self.on_more = None  # callable(subscription, limit) on POST …/more; returns the status
        self.list_cursor_header = False  # send the proposed `List-Cursor` header on row pages
        self.static = {}  # "path" or "path?query" -> (status, body, content type, headers)
        self.subscription_event = False  # open each stream with `event: subscription`, as list-server does

    # -- what tests use ----------------------------------------------------------------------

    def add_list(self, fixture, version=1, limit=50):
        with self.lock:
            self.lists[fixture.id] = fixture
            self.versions[fixture.id] = version
            self.limits[fixture.id] = limit

    def add_static(self, path, body, ctype="text/html; charset=utf-8", headers=(), status=200):
        """Serves exact bytes at `path` (or `path?query`); HTML gets the page's CSP."""
        if ctype.startswith("text/html"):
            headers = list(headers) + [("Content-Security-Policy", CSP)]
        with self.lock:
            self.static[path] = (status, body, ctype, list(headers))

    def page_url(self, list_id):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/lists/{urllib.parse.quote(list_id)}"

    def url(self, path):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def requests(self, method=None, prefix=None):
        with self.lock:
            return [r for r in self.log if (method is None or r["method"] == method)
                    and (prefix is None or r["path"].startswith(prefix))]

    def fail_next(self, prefix, times, status=500):
        with self.lock:
            self.failures.append([prefix, times, status])

    def set_delay(self, prefix, seconds):
        with self.lock:
            self.delays[prefix] = seconds

    def wait_stream(self, index, timeout=5):
        """The `index`th stream (from 0) once the client opened it."""
        def opened():
            with self.lock:
                return self.streams[index] if len(self.streams) > index else None
        stream = wait_until(opened, timeout, 0.01)
        if stream is None:
            raise AssertionError(f"stream #{index} never opened ({len(self.streams)} opened)")
        return stream

    # -- serving ---------------------------------------------------------------------------

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                server._serve(self, "GET")

            def do_POST(self):
                server._serve(self, "POST")

        return Handler

    def _send(self, h, status, body=b"", ctype="text/plain", headers=()):
        if isinstance(body, str):
            body = body.encode()
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        h.send_header("X-Content-Type-Options", "nosniff")
        h.send_header("Cache-Control", "no-store" if ctype.startswith("application/json") else "no-cache")
        for name, value in headers:
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(body)

    def _serve(self, h, method):
        parsed = urllib.parse.urlsplit(h.path)
        path = urllib.parse.unquote(parsed.path)
        query = dict(urllib.parse.parse_qsl(parsed.query))
        with self.lock:
            self.log.append({"method": method, "path": path, "query": query, "headers": dict(h.headers),
                             "time": time.time()})
            failure = next((f for f in self.failures if path.startswith(f[0]) and f[1] > 0), None)
            if failure:
                failure[1] -= 1
            delay = max([d for p, d in self.delays.items() if path.startswith(p)], default=0)
        if delay:
            time.sleep(delay)
        if failure:
            return self._send(h, failure[2], "injected failure")
        try:
            self._route(h, method, path, query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _route(self, h, method, path, query):
        raw_query = urllib.parse.urlsplit(h.path).query
        static = self.static.get(f"{path}?{raw_query}") or self.static.get(path)
        if static:
            status, body, ctype, headers = static
            return self._send(h, status, body, ctype, headers)
        if path.startswith("/assets/"):
            return self._asset(h, path[len("/assets/"):])
        parts = path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "lists" or parts[1] not in self.lists:
            return self._send(h, 404, "not found")
        fixture = self.lists[parts[1]]
        limit = int(query.get("limit", self.limits[fixture.id]))
        if method == "GET" and len(parts) == 2:
            return self._send(h, 200, fixture.page_html(limit, self.versions[fixture.id]),
                              "text/html; charset=utf-8", [("Content-Security-Policy", CSP)])
        if method == "GET" and parts[2:] == ["rows"]:
            start = fixture.index_of(query.get("after"))
            if start is None or not 1 <= limit <= 500:
                return self._send(h, 400, "bad cursor")
            body, nxt = fixture.fragment(start, limit)
            headers = []
            if nxt is not None:
                headers.append(("Link", f'</lists/{fixture.id}/rows?after={fixture.cursor(nxt)}&limit={limit}>; rel="next"'))
            if self.list_cursor_header:
                headers.append(("List-Cursor", fixture.cursor(min(start + limit, len(fixture.flat())))))
            return self._send(h, 200, body, "text/html; charset=utf-8", headers)
        if method == "GET" and parts[2:] == ["events"]:
            return self._stream(h, query)
        if method == "POST" and len(parts) == 5 and parts[2] == "subscriptions" and parts[4] == "more":
            status = self.on_more(parts[3], limit) if self.on_more else 202
            return self._send(h, status, "", "application/json")
        return self._send(h, 404, "not found")

    def _asset(self, h, name):
        types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
        candidates = [PUBLIC / name, FIXTURES / name]
        if name == "list.css":
            candidates.append(FIXTURES / "fixture.css")
        for file in candidates:
            if file.is_file() and file.suffix in types:
                return self._send(h, 200, file.read_bytes(), types[file.suffix] + "; charset=utf-8")
        return self._send(h, 404, "no such asset")

    def _stream(self, h, query):
        stream = Stream(query, dict(h.headers))
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.end_headers()
        h.wfile.flush()
        with self.lock:
            self.streams.append(stream)
            number = len(self.streams)
        if self.subscription_event:
            stream.send("subscription", {"subscription": f"fx{number}", "version": self.versions.get(query.get("list"), 0)})
        if self.on_stream:
            self.on_stream(stream)
        try:
            while not self.stopping.is_set():
                try:
                    item = stream.items.get(timeout=0.25)
                except queue.Empty:
                    h.wfile.write(b": ping\n\n")
                    h.wfile.flush()
                    continue
                if item is None:
                    break
                event, data, event_id = item
                text = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
                text += "".join(f"data: {line}\n" for line in json.dumps(data).split("\n")) + "\n"
                h.wfile.write(text.encode())
                h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            stream.ended.set()
            h.close_connection = True


# ------------------------------------------------------------------------------------------
# The real list-server (end-to-end tests)


class RealListServer(testkit.Server):
    """The real binary serving Public/ (testkit.Server: port 0, in-memory store, stderr kept in
    `log_lines()`); writes go through `curl` (subprocess), with `Authorization: Bearer TOKEN`
    when a token is given. `start()` starts it (the runner does)."""

    def __init__(self, demo=True, quiet=True, flags=(), token=None):
        self.token = token
        super().__init__(*flags, demo=demo, quiet=quiet, public=PUBLIC, start=False,
                         headers={"Authorization": f"Bearer {token}"} if token else None)

    def reset(self):
        pass

    def curl(self, method, path, body=None, ctype="application/json"):
        """Runs `curl`; returns (status, headers with lower-case names, body text). Raises on 5xx."""
        import subprocess
        args = ["curl", "-sS", "-X", method, "-D", "-", "-H", "Accept: application/json", "--max-time", "10"]
        if self.token:
            args += ["-H", f"Authorization: Bearer {self.token}"]
        data = None
        if body is not None:
            data = (body if isinstance(body, str) else json.dumps(body)).encode()
            # No `Expect: 100-continue` (curl's for bodies over 1 MB): one status line to read.
            args += ["-H", f"Content-Type: {ctype}", "-H", "Expect:", "--data-binary", "@-"]
        out = subprocess.run(args + [self.url(path)], input=data, capture_output=True, timeout=15, check=True).stdout
        head, _, text = out.decode().partition("\r\n\r\n")
        lines = head.split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        if status >= 500:
            raise AssertionError(f"{method} {path}: {status} {text}")
        return status, headers, text

    def write(self, method, path, body=None, ctype="application/json"):
        """A write that must succeed; returns the new version (from the ETag)."""
        status, headers, text = self.curl(method, path, body, ctype)
        if not 200 <= status < 300:
            raise AssertionError(f"{method} {path}: {status} {text}")
        return headers.get("etag", "").strip('"')


# ------------------------------------------------------------------------------------------
# The browser


HOOK = """
window.ListClientConfig = %s;
window.__events = [];
window.__errors = [];
performance.setResourceTimingBufferSize(100000);  // tests count requests from resource timing
window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
document.addEventListener('securitypolicyviolation', (e) => window.__errors.push('CSP: ' + e.violatedDirective));
for (const name of ['list:paginationstarted', 'list:paginationended', 'list:paginationfailed',
                    'list:updated', 'list:resync', 'list:deleted', 'list:indexupdated']) {
  document.addEventListener(name, (e) => window.__events.push({type: e.type, detail: e.detail,
    animating: document.querySelectorAll('.list-enter, .list-leave, tr[style]').length}), true);
}
window.__pageshows = [];
window.addEventListener('pageshow', (e) => window.__pageshows.push(e.persisted));
"""

# Returns the table's sections as [{key, header, footer, rows: [[key, outerHTML]]}] plus extras.
SNAPSHOT_JS = """
const table = arguments[0] instanceof Element ? arguments[0]
  : new DOMParser().parseFromString(arguments[0], 'text/html').querySelector('table');
const text = (el) => el ? el.textContent : null;
return {
  caption: text(table.caption),
  head: table.tHead && table.tHead.rows[0] ? table.tHead.rows[0].outerHTML : null,
  sections: Array.from(table.tBodies).filter((b) => b.hasAttribute('data-section')).map((b) => ({
    key: b.getAttribute('data-section'),
    header: text(b.querySelector(':scope > tr.section-header')),
    footer: text(b.querySelector(':scope > tr.section-footer')),
    rows: Array.from(b.rows).filter((r) => r.hasAttribute('data-row')).map((r) => [r.getAttribute('data-row'), r.outerHTML]),
  })),
  status: text(table.querySelector(':scope > tbody.status')),
  more: !!table.querySelector(':scope > tbody.pagination'),
};
"""


class Browser:
    def __init__(self, width=1000, height=700, javascript=True):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    f"--window-size={width},{height}"):
            options.add_argument(arg)
        if not javascript:  # the no-JS path: pages' scripts never run (WebDriver's own still do)
            options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
        options.binary_location = "/usr/bin/chromium"
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for console()
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_script_timeout(10)
        self.hook_id = None
        self.expected_console = []

    def expect_console(self, pattern):
        """Declares a console line the current test provokes on purpose (a regex searched in
        each message, e.g. the network error of a 503 the test asked the server for)."""
        self.expected_console.append(pattern)

    def console(self):
        """Console messages (any level) since the last call, less those the test declared."""
        import re
        entries = self.driver.get_log("browser")
        expected, self.expected_console = self.expected_console, []
        return [f"{e['level']}: {e['message']}" for e in entries
                if not any(re.search(pattern, e["message"]) for pattern in expected)]

    def quit(self):
        self.driver.quit()

    def open(self, url, config=None, reduced_motion=False):
        """Loads `url` with `config` as window.ListClientConfig and event recording in place."""
        if self.hook_id:
            self.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": self.hook_id})
        source = HOOK % json.dumps(config or {})
        self.hook_id = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})["identifier"]
        features = [{"name": "prefers-reduced-motion", "value": "reduce" if reduced_motion else "no-preference"}]
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
        self.driver.get(url)
        self.wait("return !!window.ListClient && document.readyState === 'complete'", 5, "client loaded")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, script, timeout=5, what="condition", *args):
        """Runs `script` until it returns something true (returned); fails after `timeout` s."""
        last = wait_until(lambda: self.js(script, *args), timeout, 0.02)
        if not last:
            raise AssertionError(f"timed out waiting for {what} (last: {last!r})")
        return last

    def wait_version(self, version, timeout=5, updated=True):
        """Waits until the table shows `version` (`data-version`) and, with `updated`, a
        `list:updated` event said so (the DOM sync for it finished)."""
        self.wait("return document.querySelector('table.list').dataset.version === String(arguments[0])"
                  " && (!arguments[1] || window.__events.some(e => e.type === 'list:updated'"
                  " && e.detail.version === String(arguments[0])))",
                  timeout, f"version {version}", version, updated)

    def events(self, *types, raw=False):
        """The recorded list:* events as {type, detail} (raw: also `animating`, the count of
        animated rows when the event fired)."""
        events = [e for e in self.js("return window.__events") if not types or e["type"] in types]
        return events if raw else [{"type": e["type"], "detail": e["detail"]} for e in events]

    def table(self):
        return self.js("return document.querySelector('table.list')")

    def snapshot(self, table_or_html=None):
        return self.js(SNAPSHOT_JS, table_or_html if table_or_html is not None else self.table())

    def settle(self, timeout=5):
        """Waits until no animation, ghost row or inline transform is left."""
        self.wait("""const t = document.querySelector('table.list');
                     return ListClient.get(t).state.settled && !t.querySelector('.list-leave, .list-enter, tr[style]')""",
                  timeout, "animations to settle")

    def shot(self, name):
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def axe(self, context):
        """Fails with axe-core's readable list of violations on the current page (axe_check.py)."""
        assert_axe_clean(self.driver, context)

    def emulate(self, width, dark, height=800):
        """A phone (`mobile` under 600 px) or desktop viewport `width` px wide, light or dark.
        `open()` resets the emulated media: call this after it."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})

    def unemulate(self):
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def pwned(self):
        return self.js("return window.__pwned")


_other = []


def other_browser():
    """A second session (another person): its own Chromium, made once per file run and quit at exit."""
    if not _other:
        _other.append(Browser())
        atexit.register(_other[0].quit)
    return _other[0]


# ------------------------------------------------------------------------------------------
# The runner: every test gets the shared server and browser; one ok/FAIL line per test


def run(tests, server_factory=None):
    """Runs test functions `test(server, browser)` (only those named on the command line, if any)
    on one server and one browser; a test passes when it returns and left no script error, CSP
    violation or console message on the page. Exits with the summary's status."""
    checks = Checks(Path(sys.argv[0]).stem)
    only = sys.argv[1:]
    server = (server_factory or FixtureServer)().start()
    browser = Browser()

    def one(test):
        server.reset()
        browser.console()  # start each test with an empty console
        test(server, browser)
        errors = browser.js("return window.__errors || []")
        check(not errors, f"script errors or CSP violations on the page: {errors}")
        console = browser.console()
        check(not console, f"the console is not empty on the pages this test opened: {console}")

    try:
        for test in tests:
            if only and test.__name__ not in only:
                continue
            if not checks.test(test.__name__, one, test):
                try:
                    print("  shot:", browser.shot("fail-" + test.__name__))
                except Exception:
                    pass
    finally:
        browser.quit()
        server.stop()
    sys.exit(checks.summary())
