r"""Identities between sums: ``\sum_i \exp(a_i + b) = \exp(b) \sum_i \exp(a_i)``.

Authors write a sum over an index with its range (``\sum_{i=1}^{n}``) or without it
(``\sum_i``, ``\sum_j``), and in a hurry leave the index off a summand whose letter the chain
writes with it elsewhere (``\exp(b) \sum \exp(a)`` beside ``\sum_i \exp(a_i + b)``). A chain
``a = b = c`` of such sums is read as a careful reader reads it:

- a sum takes the factors after it in its term (``\exp(b) \sum_i \exp(a_i)`` is exp(b) times
  the sum); a letter with the sum's index as its subscript (``a_i``) is the family summed over;
- a sum with no range runs over 1, ..., n, and a sum whose upper bound is a letter (``n``,
  ``d_k``) over 1, ..., that letter, the same letter taking the same value outside the sum;
- two neighbours are compared only when **both** hold a sum: an identity between sums. A sum
  set equal to something without one (``\sum_j \alpha_{ij} = 1``, ``\mathbf{x}^\top\mathbf{y} =
  \sum_i x_i y_i``, ``\sum_i 1 = d``) is a constraint, a definition or a count in the text's
  own letters, which writing the sum out does not decide;
- a letter with the sum's index among its subscripts (``a_i``, ``\alpha_{ij}``) is the family
  summed over; a name in words (``\bar x``, ``\mathrm{tr}``, ``nc``), a derivative, a power
  above 8 or a number above a million are not read, and a chain whose sentence gives one of its
  letters a value (``with $\alpha_j = 1/n$``) is left to the reader;
- each side is written out for 1 to 4 terms (each family's terms then real letters): they
  *differ* when at one of three points drawn with a fixed seed the difference is certainly not
  0 (more than 10^-20 at 30 digits) for some number of terms; they *agree* only when SymPy
  also proves the two sides equal as Sums over 1..n for every n. Anything else decides nothing.

A claim comparing two members stands on both their lines: from the line the earlier member starts
on to the line of the `=` before the later one (a display set over rows says which).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line
from .identities import _CONDITIONED, _ONLY, _SOLVED, members_lines
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Math, Said
from .stated import Unreadable

RULE = (
    "sums: each side written out for 1 to 4 terms (a sum without a range over 1..n), then SymPy's "
    "Sums over 1..n: equal for every n (exact), or different for some n"
)
#: The numbers of terms a chain of sums is written out for: a difference at any of them is a
#: counterexample; agreement at all of them is only evidence, and a proof for every n is asked of
#: SymPy's Sums.
TERMS = (1, 2, 3, 4)
POINTS = 3
#: The highest power and the largest number written out: the work is bounded by the text.
HIGHEST = 8
LARGEST = 10**6
_SUM = re.compile(r"sum(?:_(?P<index>[A-Za-z]))?$")
_FUNCTIONS = {"exp": sp.exp, "ln": sp.log, "sqrt": sp.sqrt, "sin": sp.sin, "cos": sp.cos, "tanh": sp.tanh}


def sum_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end) or "sum" not in plain:
            continue
        try:
            members, relations = calc.parse_chain(plain)
        except Unreadable:
            continue
        if len(members) < 2 or set(relations) != {"="} or not any(_has_sum(m) for m in members):
            continue
        if any(n[0] == "call" and n[1] in ("E", "Var") for m in members for n in calc.walk(m)):
            continue  # a chain of expectations is the statistics rules' to read
        sentence, at = au.doc.sentence(line, start)
        context = sentence[:at] + (au.previous_block(line)[-200:] if line.kind == "math" else "")
        if _CONDITIONED.search(context) or _SOLVED.search(sentence) or _ONLY.search(sentence[at:]):
            continue
        indices = {i for m in members for i in _indices(m)}
        if len(indices) != 1 or _given_here(line, start, members):
            continue  # one index letter for every sum of the chain (a bare sum takes it)
        index = indices.pop()
        rows = line.equals_at if len(line.equals_at) == len(relations) else []
        for k in range(len(members) - 1):
            if not (_has_sum(members[k]) and _has_sum(members[k + 1])):
                continue  # L^2 = sum_i ..., sum_j a_ij = 1: a definition, a constraint or a count
            try:
                verdict = _agree(members[k], members[k + 1], index)
            except (Unreadable, ValueError, TypeError, ZeroDivisionError, RecursionError):
                continue
            if verdict is None:
                continue
            said = Said("equal for every number of terms") if verdict else _differ(members[k], index, members)
            first, last = members_lines(line, rows, k)
            add(
                Claim(
                    first,
                    line.text[start:end],
                    CERTIFIED if verdict else WRONG,
                    said,
                    RULE,
                    [(start, end)],
                    through=last,
                )
            )


def _differ(left: calc.Node, index: str, members: list) -> Said:
    r"""What a wrong claim's left side comes to: its closed form where SymPy finds one
    (``\sum_{i=1}^{d} 2`` is ``2 d``), else that the sides differ."""
    family = set().union(*(_families(m) for m in members))
    bounds = {n[3] for m in members for n in calc.walk(m) if n[0] == "sum"}
    try:
        value = sp.simplify(_Written(index, None, family, bounds).value(left).doit())
    except (Unreadable, ValueError, TypeError, NotImplementedError, RecursionError):
        value = None
    if value is None or value.has(sp.Sum):
        return Said("the two sides differ")
    return Said("the left side is ", Math(value))


def _given_here(line: Line, start: int, members: list) -> bool:
    r"""Another formula of the chain's sentence gives one of its letters a value or a meaning
    (``with $\alpha_j = 1/n$, $\sum_j \alpha_j v_j = ...$``)."""
    a, b = line.sentence_at(start)
    names = {n[1] for m in members for n in calc.walk(m) if n[0] == "sym"}
    for _tex, plain, s, _e in line.formulas:
        if a <= s < b and s != start:
            head = re.match(r"\s*([A-Za-z]\w*)\s*=", plain)
            if head and head.group(1) in names:
                return True
    return False


def _has_sum(node: calc.Node) -> bool:
    return any(n[0] == "sum" or (n[0] == "sym" and _SUM.match(n[1])) for n in calc.walk(node))


def _indices(node: calc.Node) -> set[str]:
    out = set()
    for n in calc.walk(node):
        if n[0] == "sum":
            out.add(n[1])
        elif n[0] == "sym" and (m := _SUM.match(n[1])) and m.group("index"):
            out.add(m.group("index"))
    return out


def _agree(a: calc.Node, b: calc.Node, index: str) -> bool | None:
    """False when the two members differ for some number of terms in :data:`TERMS`; True when
    they agree there and SymPy proves them equal for every number; None otherwise."""
    family = _families(a) | _families(b)
    bounds = {n[3] for x in (a, b) for n in calc.walk(x) if n[0] == "sum"}
    if any(not re.fullmatch(r"[A-Za-z]\w*", h) for h in bounds):
        return None  # a sum to a number, or to an expression: not written out here
    differences = []
    for n in TERMS:
        left, right = (_Written(index, n, family, bounds).value(x) for x in (a, b))
        differences.append(left - right)
    if not any(d.free_symbols or d.is_number for d in differences):
        return None
    rng = random.Random(47)
    letters = sorted(set().union(*(d.free_symbols for d in differences)), key=str)
    for _ in range(POINTS):
        point = {s: sp.Rational(rng.randint(-40, 40), rng.randint(7, 19)) for s in letters}
        for d in differences:
            v = sp.N(d.xreplace(point), 30)
            if not (v.is_number and v.is_finite and v.is_real):
                return None
            if abs(v) > sp.Float("1e-20"):
                return False
    reduced = [sp.simplify(sp.expand(sp.powsimp(sp.expand(d, power_exp=True)))) for d in differences]
    if not all(r == 0 for r in reduced):
        return None
    return _proved(a, b, index, family, bounds)


def _proved(a: calc.Node, b: calc.Node, index: str, family: set[str], bounds: set[str]) -> bool | None:
    """True when SymPy proves the two sides equal for every number of terms (the sums kept as
    Sums over 1..n); None when it cannot (agreeing for 1, 2 and 3 terms is not a proof)."""
    left, right = (_Written(index, None, family, bounds).value(x) for x in (a, b))
    difference = left - right
    for attempt in (
        lambda d: d.doit(),
        lambda d: sp.simplify(sp.expand(d, power_exp=True)),
        lambda d: sp.simplify(sp.factor_terms(sp.expand(d.doit(), power_exp=True))),
    ):
        try:
            if sp.simplify(attempt(difference)) == 0:
                return True
        except (ValueError, TypeError, NotImplementedError, RecursionError):
            continue
    return None


def _families(node: calc.Node) -> set[str]:
    """The letters a chain writes with an index (``a`` of ``a_i``): summed families."""
    names = [n[1] for n in calc.walk(node) if n[0] == "sym"]
    return {m.group(1) for name in names if (m := re.fullmatch(r"(\w+?)_([a-z])", name))}


class _Written:
    """A member as SymPy with each sum written out over ``terms`` terms."""

    def __init__(self, index: str, terms: int | None, families: set[str], bounds: set[str]) -> None:
        """``terms`` None: each sum kept as SymPy's Sum over 1..n (n a positive whole number)."""
        self.index, self.terms, self.families = index, terms, families
        self.at: int | sp.Symbol | None = None  # the term being written, inside a sum
        #: The letters sums run up to: each the number of terms, inside its sums and out.
        n = sp.Symbol("n", integer=True, positive=True)
        whole = {b: sp.Symbol(b, integer=True, positive=True) for b in bounds}
        self.bounds = {b: terms if terms is not None else whole[b] for b in bounds}
        self.unbounded = terms if terms is not None else n

    def value(self, node: calc.Node) -> sp.Expr:
        op = node[0]
        if op == "num":
            value = sp.Rational(node[1].replace(",", ""))
            if abs(value) > LARGEST:
                raise Unreadable("a number too large to write sums out with")
            return value
        if op == "sym":
            return self._symbol(node[1])
        if op == "neg":
            return -self.value(node[1])
        if op in ("add", "sub"):
            a, b = self.value(node[1]), self.value(node[2])
            return a + b if op == "add" else a - b
        if op == "div":
            return self.value(node[1]) / self.value(node[2])
        if op == "pow":
            power = self.value(node[2])
            if not power.is_number or abs(power) > HIGHEST:
                raise Unreadable("a power too high to write sums out with")
            return self.value(node[1]) ** power
        if op == "call" and node[1] in _FUNCTIONS:
            return _FUNCTIONS[node[1]](self.value(node[2]))
        if op == "sum":
            _, index, low, high, body = node
            if index != self.index or self.at is not None or low != "1":
                raise Unreadable("a sum this rule does not write out")
            return self._sum(body, high)
        if op == "mul":
            return self._product(calc.factors(node))
        raise Unreadable(f"{op} is not read in a sum")

    def _product(self, factors: list[calc.Node]) -> sp.Expr:
        out = sp.S.One
        for k, f in enumerate(factors):
            if f[0] == "sym" and (m := _SUM.match(f[1])):
                if self.at is not None or (m.group("index") or self.index) != self.index:
                    raise Unreadable("a sum inside a sum")
                body = factors[k + 1 :]
                if not body:
                    raise Unreadable("a sum of nothing")
                return out * self._sum(("mul", *body) if len(body) > 1 else body[0], None)
            out *= self.value(f)
        return out

    def _sum(self, body: calc.Node, high: str | None) -> sp.Expr:
        if high is not None and high not in self.bounds:
            raise Unreadable("a sum to a bound that is not a letter")
        last = self.bounds[high] if high is not None else self.unbounded
        if self.terms is None:
            i = sp.Symbol(self.index, integer=True, positive=True)
            self.at = i
            try:
                return sp.Sum(self.value(body), (i, 1, last))
            finally:
                self.at = None
        total = sp.S.Zero
        for t in range(1, self.terms + 1):
            self.at = t
            try:
                total += self.value(body)
            finally:
                self.at = None
        return total

    def _term(self, name: str) -> sp.Expr:
        """The term being written of the family ``name`` (``a_i``, ``alpha_ij``, or a bare ``a``
        beside ``a_i``): a[2], alpha_i[2]; a[i] inside a Sum. The family is the name without
        the sum's index, so that ``a`` and ``a_i`` are one family."""
        m = re.fullmatch(r"([A-Za-z]+?)_\(?([^()]*?)\)?", name)
        base, sub = (m.group(1), m.group(2)) if m else (name, self.index)
        rest = re.sub(rf"{self.index}|[, ]", "", sub)
        family = f"{base}_{rest}" if rest else base
        if isinstance(self.at, sp.Symbol):
            return sp.IndexedBase(family, real=True)[self.at]
        return sp.Symbol(f"{family}[{self.at}]", real=True)

    def _symbol(self, name: str) -> sp.Expr:
        if name == "pi":
            return sp.pi
        if name == "e":
            return sp.E
        if _SUM.match(name):
            raise Unreadable("a sum standing alone")
        if re.search(r"[a-z]{2,}", name.split("_")[0]):
            raise Unreadable("a name in words, not a letter")  # bar, hat, tr, nc, partial
        m = re.fullmatch(r"([A-Za-z]+?)_\(?([a-z](?:,? ?[a-z])*)\)?", name)
        if m and self.index in m.group(2).replace(",", "").replace(" ", ""):
            if self.at is None:
                raise Unreadable("an index outside its sum")
            return self._term(name)
        if self.at is not None and name in self.families:  # \sum \exp(a) beside a_i: the family a
            return self._term(name)
        if name in self.bounds:
            return sp.sympify(self.bounds[name])
        if name == self.index:
            if self.at is None:
                raise Unreadable("an index outside its sum")
            return sp.sympify(self.at)
        return sp.Symbol(name, real=True)


