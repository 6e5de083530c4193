"""latex2sympy's own test cases, read by raw latex2sympy2 and by symattn's answer reader.

The pairs (LaTeX, expected SymPy value) are vendored from OrangeX4/latex2sympy's tests/ in
tests/data/peers/latex2sympy_pairs.jsonl (MIT licence beside it; scripts/vendor_peer_cases.py
made the file). Each pair is read twice in this process:

- raw: ``latex2sympy2.latex2sympy(latex, variable_values)`` with its global assignments cleared
  first, as in a fresh process;
- adapter: :func:`symattn.answers.precheck` then :func:`symattn.parsing.read_latex`, the path a
  learner's answer takes (without the worker, which only adds limits).

A reading is *parse-equal* when it has the expected value (:func:`same_value`). The adapter may
refuse a pair; every refusal must fall in one of :data:`REFUSALS`, the constructs symattn refuses
on purpose, and where it gives a value and raw latex2sympy2 gave the expected one, the adapter's
value must be the expected one too (it never changes a value).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "peers"
PAIRS_FILE = DATA / "latex2sympy_pairs.jsonl"
#: Where the pairs come from: repository and commit of the vendored tests.
L2S_SOURCE = "OrangeX4/latex2sympy at 52423b77450087ebfa65aea7ba1564ca7dbb04d4 (tests/, MIT)"


@dataclass(frozen=True)
class Refusal:
    """A construct symattn refuses on purpose, and how to recognise a pair that uses it."""

    name: str
    why: str
    matches: Callable[[str], bool]


def _has(*patterns: str) -> Callable[[str], bool]:
    compiled = [re.compile(p) for p in patterns]
    return lambda latex: any(p.search(latex) for p in compiled)


#: The constructs refused on purpose, in the order they are tested; the first that matches
#: names a refusal. The docs list them (bench/peers_answers.py).
REFUSALS: tuple[Refusal, ...] = (
    Refusal(
        "placeholders",
        r"`\variable{...}` is latex2sympy's hook for values passed by a program; a learner "
        "has no such values",
        _has(r"\\variable\b"),
    ),
    Refusal(
        "calculus",
        r"integrals, limits, derivatives (`\int`, `\lim`, `\frac{d}{dx}`): "
        "an answer here is a value, not a computation to carry out",
        _has(r"\\int(?![a-z])", r"\\lim(?![a-z])", r"\\frac\{d\}\{d", r"\\frac\{\\partial", r"d[a-z]\b"),
    ),
    Refusal(
        "sums and products",
        r"`\sum`, `\prod` with symbolic or large bounds: write the value itself",
        _has(r"\\sum(?![a-z])", r"\\prod(?![a-z])"),
    ),
    Refusal(
        "binomials and factorials",
        r"`\binom`, `\choose`, `!`, Pochhammer `(a)_{b}`: cheap to write, unbounded to compute",
        _has(r"\\[dt]?binom", r"\\choose", r"!", r"\)_\{"),
    ),
    Refusal(
        "named operators",
        r"`\operatorname{...}` and `\mathrm{...}` words (gcd, lcm, floor, ceil...): "
        "not part of an attention answer; write the value",
        _has(r"\\operatorname", r"\\mathrm"),
    ),
    Refusal(
        "number theory and rounding",
        r"`\gcd`, `\lcm`, `\mod`, floor and ceiling brackets: outside the module's answers",
        _has(
            r"\\gcd",
            r"\\lcm",
            r"\\mod",
            r"\\[lr]floor",
            r"\\[lr]ceil",
            r"\\[ul][lr]corner",
            r"\\floor",
            r"\\ceil",
        ),
    ),
    Refusal(
        "comma numbers",
        "`12,123.4`: a comma inside a number is ambiguous (thousands or decimal separator)",
        _has(r"\d,\d"),
    ),
    Refusal(
        "currency and percent",
        r"`\$`, `\%`: money and percent signs are not part of a numeric answer",
        _has(r"\\\$", r"\\%"),
    ),
    Refusal(
        "lists and sets",
        r"several values separated by `,` or `;`, or a set such as `\emptyset`: "
        "an answer here is one value",
        _has(r"\\emptyset", r"[,;]"),
    ),
    Refusal(
        "mismatched brackets",
        r"brackets that do not pair up as written (`[1+2)`, `\left[ ... \right)`)",
        lambda latex: False,
    ),
    Refusal(
        "not learner notation",
        r"forms a course never asks for: `\overline` conjugates, `\mathit`, `\exponentialE`, "
        r"complex `i` as a letter, `\lambda` misread...",
        _has(r"\\overline", r"\\mathit", r"\\exponentialE", r"\\lambda"),
    ),
)


@dataclass(frozen=True)
class PairResult:
    """One pair's readings: raw and adapter outcomes are "equal", "different" or "error"."""

    latex: str
    kind: str  # good: must read as expected; bad: must be refused
    source: str
    raw: str
    adapter: str
    message: str = ""  # the adapter's refusal, where it refused
    category: str | None = None  # the refusal's category, where it refused
    differs_from_raw: bool = False  # both gave a value, and not the same value


