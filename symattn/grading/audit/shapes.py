"""Tensor shapes and dimension bookkeeping, as a careful reader checks them.

The text declares shapes (``⟨Q ∈ R^(M × D_k)⟩``, "⟨X⟩ of shape ⟨N × D_x⟩", "⟨W_k⟩ is a weight
matrix of shape ⟨D_x × D_k⟩", ``q ∈ R^(d)``); a row of a matrix is written with its lowercase
letter and an index (``q_j`` is a row of ``Q``). What it then writes is checked against them:

- a product ``X W_k`` needs the inner sizes to agree (a product of an N × D_x by a D_k × M is
  refused), and makes the outer ones; ``K^T`` swaps them; softmax, a scalar factor and a
  division by a scalar keep a shape; a sum keeps the shape of its terms;
- a dot product ``q_j · x_i`` needs two vectors of one length;
- an equation ``K = X W_k`` gives its left side the shape of its right, or, when the left side
  has a shape already, must agree with it; ``softmax(QK^T/√d) V ∈ R^(n × v)`` and "⟨QK^T⟩ ...
  resulting in a matrix of the shape ⟨T × T⟩" state a shape that must be the one computed.

Sizes are compared as SymPy expressions in the text's own symbols (D_k and D_x are different
sizes unless the text makes them equal), with the values the text gives (d_k = 64) put in.
Nothing is judged where a shape is unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from . import calc
from .stated import Unreadable

Shape = tuple  # of SymPy sizes; () for a scalar

#: Functions applied entry by entry: an array's shape is kept (softmax is read on its own).
ELEMENTWISE = ("tanh", "sigma", "sin", "cos", "tan", "exp")


class Mismatch(Exception):
    """Two sizes that must agree do not: :attr:`said` says which, its shapes as math."""

    def __init__(self, *parts) -> None:
        from .said import Said

        self.said = Said(*parts)
        super().__init__(self.said.plain())


@dataclass
class Shapes:
    """The shapes a text has declared or made so far, by name."""

    known: dict[str, Shape]

    def __init__(self) -> None:
        self.known = {}
        self.sizes: set[str] = set()  # the names used as sizes: scalars wherever they stand
        #: Products and dot products whose sizes were compared and agreed, since last reset.
        self.checked: list = []
        #: Weight matrices declared with their shapes in words, by section: for parameter counts.
        self.weights: dict[int, dict[str, tuple]] = {}
        #: Matrices the text lists by their columns (X = [x_1, ..., x_n] ∈ R^(d × n)).
        self.columns: set[str] = set()
        #: What each name was last made from: the data matrix of ``Q = X W_q`` (X), else None.
        self.made_from: dict[str, str | None] = {}

    def declare(self, name: str, shape: Shape) -> None:
        self.known[name] = shape
        for size in shape:
            self.sizes |= {s.name for s in size.free_symbols}

    def name_of(self, node: calc.Node) -> str | None:
        """The name a member stands for, when it is one symbol (``W_k``, ``W^(O)``)."""
        if node[0] == "sym":
            return node[1]
        if node[0] == "pow" and node[1][0] == "sym" and node[2][0] == "sym" and node[2][1] != "T":
            return f"{node[1][1]}^({node[2][1]})"
        return None

    def of(self, node: calc.Node, premises: dict) -> Shape | None:
        """The shape of a member, None when unknown; :class:`Mismatch` when it cannot exist."""
        from .letters import split_letters

        node = split_letters(node) if node[0] == "sym" or node[0] == "pow" else node
        op = node[0]
        if op == "num":
            return ()
        if op == "sym":
            return self._symbol(node[1])
        if op == "pow":
            if node[2] == ("sym", "T"):  # a transpose
                inner = self.of(node[1], premises)
                if inner is not None and len(inner) == 1:  # x^T: a row, 1 × d
                    return (sp.S.One, inner[0])
                return None if inner is None else tuple(reversed(inner))
            name = self.name_of(node)
            if name in self.known:
                return self.known[name]
            base = self.of(node[1], premises)
            return () if base == () else None
        if op == "neg":
            return self.of(node[1], premises)
        if op == "call":
            if node[1] in ELEMENTWISE:  # tanh(W_q q + W_k k): entry by entry, the argument's shape
                return self.of(node[2], premises)
            if node[1] in ("sqrt", "ln", "Var", "E"):
                return ()
            return self.of(node[2], premises) if node[1] == "softmax" else None
        if op == "div":
            a, b = self.of(node[1], premises), self.of(node[2], premises)
            return a if b == () else None
        if op in ("add", "sub"):
            a, b = self.of(node[1], premises), self.of(node[2], premises)
            if a is None or b is None:
                return None
            if a and b and not same_shape(a, b, premises):
                wide = _broadcast(a, b, premises)
                if wide is None:
                    raise Mismatch("a sum of a ", typeset(a), " and a ", typeset(b))
                return wide
            return a or b
        if op == "mul":
            if node[1][0] == "sym" and node[1][1].startswith("sum_"):  # sum_i a_(i,j) x_i
                return self.of(node[2], premises)
            a, b = self.of(node[1], premises), self.of(node[2], premises)
            right, left = self._size_letter(node[2]), self._size_letter(node[1])
            beside = (a and b == () and right) or (b and a == () and left)
            if beside:
                return None  # W_q q, q a size: the letter may be the vector q, whose shape is not given
            return self._product(a, b, premises)
        return None

    def _size_letter(self, node: calc.Node) -> bool:
        return node[0] == "sym" and node[1] in self.sizes and node[1] not in self.known

    def stacked(self, items: str, premises: dict) -> Shape | None:
        """The shape of a list of arrays ``A_1 B_1, A_2 B_2, ..., A_n B_n``: n of the items'
        shape, which each item must have (its products checked); None unless it is such a list."""
        parts = [p.strip() for p in items.split(",")]
        if len(parts) < 3 or parts[-2] not in ("...", "…"):
            return None
        first, last = set(re.findall(r"_(\w+)", parts[0])), re.findall(r"_(\w+)", parts[-1])
        if first != {"1"} or not last or len(set(last)) != 1 or last[0] == "1":
            return None  # counted from 1 to n: n items (from 0, or to n - 1, is left)
        shape = None
        for part in parts[:-2] + parts[-1:]:
            members, relations = calc.parse_chain(part)
            if relations:
                return None
            got = self.of(members[0], premises)
            if got is None or (shape is not None and not same_shape(got, shape, premises)):
                return None
            shape = got
        if shape is None or len(shape) < 2:
            return None  # vectors listed may be rows or columns: the text's convention decides
        size = calc.exact(calc.parse_chain(last[0])[0][0], {})
        return (size, *shape)

    def _symbol(self, name: str) -> Shape | None:
        if name in self.known:
            return self.known[name]
        whole = re.fullmatch(r"([A-Z])_(?:\(?\w+\)?)", name)
        if whole and len(self.known.get(whole.group(1), ())) >= 3:  # Q_i: one of the n matrices of Q
            return self.known[whole.group(1)][1:]
        if name in self.sizes or name in ("e", "oo") or name.startswith("sum_"):
            return ()
        if re.fullmatch(r"[a-z]_(?:\(\w+, ?\w+\)|[a-z]{2}|\d{2})", name):  # a_(i,j), e_ij: an entry
            return ()
        m = re.fullmatch(r"([a-z])_(?:\(?[a-z0-9, ]+\)?)", name) or re.fullmatch(r"([a-z])", name)
        if m:  # q_j: a row of Q (of the matrix with its letter), or a column where Q lists them so
            matrix = self.known.get(m.group(1).upper())
            if matrix is not None and len(matrix) == 2:
                return (matrix[0],) if m.group(1).upper() in self.columns else (matrix[1],)
        return None

    def _product(self, a: Shape | None, b: Shape | None, premises: dict) -> Shape | None:
        if a is None or b is None:
            return None
        if a == () or b == ():
            return a or b
        if len(a) == 2 and a[0] == 1 and len(b) == 1:  # q^T k: a row times a column, a dot product
            a = (a[1],)
        if len(a) == 1 and len(b) == 1:  # a dot product of two vectors
            if not _same(a[0], b[0], premises):
                raise Mismatch(
                    "a dot product of a vector of length ", _tex(a[0]), " with one of length ", _tex(b[0])
                )
            self.checked.append(_said("a dot product of two vectors of length ", _tex(a[0])))
            return ()
        if len(a) == 2 and len(b) == 2:
            if not _same(a[1], b[0], premises):
                raise Mismatch("a product of a ", typeset(a), " by a ", typeset(b))
            self.checked.append(_said("a ", typeset(a), " by a ", typeset(b)))
            return (a[0], b[1])
        if len(a) == 1 and len(b) == 2 and b[0] == 1:  # x y^T: a column times a row, an outer product
            return (a[0], b[1])
        if len(a) == 1 and len(b) == 2:  # a row vector times a matrix
            if not _same(a[0], b[0], premises):
                raise Mismatch("a product of a vector of length ", _tex(a[0]), " by a ", typeset(b))
            return (b[1],)
        if len(a) == 2 and len(b) == 1:
            if not _same(a[1], b[0], premises):
                raise Mismatch("a product of a ", typeset(a), " by a vector of length ", _tex(b[0]))
            return (a[0],)
        return None


def read_dims(text: str) -> Shape | None:
    """``N × D_x``, ``(2, 1, 20)``, ``h * d_v × d_out``: the sizes, or None."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")") and "," in text:
        parts = text[1:-1].split(",")
    else:
        parts = re.split(r"\s*×\s*|\s+by\s+", text)
    out = []
    for part in parts:
        part = part.strip().strip("()")
        if not part:
            return None
        try:
            members, relations = calc.parse_chain(part)
        except Unreadable:
            return None
        if relations or len(members) != 1:
            return None
        try:
            out.append(calc.exact(members[0], {}))
        except (Unreadable, TypeError, ValueError, ZeroDivisionError):
            return None
    if any(isinstance(x, sp.MatrixBase) or not isinstance(x, sp.Expr) for x in out):
        return None
    return tuple(out)


