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

from ..errors import SymattnError
from .operators import Ex, Var


class ReadError(SymattnError, ValueError):
    """A formula cannot be read: the message says what and where."""


#: Relations, by how they are written, and the name the engine gives them.
RELATIONS = {
    "=": "=",
    "<": "<",
    ">": ">",
    r"\le": "<=",
    r"\leq": "<=",
    r"\ge": ">=",
    r"\geq": ">=",
    r"\neq": "≠",
    r"\ne": "≠",
    r"\approx": "≈",
    r"\iff": "⟺",
    r"\Leftrightarrow": "⟺",
    r"\sim": "~",
}

_GREEK = {
    *("alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "iota"),
    *("kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "varphi", "chi"),
    *("psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Sigma", "Phi", "Psi", "Omega"),
}
#: Commands that take one group and make a name of it.
_NAME_COMMANDS = {"tilde", "bar", "hat", "vec", "mathbf", "mathrm", "mathcal", "boldsymbol", "text", "mathit"}
#: Commands that only space or size what follows.
_IGNORED = {
    *(",", ";", ":", "!", " ", "quad", "qquad"),
    *("displaystyle", "textstyle", "big", "Big", "bigl", "bigr"),
}
_TOKEN = re.compile(r"(?P<cmd>\\(?:[A-Za-z]+|.))|(?P<num>\d+(?:\.\d+)?)|(?P<letter>[A-Za-z])|(?P<op>\S)")
#: Largest text read: a formula of a page is a line or two.
MAX_CHARS = 4000


@dataclass(frozen=True)
class Token:
    kind: str  # cmd, num, letter, op, group (a \text{...}-like command with its raw content)
    text: str
    pos: int


def tokenize(text: str) -> list[Token]:
    if len(text) > MAX_CHARS:
        raise ReadError(f"a formula of {len(text)} characters is longer than {MAX_CHARS}")
    out: list[Token] = []
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        assert m is not None
        kind, value = m.lastgroup or "op", m.group()
        if kind == "cmd" and value[1:] in ("text", "operatorname", "mathrm", "mathbb", "begin", "end"):
            close = _closing(text, m.end())
            if close is None:
                raise ReadError(f"{value} at position {pos} has no {{...}} after it")
            inner = text[m.end() + 1 : close].strip()
            out.append(Token("group", f"{value}{{{' '.join(inner.split())}}}", pos))
            pos = close + 1
            continue
        if kind == "cmd" and value[1:] in _IGNORED:
            pos = m.end()
            continue
        if kind == "cmd" and value in (r"\left", r"\right"):
            nxt = _TOKEN.match(text, _skip(text, m.end()))
            if nxt is None:
                raise ReadError(f"{value} at position {pos} has no bracket after it")
            bracket = nxt.group()
            if bracket == ".":
                pos = nxt.end()
                continue
            out.append(Token("op" if len(bracket) == 1 else "cmd", bracket, pos))
            pos = nxt.end()
            continue
        out.append(Token(kind, value, pos))
        pos = m.end()
    return out


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _closing(text: str, pos: int) -> int | None:
    pos = _skip(text, pos)
    if pos >= len(text) or text[pos] != "{":
        return None
    depth = 0
    for k in range(pos, len(text)):
        if text[k] == "{" and text[k - 1] != "\\":
            depth += 1
        elif text[k] == "}" and text[k - 1] != "\\":
            depth -= 1
            if depth == 0:
                return k
    return None


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


_ELIDED = sp.Symbol("…")
#: Functions LaTeX writes as commands, read as SymPy's.
_STANDARD: dict[str, Callable[..., Any]] = {
    **{name: getattr(sp, name) for name in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "exp", "log")},
    "ln": sp.log,
    "max": sp.Max,
    "min": sp.Min,
}
_RELATIONALS = {"=": sp.Eq, "<": sp.Lt, ">": sp.Gt, "<=": sp.Le, ">=": sp.Ge, "≠": sp.Ne}


class _Parser:
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

    def fraction(self) -> Any:
        self.next()
        t = self.peek()
        if t is not None and t.kind == "num" and len(t.text) == 2:  # \tfrac14
            self.next()
            return sp.Rational(int(t.text[0]), int(t.text[1]))
        if self.at("{") and self.peek(1) is not None and self.peek(1).text == r"\partial":  # type: ignore[union-attr]
            self.next()
            self.next()
            top = self.term()
            self.expect("}")
            self.expect("{")
            self.expect(r"\partial")
            var = self.term()
            self.expect("}")
            return sp.Derivative(top, var)
        top = self.script()
        bottom = self.script()
        return _times(top, _inverse(bottom))

    def big_operator(self) -> Any:
        kind = sp.Sum if self.next().text == r"\sum" else sp.Product
        if not self.at("_"):
            raise self._fail("a sum or product without its index")
        self.next()
        low = high = None
        before = set(self.unknown)
        if self.at("{"):
            self.next()
            index = self.name()
            if self.at("="):
                self.next()
                low = self.expr()
            self.expect("}")
        else:
            index = self.name()
        if not isinstance(index, sp.Symbol):  # \sum_k where k also names a family
            index = sp.Symbol(str(index), integer=True, positive=True)
        if self.at("^"):
            self.next()
            high = self.script()
        if low is None or high is None:
            # \sum_k: the range the derivation sums k over, or 1 to an unknown bound.
            known = self.vocab.ranges.get(str(index))
            if known is None:
                bound = sp.Symbol(f"n_{{{index}}}", integer=True, positive=True)
                self.unknown.add(bound)
                known = (sp.S.One, bound)
            low, high = known if low is None else (low, known[1])
        body = self.term()
        self._bound(index, before)
        return kind(body, (index, low, high))

    def _bound(self, index: Any, before: set[sp.Symbol]) -> None:
        if index not in before:
            self.unknown.discard(index)

    def limit(self) -> Any:
        self.next()
        self.expect("_")
        self.expect("{")
        var = self.name()
        self.expect(r"\to")
        point = self.primary()
        direction = "+-"
        if self.at("^"):
            self.next()
            side = self.next().text
            if side == "{":
                side = self.next().text
                self.expect("}")
            direction = side
        self.expect("}")
        return sp.Limit(self.term(), var, point, direction)

    def matrix(self) -> Any:
        begin = self.next().text
        if begin not in (r"\begin{bmatrix}", r"\begin{pmatrix}", r"\begin{matrix}"):
            raise ReadError(f"{begin} is not a matrix")
        rows: list[list[Any]] = [[]]
        while True:
            rows[-1].append(self.expr())
            t = self.next()
            if t.text == "&":
                continue
            if t.text == "\\\\":
                if self.peek() is not None and self.peek().text.startswith(r"\end{"):  # type: ignore[union-attr]
                    self.next()
                    break
                rows.append([])
                continue
            if t.text == begin.replace("begin", "end"):
                break
            raise ReadError(f"unexpected {t.text!r} at position {t.pos} in a matrix")
        if len({len(r) for r in rows}) != 1:
            raise ReadError("a matrix whose rows differ in length")
        return sp.Matrix(rows)

    def standard_function(self) -> Any:
        """\\sin x, \\sin^{2}{\\left(x \\right)}, \\log(x), \\exp{\\left(x \\right)}: SymPy's function."""
        f = _STANDARD[self.next().text[1:]]
        power = None
        if self.at("^"):
            self.next()
            power = self.script()
        arg = self.argument() if self.at("(", "[", "{") else self.factor()
        value = f(*(arg if isinstance(arg, tuple) else (arg,)))
        return value if power is None else value**power

    def operator(self) -> Any:
        t = self.next()
        name = re.sub(r"^\\(?:operatorname|mathrm|text)\{(.*)\}$", r"\1", t.text).lstrip("\\")
        if name == "Var":
            return Var(self.argument())
        arg = self.argument()
        args = arg if isinstance(arg, tuple) else (arg,)
        if name in _STANDARD:
            return _STANDARD[name](*args)
        f = self.vocab.functions.get(name)
        if f is None:
            f = sp.Function(name)
        return f(*args)

    # -- names -------------------------------------------------------------------------------
    def _base(self) -> str | None:
        base = self._base_only()
        while base is not None and self.at("'"):
            self.next()
            base += "'"
        return base

    def _base_only(self) -> str | None:
        t = self.peek()
        if t is None:
            return None
        if t.kind == "letter":
            self.next()
            after = self.peek()
            # h1 in h1_{11}, a name SymPy prints so: one base where the vocabulary has it.
            if after is not None and after.kind == "num" and after.pos == t.pos + 1 and "." not in after.text:
                joined = t.text + after.text
                if self.defining or any(k.startswith(joined) for k in self.vocab.names):
                    self.next()
                    return joined
            return t.text
        if t.kind == "group" and t.text.startswith((r"\text{", r"\mathrm{")):
            self.next()
            return t.text
        if t.kind == "cmd" and t.text[1:] in _GREEK:
            self.next()
            return t.text
        if t.kind == "cmd" and t.text[1:] in _NAME_COMMANDS:
            self.next()
            inner = self._raw_group()
            return f"{t.text}{{{inner}}}"
        return None

    def _raw_group(self) -> str:
        """The tokens of a ``{...}`` group (or one token) as canonical text."""
        if not self.at("{"):
            return self.next().text
        self.next()
        parts, depth = [], 0
        while True:
            t = self.next()
            if t.text == "{":
                depth += 1
            elif t.text == "}":
                if depth == 0:
                    break
                depth -= 1
            parts.append(t.text)
        return _canonical(parts)

    def _script_tokens(self) -> tuple[str, int, int]:
        """The canonical text of a script after _ or ^, and its token span."""
        start = self.i
        text = self._raw_group()
        return text, start, self.i

    def name_key(self) -> str | None:
        """Read a name with every script that follows it: its key."""
        base = self._base()
        if base is None:
            return None
        sub = sup = None
        while self.at("_", "^"):
            which = self.next().text
            text, _, _ = self._script_tokens()
            if which == "_":
                sub = text
            else:
                sup = text
        return _key(base, sub, sup)

    def name(self) -> Any:
        start = self.i
        base = self._base()
        if base is None:
            raise self._fail(f"cannot read {self.peek().text!r}" if self.peek() else "a name was expected")  # type: ignore[union-attr]
        # The longest key the vocabulary knows: base with subscript and superscript, base with
        # subscript, base alone (a superscript left is then a power or a transpose).
        scripts: list[tuple[str, str, int, int]] = []
        while self.at("_", "^") and len(scripts) < 2:
            which = self.next().text
            text, a, b = self._script_tokens()
            scripts.append((which, text, a, b))
        # A subscript is never a power: a name written with one is known with it, or unknown.
        least = 1 if scripts and scripts[0][0] == "_" else 0
        for keep in range(len(scripts), least - 1, -1):
            kept = scripts[:keep]
            sub = next((t for w, t, _, _ in kept if w == "_"), None)
            sup = next((t for w, t, _, _ in kept if w == "^"), None)
            key = _key(base, sub, sup)
            if self.vocab.knows(key):
                self.i = scripts[keep - 1][3] if keep else self._after_base(start)
                return self.lookup(key)
            alone = _key(base, None, None)
            base_obj = self.lookup(alone) if self.vocab.knows(alone) else None
            if sub is not None and sup is None and isinstance(base_obj, sp.IndexedBase):
                _, _, a, b = next(s for s in kept if s[0] == "_")
                self.i = b
                return base_obj[tuple(self._indices(a, b))]
        # Unknown: a placeholder named by what is written. A subscript first is part of the
        # name (z_i), a superscript after it a power; a superscript first and a subscript after
        # it make a label together (\chi^2_d); a superscript alone is a power.
        if scripts and scripts[0][0] == "_":
            sub, sup, self.i = scripts[0][1], None, scripts[0][3]
        elif len(scripts) == 2:
            sub, sup, self.i = scripts[1][1], scripts[0][1], scripts[1][3]
        else:
            sub, sup, self.i = None, None, self._after_base(start)
        symbol = sp.Symbol(_key(base, sub, sup))
        if self.strict:
            self.unknown.add(symbol)
        return symbol

    def _after_base(self, start: int) -> int:
        self.i = start
        self._base()
        return self.i

    def _indices(self, a: int, b: int) -> list[Any]:
        """The indices of a subscript token span: ``{i j}``, ``{ij}``, ``{i, j}`` or ``i``."""
        toks = self.toks[a:b]
        if toks and toks[0].text == "{":
            toks = toks[1:-1]
        parts = [t for t in toks if t.text != ","]
        if all(t.kind == "letter" for t in parts) and len(parts) > 1:
            return [self._index(t.text) for t in parts]
        sub = _Parser(toks, self.vocab, self.strict)
        values = [sub.expr()]
        while sub.at(","):
            sub.next()
            values.append(sub.expr())
        self.unknown |= sub.unknown
        return values

    def _index(self, letter: str) -> Any:
        obj = self.lookup(letter)
        if obj is None:
            obj = sp.Symbol(letter, integer=True, positive=True)
            if self.strict:
                self.unknown.add(obj)
        return obj

    def _delta(self, key: str | None) -> Any:
        assert key is not None
        inner = key.split("_", 1)[1].strip("{}")
        letters = inner.replace(",", " ").split()
        if len(letters) == 1 and len(letters[0]) == 2:
            letters = list(letters[0])
        if len(letters) != 2:
            raise ReadError(f"\\delta with subscript {inner!r}: two indices were expected")
        return sp.KroneckerDelta(*(self._index(x) for x in letters))


def _key(base: str, sub: str | None, sup: str | None) -> str:
    return base + (f"_{{{sub}}}" if sub is not None else "") + (f"^{{{sup}}}" if sup is not None else "")


def _canonical(parts: list[str]) -> str:
    """Token texts joined as one canonical string: a space only between a command and a letter."""
    out = ""
    for p in parts:
        if out and re.search(r"\\[A-Za-z]+$", out) and re.match(r"[A-Za-z]", p):
            out += " "
        out += p
    return out


def _number(text: str) -> sp.Rational:
    return sp.Rational(text) if "." in text else sp.Integer(text)


def _is_matrix(x: Any) -> bool:
    return isinstance(x, sp.MatrixBase | sp.MatrixExpr)


def _times(a: Any, b: Any) -> Any:
    if _is_matrix(a) and _is_matrix(b):
        return a @ b if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase) else sp.MatMul(a, b)
    return a * b


def _inverse(x: Any) -> Any:
    if _is_matrix(x):
        raise ReadError("division by a matrix")
    return sp.Pow(x, -1)


def _transpose(x: Any) -> Any:
    if isinstance(x, sp.MatrixBase):
        return x.T
    if isinstance(x, sp.MatrixExpr):
        return sp.Transpose(x)
    raise ReadError(f"a transpose of {x}, which is not a matrix")
