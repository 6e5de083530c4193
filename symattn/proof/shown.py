r"""What a derivation shows is what was checked: its printed sides and the math of its prose.

Three checks that ``verify`` runs beside the steps (:meth:`symattn.proof.Derivation.tasks`):

- **Rendering.** Every side a page shows (:func:`symattn.proof.latex.side_latex`, the printer
  the LaTeX and Markdown pages use) and every line of the notation is read back by
  :mod:`.reader` and must equal the object it was printed from: the relation, the transposes,
  the signs, the fractions, a decimal's digits. A printer that drops a ``^{\top}`` fails here.
- **Statements.** Every formula in ``$...$`` of the title, the theorem, the assumptions, the
  section headings, the rules and the numeric checks' names must be read, and each relation it
  states must be one the derivation establishes (a claim, a step, a point of a chain, an
  abbreviation or a definition), a value put into its step, or one the engine proves on the
  spot (:func:`established`). A theorem that says ``\operatorname{Var}(z) = \sqrt{d_k}`` while
  its proof shows ``d_k`` fails, naming the theorem.
- **Assumptions.** Every sign a published derivation declares of a symbol (positive,
  nonnegative, ...) is stated on its page, and every sign the page assumes is declared.

The derivation is read through its attributes only (no import of the engine, which imports
this module).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import sympy as sp
from sympy.stats.rv import RandomSymbol

from ..core.digits import decimal_string
from ..unicode_text import UnicodeReadError, from_unicode, to_unicode
from . import laws
from .equivalence import numeric_difference, prove_equal, surely_differ
from .latex import RELATIONS_LATEX, page_latex, shown_values, side_latex, step_text, term_pieces
from .operators import Ex, Var
from .reader import RELATIONS, ReadError, Reading, Vocabulary, readings, tokenize, vocabulary

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


# -- rendering -----------------------------------------------------------------------------------
def shown_sides(d: Any) -> Iterator[tuple[str, Any]]:
    """(what, value) for every side a page prints: the shown side where one is given."""
    for k, s in enumerate(d.steps):
        lhs, rhs = shown_values(s)
        if lhs is not None:
            yield f"step {k + 1}, left side", lhs
        yield f"step {k + 1}, right side", rhs


def check_rendering(d: Any) -> str:
    """Read back every printed side and notation line; raise :class:`NotShownAsChecked` at the
    first that differs from its object. Returns a summary."""
    vocab = words_vocabulary(d)
    # Among what the pages print (a claim is not printed: the claims check compares it).
    printed = vocabulary([value for _, value in shown_sides(d)], page_latex)
    for key, objects in printed.names.items():
        kinds = [type(x) for x in objects]
        if len(kinds) != len(set(kinds)):  # d_k and d both printed d: one name on the page
            shown_as = ", ".join(sorted(str(x) for x in objects))
            raise NotShownAsChecked(f"{shown_as} are all printed as ${key}$: one name, one meaning")
    printer = getattr(d, "printer", None) or side_latex
    count = 0
    pages: dict[str, tuple[Any, str, Any]] = {}  # what: (the side, its LaTeX, the reading that agreed)
    for what, value in shown_sides(d):
        page = printer(value)
        pages[what] = (value, page, _read_back(what, value, page, vocab))
        count += 1
        pieces = term_pieces(value) if not isinstance(value, str) else None
        if pieces is not None and len(pieces) > 1:  # the same sum split over rows, term by term
            _read_back(f"{what}, split over rows", value, " ".join(pieces), vocab)
            count += 1
    for k, s in enumerate(d.steps):
        written = RELATIONS_LATEX.get(s.relation, "")
        if RELATIONS.get(written) != s.relation:
            raise NotShownAsChecked(
                f"step {k + 1} states {s.relation}, but its relation is printed as ${written}$, "
                f"which reads as {RELATIONS.get(written, 'no relation')}"
            )
        # The terminal's lines for the step, as derive --format text prints them.
        lhs_line, rhs_line = step_text(s, printer)
        if lhs_line is not None:
            what = f"step {k + 1}, left side"
            _read_back_text(what, lhs_line, vocab, *pages[what])
        text, _, rhs_text = rhs_line.partition(" ")
        try:
            read = RELATIONS.get(from_unicode(text))
        except UnicodeReadError:
            read = None
        if read != s.relation:
            raise NotShownAsChecked(
                f"step {k + 1} states {s.relation}, but the terminal prints its relation as '{text}', "
                f"which reads as {read or 'no relation'}"
            )
        what = f"step {k + 1}, right side"
        _read_back_text(what, rhs_text, vocab, *pages[what])
        count += 1 + (lhs_line is not None)
    for short, meaning in _notation(d):
        for where, value in (("the notation", short), (f"the notation for {page_latex(short)}", meaning)):
            page = page_latex(value)
            agreed = _read_back(where, value, page, vocab)
            _read_back_text(where, to_unicode(page), vocab, value, page, agreed)
        count += 4
    return f"{count} read back"


def _read_back_text(what: str, text: str, vocab: Vocabulary, value: Any, page: str, agreed: Any) -> None:
    r"""Read back a side as the terminal prints it (Unicode, :func:`.latex.side_text`): it must
    be the page's formula ``page`` in form (:func:`same_form`: not only its value, so ``8`` for
    ``\sqrt{64}`` or a lost ``\cdot`` fails) and read as ``value``. A reading that is, node for
    node, the page's reading ``agreed`` (already found equal to ``value``) is not compared again."""
    printed = f"{what} is printed in the terminal as '{text}'"
    try:
        tex = from_unicode(text)
    except UnicodeReadError as exc:
        raise NotShownAsChecked(f"{printed}, which does not read back ({exc})") from None
    if not same_form(tex, page):
        raise NotShownAsChecked(f"{printed}, which is not the page's ${page}$")
    _read_back(what, value, tex, vocab, printed=f"in the terminal as '{text}'", agreed=agreed)