#: ``X ∈ R^(N × D_x)``, ``q ∈ R^(d)``: a name (or a member) and the space it lives in.
MEMBERSHIP = re.compile(r"^(?P<of>.+?)\s*∈\s*R\^\((?P<dims>[^()]*(?:\([^()]*\)[^()]*)*)\)\s*[.,;]?$")
MEMBERSHIP_BARE = re.compile(r"^(?P<of>.+?)\s*∈\s*R\^(?P<dims>[A-Za-z]\w*|\d+)\s*[.,;]?$")
#: ``a(q, k) = w_v^T tanh(...) ∈ R``: the real numbers, a scalar.
MEMBERSHIP_SCALAR = re.compile(r"^(?P<of>.+?)\s*∈\s*R\s*[.,;]?$")


def membership(plain: str) -> tuple[str, Shape] | None:
    """(what, shape) of a formula ``X ∈ R^(N × D)``, or None."""
    m = MEMBERSHIP.match(plain) or MEMBERSHIP_BARE.match(plain)
    if m is None:
        scalar = MEMBERSHIP_SCALAR.match(plain)
        return (scalar.group("of").strip(), ()) if scalar else None
    dims = read_dims(m.group("dims"))
    return (m.group("of").strip(), dims) if dims else None


def _same(a: sp.Expr, b: sp.Expr, premises: dict) -> bool:
    a, b = _given(a, premises), _given(b, premises)
    return a == b or sp.simplify(a - b) == 0


def same_shape(a: Shape, b: Shape, premises: dict) -> bool:
    """One shape, sizes of 1 aside (a 1 × 1 matrix is a scalar, a 1 × m matrix a row of m)."""
    a, b = _squeezed(a), _squeezed(b)
    return len(a) == len(b) and all(_same(x, y, premises) for x, y in zip(a, b, strict=True))


def _squeezed(shape: Shape) -> Shape:
    return tuple(x for x in shape if x != 1)


