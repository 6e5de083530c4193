"""The layout is the architecture: imports run one way between the layers, and never in a cycle.

The import graph is built from the source with :mod:`ast` (every import, at module level or
inside a function; only ``if TYPE_CHECKING:`` blocks are left out, as they never run), so a
lazy import cannot hide an arrow. The layers, lowest first:

- the shared base, ``symattn/*.py`` (errors, limits, small text helpers, display hooks);
- ``symattn.core``: the definition of attention and its evaluation;
- ``symattn.proof``: the proof engine and the tools that check steps;
- ``symattn.labs``: the simulations;
- ``derivations``: the derivations, built with the proof package;
- ``symattn.grading``: answers, exercises, learners' derivations, class grading, the audit;
- ``symattn.present``: text, Markdown, LaTeX, JSON: results turned into text, nothing computed;
- ``symattn.build``: ``symattn build`` and ``symattn verify``, which run what the docs report
  (derivations verified, labs, planted errors, audits) and give the results to the present layer;
- ``symattn/__init__.py``: the public API (it re-exports the core and registers, with
  :mod:`symattn.present.jupyter`, how Jupyter shows results);
- ``symattn.cli``: the command line;
- ``symattn/__main__.py``: ``python -m symattn``.

A module may import its own layer and any layer below.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("base", "core", "proof", "labs", "derivations", "grading", "present", "build", "api", "cli", "main")


def sources(root: Path = ROOT) -> dict[str, Path]:
    """Every module of symattn and derivations, by dotted name."""
    found = {}
    for top in ("symattn", "derivations"):
        for path in sorted((root / top).rglob("*.py")):
            found[module_name_in(path, root)] = path
    return found


def module_name_in(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(name: str) -> str:
    if name == "symattn":
        return "api"
    if name == "symattn.__main__":
        return "main"
    parts = name.split(".")
    if parts[0] == "derivations":
        return "derivations"
    if len(parts) == 2 and parts[1] not in LAYERS:  # symattn/errors.py, not symattn/core/
        return "base"
    return parts[1]


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, typing_too: bool = False):
    """Every import statement, at any depth, except inside ``if TYPE_CHECKING:`` (unless
    ``typing_too``)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node) and not typing_too:
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def graph(modules: dict[str, Path], typing_too: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of symattn and derivations it imports (``typing_too``: also in
    ``if TYPE_CHECKING:`` blocks)."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        out: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), typing_too):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                # ``from package import submodule`` imports the submodule
                targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in modules else stem for a in node.names]
            for target in targets:
                while target and target not in modules:  # ``import a.b.c`` where c is a name
                    target = target.rpartition(".")[0]
                if target and target != name:
                    out.add(target)
        edges[name] = out
    return edges


def upward(edges: dict[str, set[str]]) -> list[str]:
    rank = {name: i for i, name in enumerate(LAYERS)}
    return sorted(
        f"{a} ({layer(a)}) imports {b} ({layer(b)})"
        for a, targets in edges.items()
        for b in targets
        if rank[layer(b)] > rank[layer(a)]
    )


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


@pytest.fixture(scope="module")
def edges():
    return graph(sources())


def test_every_module_has_a_layer(edges):
    """A new top-level folder in symattn would have no place in the order: name it in LAYERS."""
    assert {layer(m) for m in edges} <= set(LAYERS)
    assert {layer(m) for m in edges} == set(LAYERS)  # every layer is populated


def test_no_upward_import(edges):
    assert upward(edges) == []


def test_no_cycle(edges):
    assert cycles(edges) == []


def test_grading_has_no_cycle_even_in_type_hints():
    """The grading code's parts import one way even where only a type checker looks: the audit's
    rules depend on :class:`AuditContext`, not on the auditor that calls them."""
    typed = graph(sources(), typing_too=True)
    grading = {a: {b for b in bs if b.startswith("symattn.grading")} for a, bs in typed.items()}
    assert [c for c in cycles(grading) if any(m.startswith("symattn.grading") for m in c)] == []
    assert {
        "symattn.grading.answers",
        "symattn.grading.proofs",
        "symattn.grading.audit",
        "symattn.grading.batch",
    } <= set(typed)