#: Spellings of one thing, taken as one when two formulas are compared in form.
_SAME_FORM = {
    r"\leq": r"\le",
    r"\geq": r"\ge",
    r"\ne": r"\neq",
    r"\lvert": "|",
    r"\rvert": "|",
    r"\lVert": "‖",
    r"\rVert": "‖",
    r"\|": "‖",
    r"\Vert": "‖",
    r"\dots": r"\ldots",
    r"\tfrac": r"\frac",
    r"\dfrac": r"\frac",
    r"\varepsilon": r"\epsilon",
    r"\to": r"\rightarrow",
    r"\ln": r"\log",
}


def same_form(a: str, b: str) -> bool:
    r"""Two LaTeX formulas are written alike: the same tokens in the same order, braces and
    sizing aside (``e^{z_i}`` and ``e^{z_{i}}``, ``\left(`` and ``(``), numbers digit by digit
    (``\frac14`` and ``\frac{1}{4}``), a fraction as its slash (``\frac{a+b}{c}`` and
    ``(a+b)/c``), parentheses around one token or around a group aside, an upright word in any
    of its commands (``\text``, ``\mathrm``, ``\operatorname``) and the spellings of
    :data:`_SAME_FORM` as one. A dropped ``\cdot``, limit or digit, or ``8`` for ``\sqrt{64}``,
    is another form."""
    return _form(a) == _form(b)


def _form(tex: str) -> list[str]:
    tokens: list[str] = []
    for t in tokenize(tex):
        if t.kind == "num":
            tokens.extend(t.text)
            continue
        text = re.sub(r"^\\(?:mathrm|textrm|operatorname|text)\{", r"\\text{", t.text)
        tokens.append(_SAME_FORM.get(text, text))
    out, _ = _form_sequence(tokens, 0)
    return _unparenthesised(out)


def _form_sequence(tokens: list[str], i: int) -> tuple[list[str], int]:
    out: list[str] = []
    while i < len(tokens):
        t = tokens[i]
        if t == "}":
            return out, i + 1
        if t == "{":
            inner, i = _form_sequence(tokens, i + 1)
            out += inner
        elif t == r"\frac":
            a, i = _form_argument(tokens, i + 1)
            b, i = _form_argument(tokens, i)
            out += ["(", *a, ")", "/", "(", *b, ")"]
        else:
            out.append(t)
            i += 1
    return out, i


