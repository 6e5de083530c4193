"""The cost of contracting arrays whose axes are named: ``A[B, T, D] · W[D, F]`` (issue 47).

Texts on what a transformer costs (the JAX scaling book and the notes that follow it) give each
array its axes by letter, ``A[B,T,D]``, and count a contraction as a careful reader counts it:

- **FLOPs**: a multiply and an add for each combination of the axes of both operands, an axis
  they share (contracted or batched) counted once: ``2·B·T·D·F`` for ``A[B,T,D] · W[D,F]``;
  ``2NP`` for ``A[N,P] x[P]``;
- **training FLOPs**: three times that (the product itself, then one product of the same size
  for each operand's gradient);
- **data**: the elements of both operands (``NP + P``);
- **parameters** of a weight: its elements (``DF``).

Shapes are read where the text gives them: ``X[...]`` in a formula (an axis a letter, or a
name such as ``d_model``; ``[GHIJKL]`` is six axes) and rows of a table that pair a name with
its shape (``A & [N P]``). A claim is then decided in two places:

- a **table** whose header names FLOPs, training FLOPs, data or parameters, with an operation
  in each row's first cell: each cell against the operation's cost, and a row of totals (its
  first cell empty) against the sum of the rows above it that state an exact cost (a cost given
  only as ``O(...)`` is left out of the sum, and the total may then be written with ``≈``);
- a **sentence** that names an operation of arrays with known shapes (``$Ax$``) and a cost
  followed by "FLOPs" or "floating-point operations" (``for $2NP$ FLOPs``).

Each cost is compared in the text's letters (every letter a positive size): equal is certified;
anything else is wrong, since the letters are the axes' sizes, which no relation among them
makes equal. Where a total goes on in a chain (``12BTSNH = 12BT^2NH``) the later members are
compared with it by :mod:`.letters`: where they agree only with one length put for another,
certified when the text states that equality ("T and S are the same"), else left unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from . import calc, letters
from .document import Line
from .match import CERTIFIED, UNCHECKED, WRONG, Claim, inside
from .said import Math, Said
from .stated import Unreadable

#: How each quantity is counted, as the report says it.
RULES = {
    "flops": "contraction FLOPs: a multiply and an add for each combination of both operands' axes, a shared "
    "axis once (a multiply alone where none is shared)",
    "train": "training FLOPs: three times the contraction's (forward, and two products backward)",
    "data": "data of a contraction: the elements of both operands",
    "params": "parameters of a contraction: the elements of its weight",
}

#: What a table's column counts, by its header's words (the whole header: "backward FLOPs",
#: "FLOPs per token" or "data (bytes)" count something else, and are not read).
_QUANTITIES = (
    (re.compile(r"train(?:ing)?\s+flops?|flops?\s*\(train(?:ing)?\)", re.I), "train"),
    (re.compile(r"(?:forward\s+)?flops?", re.I), "flops"),
    (re.compile(r"data|elements", re.I), "data"),
    (re.compile(r"param(?:eter)?s?|#\s*params", re.I), "params"),
)
#: Words that make a sentence's FLOPs count something other than one contraction's product.
_OTHER_COUNT = re.compile(
    r"\b(?:train\w*|backward|backprop\w*|gradients?|batch\w*|in all|forward|of them|both|twice|thrice|double"
    r"|triple|again|repeat\w*|times|two|three|four|five|six|seven|eight|nine|ten|[Qq], ?[Kk]"
    r"|(?:per|each|every|all)\s+(?:tokens?|layers?|heads?|steps?|examples?|sequences?))\b|[x×]\s?\d",
    re.I,
)
#: Words after a cost in a sentence that say it counts FLOPs.
_FLOPS_AFTER = re.compile(r"\s*(?:\w+\s+){0,2}?(?:FLOPs?\b|floating[- ]point operations)")
_OPERAND = re.compile(r"(?P<name>[A-Za-z](?:_[A-Za-z0-9]+)?)\s*\[(?P<axes>[^\[\]]*)\]")
_ARRAY = r"[A-Za-z](?:_[A-Za-z0-9]+)?\s*\[[^\[\]]*\]"
#: Two arrays with their axes, multiplied: ``A[B,T,D] \cdot W[D,F]``.
_CONTRACTION = re.compile(rf"\s*{_ARRAY}\s*(?:\\cdot|·)\s*{_ARRAY}\s*")
_STYLES = re.compile(r"\\(?:textrm|text|mathrm|mathbf|mathsf|textsf|mathit|boldsymbol|operatorname)\s*(?=\{)")


@dataclass(frozen=True)
class Operation:
    left: tuple[str, ...]
    right: tuple[str, ...]
    #: The weight, whose size is its parameters: the one operand named W (None: not said which).
    weight: tuple[str, ...] | None

    def cost(self, quantity: str) -> sp.Expr | None:
        """What the contraction costs in ``quantity``, or None when the text must say which
        product it means (both operands with the same several axes: entry by entry, or summed
        over all of them)."""
        if quantity == "data":
            return _size(self.left) + _size(self.right)
        if quantity == "params":
            return _size(self.weight) if self.weight is not None else None
        shared = set(self.left) & set(self.right)
        if set(self.left) == set(self.right) and len(shared) > 1:
            return None
        size = _size(dict.fromkeys(self.left + self.right))
        flops = size if not shared else 2 * size  # an outer product adds nothing up
        return flops if quantity == "flops" else 3 * flops


def _size(axes) -> sp.Expr:
    return sp.Mul(*(calc.exact(("sym", a), {}) for a in axes))


def clean(tex: str) -> str:
    """A formula's LaTeX with colours, text styles, ``\\left``/``\\right`` and braces taken out
    (``A[B,T,\\textcolor{red}{D}]`` is ``A[B,T,D]``; ``W_{in1}`` is ``W_in1``)."""
    tex = re.sub(r"\\(?:textcolor|colorbox)\s*\{[^{}]*\}", "", tex)
    tex = re.sub(r"\\color\s*\{[^{}]*\}", "", tex)
    tex = _STYLES.sub("", tex)
    tex = re.sub(r"\\(?:left|right|big|Big)\b", "", tex)
    tex = re.sub(r"\\[,;:! ]|~", " ", tex)
    return re.sub(r"\s+", " ", tex.replace("{", "").replace("}", "")).strip()


def axes_of(text: str) -> tuple[str, ...] | None:
    """The axes inside ``[...]``: by commas, else by spaces; a run of capitals is one axis per
    letter (``GHIJKL``); None for anything else (``c_0,...,c_N``, numbers)."""
    parts = [p.strip() for p in (text.split(",") if "," in text else text.split())]
    out: list[str] = []
    for p in parts:
        if re.fullmatch(r"[A-Z]{2,8}", p):
            out += list(p)
        elif re.fullmatch(r"[A-Za-z](?:_[A-Za-z0-9]+)?|[a-z]+(?:_[a-z]+)*", p):
            out.append(p)
        else:
            return None
    return tuple(out) if out else None


class Axes:
    """The shapes the text has given its arrays so far, by name (a later one wins)."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[str, ...]] = {}
        self.blocks: set[int] = set()

    def learn(self, text: str) -> None:
        for m in _OPERAND.finditer(text):
            axes = axes_of(m.group("axes"))
            if axes:
                self.known[m.group("name")] = axes

    def learn_row(self, cells: list[str]) -> None:
        """A table row that pairs a name with its shape: ``x & [P]``."""
        if len(cells) >= 2 and re.fullmatch(r"[A-Za-z](?:_\w+)?", cells[0]):
            m = re.fullmatch(r"\[([^\[\]]*)\]", cells[1])
            if m and (axes := axes_of(m.group(1))):
                self.known[cells[0]] = axes

    def operation(self, text: str) -> Operation | None:
        """The contraction a formula writes: ``X[...] · Y[...]``, or two arrays of known shape
        side by side (``AB``, ``A x``, ``x · y``); None for anything else."""
        if _CONTRACTION.fullmatch(text):
            found = [(o.group("name"), axes_of(o.group("axes"))) for o in _OPERAND.finditer(text)]
        elif m := re.fullmatch(r"\s*([A-Za-z])\s*(?:\\cdot|·)?\s*([A-Za-z])\s*", text):
            found = [(name, self.known.get(name)) for name in m.groups()]
        else:
            return None
        if len(found) != 2 or not all(axes for _, axes in found):
            return None
        weights = [axes for name, axes in found if name.startswith("W")]
        return Operation(found[0][1], found[1][1], weights[0] if len(weights) == 1 else None)


