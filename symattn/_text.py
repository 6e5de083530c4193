"""Small text helpers shared by messages and printers."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in agreement: ``count(1, "key")`` is "1 key", ``count(2, "query",
    "queries")`` is "2 queries"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def exception_line(exc: BaseException) -> str:
    """An exception as one line: its kind, and its message where it has one."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
