"""``symattn build`` and ``symattn verify``: running everything the documentation reports.

This layer sits above :mod:`symattn.present` and below the command line: it verifies the
derivations (:mod:`.verify`), runs the labs, plants the errors, audits the module and the public
texts, judges the worked examples, and hands the results to :mod:`symattn.present`, which only
turns results into text (:mod:`.site` writes docs/ from them; :mod:`.author_pages` runs the
example plugin for the two pages for authors).
"""