def _form_argument(tokens: list[str], i: int) -> tuple[list[str], int]:
    if i < len(tokens) and tokens[i] == "{":
        return _form_sequence(tokens, i + 1)
    return tokens[i : i + 1], i + 1


def _unparenthesised(tokens: list[str]) -> list[str]:
    """Without parentheses around a single token or around a group that fills them."""
    changed = True
    while changed:
        changed = False
        stack: list[int] = []
        pairs: dict[int, int] = {}
        for k, t in enumerate(tokens):
            if t == "(":
                stack.append(k)
            elif t == ")" and stack:
                pairs[stack.pop()] = k
        for a, b in sorted(pairs.items()):
            if b - a == 2 or (pairs.get(a + 1) == b - 1):
                tokens = tokens[:a] + tokens[a + 1 : b] + tokens[b + 1 :]
                changed = True
                break
    return tokens


def _notation(d: Any) -> Iterator[tuple[Any, Any]]:
    i = sp.Symbol("i", integer=True, positive=True)
    for short, meaning in d.abbreviations.items():
        if isinstance(short, sp.IndexedBase):
            yield short[i], meaning(i)
        else:
            yield short, meaning


def _read_back(
    what: str, value: Any, tex: str, vocab: Vocabulary, printed: str | None = None, agreed: Any = None
) -> Any:
    """``tex`` must read as ``value``; returns the reading that agrees. ``printed`` says how the
    reader saw it, if not as ``$tex$``; a reading identical to ``agreed`` agrees."""
    printed = printed or f"as ${tex}$"
    try:
        found = list(readings(tex, vocab))
    except (ReadError, ValueError, TypeError, sp.ShapeError) as exc:
        raise NotShownAsChecked(f"{what} is printed {printed}, which does not read back ({exc})") from None
    obj = _as_object(value)
    for reading in found:
        try:
            got = reading.value()
        except ReadError:
            continue
        if (agreed is not None and got == agreed) or agree(got, obj):
            return got
    raise NotShownAsChecked(f"{what} is printed {printed}, which reads back as something else")


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


# -- statements -----------------------------------------------------------------------------------
def _read_back_words(where: str, f: str, found: list[Reading], vocab: Vocabulary) -> None:
    """The formula ``f`` of the prose as the terminal prints it (Unicode) must read as ``f``
    does: one of its readings the same items (chains, lists) as one of ``f``'s."""
    text = to_unicode(f)
    printed = f"{where} writes ${f}$, which the terminal prints as '{text}'"
    try:
        tex = from_unicode(text)
        again = [(r.items, r.elided) for r in readings(tex, vocab)]
    except (UnicodeReadError, ReadError, ValueError, TypeError, sp.ShapeError) as exc:
        raise NotShownAsChecked(f"{printed}, which does not read back ({exc})") from None
    if not same_form(tex, f):
        raise NotShownAsChecked(f"{printed}, which is not the formula written")
    if not any((r.items, r.elided) in again for r in found):
        raise NotShownAsChecked(f"{printed}, which reads as something else")