def contraction_claims(au, line: Line, add: Callable, covered: list) -> None:
    """Costs of contractions in the line's table row or sentences (see the module's docstring)."""
    axes: Axes = au.axes
    if line.block not in axes.blocks:  # a paragraph's shapes are read before its claims
        axes.blocks.add(line.block)
        for x in au.doc.block(line):
            for tex, _plain, _s, _e in x.formulas:
                axes.learn(clean(tex))
            if x.kind == "table":
                columns = _columns(x)
                width = max(columns, default=-1) + 1
                axes.learn_row([clean(columns[k][0]) if k in columns else "" for k in range(width)])
    if line.kind == "table":
        _table_row(au, line, add, covered)
    else:
        _sentences(au, line, add, covered)
        _example_pair(au, line, add, covered)


#: "the FLOPs cost of this contraction is two times the product ... (e.g. ⟨2GHIJMN KL⟩)".
_THIS_CONTRACTION = re.compile(r"\bFLOPs?\s+cost\s+of\s+this\s+contraction\b[^.]{0,200}?\(e\.g\.,?\s*$", re.I)
#: Two arrays named side by side, the example's operands: ``C[GHIJ KL], D[GHMN KL]``.
_PAIR = re.compile(rf"^\s*(?:e\.g\.\s*)?{_ARRAY}\s*,\s*{_ARRAY}\s*$")


