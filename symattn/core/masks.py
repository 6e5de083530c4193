"""Attention masks: which keys each query may see.

A mask is a sum of parts. Each part blocks some (query i, key j) pairs by adding ``-inf`` to
their scores; allowed pairs get ``0``. Parts combine by adding, so a pair is allowed only when
every part allows it. Positions count from 0 here (messages to users count from 1).

Parts, and the spec words that name them (joined with ``+``, e.g. ``causal+padding:2``):

==========================  ==============================================================
``none``                    allows everything
``causal``                  query i sees keys j <= i + offset; offset 0 aligns the first
                            query with the first key (PyTorch's ``is_causal``, "top-left")
``causal:bottom-right``     offset M - N: the last query sees the last key (PyTorch's
                            ``causal_lower_right``)
``padding:L``               keys at positions >= L are placeholders and blocked
``window:W``                query i sees keys with |j - (i + offset)| < W; with ``causal``
                            this is the sliding window i - W < j <= i
``window:W:bottom-right``   the same band aligned bottom-right
==========================  ==============================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sympy as sp

from .._text import count
from ..errors import EmptyRowError, MaskError

if TYPE_CHECKING:  # NumPy is imported where an array is asked for: the exact path runs without it
    import numpy as np

ALIGNMENTS = ("top-left", "bottom-right")
#: A mask as plain Python: rows of booleans, True where query i may see key j.
Table = tuple[tuple[bool, ...], ...]


@dataclass(frozen=True)
class Causal:
    """Query i may see keys up to its own aligned position."""

    align: str = "top-left"

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        """Whether query i may see key j (integers, or NumPy index grids)."""
        return j <= i + _offset(self.align, n, m)

    def spec(self) -> str:
        return "causal" if self.align == "top-left" else f"causal:{self.align}"


@dataclass(frozen=True)
class Padding:
    """Only the first ``length`` keys are real tokens; the rest are placeholders."""

    length: int

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        """Whether query i may see key j (integers, or NumPy index grids)."""
        if self.length > m:
            raise MaskError(f"padding:{self.length} asks for more real keys than the {count(m, 'key')} given")
        return j < self.length

    def spec(self) -> str:
        return f"padding:{self.length}"


@dataclass(frozen=True)
class Window:
    """Query i sees keys within ``width - 1`` positions of its aligned position."""

    width: int
    align: str = "top-left"

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        """Whether query i may see key j (integers, or NumPy index grids)."""
        return abs(j - (i + _offset(self.align, n, m))) < self.width

    def spec(self) -> str:
        base = f"window:{self.width}"
        return base if self.align == "top-left" else f"{base}:{self.align}"


MaskPart = Causal | Padding | Window


@dataclass(frozen=True)
class Mask:
    """A sum of mask parts; the empty sum is no mask.

    >>> Mask.parse("causal+padding:2").allowed(3, 3).astype(int)
    array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 0]])
    """

    parts: tuple[MaskPart, ...] = ()

    @classmethod
    def parse(cls, spec: str | None) -> Mask:
        """Read a spec such as ``none``, ``causal``, ``causal+window:3`` or ``padding:2``."""
        if spec is None:
            return cls()
        text = spec.strip().lower()
        if text in ("", "none"):
            return cls()
        parts = tuple(_parse_part(word.strip()) for word in text.split("+"))
        kinds = [type(p).__name__.lower() for p in parts]
        for kind in dict.fromkeys(kinds):
            if kinds.count(kind) > 1:
                raise MaskError(f"mask {spec.strip()!r} has {kind} twice: give each part once")
        return cls(parts)

    @property
    def is_none(self) -> bool:
        return not self.parts

    def spec(self) -> str:
        return "+".join(p.spec() for p in self.parts) or "none"

    def allowed(self, n: int, m: int) -> np.ndarray:
        """Boolean N x M array: True where query i may attend to key j."""
        import numpy as np

        i, j = np.arange(n)[:, None], np.arange(m)[None, :]
        ok = np.ones((n, m), dtype=bool)
        for part in self.parts:
            ok &= part.sees(i, j, n, m)
        return ok

    def table(self, n: int, m: int) -> Table:
        """The allowed pairs as rows of Python booleans (the exact path, without NumPy)."""
        for part in self.parts:
            part.sees(0, 0, n, m)  # a part that cannot apply at this size says so first
        return tuple(
            tuple(all(part.sees(i, j, n, m) for part in self.parts) for j in range(m)) for i in range(n)
        )

    def empty_rows(self, n: int, m: int) -> list[int]:
        """0-based indices of the query rows that the mask leaves with no allowed key."""
        return rows_without_keys(self.allowed(n, m))

    def check(self, n: int, m: int) -> np.ndarray:
        """The allowed array, after making sure every query keeps at least one key."""
        ok = self.allowed(n, m)
        require_keys(ok)
        return ok

    def check_table(self, n: int, m: int) -> Table:
        """:meth:`check` for the exact path: the allowed pairs as a :data:`Table`."""
        table = self.table(n, m)
        if empty := [i for i, row in enumerate(table) if not any(row)]:
            raise EmptyRowError(empty)
        return table

    def exact(self, n: int, m: int) -> sp.ImmutableMatrix:
        """The additive mask as an exact matrix: the sum of each part's 0 / -oo matrix."""
        total = sp.zeros(n, m)
        for part in self.parts:
            total += _additive(Mask((part,)).table(n, m))
        return sp.ImmutableMatrix(total)

    def numeric(self, n: int, m: int, dtype: Any = None) -> np.ndarray:
        """The additive mask as a float array of 0 and -inf (float64 unless ``dtype``)."""
        import numpy as np

        return np.where(self.allowed(n, m), 0.0, -np.inf).astype(dtype or np.float64)


