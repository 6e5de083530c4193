"""A learner's derivation, judged step by step (ex6.3 and ex6.7).

- :mod:`.steps`: the layout of a derivation (lines, chains, pasted ``align*``) and a parser of
  the LaTeX a step may use, which never evaluates the text;
- :mod:`.scalar` and :mod:`.matrix`: what a step means in each exercise, its rules and slips;
- :mod:`.derivation`: each step judged in a limited worker, the verdict of the whole;
- :mod:`.examples`: the worked checks the docs show.
"""
