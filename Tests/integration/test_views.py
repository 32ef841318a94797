"""Views over HTTP (issue 23, API.md section 9): sort, search and filters on the JSON document,
the pages of rows, the HTML page and the CSV export, checked against a small reference model
written from the contract, on random lists and random queries; cursors bound to their view;
errors that name the parameter.
"""
import csv
import io
import json
import random
import re
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from testkit import Checks, Server  # noqa: E402

WORDS = ["apple", "Apple", "banana", "Item 2", "Item 10", "item 3", "ß", "SS", "Ωmega", "ωmega", "café",
         "=SUM(A1)", "-5 below", "@home", "zeta", "Zeta", "a,b", 'say "hi"', "line\nbreak", "10", "9"]
COLUMNS = [{"key": "name", "title": "Name"}, {"key": "qty", "title": "Qty", "kind": "number"},
           {"key": "site", "title": "Site", "kind": "link"}, {"key": "pic", "title": "", "kind": "image"}]


# MARK: - The reference model (API.md section 9, written from the text)

def shown(cell, kind):
    """The text a page shows for a cell, or None for an empty cell."""
    if cell is None:
        return None
    if kind == "number":
        return f"{int(cell):,}" if float(cell).is_integer() else str(cell)
    text = {"text": lambda c: c, "link": lambda c: c["text"], "image": lambda c: c.get("alt", "")}[kind](cell)
    return text if text != "" else None


def text_key(text):
    """Case-folded, digit runs as numbers (a run sorts where '0' sits among code points)."""
    folded = text.casefold()
    parts = []
    for run in re.findall(r"[0-9]+|[^0-9]", folded):
        parts.append((0x30, int(run)) if run[0].isdigit() else (ord(run), 0))
    return parts


def sort_key(row, column):
    kind = column.get("kind", "text")
    cell = row["cells"].get(column["key"])
    if kind == "number":
        return None if cell is None else (float(cell),)
    text = shown(cell, kind)
    return None if text is None else (text_key(text), [ord(c) for c in text])


def matches(row, query, columns):
    by_key = {c["key"]: c for c in columns}
    if query.get("q"):
        needle = query["q"].casefold()
        if not any(needle in (shown(row["cells"].get(c["key"]), c.get("kind", "text")) or "").casefold() for c in columns):
            return False
    for column_key, op, value in query.get("filters", []):
        column = by_key[column_key]
        kind = column.get("kind", "text")
        text = shown(row["cells"].get(column_key), kind)
        if op == "empty":
            if text is not None:
                return False
            continue
        if text is None:
            return False
        if op == "nonempty":
            continue
        if op in ("contains", "prefix"):
            hay, needle = text.casefold(), value.casefold()
            if not (needle in hay if op == "contains" else hay.startswith(needle)):
                return False
            continue
        mine = float(row["cells"][column_key]) if kind == "number" else text_key(text)
        theirs = float(value) if kind == "number" else text_key(value)
        if not {"eq": mine == theirs, "ne": mine != theirs, "lt": mine < theirs, "le": mine <= theirs,
                "gt": mine > theirs, "ge": mine >= theirs}[op]:
            return False
    return True


def reference(document, query):
    """[(section key, [row keys in view order])] of the view."""
    columns = document["columns"]
    sort = query.get("sort")
    out = []
    selects = bool(query.get("q") or query.get("filters"))
    for section in document["sections"]:
        rows = [r for r in section.get("rows", []) if matches(r, query, columns)]
        if sort:
            column = next(c for c in columns if c["key"] == sort[0])
            present = [r for r in rows if sort_key(r, column) is not None]
            empty = [r for r in rows if sort_key(r, column) is None]
            present = sorted(present, key=lambda r: sort_key(r, column), reverse=sort[1])
            rows = present + empty
        if rows or not selects:
            out.append((section["key"], [r["key"] for r in rows]))
    return out


# MARK: - Random lists and queries

