#!/usr/bin/python3
"""Checks the static client's module graph against the layering in Public/js/README.md.

Reads the `layer N name: a.js b.js` lines of the README and, in every Public/js/*.js, the
static `import … from './x.js'` lines, the dynamic imports `import('./x.js')` in code and the
JSDoc type imports `import('./x.js')` in comments. Fails on a module the README does not place
(or a placed one that does not exist), an import of a file that is not a module here, an import
(of any kind) into the same or a higher layer, a cycle, and a module main.js never loads; and
unless each page the renderer makes (its snapshots, PAGES below) loads main.js and modulepreloads
exactly what main.js will import there: its static imports (and theirs), and the modules it
imports dynamically on that page with their static imports (`ClientScript` in
HTMLRenderer+Page.swift). Prints `ok   modules` or `FAIL modules: …` lines; exits non-zero on
failure.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "Public" / "js"
SNAPSHOTS = ROOT / "Tests" / "HTMLRendererTests" / "Snapshots"
# Each page snapshot, and the modules main.js imports dynamically on that page.
PAGES = {"page-first.html": [], "page-editable.html": ["edit-mode.js"], "index.html": ["index-view.js"]}
STATIC = re.compile(r"""^\s*(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]""", re.M)
CALL = re.compile(r"""\bimport\(\s*['"]([^'"]+)['"]\s*\)""")
COMMENTS = re.compile(r"/\*.*?\*/|^\s*//[^\n]*", re.S | re.M)


def closure(graph, roots):
    """`roots` and every module they import statically, directly or not."""
    seen, todo = set(), list(roots)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo += graph.get(module, ())
    return seen


def main():
    problems = []
    layers = {}
    readme = (JS / "README.md").read_text()
    for number, names in re.findall(r"^layer (\d+) [\w-]+:\s*(.*)$", readme, re.M):
        for name in names.split():
            if name in layers:
                problems.append(f"{name} is placed twice in README.md")
            layers[name] = int(number)
    modules = sorted(p.name for p in JS.glob("*.js"))
    problems += [f"{m} has no layer in Public/js/README.md" for m in modules if m not in layers]
    problems += [f"README.md places {m}, which does not exist" for m in layers if m not in modules]
    graph, static, dynamic = {}, {}, {}
    for module in modules:
        text = (JS / module).read_text()
        code = COMMENTS.sub("", text)
        kinds = [("static", [a or b for a, b in STATIC.findall(text)]), ("dynamic", CALL.findall(code)),
                 ("type", CALL.findall(text))]  # types: every import() in the file, comments or not
        graph[module], static[module], dynamic[module] = set(), set(), set()
        for kind, targets in kinds:
            for target in targets:
                if not target.startswith("./") or "/" in target[2:] or target[2:] not in modules:
                    problems.append(f"{module} imports {target!r}: not a module of Public/js/ ('./name.js')")
                    continue
                name = target[2:]
                graph[module].add(name)
                {"static": static, "dynamic": dynamic}.get(kind, {}).setdefault(module, set()).add(name)
        for name in sorted(graph[module]):
            if module in layers and name in layers and layers[name] >= layers[module]:
                problems.append(f"{module} (layer {layers[module]}) imports {name} (layer {layers[name]}): "
                                "imports must point to a lower layer")
    # What main.js loads: its static imports at once, the others (import()) on the pages that need them.
    loaded = closure(static, ["main.js"])
    for target in sorted(dynamic.get("main.js", ())):
        loaded |= closure(static, [target])
    problems += [f"{m} is never loaded: neither main.js nor what it imports imports it" for m in modules if m not in loaded]
    for module in modules:
        for target in sorted(dynamic.get(module, ())):
            if module != "main.js" or not any(target in extra for extra in PAGES.values()):
                problems.append(f"{module} imports {target} with import(): no page preloads it "
                                "(only main.js does that, for a page in check_modules.py's PAGES)")
    # Each page: the entry as a module script, and a preload of exactly what main.js will import there.
    preloaded = 0
    for name, extra in PAGES.items():
        if not (SNAPSHOTS / name).exists():
            problems.append(f"{name}: no such snapshot in {SNAPSHOTS.relative_to(ROOT)}")
            continue
        page = (SNAPSHOTS / name).read_text()
        scripts = re.findall(r'<script type="module" src="/assets/js/([^"]+)"></script>', page)
        preloads = re.findall(r'<link rel="modulepreload" href="/assets/js/([^"]+)">', page)
        expected = sorted(closure(static, ["main.js"] + extra) - {"main.js"})
        preloaded += len(preloads)
        if scripts != ["main.js"]:
            problems.append(f"{name} loads {scripts} as module scripts, not main.js alone")
        if sorted(preloads) != expected or len(set(preloads)) != len(preloads):
            problems.append(f"{name} preloads {sorted(preloads)}, not {expected}: "
                            "ClientScript (HTMLRenderer+Page.swift) and the snapshots")
    # Cycles (also excluded by strict layering; reported on their own for a clear message).
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                problems.append("import cycle: " + " -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for module in modules:
        if module not in state:
            visit(module, [module])
    if problems:
        for problem in problems:
            print(f"FAIL modules: {problem}")
        return 1
    edges = sum(len(v) for v in graph.values())
    print(f"ok   modules ({len(modules)} modules, {edges} imports, layering of Public/js/README.md, no cycles, "
          f"{len(PAGES)} pages preload what main.js imports there, {preloaded} preloads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
