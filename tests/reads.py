"""What a module asks to read of the files it opens: its ``open`` shadowed (in its globals only) by
one whose files record each size passed to ``read``. For limits on a read, which the verdict alone
cannot show (a file read past its limit is refused all the same)."""

from __future__ import annotations

import builtins
import contextlib
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest


def record_reads(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[Any]:
    sizes: list[Any] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        fh = builtins.open(*args, **kwargs)  # noqa: SIM115 (the caller closes it)
        read = fh.read

        def counted(size: Any = -1) -> Any:
            sizes.append(size)
            return read(size)

        fh.read = counted
        return fh

    monkeypatch.setattr(module, "open", recording, raising=False)
    return sizes


@contextlib.contextmanager
def os_reads() -> Iterator[list[int]]:
    """The size of each chunk ``os.read`` returns while the block runs (for code that reads a file
    descriptor in pieces); ``os.read`` is itself again after it."""
    taken: list[int] = []
    read = os.read

    def counted(fd: int, n: int) -> bytes:
        chunk = read(fd, n)
        taken.append(len(chunk))
        return chunk

    os.read = counted
    try:
        yield taken
    finally:
        os.read = read
