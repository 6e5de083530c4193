"""The module's derivations, each a checked proof.

Each module defines ``NAME``, ``TITLE`` and ``derivation()``, which builds the
:class:`~symattn.proof.Derivation`; :func:`load` builds one by name. Derivations from outside
(a course author's, see :mod:`symattn.grading.plugins`) are registered in ``REGISTERED``.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any

from symattn.errors import SymattnError
from symattn.proof import Derivation, Lemma

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
    """Build the derivation called ``name``: its theorem must be stated as claims, and every
    lemma its module defines must justify some step (``requires_claims``, ``declared_lemmas``)."""
    if name in REGISTERED:
        build = REGISTERED[name].derivation
        module = sys.modules.get(getattr(build, "__module__", "") or "")
    elif name in NAMES:
        module = import_module(f"derivations.{name}")
        build = module.derivation
    else:
        raise UnknownDerivation(f"no derivation named {name!r}; try one of: {', '.join(names())}")
    d = build()
    if isinstance(d, Derivation):
        d.requires_claims = True
        if module is not None:
            d.declared_lemmas = tuple(v for v in vars(module).values() if isinstance(v, Lemma))
    return d


def title(name: str) -> str:
    if name in REGISTERED:
        return REGISTERED[name].title
    return import_module(f"derivations.{name}").TITLE
