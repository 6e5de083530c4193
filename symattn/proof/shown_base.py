"""What a page shows is what was checked: the helpers the three checks share (the texts of a
derivation and their formulas, the vocabulary its words are read with, what it establishes, and
how a formula read back is compared with an object). :mod:`.shown` says what the checks are."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import sympy as sp
from sympy.stats.rv import RandomSymbol

from ..core.digits import decimal_string
from . import laws
from .equivalence import numeric_difference, prove_equal, surely_differ
from .latex import page_latex
from .operators import Ex, Var
from .reader import Reading, Vocabulary, readings, vocabulary

#: Largest relative difference at random points for two sides to agree (as the engine's).
TOLERANCE = 1e-45


class NotShownAsChecked(Exception):
    """What a page shows differs from what was checked; the message says where and how."""


# -- the derivation's words --------------------------------------------------------------------
def texts(d: Any) -> Iterator[tuple[str, str, int | None]]:
    """(where, text, step index or None) for every piece of prose a page shows."""
    yield "the title", d.title, None
    yield "the theorem", d.theorem, None
    for k, a in enumerate(d.assumptions):
        yield f"assumption {k + 1}", a, None
    seen: set[str] = set()
    for s in d.steps:
        if s.section and s.section not in seen:
            seen.add(s.section)
            yield f"the heading '{_plain(s.section)}'", s.section, None
    for k, s in enumerate(d.steps):
        yield f"the rule of step {k + 1} ({_plain(s.rule)})", s.rule, k
    for c in d.checks:
        yield f"the numeric check '{_plain(c.name)}'", c.name, None


#: Words that deny what follows them within a few words ("not symmetric", "we do not assume
#: integers $1 \le i \le n$"): what they deny is no claim and no assumption.
DENIAL = re.compile(
    r"\b(?:not|never|nor|no\s+longer|neither|isn't|aren't|cannot|fails?\s+to\s+be)\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)


def affirmed(text: str) -> str:
    r"""``text`` without the formulas it denies (``we do not assume $1 \le i \le n$``)."""
    kept, last = [], 0
    for m in re.finditer(r"\$[^$]+\$", text):
        if DENIAL.search(text[last : m.start()]):
            kept.append(text[last : m.start()])
            last = m.end()
    return "".join(kept) + text[last:]


def formulas(text: str) -> list[str]:
    """The inline math of ``text``: each ``$...$``."""
    return [m for m in re.findall(r"\$([^$]+)\$", text) if m.strip()]


def words_vocabulary(d: Any) -> Vocabulary:
    """The derivation's names, operators and ranges, as its printer shows them; built once for
    the derivation as it stands (its ``_shape``, as the engine keys its own cache of names)."""
    key = (d._shape(), id(d.operators)) if hasattr(d, "_shape") else None
    cached = getattr(d, "_vocabulary", None)
    if key is not None and cached is not None and cached[0] == key:
        return cached[1]
    vocab = _vocabulary_of(d)
    if key is not None:
        d._vocabulary = (key, vocab)
    return vocab


def _vocabulary_of(d: Any) -> Vocabulary:
    objects: list[Any] = []
    for m in [d.expectation, *(s.expectation for s in d.steps)]:
        objects += [sp.IndexedBase(b) if isinstance(b, str) else b for b in getattr(m, "random", ()) or ()]
    for short, meaning in d.abbreviations.items():
        objects.append(short)
        if not callable(meaning) or isinstance(meaning, sp.Basic):
            objects.append(meaning)
    for k, s in enumerate(d.steps):
        objects += [d.lhs_of(k), s.rhs, s.shown_lhs, s.shown_rhs]
        for name, value in {**(s.definition or {}), **(s.given or {})}.items():
            objects += [name, value]
    for claim in d.claims:
        objects += list(claim[:2])
    vocab = vocabulary(objects, page_latex)
    vocab.functions.update(getattr(d, "operators", {}) or {})
    return vocab


def _stated(
    prose: list[str], vocab: Vocabulary, every: bool = False
) -> Iterator[tuple[Reading, Any, str, Any]]:
    """(reading, left, relation, right) for each relation the formulas of ``prose`` state, in
    their first reading, or in ``every`` reading (``$p > 0$`` of a vector p and of a weight p)."""
    for reading in _first_readings(prose, vocab, every):
        for lhs, rel, rhs in reading.relations():
            yield reading, lhs, rel, rhs


def _first_readings(prose: list[str], vocab: Vocabulary, every: bool = False) -> Iterator[Reading]:
    """The first reading of each formula of ``prose`` (or ``every`` reading); a formula that
    cannot be read gives none here (the statements check names it)."""
    for text in prose:
        for f in formulas(text):
            try:
                yield from list(readings(f, vocab)) if every else [next(readings(f, vocab))]
            except Exception:
                continue


def _pairs(d: Any, claims: bool = True) -> Iterator[tuple[Any, Any, str]]:
    """(left, right, relation) for everything the derivation establishes or defines."""
    for claim in d.claims if claims else ():
        yield claim[0], claim[1], claim[2] if len(claim) > 2 else "="
    for k, s in enumerate(d.steps):
        lhs = d.lhs_of(k)
        for left in {id(x): x for x in (lhs, s.shown_lhs) if x is not None}.values():
            for right in {id(x): x for x in (s.rhs, s.shown_rhs) if x is not None}.values():
                if not isinstance(right, str):
                    yield left, right, s.relation
        for name, value in (s.definition or {}).items():
            yield name, value, "="
    for short, meaning in _notation(d):
        yield short, meaning, "="
    # A relation a step holds as a side (the crossover N > 2 d_model of a step ⟺).
    sides = [x for k, s in enumerate(d.steps) for x in (d.lhs_of(k), s.rhs, s.shown_lhs, s.shown_rhs)]
    for x in sides + [c for claim in d.claims for c in claim[:2]]:
        if isinstance(x, sp.Rel):
            yield x.lhs, x.rhs, _RELATION_NAMES.get(type(x), "")


_RELATION_NAMES = {sp.Eq: "=", sp.Lt: "<", sp.Le: "<=", sp.Gt: ">", sp.Ge: ">=", sp.Ne: "≠"}


def _chains(d: Any) -> list[list[Any]]:
    """The points of each chain of equalities (:meth:`Derivation.chains`): every side along it,
    shown or checked."""
    points = []
    for ks in d.chains():
        first = d.steps[ks[0]]
        start = [d.lhs_of(ks[0]), first.shown_lhs]
        points.append(
            [
                x
                for x in start + [y for k in ks for y in (d.steps[k].rhs, d.steps[k].shown_rhs)]
                if x is not None
            ]
        )
    return points


def established(
    d: Any,
    lhs: Any,
    rel: str,
    rhs: Any,
    reading: Reading,
    step: int | None,
    reduce: Any,
    hypotheses: dict | None = None,
) -> str:
    """Why ``lhs rel rhs`` is not established by the derivation; "" where it is: a range, a
    claim, a step, a relation a step holds as a side (the ``N > 2 d`` of a crossover), two points
    of one chain, an abbreviation or a definition, a value put into its step, a new name defined
    on the spot (``g = z_i - z_j``), a relation the engine proves here (under the assumptions'
    values), or a law ``A ~ L`` as :mod:`symattn.proof.laws` reads it."""
    if rel == "~":  # a law: whatever else the formula lists, and even of a pair
        new_name = isinstance(lhs, sp.Symbol) and lhs in reading.unknown and not _base_known(d, lhs)
        return laws.law_established(d, lhs, rhs, words_vocabulary(d), new_name=new_name)
    if reading.listing or isinstance(lhs, sp.Tuple) or isinstance(rhs, sp.Tuple):
        return ""  # a range (d = 1, ..., 8), a truncated decimal, a pair: words
    if rel in (">", ">="):
        lhs, rhs, rel = rhs, lhs, {">": "<", ">=": "<="}[rel]
    pairs = []
    for a, b, r in _pairs(d):
        if r in (">", ">="):
            a, b, r = b, a, {">": "<", ">=": "<="}[r]
        if r == rel:
            pairs += [(a, b)] + ([(b, a)] if r == "=" else [])
    # Alike first (the same tree, or the same free names), then proved equal: the costly
    # comparisons only where they can succeed.
    for a, b in pairs:
        if _pair(lhs, rhs, a, b):
            return ""
    if hypotheses:  # the same under the assumptions' values (N > 2 d_model at d_model = 8192)
        for a, b in pairs:
            a, b = _substituted(d, a, hypotheses), _substituted(d, b, hypotheses)
            if _pair(lhs, rhs, a, b):
                return ""
    if rel == "=":
        for chain in _chains(d):
            if any(_alike(lhs, x) and _matches(lhs, x) for x in chain) and any(
                _alike(rhs, x) and _matches(rhs, x) for x in chain
            ):
                return ""
        if step is not None and (why := _premise(d, lhs, rhs, step)) is not None:
            return why
        if isinstance(lhs, sp.Symbol) and lhs in reading.unknown and not _base_known(d, lhs):
            return ""  # a new name, defined where it is written (p_i = ... where no p is known)
        return _proved_equal(d, lhs, rhs, reading, reduce, hypotheses or {})
    if rel in ("<", "<="):
        gap = _substituted(d, _reduced(d, rhs - lhs, reading, reduce), hypotheses or {})
        sign = gap.is_positive if rel == "<" else gap.is_nonnegative
        if sign:
            return ""
        shown = "positive" if rel == "<" else "nonnegative"
        return f"no step states it, and SymPy cannot show {sp.sstr(rhs)} - {sp.sstr(lhs)} is {shown}"
    if rel == "≈":
        return _rounded(lhs, rhs)
    return f"no step states this {rel}"


def _base_known(d: Any, name: sp.Symbol) -> bool:
    """The letter a placeholder is written with (the p of p_j) names something of the
    derivation: p_j is then that thing's entry, not a new name."""
    base = re.split(r"[_^]", name.name, maxsplit=1)[0]
    return any(re.split(r"[_^]", key, maxsplit=1)[0] == base for key in words_vocabulary(d).names)


