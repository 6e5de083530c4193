"""The ``symattn`` command line: :func:`main` parses arguments (:mod:`.app`) and runs a
subcommand (:mod:`.commands`). The top layer: nothing else in symattn imports it.
"""

from __future__ import annotations

from .app import main, run

__all__ = ["main", "run"]