def load_pairs(path: Path = PAIRS_FILE) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def trusted_value(text: str) -> Any:
    """A value from the vendored file (``srepr`` text, reviewed data, never a learner's input)."""
    return sp.sympify(text)


def raw_read(latex: str, variables: dict[str, str]) -> Any:
    """latex2sympy2 as shipped, each pair as in a fresh process (earlier assignments cleared)."""
    import latex2sympy2

    latex2sympy2.set_variances({})
    return latex2sympy2.latex2sympy(latex, {k: trusted_value(v) for k, v in variables.items()})


def adapter_read(latex: str) -> Any:
    """The path of a learner's answer: symattn's precheck, then symattn's reader."""
    from symattn.answers import precheck
    from symattn.parsing import read_latex

    return read_latex(precheck(latex))


def _plain(value: Any) -> Any:
    """``value`` with assumption-free symbols, and each float as the decimal its author typed."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return sp.Rational(repr(value))
    if not isinstance(value, sp.Basic):
        return sp.sympify(value) if isinstance(value, int) else value
    floats = {f: sp.Rational(repr(float(f))) for f in value.atoms(sp.Float)}
    symbols = {s: sp.Symbol(s.name) for s in value.atoms(sp.Symbol)}
    return value.xreplace(floats).xreplace(symbols)


def same_value(got: Any, expected: Any) -> bool:
    """True when ``got`` has the expected value (exactly; symbolic differences simplified to 0)."""
    got, expected = _plain(got), _plain(expected)
    if isinstance(expected, list) or isinstance(got, list):
        return (
            isinstance(got, list)
            and isinstance(expected, list)
            and len(got) == len(expected)
            and all(same_value(g, e) for g, e in zip(got, expected, strict=True))
        )
    if isinstance(expected, sp.MatrixBase) or isinstance(got, sp.MatrixBase):
        if not (isinstance(got, sp.MatrixBase) and isinstance(expected, sp.MatrixBase)):
            return _same_expr(got, expected)
        return got.shape == expected.shape and all(
            _same_expr(g, e) for g, e in zip(got, expected, strict=True)
        )
    if isinstance(expected, sp.Rel) or isinstance(got, sp.Rel):
        return (
            type(got) is type(expected)
            and _same_expr(got.lhs, expected.lhs)
            and _same_expr(got.rhs, expected.rhs)
        )
    return _same_expr(got, expected)


def _same_expr(got: Any, expected: Any) -> bool:
    if got == expected or sp.srepr(got) == sp.srepr(expected):
        return True
    if not (isinstance(got, sp.Basic) and isinstance(expected, sp.Basic)):
        return False
    try:
        diff = (got - expected).doit()
        return diff == 0 or sp.simplify(diff) == 0
    except Exception:  # matrix minus scalar, sets...: not the same value
        return False


def classify(latex: str) -> str | None:
    """The name of the first refusal category that ``latex`` falls in, or None."""
    for refusal in REFUSALS:
        if refusal.matches(latex):
            return refusal.name
    return None


def _outcome(read: Callable[[], Any], expected: Any, kind: str) -> tuple[str, Any]:
    try:
        value = read()
    except Exception:  # InvalidAnswer, LatexError, or latex2sympy2's own errors: a refusal
        return "error", None
    return _judge(value, expected, kind), value


def _judge(value: Any, expected: Any, kind: str) -> str:
    if kind == "bad":
        return "different"  # read as something, where upstream expects a refusal
    return "equal" if same_value(value, expected) else "different"


def run_all(
    pairs: list[dict[str, Any]] | None = None, progress: bool = False, workers: int = 2
) -> list[PairResult]:
    """Every pair's readings. Raw readings run in fresh interpreters that never load symattn's
    reader (it patches the parser in its process); then the adapter's, in fresh ones too.
    ``workers`` processes share each pass, in chunks, results in the pairs' order.
    """
    import multiprocessing

    pairs = load_pairs() if pairs is None else pairs
    chunks = [pairs[i : i + _CHUNK] for i in range(0, len(pairs), _CHUNK)]
    show = _progress if progress else (lambda items, _desc, _n: items)
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        raws = [r for c in show(pool.imap(_raw_chunk, chunks), "raw latex2sympy2", len(chunks)) for r in c]
    raw_chunks = [raws[i : i + _CHUNK] for i in range(0, len(raws), _CHUNK)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        jobs = pool.imap(_adapter_chunk, zip(chunks, raw_chunks, strict=True))
        return [r for c in show(jobs, "symattn adapter", len(chunks)) for r in c]


_CHUNK = 40


def _raw_chunk(pairs: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    out = []
    for pair in pairs:
        expected = trusted_value(pair["expected"]) if pair["kind"] == "good" else None
        out.append(_outcome(lambda p=pair: raw_read(p["latex"], p["variables"]), expected, pair["kind"]))
    return out


def _adapter_chunk(job: tuple[list[dict[str, Any]], list[tuple[str, Any]]]) -> list[PairResult]:
    results = []
    for pair, (raw, raw_value) in zip(*job, strict=True):
        expected = trusted_value(pair["expected"]) if pair["kind"] == "good" else None
        message = ""
        try:
            value = adapter_read(pair["latex"])
        except Exception as exc:  # InvalidAnswer, LatexError: a refusal
            adapter, message, value = "error", str(exc), None
        else:
            adapter = _judge(value, expected, pair["kind"])
        category = classify(pair["latex"]) if adapter == "error" else None
        differs = adapter != "error" and raw != "error" and not same_value(value, raw_value)
        results.append(
            PairResult(pair["latex"], pair["kind"], pair["source"], raw, adapter, message, category, differs)
        )
    return results


def _progress(items: Iterable[Any], desc: str, total: int) -> Any:
    from tqdm import tqdm

    return tqdm(items, desc=desc, total=total, unit="chunk")


def summary(results: list[PairResult]) -> dict[str, Any]:
    """Counts for the docs and the tests."""
    good = [r for r in results if r.kind == "good"]
    bad = [r for r in results if r.kind == "bad"]
    return {
        "pairs": len(good),
        "bad": len(bad),
        "raw_equal": sum(r.raw == "equal" for r in good),
        "adapter_equal": sum(r.adapter == "equal" for r in good),
        "adapter_refused": sum(r.adapter == "error" for r in good),
        "changed": [r for r in good if r.raw == "equal" and r.adapter == "different"],
        "differs_from_raw": [r for r in results if r.differs_from_raw],
        "uncategorised": [r for r in good if r.adapter == "error" and r.category is None],
        "by_category": Counter(r.category for r in good if r.adapter == "error"),
        "bad_accepted_raw": sum(r.raw != "error" for r in bad),
        "bad_accepted_adapter": sum(r.adapter != "error" for r in bad),
    }


if __name__ == "__main__":
    import sys
    import time

    t = time.perf_counter()
    res = run_all(progress=sys.stderr.isatty())
    s = summary(res)
    print({k: (len(v) if isinstance(v, list) else v) for k, v in s.items()})
    print(f"{time.perf_counter() - t:.1f} s")
    for r in s["changed"]:
        print("CHANGED", r)
    for r in s["differs_from_raw"]:
        print("DIFFERS", r)
    for r in s["uncategorised"]:
        print("UNCAT", r.latex, "|", r.message)
    for r in res:
        if r.kind == "good" and r.adapter == "different":
            print("ADAPTER-DIFFERENT", r.raw, r.latex)
