"""Presentation: results as text, Markdown, LaTeX, JSON and the generated site.

Functions here take results (attention steps, derivation reports, verdicts, audits, lab
results) and return text; they never compute them (``tests/test_layout.py`` checks that no
module here imports a runner). :mod:`symattn.build` runs what the site reports and hands the
results here. This layer imports every layer below it, never :mod:`symattn.build` or the
command line (:mod:`symattn.cli`).
"""