# -- a normalisation: a fraction whose denominator sums its numerator over the index -----------
#: Said of a fraction whose denominator sums its own numerator over an index.
NORMALISING_RULE = (
    "normalisation: a fraction a_i / sum_k a_k sums to 1 over i (its denominator sums the numerator over the "
    "index); a / sum_k a, with no k in a, is 1/n for n terms whatever a is"
)
#: ``((numerator)/( sum_k summand))`` as the document writes a fraction; the sum may carry a range.
_FRACTION = re.compile(
    r"\(\((?P<num>.+?)\)/\(\s*sum_(?P<index>[a-z]|\((?P<ranged>[a-z])=[^()]*\)(?:\^\(?\w+\)?)?)\s*"
)
#: A subscript of indices: ``_i``, ``_ij``, ``_(i,j)`` (a word, ``_attn``, is a name, not indices).
_SUBSCRIPT = re.compile(r"_(?:\((?P<group>[a-z](?:\s*,?\s*[a-z]){0,2})\)|(?P<bare>[a-z]{1,3})\b)")


def normalisation_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    r"""``\alpha_i = \frac{\exp(f(k_i, q))}{\sum_j \exp(f(k_j, q))}``: the denominator is the
    numerator summed over every i (its index renamed j), so the alpha_i are positive and sum to 1:
    certified. ``S_{ij} = e^{\tau q_i \cdot k_j} / \sum_k e^{\tau q_i \cdot k_j}``: the summand
    is the numerator written again, holding no k, so every S_ij is 1/n: wrong (the JAX scaling
    book, line 419). Anything else (another summand, a numerator that is not an exponential or
    a sum of one) is not judged. Read on the formula as written, so that a function of two
    arguments (``f_{attn}(key_i, query)``) is compared as it stands."""
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end) or "sum_" not in plain:
            continue
        for m in _FRACTION.finditer(plain):
            numerator = m.group("num")
            summand = _closing(plain, m.end())
            index = m.group("ranged") or m.group("index")
            if summand is None or not _SUBSCRIPT.search(numerator):
                continue
            after = plain[m.end() + len(summand) + 2 :].strip()  # past the denominator and the fraction
            if not re.search(r"(?:^|=)\s*$", plain[: m.start()]) or not re.match(
                r"(?:$|[,.;=]|hspace)", after
            ):
                continue  # the fraction is a factor of a member (sum_j frac V_jd): that member is not judged
            if _norm(summand) == _norm(numerator) and not _holds(numerator, index):
                sentence, _at = au.doc.sentence(line, start)
                if _UNIFORM.search(sentence + " " + line.text[end:]):
                    continue  # "the weights are all 1/n: attention is a plain average": the text's point
                said = Said(
                    "1/n for n terms: the summand of the sum over ",
                    Math(sp.Symbol(index)),
                    " does not hold ",
                    Math(sp.Symbol(index)),
                )
                verdict = WRONG
            else:
                free = [
                    x
                    for x in _indices_in(numerator)
                    if _norm(_renamed(numerator, x, index)) == _norm(summand)
                ]
                if not free or _holds(numerator, index) or not _POSITIVE.match(numerator):
                    continue  # positive terms only: exp(...) or e^(...), not raw scores s_i
                said = Said(
                    "positive terms that sum to 1 over ",
                    Math(sp.Symbol(free[0])),
                    ": the denominator sums the numerator over every ",
                    Math(sp.Symbol(free[0])),
                )
                verdict = CERTIFIED
            add(Claim(line.number, line.text[start:end], verdict, said, NORMALISING_RULE, [(start, end)]))
            break


