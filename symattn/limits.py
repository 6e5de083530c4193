"""Limits shared by the library and the command line (kept free of heavy imports)."""

#: Most significant digits a caller may ask for.
MAX_DIGITS = 1000

# -- the labs (symattn/labs.py); the command line states these in its help and errors --------
#: Fewest draws per width of the variance lab: its 95 % interval is calibrated from here on
#: (coverage 93-97 % at every width, checked in tests/test_intervals.py).
MIN_DRAWS = 1000
#: Most draws (variance lab) or trials (saturation lab) in one run.
MAX_COUNT = 10**9
#: Largest width d_k, and most keys, in either lab.
MAX_WIDTH = 10**6
MAX_KEYS = 10**6
#: Most widths in one variance run.
MAX_WIDTHS = 64
#: Most random numbers one run may draw (figures included): about 5-20 minutes on one core.
MAX_NUMBERS = 10**10
