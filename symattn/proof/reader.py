r"""Reading symattn's own LaTeX back into SymPy: the formulas a derivation prints and states.

A derivation's pages show formulas in two places: the sides of its steps, printed by
:func:`symattn.proof.latex.page_latex`, and the math in its prose (the theorem, the assumptions,
the titles, the rules). Both are read here, so that ``verify`` can compare what is shown with
what was checked. The text is the project's own (or a course author's plugin), never a
learner's: learners' answers go through :mod:`symattn.grading.answers`, which bounds its work.

The reader is a small recursive-descent parser over the LaTeX this project writes: numbers
(decimals read exactly), names with subscripts and superscripts (``d_{\text{model}}``,
``\tilde{q}_{i}``, ``W^{O}_{1}``), ``\frac``, ``\sqrt``, powers, ``e^{x}``, ``^{\top}``,
``\sum`` and ``\prod`` with or without limits, ``\mathbb{E}[...]``, ``\operatorname{Var}(...)``
and any other ``\operatorname`` the derivation uses, ``\partial``, ``\lim``, ``\delta_{ij}``,
``bmatrix``, bracketed lists and the relations ``= < > \le \ge \neq \approx \iff \sim``.

Names resolve against a :class:`Vocabulary` built from the derivation's own objects by printing
each one with the same printer and reading the printed name with the same lexer, so a name
reads back as the object it was printed from. A name the derivation does not know becomes a
fresh Symbol (a placeholder such as the X of ``\operatorname{Var}(aX)``), which the caller
can see in :attr:`Reading.unknown`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.stats import Expectation
from sympy.stats.rv import RandomSymbol

from .operators import Ex, Var
from .reader_forms import _Forms
from .reader_lexicon import (
    _ELIDED,
    _RELATIONALS,
    _STANDARD,
    MAX_CHARS,
    RELATIONS,
    ReadError,
    Token,
    _inverse,
    _number,
    _times,
    _transpose,
    tokenize,
)

__all__ = [
    "MAX_CHARS",
    "RELATIONS",
    "ReadError",
    "Reading",
    "Token",
    "Vocabulary",
    "read",
    "read_value",
    "readings",
    "tokenize",
    "vocabulary",
]


@dataclass
class Vocabulary:
    """What a derivation's names and operators mean: name key -> object, operator -> function."""

    #: Each key's objects, first found first: one derivation may print a vector p and a number
    #: p alike (the engine refuses two of one kind printed alike, not two kinds).
    names: dict[str, list[Any]] = field(default_factory=dict)
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)
    #: A summation index -> its range, for a sum written without limits (\sum_k e^{z_k}).
    ranges: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def add(self, obj: Any, printed: str) -> None:
        """Know ``obj`` by the name it prints as."""
        parser = _Parser(tokenize(printed), self, strict=False, defining=True)
        key = parser.name_key()
        if key is None or parser.peek() is not None:
            raise ReadError(f"{printed!r} does not read as a name")
        known = self.names.setdefault(key, [])
        if obj not in known:
            known.append(obj)

    def knows(self, key: str) -> bool:
        return key in self.names


def vocabulary(objects: Iterable[Any], printer: Callable[[Any], str]) -> Vocabulary:
    """The names, operators and summation ranges found in ``objects`` (expressions, matrices)."""
    v = Vocabulary()
    for e in objects:
        if e is None or isinstance(e, str):
            continue
        if isinstance(e, sp.MatrixBase):
            items: Iterable[Any] = list(e)
        else:
            items = [e]
        for x in items:
            if isinstance(x, sp.IndexedBase):
                v.add(x, printer(x.label))
                continue
            if not isinstance(x, sp.Basic):
                continue
            labels = {b.label for b in x.atoms(sp.IndexedBase)} | {i.base.label for i in x.atoms(sp.Indexed)}
            # In SymPy's sort order, not a set's: which of two objects printed alike comes first
            # must not depend on the hash seed.
            for b in _ordered({i.base for i in x.atoms(sp.Indexed)} | set(x.atoms(sp.IndexedBase))):
                v.add(b, printer(b.label))
            for s in _ordered(x.atoms(sp.Symbol, sp.MatrixSymbol, RandomSymbol)):
                if s in labels or isinstance(s, sp.Dummy) or _limit_direction(x, s):
                    continue
                v.add(s, printer(s))
            for s in _ordered(x.atoms(sp.Sum, sp.Product)):
                for index, low, high in s.limits:
                    v.ranges.setdefault(str(index), (low, high))
            for node in sp.preorder_traversal(x):
                _learn_operator(v, node, printer)
    return v