def _broadcast(a: Shape, b: Shape, premises: dict) -> Shape | None:
    """The shape of a sum whose terms broadcast (a bias b ∈ R^h added to each row of XW ∈
    R^(n × h)): sizes aligned from the last, each pair equal or one of them 1; None if not."""
    out = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else sp.S.One
        y = b[-k] if k <= len(b) else sp.S.One
        if x == 1 or y == 1 or _same(x, y, premises):
            out.append(y if x == 1 else x)
        else:
            return None
    return tuple(reversed(out))


def _given(size: sp.Expr, premises: dict) -> sp.Expr:
    return size.xreplace({s: premises[s.name] for s in size.free_symbols if s.name in premises})


def _size(size: sp.Expr) -> str:
    return str(size).replace("*", "·")


def _show(shape: Shape) -> str:
    return " × ".join(_size(x) for x in shape) if shape else "scalar"


def _said(*parts):
    from .said import Said

    return Said(*parts)


def _tex(size: sp.Expr):
    from .said import Tex

    return Tex(_size(size), sp.latex(size))


def typeset(shape: Shape):
    """A shape as math, in plain text and in LaTeX: ``N × D_k``, ``$N \\times D_{k}$``."""
    from .said import Tex

    if not shape:
        return Tex("a scalar", r"\text{a scalar}")
    return Tex(_show(shape), r" \times ".join(sp.latex(x) for x in shape))


# -- the rule -------------------------------------------------------------------------------------

#: "⟨X⟩ ... of shape ⟨N × D_x⟩", "of size ⟨(2, 1, 20)⟩", "resulting in a matrix of the shape
#: ⟨T × T⟩": a shape said in words, of the formula just before it in its sentence.
_SAID_SHAPE = re.compile(
    r"\b(?:of|with|has|have|in)\s+(?:the\s+|a\s+)?(?:shape|size|dimensions?|dimensionality)\s+"
    r"(?:of\s+)?⟨(?P<dims>[^⟩]*)⟩"
)
#: A paragraph that goes on with the sentence of the one before it (a display): its
#: declarations hold for that one too.
_WHERE = re.compile(r"\s*(?:where|here)\b|\s*with\s+⟨", re.I)
#: A line that only labels the display before it (d2l's ``:eqlabel:`name```).
_LABEL = re.compile(r"\s*:\w+:\S*\s*")
_RESULT = re.compile(r"\b(?:resulting in|results in|gives|yields|produces|is|are)\b")


def shape_claims(au, line, add, covered) -> None:
    """Shapes declared in the line's paragraph (read once per paragraph, before its formulas:
    a reader reads the whole paragraph), then every formula that makes a product, a dot product
    or states a shape, checked against them."""
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Said

    shapes: Shapes = au.shapes
    premises = au.premises(line)
    if au.shapes_block != line.block:
        au.shapes_block = line.block
        block = au.doc.block(line)
        after = au.doc.block_number(line.block + 1)
        if after and all(_LABEL.fullmatch(x.text) for x in after):  # :eqlabel:`eq_additive-attn`
            after = au.doc.block_number(line.block + 2)
        if after and _WHERE.match(after[0].text):  # a display, then "where W_q ∈ R^(h × q), ..."
            block = block + after
        for k, x in enumerate(block):
            for name, shape in _declarations(x, block[k - 1] if k else None):
                shapes.declare(name, shape)
            for name in _listed_by_columns(x):
                shapes.columns.add(name)

    def claim(start: int, end: int, ok: bool, said: Said, rule: str) -> None:
        verdict = CERTIFIED if ok else WRONG
        add(Claim(line.number, line.text[start:end], verdict, said, rule, [(start, end)]))

    rule = "shapes: sizes of products, dot products and sums, from the shapes the text declares"

    def stated(expression: str, dims: Shape, start: int, end: int) -> None:
        """A shape the text states for an expression: the one its products make, or none."""
        shapes.checked = []
        listed = _LISTED.fullmatch(expression)
        if listed:  # BMM(Q, K) = [Q_1 K_1, ..., Q_n K_n]: n of the first item's shape
            try:
                got = shapes.stacked(listed.group("items"), premises)
            except Unreadable:
                return
            except Mismatch as exc:
                claim(start, end, False, Said("not defined: ") + exc.said, rule)
                return
            if got is not None:
                claim(start, end, same_shape(got, dims, premises), Said(typeset(got)), rule)
            return
        try:
            members, relations = _chain(expression)
            # a(q, k) = w_v^T tanh(W_q q + W_k k) ∈ R: the shape of what the chain comes to
            got = shapes.of(members[-1], premises) if set(relations) <= {"="} else None
        except Unreadable:
            return
        except Mismatch as exc:
            claim(start, end, False, Said("not defined: ") + exc.said, rule)
            return
        if got is not None and (got or dims or shapes.checked):  # a scalar said of a product's value
            claim(start, end, same_shape(got, dims, premises), Said(typeset(got)), rule)

    for _tex, whole, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        *rows, plain = _rows(whole)
        for row in rows:  # a ∈ R^(n × a × b) \\ b = ... ∈ R^(...): each row on its own
            said = membership(row)
            if said is not None and not _bare(said[0]) and not _naming(said[0]):
                stated(said[0], said[1], start, end)
        said = membership(plain)
        if said is not None and _naming(said[0]):  # Q = [Q_1, ..., Q_n] ∈ R^(n × a × b) declares Q
            continue
        if said is not None and not _bare(said[0]):  # softmax(QK^T/√d) V ∈ R^(n × v)
            stated(said[0], said[1], start, end)
            continue
        if said is not None or "=" not in plain:
            continue
        try:
            members, relations = calc.parse_chain(plain)
        except Unreadable:
            continue
        if set(relations) != {"="} or any(calc.literal(m) is not None for m in members):
            continue  # numbers are arithmetic's to check
        shapes.checked = []
        try:
            found = [shapes.of(m, premises) for m in members]
        except Mismatch as exc:
            claim(start, end, False, Said("not defined: ") + exc.said, rule)
            continue
        name = shapes.name_of(members[0])
        if name is not None and (name in shapes.known or shapes._symbol(name) is None):
            # Q = X W_q defines Q (anew, where a section reuses the letter): its product is
            # checked, its left side takes the shape the right side makes
            made = next((s for s in reversed(found[1:]) if s is not None), None)
            data = _data_of(members[1]) if len(members) == 2 else None
            later = (
                line.text[end:] + " " + " ".join(x.text for x in au.doc.block(line) if x.number > line.number)
            )
            unaligned = None if _redefined(name, later) else _unaligned(au, name, made, premises, data)
            shapes.made_from[name] = data
            if unaligned is not None:
                claim(start, end, False, unaligned, rule)
                continue
            if made is not None:
                shapes.declare(name, made)
            if shapes.checked and made is not None:
                claim(start, end, True, Said(typeset(made), ": ", shapes.checked[0]), rule)
            continue
        # An equation between values (a_ij = softmax(q_i k_j^T / √d_k) = ...) says more than that
        # its sides have one shape: sides of one shape certify nothing, sides of two are wrong.
        known = [s for s in found if s is not None]
        if len(known) >= 2 and not all(same_shape(known[0], s, premises) for s in known[1:]):
            claim(start, end, False, Said.join(" is not ", [Said(typeset(s)) for s in known]), rule)
        elif name is not None and len(members) == 2 and shapes.checked and known:
            # e_ij = q_j · k_i / √D_k names what its products make: that they are defined is its claim
            claim(start, end, True, Said(typeset(known[-1]), ": ", shapes.checked[0]), rule)
    for m in _SAID_SHAPE.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        subject = _subject(line, m.start())
        if subject is not None and re.fullmatch(r"\s*\d[\d,.]*\s*", subject[1]):
            continue  # "8 heads of dimension 64": a count of things, each of that size
        dims = read_dims(m.group("dims"))
        if subject is not None and dims is not None and not _bare(subject[1]) and "×" not in subject[1]:
            stated(subject[1], dims, subject[2], m.end())
        elif dims is not None and subject is None:
            misfit = _where_misfit(au, line, m.start(), premises)
            if misfit is not None:
                claim(m.start(), m.end(), False, Said("not defined: ") + misfit.said, rule)