def check_statements(d: Any, reduce: Any) -> str:
    """Read every formula of the derivation's prose; each relation it states must be
    established (:func:`established`). ``reduce(expr, step)`` takes E and Var out of an
    expression by the rules of the step whose rule writes it (or the derivation's), or raises.
    A formula the derivation lists in ``unchecked`` (with why) is read but not held to its
    relations where they are not established; an entry no text needs fails (it is stale).
    Raises :class:`NotShownAsChecked` naming the text."""
    vocab = words_vocabulary(d)
    hypotheses = _hypotheses(d, vocab)
    unchecked = dict(getattr(d, "unchecked", {}) or {})
    used: set[str] = set()
    count = 0
    for where, text, step in texts(d):
        for f in formulas(text):
            try:
                found = list(readings(f, vocab))
            except (ReadError, ValueError, TypeError, sp.ShapeError) as exc:
                raise NotShownAsChecked(f"{where} writes ${f}$, which symattn cannot read ({exc})") from None
            _read_back_words(where, f, found, vocab)
            why = ""
            for k in range(len(found[0].relations())):
                why = _first_reason(d, found, k, step, reduce, hypotheses, where.startswith("assumption"))
                if why:
                    break
                count += 1
            if not why and where == "the theorem":
                # A value the theorem states in words ("costs $4 N d^2 + 2 N^2 d$", "the
                # weights $[1, 0]$") is a side of the proof, or a row of one.
                why = _stated_values(d, found)
                count += not why and any(_valued(r) for r in found[0].items)
            if why and f.strip() in unchecked:
                used.add(f.strip())
                continue
            if why:
                raise NotShownAsChecked(f"{where} states ${f}$: {why}")
    if left := [f for f in unchecked if f not in used]:
        raise NotShownAsChecked(
            f"${left[0]}$ is listed as unchecked ({unchecked[left[0]]}), but no text writes it where "
            "verify does not establish it: take it off the list"
        )
    skipped = f", {len(used)} stated in words (not checked)" if used else ""
    return f"{count} stated relations and values established{skipped}"


def _valued(item: tuple[Any, ...]) -> bool:
    """A bare expression (no relation) that is a value, not a name or a list of names."""
    if len(item) != 1:
        return False
    e = item[0]
    names = (sp.Symbol, sp.Indexed, sp.IndexedBase, sp.MatrixSymbol)
    return not isinstance(e, names) and not (isinstance(e, sp.Tuple) and all(isinstance(x, names) for x in e))


def _stated_values(d: Any, found: list[Reading]) -> str:
    """Why a value the theorem states is no side of the proof ("" when each is one, under some
    reading). A formula with a name the proof does not know, or a truncated one, is words."""
    reasons = []
    for reading in found:
        if reading.listing or reading.unknown:
            return ""
        values = [item[0] for item in reading.items if _valued(item)]
        missing = [v for v in values if not _in_proof(d, v)]
        if not missing:
            return ""
        reasons.append(f"{sp.sstr(missing[0])} is no side of the proof, nor a row of one")
    return reasons[0] if reasons else ""


def _in_proof(d: Any, value: Any) -> bool:
    sides = [x for k, s in enumerate(d.steps) for x in (d.lhs_of(k), s.rhs, s.shown_lhs, s.shown_rhs)]
    sides += [c for claim in d.claims for c in claim[:2]]
    for side in sides:
        if side is None or isinstance(side, str):
            continue
        if _alike(value, side) and _matches(value, side):
            return True
        if _a_row_of(value, side):
            return True
    return False


def _a_row_of(value: Any, side: Any) -> bool:
    """``value``, a row vector, is a row of the matrix ``side`` (the weights $[1, 0]$ of A)."""
    if not (isinstance(value, sp.MatrixBase) and isinstance(side, sp.MatrixBase) and value.rows == 1):
        return False
    return side.cols == value.cols and any(_matches(value, side.row(r)) for r in range(side.rows))


def _first_reason(
    d: Any, found: list[Reading], k: int, step: int | None, reduce: Any, hypotheses: dict, assumed: bool
) -> str:
    """Why relation ``k`` of a formula is not established under any of its readings ("" if it is)."""
    reasons = []
    for reading in found:
        relations = reading.relations()
        if k >= len(relations):
            continue
        lhs, rel, rhs = relations[k]
        try:
            # An assumption is not proved from itself (d_k = 4 from d_k = 4).
            given = {k: v for k, v in hypotheses.items() if k != lhs} if assumed else hypotheses
            why = established(d, lhs, rel, rhs, reading, step, lambda e: reduce(e, step), given)
            if why and assumed and not _defined(d, lhs, rhs):
                # An assumption the proof does not establish is a hypothesis: it must not
                # contradict what its symbols are declared to be, nor what the proof defines,
                # and a value it gives a symbol must be one the proof uses.
                hypothesis = _hypothesis(lhs, rel, rhs)
                why = why if hypothesis is None else hypothesis or _unused_hypothesis(d, lhs, rel, rhs)
        except Exception as exc:
            why = f"it cannot be checked ({type(exc).__name__}: {exc})"
        if not why:
            return ""
        reasons.append(why)
    return reasons[0] if reasons else ""


