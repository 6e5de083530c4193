"""A module's text, audited: every numeric claim bound to a computation, every answer key judged.

- :mod:`.document`: the module read into lines, formulas and sentences;
- :mod:`.calc` and :mod:`.stated`: formulas evaluated exactly, figures as stated (digits, rounding);
- :mod:`.rules`: the auditor, which reads every line; :mod:`.words`, :mod:`.cost`, :mod:`.labs`:
  the rules that bind claims in words, costs and measured figures; :mod:`.facts` and
  :mod:`.match`: what the document establishes and how a value meets a stated figure;
  :mod:`.context`: what a rule may ask of the auditor;
- :mod:`.keys`: the exercises' answer keys against the registry, and the whole audit.
"""
