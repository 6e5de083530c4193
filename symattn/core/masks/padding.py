"""The padding mask: keys after the real tokens are placeholders, seen by no query."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..._text import count
from ...errors import MaskError
from .kind import MaskPart, positive


@dataclass(frozen=True)
class Padding(MaskPart):
    """Only the first ``length`` keys are real tokens; the rest are placeholders."""

    kind = "padding"
    usage = "padding:L"
    forms = (("padding:L", "keys at positions >= L are placeholders and blocked"),)
    examples = ("padding:1", "padding:2")

    length: int

    @classmethod
    def read(cls, args: list[str], word: str) -> Padding:
        length = positive(args[0] if args else None, word)
        if len(args) > 1:
            raise MaskError(f"malformed mask {word!r}: write padding:L")
        return cls(length)

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        if self.length > m:
            raise MaskError(f"padding:{self.length} asks for more real keys than the {count(m, 'key')} given")
        return j < self.length

    def spec(self) -> str:
        return f"padding:{self.length}"
