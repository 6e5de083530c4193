"""Every planted error of the derivations is caught, where it was planted: at the step, the
claim, the lemma, the prose (statement) or the printing (rendering)."""

from __future__ import annotations

from importlib import import_module

import pytest
from sampled import sampled

from derivations import NAMES, load
from derivations.mutations import catalogue, expected, run
from derivations.planted import PLACES

#: The built-in derivations' planted errors, gathered from each module's own list.
CATALOGUE = catalogue(NAMES)


def _place(m) -> str:
    got = expected(m)
    return got if isinstance(got, str) else "step"


def _uses_a_model(d) -> bool:
    """verify evaluates a model of the derivation: a step proved at sizes, or symbolic steps
    cross-checked at sizes."""
    return any(s.method == "at sizes" for s in d.steps) or bool(d.cross_sizes and d.concrete)


def _changes_a_model(m) -> bool:
    """The planted error replaces a model verify uses (the derivation's, or a step's)."""
    fresh, planted = m.fresh(), m.fresh()
    m.plant(planted)
    return planted.concrete is not fresh.concrete or any(
        a.concrete is not b.concrete for a, b in zip(planted.steps, fresh.steps, strict=False)
    )


def test_the_catalogue_is_gathered_from_the_modules_in_the_registrys_order():
    assert len({(m.derivation, m.description) for m in CATALOGUE}) == len(CATALOGUE)
    carried = [m for name in NAMES for m in import_module(f"derivations.{name}").MUTATIONS]
    assert carried == CATALOGUE


@pytest.mark.parametrize("name", NAMES)
def test_each_derivation_carries_planted_errors_of_every_kind(name):
    """Issue 46: planted errors live with what they test. Each derivation module's MUTATIONS are
    its own and plant errors of every kind that can reach it: a step, a claim, a statement in
    its prose, its rendering; a lemma where it declares lemmas; a model where verify uses one."""
    carried = import_module(f"derivations.{name}").MUTATIONS
    assert {m.derivation for m in carried} == {name}
    d = load(name)
    want = {"step", "claim", "statement", "rendering"}
    want |= {"lemma"} if d.declared_lemmas else set()
    got = {_place(m) for m in carried}
    assert want <= got, f"{name}: no planted error at {want - got}"
    assert set(PLACES) | {"step"} >= got
    if _uses_a_model(d):
        assert any(_changes_a_model(m) for m in carried), f"{name}: no planted error in its model"


def test_a_model_error_is_told_from_the_others():
    """The kind test above can fail: a plant that leaves the models alone is no model error,
    and a derivation without a model asks for none."""
    pe = {m.description: m for m in CATALOGUE if m.derivation == "permutation_equivariance"}
    assert _changes_a_model(pe["an end-to-end model that returns its stored answer"])
    assert not _changes_a_model(pe["P dropped: the output is Attention(X), unpermuted"])
    assert not _uses_a_model(load("attention_by_hand"))


def _helper(m) -> str:
    """The helper of derivations/planted.py that made a mutation's plant (``statement``,
    ``rendering``, ...), read from the plant's name: no planting needed."""
    return getattr(m.plant, "__qualname__", "").split(".")[0]


#: Helpers whose plants are caught in what a page shows, by kind.
SHOWN_BY = {"statement": "prose", "stands_for": "prose", "rendering": "printing"}


def sample(mutations) -> set[int]:
    """Where in ``mutations`` CI's second run plants errors too (tests/sampled.py), by rule: in
    each derivation, its first planted error, and its first in its prose and in its printing
    (by the helper that planted it). So every derivation is sampled, a new one included,
    whatever the catalogue's order."""
    kept, seen = set(), set()
    for i, m in enumerate(mutations):
        for key in ((m.derivation, "first"), (m.derivation, SHOWN_BY.get(_helper(m)))):
            if key[1] is not None and key not in seen:
                seen.add(key)
                kept.add(i)
    return kept


