"""Limits shared by the library and the command line (kept free of heavy imports)."""

#: Most significant digits a caller may ask for.
MAX_DIGITS = 1000