def _hypothesis(lhs: Any, rel: str, rhs: Any) -> str | None:
    """An assumption about a symbol (``s_q > 0``, ``d_k = 2``, ``1 \\le i``): a hypothesis, which
    must not contradict what the symbol is declared to be. None when neither side is a symbol."""
    if not any(isinstance(x, sp.Symbol) for x in (lhs, rhs)):
        return None
    holds = {"<": sp.Lt, "<=": sp.Le, ">": sp.Gt, ">=": sp.Ge, "=": sp.Eq, "≠": sp.Ne}.get(rel)
    if holds is None:
        return None
    try:
        truth = holds(lhs, rhs)
    except TypeError:
        return None
    if truth is sp.false:
        return f"it contradicts what the symbols are declared to be ({_declared(lhs, rhs)})"
    if _sign_statement(lhs, rel, rhs) and truth is not sp.true:
        # A sign the page assumes is one the proof's symbol has: else the proof does not use it.
        return f"the proof's symbol is not declared so ({_declared(lhs, rhs)})"
    return ""


def _sign_statement(lhs: Any, rel: str, rhs: Any) -> bool:
    """``x > 0``, ``x \\ge 1``, ``0 < x``: a symbol's sign, against 0 or 1."""
    return rel in ("<", "<=", ">", ">=") and (
        (isinstance(lhs, sp.Symbol) and rhs in (0, 1)) or (isinstance(rhs, sp.Symbol) and lhs in (0, 1))
    )


def _defined(d: Any, lhs: Any, rhs: Any) -> bool:
    """The derivation defines a symbol of this relation itself (a definition, an abbreviation, a
    value put into a step): an assumption about it must then be what the proof has."""
    named = {x for x in (lhs, rhs) if isinstance(x, sp.Symbol)}
    defined = {a for a, _, r in _pairs(d, claims=False) if r == "=" and isinstance(a, sp.Symbol)}
    for s in d.steps:  # a value put in: defined, unless it is the very value assumed
        defined |= {k for k, v in (s.given or {}).items() if not (k == lhs and sp.sympify(v) == rhs)}
    return bool(named & defined)


def _declared(*sides: Any) -> str:
    facts = []
    for s in sides:
        if isinstance(s, sp.Symbol):
            known = sorted(k for k, v in s.assumptions0.items() if v and k in _SIGNS)
            facts.append(f"{s}: {', '.join(known) or 'nothing'}")
    return "; ".join(facts)


_SIGNS = ("positive", "negative", "nonnegative", "nonpositive", "zero", "nonzero", "integer")


#: Sign assumptions a page must show, and the words or relations that show each.
_SHOWN_SIGNS = {
    "positive": ("positive",),
    "negative": ("negative",),
    "nonnegative": ("nonnegative", "positive"),
    "nonpositive": ("nonpositive", "negative"),
    "integer": ("integer",),
}
#: Words after a list of names in an assumption that state their sign or that they are whole
#: numbers (``$N, h$ positive integers``, ``$n \ge 1$ an integer``, ``$d$ a positive integer``).
_KIND = r"((?:positive|negative|nonnegative|nonpositive)(?:\s+integers?)?|integers?)"
#: The words end there: a qualifier after them ("an integer or half-integer", "an integer
#: multiple of 1/2") would make them say less than they seem to (review finding).
_ENDS = r"(?=\s*(?:$|[;,.)]|\s(?:and|with|for|in|of\s+(?:them|size))\b))"
_BETWEEN = r"(?:\s*,\s*|\s*\(\s*|\s+is\s+|\s+are\s+|\s+)(?:an?\s+)?"
_SIGN_WORDS = re.compile(rf"\$([^$]+)\${_BETWEEN}{_KIND}\b{_ENDS}")
#: The same words before the names: "for integers $1 \le i, j \le n$".
_SIGN_WORDS_BEFORE = re.compile(rf"\b{_KIND}\s+\$([^$]+)\$")