#: The letters of queries and keys, each with the other: a query is matched with a key by a dot
#: product, so the two have one width.
_PARTNER = {"Q": "K", "K": "Q"}
_ROLES = re.compile(r"\bquer(?:y|ies)\b.*\bkeys?\b|\bkeys?\b.*\bquer(?:y|ies)\b", re.I | re.S)


def _unaligned(au, name: str, made: Shape | None, premises: dict, data: str | None):
    """Why queries (or keys) defined anew as ``made`` can no longer be matched with the keys (or
    queries) the text has: the rows of Q and K are dotted, so their widths must agree
    (``Q = X W_q`` with ``W_q`` of width D_v, where the keys ``K = X W_k`` have width D_k). Read
    only where both are made alike, the data times a weight on its right (``X W_q``, ``X W_k``:
    rows are the vectors), in a text that speaks of queries and keys, does not let their widths
    differ (additive attention) and does not make them equal in so many words (``d_q = d_k``)."""
    partner = _PARTNER.get(name)
    other = au.shapes.known.get(partner) if partner else None
    if made is None or other is None or len(made) != 2 or len(other) != 2:
        return None
    if data is None or au.shapes.made_from.get(partner) != data:
        return None  # Q = W_q^T X^T (columns), Q = U V (something else): not the keys' kind
    if _same(made[1], other[1], premises) or not au.doc.once("roles of Q and K", _speaks_of_roles):
        return None
    if _equated_in(au.doc.text(), made[1], other[1]):
        return None
    from .said import Tex

    queries, keys = (made, other) if name == "Q" else (other, made)
    return _said(
        "queries of width ",
        _tex(queries[1]),
        " cannot be matched with keys of width ",
        _tex(keys[1]),
        ": the dot products of ",
        Tex("Q K^T", r"Q K^\top"),
        " are not defined",
    )


def _speaks_of_roles(doc) -> bool:
    text = doc.text()
    return bool(_ROLES.search(text)) and not _WIDTHS_DIFFER.search(text)


#: A text that lets queries and keys have widths of their own (additive attention).
_WIDTHS_DIFFER = re.compile(
    r"\badditive\b|\bneed\s+not\s+(?:agree|match|be\s+equal)|\bdifferent\s+(?:lengths|dimensions|widths|sizes)\b",
    re.I,
)


def _redefined(name: str, later: str) -> bool:
    """The partner of ``name`` (K for Q) is defined anew later in the paragraph: compare then."""
    partner = _PARTNER.get(name)
    return bool(partner and re.search(rf"⟨\s*{partner}\s*=", later))


def _data_of(node) -> str | None:
    """The data matrix a product starts with when a weight stands on its right (``X W_q``: X)."""
    if node[0] != "mul":
        return None
    left = node[1]
    while left[0] == "mul":
        left = left[1]
    return left[1] if left[0] == "sym" and not left[1].startswith("W") else None


def _equated_in(text: str, a: sp.Expr, b: sp.Expr) -> bool:
    """The text writes the two sizes equal: ``d_q = d_k``."""
    x, y = (re.escape(str(v)) for v in (a, b))
    return bool(
        re.search(rf"⟨[^⟨⟩]*(?<![\w]){x}\s*=\s*{y}(?![\w])|⟨[^⟨⟩]*(?<![\w]){y}\s*=\s*{x}(?![\w])", text)
    )


_BY_ITEMS = re.compile(r"\s*([A-Z])\s*=\s*\[\s*([a-z])_1\s*,.*?,\s*[a-z]_(\w+)\s*\]\s*")


def _listed_by_columns(line) -> list[str]:
    """The matrices ``line`` lists by their columns: ``X = [x_1, ..., x_n] ∈ R^(d × n)``, the
    count n the last size (listed by rows, n is the first)."""
    out = []
    for _tex, whole, _s, _e in line.formulas:
        for plain in _rows(whole):
            said = membership(plain)
            m = _BY_ITEMS.fullmatch(said[0]) if said else None
            if m is None or m.group(2) != m.group(1).lower() or len(said[1]) != 2:
                continue
            if str(said[1][1]) == m.group(3) and str(said[1][0]) != m.group(3):
                out.append(m.group(1))
    return out


