"""Derivations and exercises registered from outside symattn, by course authors.

A *derivation module* defines ``NAME`` and ``TITLE`` (strings) and ``derivation()``, which
returns a :class:`symattn.proof.Derivation`; it may define ``MUTATIONS``, a list of
``(description, plant)`` pairs, each planting one error in a fresh copy of the derivation and
returning the step number (from 1), ``"claim"`` or ``"lemma"`` that must then fail.

An *exercise module* defines ``exercise()``, which returns a :class:`symattn.grading.exercises.Exercise`
whose id is new, and may define ``variant(rng)``, which returns the same exercise with numbers
drawn from a :class:`random.Random`.

They are found in three places, in this order:

- the entry-point groups ``symattn.derivations`` and ``symattn.exercises`` of installed
  packages (each entry names a module, or an object with the same attributes);
- the environment variable ``SYMATTN_PLUGINS``: paths of ``.py`` files or dotted module names,
  separated by ``os.pathsep``;
- ``--plugin PATH|MODULE`` given to a command (repeatable).

A module given by path or name may be a derivation module, an exercise module or both. A
plugin that cannot be used (a missing file, an import error, a name taken by a built-in or by
another plugin, an attribute of the wrong type) raises :class:`symattn.errors.PluginError`:
one line naming the plugin, exit code 2. Registering changes the registries of
:mod:`derivations` and :mod:`symattn.grading.exercises` in place; :func:`loaded` undoes it on exit.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import PluginError

#: Entry-point groups of installed packages.
DERIVATION_GROUP = "symattn.derivations"
EXERCISE_GROUP = "symattn.exercises"
#: Plugins named in the environment, separated by ``os.pathsep``.
ENVIRONMENT = "SYMATTN_PLUGINS"

#: Exercise id -> the plugin that registered it (to name it in a clash).
_EXERCISE_SOURCES: dict[str, str] = {}


@dataclass(frozen=True)
class DerivationPlugin:
    """A derivation registered from outside: builds and type-checks the author's derivation."""

    name: str
    title: str
    source: str  # where it came from, for messages
    build: Callable[[], Any]
    planted: tuple[tuple[str, Callable[[Any], int | str]], ...] = ()

    def derivation(self) -> Any:
        from ..proof.engine import Derivation

        built = _authors(self.source, "derivation()", self.build)
        if not isinstance(built, Derivation):
            raise PluginError(
                f"{self.source}: derivation() returned {type(built).__name__}, not a symattn.proof.Derivation"
            )
        if built.name != self.name:
            raise PluginError(
                f"{self.source}: derivation() is named {built.name!r}, but NAME is {self.name!r}"
            )
        return built

    @property
    def mutations(self) -> list[Any]:
        """The author's planted errors, in the mutation catalogue's form."""
        from derivations.mutations import Mutation

        return [Mutation(self.name, text, plant) for text, plant in self.planted]


def load(specs: Sequence[str] = (), *, entry_points: bool = True, environment: bool = True) -> list[str]:
    """Register the plugins of the entry points, ``SYMATTN_PLUGINS`` and ``specs``; return their names.

    A module met twice (by an entry point and by path, say) is registered once.
    """
    found: list[tuple[str, Any, str]] = []  # (source, object, what it must be: derivation|exercise|either)
    if entry_points:
        found += _from_entry_points()
    if environment:
        found += [(f"plugin {s}", _import(s), "either") for s in _environment()]
    found += [(f"plugin {s}", _import(s), "either") for s in specs]
    done: set[tuple[int, str]] = set()  # (module, "derivation" or "exercise") already registered
    loaded: list[str] = []
    for source, obj, kind in found:
        loaded += _register(source, obj, kind, done)
    return loaded


