"""The OpenAPI description is served at /openapi.json and is true: every documented route and
method answers on a real server (no route-level 404 or 405), with one of its documented statuses.
"""
import http.client
import json
import re
import sys

from livetest import Checks, Server  # the one harness (Tests/testkit.py)

checks = Checks("test_openapi")
server = Server(demo=True)
port = server.port


def call(method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    content = response.read(200_000) if response.getheader("Content-Type") != "text/event-stream" else b""
    connection.close()
    return response.status, response.getheader("Content-Type"), content


status, content_type, body = call("GET", "/openapi.json")
checks.check(f"/openapi.json: {status} {content_type}", status == 200 and content_type.startswith("application/json"))
spec = json.loads(body)
checks.check("OpenAPI 3.1", spec.get("openapi", "").startswith("3.1"))

# Concrete values for the path parameters, valid on the demo lists where possible.
values = {"id": "countries", "section": "eu-west", "row": "fr", "file": "list.css", "sub": "no-such-subscription"}
bodies = {
    "putList": (json.dumps({"title": "Countries again"}), "application/json"),
    "patchList": (json.dumps([{"op": "replace", "path": "/title", "value": "Patched"}]), "application/json-patch+json"),
    "insertRows": (json.dumps([{"key": "openapi-row"}]), "application/json"),
    "replaceRow": (json.dumps({"cells": {}}), "application/json"),
    "mergeRow": (json.dumps({"cells": {}}), "application/merge-patch+json"),
}
order = ["get", "post", "put", "patch", "delete"]  # deletes last, so the list still exists for the others
# Row routes before list routes of the same method, so the row still exists when it is replaced.
operations = [(path, method, operation) for path, item in spec["paths"].items()
              for method, operation in item.items() if method in order]
operations.sort(key=lambda entry: (order.index(entry[1]), "/rows/" not in entry[0]))
for path, method, operation in operations:
    target = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)
    if operation["operationId"] == "events":
        target += "?view=json"
    body, content_type = bodies.get(operation["operationId"], (None, None))
    headers = {"Accept": "application/json"}
    if content_type:
        headers["Content-Type"] = content_type
    status, answer_type, answer = call(method.upper(), target, body, headers)
    documented = set(operation["responses"].keys())
    checks.check(f"{method.upper()} {target}: {status} is among the documented {sorted(documented)}", str(status) in documented)
    if status in (404, 405):
        detail = json.loads(answer).get("detail", "") if answer else ""
        # The router's own 404 ("Nothing is served at …") and any 405 mean the route is missing.
        checks.check(f"{method.upper()} {target}: the route exists", not detail.startswith("Nothing is served") and status != 405,
                     detail)

server.stop()
sys.exit(checks.summary())