def _naming(member: str) -> str | None:
    """The name a membership declares by a list of its parts (``Q = [Q_1, ..., Q_n]``), if so."""
    named = re.fullmatch(r"\s*([^=]+?)\s*=\s*\[[^=]*\]\s*", member)
    return named.group(1) if named and _bare(named.group(1)) else None


def _rows(plain: str) -> list[str]:
    """A display's rows (``a ∈ R^n, \\\\ b ∈ R^m.``, which the plain syntax writes with one
    backslash), each without the punctuation that ends it."""
    return [r.strip().rstrip(",.;").strip() for r in plain.split("\\") if r.strip()] or [plain]


#: A list of arrays as the last member of a chain (``[Q_1 K_1, Q_2 K_2, ..., Q_n K_n]``).
_LISTED = re.compile(r"(?:[^=\[\]]*=\s*)?\[(?P<items>[^\[\]]*)\]\s*")


def _chain(expression: str) -> tuple[list, list]:
    """The chain's members and relations; where its first member does not read (a function of
    two arguments, ``a(q, k) = ...``), the members after the first equals sign."""
    try:
        return calc.parse_chain(expression)
    except Unreadable:
        first, equals, rest = expression.partition("=")
        if not equals or not re.fullmatch(r"\s*\w+\s*\([^()=]*\)\s*", first):
            raise
        return calc.parse_chain(rest)


def _equated(au, a: sp.Expr, b: sp.Expr) -> bool:
    """Whether the text writes the two sizes equal somewhere (``d_k = d``, ``d = d_k = d_v``)."""
    if not (isinstance(a, sp.Symbol) and isinstance(b, sp.Symbol)):
        return False
    names = "|".join(re.escape(x.name) for x in (a, b))
    chain = rf"⟨[^⟩]*\b(?:{names})\s*=\s*(?:[^⟩=]*=\s*)*(?:{names})\b[^⟩]*⟩"
    return any(
        re.search(rf"\b{re.escape(a.name)}\b", m.group(0))
        and re.search(rf"\b{re.escape(b.name)}\b", m.group(0))
        for m in re.finditer(chain, au.doc.text())
    )


def _where_misfit(au, line, at: int, premises: dict) -> Mismatch | None:
    """A shape declared on ``line`` for a name an equation of its sentence, on an earlier line,
    multiplies ("⟨K = X W_k⟩ where ⟨W_k⟩ is a / learnable weight matrix of shape ⟨D_k × D_x⟩"):
    the product the declaration leaves undefined (the equation's own line says so too; the
    declaration is where the error was written)."""
    sentence, offset = au.doc.sentence(line, at)
    equations = re.findall(r"⟨([^⟩]*=[^⟩]*)⟩", sentence[:offset])
    on_line = {plain for _, plain, _, _ in line.formulas}
    for plain in equations:
        if plain in on_line:
            continue  # read with the line's own formulas
        try:
            members, relations = calc.parse_chain(plain)
        except Unreadable:
            continue
        if set(relations) != {"="}:
            continue
        try:
            for member in members:
                au.shapes.of(member, premises)
        except Mismatch as exc:
            return exc
    return None


def _declarations(line, before=None) -> list[tuple[str, Shape]]:
    """(name, shape) for each shape ``line`` declares: ``X ∈ R^(N × D)`` and "⟨X⟩ of shape ⟨N ×
    D⟩" (``Q, K ∈ ...`` declares both). ``before``: the paragraph's line before it, where a
    sentence wrapped onto this line may name its subject."""
    out = []
    for _tex, whole, _s, _e in line.formulas:
        for plain in _rows(whole):
            said = membership(plain)
            if said is None:
                continue
            named = _naming(said[0])
            if named:  # Q = [Q_1, ..., Q_n] ∈ R^(n × a × b) names Q
                out.append((named, said[1]))
            elif "=" not in said[0]:  # Q, K ∈ R^(n × d) names both
                out += [(n.strip(), said[1]) for n in said[0].split(",") if _bare(n.strip())]
    for m in _SAID_SHAPE.finditer(line.text):
        subject = _subject(line, m.start()) or _wrapped_subject(before, line, m.start())
        dims = read_dims(m.group("dims"))
        if subject is not None and dims is not None and _bare(subject[1]):
            out.append((subject[1].strip(), dims))
    return out


def _subject(line, before: int) -> tuple[str, str, int] | None:
    """The formula nearest before ``before`` in its sentence (within 80 characters, or any
    distance when a word of result stands between: "⟨QK^T⟩ performs ..., resulting in a
    matrix of the shape"): (tex, plain, start)."""
    a, _ = line.sentence_at(before)
    best = None
    for tex, plain, start, end in line.formulas:
        between = line.text[end:before]
        far = before - end > 80 and not re.search(r"\bresult(?:ing|s) in\b|\bgives\b|\byields\b", between)
        if a <= start and end <= before and not far:
            best = (tex, plain, start)
    return best


def _wrapped_subject(before, line, at: int) -> tuple[str, str, int] | None:
    """The last formula of the line ``before``, when the sentence runs on from it to ``at`` on
    ``line`` (no sentence ends between) within 80 characters: "... where ⟨W_k⟩ is a / learnable
    weight matrix of shape ..." wrapped at the line's end."""
    if before is None or not before.formulas or re.search(r"[.;:!?]\s", line.text[:at]):
        return None
    tex, plain, start, end = before.formulas[-1]
    after = before.text[end:]
    if re.search(r"[.;:!?](?:\s|$)", after) or len(after) + at > 80:
        return None
    if not re.match(r"\s*(?:is|are|has|have)\b", after):
        return None  # "K = X W_k, with ... W_k, form a / matrix of": the formula is not the subject
    return tex, plain, start


