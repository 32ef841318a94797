#!/usr/bin/python3
"""CORS in a real browser (issue 13): a page on another origin uses the API of a list-server
started with --cors-origin for it: fetch with a preflight (PATCH, If-Match, Content-Type), the
exposed ETag, List-Cursor and Link, and an EventSource. A page on an origin not named gets nothing.

Two tiny static servers give the two origins (127.0.0.1 on two ports); the server names only the
first. The runner checks the console after every test: only the refused requests of the
denied-origin test are expected there.
"""
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import RealListServer, check, equal, run  # noqa: E402

PAGE = b"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Another origin</title>" \
       b"<link rel='icon' href='data:,'></head><body><h1>Another origin</h1></body></html>"


class Page(SimpleHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


def origin_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


ALLOWED, ALLOWED_ORIGIN = origin_server()
DENIED, DENIED_ORIGIN = origin_server()

CALL = """
const [base, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  const read = await fetch(base + '/lists/countries', {headers: {'Accept': 'application/json'}});
  const etag = read.headers.get('ETag');
  const doc = await read.json();
  const write = await fetch(base + '/lists/countries', {
    method: 'PATCH', headers: {'Content-Type': 'application/json-patch+json', 'If-Match': etag},
    body: JSON.stringify([{op: 'replace', path: '/title', value: 'Countries from afar'}])});
  const rows = await fetch(base + '/lists/numbers/rows?limit=2');
  const stale = await fetch(base + '/lists/countries', {method: 'PATCH',
    headers: {'Content-Type': 'application/json-patch+json', 'If-Match': etag}, body: '[]'});
  const problem = await stale.json();
  const event = await new Promise((resolve) => {
    const source = new EventSource(base + '/lists/countries/events');
    source.addEventListener('subscription', (e) => { source.close(); resolve(JSON.parse(e.data)); });
    source.onerror = () => { source.close(); resolve(null); };
  });
  done({etag, title: doc.title, writeStatus: write.status, newEtag: write.headers.get('ETag'),
        cursor: rows.headers.get('List-Cursor'), link: rows.headers.get('Link'),
        staleStatus: stale.status, staleDetail: problem.detail, event});
})().catch((e) => done({error: String(e)}));
"""

DENIED_CALL = """
const [base, done] = [arguments[0], arguments[arguments.length - 1]];
const outcome = (p) => p.then((r) => 'answered ' + r.status, (e) => 'refused: ' + e.name);
(async () => {
  const read = await outcome(fetch(base + '/lists/countries', {headers: {'Accept': 'application/json'}}));
  const write = await outcome(fetch(base + '/lists/countries', {method: 'PATCH',
    headers: {'Content-Type': 'application/json-patch+json'}, body: '[]'}));
  done({read, write});
})();
"""


def test_an_allowed_origin_reads_writes_and_streams(server, browser):
    browser.driver.get(ALLOWED_ORIGIN + "/")
    browser.expect_console(r"/lists/countries - Failed to load resource: .*status of 412")  # the stale PATCH, on purpose
    result = browser.driver.execute_async_script(CALL, server.base)
    check("error" not in result, f"the calls went through: {result}")
    # A browser always accepts gzip: the document comes compressed, with its own tag (API.md
    # section 2), which the PATCH below sends back in If-Match as version 1.
    equal(result["etag"], '"1-gzip"', "the exposed ETag of the (compressed) document")
    equal(result["title"], "Countries", "the document")
    equal((result["writeStatus"], result["newEtag"]), (200, '"2"'), "the PATCH after its preflight")
    check(result["cursor"] and result["link"] and 'rel="next"' in result["link"], f"List-Cursor and Link: {result}")
    equal(result["staleStatus"], 412, "a stale If-Match")
    check("version 2" in result["staleDetail"], f"the problem's detail is readable: {result['staleDetail']}")
    check(result["event"] and result["event"]["version"] == 2, f"the EventSource's first event: {result['event']}")
    preflights = [line for line in server.log_lines() if line.split()[1:2] == ["OPTIONS"] or " OPTIONS " in line]
    check(any(" 204 " in line for line in preflights), f"the PATCH was preflighted: {preflights}")


def test_another_origin_gets_nothing(server, browser):
    before = server.write("GET", "/lists/countries")
    browser.driver.get(DENIED_ORIGIN + "/")
    browser.expect_console(r"has been blocked by CORS policy")
    browser.expect_console(r"Failed to load resource: net::ERR_FAILED")
    result = browser.driver.execute_async_script(DENIED_CALL, server.base)
    equal(result, {"read": "refused: TypeError", "write": "refused: TypeError"}, "the browser refuses both")
    equal(server.write("GET", "/lists/countries"), before, "the refused PATCH never reached the list")


if __name__ == "__main__":
    try:
        run([test_an_allowed_origin_reads_writes_and_streams, test_another_origin_gets_nothing],
            lambda: RealListServer(demo=True, quiet=False, flags=["--cors-origin", ALLOWED_ORIGIN]))
    finally:
        ALLOWED.shutdown()
        DENIED.shutdown()
