"""symattn: the mathematics of attention, exact and machine-checked.

One definition of Softmax(Q K^T / sqrt(d_k) + M) V (:mod:`symattn.core.definition`) gives exact
closed forms, symbolic entries, correctly rounded decimals and fast NumPy code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import SymattnError
from .present import jupyter as _jupyter  # noqa: F401  (how Jupyter shows results)

if TYPE_CHECKING:
    from .core.digits import decimal_string
    from .core.exact import AttentionSteps, attention, symbolic_attention
    from .core.masks import Mask
    from .core.numeric import attention_numeric
    from .core.softmax import RowSoftmax

_PUBLIC = (
    "AttentionSteps",
    "Mask",
    "RowSoftmax",
    "attention",
    "attention_numeric",
    "decimal_string",
    "symbolic_attention",
)


def __getattr__(name: str) -> Any:
    """The public names, imported on first use: importing one part of symattn (the answer
    checker, which runs without NumPy) does not import every other part."""
    if name not in _PUBLIC:
        raise AttributeError(f"module 'symattn' has no attribute {name!r}")
    from .core.digits import decimal_string
    from .core.exact import AttentionSteps, attention, symbolic_attention
    from .core.masks import Mask
    from .core.softmax import RowSoftmax

    found = dict(
        AttentionSteps=AttentionSteps,
        Mask=Mask,
        RowSoftmax=RowSoftmax,
        attention=attention,
        decimal_string=decimal_string,
        symbolic_attention=symbolic_attention,
    )
    if name == "attention_numeric":
        from .core.numeric import attention_numeric  # NumPy: only when asked for

        found[name] = attention_numeric
    globals()[name] = found[name]
    return found[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))


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
