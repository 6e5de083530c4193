r"""Planted errors: what one is, and the ways to plant one.

A :class:`Mutation` takes a fresh copy of a derivation and plants one deliberate mistake, which
``verify`` must catch where it was planted. Each derivation module carries its own planted
errors in ``MUTATIONS``: in its steps, claims, lemmas and models (planted with the functions
of the last section here: :func:`right_side`, :func:`claimed`, :func:`lemma_fields` ...), in its
prose (:func:`statement`, :func:`stands_for`) and in its printing (:func:`rendering`).
:func:`derivations.mutations.catalogue` gathers them from the registry, with those of the
registered derivations.

This module imports no derivation, so a derivation module can import it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from types import FunctionType
from typing import Any

import sympy as sp

from symattn.proof import Derivation, Lemma
from symattn.proof.latex import SymattnLatexPrinter, side_latex

#: What a planted error can make fail: a step (its number), or one of these.
PLACES = ("claim", "lemma", "statement", "rendering")


@dataclass(frozen=True)
class Mutation:
    """One planted error in ``derivation``; ``plant`` changes a fresh copy in place.

    ``plant`` returns what must fail: a step number (1-based), ``"claim"``, ``"lemma"``,
    ``"statement"`` (the prose states what the proof does not establish) or ``"rendering"``
    (a formula printed is not the object printed).
    """

    derivation: str
    description: str
    plant: Callable[[Derivation], int | str]
    #: Words the failure must say, where the place alone could be reached for another reason
    #: (a lemma replaced on its step is also a declared lemma no step uses; a statement names
    #: the text it is in).
    why: str = ""
    #: Builds the derivation to plant in, where it is not one ``derivations.load`` knows (an
    #: exercise's worked solution); None: ``derivations.load(derivation)``.
    build: Callable[[], Derivation] | None = None

    def fresh(self) -> Derivation:
        """A fresh copy of the derivation the error is planted in."""
        if self.build is not None:
            return self.build()
        from . import load

        return load(self.derivation)


def perturbed(value: Any) -> Any:
    """``value`` made wrong the least way: a number plus 1, a relation's right side plus 1, a
    matrix with its first finite entry plus 1."""
    if isinstance(value, sp.Rel):
        return value.func(value.lhs, value.rhs + 1, evaluate=False)
    if isinstance(value, sp.MatrixBase):
        m = sp.Matrix(value)
        k = next(k for k, x in enumerate(m) if x.is_finite is not False)
        m[k] = m[k] + 1
        return m
    return sp.sympify(value) + 1


def worked(name: str, build: Callable[[], Derivation]) -> list[Mutation]:
    """Errors planted in any worked derivation (an exercise's solution): its last step's right
    side off by one (caught at that step), and its first claim's right side off by one (the
    theorem claims what no chain establishes)."""

    def last_step(d: Derivation) -> int:
        k = max(k for k, s in enumerate(d.steps) if s.relation in ("=", "⟺") and s.given is None)
        d.steps[k] = dataclasses.replace(d.steps[k], rhs=perturbed(d.steps[k].rhs), shown_rhs=None)
        return k + 1

    return [
        Mutation(name, "the worked solution's last step off by one", last_step, build=build),
        Mutation(name, "the worked solution claims its answer plus one", claimed(0, perturbed), build=build),
    ]


# -- the prose ------------------------------------------------------------------------------------
def stands_for(words: str, other: str) -> Callable[[Derivation], str]:
    """The theorem's ``words`` said to stand for the claim that stands for ``other`` words (a
    claim of another form): the words check must refuse it."""

    def plant(d: Derivation) -> str:
        places = dict(d.words)
        if words not in places or other not in places:
            raise LookupError(f"{d.name}: no claim stands for {words!r} or {other!r}")
        d.words = [(w, places[other] if w == words else k) for w, k in d.words]
        return "statement"

    return plant



def statement(where: str, old: str, new: str) -> Callable[[Derivation], str]:
    """Replace ``old`` by ``new`` in one text of the derivation: ``where`` is ``title``,
    ``theorem``, ``assumptions``, ``sections``, ``rules`` or ``checks`` (``old`` must occur in
    exactly one of its texts)."""

    def plant(d: Derivation) -> str:
        if where in ("title", "theorem"):
            text = getattr(d, where)
            if text.count(old) != 1:
                raise LookupError(f"{d.name}: {old!r} occurs {text.count(old)} times in the {where}")
            setattr(d, where, text.replace(old, new))
            return "statement"
        if where == "assumptions":
            found = [k for k, a in enumerate(d.assumptions) if old in a]
            _one(d, found, old, where)
            d.assumptions = [a.replace(old, new) if k == found[0] else a for k, a in enumerate(d.assumptions)]
            return "statement"
        if where == "sections":
            titles = {s.section for s in d.steps if old in s.section}
            _one(d, sorted(titles), old, where)
            d.steps = [dataclasses.replace(s, section=s.section.replace(old, new)) for s in d.steps]
            return "statement"
        if where in ("rules", "checks"):
            items, attr = (d.steps, "rule") if where == "rules" else (d.checks, "name")
            found = [k for k, x in enumerate(items) if old in getattr(x, attr)]
            _one(d, found, old, where)
            k = found[0]
            items[k] = dataclasses.replace(items[k], **{attr: getattr(items[k], attr).replace(old, new)})
            return "statement"
        raise ValueError(f"no texts called {where!r}")

    return plant


def _one(d: Derivation, found: list[Any], old: str, where: str) -> None:
    if len(found) != 1:
        raise LookupError(f"{d.name}: {len(found)} of its {where} hold {old!r}")


# -- the printing ---------------------------------------------------------------------------------
def rendering(**methods: Callable[..., str]) -> Callable[[Derivation], str]:
    """Print the derivation's sides with a printer whose ``_print_...`` methods are replaced by
    ``methods`` (each a function of the printer and the object, a printer bug)."""
    broken = type("BrokenPrinter", (SymattnLatexPrinter,), dict(methods))

    def printer(value: Any) -> str:
        if isinstance(value, str):
            return side_latex(value)
        options = {"mat_str": "bmatrix", "mat_delim": "", "decimal_rationals": True, "plus_first": True}
        return broken(options).doprint(value)

    def plant(d: Derivation) -> str:
        d.printer = printer
        return "rendering"

    return plant


def drops_transpose(self: SymattnLatexPrinter, e: sp.Transpose) -> str:
    """A transpose printed as the matrix itself: p p^T shown as p p."""
    return self._print(e.arg)


def drops_minus(self: SymattnLatexPrinter, e: sp.Mul) -> str:
    """A negative product printed without its sign."""
    text = SymattnLatexPrinter._print_Mul(self, e)
    return text.lstrip("- ").lstrip() if text.startswith("-") else text


def flips_fraction(self: SymattnLatexPrinter, e: sp.Mul) -> str:
    """A fraction printed upside down: a / b as b / a."""
    top, bottom = sp.fraction(e)
    if bottom != 1:
        return rf"\frac{{{self._print(bottom)}}}{{{self._print(top)}}}"
    return SymattnLatexPrinter._print_Mul(self, e)


def adds_for_subtracts(self: SymattnLatexPrinter, e: sp.Add, order: str | None = None) -> str:
    """A difference printed as a sum: a - b as a + b."""
    return SymattnLatexPrinter._print_Add(self, e, order).replace(" - ", " + ", 1)


def drops_digit(self: SymattnLatexPrinter, e: sp.Rational) -> str:
    """An exact decimal printed with its last digit lost (0.99 as 0.9)."""
    text = SymattnLatexPrinter._print_Rational(self, e)
    return text[:-1] if "." in text and len(text.split(".")[1]) > 1 else text


def drops_root(self: SymattnLatexPrinter, e: sp.Pow) -> str:
    """A square root printed as its argument."""
    if e.exp == sp.S.Half:
        return self._print(e.base)
    return SymattnLatexPrinter._print_Pow(self, e)


def transposes_matrices(self: SymattnLatexPrinter, e: sp.MatrixBase) -> str:
    """A matrix of numbers printed transposed (rows as columns)."""
    return SymattnLatexPrinter._print_MatrixBase(self, e.T)


def swaps_squares(self: SymattnLatexPrinter, e: sp.Pow) -> str:
    """A square printed as a cube."""
    if e.exp == 2:
        return SymattnLatexPrinter._print_Pow(self, sp.Pow(e.base, 3, evaluate=False))
    return SymattnLatexPrinter._print_Pow(self, e)


# -- the steps, claims, lemmas and models ----------------------------------------------------
#: A change too small to see in any printed digit: 10^-20.
TINY = sp.Rational(1, 10**20)


def step_with(D: Derivation, text: str) -> int:
    """The index of the only step whose rule contains ``text``."""
    found = [k for k, s in enumerate(D.steps) if text == s.rule] or [
        k for k, s in enumerate(D.steps) if text in s.rule
    ]
    if len(found) != 1:
        raise LookupError(f"{D.name}: {len(found)} steps have {text!r} in their rule")
    return found[0]


Change = Callable[[Derivation, sp.Basic], sp.Basic]


def changed(text: str, side: str, new: Change) -> Callable[[Derivation], int]:
    """Replace the field ``side`` (``rhs``, ``shown_rhs``) of the step whose rule contains ``text``."""
    return step_fields(text, **{side: new})


def shown_as(text: str, new: Callable[[Derivation, sp.Basic], sp.Basic]) -> Callable[[Derivation], int]:
    """Change the right-hand side shown (not the one checked) of the step whose rule contains ``text``."""
    return changed(text, "shown_rhs", new)


def right_side(text: str, new: Callable[[Derivation, sp.Basic], sp.Basic]) -> Callable[[Derivation], int]:
    """Replace the right-hand side of the step whose rule contains ``text``."""
    return changed(text, "rhs", new)


def figure(text: str, stated: str) -> Callable[[Derivation], int]:
    return right_side(text, lambda D, old: stated)


def false_lemma(text: str) -> Callable[[Derivation], str]:
    """Give the step's lemma a body that is false at its first size."""
    return lemma_fields(text, verify=lambda n: False)