def _bare(plain: str) -> bool:
    """A formula that only names something: ``W_k``, ``W^(O)``, ``Y``."""
    return bool(re.fullmatch(r"[A-Za-z](?:_(?:\([^()]*\)|\w+))?(?:\^\((?!T\))\w+\))?", plain.strip()))


#: "an ⟨n × d⟩ matrix is multiplied by a ⟨d × n⟩ matrix, then the output ⟨n × n⟩ matrix ...":
#: products named in words by their operands' shapes, and the output said of them.
_OPERAND = r"⟨(?P<{0}>[^⟨⟩]*×[^⟨⟩]*)⟩\s+(?:matrix|matrices|tensor)"
_NAMED_PRODUCT = re.compile(
    r"\b(?:an?|the)\s+(?:\w+\s+){0,2}?" + _OPERAND.format("left") + r"\s+(?:is\s+|are\s+)?multiplied\s+"
    r"(?:by|with)\s+(?:an?|the)\s+(?:\w+\s+){0,2}?" + _OPERAND.format("right")
)
_OUTPUT = re.compile(r"\b(?:the\s+)?(?:output|result|resulting|product)\s+" + _OPERAND.format("out"))


def named_products(au, line, add, covered) -> None:
    """A product named in words by its operands' shapes must have matching inner sizes (the
    claim stands on the line of the right operand); "the output ⟨n × n⟩ matrix" said just after
    it must have the outer sizes. Read over the sentence, wrapped across lines or not."""
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Said

    rule = "shapes: a product named in words by its operands' shapes"
    premises = au.premises(line)
    for _, _, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        sentence, at = au.doc.sentence(line, start)
        if re.search(
            r"from the left|on the left|left-multipl|Kronecker|⊗|outer product|element-?wise|Hadamard",
            sentence,
            re.I,
        ):
            continue  # another product than A times B in the order named
        made = None
        for m in _NAMED_PRODUCT.finditer(sentence):
            left, right = read_dims(m.group("left")), read_dims(m.group("right"))
            if left is None or right is None or len(left) != 2 or len(right) != 2:
                continue
            ok = _same(left[1], right[0], premises) or _equated(au, left[1], right[0])
            if m.start("right") - 1 == at:  # the product, read on the line of its right operand
                said = Said(typeset(left), " by ", typeset(right), ": " if ok else " is not defined: ")
                said = said + (Said(typeset((left[0], right[1]))) if ok else Said("inner sizes differ"))
                verdict = CERTIFIED if ok else WRONG
                add(Claim(line.number, line.text[start:end], verdict, said, rule, [(start, end)]))
            if ok and m.end() <= at:
                made = (m.end(), (left[0], right[1]))
        out = (
            next((o for o in _OUTPUT.finditer(sentence, made[0]) if o.start("out") - 1 == at), None)
            if made
            else None
        )
        if out is None or out.start() - made[0] > 40:
            continue
        dims = read_dims(out.group("out"))
        if dims is None or len(dims) != 2:
            continue
        ok = all(_same(a, b, premises) or _equated(au, a, b) for a, b in zip(dims, made[1], strict=True))
        verdict = CERTIFIED if ok else WRONG
        add(Claim(line.number, line.text[start:end], verdict, Said(typeset(made[1])), rule, [(start, end)]))


#: "where ⟨W^(0)⟩ and ⟨W^(1)⟩ are (D, ED)- and (ED, D)-shaped matrices, respectively".
_RESPECTIVELY = re.compile(
    r"⟨(?P<a>[A-Z][^⟨⟩]{0,12})⟩\s+and\s+⟨(?P<b>[A-Z][^⟨⟩]{0,12})⟩\s+are\s+(?P<sa>\([^()]*\))-?\s+and\s+"
    r"(?P<sb>\([^()]*\))-shaped\s+(?:matrices|tensors|weights)"
)
DISPLAY_RULE = "shapes: each index of the display runs over one range, in every tensor it indexes"


def _against_display(au, line, declared: dict[str, tuple]) -> tuple[bool, object] | None:
    """The shapes declared for the display just before ("⟨z_(bsd') W^(0)_(d'e)⟩ ... ⟨W^(1)_ed⟩"):
    an index the two share runs over one range in both, and an index of another tensor of the
    display (z_(bsd'), whose d runs to D) over the range the text gives it. None unless both
    tensors stand in the display with one index per axis."""
    from .indices import index_sizes
    from .said import Math, Said

    block = au.doc.block(line) if line.kind == "prose" else [line]
    display = au.previous_block(line) + "\n" + "\n".join(x.text for x in block if x.number < line.number)
    ranges: dict[str, list[tuple[str, sp.Expr]]] = {}
    for name, sizes in declared.items():
        found = re.search(re.escape(name) + r"_\(?(?P<indices>[a-z' ]+?)\)?(?=[\s)*⟩,]|$)", display)
        indices = re.findall(r"[a-z]'*", found.group("indices")) if found else []
        if len(indices) != len(sizes):
            return None
        for index, size in zip(indices, sizes, strict=True):
            ranges.setdefault(index.rstrip("'"), []).append((name, size))
    known = au.doc.once("index sizes", index_sizes)
    subscripts = re.findall(r"(?<![\w^)])[a-z]_(?:\(([a-z' ]+)\)|([a-z']+))", display)
    others = {o.rstrip("'") for pair in subscripts for o in re.findall(r"[a-z]'*", "".join(pair))}
    problems, shown = [], []
    for index, given in ranges.items():
        sizes = {size for _, size in given}
        if index in others and index in known:
            sizes.add(known[index][0])
        runs = Said(f"{index} runs to ", Said.join(" and to ", [Math(x) for x in sorted(sizes, key=str)]))
        shown.append(runs)
        if len(sizes) > 1:
            problems.append(runs)
    if not any(len(g) > 1 for g in ranges.values()) and not problems:
        return None  # no index shared: nothing compared
    return (not problems, Said.join("; ", problems or shown))


#: "This block requires ⟨2 E D^2⟩ parameters per layer, only counting ... weights".
_PARAMETERS = re.compile(
    r"\b(?:requires|require|carry|carries|has|have|uses|needs)\s+⟨(?P<count>[^⟨⟩]+)⟩\s+(?:total\s+)?parameters"
)


