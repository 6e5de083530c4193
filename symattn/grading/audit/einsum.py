r"""Identities in index notation, evaluated: both sides computed on the same integer tensors.

The index bookkeeping (:mod:`.indices`) checks that an equation's indices balance; it does not
check that the two sides are equal. A careful reader of "``(x_{bsd}\gamma_d + \beta_d) W_{dd'} +
b_{d'} = x_{bsd} W'_{dd'} + b'_{d'}``, with ``W'_{dd'} \equiv \gamma_d W_{dd'}`` and ``b'_{d'}
\equiv b_{d'} + \beta_d W_{dd'}``" expands both sides. Here each tensor the formula names is
filled with integers (a fixed seed; every index running over 2 or 3 values, primed ones their own
letter), each definition (``\equiv``) is computed first, and each member is computed with
Einstein's convention: in each product, an index written twice and absent from the left side is
summed. The sides are compared exactly, entry by entry in whole numbers (no float, no NumPy: the
audit runs where NumPy cannot be imported): a difference is wrong; equal sides keep the
bookkeeping's certification.

Only sums and products of tensors (and parentheses) are read, and only equations with no tensor
alone on a side (``q_{bsea} = z_{bsd} Q_{dea}`` defines q; ``A_{ij} = A_{ji}`` states a property
of A): a function (Softmax, exp, Drop, φ), a number, a power or a group of indices ``(ea)``
leaves the formula to the bookkeeping.
"""

from __future__ import annotations

import random
import re
from itertools import pairwise, product

from .stated import Unreadable

#: A tensor: a name (a letter, a Greek word, primes) with its subscript of indices.
_TENSOR = re.compile(
    r"(?P<name>\\?[A-Za-z]+'*)\s*(?:\^\s*\{[^{}]*\}\s*)?_\s*(?:\{(?P<braced>[^{}]*)\}|(?P<bare>[a-z]))"
)
_TOKEN = re.compile(r"\s*(?:(?P<tensor>" + _TENSOR.pattern.replace("(?P<", "(?P<t_") + r")|(?P<op>[()+\-]))")
_RELATION = re.compile(r"\\equiv|(?<![<>!\\])=")


RULE = "identities evaluated: both sides on the same integer tensors, a repeated index summed (whole numbers)"


def evaluate(tex: str, letters: set[str]) -> tuple[bool, str] | None:
    """(the sides agree, what differs) for a formula of index equations and definitions, or None
    when it is not one this reads (a function, a number, a single member). ``tex`` comes as the
    index bookkeeping writes it (:func:`.indices._normal`: sizing and spacing out, words marked)."""
    items = [
        x.strip(" ,.")
        for x in re.split(r",\s*(?=\\?[A-Za-z]+'*\s*_)|\\q?quad", _primes(tex))
        if x.strip(" ,.")
    ]
    equations, definitions = [], {}
    try:
        for item in items:
            parts = [p.strip() for p in _RELATION.split(item)]
            relations = _RELATION.findall(item)
            if len(parts) < 2:
                raise Unreadable(item)
            if relations == ["\\equiv"]:
                name, indices = _left(parts[0])
                definitions[name] = (indices, _parse(parts[1]))
            elif all(r == "=" for r in relations):
                equations.append([_parse(p) for p in parts])
            else:
                raise Unreadable(item)
    except Unreadable:
        return None
    if not equations:
        return None
    for members in equations:
        if any(len(m) == 1 and len(m[0][1]) == 1 for m in members):
            return (
                None  # a tensor alone on a side: its definition (q = z Q), or a property of it (A_ij = A_ji)
            )
    return _compare(equations, definitions, letters)


def _compare(equations: list, definitions: dict, letters: set[str]) -> tuple[bool, str] | None:
    rng = random.Random(47)
    sizes: dict[str, int] = {}
    tensors: dict[str, dict] = {}

    def size(index: str) -> int:
        return sizes.setdefault(index, 2 + len(sizes) % 2)

    def value(name: str, indices: list[str]) -> dict:
        """The tensor's entries by the values of its indices, in the order it writes them."""
        if name in definitions:
            own, expr = definitions[name]
            if len(own) != len(indices):
                raise Unreadable(name)
            if name not in tensors:
                tensors[name] = _compute(expr, own, value, size)
            return tensors[name]  # a defined tensor read with its indices named otherwise
        if name not in tensors:
            tensors[name] = {k: rng.randint(-4, 4) for k in product(*(range(size(i)) for i in indices))}
        if any(len(k) != len(indices) for k in tensors[name]):
            raise Unreadable(name)
        return tensors[name]

    try:
        for members in equations:
            free = _free(members[0])
            if not {i.rstrip("'") for i in free} <= letters:
                return None
            results = [_compute(m, free, value, size) for m in members]
            if any(a != b for a, b in pairwise(results)):
                return False, "the two sides differ on the same integer tensors (computed entry by entry)"
    except (Unreadable, KeyError):
        return None
    return True, "the two sides agree on the same integer tensors, every repeated index summed"