def stops_early(text: str, sizes: tuple[int, ...], largest: str) -> Callable[[Derivation], int]:
    """Check the step at other sizes, its lemma giving a reason for stopping below 5."""

    def plant(D: Derivation) -> int:
        k = step_with(D, text)
        lemma = D.steps[k].lemma
        assert lemma is not None
        swap_lemma(D, k, dataclasses.replace(lemma, largest=largest))
        D.steps[k] = dataclasses.replace(D.steps[k], sizes=sizes)
        return k + 1

    return plant


def claimed(index: int, new: Callable[[sp.Basic], sp.Basic]) -> Callable[[Derivation], str]:
    """The theorem's claim ``index`` with its right side changed by ``new``."""

    def plant(D: Derivation) -> str:
        lhs, rhs, *relation = D.claims[index]
        D.claims[index] = (lhs, new(rhs), *relation)
        return "claim"

    return plant


def defined(text: str, new: Callable[[dict], dict]) -> Callable[[Derivation], int]:
    """Replace the definition of the step whose rule contains ``text`` by ``new`` of it."""
    return step_fields(text, definition=lambda D, old: new(dict(old or {})))


def certified_by(text: str, new: sp.Basic) -> Callable[[Derivation], int]:
    """Give the step whose rule contains ``text`` the certificate ``new``."""
    return step_fields(text, certificate=new)


