"""``python -m symattn``: the same as the ``symattn`` command."""

import sys

from .cli import main

sys.exit(main())