def check_assumptions(d: Any) -> str:
    """Every sign and whole number SymPy is told of a symbol the proof uses (positive,
    nonnegative, integer, ...) is shown on the page: a relation of the prose (``s_q, s_k > 0``,
    ``1 \\le i, j \\le n``), an assumed value (``d_k = 2``) or an assumption's words around the
    names (``$N, h$ positive integers``, ``integers $1 \\le i \\le n$``), which must say only what
    is declared. An index that is only ever summed over (its range is its sum's) and a name a
    definition step introduces (its sign is proved of its value) are exempt. Each range the
    proof declares for an index (``Derivation.ranges``, within which its deltas are summed out)
    must be stated (``1 \\le i, j \\le n``). Raises :class:`NotShownAsChecked` naming the first
    hidden one. Only for a derivation symattn publishes (``requires_claims``: the module's, a
    plugin's, a worked solution)."""
    if not getattr(d, "requires_claims", False):
        return "not published: its page is not checked for hidden signs"
    vocab = words_vocabulary(d)
    shown: dict[Any, set[str]] = {}
    for _, lhs, rel, rhs in _stated([affirmed(text) for _, text, _ in texts(d)], vocab, every=True):
        if rel in (">", ">="):
            lhs, rhs, rel = rhs, lhs, {">": "<", ">=": "<="}[rel]
        for x, facts in _signs_stated(lhs, rel, rhs):
            shown.setdefault(x, set()).update(facts)
    stated_ranges: dict[Any, tuple[Any, Any]] = {}
    assumed = [affirmed(text) for text in d.assumptions]  # what an assumption denies is not assumed
    for reading in _first_readings(assumed, vocab):
        for x, facts in _range_signs(reading.items):  # 1 <= i, j <= n: the bound is each one's
            shown.setdefault(x, set()).update(facts)
        for x, (low, high) in _ranges_stated(reading.items).items():
            stated_ranges[x] = (low, high)
            if isinstance(low, sp.Integer) and low >= 0:  # i = 1, ..., n: i >= 1
                shown.setdefault(x, set()).update({"nonnegative"} | ({"positive"} if low >= 1 else set()))
        for lhs, rel, rhs in reading.relations():
            if rel == "=" and isinstance(lhs, sp.Symbol) and isinstance(rhs, sp.Integer):
                shown.setdefault(lhs, set()).add("integer")  # assumed d_k = 2 (a rule's n = 2: an instance)
    for text in assumed:
        found = _SIGN_WORDS.findall(text) + [(n, w) for w, n in _SIGN_WORDS_BEFORE.findall(text)]
        for names, said in found:
            words = {w.rstrip("s") for w in said.split()}
            try:
                items = next(readings(names, vocab)).items
            except Exception:
                continue
            # Every name the words are said of: a name listed, or one a relation bounds
            # (n >= 1 an integer; integers 1 <= i, j <= n). What they say must be declared.
            # a range's words are said of the names it ranges (i, j of n \ge i, j \ge 1)
            subjects = list(_ranges_stated(items)) or [e for item in items for e in _subjects(item)]
            named = (e for e in subjects if isinstance(e, sp.Symbol | sp.Indexed))
            for x in (e for e in named if not (isinstance(e, sp.Symbol) and e.name == "…")):
                if wrong := [w for w in words if getattr(x, f"is_{w}") is not True]:
                    why = f"{text!r} says {x} is {wrong[0]}, which the proof's {x} is not declared"
                    raise NotShownAsChecked(why)
                if isinstance(x, sp.Symbol):
                    shown.setdefault(x, set()).update(words)
    used = sorted(_used_symbols(d), key=str)
    for x in used:
        for fact, words in _SHOWN_SIGNS.items():
            if x.assumptions0.get(fact) and not (shown.get(x, set()) & set(words)):
                how = f"${page_latex(x)}$ an integer" if fact == "integer" else f"${page_latex(x)} > 0$"
                raise NotShownAsChecked(
                    f"{x} is declared {fact}, which no assumption or rule of the page states: show it "
                    f"(a relation such as {how}, or the word after its name)"
                )
    for x, (low, high) in (getattr(d, "ranges", None) or {}).items():
        if not _same_range(stated_ranges.get(x), (low, high)):
            raise NotShownAsChecked(
                f"the proof takes {x} from {sp.sstr(low)} to {sp.sstr(high)} (its deltas are summed "
                f"out in that range), which no assumption states: show it "
                f"(${page_latex(low)} \\le {page_latex(x)} \\le {page_latex(high)}$)"
            )
    count = len([x for x in used if any(x.assumptions0.get(f) for f in _SHOWN_SIGNS)])
    return f"{count} sign{'s' if count != 1 else ''} shown"


