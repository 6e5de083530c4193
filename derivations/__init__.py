"""The module's derivations, each a checked proof.

Each module defines ``NAME``, ``TITLE`` and ``derivation()``, which builds the
:class:`~symattn.proof.Derivation`; :func:`load` builds one by name. Derivations from outside
(a course author's, see :mod:`symattn.grading.plugins`) are registered in ``REGISTERED``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from symattn.errors import SymattnError
from symattn.proof import Derivation

#: The derivations, in the order the module meets them.
NAMES = (
    "attention_by_hand",
    "variance_scaling",
    "score_reduction",
    "softmax_jacobian",
    "permutation_equivariance",
    "multihead_flops",
)


#: Derivations registered from outside, after the built-in ones: name -> a
#: :class:`symattn.grading.plugins.DerivationPlugin` (``title``, ``derivation()``, ``mutations``).
REGISTERED: dict[str, Any] = {}


class UnknownDerivation(SymattnError):
    """Raised for a derivation name that does not exist."""


def names() -> tuple[str, ...]:
    """The built-in derivations, then the registered ones."""
    return NAMES + tuple(REGISTERED)


def load(name: str) -> Derivation:
    """Build the derivation called ``name``."""
    if name in REGISTERED:
        return REGISTERED[name].derivation()
    if name not in NAMES:
        raise UnknownDerivation(f"no derivation named {name!r}; try one of: {', '.join(names())}")
    return import_module(f"derivations.{name}").derivation()


def title(name: str) -> str:
    if name in REGISTERED:
        return REGISTERED[name].title
    return import_module(f"derivations.{name}").TITLE
