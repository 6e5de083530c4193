"""The encodings a module asks ``open`` (or ``os.fdopen``) for, recorded in-process: a file written
or read without an encoding takes the locale's, which only a process of its own under an ASCII
locale shows (tests/terminal.py's ASCII_LOCALE tests do); this records what was asked for."""

from __future__ import annotations

import builtins
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest


def record_opens(monkeypatch: pytest.MonkeyPatch, module: ModuleType, *paths: str | Path) -> list[tuple]:
    """(file name, mode, encoding) of each text-mode open of one of ``paths`` by ``module``'s
    ``open``."""
    asked: list[tuple] = []
    names = {str(p): Path(p).name for p in paths}

    def recording(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if str(file) in names and "b" not in mode:
            asked.append((names[str(file)], mode, kwargs.get("encoding")))
        return builtins.open(file, mode, *args, **kwargs)

    monkeypatch.setattr(module, "open", recording, raising=False)
    return asked


def record_fdopens(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """(mode, encoding) of each text-mode ``os.fdopen``."""
    asked: list[tuple[str, Any]] = []
    real = os.fdopen

    def recording(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "b" not in mode:
            asked.append((mode, kwargs.get("encoding")))
        return real(fd, mode, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", recording)
    return asked
