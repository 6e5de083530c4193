"""Vendor the peers' own test cases under tests/data/peers/ (run by hand, once per upstream update).

    python scripts/vendor_peer_cases.py latex2sympy  L2S_CHECKOUT      # in symattn's .venv
    python scripts/vendor_peer_cases.py math-verify  MV_CHECKOUT       # in Math-Verify's venv

latex2sympy (OrangeX4/latex2sympy, the source of latex2sympy2 1.9.1): its tests/ call
``assert_equal(latex, expected, variable_values, symbolically)`` from tests/context.py. This script
copies tests/ to a scratch folder, makes context.py's ``assert_equal`` a recorder that notes every
call without comparing (so a test that loops over strings records all of them), runs pytest on the copy and
writes one JSON line per pair: the LaTeX, ``srepr`` of the expected SymPy value, the flags, and
the test it came from. A test that wraps its call in ``pytest.raises`` gives a "bad" pair (the
LaTeX must be refused); so do the strings of all_bad_test.py.

Math-Verify (huggingface/Math-Verify): its tests are ``pytest.mark.parametrize`` tables of
(gold, pred, expected label[, precision]). This script imports the test modules, reads the
tables, and keeps the cases whose gold Math-Verify itself parses to a finite number, a matrix, an
equation ``variable = number`` (a number answer) or a one-sided inequality in one variable (a
threshold). Worked solutions as predictions are kept too, marked ``prose``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "peers"

#: Appended to upstream's tests/context.py: record each call instead of comparing, so that a
#: test looping over many strings records every one of them.
_RECORDER = textwrap.dedent(
    """
    import inspect as _inspect, json as _json, os as _os

    def assert_equal(latex, expr, variable_values={}, symbolically=False):
        caller = _inspect.stack()[1]
        with open(_os.environ["RECORD_TO"], "a") as fh:
            fh.write(_json.dumps({
                "latex": latex,
                "expected": None if expr is None else srepr(expr),
                "variables": {k: srepr(v) for k, v in variable_values.items()},
                "symbolic": symbolically,
                "function": caller.function,
                "file": _os.path.basename(caller.filename),
            }) + "\\n")
    """
)


def vendor_latex2sympy(checkout: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pkg = Path(tmp) / "l2s_tests"
        shutil.copytree(checkout / "tests", pkg)
        context = (pkg / "context.py").read_text()
        (pkg / "context.py").write_text(context + _RECORDER)
        shim = Path(tmp) / "latex2sympy"  # upstream imports latex2sympy.latex2sympy2
        shim.mkdir()
        (shim / "__init__.py").write_text("")
        (shim / "latex2sympy2.py").write_text("from latex2sympy2 import latex2sympy  # noqa\n")
        record = Path(tmp) / "record.jsonl"
        env = {"RECORD_TO": str(record), "PYTHONPATH": tmp, "PATH": "/usr/bin:/bin"}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--rootdir",
                tmp,
                "-o",
                "python_files=*_test.py",
                "-o",
                "addopts=",
                str(pkg),
            ],
            cwd=tmp,
            env=env,
            check=False,
        )
        calls = [json.loads(line) for line in record.read_text().splitlines()]
        sources = {p.name: p.read_text() for p in pkg.glob("*_test.py")}
    pairs = []
    seen = set()
    for call in calls:
        body = _function_source(sources[call["file"]], call["function"])
        kind = "bad" if "pytest.raises" in body else "good"
        key = (call["latex"], call["expected"], json.dumps(call["variables"]), call["symbolic"], kind)
        if key in seen:  # parametrised loops repeat some strings
            continue
        seen.add(key)
        pairs.append(
            {
                "latex": call["latex"],
                "expected": call["expected"] if kind == "good" else None,
                "variables": call["variables"],
                "symbolic": call["symbolic"],
                "kind": kind,
                "source": f"{call['file']}::{call['function']}",
            }
        )
    bad_module = (checkout / "tests" / "all_bad_test.py").read_text()
    namespace: dict = {}
    exec(_class_body(bad_module, "BAD_STRINGS"), namespace)  # a literal list of strings
    for s in namespace["BAD_STRINGS"]:
        pairs.append(
            {
                "latex": s,
                "expected": None,
                "variables": {},
                "symbolic": False,
                "kind": "bad",
                "source": "all_bad_test.py::TestAllBad",
            }
        )
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "latex2sympy_pairs.jsonl", "w") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    shutil.copy(checkout / "LICENSE.txt", OUT / "latex2sympy_LICENSE.txt")
    print(f"{len(pairs)} pairs ({sum(p['kind'] == 'good' for p in pairs)} good)", file=sys.stderr)


def _function_source(module: str, name: str) -> str:
    start = module.find(f"def {name}(")
    end = module.find("\ndef ", start + 1)
    return module[start : end if end > 0 else None]


def _class_body(module: str, name: str) -> str:
    start = module.index(f"{name} = [")
    end = module.index("\n    ]", start) + len("\n    ]")
    return textwrap.dedent(module[start:end])


# -- Math-Verify ------------------------------------------------------------------------------
_MV_FILES = ("test_all", "test_boxed", "test_numina_cases", "test_open_thoughts", "test_yujianll")
#: Longer predictions are worked solutions, not answers: kept, and marked prose.
PROSE_LENGTH = 200


def vendor_math_verify(checkout: Path) -> None:
    import sympy
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    sys.path.insert(0, str(checkout))
    cases = []
    for name in _MV_FILES:
        module = importlib.import_module(f"tests.{name}")
        for fname, func in inspect.getmembers(module, inspect.isfunction):
            if not fname.startswith("test_"):
                continue
            for mark in getattr(func, "pytestmark", []):
                if mark.name != "parametrize":
                    continue
                names = [n.strip() for n in mark.args[0].split(",")]
                for row in mark.args[1]:
                    case = dict(zip(names, row, strict=True))
                    case["label"] = int(case.pop("expected", case.pop("result", 0)))
                    case["source"] = f"{name}.py::{fname}"
                    cases.append(case)
    kept = []
    for case in cases:
        gold = parse(case["gold"], [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()])
        kind, value, variable = _gold_kind(case["gold"], gold[0] if gold else None, sympy)
        if kind is None:
            continue
        kept.append(
            {
                "gold": case["gold"],
                "pred": case["pred"],
                "label": case["label"],
                "precision": case.get("precision"),
                "gold_kind": kind,
                "gold_value": value,
                "variable": variable,
                "prose": len(case["pred"]) > PROSE_LENGTH,
                "source": case["source"],
            }
        )
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "math_verify_cases.jsonl", "w") as fh:
        for c in kept:
            fh.write(json.dumps(c, ensure_ascii=False) + "\n")
    shutil.copy(checkout / "LICENCE", OUT / "math_verify_LICENCE.txt")
    print(f"{len(kept)} of {len(cases)} cases kept", file=sys.stderr)


#: Golds that Math-Verify itself misreads, with the value their author wrote (checked by hand).
GOLD_OVERRIDES = {
    # Math-Verify reads \mathrm{e} as the end of the expression and returns 1.
    r"$1 - \frac{1}{\mathrm{e}}$": lambda sympy: 1 - 1 / sympy.E,
    # Two answers, W(n) = 1 and W(n) = -1: not one number.
    r"\\boxed{W(n) = 1 \\text{ and } W(n) = -1": lambda sympy: None,
}


def _gold_kind(gold: str, value, sympy):
    """(kind, exact value as srepr, variable) for a parsed gold; kind None to leave it out.

    An equation ``z = ... = 2`` gives the number on its right. Math-Verify reads a percent as
    hundredths (``28\\%`` is 28 times 1/100), as a course does.
    """
    if value is None:
        return None, None, None
    if gold in GOLD_OVERRIDES:
        value = GOLD_OVERRIDES[gold](sympy)
    if isinstance(value, sympy.And) and all(isinstance(a, sympy.Eq) for a in value.args):
        value = value.args[-1].rhs  # a chain x = a = b: the last side
    if isinstance(value, sympy.Eq) and value.lhs.is_Symbol:
        value = value.rhs
    if isinstance(value, sympy.Basic):
        value = value.xreplace({f: sympy.Rational(str(f)) for f in value.atoms(sympy.Float)}).doit()
    if isinstance(value, sympy.MatrixBase):
        if all(e.is_number and e.is_finite for e in value):
            return "matrix", sympy.srepr(sympy.ImmutableMatrix(value)), None
        return None, None, None
    if isinstance(value, (sympy.StrictGreaterThan, sympy.StrictLessThan)):
        rel = value if isinstance(value, sympy.StrictGreaterThan) else value.reversed
        if rel.lhs.is_Symbol and rel.rhs.is_number and rel.rhs.is_finite:
            return "threshold", sympy.srepr(rel.rhs), str(rel.lhs)
        return None, None, None
    if isinstance(value, sympy.Expr) and value.is_number and value.is_finite and value.is_real:
        return "number", sympy.srepr(value), None
    return None, None, None


if __name__ == "__main__":
    which, path = sys.argv[1], Path(sys.argv[2])
    {"latex2sympy": vendor_latex2sympy, "math-verify": vendor_math_verify}[which](path)
