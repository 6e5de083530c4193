"""How Jupyter shows symattn's results, without a result importing its renderer.

IPython asks an object for ``_repr_markdown_`` and ``_repr_latex_``. A result class derives from
:class:`Shown`, which answers with the function the presentation layer registered for the
class (:func:`register`; :mod:`symattn.present.jupyter` registers them and ``import symattn``
runs it), or None, and IPython then shows plain text. So the result lives in a low layer, its
rendering in :mod:`symattn.present`, and no arrow points up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_SHOWN: dict[tuple[str, str], Callable[[Any], str]] = {}


def register(cls: str, kind: str, show: Callable[[Any], str]) -> None:
    """Show instances of the class named ``cls`` (``module.Class``) as ``kind`` with ``show``."""
    _SHOWN[cls, kind] = show


def _show(obj: Any, kind: str) -> str | None:
    show = _SHOWN.get((f"{type(obj).__module__}.{type(obj).__qualname__}", kind))
    return show(obj) if show else None


class Shown:
    """A result Jupyter shows as Markdown and LaTeX, by the functions registered for its class."""

    def _repr_markdown_(self) -> str | None:
        return _show(self, "markdown")

    def _repr_latex_(self) -> str | None:
        return _show(self, "latex")
