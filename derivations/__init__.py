"""The module's derivations, each a checked proof.

Each module defines ``NAME`` (its file's name), ``TITLE``, ``ORDER`` (where the course module
meets it: the modules are listed by it) and ``derivation()``, which builds the
:class:`~symattn.proof.Derivation`; :func:`load` builds one by name. Derivations from outside
(a course author's, see :mod:`symattn.grading.plugins`) are registered in ``REGISTERED``.
"""

from __future__ import annotations

import ast
import importlib.util
import pkgutil
import sys
from importlib import import_module
from typing import Any

from symattn.errors import SymattnError
from symattn.proof import Derivation, Lemma


def _found() -> tuple[str, ...]:
    """Every module of this package that is a derivation (it assigns ``NAME``, its own name,
    and ``ORDER``, and defines ``derivation()``), by ``ORDER``. A module is read as text where
    its source is at hand, so listing them imports nothing more; where only its bytecode is
    (the browser checker's archive), it is imported."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        spec = importlib.util.find_spec(f"{__name__}.{module.name}")
        source = spec.loader.get_source(spec.name) if spec and spec.loader else None  # type: ignore[attr-defined]
        if source is not None:
            tree = ast.parse(source)
            values = {
                target.id: node.value.value
                for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                for target in node.targets
                if isinstance(target, ast.Name)
            }
            defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
            builds = "derivation" in defined
        else:
            loaded = import_module(f"{__name__}.{module.name}")
            values = {"NAME": getattr(loaded, "NAME", None), "ORDER": getattr(loaded, "ORDER", None)}
            builds = callable(getattr(loaded, "derivation", None))
        if builds and values.get("NAME") == module.name and isinstance(values.get("ORDER"), int):
            found.append((values["ORDER"], module.name))
    return tuple(name for _, name in sorted(found))


#: The derivations, in the order the module meets them (each module's ``ORDER``): a new one is
#: a new module here, with no list to update.
NAMES = _found()


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


def summary(name: str) -> str:
    """The first line of a derivation module's docstring (a registered one's title)."""
    if name in REGISTERED:
        return REGISTERED[name].title
    doc = import_module(f"derivations.{name}").__doc__ or ""
    return doc.strip().splitlines()[0] if doc.strip() else title(name)