def step_fields(text: str, **fields: object) -> Callable[[Derivation], int]:
    """Replace fields of the step whose rule contains ``text`` (a value may be a Python function
    of the derivation and the old value)."""

    def plant(D: Derivation) -> int:
        k = step_with(D, text)
        old = D.steps[k]
        new = {f: v(D, getattr(old, f)) if isinstance(v, FunctionType) else v for f, v in fields.items()}
        D.steps[k] = dataclasses.replace(old, **new)
        return k + 1

    return plant


def lemma_fields(text: str, **fields: object) -> Callable[[Derivation], str]:
    """Change the lemma of the step whose rule contains ``text`` (its sizes, say)."""

    def plant(D: Derivation) -> str:
        k = step_with(D, text)
        lemma = D.steps[k].lemma
        assert lemma is not None
        swap_lemma(D, k, dataclasses.replace(lemma, **fields))
        return "lemma"

    return plant


def swap_lemma(D: Derivation, k: int, new: Lemma) -> None:
    """Put ``new`` in place of step k's lemma, on every step and among the declared lemmas."""
    old = D.steps[k].lemma
    D.steps = [dataclasses.replace(s, lemma=new) if s.lemma is old else s for s in D.steps]
    D.declared_lemmas = tuple(new if x is old else x for x in D.declared_lemmas)


def detached(text: str) -> Callable[[Derivation], str]:
    """The step whose rule contains ``text`` no longer names its lemma (which stays declared)."""

    def plant(D: Derivation) -> str:
        k = step_with(D, text)
        D.steps[k] = dataclasses.replace(D.steps[k], lemma=None)
        return "lemma"

    return plant


def no_claims(D: Derivation) -> str:
    D.claims = []
    return "claim"
