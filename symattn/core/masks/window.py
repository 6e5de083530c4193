"""The window mask: a query sees only the keys near its own position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .kind import MaskPart, alignment, offset, positive


@dataclass(frozen=True)
class Window(MaskPart):
    """Query i sees keys within ``width - 1`` positions of its aligned position."""

    kind = "window"
    usage = "window:W[:bottom-right]"
    forms = (
        (
            "window:W",
            "query i sees keys with |j - (i + offset)| < W; with `causal` this is the sliding window "
            "i - W < j <= i",
        ),
        ("window:W:bottom-right", "the same band aligned bottom-right"),
    )
    examples = ("window:1", "window:2", "window:2:bottom-right")

    width: int
    align: str = "top-left"

    @classmethod
    def read(cls, args: list[str], word: str) -> Window:
        width = positive(args[0] if args else None, word)
        return cls(width, alignment(args, 1, word))

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        return abs(j - (i + offset(self.align, n, m))) < self.width

    def spec(self) -> str:
        base = f"window:{self.width}"
        return base if self.align == "top-left" else f"{base}:{self.align}"
