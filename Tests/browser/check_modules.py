#!/usr/bin/python3
"""Checks the static client's module graph against the layering in Public/js/README.md.

Reads the `layer N name: a.js b.js` lines of the README and, in every Public/js/*.js, the
static `import … from './x.js'` lines and the JSDoc type imports `import('./x.js')`. Fails on a
module the README does not place (or a placed one that does not exist), an import of a file that
is not a module here, an import into the same or a higher layer, and a cycle; and unless the
renderer's page (its snapshot `page-first.html`) loads main.js and modulepreloads every other
module (HTMLWriter.clientModules), no more. Prints
`ok   modules` or `FAIL modules: …` lines; exits non-zero on failure.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "Public" / "js"
PAGE = ROOT / "Tests" / "HTMLRendererTests" / "Snapshots" / "page-first.html"
STATIC = re.compile(r"""^\s*(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]""", re.M)
TYPES = re.compile(r"""\bimport\(\s*['"]([^'"]+)['"]\s*\)""")


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
    graph = {}
    for module in modules:
        text = (JS / module).read_text()
        targets = [a or b for a, b in STATIC.findall(text)] + TYPES.findall(text)
        graph[module] = set()
        for target in targets:
            if not target.startswith("./") or "/" in target[2:] or target[2:] not in modules:
                problems.append(f"{module} imports {target!r}: not a module of Public/js/ ('./name.js')")
                continue
            name = target[2:]
            graph[module].add(name)
            if module in layers and name in layers and layers[name] >= layers[module]:
                problems.append(f"{module} (layer {layers[module]}) imports {name} (layer {layers[name]}): "
                                "imports must point to a lower layer")
    # The page: the entry as a module script, every other module preloaded.
    page = PAGE.read_text()
    scripts = re.findall(r'<script type="module" src="/assets/js/([^"]+)"></script>', page)
    preloads = re.findall(r'<link rel="modulepreload" href="/assets/js/([^"]+)">', page)
    if scripts != ["main.js"]:
        problems.append(f"{PAGE.name} loads {scripts} as module scripts, not main.js alone")
    if sorted(preloads) != sorted(m for m in modules if m != "main.js"):
        problems.append(f"{PAGE.name} preloads {sorted(preloads)}, not every module but main.js: "
                        "HTMLWriter.clientModules (HTMLRenderer+Page.swift) and the snapshots")
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
          f"the page preloads {len(preloads)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
