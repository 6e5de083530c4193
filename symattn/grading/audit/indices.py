"""Index bookkeeping in texts written in index notation: ``q_{bsea} = z_{bsd} Q_{dea}`` (issue 47).

Notes on transformers often write every tensor with its indices (``z_{bsd}`` for the batch,
position and hidden indices) and leave sums implicit, as Einstein did. Whatever else such an
equation says, a careful reader checks its indices first:

- every index of the left side (a tensor written alone, ``w_{bss'a}``) appears on the right
  (in a subscript, or as a value, ``10^{-8d/D}``; a group ``(ea)``, indices combined into one,
  may stand for an index of the left side: ``u_{bsd} = y_{bs(ea)}``);
- an index on the right that is not on the left is summed: it appears twice or more in
  subscripts, or an operator binds it (``\\sum_{s'}``, ``\\operatorname{Softmax}_{s'}``,
  ``\\max_c``, ``\\texttt{cumsum}_s``). An index that appears once and nowhere else (a stray
  ``d`` in ``w_{bdss'a}``) makes the equation wrong.

The rule reads a text only where the text is in index notation (several tensors carry three
indices or more, each a letter whose capital the text uses as a size: :func:`index_letters`),
and only equations it can read whole: one with a derivative, an integral, an arrow (a reshape),
an index that is an expression (``x_{b(s+1)}``) or a function it does not know
(``\\texttt{CausalTransformer}``) is left to the reader. An equation (``=``, ``\\equiv``) whose
indices balance is certified for its indices, one whose indices do not is wrong; an update
(``\\gets``, ``\\leftarrow``) is a step of an algorithm, where the index of an enclosing loop
stands free on the right: not a claim, and not read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from itertools import pairwise

import sympy as sp

from . import einsum
from .document import Line
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Math, Said

RULE = "index bookkeeping: each index of the left side on the right, every other index summed"
#: Tensors with three indices or more a text must write before its indices are read.
MIN_TENSORS = 5
#: Operators whose subscript binds the indices it names: those that sum or reduce them away,
#: and those that keep them (a softmax over s' is still indexed by s'; a running sum by s).
_REDUCING = {"sum", "prod", "max", "min", "argmax", "logsumexp"}
_BINDERS = _REDUCING | {"Softmax", "softmax", "cumsum"}
#: Functions that act entry by entry (or bind by their subscript): the indices go through them.
_FUNCTIONS = {"Drop", "exp", "ln", "log", "tanh", "Softmax", "softmax", "cumsum", "max", "min", "sum", "prod"}
_INDEX = re.compile(r"(?:[a-z]'*|\([a-z]'*(?:[a-z]'*)+\))+")
_RELATION = re.compile(r"\\equiv|\\gets|\\leftarrow|(?<![<>!\\])=")
_SKIP = re.compile(
    r"\\partial|\\int|\\to\b|\\rightarrow|\\longrightarrow|\\mapsto|\\Rightarrow|\\begin|\\cases"
)
_WORD = re.compile(
    r"\\(?:texttt|mathrm|operatorname\*?|text|textrm)\s*\{\s*([A-Za-z]+)\s*\}|\\rm\s+([A-Za-z]+)"
)
_SCRIPT = re.compile(r"_\s*(\{[^{}]*\}|[A-Za-z])")


def index_letters(doc) -> set[str] | None:
    """The letters a text uses as indices, or None when it does not write in index notation.

    An index runs over a size the text names by the same letter in capitals (``d`` over ``D``,
    ``s'`` over ``S``), so a subscript is an index string only when each of its letters has its
    capital standing alone in the text's math (``d_{model}`` is a name: no M, O, L stand alone);
    the text writes in index notation when :data:`MIN_TENSORS` tensors or more carry three such
    indices."""
    sizes: set[str] = set()
    for line in doc.lines:
        for tex, _plain, _s, _e in line.formulas:
            bare = re.sub(r"_\s*\{[^{}]*\}", " ", tex)  # a capital in a subscript is no size
            sizes.update(re.findall(r"(?<![A-Za-z\\])([A-Z])(?![A-Za-z])", bare))
    letters: set[str] = set()
    tensors = set()
    for line in doc.lines:
        for tex, _plain, _s, _e in line.formulas:
            for m in _SCRIPT.finditer(_normal(tex)):
                idx = m.group(1).strip("{}").replace(" ", "")
                found = set(re.sub(r"[^a-z]", "", idx))
                if _INDEX.fullmatch(idx) and len(found) >= 3 and {c.upper() for c in found} <= sizes:
                    tensors.add(tex[max(0, m.start() - 12) : m.end()])
                    letters.update(found)
    return letters if len(tensors) >= MIN_TENSORS else None


def _normal(tex: str) -> str:
    """Spacing, sizing and braces around words taken out; words (``\\texttt{Softmax}``,
    ``{\\rm Drop}``) written ``⟦Softmax⟧``."""
    tex = re.sub(r"\\(?:left|right|big|Big|bigg|Bigg)\b|\\[,;:! ]|~", " ", tex)
    tex = _WORD.sub(lambda m: f"⟦{m.group(1) or m.group(2)}⟧", tex)
    for _ in range(3):
        tex = re.sub(r"\{\s*(⟦\w+⟧)\s*\}", r"\1", tex)
    return re.sub(r"\s+", " ", tex)


def _indices(script: str) -> list[str] | None:
    """The indices of a subscript (``bs'ea`` is b, s', e, a; a group ``(ea)`` one item), or None
    when it is not an index string."""
    s = script.strip("{}").replace(" ", "")
    if not _INDEX.fullmatch(s):
        return None
    return re.findall(r"\([a-z']+\)|[a-z]'*", s)


class _Side:
    """A side's subscripts: the tensors' indices (counted), the indices operators bind, the index
    letters written as values, and the groups of combined indices."""

    def __init__(self, tex: str, letters: set[str]):
        self.counts: Counter[str] = Counter()
        self.bound: set[str] = set()
        self.reduced: set[str] = set()  # bound by a sum or a max: gone from the result
        self.groups: list[str] = []
        self.readable = True
        for m in list(_SCRIPT.finditer(tex))[::-1]:
            before = tex[max(0, m.start() - 64) : m.start()].rstrip()  # the word a script follows
            word = re.search(r"(?:\\([A-Za-z]+)|⟦(\w+)⟧)\s*$", before)
            name = (word.group(1) or word.group(2)) if word else ""
            if name in _BINDERS:
                binder = m.group(1).strip("{}").replace(" ", "")
                if not re.fullmatch(r"[a-z',]+", binder):
                    self.readable = False
                self.bound.update(re.findall(r"[a-z]'*", binder))
                if name in _REDUCING:
                    self.reduced.update(re.findall(r"[a-z]'*", binder))
            else:
                found = _indices(m.group(1))
                if found is None or not all(set(re.sub(r"[()']", "", i)) <= letters for i in found):
                    self.readable = False
                    continue
                for i in found:
                    if i.startswith("("):
                        self.groups.append(i)
                    else:
                        self.counts[i] += 1
        rest = _SCRIPT.sub(" ", tex)  # what is left once every script is read
        if any(word not in _FUNCTIONS for word in re.findall(r"⟦(\w+)⟧", rest)):
            self.readable = False  # a function it does not know (\texttt{CausalTransformer})
        plain = re.sub(r"\\[A-Za-z]+", " ", rest)
        self.values = set(re.findall(r"(?<![A-Za-z\\'])([a-z])(?![A-Za-z])", plain))

    def present(self, index: str) -> bool:
        return index in self.counts or index in self.bound or index in self.values


#: A side that is one tensor: a letter or command, primes, an optional superscript, its subscript.
_TENSOR = re.compile(
    r"\s*(?:\\[A-Za-z]+|[A-Za-z])\s*'*\s*(?:\^\s*(\{[^{}]*\}|[a-z])\s*)?_\s*(\{[^{}]*\}|[a-z])\s*'*\s*"
)


def _left(tex: str, letters: set[str]) -> list[str] | None:
    """The indices of a side that is one tensor (``w_{bss'a}``, ``B^{s}_{d'd}``), or None."""
    m = _TENSOR.fullmatch(tex)
    if m is None:
        return None
    found = _indices(m.group(2))
    if found is None or any(i.startswith("(") for i in found):
        return None
    upper = _indices(m.group(1)) if m.group(1) else []
    out = found + [i for i in (upper or []) if len(i) == 1]
    return out if all(set(i.replace("'", "")) <= letters for i in out) else None


def _top_level(tex: str, pattern: re.Pattern) -> list[tuple[int, int]]:
    """Spans of ``pattern`` outside braces and parentheses."""
    out, depth, i = [], 0, 0
    while i < len(tex):
        c = tex[i]
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        elif depth == 0 and (m := pattern.match(tex, i)):
            out.append(m.span())
            i = m.end()
            continue
        i += 1
    return out


#: Where one equation of a list ends and the next begins: ``q_{bsa} = ..., k_{bsa} = ...``.
_NEXT = re.compile(
    r",(?=\s*(?:\\[A-Za-z]+|[A-Za-z])\s*'*\s*(?:\^\s*(?:\{[^{}]*\}|[a-z])\s*)?_\s*\{[^{}]*\}\s*'*\s*(?:=|\\equiv))"
)


def check(tex: str, letters: set[str]) -> list[tuple[str, bool, str]]:
    """(the equation, balanced, why) for each equation of a formula whose indices can be read
    (items set apart by ``\\quad``, or by a comma before the next equation, one by one)."""
    out = []
    for item in (x for part in re.split(r"\\q?quad", _normal(tex)) for x in _NEXT.split(part)):
        item = re.sub(r"[\s,.\\]*$", "", item).lstrip(" ,.")
        if not item or _SKIP.search(item):
            continue
        spans = _top_level(item, _RELATION)
        if not spans:
            continue
        starts, ends = [0] + [e for _, e in spans], [s for s, _ in spans] + [len(item)]
        members = [item[a:b] for a, b in zip(starts, ends, strict=True)]
        relations = [item[s:e] for s, e in spans]
        left = _left(members[0], letters)
        if left is None:
            continue
        if any(r in ("\\gets", "\\leftarrow") for r in relations):
            continue  # a step of an algorithm: its loops' indices are free on the right, no claim
        verdict = _balanced(left, members[1:], letters)
        if verdict is not None:
            out.append((item, *verdict))
    return out


def _balanced(left: list[str], members: list[str], letters: set[str]) -> tuple[bool, str] | None:
    """Whether each member's indices balance the left side's: ``None`` when one cannot be read."""
    for member in members:
        side = _Side(member, letters)
        if not side.readable:
            return None
        if not (side.counts or side.groups or all(i in side.values for i in left)):
            return None  # w_{bss'a} = 0 sets entries; theta_d = 10^{-8d/D} writes each one
        if summed := [i for i in left if i in side.reduced]:
            return False, f"the index {summed[0]} of the left side is summed away on the right"
        missing = [i for i in left if not side.present(i)]
        if len(missing) > len(side.groups):  # a group (ea) may stand for one index of the left side
            return False, f"the index {missing[0]} of the left side appears nowhere on the right"
        spare = Counter(side.groups[len(missing) :])  # groups that stand for no index of the left side
        for term in _terms(member):
            part = _Side(term, letters)
            spared: Counter[str] = Counter()
            for g in part.groups:
                if spare[g] > 0:
                    spare[g] -= 1
                    spared.update(re.findall(r"[a-z]'*", g))
            bound = part.bound  # a sum binds its own term only
            counts = part.counts + spared
            stray = [i for i, n in counts.items() if i not in left and n < 2 and i not in bound]
            if stray:
                once = f"the index {stray[0]} is written once on the right"
                return False, once + ", neither on the left nor summed"
    return True, "every index of the left side is on the right, every other index summed"


def _terms(member: str) -> list[str]:
    """The terms of a sum, split where ``+`` or ``-`` stands outside braces and parentheses (an
    index is summed within its term: in ``x_{bsd} + y_{bsd}`` the d of each term is free)."""
    cuts = [a for a, _ in _top_level(member, re.compile(r"[+-]"))]
    pieces = (member[a:b] for a, b in pairwise([0, *cuts, len(member)]))
    return [p.lstrip("+-") for p in pieces if p.strip("+- ")]


def index_claims(au, line: Line, add: Callable, covered: list) -> None:
    """Equations in index notation whose indices balance, or do not (see the module's docstring):
    one claim per formula, wrong if any of its equations is."""
    if not au.index_letters:
        return
    for tex, _plain, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        found = check(tex, au.index_letters)
        if found:
            wrong = [why for _, ok, why in found if not ok]
            verdict, why = (WRONG, wrong[0]) if wrong else (CERTIFIED, found[0][2])
            rule = RULE
            computed = None if wrong else einsum.evaluate(_normal(tex), au.index_letters)
            if computed is not None:  # balanced: the two sides computed on the same tensors too
                verdict = CERTIFIED if computed[0] else WRONG
                why, rule = f"{why}; {computed[1]}", f"{RULE}; {einsum.RULE}"
            through = _display_end(au, line) if computed is not None else 0  # the rows it computed
            add(
                Claim(
                    line.number,
                    line.text[start:end],
                    verdict,
                    Said(why),
                    rule,
                    [(start, end)],
                    through=through,
                )
            )


def _display_end(au, line: Line) -> int:
    """The last source line of the display ``line`` was read from (the next line read starts
    after it), or 0 for prose."""
    if line.kind != "math":
        return 0
    later = [x.number for x in au.doc.lines if x.number > line.number]
    return min(later) - 1 if later else 0


#: ``i ∈ {0, ..., I-1}``, ``i ∈ {1, ..., I}``: an index and the values it runs over.
_RANGE = re.compile(
    r"⟨\s*(?P<index>[a-z])\s*∈\s*\{\s*(?P<lo>[01])\s*,\s*(?:\.\.\.|…)\s*,\s*(?P<hi>[^{}⟨⟩]+?)\s*\}\s*⟩"
)
#: A group of indices standing for one (``q_{(ir)h}``), and a size said of letters (``S=RI``).
_GROUP = re.compile(r"_\(*[^⟨⟩\s]*?\((?P<group>[a-z]{2,4})\)")
_SIZE = re.compile(r"⟨\s*(?P<size>[A-Z])\s*=\s*(?P<value>[^⟨⟩=]+?)\s*⟩")


#: A tensor with its indices alone on the left of an equation: ``y_(bse a) = ...``.
_LEFT_TENSOR = re.compile(r"^\s*[A-Za-z]\w*?_\(?(?P<indices>[a-z' ]+)\)?\s*(?:=|≡|equiv|leftarrow)")


_RUNS_OVER = re.compile(
    r"⟨\s*(?P<index>[a-z])\s*⟩\s+(?:running|runs|ranging|ranges|going|goes)\s+over\s+(?:the\s+)?"
    r"⟨\s*(?P<size>[^⟨⟩]+?)\s*⟩"
)


def index_range(index: str, sizes: dict[str, tuple[sp.Expr, str]]) -> sp.Expr:
    """How many values ``index`` runs over: the size the text gives it (:func:`index_sizes`), or
    its capital (d runs to D), the convention of index notation."""
    return sizes[index][0] if index in sizes else sp.Symbol(index.upper(), positive=True)


#: A shape in words with its axes: "these (B, S, D/A, A)-shaped tensors" (in code or not).
SHAPED = re.compile(r"(?:\\pyinline\{|`)?\((?P<axes>[^()]*(?:\([^()]*\)[^()]*)*)\)(?:\}|`)?-shaped\b")


def index_sizes(doc) -> dict[str, tuple[sp.Expr, str]]:
    """The size the text gives an index through the shape of a tensor it indexes: "``y_{bsea} =
    ...``" and then "these (B, S, D/A, A)-shaped tensors" make e run over D/A values; with the
    shape as written. The first shape given an index stands."""
    from . import letters

    out: dict[str, tuple[sp.Expr, str]] = {}
    # "e running over the D/A components of a head": a range given in words
    for m in _RUNS_OVER.finditer(doc.text().replace("\n", " ")):
        size = letters.read(m.group("size"))
        if size is not None:
            out.setdefault(m.group("index"), (size, f"({m.group('size')})"))
    last: list[str] = []
    where = -2  # the paragraph of the last tensor defined: a shape in it or the next one is its
    for line in doc.lines:
        for _tex, plain, _s, _e in line.formulas:
            m = _LEFT_TENSOR.match(plain)
            if m:
                last, where = re.findall(r"[a-z]'*", m.group("indices")), line.block
        for m in SHAPED.finditer(line.text):
            axes = [a.strip() for a in m.group("axes").split(",")]
            if len(axes) == len(last) and line.block - where <= 1:
                for index, axis in zip(last, axes, strict=True):
                    size = letters.read(axis)
                    if size is not None and "'" not in index:
                        out.setdefault(index, (size, f"({', '.join(axes)})"))
            last = []
    return out


def range_claims(au, line: Line, add: Callable, covered: list) -> None:
    """ "``q_{sh} = q_{(ir)h}`` where ``i ∈ {0, ..., I-1}`` and ``r ∈ {0, ..., R-1}`` with ``S=RI``":
    an index s split into a group (ir) runs over as many values as the group, I·R: the size the
    text says of S must be that product (index ranges against sizes)."""
    from . import letters

    sizes = au.doc.once("index sizes", index_sizes) if au.index_letters else {}
    for r in _RANGE.finditer(line.text):
        covered.append(r.span())  # the values an index runs over: notation, a given ...
        given = sizes.get(r.group("index"))
        if not re.search(r"\b(?:where|and|with)\s*$", line.text[: r.start()]):
            continue  # "for s ∈ {0, ..., S-2}": a use over some values, not the index's declaration
        hi = letters.read(r.group("hi"))
        if given is None or hi is None:
            continue
        # ... unless the text gives the index a size elsewhere (the shape of a tensor it indexes)
        count, (size, shape) = hi - int(r.group("lo")) + 1, given
        difference = sp.simplify(count - size)
        if not difference.is_number:
            continue
        said = Said(
            f"{r.group('index')} runs over ",
            Math(count),
            f" values; the {shape}-shaped tensors give it ",
            Math(size),
        )
        rule = "index bookkeeping: an index runs over as many values as the shape of its tensor gives it"
        add(
            Claim(
                line.number,
                line.text[slice(*r.span())],
                CERTIFIED if difference == 0 else WRONG,
                said,
                rule,
                [r.span()],
            )
        )
    for m in _SIZE.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        before = sentence[:at]
        groups = [g.group("group") for g in _GROUP.finditer(before)]
        subscripts = re.findall(r"_\(?([a-z]+)", before)
        if not groups or not any(m.group("size").lower() in sub for sub in subscripts):
            continue
        group = groups[-1]
        ranges = {}
        for r in _RANGE.finditer(before):
            hi = letters.read(r.group("hi"))
            if hi is not None:
                ranges[r.group("index")] = hi - int(r.group("lo")) + 1
        if not all(x in ranges for x in group):
            continue
        stated = letters.read(m.group("value"))
        if stated is None:
            continue
        made = sp.Mul(*(ranges[x] for x in group))
        ratio = sp.simplify(stated / made)
        if not ratio.is_number:
            continue
        add(
            Claim(
                line.number,
                line.text[m.start() : m.end()],
                CERTIFIED if ratio == 1 else WRONG,
                Said(f"{m.group('size')} = ", Math(made), f": the values of ({group}) are counted"),
                "index bookkeeping: an index split into a group runs over the product of the group's ranges",
                [m.span()],
            )
        )