def parameter_claims(au, line, add, covered) -> None:
    """Weight matrices declared with their shapes in words ("⟨W^(0)⟩ and ⟨W^(1)⟩ are (D, ED)- and
    (ED, D)-shaped matrices, respectively"), then a count of the section's parameters said in
    the text's letters: the sum of the weights' sizes (products of the letters, SymPy)."""
    from .letters import read
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Math, Said

    for m in _RESPECTIVELY.finditer(line.text):
        declared = au.shapes.weights.setdefault(line.section, {})
        both = {}
        for name, shape in ((m.group("a"), m.group("sa")), (m.group("b"), m.group("sb"))):
            sizes = _letter_sizes(shape[1:-1])
            if sizes is not None:
                declared[name.strip()] = both[name.strip()] = sizes
        if len(both) == 2 and not inside(covered, *m.span()):
            checked = _against_display(au, line, both)
            if checked is not None:
                ok, said = checked
                verdict = CERTIFIED if ok else WRONG
                add(Claim(line.number, m.group(0), verdict, said, DISPLAY_RULE, [m.span()]))
    for m in _TRAINABLE.finditer(line.text) if au.index_letters else ():
        sizes = _indexed_sizes(m.group("names"), au.index_letters)
        if sizes:  # ⟨gamma_d, beta_d⟩ are the trainable ... parameters: D each, for this paragraph
            au.shapes.weights[("paragraph", line.block)] = sizes
    for _tex, _plain, start, end in line.formulas:
        weights = au.shapes.weights.get(("paragraph", line.block)) or au.shapes.weights.get(line.section, {})
        sentence_before = line.text[:start]
        if not weights and _MATRICES.search(sentence_before) and not _PART_OF.search(sentence_before):
            weights = _applied_weights(au, line)  # "the weight matrices which carry"
        if inside(covered, start, end) or not weights:
            continue
        sentence, at = au.doc.sentence(line, start)  # "require" may end the line before
        m = next((m for m in _PARAMETERS.finditer(sentence) if m.start("count") - 1 == at), None)
        stated = read(m.group("count")) if m else None
        if stated is None:
            continue
        if _OTHER_NORM.search(sentence):
            continue  # "RMSNorm, which drops the bias": other parameters than those declared
        clause = _clause(sentence, at)  # "A single instance has 2D, and the two together have 4D"
        if _ACROSS.search(sentence):
            continue  # "across the 12 blocks": counted over more than the instances, not read
        copies = None if _ONE_EACH.search(clause) else _INSTANCES.search(clause)
        times = int(_NUMBER_WORDS.get(copies.group("n").lower(), copies.group("n"))) if copies else 1
        total = times * sum(sp.Mul(*shape) for shape in weights.values())
        ratio = sp.simplify(stated / total)
        if not ratio.is_number:
            continue  # counts something else than these weights
        said = Said(" + ".join(f"{n}: {_show(s)}" for n, s in weights.items()))
        said = (Said(f"{times} × (", said, ")") if times != 1 else said) + Said(" = ", Math(total))
        add(
            Claim(
                line.number,
                line.text[start:end],
                CERTIFIED if ratio == 1 else WRONG,
                said,
                "shapes: parameters of the weights the section declares (the product of each one's sizes)",
                [(start, end)],
            )
        )


#: "the weight matrices which carry": all the section's weights, named in its formulas.
_MATRICES = re.compile(r"\bweight\s+matrices\s+(?:which|that)\s+(?:carry|hold|have|contain)\s*$", re.I)
#: A weight applied to an activation in index notation: ``z_bsd Q_dea``, ``u_(bsd') O_(d'd)``.
_APPLIED = re.compile(
    r"(?<![\w^)])[a-z]_(?:\([a-z' ]+\)|[a-z']+)\s+(?P<name>[A-Z])_(?:\((?P<p>[a-z' ]+)\)|(?P<q>[a-z']+))"
)


#: The weights of part of the section only: "in attention alone", "only the query weights".
_PART_OF = re.compile(
    r"\b(?:alone|only|of\s+the\s+(?:attention|MLP|feed-?forward)|in\s+(?:the\s+)?(?:attention|MLP))\b", re.I
)


def _applied_weights(au, line) -> dict[str, tuple]:
    """The weights the section applied to activations before ``line``, in index notation, each
    with its sizes (an index runs to the size the text gives it, or to its capital: d to D)."""
    from .indices import index_range, index_sizes

    if not au.index_letters:
        return {}
    sizes = au.doc.once("index sizes", index_sizes)
    out: dict[str, tuple] = {}
    for x in au.doc.lines:
        if x.number >= line.number:
            break
        if x.section != line.section:
            continue
        for _tex, plain, _s, _e in x.formulas:
            for m in _APPLIED.finditer(plain):
                indices = [i.rstrip("'") for i in re.findall(r"[a-z]'*", m.group("p") or m.group("q"))]
                if set(indices) <= au.index_letters:
                    out.setdefault(m.group("name"), tuple(index_range(i, sizes) for i in indices))
    # a capital tensor of the section applied otherwise (``\phi(h) U_{fd}``) may be a weight
    # too: the count would miss it, so nothing is counted
    others = {
        m.group(1)
        for x in au.doc.lines
        if x.section == line.section and x.number < line.number
        for _tex, plain, _s, _e in x.formulas
        for m in re.finditer(r"(?<![\w^])([A-Z])_(?:\([a-z' ]+\)|[a-z']+)", plain)
    }
    return out if len(out) > 1 and others <= set(out) else {}


