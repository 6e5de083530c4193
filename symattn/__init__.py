"""symattn: the mathematics of attention, exact and machine-checked.

One definition of Softmax(Q K^T / sqrt(d_k) + M) V (:mod:`symattn.core.definition`) gives exact
closed forms, symbolic entries, correctly rounded decimals and fast NumPy code.
"""

from __future__ import annotations

from .core.digits import decimal_string
from .core.exact import AttentionSteps, attention, symbolic_attention
from .core.masks import Mask
from .core.numeric import attention_numeric
from .core.softmax import RowSoftmax
from .errors import SymattnError
from .present import jupyter as _jupyter  # noqa: F401  (how Jupyter shows results)

__all__ = [
    "AttentionSteps",
    "Mask",
    "RowSoftmax",
    "SymattnError",
    "attention",
    "attention_numeric",
    "decimal_string",
    "symbolic_attention",
]

__version__ = "0.1.0"