def _compute(expr: list, out: list[str], value, size) -> dict:
    """A sum of signed products, entry by entry: each product summed over its indices absent
    from ``out`` (in whole numbers; a term lacking an index of ``out`` is the same along it)."""
    result = {}
    for key in product(*(range(size(i)) for i in out)):
        at = dict(zip(out, key, strict=True))
        total = 0
        for sign, factors in expr:
            summed = sorted({i for _, idx in factors for i in idx} - set(out))
            for rest in product(*(range(size(i)) for i in summed)):
                where = {**at, **dict(zip(summed, rest, strict=True))}
                term = sign
                for name, idx in factors:
                    term *= value(name, idx)[tuple(where[i] for i in idx)]
                total += term
        result[key] = total
    return result


def _letters(indices: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for i in indices:
        out.setdefault(i, "abcdefghijklmnopqrstuvwxyz"[len(out)])
    return out


def _free(expr: list) -> list[str]:
    """The free indices of a member: those written once in a term, over all its terms, in order."""
    out: list[str] = []
    for _sign, factors in expr:
        counts: dict[str, int] = {}
        for _name, idx in factors:
            for i in idx:
                counts[i] = counts.get(i, 0) + 1
        out += [i for i, n in counts.items() if n == 1 and i not in out]
    if not out:
        raise Unreadable("no free index")
    return out


def _left(text: str) -> tuple[str, list[str]]:
    expr = _parse(text)
    if len(expr) != 1 or len(expr[0][1]) != 1:
        raise Unreadable(text)
    return expr[0][1][0]


def _parse(text: str) -> list[tuple[int, list[tuple[str, list[str]]]]]:
    """A sum of signed products of tensors, parentheses distributed."""
    tokens = _tokens(text)
    expr, k = _sum(tokens, 0)
    if k != len(tokens):
        raise Unreadable(text)
    return expr


def _tokens(text: str) -> list:
    out, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        m = _TENSOR.match(text, i)
        if m:
            indices = re.findall(r"[a-z]'*", (m.group("braced") or m.group("bare")).replace(" ", ""))
            if "(" in (m.group("braced") or "") or not indices:
                raise Unreadable(text)
            out.append(("tensor", m.group("name"), indices))
            i = m.end()
            continue
        if text[i] in "()+-":
            out.append(("op", text[i]))
            i += 1
            continue
        raise Unreadable(text[i:])
    return out


def _sum(tokens: list, k: int):
    terms, sign = [], 1
    while k < len(tokens):
        if tokens[k] == ("op", "+"):
            sign, k = 1, k + 1
        elif tokens[k] == ("op", "-"):
            sign, k = -1, k + 1
        product_, k = _product(tokens, k)
        terms.extend((sign * s, f) for s, f in product_)
        sign = 1
        if k < len(tokens) and tokens[k] == ("op", ")"):
            break
    return terms, k


def _product(tokens: list, k: int):
    terms = [(1, [])]
    while k < len(tokens) and tokens[k] not in (("op", "+"), ("op", "-"), ("op", ")")):
        token = tokens[k]
        if token[0] == "tensor":
            terms = [(s, [*f, (token[1], token[2])]) for s, f in terms]
            k += 1
        elif token == ("op", "("):
            inner, k = _sum(tokens, k + 1)
            if k >= len(tokens) or tokens[k] != ("op", ")"):
                raise Unreadable("parenthesis")
            k += 1
            terms = [(s * t, [*f, *g]) for (s, f), (t, g) in product(terms, inner)]
        else:
            raise Unreadable(str(token))
    if terms == [(1, [])]:
        raise Unreadable("empty product")
    return terms, k


def _primes(tex: str) -> str:
    """``d^{\\prime}`` as ``d'``."""
    return tex.replace("^{\\prime}", "'").replace("\\prime", "'")
