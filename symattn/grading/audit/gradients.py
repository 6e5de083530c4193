r"""The backward pass of a matrix product, read from the shapes the text gave: ``C = AB`` with
``A[N, P]`` and ``B[P, M]`` (issue 47).

A text that derives the gradients of a product writes each as another product,
``\frac{\partial L}{\partial B} = A^T \frac{\partial L}{\partial C}``, then says what it costs
("requires 2NPM FLOPs") and the shape it multiplies ("dL/dC is of size [N, M]"). A reader checks
both from two facts:

- the gradient of the loss with respect to an array has that array's shape (the loss is a
  number), and ``C = AB`` has A's rows and B's columns: ∂L/∂C is [N, M];
- a product of an [a, b] by a [b, c] costs 2abc FLOPs (a multiply and an add for each term of
  each of its a·c sums); a transpose swaps the two axes.

So the display's last member is read as a product of two factors, each an array of known shape,
its transpose (``A^T``) or a gradient (``∂L/∂C``); where their inner axes agree, the first figure
followed by "FLOPs" in the sentence that continues the display is compared with 2abc in the
text's letters (certified when equal, wrong otherwise), and a shape stated for a gradient
("dL/dC is a (co-)vector of size [N, M]") with its array's. A product whose inner axes differ,
or a factor of unknown shape, is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from .context import AuditContext
from .contractions import _FLOPS_AFTER, _size, _stated
from .document import Line
from .match import Claim, inside
from .said import Math, Said

RULE = (
    "gradients of a product: ∂L/∂X has X's shape, C = AB is A's rows by B's columns, and an [a, b] "
    "by [b, c] product costs 2abc FLOPs"
)
SHAPE_RULE = "gradients: ∂L/∂X has the shape of X (the loss is a number); C = AB has A's rows and B's columns"
#: ``C = A B`` in words or math: a product that names its result.
_PRODUCT = re.compile(r"(?<![\w^_])(?P<c>[A-Z])\s*=\s*(?P<a>[A-Z])\s*(?P<b>[A-Z])(?![\w(^_])")
#: A factor of the display's last member: ``((partial L)/(partial C))``, ``A^(T)``, ``B``.
_GRADIENT = r"\(*\s*\(\s*partial\s+[A-Za-z]\s*\)\s*/\s*\(\s*partial\s+(?P<{g}>[A-Z])\s*\)\s*\)*"
_FACTOR = r"(?:{grad}|(?P<{n}>[A-Z])(?P<{t}>\^\(T\))?)"
_LAST = re.compile(
    r"^\s*"
    + _FACTOR.format(grad=_GRADIENT.format(g="g1"), n="n1", t="t1")
    + r"\s*\*?\s*"
    + _FACTOR.format(grad=_GRADIENT.format(g="g2"), n="n2", t="t2")
    + r"\s*$"
)
#: A shape said of a gradient: "dL/dC is a (co-)vector of size ⟨[N, M]⟩", "∂L/∂C has shape [N, M]".
_SHAPE_SAID = re.compile(
    r"\bd\s*L\s*/\s*d\s*(?P<x>[A-Z])\s+(?:is\s+(?:an?\s+)?[\w()\-\s]{0,30}?\s+of\s+(?:size|shape)|has\s+(?:the\s+)?shape)"
    r"\s*⟨\s*\[(?P<axes>[^\[\]⟨⟩]*)\]\s*⟩"
)


def gradient_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    if line.kind == "math":
        return
    shapes = _shapes(au, line)
    for m in _SHAPE_SAID.finditer(line.text):
        start, end = m.start(), m.end()
        known = shapes.get(m.group("x"))
        stated = tuple(a.strip() for a in m.group("axes").split(","))
        if known is None or inside(covered, start, end):
            continue
        said = Said(f"∂L/∂{m.group('x')} has the shape of {m.group('x')}: [{', '.join(known)}]")
        ok = stated == known
        add(Claim.judged(line.number, line.text[start:end], ok, said, SHAPE_RULE, [(start, end)]))
    product = _display_before(au, line)
    if product is None:
        return
    left, right = (_factor(product, k, shapes) for k in ("1", "2"))
    if left is None or right is None or left[1] != right[0]:
        return
    expected = 2 * _size((left[0], left[1], right[1]))
    _, b = line.sentence_at(0)
    for _tex, plain, start, end in line.formulas:
        if start >= b or not _FLOPS_AFTER.match(line.text, end) or inside(covered, start, end):
            continue
        stated = _stated(plain, au.relations)
        if stated is None or len(stated[0]) != 1:
            return
        stated = stated[0][0]
        said = Said(f"[{left[0]}, {left[1]}] by [{right[0]}, {right[1]}]: ", Math(expected))
        ok = sp.expand(stated - expected) == 0
        add(Claim.judged(line.number, line.text[start:end], ok, said, RULE, [(start, end)]))
        return


def _shapes(au: AuditContext, line: Line) -> dict[str, tuple[str, ...]]:
    """The arrays' shapes known at ``line``: those the text gave, and each product it named
    before (``C = A B``: A's rows by B's columns, where A's columns are B's rows)."""
    known = dict(au.axes.known)
    for x in au.doc.lines:
        if x.number > line.number:
            break
        for m in _PRODUCT.finditer(x.text):
            a, b = known.get(m.group("a")), known.get(m.group("b"))
            if a and b and len(a) == len(b) == 2 and a[1] == b[0]:
                known[m.group("c")] = (a[0], b[1])
    return known


def _display_before(au: AuditContext, line: Line) -> re.Match | None:
    """The last member of the display just before ``line`` when it is a product of two
    factors and ``line`` goes on with its sentence ("which ...", "is again ...")."""
    if not re.match(r"\s*(?:which|is|this|that|and|requires|costs)\b", line.text):
        return None
    lines = [x for x in au.doc.lines if x.kind != "blank"]
    at = next((i for i, x in enumerate(lines) if x is line), 0)
    if at == 0 or lines[at - 1].kind != "math" or not lines[at - 1].formulas:
        return None
    plain = lines[at - 1].formulas[-1][1]
    return _LAST.match(plain.split("=")[-1]) if "=" in plain else None


def _factor(m: re.Match, k: str, shapes: dict) -> tuple[str, ...] | None:
    """A factor's shape: a gradient's is its array's, a transpose's the array's reversed."""
    name = m.group("g" + k) or m.group("n" + k)
    shape = shapes.get(name)
    if shape is None or len(shape) != 2:
        return None
    return shape[::-1] if m.group("t" + k) else shape
