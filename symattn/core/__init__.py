"""Attention itself: its one definition and every way of evaluating it.

The definition (:mod:`.definition`: Softmax(Q K^T / sqrt(d_k) + M) V as five stages), the row
softmax node (:mod:`.softmax`, :mod:`.nodes`), masks (:mod:`.masks`), exact input
(:mod:`.inputs`), exact and symbolic evaluation (:mod:`.exact`), the lambdified NumPy
(:mod:`.numeric`), correctly rounded decimals (:mod:`.digits`, :mod:`.enclosure`), multi-head
attention (:mod:`.multihead`) and its cost (:mod:`.flops`). This layer imports nothing of
symattn but the shared base (:mod:`symattn.errors`, :mod:`symattn.limits`).
"""