def _subjects(item: tuple) -> list[Any]:
    """What words after a formula are said of: a name listed; the name a relation bounds (n of
    n >= 1, i and j of 1 <= i, j <= n), not the bound; the middle of 1 <= i <= n."""
    if len(item) == 1:
        return [item[0]]
    if len(item) > 3:
        return list(item[2:-1:2])
    left, _, right = item
    return [right] if sp.sympify(left).is_Number else [left]


def _range_signs(items: tuple[tuple[Any, ...], ...]) -> list[tuple[Any, set[str]]]:
    """``1 \\le i, j \\le n``: the lower bound holds of every name in the range, not only the first."""
    first, *middle, last = items if len(items) >= 2 else ((), ())
    if len(first) != 3 or len(last) != 3 or first[1] not in ("<", "<=") or any(len(m) != 1 for m in middle):
        return []
    names = [first[2], *(m[0] for m in middle), last[0]]
    return [found for x in names for found in _signs_stated(first[0], first[1], x)]


def _ranges_stated(items: tuple[tuple[Any, ...], ...]) -> dict[Any, tuple[Any, Any]]:
    """The ranges an assumption states, as inclusive bounds: ``1 \\le i \\le n`` (or ``n \\ge i
    \\ge 1``, or ``1 \\le i < n + 1`` for a whole number), ``1 \\le i, j \\le n`` (the bounds hold of
    every name listed), ``i = 1, \\dots, n`` and ``i, j = 1, \\dots, n``."""
    if len(items) == 1 and len(items[0]) == 5:
        low, r1, x, r2, high = items[0]
        if r1 in (">", ">=") and r2 in (">", ">="):
            low, r1, r2, high = high, {">": "<", ">=": "<="}[r2], {">": "<", ">=": "<="}[r1], low
        bounds = _inclusive(x, low, r1, r2, high)
        return {x: bounds} if bounds else {}
    listed = _listed_range(items)
    if listed:
        return listed
    first, *middle, last = items if len(items) >= 2 else ((), ())
    if len(first) != 3 or len(last) != 3 or any(len(m) != 1 for m in middle):
        return {}
    names = [first[2], *(m[0] for m in middle), last[0]]
    low, r1, r2, high = first[0], first[1], last[1], last[2]
    if r1 in (">", ">=") and r2 in (">", ">="):  # n \ge i, j \ge 1
        flip = {">": "<", ">=": "<="}
        low, r1, r2, high = high, flip[r2], flip[r1], low
    found = {x: _inclusive(x, low, r1, r2, high) for x in names}
    return {x: bounds for x, bounds in found.items() if bounds}


def _inclusive(x: Any, low: Any, r1: str, r2: str, high: Any) -> tuple[Any, Any] | None:
    """low r1 x r2 high as inclusive bounds (a strict bound moved by one, for a whole number)."""
    if r1 not in ("<", "<=") or r2 not in ("<", "<="):
        return None
    if "<" in (r1, r2) and not getattr(x, "is_integer", False):
        return None
    return (low + 1 if r1 == "<" else low, high - 1 if r2 == "<" else high)


def _listed_range(items: tuple[tuple[Any, ...], ...]) -> dict[Any, tuple[Any, Any]]:
    """``i = 1, \\dots, n`` or ``i, j = 1, \\dots, n``: each name from the first value to the last."""
    at = next((k for k, item in enumerate(items) if len(item) == 3 and item[1] == "="), None)
    if at is None or len(items) != at + 3 or any(len(item) != 1 for item in (*items[:at], *items[at + 1 :])):
        return {}
    if not (isinstance(items[at + 1][0], sp.Symbol) and items[at + 1][0].name == "…"):
        return {}
    names = [item[0] for item in items[:at]] + [items[at][0]]
    return {x: (items[at][2], items[at + 2][0]) for x in names}