def _free(e: Any) -> set[Any]:
    return set(getattr(e, "free_symbols", set()))


def _premise(d: Any, lhs: Any, rhs: Any, step: int) -> str | None:
    """A value put into a step (``at $d_k = 64$``): a derivation's symbol equal to a number. It
    must be the value the step is given for that symbol, or a number the step's sides hold;
    None when the relation is not of that form."""
    if not (isinstance(lhs, sp.Symbol) and sp.sympify(rhs).is_Number):
        return None
    s = d.steps[step]
    if s.given:
        given = {str(k): sp.sympify(v) for k, v in s.given.items()}
        if given.get(str(lhs)) == rhs:
            return ""
        return f"the step puts in {_given_text(s.given)}, not {sp.sstr(lhs)} = {rhs}"
    left = [d.lhs_of(step), s.shown_lhs]  # the instance: 64 in sqrt(64), not the 8 it gives
    numbers = {a for e in left if isinstance(e, sp.Basic) for a in e.atoms(sp.Number)}
    if rhs in numbers:
        return ""
    return None


def _given_text(given: Any) -> str:
    return ", ".join(f"{k} = {v}" for k, v in given.items())


def _substituted(d: Any, e: Any, hypotheses: dict) -> Any:
    """``e`` with the derivation's definitions (d_k = d_model / h), then the assumptions' values,
    put in until nothing changes."""
    values = {k: v for s in d.steps for k, v in (s.definition or {}).items()}
    values.update({k: v for k, v in hypotheses.items() if k not in values})
    for _ in range(len(values) + 1):
        before, e = e, sp.sympify(e).xreplace(values)
        if e == before:
            break
    return e