@contextmanager
def loaded(
    specs: Sequence[str] = (), *, entry_points: bool = True, environment: bool = True
) -> Iterator[list[str]]:
    """Register plugins for the duration of a ``with`` block, then restore the registries.

    The exercises are not imported for this (building them takes most of a second, which
    ``verify`` and ``derive`` do not need): if they were imported inside the block, their
    registries go back to what the module built (``exercises.BUILT_IN``); if before, to what
    they held when the block began. Either way a plugin that wrote to them directly is undone.
    """
    import derivations

    saved = dict(derivations.REGISTERED)
    sources = dict(_EXERCISE_SOURCES)
    known = sys.modules.get(f"{__package__}.exercises")
    before = (dict(known.EXERCISES), dict(known.VARIANTS)) if known is not None else None
    try:
        yield load(specs, entry_points=entry_points, environment=environment)
    finally:
        derivations.REGISTERED.clear()
        derivations.REGISTERED.update(saved)
        _EXERCISE_SOURCES.clear()
        _EXERCISE_SOURCES.update(sources)
        ex = sys.modules.get(f"{__package__}.exercises")
        if ex is not None:
            for registry, old in zip((ex.EXERCISES, ex.VARIANTS), before or ex.BUILT_IN, strict=True):
                registry.clear()
                registry.update(old)
        grade = sys.modules.get(f"{__package__}.batch.grade")
        if grade is not None:
            grade._exercise.cache_clear()  # it may hold a plugin's exercise


# -- finding plugins ---------------------------------------------------------------------------
def _environment() -> list[str]:
    return [s.strip() for s in os.environ.get(ENVIRONMENT, "").split(os.pathsep) if s.strip()]


def _entry_points(group: str) -> list[Any]:
    """The group's entry points; the installed distributions are read once per ``sys.path``
    (a scan takes tens of milliseconds, and every command that knows exercises asks)."""
    from importlib.metadata import entry_points

    key = tuple(sys.path)
    if key not in _SCANNED:
        every = entry_points()
        _SCANNED[key] = {g: list(every.select(group=g)) for g in (DERIVATION_GROUP, EXERCISE_GROUP)}
    return _SCANNED[key][group]


_SCANNED: dict[tuple[str, ...], dict[str, list[Any]]] = {}


def _from_entry_points() -> list[tuple[str, Any, str]]:
    found = []
    for group, kind in ((DERIVATION_GROUP, "derivation"), (EXERCISE_GROUP, "exercise")):
        for ep in _entry_points(group):
            source = f"entry point {ep.name} = {ep.value} ({group})"
            try:
                obj = ep.load()
            except BaseException as exc:  # SystemExit too: a plugin must not end the command
                if isinstance(exc, KeyboardInterrupt):
                    raise
                raise PluginError(f"{source}: cannot import it: {_why(exc)}") from None
            found.append((source, obj, kind))
    return found


def _import(spec: str) -> ModuleType:
    """A ``.py`` file by path, or a module by dotted name."""
    if spec.endswith(".py") or os.sep in spec or "/" in spec or Path(spec).is_file():
        path = Path(spec)
        if not path.is_file():
            raise PluginError(f"plugin {spec}: no such file")
        if path.suffix != ".py":
            raise PluginError(f"plugin {spec}: a plugin file must be a .py file")
        name = f"symattn_plugin_{path.stem}_{abs(hash(str(path.resolve()))):x}"
        if name in sys.modules:
            return sys.modules[name]
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:  # pragma: no cover - a .py file always has one
            raise PluginError(f"plugin {spec}: cannot be imported")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module  # dataclasses and pickling look their module up by name
        try:
            module_spec.loader.exec_module(module)
        except BaseException as exc:
            del sys.modules[name]
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise PluginError(f"plugin {spec}: cannot import it: {_why(exc)}") from None
        return module
    if not all(part.isidentifier() for part in spec.split(".")):
        raise PluginError(f"plugin {spec!r}: neither a .py file nor a dotted module name")
    try:
        return importlib.import_module(spec)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise PluginError(f"plugin {spec}: cannot import it: {_why(exc)}") from None


# -- registering -------------------------------------------------------------------------------
def _register(source: str, obj: Any, kind: str, done: set[tuple[int, str]]) -> list[str]:
    parts = [kind] if kind != "either" else []
    if kind == "either":
        parts += ["derivation"] if hasattr(obj, "derivation") or hasattr(obj, "NAME") else []
        parts += ["exercise"] if hasattr(obj, "exercise") else []
        if not parts:
            raise PluginError(f"{source}: defines neither derivation() (with NAME and TITLE) nor exercise()")
    names = []
    for part in parts:
        if (id(obj), part) in done:
            continue  # the same module met twice (an entry point and a path, say)
        done.add((id(obj), part))
        register = _register_derivation if part == "derivation" else _register_exercise
        names.append(register(source, obj))
    return names