def _same_range(stated: tuple[Any, Any] | None, declared: tuple[Any, Any]) -> bool:
    if stated is None:
        return False
    pairs = zip(stated, declared, strict=True)
    return all(prove_equal(sp.sympify(a), sp.sympify(b)) is not None for a, b in pairs)


def _signs_stated(lhs: Any, rel: str, rhs: Any) -> list[tuple[Any, set[str]]]:
    """The signs ``lhs rel rhs`` states of a symbol (``0 < x``: positive; ``1 <= n``: positive)."""
    if isinstance(rhs, sp.Symbol) and lhs in (0, 1):  # 0 < x, 0 <= x, 1 <= n
        strict = rel == "<" or lhs == 1
        return [(rhs, {"positive", "nonnegative"} if strict else {"nonnegative"})]
    if isinstance(lhs, sp.Symbol) and rhs == 0:  # x < 0, x <= 0
        return [(lhs, {"negative", "nonpositive"} if rel == "<" else {"nonpositive"})]
    return []


def _used_symbols(d: Any) -> set[sp.Symbol]:
    """The symbols of the proof's sides and claims, but summation indices and defined names."""
    found: set[sp.Symbol] = set()
    free: set[sp.Symbol] = set()
    bound: set[Any] = set()
    defined: set[Any] = set()
    objects: list[Any] = [c for claim in d.claims for c in claim[:2]]
    for k, s in enumerate(d.steps):
        objects += [d.lhs_of(k), s.rhs, s.shown_lhs, s.shown_rhs, *(s.given or {})]
        defined |= set(s.definition or {})
    for e in objects:
        if not isinstance(e, sp.Basic | sp.MatrixBase):
            continue
        e = sp.ImmutableMatrix(e) if isinstance(e, sp.MatrixBase) else e
        found |= {a for a in e.atoms(sp.Symbol) if not isinstance(a, sp.Dummy)}
        free |= {a for a in e.free_symbols if isinstance(a, sp.Symbol)}
        for node in e.atoms(sp.Sum, sp.Product, sp.Limit):
            bound |= {node.args[1]} if isinstance(node, sp.Limit) else {lim[0] for lim in node.limits}
    # An index summed over in one side but free in another (the i of p_i and of sum_i x_i^2) is
    # used (review finding: it was exempt everywhere).
    return {x for x in found - (bound - free) - defined if not _limit_direction_symbol(x)}


def _limit_direction_symbol(x: sp.Symbol) -> bool:
    return x.name in ("+", "-", "+-")


def _hypotheses(d: Any, vocab: Vocabulary) -> dict[Any, Any]:
    """The values the assumptions give symbols (``d_k = 2``, ``d_k = d_{model} / h``)."""
    values: dict[Any, Any] = {}
    for reading, lhs, rel, rhs in _stated(d.assumptions, vocab):
        if rel == "=" and isinstance(lhs, sp.Symbol) and not reading.listing and lhs not in values:
            values[lhs] = rhs
    return values


def _unused_hypothesis(d: Any, lhs: Any, rel: str, rhs: Any) -> str:
    """Why an assumption x = c is one the proof does not use ("" if it does): the proof works
    at that value where a step puts it in (``given``), or where x is free in none of its
    checked sides (the hand-worked example, whose d_k is 2 throughout). Assuming d_k = 4 beside
    a proof for every d_k would let the theorem claim Var(z) = 4."""
    if rel != "=" or not isinstance(lhs, sp.Symbol) or not sp.sympify(rhs).is_number:
        return ""
    if any(sp.sympify((s.given or {}).get(lhs, sp.nan)) == rhs for s in d.steps):
        return ""
    sides = [x for k, s in enumerate(d.steps) for x in (d.lhs_of(k), s.rhs)]
    if any(isinstance(x, sp.Basic) and lhs in x.free_symbols for x in sides):
        return f"the proof holds for every {lhs} and puts in no {lhs} = {rhs}: an assumption it does not use"
    return ""


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
