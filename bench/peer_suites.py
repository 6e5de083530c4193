"""latex2sympy's own test cases, read by raw latex2sympy2 and by symattn's answer reader.

The pairs (LaTeX, expected SymPy value) are vendored from OrangeX4/latex2sympy's tests/ in
tests/data/peers/latex2sympy_pairs.jsonl (MIT licence beside it; scripts/vendor_peer_cases.py
made the file). Each pair is read twice in this process:

- raw: ``latex2sympy2.latex2sympy(latex, variable_values)`` with its global assignments cleared
  first, as in a fresh process;
- adapter: :func:`symattn.grading.answers.notation.precheck`,
  :func:`symattn.grading.answers.notation.split_chain` and
  :func:`symattn.grading.answers.parsing.read_latex` for each side, the path a learner's answer takes (without
  the worker, which only adds limits); a relation is rebuilt from its sides.

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
    """A construct symattn refuses on purpose: how to see it in the LaTeX and in the refusal."""

    name: str
    why: str
    construct: re.Pattern[str]
    message: re.Pattern[str]

    def matches(self, latex: str, message: str) -> bool:
        return bool(self.construct.search(latex) and self.message.search(message))


def _refusal(name: str, why: str, construct: str, message: str) -> Refusal:
    return Refusal(name, why, re.compile(construct), re.compile(message, re.I))


#: The constructs refused on purpose. A refusal is in a category when the pair has the
#: construct and the learner's message names it. The docs list them (bench/peers_answers.py).
REFUSALS: tuple[Refusal, ...] = (
    _refusal(
        "named operators",
        r"`\operatorname{...}`: a name a learner may misspell or invent; write the value "
        r"(`\gcd`, `\max`, `\lfloor` ... are read)",
        r"\\operatorname",
        r"operatorname",
    ),
    _refusal(
        "calculus",
        r"integrals, limits and derivatives (`\int`, `\lim`, `\partial`): an answer here is a "
        "value, not a computation to carry out",
        r"\\(?:i?int|oint|lim|partial|prime)(?![a-z])",
        r"integrals|limits|derivatives",
    ),
    _refusal(
        "binomials and factorials",
        r"`\binom`, `\choose`, `!`, Pochhammer `(a)_{b}`: cheap to write, unbounded to compute",
        r"\\[dt]?binom|\\choose|!|\)_",
        r"binomial|factorial|Pochhammer",
    ),
    _refusal(
        "sums and products",
        r"`\sum`, `\prod` without whole-number bounds, or with more than 100 terms "
        r"(`\sum_{i=1}^{3} i` is read)",
        r"\\(?:sum|prod)(?![a-z])",
        r"sums|products|factorial",
    ),
    _refusal(
        "comma numbers",
        "`12,123.4`: a comma between digits is a decimal comma or a thousands separator; "
        "both readings are named and the answer is refused",
        r"\d,\s*\d",
        r"ambiguous",
    ),
    _refusal(
        "exponents of several digits without braces",
        "`10^300`: TeX raises one digit (10^3 then 00), plain text the whole number; both "
        "readings are named and the answer is refused",
        r"\^\s*\d\d",
        r"ambiguous: \^\d+ could be the power",
    ),
    _refusal(
        "currency",
        r"`\$`: a dollar sign is read only as a math delimiter around the whole answer",
        r"\\\$",
        r"accepted only around the whole answer",
    ),
    _refusal(
        "several answers",
        r"values separated by `;`: an answer here is one value",
        r";",
        r"give one answer",
    ),
    _refusal(
        "placeholders",
        r"`\variable{name}`: latex2sympy's hook for values a program passes in, which a "
        "learner's answer has not; refused wherever it appears",
        r"\\variable",
        r"placeholders are not accepted",
    ),
    _refusal(
        "TeX primitives",
        r'`\char"...`: character codes are not mathematics; only plain characters are accepted',
        r"\\char",
        r"character",
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
    differs_from_raw: bool = False  # another value than raw's, and not the expected one


def load_pairs(path: Path = PAIRS_FILE) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def trusted_value(text: str) -> Any:
    """A value from the vendored file (``srepr`` text, reviewed data, never a learner's input)."""
    return sp.sympify(text)


def raw_read(latex: str, variables: dict[str, str]) -> Any:
    """latex2sympy2 as shipped, each pair as in a fresh process (earlier assignments cleared).

    On Python 3.13+ antlr 4.7.2 needs ``typing.io`` to import: the shim adds that module and
    leaves the parser itself untouched.
    """
    from symattn.grading.answers.readers import typing_io_shim

    typing_io_shim()
    import latex2sympy2

    latex2sympy2.set_variances({})
    return latex2sympy2.latex2sympy(latex, {k: trusted_value(v) for k, v in variables.items()})


#: symattn's relation names (:class:`symattn.grading.answers.notation.Chain`) as SymPy relations.
_RELATION_CLASSES = {"=": "Eq", "!=": "Ne", "<": "Lt", ">": "Gt", "<=": "Le", ">=": "Ge"}


def adapter_read(latex: str) -> Any:
    """The path of a learner's answer through symattn's public reader: precheck, the chain of
    sides, each side read; a relation is put back together to compare it with upstream's."""
    from symattn.grading.answers.notation import InvalidAnswer, precheck, split_chain
    from symattn.grading.answers.parsing import read_latex

    chain = split_chain(precheck(latex))
    if any(not side for side in chain.sides):
        raise InvalidAnswer("a relation with an empty side")
    sides = [read_latex(side) for side in chain.sides]
    if len(sides) == 1:
        return sides[0]
    relations = []
    for left, rel, right in zip(sides, chain.relations, sides[1:], strict=False):
        if rel not in _RELATION_CLASSES:
            raise InvalidAnswer(f"the relation {rel} has no SymPy counterpart")
        relations.append(getattr(sp, _RELATION_CLASSES[rel])(left, right, evaluate=False))
    return relations[0] if len(relations) == 1 else sp.And(*relations, evaluate=False)


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


def classify(latex: str, message: str) -> str | None:
    """The name of the first refusal category that a refusal of ``latex`` falls in, or None."""
    for refusal in REFUSALS:
        if refusal.matches(latex, message):
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
    """Every pair's readings, in ``workers`` fresh interpreters that share the pairs.

    Each reads all of its pairs raw before any through symattn's reader, which patches the
    parser in its process: raw latex2sympy2 is never patched, and the reader finds antlr's
    prediction cache warm. Results come back in the pairs' order.
    """
    import multiprocessing

    pairs = load_pairs() if pairs is None else pairs
    workers = max(1, min(workers, len(pairs)))
    shares = [pairs[i::workers] for i in range(workers)]
    with multiprocessing.get_context("spawn").Pool(workers, maxtasksperchild=1) as pool:
        jobs = pool.imap(_run_share, shares)
        done = list(_progress(jobs, "latex2sympy pairs", workers) if progress else jobs)
    results: list[PairResult] = [None] * len(pairs)  # type: ignore[list-item]
    for i, share in enumerate(done):
        results[i::workers] = share
    return results


def _run_share(pairs: list[dict[str, Any]]) -> list[PairResult]:
    return _adapter_chunk((pairs, _raw_chunk(pairs)))


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
        category = classify(pair["latex"], message) if adapter == "error" else None
        # a value of its own that is not the expected one either: changed, not corrected
        differs = (
            adapter == "different"
            and raw != "error"
            and pair["kind"] == "good"
            and not same_value(value, raw_value)
        )
        results.append(
            PairResult(pair["latex"], pair["kind"], pair["source"], raw, adapter, message, category, differs)
        )
    return results


def _progress(items: Iterable[Any], desc: str, total: int) -> Any:
    from tqdm import tqdm

    return tqdm(items, desc=desc, total=total, unit="share")


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
        "bad_results": bad,
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
