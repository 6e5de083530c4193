"""``python -m symattn``: the same as the ``symattn`` command."""

from .cli import run

run()