def _register_derivation(source: str, obj: Any) -> str:
    import derivations

    name, title, build = (getattr(obj, a, None) for a in ("NAME", "TITLE", "derivation"))
    for attr, value in (("NAME", name), ("TITLE", title)):
        if not isinstance(value, str) or not value.strip():
            raise PluginError(f"{source}: {attr} must be a non-empty string, not {type(value).__name__}")
    assert isinstance(name, str) and isinstance(title, str)
    if not name.isidentifier():
        raise PluginError(f"{source}: NAME {name!r} must be a Python identifier (letters, digits, _)")
    if not callable(build):
        raise PluginError(f"{source}: derivation must be a function returning a Derivation")
    if name in derivations.NAMES:
        raise PluginError(f"{source}: derivation {name!r} clashes with a built-in derivation")
    if name in derivations.REGISTERED:
        raise PluginError(
            f"{source}: derivation {name!r} is already registered by {derivations.REGISTERED[name].source}"
        )
    planted = getattr(obj, "MUTATIONS", ())
    if not isinstance(planted, (list, tuple)) or not all(
        isinstance(m, tuple) and len(m) == 2 and isinstance(m[0], str) and callable(m[1]) for m in planted
    ):
        raise PluginError(f"{source}: MUTATIONS must be a list of (description, plant) pairs")
    derivations.REGISTERED[name] = DerivationPlugin(name, title, source, build, tuple(planted))
    return name


def _register_exercise(source: str, obj: Any) -> str:
    from . import exercises

    build, draw = getattr(obj, "exercise", None), getattr(obj, "variant", None)
    if not callable(build):
        raise PluginError(f"{source}: exercise must be a function returning an Exercise")
    if draw is not None and not callable(draw):
        raise PluginError(f"{source}: variant must be a function of a random.Random")
    ex = _built(source, "exercise()", build)
    key = ex.id
    if not key or key != key.lower() or any(c.isspace() for c in key):
        raise PluginError(f"{source}: exercise id {key!r} must be lower case without spaces")
    if key in exercises.EXERCISES:
        owner = _EXERCISE_SOURCES.get(key)
        where = f"is already registered by {owner}" if owner else "clashes with a built-in exercise"
        raise PluginError(f"{source}: exercise {key!r} {where}")
    exercises.EXERCISES[key] = ex
    _EXERCISE_SOURCES[key] = source
    if draw is not None:
        exercises.VARIANTS[key] = lambda rng: _built(source, "variant(rng)", lambda: draw(rng), key)
    return key


def _built(source: str, call: str, build: Callable[[], Any], same_id: str | None = None) -> Any:
    from .exercises import Exercise

    ex = _authors(source, call, build)
    if not isinstance(ex, Exercise):
        raise PluginError(
            f"{source}: {call} returned {type(ex).__name__}, not a symattn.grading.exercises.Exercise"
        )
    if same_id is not None and ex.id != same_id:
        raise PluginError(f"{source}: {call} returned exercise {ex.id!r}, not {same_id!r}")
    if callable(ex.solution):
        ex = dataclasses.replace(ex, solution=_guarded_solution(source, ex.solution))
    return ex


def _guarded_solution(source: str, solution: Callable[[], Any]) -> Callable[[], Any]:
    """The exercise's solution derivation, with the author's errors as one-line PluginErrors."""

    def build() -> Any:
        from ..proof.engine import Derivation

        d = _authors(source, "the exercise's solution()", solution)
        if not isinstance(d, Derivation):
            raise PluginError(
                f"{source}: the exercise's solution() returned {type(d).__name__}, not a Derivation"
            )
        return d

    return build


def _authors(source: str, call: str, run: Callable[[], Any]) -> Any:
    """``run()``, the author's code: anything it raises, sys.exit() too, is one PluginError line."""
    try:
        return run()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise PluginError(f"{source}: {call} failed: {_why(exc)}") from None


def _why(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


__all__ = ["DERIVATION_GROUP", "ENVIRONMENT", "EXERCISE_GROUP", "DerivationPlugin", "load", "loaded"]