def _example_pair(au, line: Line, add: Callable, covered: list) -> None:
    """The cost of an example contraction a sentence gives, of the two arrays the paragraph
    named side by side just before it."""
    if re.search(
        r"multiply-adds?\b[^.]{0,30}\bone\s+FLOP|\bMACs?\b|multiply-accumulate", au.doc.block_text(line), re.I
    ):
        return  # a multiply-add counted as one FLOP: another count than two per pair
    for tex, plain, start, end in line.formulas:
        if inside(covered, start, end) or not _THIS_CONTRACTION.search(line.text[:start]):
            continue
        pairs = [clean(t) for t, _p, s, _e in line.formulas if s < start and _PAIR.match(clean(t))]
        if not pairs:
            continue
        found = [axes_of(o.group("axes")) for o in _OPERAND.finditer(pairs[-1])]
        stated = _stated(plain, au.relations)
        if len(found) != 2 or not all(found) or stated is None:
            continue
        expected = Operation(found[0], found[1], None).cost("flops")
        if expected is not None:
            _judge(line, (tex, plain, start, end), stated[0], expected, RULES["flops"], add)


def _columns(line: Line) -> dict[int, tuple[str, str, int, int]]:
    """The row's formulas by the cell they stand in (0 the first; the last formula of a cell)."""
    cells = line.cells()
    return {k: f for f in line.formulas for k, (a, b) in enumerate(cells) if a <= f[2] < b}


def _cell_texts(line: Line) -> list[str]:
    """The text of each cell of a table row (its formulas as ``⟨...⟩``)."""
    return [line.text[a:b].strip() for a, b in line.cells()]


def _header(au, line: Line) -> tuple[Line, dict[int, str]] | None:
    """The line's table's first row, and what each of its columns counts, if it names one: a
    header cell in words or in math (``\\textrm{train FLOPs}``), the whole of it."""
    rows = [x for x in au.doc.block(line) if x.kind == "table"]
    if not rows or rows[0] is line:
        return None
    columns = _columns(rows[0])
    out = {}
    for k, text in enumerate(_cell_texts(rows[0])):
        words = clean(columns[k][0]) if k in columns else re.sub(r"[*_`]", "", text)
        if re.search(r"\b(?:count|number|times|copies|repeats?)\b|^#$|×", words, re.I):
            return None  # a column that multiplies the rows: each row counts more than one product
        quantity = next((q for pattern, q in _QUANTITIES if pattern.fullmatch(words.strip())), None)
        if quantity:
            out[k] = quantity
    return (rows[0], out) if out else None


def _stated(plain: str, relations: list) -> tuple[list[sp.Expr], bool] | None:
    """A cell's cost as values in the letters, a chain's members in turn, with the relations the
    text assumed put in, and whether it is said approximately (a leading ``≈``); None for a cell
    that gives an order (``O(BTF)``) or no cost."""
    rough = bool(re.match(r"\s*(?:≈|~)", plain))
    plain = re.sub(r"^\s*(?:≈|=|~)\s*", "", plain)
    if re.search(r"\bO\s*\(", plain):
        return None
    try:
        members, signs = calc.parse_chain(plain)
    except Unreadable:
        return None
    if set(signs) - {"=", "≈"}:
        return None
    values = [letters.value(m, {}, relations) for m in members]
    if not values or not all(v is not None and v.free_symbols for v in values):
        return None
    return values, rough


