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


#: The environment of a process whose locale is ASCII: the C locale, with neither Python's UTF-8
#: mode nor its coercion of that locale (so open() without an encoding would be ASCII).
ASCII_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
