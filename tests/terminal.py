"""A stand-in for a terminal's stderr, for the tests of what is shown only on a terminal."""

from __future__ import annotations

import io


class Terminal(io.StringIO):
    """Collects what is written, and says it is a terminal."""

    def isatty(self) -> bool:
        return True

    @property
    def text(self) -> str:
        return self.getvalue()