def _table_row(au, line: Line, add: Callable, covered: list) -> None:
    found = _header(au, line)
    if found is None:
        return
    _, header = found
    columns = _columns(line)
    if re.match(r"\|\s*\|", line.text):  # a row of totals: its first cell is empty
        _totals(au, line, found, columns, add, covered)
        return
    op = _row_operation(au, line, columns)
    if op is None:
        return
    for column, quantity in header.items():
        cell = columns.get(column)
        if cell is None or column == 0 or inside(covered, cell[2], cell[3]):
            continue
        stated, cost = _stated(cell[1], au.relations), op.cost(quantity)
        if stated is not None and cost is not None:
            _judge(line, cell, stated[0], letters.assumed(cost, au.relations), RULES[quantity], add)


def _row_operation(au, line: Line, columns: dict):
    """The contraction a row's first cell writes, when the cell holds it and nothing else (a
    cell that says more, "for Q, K and V" or "(x2)", counts something else)."""
    cells = _cell_texts(line)
    if 0 not in columns or not cells or cells[0] != line.text[columns[0][2] : columns[0][3]]:
        return None
    return au.axes.operation(clean(columns[0][0]))


def _totals(au, line: Line, found: tuple, columns: dict, add: Callable, covered: list) -> None:
    """A row of totals against the rows above it, up to the header or the row of totals before."""
    first, header = found
    rows = [x for x in au.doc.block(line) if x.kind == "table"]
    above: list[Line] = []
    for row in rows[rows.index(first) + 1 : rows.index(line)]:
        above = [] if re.match(r"\|\s*\|", row.text) else [*above, row]  # after a subtotal, anew
    for column, quantity in header.items():
        cell = columns.get(column)
        if cell is None or inside(covered, cell[2], cell[3]):
            continue
        stated = _stated(cell[1], au.relations)
        if stated is None:
            continue
        costs, rough = [], stated[1]
        for row in above:
            cols = _columns(row)
            if column not in cols:
                continue
            exact = _stated(cols[column][1], au.relations)
            if exact is None:
                rough = rough or bool(re.search(r"\bO\s*\(", cols[column][1]))
                continue
            op = _row_operation(au, row, cols)
            cost = op.cost(quantity) if op is not None else None
            if cost is None:
                break  # a row whose cost this rule cannot count: no total
            costs.append(letters.assumed(cost, au.relations))
        else:
            if len(costs) >= 2:
                rule = f"a total of {len(costs)} rows; {RULES[quantity]}"
                _judge_total(line, cell, stated[0], costs, rough, rule, add, au)


def _judge_total(
    line: Line, cell: tuple, stated: list, costs: list, rough: bool, rule: str, add, au=None
) -> None:
    """A total against the sum of ``costs``; said with ``≈``, it may leave out rows of lower
    order (``≈ 4BTDF`` for ``2BTDF + 2BTDF + 2BTD``), never one as large as what it keeps."""
    total = sp.Add(*costs)
    if rough and sp.expand(stated[0] - total) != 0:
        for keep in range(1, 1 << len(costs)):
            kept = [c for k, c in enumerate(costs) if keep >> k & 1]
            dropped = [c for k, c in enumerate(costs) if not keep >> k & 1]
            lower = all(_degree(c) < _degree(stated[0]) for c in dropped)
            if lower and sp.expand(stated[0] - sp.Add(*kept)) == 0:
                _judge(line, cell, stated, stated[0], rule + "; rows of lower order left out", add, au=au)
                return
    _judge(line, cell, stated, total, rule, add, au=au)


def _degree(e: sp.Expr) -> int:
    """The highest total degree of ``e`` in its letters (2BTD: 3; 2BTDF: 4)."""
    symbols = sorted(e.free_symbols, key=str)
    return sp.Poly(sp.expand(e), *symbols).total_degree() if symbols else 0


