r"""ex6.7 in index notation: a permutation as a function π(i), read as the matrix statement it is.

A learner who writes the permutation as a function states rows and entries, not products:
``(PX)_i = X_{\pi(i)}``, ``S'_{ij} = q_{\pi(i)} \cdot k_{\pi(j)} = S_{\pi(i)\pi(j)}``,
``\operatorname{Attention}(PX)_i = \operatorname{Attention}(X)_{\pi(i)}``. With P the matrix whose
row i picks row π(i) (the exercise's convention: row r of PX is row π(r) of X), every such side is
an entry or a row of one matrix:

- row π(i) of A is row i of P A, row π^{-1}(i) of A is row i of Pᵀ A;
- column π(j) of A is column j of A Pᵀ, column π^{-1}(j) of A is column j of A P;
- q_a · k_b (or q_a^⊤ k_b, ⟨q_a, k_b⟩) is entry (a, b) of Q Kᵀ; x_a, q_a, k_a, v_a are rows of
  X, Q, K, V.

So a step whose two sides are entries (i, j) of A and B, or rows i of A and B, states A = B, and is
checked as that matrix step (:mod:`.matrix`): the same rules and counterexamples. A learner who
numbers the other way, ``(PX)_{\pi(i)} = X_i``, has π for our π^{-1}; :func:`convention` reads it
from the text. Sides in other forms (sums over j, exponentials) are left as written.
"""

from __future__ import annotations

import re

#: An index: a letter, π(letter) or π^{-1}(letter).
_INDEX = re.compile(
    r"\s*(?:\\pi\s*(?P<inv>\^\s*\{\s*-\s*1\s*\}|\^\s*-\s*1)?\s*\(\s*(?P<arg>[a-z])\s*\)|(?P<plain>[a-z]))\s*,?"
)
#: A row vector of one of the exercise's matrices, with its index: x_{\pi(i)}, q_i.
_ROW = {"x": "X", "q": "Q", "k": "K", "v": "V"}


def _row(name: str, perm: str = "P") -> str:
    """The matrix whose rows ``name`` runs over: q is Q, q' (a row of PX's queries) is (P Q)."""
    return f"({perm} {_ROW[name[0]]})" if name.endswith("'") else _ROW[name]


def _indices(text: str) -> list[tuple[str, int]] | None:
    """The indices of a subscript: (letter, how π acts on it: 0 none, 1 π, -1 π^{-1})."""
    out, at = [], 0
    while at < len(text):
        m = _INDEX.match(text, at)
        if m is None or m.end() == at:
            return None
        if m.group("plain"):
            out.append((m.group("plain"), 0))
        else:
            out.append((m.group("arg"), -1 if m.group("inv") else 1))
        at = m.end()
    return out if 1 <= len(out) <= 2 else None


def _subscript_at_end(text: str) -> tuple[str, str] | None:
    """``text`` cut into its base and the subscript that ends it (``X_{\\pi(i)}``: X and \\pi(i))."""
    text = text.strip()
    m = re.search(r"_\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*$", text) or re.search(r"_\s*([a-z])\s*$", text)
    if m is None:
        return None
    return text[: m.start()].strip(), m.group(1)


_DOT = re.compile(
    r"^\s*(?:(?P<a1>[qk]'?)_\{?(?P<i1>[^{}]+?)\}?\s*(?:\\cdot|\^\s*\{?\s*(?:\\top|T)\s*\}?)\s*"
    r"(?P<b1>[qk]'?)_\{?(?P<j1>[^{}]+?)\}?"
    r"|\\langle\s*(?P<a2>[qk]'?)_\{?(?P<i2>[^{},]+?)\}?\s*,\s*(?P<b2>[qk]'?)_\{?(?P<j2>[^{}]+?)\}?\s*\\rangle)\s*$"
)


