"""What a claim rule may ask of the audit that runs it (:class:`AuditContext`).

The rules of :mod:`.words` and :mod:`.cost` are called by :class:`.rules.Auditor` with itself as
``au``; they depend on this description of it, not on the auditor's module, so that the rules
and the auditor do not import each other.
"""

from __future__ import annotations

from typing import Protocol

from .contractions import Axes
from .document import Document, Line
from .facts import Facts
from .match import Figures
from .shapes import Shapes


class AuditContext(Protocol):
    """The document being audited, its facts and values, and the line-level helpers."""

    doc: Document
    facts: Facts
    env: dict
    figures: Figures
    shapes: Shapes
    shapes_block: int
    axes: Axes
    index_letters: set[str] | None
    #: The relations between sizes the text assumed so far (``F = 4D``): each letter and its value.
    relations: list
    #: The wholes the text stated as parts so far (a set, a dataset of classes), by kind.
    wholes: dict
    #: Spans of later lines that a claim already made holds, by line number (covered when read).
    ahead: dict
    #: Totals certified so far in the text's letters (a table's row of totals, a cache's size):
    #: (line, value, the noun of what they count).
    totals: list

    def premises(self, line: Line) -> dict: ...

    def previous_block(self, line: Line) -> str: ...

    def example_context(self, line: Line) -> bool: ...
