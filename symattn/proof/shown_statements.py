"""What a derivation shows, part two: every relation the math of its prose states is one the
derivation establishes (:func:`check_statements`)."""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..unicode_text import UnicodeReadError, from_unicode, to_unicode
from .reader import ReadError, Reading, Vocabulary, readings
from .shown_assumptions import _SIGNS, _hypotheses, _unused_hypothesis
from .shown_base import (
    NotShownAsChecked,
    _alike,
    _matches,
    _pairs,
    established,
    formulas,
    texts,
    words_vocabulary,
)
from .shown_rendering import same_form


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