def _proved_equal(d: Any, lhs: Any, rhs: Any, reading: Reading, reduce: Any, hypotheses: dict) -> str:
    try:
        a, b = (_substituted(d, _reduced(d, x, reading, reduce), hypotheses) for x in (lhs, rhs))
    except Exception as exc:
        return f"it is no claim or step of the proof, and the engine cannot check it ({exc})"
    if agree(a, b):
        return ""
    try:
        err, *_ = numeric_difference(a, b, random.Random(0))
    except Exception:
        err = 0.0
    if err > TOLERANCE:
        return f"it is no claim or step of the proof, and it is false ({sp.sstr(a)} is not {sp.sstr(b)})"
    return f"it is no claim or step of the proof, and SymPy does not prove {sp.sstr(a)} = {sp.sstr(b)}"


def _reduced(d: Any, e: Any, reading: Reading, reduce: Any) -> Any:
    """``e`` with its E and Var taken by the derivation's rules; a placeholder inside them (the
    X of Var(aX)) stands for a product of entries of the random families (X and Y different
    ones), so that a general rule is checked on an instance of it."""
    e = sp.sympify(e)
    expand = getattr(d, "expand_abbreviations", None)
    if expand is not None and getattr(d, "abbreviations", None):
        e = expand(e)  # Var(z) with z the score's short name is Var of the score
    if e.has(sp.Derivative):
        e = e.doit()
    if not e.has(Ex, Var):
        return e
    inside = {s for op in e.atoms(Ex, Var) for s in op.args[0].free_symbols}
    placeholders = sorted((s for s in reading.unknown if s in inside and s.name[:1].isupper()), key=str)
    if placeholders:
        families = _families(d)
        if not families:
            raise ValueError("the derivation has no random families")
        e = e.xreplace({p: sp.Mul(*(f[k + 1] for f in families)) for k, p in enumerate(placeholders)})
    return reduce(e)