def index_side(text: str, inverse: bool = False, perm: str = "P") -> tuple[str, tuple[str, ...]] | None:
    """The matrix a side is an entry or a row of, and its free indices (``("i",)`` for a row,
    ``("i", "j")`` for an entry); None for a side with no such subscript. π is the permutation
    of the matrix ``perm`` (P, or P_1 where the text says so)."""
    scaled = re.fullmatch(r"\s*\\frac\s*\{(.*)\}\s*\{\s*\\sqrt\s*\{\s*d_\{?k\}?\s*\}\s*\}\s*", text)
    dot = _DOT.match(scaled.group(1) if scaled else text)
    if dot:
        a, i = dot.group("a1") or dot.group("a2"), dot.group("i1") or dot.group("i2")
        b, j = dot.group("b1") or dot.group("b2"), dot.group("j1") or dot.group("j2")
        base = f"{_row(a, perm)} {_row(b, perm)}^\\top"
        base = f"\\frac{{{base}}}{{\\sqrt{{d_k}}}}" if scaled else base
        rows, cols = _indices(i), _indices(j)
        if rows is None or cols is None or len(rows) != 1 or len(cols) != 1:
            return None
        found = rows + cols
    else:
        cut = _subscript_at_end(text)
        if cut is None:
            return None
        base, sub = cut
        found = _indices(sub)
        if found is None:
            return None
        if re.fullmatch(r"[xqkv]", base):
            base = _ROW[base]
        elif re.fullmatch(r"[xqkv]'", base):  # the rows of PX: x'_i is row i of P X
            base = f"({perm} {_ROW[base[0]]})"
        elif not (base.endswith(")") or base.endswith("]") or re.fullmatch(r"[A-Z]'?", base)):
            return None
        elif base.startswith("[") and base.endswith("]"):
            base = "(" + base[1:-1] + ")"
    left, right = "", ""
    for k, (_, how) in enumerate(found):
        how = -how if inverse else how
        if k == 0 and how:
            left = f"{perm} " if how == 1 else f"{perm}^\\top "
        if k == 1 and how:
            right = f" {perm}^\\top" if how == 1 else f" {perm}"
    return f"{left}{base}{right}".strip(), tuple(letter for letter, _ in found)


def translate(
    lhs: str | None, rhs: str, inverse: bool = False, perm: str = "P"
) -> tuple[str | None, str] | None:
    """A step's sides as matrix sides where both are rows (or both entries) with the same free
    indices; None where the step is not in index notation (or not one this reads)."""
    sides = [index_side(t, inverse, perm) if t is not None else None for t in (lhs, rhs)]
    right = sides[1]
    if right is None:
        return None
    if lhs is None:  # "= ..." goes on from a side already read
        return None, right[0]
    left = sides[0]
    if left is None or left[1] != right[1]:
        return None
    return left[0], right[0]


#: P, P_1 or P_2 as written in a text.
_PERM = r"P(?:_\s*\{?\s*[12]\s*\}?)?"


def permutation(text: str) -> str:
    """The matrix whose permutation π is: P, or P_1 (P_2) where the text defines π by it,
    ``(P_1 X)_i = X_{π(i)}`` or "the permutation that $P_1$ applies"."""
    m = re.search(rf"\(\s*({_PERM})\s*[A-Z]\s*\)\s*_\s*\{{?\s*(?:[a-z]|\\pi)", text) or re.search(
        rf"\\pi\b\s*\$?[^$\n]{{0,80}}\$\s*({_PERM})\s*\$", text
    )
    return re.sub(r"[\s{}]", "", m.group(1)) if m else "P"


def convention(text: str) -> bool:
    """Whether the text numbers the other way: (PX)_{π(i)} = X_i, so its π is our π^{-1}."""
    return bool(
        re.search(
            rf"\(\s*{_PERM}\s*X\s*\)\s*_\s*\{{?\s*\\pi\s*\(\s*([a-z])\s*\)\s*\}}?\s*=\s*[Xx]\s*_\s*\{{?\s*\1\s*\}}?",
            text,
        )
        or re.search(r"x'\s*_\s*\{?\s*\\pi\s*\(\s*([a-z])\s*\)\s*\}?\s*=\s*x\s*_\s*\{?\s*\1\s*\}?", text)
    )
