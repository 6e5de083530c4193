"""A module as one module of symattn sees it, with some of its functions replaced: patched where that
module looks it up (``monkeypatch.setattr(app, "os", StandIn(os, _exit=...))``), never on the real
module, whose functions the test process's other threads and forked workers go on using."""

from __future__ import annotations

from types import ModuleType
from typing import Any


class StandIn:
    def __init__(self, module: ModuleType, **replaced: Any) -> None:
        self._module = module
        self.__dict__.update(replaced)

    def __getattr__(self, name: str) -> Any:  # only what was not replaced
        return getattr(self._module, name)