def _families(d: Any) -> list[sp.IndexedBase]:
    random_ = getattr(d.expectation, "random", ()) or ()
    return [sp.IndexedBase(b) if isinstance(b, str) else b for b in random_][:2]


def _rounded(lhs: Any, rhs: Any) -> str:
    stated = _as_object(rhs)
    if not (isinstance(stated, sp.Rational)):
        return "an approximation whose right side is not a decimal"
    text = page_latex(stated)
    digits = len(text.replace("-", "").replace(".", "").lstrip("0")) or 1
    try:
        value = decimal_string(sp.sympify(lhs), digits)
        same = Decimal(value) == Decimal(text)
    except Exception as exc:
        return f"{sp.sstr(lhs)} cannot be rounded to compare with {text} ({type(exc).__name__})"
    return "" if same else f"correctly rounded it is {value}"


def _pair(lhs: Any, rhs: Any, a: Any, b: Any) -> bool:
    """``lhs`` is ``a`` and ``rhs`` is ``b`` (cheap signs first, then proved)."""
    return _alike(lhs, a) and _alike(rhs, b) and _matches(lhs, a) and _matches(rhs, b)


def _matches(a: Any, b: Any) -> bool:
    """``a`` is ``b`` (remembered: a derivation's texts compare the same sides many times)."""
    if isinstance(b, str):
        b = _as_object(b)
    key = (_hashable(a), _hashable(b))
    if key not in _MATCHED:
        try:
            _MATCHED[key] = agree(a, b)
        except Exception:
            _MATCHED[key] = False
    return _MATCHED[key]


_MATCHED: dict[tuple[Any, Any], bool] = {}


def _hashable(e: Any) -> Any:
    if isinstance(e, sp.MatrixBase):
        return sp.ImmutableMatrix(e)
    return e


def _alike(a: Any, b: Any) -> bool:
    """A cheap necessary sign that ``a`` may be ``b``: the same free names, both matrices or neither."""
    if isinstance(b, str):
        b = _as_object(b)
    if isinstance(a, sp.ZeroMatrix) or isinstance(b, sp.ZeroMatrix):
        return a == 0 or b == 0 or _is_matrix(a) == _is_matrix(b)
    if _is_matrix(a) != _is_matrix(b):
        return False
    return _names(a) == _names(b) or _names(a) is None or _names(b) is None


def _names(e: Any) -> frozenset[str] | None:
    """The free names of ``e`` as printed (remembered, as :func:`_matches` is); None if unknown."""
    key = _hashable(e)
    if key not in _NAMES:
        try:
            _NAMES[key] = frozenset(str(x) for x in _free(_plain_form(e)))
        except Exception:
            _NAMES[key] = None
    return _NAMES[key]


_NAMES: dict[Any, frozenset[str] | None] = {}


def _random_symbols(e: Any) -> set:
    return sp.sympify(e).atoms(RandomSymbol)


def _is_matrix(e: Any) -> bool:
    return isinstance(e, sp.MatrixBase | sp.MatrixExpr)


def _plain(text: str) -> str:
    return text.replace("$", "")


def _notation(d: Any) -> Iterator[tuple[Any, Any]]:
    i = sp.Symbol("i", integer=True, positive=True)
    for short, meaning in d.abbreviations.items():
        if isinstance(short, sp.IndexedBase):
            yield short[i], meaning(i)
        else:
            yield short, meaning