def random_document(rng):
    sections = []
    for s in range(rng.randint(1, 4)):
        rows = []
        for r in range(rng.randint(0, 14)):
            cells = {}
            if rng.random() < 0.85:
                cells["name"] = rng.choice(WORDS + [""])
            if rng.random() < 0.8:
                cells["qty"] = rng.choice([rng.randint(-20, 20), rng.randint(900, 20000), 2.5])
            if rng.random() < 0.6:
                cells["site"] = {"text": rng.choice(WORDS + [""]), "href": f"https://example.com/{r}"}
            if rng.random() < 0.5:
                pic = {"src": f"/assets/demo/{r}.svg"}
                if rng.random() < 0.7:
                    pic["alt"] = rng.choice(WORDS)
                cells["pic"] = pic
            rows.append({"key": f"s{s}r{r}", "cells": cells})
        sections.append({"key": f"sec{s}", "header": f"Section {s}", "footer": f"end {s}", "rows": rows})
    return {"title": "Views", "columns": COLUMNS, "sections": sections}


def random_query(rng):
    query = {}
    if rng.random() < 0.7:
        query["sort"] = (rng.choice(["name", "qty", "site", "pic"]), rng.random() < 0.5)
    if rng.random() < 0.3:
        query["q"] = rng.choice(["a", "ITEM", "ss", "1", "0,0", "ω", "zz"])
    filters = []
    if rng.random() < 0.4:
        filters.append(("qty", rng.choice(["lt", "ge", "eq", "ne"]), str(rng.choice([0, 5, 1000, 2.5]))))
    if rng.random() < 0.3:
        filters.append(("name", rng.choice(["contains", "prefix", "eq"]), rng.choice(["a", "item", "Apple", "ß"])))
    if rng.random() < 0.2:
        filters.append(("pic", rng.choice(["empty", "nonempty"]), None))
    if filters:
        query["filters"] = filters
    return query


def parameters(query):
    items = []
    if "sort" in query:
        items.append(("sort_desc" if query["sort"][1] else "sort", query["sort"][0]))
    for column, op, value in query.get("filters", []):
        items.append((f"filter.{column}", op if value is None else f"{op}:{value}"))
    if "q" in query:
        items.append(("q", query["q"]))
    return urllib.parse.urlencode(items, quote_via=urllib.parse.quote)


def view_of(sections_json):
    return [(s["key"], [r["key"] for r in s.get("rows", [])]) for s in sections_json]


def walk(server, path, limit):
    """Every page of `path` (a /rows URL with a view), joined: [(section, [rows])]."""
    joined, target, pages = [], f"{path}&limit={limit}", 0
    while target:
        status, headers, body = server.request("GET", target)
        assert status == 200, (target, status, body[:300])
        page = json.loads(body)
        for key, rows in view_of(page["sections"]):
            if joined and joined[-1][0] == key:
                joined[-1][1].extend(rows)
            else:
                joined.append((key, list(rows)))
        link = headers.get("link")
        target = re.match(r"<([^>]+)>", link).group(1) if link else None
        if target:
            assert page["next"] and "limit=" in target, target
        pages += 1
    return joined, pages


def check_random_views(checks, server, rng):
    failures = []
    for round in range(12):
        document = random_document(rng)
        server.put_list("v", document)
        for _ in range(8):
            query = random_query(rng)
            expected = reference(document, query)
            params = parameters(query)
            status, _, body = server.request("GET", f"/lists/v?{params}", headers={"Accept": "application/json"})
            got = view_of(json.loads(body)["sections"]) if status == 200 else (status, body[:200])
            if got != expected:
                failures.append(("document", params, expected, got))
                continue
            walked, _ = walk(server, f"/lists/v/rows?{params}", rng.randint(1, 7))
            if [(k, r) for k, r in walked if r or not (query.get("q") or query.get("filters"))] != \
                    [(k, r) for k, r in expected if r or not (query.get("q") or query.get("filters"))]:
                failures.append(("pages", params, expected, walked))
    checks.check("random lists and queries: the JSON document and the pages walked equal the reference "
                 "(96 queries on 12 lists)", not failures, failures[:3])


