"""Limits shared by the library and the command line (kept free of heavy imports)."""

#: Most significant digits a caller may ask for.
MAX_DIGITS = 1000

# -- the labs (symattn/labs/simulation.py); the command line states these in its help and errors --------
#: Fewest draws per width of the variance lab: its 95 % interval is calibrated from here on
#: (coverage 93-97 % at every width, checked in tests/labs/test_intervals.py).
MIN_DRAWS = 1000
#: Most draws (variance lab) or trials (saturation lab) in one run.
MAX_COUNT = 10**9
#: Largest width d_k, and most keys, in either lab.
MAX_WIDTH = 10**6
MAX_KEYS = 10**6
#: Most widths in one variance run.
MAX_WIDTHS = 64
#: Most random numbers one run may draw (its figure counted apart): this bounds the time, to
#: about 1-2 minutes of CPU (20,000,000 reduced saturation trials, 1.3e9 numbers, took 50 s).
MAX_NUMBERS = 2 * 10**9
MAX_NUMBERS_TEXT = "2 x 10^9"

#: ``symattn audit --strict``: the share of claims, in percent, that must be decided
#: (certified or wrong), issue 47's goal for texts the audit reads.
AUDIT_STRICT_DECIDED = 80
#: What one audit reads, bounded by the text, never by the clock (a longer text is audited to
#: the bound, and the report says where it stopped): characters of the text as read (a
#: notebook's markdown, a LaTeX file's prose and math) and formulas evaluated. At the bounds an
#: audit takes under 10 s of CPU on this project's 2-core machines (bench/audit_texts.py).
AUDIT_CHARACTERS = 2_000_000
AUDIT_FORMULAS = 1_500
#: Lines of prose, math and tables one audit reads (the course module has about 260, a long
#: notebook's markdown about 1,000).
AUDIT_LINES = 2_500
#: The largest notebook file read (its outputs and images count; its JSON is read whole).
AUDIT_NOTEBOOK_BYTES = 64 << 20

#: Most digits a power of numbers in a learner's answer or proof may have before symattn stops
#: computing with it exactly (estimated, never computed: :mod:`symattn.proof.magnitude`).
#: Answers need a few; ``10^{10^{10}}`` has ten billion. Exact normal forms factor the numbers
#: they meet: SymPy's primality test on the 9,542 digits of 3^20000 + 1 took 24 s of CPU, on a
#: thousand digits well under a second.
MAX_POWER_DIGITS = 1_000
#: What a learner is told when a number past it stops a check.
TOO_MANY_DIGITS = f"too costly to check: a number of more than {MAX_POWER_DIGITS:,} digits"
#: Most terms an expression in a learner's answer may multiply out to before symattn stops
#: proving it exact (counted on its tree, never expanded: :func:`symattn.proof.magnitude.expanded_terms`).
#: The banks' answers and the built-in derivations need at most a few dozen;
#: ``(1 + \\sqrt{2})^{2000}`` would take 2,001 (at 26,000, some 16 s of SymPy's work).
MAX_EXPANDED_TERMS = 1_000