def _as_object(value: Any) -> Any:
    if isinstance(value, str):
        return sp.Rational(str(Decimal(value)))
    return value


def _plain_form(e: Any) -> Any:
    """``e`` without display wrappers (written(), an unevaluated power)."""
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(_plain_form)
    if not isinstance(e, sp.Basic):
        return e
    return e.replace(lambda x: isinstance(x, sp.UnevaluatedExpr), lambda x: x.args[0])


def agree(read_: Any, obj: Any) -> bool:
    """The formula read is the object: the same relation, the same matrix entry by entry (an
    infinite entry compared as itself), else equal values proved by SymPy and confirmed at
    random points."""
    obj = _plain_form(obj)
    if isinstance(obj, sp.Rel) or isinstance(read_, sp.Rel):
        return type(obj) is type(read_) and agree(read_.lhs, obj.lhs) and agree(read_.rhs, obj.rhs)
    if isinstance(obj, sp.MatrixBase) or isinstance(read_, sp.MatrixBase):
        if not (isinstance(obj, sp.MatrixBase) and isinstance(read_, sp.MatrixBase)):
            return False
        if obj.shape != read_.shape:
            return False
        return all(
            (a == b) if sp.oo in (abs(a), abs(b)) else agree(a, b) for a, b in zip(read_, obj, strict=True)
        )
    if isinstance(obj, sp.ZeroMatrix):
        return read_ == 0 or (isinstance(read_, sp.ZeroMatrix) and read_.shape == obj.shape)
    if isinstance(obj, sp.MatrixExpr) or isinstance(read_, sp.MatrixExpr):
        if not (isinstance(obj, sp.MatrixExpr) and isinstance(read_, sp.MatrixExpr)):
            return False
        if obj.shape != read_.shape:
            return False
    if isinstance(read_, sp.Tuple) or isinstance(obj, sp.Tuple):
        return (
            isinstance(read_, sp.Tuple)
            and isinstance(obj, sp.Tuple)
            and len(read_) == len(obj)
            and all(agree(a, b) for a, b in zip(read_, obj, strict=True))
        )
    try:
        if read_ == obj or sp.sympify(read_) == sp.sympify(obj):
            return True
        if rebuilt(read_) == rebuilt(obj):
            return True  # the same tree once SymPy's evaluation puts each node in its order
        if _concrete_matrix(obj) and _concrete_matrix(read_):
            # A block matrix times a matrix, say: compared entry by entry.
            return agree(sp.Matrix(read_.as_explicit()), sp.Matrix(obj.as_explicit()))
        if _random_symbols(read_) != _random_symbols(obj):
            # A reading that takes a random variable for a plain symbol (or the other way
            # round) is another formula; it is refused before any expectation is integrated.
            return False
        if surely_differ(read_, obj):
            return False  # no normal form can make them equal: the ladder is not climbed
        method = prove_equal(read_, obj)
        if method is None:
            return False
        if method in ("identity", "expand") and not _atoms(read_, obj, sp.Sum, sp.Product):
            return True  # equal as polynomials: no normal form with an assumption of its own
        if isinstance(obj, sp.MatrixExpr) and not isinstance(obj, sp.MatrixBase):
            return True  # equal as matrix expressions of symbolic shape: nothing to sample
        err, *_ = numeric_difference(read_, obj, random.Random(0))
        return bool(err <= TOLERANCE)
    except Exception:
        return False


def rebuilt(e: Any) -> Any:
    """``e`` built again node by node with SymPy's evaluation (an unevaluated product or sum, as
    a derivation keeps it for printing, in SymPy's own order)."""
    if not isinstance(e, sp.Basic) or not e.args or isinstance(e, (sp.Indexed, sp.MatrixSymbol)):
        return e
    try:
        return e.func(*(rebuilt(a) for a in e.args))
    except Exception:
        return e


def _atoms(a: Any, b: Any, *kinds: type) -> bool:
    return any(isinstance(x, sp.Basic) and x.has(*kinds) for x in (a, b))


def _concrete_matrix(e: Any) -> bool:
    return (
        isinstance(e, sp.MatrixExpr)
        and not isinstance(e, sp.MatrixBase)
        and all(sp.sympify(n).is_Integer for n in e.shape)
    )
