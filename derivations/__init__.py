"""The module's derivations, each a checked proof.

Each module defines ``NAME`` (its file's name), ``TITLE``, ``ORDER`` (where the course module
meets it: the modules are listed by it) and ``derivation()``, which builds the
:class:`~symattn.proof.Derivation`; :func:`load` builds one by name. Derivations from outside
(a course author's, see :mod:`symattn.grading.plugins`) are registered in ``REGISTERED``.
"""

from __future__ import annotations

import ast
import dis
import importlib.util
import pkgutil
import sys
from importlib import import_module
from typing import Any

from symattn.errors import SymattnError
from symattn.proof import Derivation, Lemma


def _found() -> tuple[str, ...]:
    """Every module of this package that is a derivation (it assigns ``NAME``, its own name,
    and ``ORDER``, and defines ``derivation()``), by ``ORDER``. A module is read, not run (so
    listing them imports nothing): from its source, or where only its bytecode is at hand (the
    browser checker's archive), from the names its top level stores."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        spec = importlib.util.find_spec(f"{__name__}.{module.name}")
        loader: Any = spec.loader if spec else None
        source = loader.get_source(spec.name) if loader else None
        values = _assigned(ast.parse(source)) if source is not None else _stored(loader.get_code(spec.name))
        order = values.get("ORDER")
        if values.get("NAME") == module.name and isinstance(order, int) and "derivation" in values:
            found.append((order, module.name))
    return tuple(name for _, name in sorted(found))


def _assigned(tree: ast.Module) -> dict[str, Any]:
    """The constants a module's top level assigns, and its functions (as None)."""
    values: dict[str, Any] = {node.name: None for node in tree.body if isinstance(node, ast.FunctionDef)}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            values.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return values


def _stored(code: Any) -> dict[str, Any]:
    """:func:`_assigned` from a module's bytecode: each name its top level stores, with the
    constant loaded just before (None for anything else: a function, a computed value)."""
    values: dict[str, Any] = {}
    last: Any = None
    for instruction in dis.get_instructions(code):
        if instruction.opname in ("LOAD_CONST", "LOAD_SMALL_INT"):
            last = instruction.argval
            continue
        if instruction.opname == "STORE_NAME":
            values[instruction.argval] = last
        last = None
    return values


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
