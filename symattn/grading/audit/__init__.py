"""A text about attention, audited: every claim bound to a computation, every answer key judged.

- :mod:`.sources`: Markdown, Jupyter notebooks (nbformat) and LaTeX (pylatexenc) as the Markdown
  the document reader takes, line for line;
- :mod:`.document`: the text read into lines, formulas and sentences;
- :mod:`.calc` and :mod:`.stated`: formulas evaluated exactly, figures as stated (digits, rounding);
- :mod:`.rules`: the auditor, which reads every line; :mod:`.words`, :mod:`.cost`, :mod:`.labs`:
  the rules that bind claims in words, costs and measured figures; :mod:`.facts` and
  :mod:`.match`: what the document establishes and how a value meets a stated figure;
  :mod:`.context`: what a rule may ask of the auditor; :mod:`.shapes`, :mod:`.complexity`,
  :mod:`.letters`, :mod:`.meaning`: shapes, O(...) claims, identities in the text's letters and
  facts in words;
- :mod:`.keys`: the exercises' answer keys against the registry, and the whole audit;
- :mod:`.corpus`: the audit measured on public texts no one here wrote (tests/data/texts).
"""