#: "where ⟨gamma_d, beta_d⟩ are the trainable scale and bias parameters", in index notation.
_TRAINABLE = re.compile(r"⟨(?P<names>[^⟨⟩]+)⟩\s+(?:is|are)\s+(?:the\s+)?(?:[\w-]+\s+){0,5}?parameters\b")
#: "Since there are two LayerNorm instances in each block": the parameters counted that many times.
_INSTANCES = re.compile(
    r"\b(?P<n>two|three|four|five|six|eight|\d+)\s+(?:\S+\s+){0,2}?(?:instances|copies)\b", re.I
)
#: A count said of one instance: "each of the two instances has", "a single instance", "each LayerNorm".
_ONE_EACH = re.compile(
    r"\beach\s+(?:of\b|one\b|instance\b|copy\b|layer\s*norm\b|layernorm\b)|\bsingle\b|\bper\s+instance\b",
    re.I,
)
#: A count over blocks or layers as well: "across the 12 blocks", "in all 24 layers".
_ACROSS = re.compile(
    r"\b(?:across|over)\b|\ball\s+(?:⟨\s*)?\d+|"
    r"\b(?:⟨\s*)?(?:\d+|two|three|four|five|six|eight|ten|twelve|several|many)\s*⟩?\s+(?:\w+\s+)?(?:blocks|layers)\b",
    re.I,
)
#: A normalisation with other parameters than the ones declared.
_OTHER_NORM = re.compile(
    r"\bRMS\s*Norm\b|\bdrops?\s+the\s+bias\b|\bwithout\s+(?:a\s+)?bias\b|\bno\s+bias\b", re.I
)


def _clause(sentence: str, at: int) -> str:
    """The clause of ``sentence`` that holds position ``at``: cut at ", and", ", but", ";"."""
    cuts = [0] + [m.end() for m in re.finditer(r",\s*(?:and|but|while|whereas)\b|;", sentence)]
    start = max(c for c in cuts if c <= at)
    ends = [m.start() for m in re.finditer(r",\s*(?:and|but|while|whereas)\b|;", sentence) if m.start() > at]
    return sentence[start : min(ends) if ends else len(sentence)]


_NUMBER_WORDS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "eight": "8"}


def _indexed_sizes(names: str, letters: set[str]) -> dict[str, tuple] | None:
    """``gamma_d, beta_d``: each tensor's sizes, the capitals of its indices (d runs to D); None
    unless every name carries indices the text uses."""
    from .letters import read

    out = {}
    for name in (n.strip() for n in names.split(",")):
        m = re.fullmatch(r"(\w+?)_\(?([a-z]+)\)?", name)
        if m is None or not set(m.group(2)) <= letters:
            return None
        out[name] = tuple(read(x.upper()) for x in m.group(2))  # as the text's letters are read
    return out


def _letter_sizes(text: str) -> tuple | None:
    """``D, ED``: each size in the text's letters (ED is E·D), or None."""
    from .letters import read

    sizes = tuple(read(part.strip()) for part in text.split(","))
    return None if any(size is None for size in sizes) else sizes


#: The output projection and the value weights of multi-head attention, by their names.
_OUTPUT_WEIGHT = re.compile(r"^W(?:\^\(?[Oo]\)?|_\(?[Oo]\)?)$")
_VALUE_WEIGHT = re.compile(r"^W(?:_\(?[^()^]*\)?)?\^\(?V\)?(?:_\(?[^()]*\)?)?$|^W_\(?V\)?$")
#: Concat(head_1, ..., head_h): the last head's index is the number of heads.
_CONCAT = re.compile(r"Concat\s*\(\s*head_\(?\w+\)?\s*,[^()]*?head_\(?(?P<h>[A-Za-z])\)?\s*\)\s*W", re.I)


def output_projection(au, line, add, covered) -> None:
    """``W^O ∈ R^(h d_v × d_out)`` where the text joins the heads, Concat(head_1, ..., head_h)
    W^O, each head of the width its value weights give (``W_i^V ∈ R^(D × d_v)``): the rows
    of W^O are the h heads' widths side by side. Rows of one head's width are wrong; other
    sizes (a relation the text may state elsewhere) are not judged."""
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Math, Said

    for _tex, plain, start, end in line.formulas:
        said = membership(plain)
        if said is None or not _OUTPUT_WEIGHT.match(said[0].strip()) or inside(covered, start, end):
            continue
        joined = _heads_joined(au.doc)  # looked for once a W^O is declared, and kept
        if joined is None:
            return
        heads, width = joined
        rows = _joined_letters(said[1][0], heads)
        want = heads * _plain_symbols(width)
        if _plain_symbols(rows) == want:
            verdict = CERTIFIED
        elif _plain_symbols(rows) == _plain_symbols(width):
            verdict = WRONG
        else:
            continue
        said_ = Said("rows of ", Math(want), ": the heads' outputs side by side")
        rule = "shapes: Concat(head_1, …, head_h) W^O, each head as wide as its value weights"
        add(Claim(line.number, line.text[start:end], verdict, said_, rule, [(start, end)]))


def _heads_joined(doc) -> tuple[sp.Symbol, sp.Basic] | None:
    """(h, the value weights' width d_v) where the text joins h heads, Concat(head_1, ...,
    head_h) W, and declares its value weights; once a document (kept on it)."""
    return doc.once("heads joined", _find_heads_joined)


def _find_heads_joined(doc) -> tuple[sp.Symbol, sp.Basic] | None:
    joined = _CONCAT.search(doc.text())
    width = None
    if joined is not None:
        width = next(
            (s[1] for x in doc.lines for name, s in _declarations(x) if _VALUE_WEIGHT.match(name)), None
        )
    return None if width is None else (sp.Symbol(joined.group("h")), width)


def _plain_symbols(e: sp.Basic) -> sp.Basic:
    """``e`` with its letters free of assumptions, so that sizes written apart compare."""
    return e.xreplace({s: sp.Symbol(s.name) for s in e.free_symbols})


def _joined_letters(e: sp.Basic, heads: sp.Symbol) -> sp.Basic:
    """``hd_v`` read as h · d_v: the number of heads written against a width."""
    out = {}
    for s in e.free_symbols:
        if (
            s.name.startswith(heads.name)
            and len(s.name) > len(heads.name)
            and s.name[len(heads.name)] in "dD"
        ):
            out[s] = sp.Symbol(heads.name) * sp.Symbol(s.name[len(heads.name) :])
    return e.xreplace(out)