#: Matrix algebra, which a printer may start with an operator's name (diag(p) - p p^T).
_ALGEBRA = {"MatAdd", "MatMul", "MatPow", "Transpose", "Inverse", "HadamardProduct", "Add", "Mul", "Pow"}


def _ordered(items: Iterable[Any]) -> list[Any]:
    return sorted(items, key=sp.default_sort_key)


def _limit_direction(e: sp.Basic, s: sp.Basic) -> bool:
    """``s`` is the direction of a limit in ``e`` (SymPy keeps it as Symbol('-'))."""
    return any(lim.args[3] == s for lim in e.atoms(sp.Limit))


def _learn_operator(v: Vocabulary, node: Any, printer: Callable[[Any], str]) -> None:
    """Know the operator ``node`` applies by the name its printer gives it
    (``\\operatorname{softmax}`` for the row softmax, ``\\operatorname{diag}``, ``rank``)."""
    if isinstance(node, (Ex, Var)) or not isinstance(node, sp.Basic) or not node.args:
        return
    if not isinstance(node, sp.Function | sp.MatrixExpr) or type(node).__name__ in _ALGEBRA:
        return
    try:
        tex = printer(node)
    except Exception:
        return
    m = re.match(r"\\operatorname\{([A-Za-z]+)\}", tex)
    if m:
        func = node.func if isinstance(node, sp.Function) else type(node)
        v.functions.setdefault(m.group(1), func)


@dataclass(frozen=True)
class Reading:
    """A formula read: its items (a comma list), each a chain ``e0 rel1 e1 rel2 e2 ...``."""

    items: tuple[tuple[Any, ...], ...]
    unknown: frozenset[sp.Symbol]
    #: ``\dots`` or ``\ldots`` appears: a range or a truncated decimal, not an exact value.
    elided: bool

    @property
    def listing(self) -> bool:
        r"""The formula lists values, ``n = 2, 3, 4`` or ``d = 1, \dots, 8``: a range, no equation."""
        return self.elided or (
            len(self.items) > 1
            and len(self.items[0]) == 3
            and all(len(item) == 1 and sp.sympify(item[0]).is_Number for item in self.items[1:])
        )

    def relations(self) -> list[tuple[Any, str, Any]]:
        """Each (left, relation, right) the formula states; a list of names before a relation
        (``s_q, s_k > 0``) states it of each."""
        out = []
        for k, item in enumerate(self.items):
            for j in range(1, len(item) - 1, 2):
                out.append((item[j - 1], item[j], item[j + 1]))
            if len(item) == 3 and k == len(self.items) - 1:
                for before in self.items[:k]:
                    if len(before) == 1:
                        out.append((before[0], item[1], item[2]))
        return out

    def value(self) -> Any:
        """The formula as one expression or one relation (``N > 2 d``), nothing more."""
        if len(self.items) != 1 or len(self.items[0]) not in (1, 3):
            raise ReadError("a single expression or relation was expected")
        item = self.items[0]
        if len(item) == 1:
            return item[0]
        relation = _RELATIONALS.get(item[1])
        if relation is None:
            raise ReadError(f"a relation {item[1]} is not an expression")
        return relation(item[0], item[2], evaluate=False)


def read(text: str, vocab: Vocabulary) -> Reading:
    """Read ``text`` (the inside of ``$...$``) against ``vocab``: the first reading."""
    return next(readings(text, vocab))


#: Most readings tried of one formula whose names are ambiguous.
MAX_READINGS = 16


def readings(text: str, vocab: Vocabulary) -> Iterator[Reading]:
    """Every reading of ``text``, one per choice of object for each ambiguous name (a vector p
    or a number p), the first-found objects first; at least one, or :class:`ReadError`."""
    toks = tokenize(text)
    queue: list[dict[str, int]] = [{}]
    seen: set[tuple[tuple[str, int], ...]] = set()
    first_error: Exception | None = None
    found = False
    while queue and len(seen) < MAX_READINGS:
        choice = queue.pop(0)
        key = tuple(sorted(choice.items()))
        if key in seen:
            continue
        seen.add(key)
        parser = _Parser(toks, vocab, choice=choice)
        try:
            items = parser.formula()
        except Exception as exc:  # a reading SymPy refuses to build (a scalar where a vector goes)
            first_error = first_error or exc
        else:
            found = True
            yield Reading(tuple(items), frozenset(parser.unknown), parser.elided)
        for name in sorted(parser.ambiguous - set(choice)):
            for k in range(1, len(vocab.names[name])):
                queue.append({**choice, name: k})
    if not found:
        if isinstance(first_error, ReadError):
            raise first_error
        raise ReadError(str(first_error))


