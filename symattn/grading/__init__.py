"""Grading: everything that judges text written by someone else, in four parts.

- :mod:`.answers`: a learner's answer, read as a careful grader reads it and judged exactly;
- :mod:`.proofs`: a learner's derivation, judged step by step;
- :mod:`.audit`: a module's numeric claims and answer keys;
- :mod:`.batch`: a class's answers graded in one run, as ``check`` judges each.

Shared by the parts: :mod:`.exercises` (the registry, answers computed by the library),
:mod:`.plugins` (exercises from other packages), :mod:`.worker` (limited workers that return
plain data) and :mod:`.plain_math` (what a learner is told, as plain math).

This layer imports the layers below it (labs, proof, core) and the shared base, never the
presentation or the command line.
"""