def test_the_graph_sees_lazy_and_relative_imports(edges):
    """The arrows the checks rely on are found: function-local, relative and absolute imports."""
    assert "symattn.build.site" in edges["symattn.cli.commands"]  # inside a function, ``..``
    assert "symattn.grading.audit.calc" in edges["symattn.grading.audit.rules"]  # ``from . import calc``
    assert "symattn.proof" in edges["derivations.mutations"]  # ``from symattn.proof import``
    assert "symattn.core.exact" in edges["symattn"]


def test_a_planted_upward_import_and_cycle_are_caught(tmp_path, edges):
    """A copy of the tree with one lazy upward import fails both checks, naming the arrow."""
    for top in ("symattn", "derivations"):
        for path in (ROOT / top).rglob("*.py"):
            target = tmp_path / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    planted = tmp_path / "symattn" / "core" / "exact.py"
    planted.write_text(
        planted.read_text(encoding="utf-8")
        + "\n\ndef _show(steps):\n    from ..present.render import to_text\n\n    return to_text(steps)\n",
        encoding="utf-8",
    )
    planted_edges = graph(sources(tmp_path))
    assert set(upward(planted_edges)) - set(upward(edges)) == {
        "symattn.core.exact (core) imports symattn.present.render (present)"
    }
    assert any({"symattn.core.exact", "symattn.present.render"} <= set(c) for c in cycles(planted_edges))


#: What runs a verification, a lab, a planted error, an audit or a judge: (module, name), or
#: (module, "*") for a module that is nothing else. The present layer imports none of them.
RUNNERS = {
    ("symattn.proof.engine", "verify_many"),
    ("symattn.proof.engine", "default_jobs"),
    ("derivations.mutations", "*"),
    ("symattn.build", "*"),
    ("symattn.labs.simulation", "variance_lab"),
    ("symattn.labs.simulation", "saturation_lab"),
    ("symattn.labs.figures", "*"),
    ("symattn.grading.audit.keys", "audit_module"),
    ("symattn.grading.audit.corpus", "*"),
    ("symattn.grading.proofs.proof_judge", "check_derivation"),
    ("symattn.grading.answers.judge", "judge"),
    ("symattn.grading.plugins", "loaded"),
}


def imported_names(path: Path, name: str) -> set[tuple[str, str]]:
    """(module, name) for each name a module imports (``from m import n``), and (module, "*")
    for each module it imports whole, lazy imports included."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {(a.name, "*") for a in node.names}
            continue
        if node.level:
            base = package.split(".")
            stem = ".".join(base[: len(base) - (node.level - 1)] + ([node.module] if node.module else []))
        else:
            stem = node.module or ""
        found |= {(stem, a.name) for a in node.names} | {(f"{stem}.{a.name}", "*") for a in node.names}
    return found


def _runs(found: set[tuple[str, str]]) -> set[tuple[str, str]]:
    whole = [m for m, w in RUNNERS if w == "*"]
    return {
        (module, what)
        for module, what in found
        if (module, what) in RUNNERS or any(module == m or module.startswith(m + ".") for m in whole)
    }


def test_the_present_layer_computes_nothing():
    """symattn/present/ turns results into text: no module of it imports a runner of
    verifications, labs, planted errors, audits or judges (those are symattn/build/'s)."""
    present = {n: p for n, p in sources().items() if layer(n) == "present"}
    assert present
    runs = {n: sorted(_runs(imported_names(p, n))) for n, p in present.items()}
    assert {n: r for n, r in runs.items() if r} == {}


def test_the_runner_check_sees_a_runner():
    """The check above can fail: the build layer's site module imports runners."""
    name = "symattn.build.site"
    assert _runs(imported_names(sources()[name], name)) >= {("symattn.proof.engine", "default_jobs")}


def test_no_module_of_the_proof_engine_is_over_600_lines():
    """The proof package is one idea a module (issue 51): none grows past 600 lines."""
    files = (ROOT / "symattn" / "proof").glob("*.py")
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in files}
    assert sizes and {name: n for name, n in sizes.items() if n > 600} == {}
