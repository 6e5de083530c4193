"""Identities in the text's own letters: ``18BTDF + 24BTDNH = 6BT(3DF + 4DNH)``.

Texts on the cost of a transformer write products of sizes as runs of capital letters (BTDNH
is B·T·D·N·H) and state what they assume as formulas (``assume $F = 4D$ and $D = NH$``).
A chain of such members is judged as a careful reader judges it:

- each member is evaluated with every letter a positive size, the values the text gave
  (``D = 4096``) and the relations it assumed (``F = 4D``, ``N·H = D``: the single letter is
  replaced by what it equals, in the order the text states them) put in;
- two neighbours that SymPy proves equal agree; two whose ratio is a number other than 1 (a
  slip in a coefficient: no relation between the letters can make 72 equal 96) disagree, and
  the claim is wrong; two whose ratio still depends on the letters are equal only under some
  premise the text does not state: the claim stays unchecked, with that reason.

Nothing is evaluated but sizes: a member calling a function other than sqrt, exp or ln, or
holding a matrix, is not read here.
"""

from __future__ import annotations

import re

import sympy as sp

from . import calc
from .stated import Unreadable

#: Capital words that are not products of letters: units and names authors write in math.
_WORDS = {
    "FLOP", "FLOPS", "FLOPs", "MLP", "RNN", "CNN", "LSTM", "GPU", "TPU", "HBM", "VMEM", "KV", "MHA",
    "GQA", "MQA", "SM", "ICI", "DCN", "PCIe", "TB", "GB", "MB", "KB", "PB", "ReLU", "GELU",
}  # fmt: skip
_RUN = re.compile(r"[A-Z]{2,8}")


def split_letters(node: calc.Node) -> calc.Node:
    """Runs of capitals read as products of single letters (BTDNH is B·T·D·N·H; ``BT^2`` is
    B·T², the power binding to the last letter)."""
    if not isinstance(node, tuple):
        return node
    if node[0] == "sym" and _RUN.fullmatch(node[1]) and node[1] not in _WORDS:
        return _product(list(node[1]))
    if node[0] == "pow" and node[1][0] == "sym" and _RUN.fullmatch(node[1][1]) and node[1][1] not in _WORDS:
        letters = list(node[1][1])
        return ("mul", _product(letters[:-1]), ("pow", ("sym", letters[-1]), split_letters(node[2])))
    return tuple(split_letters(x) if isinstance(x, tuple) else x for x in node)


def _product(letters: list[str]) -> calc.Node:
    out: calc.Node = ("sym", letters[0])
    for c in letters[1:]:
        out = ("mul", out, ("sym", c))
    return out


def value(node: calc.Node, given: dict, relations: list[tuple[sp.Symbol, sp.Expr]]) -> sp.Expr | None:
    """The member's value in the text's letters, or None when it is not made of sizes."""
    node = split_letters(node)
    for n in calc.walk(node):
        if n[0] == "call" and n[1] not in ("sqrt", "exp", "ln"):
            return None
        if n[0] == "sym" and re.fullmatch(r"[a-z]{2,}", n[1]) and n[1] not in ("oo",):
            return None  # a word (mod, max, softmax): not a size
        if n[0] in ("vec", "sum"):
            return None
        if n[0] == "pow" and n[2][0] == "sym":  # X^T, P^(-1): matrices, not sizes
            return None
    try:
        v = calc.exact(node, {})
    except (Unreadable, TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError):
        return None
    if isinstance(v, sp.MatrixBase) or not isinstance(v, sp.Expr):
        return None
    v = assumed(v, relations)
    return v.xreplace({s: given[s.name] for s in v.free_symbols if s.name in given})


def assumed(v: sp.Expr, relations: list[tuple[sp.Symbol, sp.Expr]]) -> sp.Expr:
    """``v`` with the relations the text assumed put in, in the order it stated them (F = 4D,
    then D = NH: each letter replaced by what it equals)."""
    for symbol, expr in relations:
        v = v.xreplace({symbol: expr})
    return v


def relation(members: list[calc.Node]) -> tuple[sp.Symbol, sp.Expr] | None:
    """``F = 4D``, ``D = NH``, ``N·H = D``: a relation that names one letter by the others (the
    letter replaced by what it equals), or None."""
    if len(members) != 2:
        return None
    sides = [value(m, {}, []) for m in members]
    if any(s is None for s in sides):
        return None
    for one, other in (sides, sides[::-1]):
        if (
            isinstance(one, sp.Symbol)
            and len(one.name) == 1  # a letter: d_k = d_model / h is a claim the heads' rules read
            and other.free_symbols
            and one not in other.free_symbols
        ):
            return one, other
    return None


def named(v: sp.Expr) -> bool:
    """A member that names a quantity in words (``attention FLOPs``, ``num tokens``): what it
    stands for is said, not computed, so it is compared with nothing."""
    return any(len(s.name) > 1 and not _RUN.fullmatch(s.name) and "_" in s.name for s in v.free_symbols)


def verdict(values: list[sp.Expr]) -> tuple[str, int]:
    """("agree" | "differ" | "open", k) for a chain of values: the first pair k, k + 1 that
    differs by a number ("differ") or by letters ("open"); "none" when no two neighbours could be
    compared (a member named in words stands between them)."""
    compared = False
    for k in range(len(values) - 1):
        a, b = values[k], values[k + 1]
        if named(a) or named(b):
            continue
        compared = True
        if sp.simplify(sp.expand(a - b)) == 0:
            continue
        ratio = sp.simplify(a / b) if b != 0 else None
        if ratio is not None and not ratio.free_symbols and ratio.is_number:
            return "differ", k
        return "open", k
    return ("agree" if compared else "none"), -1