def read_value(text: str, vocab: Vocabulary) -> Any:
    """``text`` read as one expression or relation (:meth:`Reading.value`) in its first reading."""
    return read(text, vocab).value()


class _Parser(_Forms):
    def __init__(
        self,
        toks: list[Token],
        vocab: Vocabulary,
        strict: bool = True,
        defining: bool = False,
        choice: dict[str, int] | None = None,
    ):
        self.toks, self.vocab, self.i = toks, vocab, 0
        self.unknown: set[sp.Symbol] = set()
        self.ambiguous: set[str] = set()
        self.elided = False
        self.strict = strict
        self.defining = defining
        self.choice = choice or {}

    def lookup(self, key: str) -> Any:
        """The object ``key`` names (the chosen one, where several print alike), or None."""
        found = self.vocab.names.get(key)
        if not found:
            return None
        if len(found) > 1:
            self.ambiguous.add(key)
        return found[self.choice.get(key, 0)]

    # -- tokens ------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def next(self) -> Token:
        t = self.peek()
        if t is None:
            raise ReadError("the formula ends too early")
        self.i += 1
        return t

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t is not None and t.text in texts

    def expect(self, text: str) -> None:
        t = self.peek()
        if t is None or t.text != text:
            where = f"{t.text!r} at position {t.pos}" if t else "the end"
            raise ReadError(f"expected {text!r}, found {where}")
        self.i += 1

    def _fail(self, what: str) -> ReadError:
        t = self.peek()
        return ReadError(f"{what} at position {t.pos}" if t else f"{what} at the end")

    # -- grammar -----------------------------------------------------------------------------
    def formula(self) -> list[tuple[Any, ...]]:
        items = [self.chain()]
        while self.at(","):
            self.next()
            items.append(self.chain())
        if self.peek() is not None:
            raise self._fail(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return items

    def chain(self) -> tuple[Any, ...]:
        parts: list[Any] = [self.expr()]
        while self.peek() is not None and self.peek().text in RELATIONS:  # type: ignore[union-attr]
            parts.append(RELATIONS[self.next().text])
            parts.append(self.expr())
        return tuple(parts)

    def expr(self) -> Any:
        sign = 1
        if self.at("-", "+"):
            sign = -1 if self.next().text == "-" else 1
        total = sign * self.term()
        while self.at("+", "-"):
            op = self.next().text
            t = self.term()
            total = total + t if op == "+" else total - t
        return total

    def _starts_factor(self) -> bool:
        t = self.peek()
        if t is None:
            return False
        if t.kind in ("num", "letter", "group"):
            return not t.text.startswith(r"\end{")
        if t.kind == "cmd":
            return t.text not in RELATIONS and t.text not in (
                r"\right",
                r"\top",
                r"\to",
                r"\cdot",
                r"\times",
                "\\\\",
                r"\rVert",
                r"\rvert",
                r"\}",
            )
        return t.text in ("(", "[", "{")

    def term(self) -> Any:
        value = self.factor()
        while True:
            if self.at(r"\cdot", r"\times", "*"):
                self.next()
                value = _times(value, self.factor())
            elif self.at("/"):
                self.next()
                value = _times(value, _inverse(self.factor()))
            elif self._starts_factor():
                value = _times(value, self.factor())
            else:
                return value

    def factor(self) -> Any:
        if self.at("-"):
            self.next()
            return -self.factor()
        node = self.primary()
        while True:
            if self.at("^"):
                self.next()
                node = self.superscript(node)
            elif self.at("!"):
                self.next()
                node = sp.factorial(node)
            elif self.at(r"\ldots", r"\dots", r"\cdots"):
                self.next()
                self.elided = True
            else:
                return node

    def superscript(self, base: Any) -> Any:
        t = self.peek()
        if t is None:
            raise ReadError("nothing after '^'")
        if t.text in (r"\top", "T", r"\intercal") or (
            t.text == "{"
            and self.peek(1) is not None
            and self.peek(1).text in (r"\top", r"\intercal")  # type: ignore[union-attr]
            and self.peek(2) is not None
            and self.peek(2).text == "}"  # type: ignore[union-attr]
        ):
            self.i += 1 if t.text != "{" else 3
            return _transpose(base)
        power = self.script()
        if isinstance(base, sp.MatrixExpr | sp.MatrixBase) and power == -1:
            return base.inverse() if isinstance(base, sp.MatrixExpr) else base.inv()
        return sp.Pow(base, power)

    def script(self) -> Any:
        """A group ``{...}`` or a single token after ^ or _."""
        if self.at("{"):
            self.next()
            value = self.expr()
            self.expect("}")
            return value
        t = self.next()
        if t.kind == "num":
            if len(t.text) > 1:
                raise ReadError(f"a script of several digits ({t.text}) without braces at position {t.pos}")
            return _number(t.text)
        self.i -= 1
        return self.primary()

    def group(self) -> Any:
        self.expect("{")
        value = self.expr()
        self.expect("}")
        return value

    def primary(self) -> Any:
        t = self.peek()
        if t is None:
            raise ReadError("the formula ends too early")
        if t.kind == "num":
            self.next()
            return _number(t.text)
        if t.text in ("(", "[", r"\{", "{"):
            return self.bracketed()
        if t.text == r"\lvert":
            self.next()
            value = self.expr()
            self.expect(r"\rvert")
            return sp.Abs(value)
        if t.text == r"\lVert":
            self.next()
            value = self.expr()
            self.expect(r"\rVert")
            # The derivation may say what its norm is (an operator "norm"): then it is that.
            return self.vocab.functions.get("norm", sp.Function("norm"))(value)
        if t.text in (r"\frac", r"\tfrac", r"\dfrac"):
            return self.fraction()
        if t.text == r"\sqrt":
            self.next()
            if self.at("["):
                self.next()
                n = self.expr()
                self.expect("]")
                return sp.root(self.group(), n)
            return sp.sqrt(self.group())
        if t.text in (r"\sum", r"\prod"):
            return self.big_operator()
        if t.text == r"\lim":
            return self.limit()
        if t.text == r"\partial":
            self.next()
            if self.at("_"):  # \partial_{z_j} f
                self.next()
                var = self.script()
                return sp.Derivative(self.term(), var)
            top = self.factor()  # \partial p_i / \partial z_j
            self.expect("/")
            self.expect(r"\partial")
            return sp.Derivative(top, self.factor())
        if t.text == r"\infty":
            self.next()
            return sp.oo
        if t.text in (r"\ldots", r"\dots", r"\cdots"):
            self.next()
            self.elided = True
            return _ELIDED
        if t.text == r"\mathbb{E}":
            self.next()
            arg = self.argument()
            # An expectation of sympy.stats variables is sympy.stats's own, unevaluated.
            return Expectation(arg) if sp.sympify(arg).atoms(RandomSymbol) else Ex(arg)
        if t.text.startswith(r"\begin{"):
            return self.matrix()
        if t.text[1:] in _STANDARD:
            return self.standard_function()
        if (t.kind == "group" and t.text.startswith(r"\operatorname{")) or t.text in (
            r"\mathrm{Var}",
            r"\text{Var}",
        ):
            return self.operator()
        if t.text == r"\delta" and self.peek(1) is not None and self.peek(1).text == "_":  # type: ignore[union-attr]
            key = self.name_key()
            known = self.lookup(key) if key is not None else None
            return known if known is not None else self._delta(key)
        if t.text == r"\pi" and not self.vocab.knows(r"\pi"):
            self.next()
            return sp.pi
        if t.text == "e" and not self.vocab.knows("e"):
            self.next()
            if self.at("^"):
                self.next()
                return sp.exp(self.script())
            return sp.E
        value = self.name()
        if value in self.unknown and self.at("(") and not self.defining:
            # An unknown name applied to arguments, \mathcal{N}(0, 1): a function of them.
            arg = self.argument()
            return sp.Function(str(value))(*(arg if isinstance(arg, tuple) else (arg,)))
        return value

    def argument(self) -> Any:
        """What an operator applies to: (x), [x] or {x}; several, comma separated, as a tuple."""
        close = {"(": ")", "[": "]", "{": "}"}
        if not self.at(*close):
            raise self._fail("expected a bracket")
        if self.at("{") and self.peek(1) is not None and self.peek(1).text in ("(", "["):  # type: ignore[union-attr]
            self.next()
            value = self.argument()
            self.expect("}")
            return value
        end = close[self.next().text]
        args = [self.expr()]
        while self.at(","):
            self.next()
            args.append(self.expr())
        self.expect(end)
        return args[0] if len(args) == 1 else tuple(args)

    def bracketed(self) -> Any:
        opening = self.next().text
        end = {"(": ")", "[": "]", r"\{": r"\}", "{": "}"}[opening]
        items = [self.expr()]
        while self.at(","):
            self.next()
            items.append(self.expr())
        self.expect(end)
        if len(items) == 1:
            return items[0]
        if opening == "[":
            return sp.Matrix([items])
        return sp.Tuple(*items)
