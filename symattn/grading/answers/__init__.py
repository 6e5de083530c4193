"""A learner's answer, judged: the text read as a careful grader reads it, then compared exactly.

- :mod:`.notation`: checks on the raw text and the notations it accepts, then a chain of sides;
- :mod:`.readers` and :mod:`.parsing`: the LaTeX reader, chosen by measurement, and its quirks hidden;
- :mod:`.sides`: each side of a chain as a value or a matrix;
- :mod:`.judge`, :mod:`.values`, :mod:`.threshold`: the verdict for a number, a matrix, a threshold;
- :mod:`.verdicts`: what an answer is judged against, and what the judge says;
- :mod:`.formula`: ex6.6's formula, proved equal to the mean for every N.

Every answer is judged in a limited worker (:mod:`symattn.grading.worker`).
"""
