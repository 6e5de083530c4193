"""Presentation: results as text, Markdown, LaTeX, JSON and the generated site.

Functions here take results (attention steps, derivation reports, verdicts, audits, lab
results) and return text; they never compute them. :mod:`.site` generates ``docs/``. This
layer imports every layer below it and never the command line (:mod:`symattn.cli`).
"""