def check_cursors_and_errors(checks, server):
    server.put_list("c", {"title": "C", "columns": COLUMNS, "sections": [{"key": "s", "rows": [
        {"key": f"r{i}", "cells": {"name": f"Item {i}", "qty": i % 4}} for i in range(12)]}]})
    status, headers, body = server.request("GET", "/lists/c/rows?sort=qty&limit=5")
    cursor = json.loads(body)["next"]
    checks.check("a page of a view names its next page with the view's parameters",
                 "sort=qty" in headers.get("link", "") and cursor, headers.get("link"))
    status, _, body = server.request("GET", f"/lists/c/rows?sort_desc=qty&after={cursor}")
    checks.check("a cursor used with another view is 400 and says so", status == 400 and "another view" in body.decode(), body)
    status, _, body = server.request("GET", f"/lists/c/rows?after={cursor}")
    checks.check("a view's cursor used without the view is 400", status == 400, body)
    status, _, plain = server.request("GET", "/lists/c/rows?limit=5")
    status, _, body = server.request("GET", f"/lists/c/rows?sort=qty&after={json.loads(plain)['next']}")
    checks.check("a list cursor used with a view is 400", status == 400, body)

    # Rows written between pages: the cursor goes on after its row, even when that row is gone.
    status, _, body = server.request("GET", "/lists/c/rows?sort=name&limit=4")
    page = json.loads(body)
    server.request("DELETE", "/lists/c/rows/r3")
    server.request("DELETE", "/lists/c/rows/r0")
    status, _, body = server.request("GET", f"/lists/c/rows?sort=name&limit=50&after={page['next']}")
    rest = [r["key"] for s in json.loads(body)["sections"] for r in s["rows"]]
    checks.equal("after deletes (the cursor's row among them) the next page starts after the cursor's row "
                 "(digit runs as numbers: Item 2 before Item 10)",
                 [r["key"] for s in page["sections"] for r in s["rows"]] + rest,
                 ["r0", "r1", "r2", "r3"] + [f"r{i}" for i in range(4, 12)])

    for target, parameter in [("sort=nope", "sort"), ("filter.qty=big:1", "filter.qty"), ("filter.qty=eq:ten", "filter.qty"),
                              ("sort=qty&sort_desc=qty", "sort"), ("filter.name=eq:a&filter.name=eq:b", "filter.name"),
                              ("filter.nope=eq:1", "filter.nope")]:
        status, headers, body = server.request("GET", f"/lists/c?{target}", headers={"Accept": "application/json"})
        detail = json.loads(body).get("detail", "") if status == 400 else ""
        checks.check(f"{target}: 400 problem+json naming {parameter}",
                     status == 400 and headers.get("content-type") == "application/problem+json" and parameter in detail,
                     (status, body[:200]))


def check_page(checks, server):
    server.put_list("p", {"title": "Page", "columns": COLUMNS, "sections": [{"key": "s", "rows": [
        {"key": "a", "cells": {"name": "banana", "qty": 3}}, {"key": "b", "cells": {"name": "Apple", "qty": 1}},
        {"key": "c", "cells": {"name": "cherry", "qty": 2}}]}]})
    status, _, body = server.request("GET", "/lists/p?sort=name&filter.qty=ge:2")
    html = body.decode()
    rows = re.findall(r'<tr[^>]* data-row="([^"]+)"', html)
    checks.equal("the page shows the view's rows in view order", rows, ["a", "c"])
    checks.check("the sorted column's header says aria-sort=ascending and links the other direction",
                 re.search(r'<th scope="col" aria-sort="ascending"><a class="sort" href="/lists/p\?sort_desc=name&amp;filter.qty=ge%3A2"', html),
                 re.findall(r"<th[^>]*>.*?</th>", html)[:2])
    thead = re.search(r"<thead>(.*?)</thead>", html, re.S).group(1)
    checks.check("each header's title appears once, inside its link",
                 re.sub(r"<th[^>]*><a [^>]*>[^<]*</a></th>", "", thead) == "<tr></tr>", thead)
    checks.check("other headers link their own sort and keep the filter",
                 'href="/lists/p?sort=qty&amp;filter.qty=ge%3A2"' in html, re.findall(r"<th[^>]*>.*?</th>", html))
    checks.check("a search form (role=search, method get) keeps the view as hidden inputs",
                 '<form role="search" method="get"' in html and '<input type="hidden" name="sort" value="name">' in html
                 and '<input type="hidden" name="filter.qty" value="ge:2">' in html)
    checks.check("the active filter has a link that removes it",
                 re.search(r'Qty ge 2 <a href="/lists/p\?sort=name" aria-label="Remove filter Qty ge 2"', html))
    checks.check("the page links the CSV export of the view",
                 'href="/lists/p?sort=name&amp;filter.qty=ge%3A2&amp;format=csv"' in html)
    status, _, body = server.request("GET", "/lists/p?q=zzz")
    checks.check("a search that finds nothing says so, naming the query", "No rows match \u201Czzz\u201D" in body.decode())
    status, _, body = server.request("GET", "/lists/p")
    checks.check("the plain page has sortable headers too", '<a class="sort" href="/lists/p?sort=name">' in body.decode())
    status, _, body = server.request("GET", "/lists/p?q=")
    checks.check("an empty search field (q=) is the list as it is", status == 200 and len(re.findall(r"data-row=", body.decode())) == 3)


