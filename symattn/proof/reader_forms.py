"""The reader's larger forms (:mod:`symattn.proof.reader`): fractions, sums and products with
their limits, limits, matrices, standard functions, operators, and names with their scripts,
kept here as a mixin of the parser."""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from .operators import Var
from .reader_lexicon import _GREEK, _NAME_COMMANDS, _STANDARD, ReadError, _canonical, _inverse, _key, _times


class _Forms:
    """The parser's methods for the larger forms (mixed into :class:`~symattn.proof.reader._Parser`)."""

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
        sub = type(self)(toks, self.vocab, self.strict)
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
