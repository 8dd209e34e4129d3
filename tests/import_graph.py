"""The import graph of the package, and the rules it must keep.

    python -m tests.import_graph           # the edges between layers, then any breach or cycle
    python -m tests.import_graph --all     # every module -> module edge

Layers, each importing only itself and the ones before it:

    simcore  (engines, data loading, declarations)
    analysis (run folders, statistics, summaries)
    reports  (view models, charts, templates)
    cli      (the commands)

Every import counts, also one inside a function (a lazy import is still a
dependency), and no two modules may import each other, directly or round a
longer loop. `balance/__init__.py` (the Python API) sits beside cli. Every
layer installs under the one import package `balance` (`balance.simcore`...);
the graph names modules by their folder (`simcore.files`).
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("simcore", "analysis", "reports", "cli", "balance")
RANK = {name: i for i, name in enumerate(LAYERS)}


def modules() -> dict[str, Path]:
    out = {}
    for top in LAYERS:
        single = ROOT / f"{top}.py"
        if single.is_file():
            out[top] = single
        base = ROOT / top
        if base.is_dir():
            for path in base.rglob("*.py"):
                parts = list(path.relative_to(ROOT).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                out[".".join(parts)] = path
    return out


def _resolve(name: str, known: dict) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def edges() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for mod, path in known.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    prefix = ".".join(base)
                    targets = [f"{prefix}.{node.module}" if node.module else prefix]
                    if not node.module:
                        targets = [f"{prefix}.{a.name}" for a in node.names]
                elif node.module == "balance" and all(a.name in RANK for a in node.names):
                    targets = [a.name for a in node.names]  # `from balance import simcore`: the layer, not the API
                else:
                    targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for t in targets:
                head, _, rest = t.partition(".")
                if head == "balance" and rest.split(".")[0] in RANK:
                    t = rest  # balance.simcore.files is simcore/files.py
                r = _resolve(t, known)
                if r is not None and r != mod and r.split(".")[0] in RANK:
                    graph[mod].add(r)
    return graph


def breaches(graph) -> list[str]:
    out = []
    for a, bs in sorted(graph.items()):
        for b in sorted(bs):
            if RANK[b.split(".")[0]] > RANK[a.split(".")[0]]:
                out.append(f"{a} -> {b} (a {a.split('.')[0]} module imports {b.split('.')[0]})")
    return out


def cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in sorted(set(graph) | {w for ws in graph.values() for w in ws}):
        if v not in index:
            visit(v)
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    graph = edges()
    if "--all" in argv:
        for a in sorted(graph):
            for b in sorted(graph[a]):
                print(f"{a} -> {b}")
    else:
        layer_edges = defaultdict(int)
        for a, bs in graph.items():
            for b in bs:
                la, lb = a.split(".")[0], b.split(".")[0]
                if la != lb:
                    layer_edges[(la, lb)] += 1
        for (la, lb), n in sorted(layer_edges.items(), key=lambda kv: (RANK[kv[0][0]], RANK[kv[0][1]])):
            print(f"{la} -> {lb}: {n} imports")
    bad, loops = breaches(graph), cycles(graph)
    for b in bad:
        print("BREACH", b)
    for c in loops:
        print("CYCLE", " <-> ".join(c))
    if not bad and not loops:
        print("layers hold; no import cycles")
    return 1 if bad or loops else 0


if __name__ == "__main__":
    sys.exit(main())
