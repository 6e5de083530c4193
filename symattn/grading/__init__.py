"""Grading: reading and judging a learner's answers, exercises, class grading and the module audit.

- answers: :mod:`.answers` (checks on the raw text), :mod:`.parsing` (latex2sympy2 behind an
  adapter), :mod:`.judge` (a verdict against an expected value, with named slips);
- exercises: :mod:`.exercises` (answers computed by the library);
- learners' derivations: :mod:`.learner_steps`, :mod:`.learner_proof`, :mod:`.learner_scalar`,
  :mod:`.learner_matrix`, :mod:`.learner_formula`, :mod:`.learner_examples`;
- a class: :mod:`.grade`, :mod:`.grade_io`;
- the module audit: :mod:`.audit`, :mod:`.claims`, :mod:`.calc`, :mod:`.stated`, ``claim_*``.

This layer imports the layers below it (labs, proof, core) and the shared base, never the
presentation or the command line.
"""