def check_csv(checks, server):
    server.put_list("x", {"title": "X", "columns": COLUMNS, "sections": [
        {"key": "one", "rows": [{"key": "a", "cells": {"name": "=SUM(A1)", "qty": 1500, "site": {"text": "t", "href": "https://e.com/a?b=1,2"}}},
                                {"key": "b", "cells": {"name": 'say "hi", ok', "pic": {"src": "/assets/demo/fr.svg", "alt": "x"}}}]},
        {"key": "two", "rows": [{"key": "c", "cells": {"name": "plain", "qty": -2.5}}]}]})
    status, headers, body = server.request("GET", "/lists/x?format=csv&sort_desc=name")
    checks.check("CSV: text/csv, an attachment named after the list",
                 status == 200 and headers.get("content-type", "").startswith("text/csv")
                 and headers.get("content-disposition") == 'attachment; filename="x.csv"', headers)
    text = body.decode()
    checks.check("CSV: CRLF line ends", text.count("\r\n") == 4 and "\n" not in text.replace("\r\n", ""), repr(text))
    rows = list(csv.reader(io.StringIO(text, newline="")))
    checks.equal("CSV: header, then the view's rows in view order, formulas guarded", rows, [
        ["section", "Name", "Qty", "Site", "pic"],
        ["one", 'say "hi", ok', "", "", "/assets/demo/fr.svg"],
        ["one", "'=SUM(A1)", "1500", "https://e.com/a?b=1,2", ""],
        ["two", "plain", "-2.5", "", ""]])
    status, headers, body = server.request("GET", "/lists/x", headers={"Accept": "text/csv"})
    checks.check("CSV by Accept: text/csv", status == 200 and body.decode().startswith("section,Name"), body[:80])
    status, _, _ = server.request("GET", "/lists/x?format=xml")
    checks.check("format other than csv is 400", status == 400)


def check_big_csv(checks, server):
    rows = [{"key": f"r{i}", "cells": {"name": f"Item {i}", "qty": i}} for i in range(60_000)]
    server.put_list("big", {"title": "Big", "columns": COLUMNS, "sections": [{"key": "s", "rows": rows}]})
    status, _, body = server.request("GET", "/lists/big?format=csv&sort_desc=qty&filter.qty=ge:100")
    lines = body.decode().split("\r\n")
    checks.check("a 60,000-row export arrives whole, in view order",
                 status == 200 and len(lines) == 59_900 + 2 and lines[1] == "s,Item 59999,59999,," and lines[-2] == "s,Item 100,100,,",
                 (len(lines), lines[:2], lines[-3:]))