SAMPLE = sample(CATALOGUE)


def test_the_second_runs_sample_plants_errors_in_every_derivation():
    """Every derivation is sampled, with an error in its prose and one in its printing (where
    each is caught, planted here: a few of them), in the catalogue's order or any other."""
    assert {m.derivation for i, m in enumerate(CATALOGUE) if i in SAMPLE} == set(NAMES)
    for name in NAMES:
        own = [m for i, m in enumerate(CATALOGUE) if i in SAMPLE and m.derivation == name]
        shown = {SHOWN_BY.get(_helper(m)) for m in own}
        assert {"prose", "printing"} <= shown, name
    places = {_place(m) for i, m in enumerate(CATALOGUE) if i in SAMPLE and _helper(m) in SHOWN_BY}
    assert places == {"statement", "rendering"}
    reordered = list(reversed(CATALOGUE))
    assert {reordered[i].derivation for i in sample(reordered)} == set(NAMES)


@pytest.mark.xdist_group("generated")  # the build verifies the same planted errors (conftest.py)
@pytest.mark.parametrize(
    "mutation", sampled(CATALOGUE, lambda i, _: i in SAMPLE, lambda _, m: f"{m.derivation}: {m.description}")
)
def test_planted_error_is_caught_where_it_was_planted(mutation):
    want = expected(mutation)
    got, message = run(mutation)
    assert got == str(want), f"planted at {want}, but verify reported {got!r}: {message}"
    assert mutation.why in message, f"caught at {want}, but not for its reason ({mutation.why!r}): {message}"


def test_a_plant_that_calls_sys_exit_plants_nothing():
    """An author's plant function that calls sys.exit (or raises) is reported as not planted,
    never as a pass of `verify --mutations` (review finding: the command exited 0)."""
    import sys

    from derivations.mutations import Mutation, outcome

    ok, line = outcome(Mutation("attention_by_hand", "exits", lambda d: sys.exit(0)))
    assert not ok and line == "attention_by_hand: exits: NOT planted (SystemExit: 0)"


@pytest.mark.xdist_group("generated")  # it shares the catalogue's verifying (conftest.py)
def test_outcomes_come_in_order_around_a_plant_that_fails():
    """``verify --mutations`` writes a line per planted error in the catalogue's order, a plant
    that fails among them included; the verifying is shared (derivations.mutations.run_all)."""
    from derivations.mutations import Mutation, outcomes, run

    first, second = CATALOGUE[0], CATALOGUE[1]
    broken = Mutation("attention_by_hand", "divides by zero", lambda d: 1 // 0)
    (ok1, line1), (ok2, line2), (ok3, line3) = outcomes([first, broken, second])
    assert (ok1, ok2, ok3) == (True, False, True)
    why = "ZeroDivisionError: integer division or modulo by zero"
    assert line2 == f"attention_by_hand: divides by zero: NOT planted ({why})"
    assert line1.startswith(f"{first.derivation}: {first.description}: caught at ")
    assert line3.startswith(f"{second.derivation}: {second.description}: caught at ")
    assert run(broken) == (
        "error",
        "the error could not be planted (ZeroDivisionError: integer division or modulo by zero)",
    )


def test_the_guide_counts_the_sabotage_but_not_the_planted_errors():
    """The derivations guide states how many sabotage edits there are (the number follows the
    list); the planted errors it does not count, so a new derivation's need no edit of it (the
    docs' home page counts them, from the catalogue, at each build)."""
    import re
    from pathlib import Path

    from derivations.sabotage import SABOTAGE

    guide = Path(__file__).parents[2] / "symattn/present/guide/derivations.md"
    text = " ".join(guide.read_text(encoding="utf-8").split())
    assert not re.search(r"planted errors, \d+", text) and str(len(CATALOGUE)) not in text
    edits = re.search(r"`derivations/sabotage.py`\) turns the question round: (\d+) one-line", text)
    assert edits.group(1) == str(len(SABOTAGE))
