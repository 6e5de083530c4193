"""symattn: the mathematics of attention, exact and machine-checked.

One definition of Softmax(Q K^T / sqrt(d_k) + M) V (:mod:`symattn.definition`) gives exact
closed forms, symbolic entries, correctly rounded decimals and fast NumPy code.
"""

from __future__ import annotations

from .digits import decimal_string
from .errors import SymattnError
from .exact import AttentionSteps, attention, symbolic_attention
from .masks import Mask
from .numeric import attention_numeric
from .softmax import RowSoftmax

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