#: The text says the weights come out uniform: its own point, not a slip.
_UNIFORM = re.compile(r"1\s*/\s*n|\buniform\w*|\b(?:plain|simple)\s+average|\ball\s+equal|\bconstant\b", re.I)
#: A numerator that is positive whatever its argument: an exponential.
_POSITIVE = re.compile(r"\s*(?:exp\s*\(|e\^)")


def _holds(text: str, index: str) -> bool:
    """``text`` holds ``index``: in a subscript of indices, or standing alone (``s_t(i,j)``)."""
    return index in _indices_in(text) or bool(re.search(rf"(?<![A-Za-z_]){index}(?![A-Za-z_])", text))


def _closing(text: str, at: int) -> str | None:
    """The text from ``at`` to the parenthesis that closes the group ``at`` stands in."""
    depth = 1
    for k in range(at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return text[at:k]
    return None


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _indices_in(text: str) -> list[str]:
    """The index letters of the subscripts in ``text``, in order of first appearance."""
    out: list[str] = []
    for m in _SUBSCRIPT.finditer(text):
        for x in re.findall(r"[a-z]", m.group("group") or m.group("bare")):
            if x not in out:
                out.append(x)
    return out


def _renamed(text: str, old: str, new: str) -> str:
    """``text`` with the index ``old`` renamed ``new`` in every subscript of indices."""
    return _SUBSCRIPT.sub(lambda m: m.group(0).replace(old, new) if m.group(0) != "_" else m.group(0), text)