def _judge(
    line: Line, cell: tuple, stated: list, expected: sp.Expr, rule: str, add: Callable, loose=False, au=None
):
    """The cost a cell or formula states (a chain's members in turn) against ``expected``;
    ``loose``: a cost that differs by letters counts something else (unchecked), only one that
    differs by a number is wrong."""
    _tex, _plain, start, end = cell
    said = Said(Math(expected))

    def claim(verdict: str, value: Said | None, why: str) -> None:
        add(Claim(line.number, line.text[start:end], verdict, value, why, [(start, end)]))

    if sp.expand(stated[0] - expected) != 0:
        ratio = sp.simplify(stated[0] / expected)
        if loose and ratio.free_symbols:
            claim(UNCHECKED, None, rule + "; the figure counts something else (it differs by letters)")
        else:
            claim(WRONG, said, rule)
        return
    verdict, k = letters.verdict(stated) if len(stated) > 1 else ("agree", -1)
    collapsed = _collapsed(stated[k], stated[k + 1]) if verdict == "open" else None
    if collapsed is not None and (au is None or _supposed_one(au.doc.text(), collapsed)):
        collapsed = None  # "a single token per step, so T = 1": a premise, said anywhere in the text
    if verdict in ("agree", "none"):
        claim(CERTIFIED, said, rule)
        if au is not None:
            au.totals.append((line.number, expected, "flops"))
    elif verdict == "differ":
        claim(WRONG, said, rule + "; the chain's members differ")
    elif collapsed is not None:
        why = Said(Math(stated[k + 1]), " equals ", Math(stated[k]), " only if ", Math(sp.Eq(collapsed, 1)))
        claim(WRONG, why, rule + "; the chain goes on to a value that needs an axis of size 1")
    elif (premise := _premised(au, stated[k:])) is not None:
        claim(CERTIFIED, said, rule + "; " + premise)
        au.totals.append((line.number, expected, "flops"))
    else:
        claim(UNCHECKED, None, rule + "; the chain goes on to a value equal only under a premise not stated")


def _premised(au, chain: list) -> str | None:
    """How the rest of a chain follows from its first member under a premise the text states
    (``12BTSNH = 12BT^2NH`` where it says "T and S are the same"): said with its line, or None.
    Every later member must then be equal to the first with the one letter put for the other."""
    if au is None:
        return None
    pair = letters.equal_lengths(chain[0], chain[1])
    if pair is None or any(sp.expand(chain[0].xreplace({pair[0]: pair[1]}) - m) != 0 for m in chain[1:]):
        return None
    where = letters.stated_equal(au.doc, *pair)
    if where is None:
        return None
    return f'the chain goes on with {pair[0]} = {pair[1]}, as line {where[0]} states: "{where[1][:80]}"'


#: Words that make an axis of size 1: one token, one sequence, no batching.
_ONE = re.compile(
    r"\b(?:single|one)\s+(?:new\s+)?(?:token|sequence|example|step|position|batch)\b|\bwithout\s+batch\w*|\bunbatched\b"
    r"|\bone\s+(?:\w+\s+)?at\s+a\s+time\b",
    re.I,
)


def _supposed_one(text: str, axis: sp.Symbol) -> bool:
    """The text makes ``axis`` 1 somewhere: ``T = 1`` (in its math or its words), or "a single token"."""
    return bool(re.search(rf"(?<![\w^_]){axis.name}\s*=\s*1(?![\d.])", text) or _ONE.search(text))


def _collapsed(a: sp.Expr, b: sp.Expr) -> sp.Symbol | None:
    """The axis a cost must drop to be the next member of its chain, when that is all they differ
    by (``12BTSNH = 12BTNH``: S): the two are equal only if that axis has size 1, which a
    contraction of arrays with that axis does not suppose (``12BTSNH = 12BT^2NH`` differ by S/T,
    equal when the two lengths are: a premise, not read here)."""
    ratio = sp.simplify(a / b)
    for r in (ratio, 1 / ratio):
        base, power = r.as_base_exp()
        if isinstance(base, sp.Symbol) and power.is_positive:
            return base
    return None


def _sentences(au, line: Line, add: Callable, covered: list) -> None:
    """A sentence that names one contraction and one figure of FLOPs, and nothing that makes
    the figure count more (training, a batch, each layer): the figure against its FLOPs."""
    for a, b in line.sentences():
        formulas = [f for f in line.formulas if a <= f[2] and f[3] <= b]
        found = [(f, au.axes.operation(clean(f[0]))) for f in formulas]
        ops = [op for _, op in found if op is not None]
        costs = [f for f, op in found if op is None and _FLOPS_AFTER.match(line.text, f[3])]
        if len(ops) != 1 or len(costs) != 1 or _OTHER_COUNT.search(_words_of(line.text[a:b])):
            continue  # which figure counts what is not clear
        f, expected = costs[0], ops[0].cost("flops")
        stated = _stated(f[1], au.relations)
        if stated is not None and expected is not None and not inside(covered, f[2], f[3]):
            expected = letters.assumed(expected, au.relations)
            _judge(line, f, stated[0], expected, RULES["flops"], add, loose=True)


def _words_of(text: str) -> str:
    """A sentence's words, its formulas left out."""
    return re.sub(r"⟨[^⟩]*⟩", " ", text)