def big_document(rng, rows=24_000):
    """A list over the server's threshold for reading a first page without the view
    (`ServerDefaults.offThreadRows`, 20,000 rows): three sections, one of them empty,
    many equal and missing values."""
    small = random_document(rng)  # its rows' shapes, repeated
    shapes = [r["cells"] for section in small["sections"] for r in section["rows"]] or [{}]
    sections = []
    for s, count in enumerate([rows // 2, 0, rows - rows // 2]):
        sections.append({"key": f"big{s}", "header": f"Part {s}", "footer": f"end of part {s}",
                         "rows": [{"key": f"b{s}-{n}", "cells": rng.choice(shapes)} for n in range(count)]})
    return {"title": "Big views", "columns": COLUMNS, "sections": sections}


def check_big_first_pages(checks, server, rng):
    """The first page of a view not built yet on a large list is read at once (no sort of every
    row) and the view built behind it: that page must be the view's first page, its cursor must
    lead on through the built view, and the same page asked again (now from the built view) must
    be the same answer, JSON and HTML alike."""
    document = big_document(rng)
    server.put_list("bigv", document)
    failures, seen = [], set()
    while len(seen) < 8:
        query = random_query(rng)
        params = parameters(query)
        if params in seen or not params:
            continue
        seen.add(params)
        limit = rng.choice([1, 7, 50, 200])
        expected = [(key, rows) for key, rows in reference(document, query)]
        flat = [row for _, rows in expected for row in rows]
        path = f"/lists/bigv/rows?{params}&limit={limit}"
        cold = server.request("GET", path)
        got = [row for _, rows in view_of(json.loads(cold[2])["sections"]) for row in rows]
        if got != flat[:limit]:
            failures.append(("first page", params, limit, flat[:limit][:5], got[:5]))
            continue
        target, pages = path, [got]
        for _ in range(2):  # on through the view the server builds meanwhile
            link = server.request("GET", target)[1].get("link")
            if not link:
                break
            target = re.match(r"<([^>]+)>", link).group(1)
            pages.append([row for _, rows in view_of(json.loads(server.request("GET", target)[2])["sections"]) for row in rows])
        walked = [row for page in pages for row in page]
        if walked != flat[:len(walked)] or (len(walked) < min(len(flat), 3 * limit)):
            failures.append(("next pages", params, limit, len(walked), len(flat)))
        warm = server.request("GET", path)
        same = cold[2] == warm[2] and cold[1].get("link") == warm[1].get("link") and \
            cold[1].get("list-cursor") == warm[1].get("list-cursor") and cold[1].get("etag") == warm[1].get("etag")
        if not same:
            failures.append(("read again", params, limit, cold[1], warm[1]))
    # The HTML page, for queries of their own (not built yet): read at once, then again once the
    # JSON document of the view (which needs the whole view) was read.
    html_queries = 0
    while html_queries < 4:
        query = random_query(rng)
        params = parameters(query)
        if params in seen or not params:
            continue
        seen.add(params)
        html_queries += 1
        path = f"/lists/bigv?{params}&limit=30"
        cold = server.request("GET", path)
        expected = [row for _, rows in reference(document, query) for row in rows][:30]
        shown = re.findall(r'<tr[^>]* data-row="([^"]+)"', cold[2].decode())
        server.request("GET", f"/lists/bigv?{params}", headers={"Accept": "application/json"})
        warm = server.request("GET", path)
        if cold[0] != 200 or shown != expected or cold[2] != warm[2] or cold[1].get("etag") != warm[1].get("etag"):
            failures.append(("HTML page", params, cold[0], shown[:3], expected[:3], cold[2] == warm[2]))
    # Made off the connection's thread, the answer is still conditional: a cold view asked with
    # If-None-Match naming any tag is a 304, and its ETag is the one the built view answers.
    while True:
        query = random_query(rng)
        params = parameters(query)
        if params and params not in seen:
            break
    cold = server.request("GET", f"/lists/bigv/rows?{params}", headers={"If-None-Match": "*"})
    whole = server.request("GET", f"/lists/bigv?{params}", headers={"Accept": "application/json"})
    warm = server.request("GET", f"/lists/bigv/rows?{params}")
    checks.check("a large list's cold view page asked with If-None-Match: * is a 304 with the page's ETag",
                 cold[0] == 304 and cold[1].get("etag") == warm[1].get("etag") and whole[0] == 200,
                 (cold[0], cold[1].get("etag"), warm[1].get("etag"), whole[0]))
    checks.check("a large list: the first page of a view read without the view is the view's first page, "
                 "its cursor leads on in view order, and reading it again from the built view answers the "
                 "same (8 queries as JSON, 4 as HTML)", not failures, failures[:3])


def main():
    checks = Checks("views")
    server = Server()
    try:
        checks.run("random views against the reference", check_random_views, checks, server, random.Random(23))
        checks.run("cursors and errors", check_cursors_and_errors, checks, server)
        checks.run("the page's controls", check_page, checks, server)
        checks.run("CSV export", check_csv, checks, server)
        checks.run("a large CSV export", check_big_csv, checks, server)
        checks.run("large lists' first pages", check_big_first_pages, checks, server, random.Random(2027))
    finally:
        server.stop()
    sys.exit(checks.summary())


if __name__ == "__main__":
    main()
