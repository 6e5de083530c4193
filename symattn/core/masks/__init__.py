"""Attention masks: which keys each query may see.

A mask is a sum of parts. Each part blocks some (query i, key j) pairs by adding ``-inf`` to
their scores; allowed pairs get ``0``. Parts combine by adding, so a pair is allowed only when
every part allows it. Positions count from 0 here (messages to users count from 1).

Each kind of part is a class in a module of this package (:mod:`.kind` says what a kind
declares); importing the package registers every one. The spec words that name them, joined
with ``+`` (e.g. ``causal+padding:2``), ``none`` for no mask:

{kinds}
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import EmptyRowError, MaskError
from .kind import ALIGNMENTS, KINDS, MaskPart, short

if TYPE_CHECKING:  # NumPy and SymPy are imported where an array or a matrix is asked for: the
    import numpy as np  # command line reads a spec (and its help lists the kinds) without them
    import sympy as sp

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")

__all__ = ["ALIGNMENTS", "KINDS", "Mask", "MaskPart", "Table", "kinds", "kinds_table", "usage"]

#: A mask as plain Python: rows of booleans, True where query i may see key j.
Table = tuple[tuple[bool, ...], ...]


def kinds() -> list[type[MaskPart]]:
    """Every kind of mask part, in the order of their words."""
    return [KINDS[name] for name in sorted(KINDS)]


def usage() -> str:
    """How a spec is written, for the command's help: each kind's usage, joined with +."""
    return ", ".join(["none", *(kind.usage for kind in kinds())]) + ", joined with +"


def kinds_table(markdown: bool = False) -> str:
    """Each written form with what it allows: a reStructuredText table for the docstring, or
    a Markdown table for the guide."""
    rows = [("none", "allows everything")] + [form for kind in kinds() for form in kind.forms]
    if markdown:
        lines = ["| spec | what it allows |", "| --- | --- |"]
        cells = [(spec, what.replace("|", "\\|")) for spec, what in rows]  # a bar inside a cell
        return "\n".join(lines + [f"| `{spec}` | {what} |" for spec, what in cells])
    width = max(len(spec) for spec, _ in rows) + 4
    rule = "=" * width + "  " + "=" * max(len(what) for _, what in rows)
    body = [f"{'``' + spec + '``':<{width}}  {what.replace('`', '``')}" for spec, what in rows]
    return "\n".join([rule, *body, rule])


if __doc__:  # (the browser checker's bytecode leaves docstrings out)
    __doc__ = __doc__.format(kinds=kinds_table())


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
        parts = tuple(_read_part(word.strip()) for word in text.split("+"))
        named = [p.kind for p in parts]
        for kind in dict.fromkeys(named):
            if named.count(kind) > 1:
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
        import sympy as sp

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
    import sympy as sp

    n, m = len(allowed), len(allowed[0]) if allowed else 0
    return sp.ImmutableMatrix(n, m, lambda i, j: 0 if allowed[i][j] else sp.S.NegativeInfinity)


def _read_part(word: str) -> MaskPart:
    kind, *args = word.split(":")
    found = KINDS.get(kind)
    if found is None or len(args) > found.most_arguments:
        named = [short(k) for k in kinds()]
        listed = f"none, {', '.join(named[:-1])} or {named[-1]}"
        raise MaskError(f"unknown mask {word!r}: use {listed}, joined with '+'")
    return found.read(args, word)