def rows_without_keys(allowed: np.ndarray) -> list[int]:
    """0-based query rows (last-but-one axis, over any batch axes) with no allowed key."""
    import numpy as np

    return sorted({int(r) for r in np.nonzero(~allowed.any(axis=-1))[-1]})


def require_keys(allowed: np.ndarray) -> None:
    """Raise EmptyRowError naming every query row that has no allowed key."""
    if empty := rows_without_keys(allowed):
        raise EmptyRowError(empty)


def _additive(allowed: Table) -> sp.ImmutableMatrix:
    n, m = len(allowed), len(allowed[0]) if allowed else 0
    return sp.ImmutableMatrix(n, m, lambda i, j: 0 if allowed[i][j] else sp.S.NegativeInfinity)


def _offset(align: str, n: int, m: int) -> int:
    return 0 if align == "top-left" else m - n


_PART = re.compile(r"(causal|padding|window)(?::([^:]*))?(?::([^:]*))?")


def _parse_part(word: str) -> MaskPart:
    m = _PART.fullmatch(word)
    if not m:
        raise MaskError(f"unknown mask {word!r}: use none, causal, padding:L or window:W, joined with '+'")
    kind, a, b = m.groups()
    if kind == "causal":
        if b is not None:
            raise MaskError(f"malformed mask {word!r}: write causal or causal:bottom-right")
        return Causal(_align(a or "top-left", word))
    if a is None or a == "":
        raise MaskError(f"mask {kind} needs a number, e.g. {kind}:2")
    if not a.isdigit() or int(a) < 1:
        raise MaskError(f"mask {word!r}: {kind} takes a positive integer, got {a!r}")
    if kind == "padding":
        if b is not None:
            raise MaskError(f"malformed mask {word!r}: write padding:L")
        return Padding(int(a))
    return Window(int(a), _align(b or "top-left", word))


def _align(text: str, word: str) -> str:
    if text not in ALIGNMENTS:
        raise MaskError(f"mask {word!r}: alignment must be top-left or bottom-right")
    return text
