"""What a kind of mask part is, and the registry every kind joins by being defined.

A kind is one class, in a module of its own in this package: it subclasses :class:`MaskPart`,
names itself (``kind``), shows how it is written (``usage``, with optional parts in brackets)
and what each written form allows (``forms``), reads its arguments (``read``) and says whether
query i may see key j (``sees``). Defining the class registers it: the spec reader, the
command's help, the errors, this package's docstring and the guide's table all come from
:data:`KINDS`, so a new kind is one new file and its tests.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ...errors import MaskError

ALIGNMENTS = ("top-left", "bottom-right")

#: Every kind of mask part, by the word that names it in a spec.
KINDS: dict[str, type[MaskPart]] = {}


class MaskPart:
    """One part of a mask: it blocks some (query i, key j) pairs and allows the rest."""

    #: The word that names the kind in a spec (``causal``).
    kind: ClassVar[str]
    #: How the kind is written, optional parts in brackets (``window:W[:bottom-right]``).
    usage: ClassVar[str]
    #: Each form the kind is written in, with what it allows (the guide's and docstring's rows).
    forms: ClassVar[tuple[tuple[str, str], ...]]
    #: Specs the tests compare with their own loops written from the definitions.
    examples: ClassVar[tuple[str, ...]]
    #: How many ``:``-separated arguments the kind's word may carry.
    most_arguments: ClassVar[int] = 2

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("kind", "usage", "forms", "examples"):
            if name not in cls.__dict__:
                raise TypeError(f"mask kind {cls.__name__} does not declare {name}")
        if not re.fullmatch(r"[a-z][a-z-]*", cls.kind) or cls.kind == "none":
            raise TypeError(f"mask kind {cls.__name__}: {cls.kind!r} cannot name a kind")
        if cls.kind in KINDS and KINDS[cls.kind].__qualname__ != cls.__qualname__:
            first = KINDS[cls.kind].__name__
            raise TypeError(f"mask kind {cls.kind!r} is defined twice ({first}, {cls.__name__})")
        KINDS[cls.kind] = cls

    @classmethod
    def read(cls, args: list[str], word: str) -> MaskPart:
        """The part a spec word names, from the arguments after its kind (``word`` for errors)."""
        raise NotImplementedError

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        """Whether query i may see key j (integers, or NumPy index grids), for N queries, M keys."""
        raise NotImplementedError

    def spec(self) -> str:
        """The part as it is written in a spec."""
        raise NotImplementedError


def short(kind: type[MaskPart]) -> str:
    """The kind's usage without its optional parts (``window:W``)."""
    return re.sub(r"\[[^\]]*\]", "", kind.usage)


def positive(value: str | None, word: str) -> int:
    """A kind's required positive integer argument (of the spec word ``word``), or a MaskError
    saying what is wrong."""
    kind = word.split(":")[0]
    if value is None or value == "":
        raise MaskError(f"mask {kind} needs a number, e.g. {kind}:2")
    if not value.isdigit() or int(value) < 1:
        raise MaskError(f"mask {word!r}: {kind} takes a positive integer, got {value!r}")
    return int(value)


def alignment(args: list[str], at: int, word: str) -> str:
    """The alignment argument at ``args[at]`` (``top-left`` or ``bottom-right``), checked; absent
    or empty (``causal:``), top-left."""
    text = (args[at] if len(args) > at else "") or "top-left"
    if text not in ALIGNMENTS:
        raise MaskError(f"mask {word!r}: alignment must be top-left or bottom-right")
    return text


def offset(align: str, n: int, m: int) -> int:
    """How far query i's aligned key is from key i: 0 top-left, M - N bottom-right."""
    return 0 if align == "top-left" else m - n
