"""The causal mask: a query sees no key after its own position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import MaskError
from .kind import MaskPart, alignment, offset


@dataclass(frozen=True)
class Causal(MaskPart):
    """Query i may see keys up to its own aligned position."""

    kind = "causal"
    usage = "causal[:bottom-right]"
    forms = (
        (
            "causal",
            "query i sees keys j <= i + offset; offset 0 aligns the first query with the first key "
            "(PyTorch's `is_causal`, \"top-left\")",
        ),
        (
            "causal:bottom-right",
            "offset M - N: the last query sees the last key (PyTorch's `causal_lower_right`)",
        ),
    )
    examples = ("causal", "causal:bottom-right")

    align: str = "top-left"

    @classmethod
    def read(cls, args: list[str], word: str) -> Causal:
        if len(args) > 1:
            raise MaskError(f"malformed mask {word!r}: write causal or causal:bottom-right")
        return cls(alignment(args, 0, word))

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        return j <= i + offset(self.align, n, m)

    def spec(self) -> str:
        return "causal" if self.align == "top-left" else f"causal:{self.align}"
