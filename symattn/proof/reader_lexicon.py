"""The words of the reader (:mod:`symattn.proof.reader`): its tokens, the vocabulary a
derivation's names and operators are read against, and the small rules of its algebra (a
matrix product, an inverse, a transpose)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..errors import SymattnError


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














_ELIDED = sp.Symbol("…")
#: Functions LaTeX writes as commands, read as SymPy's.
_STANDARD: dict[str, Callable[..., Any]] = {
    **{name: getattr(sp, name) for name in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "exp", "log")},
    "ln": sp.log,
    "max": sp.Max,
    "min": sp.Min,
}
_RELATIONALS = {"=": sp.Eq, "<": sp.Lt, ">": sp.Gt, "<=": sp.Le, ">=": sp.Ge, "≠": sp.Ne}


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
