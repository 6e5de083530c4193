"""Each costly session fixture is built once per run: a test that asks for one joins its
pytest-xdist group (``--dist loadgroup`` then runs the group's tests on one worker). Without it, a
test written without the group's mark builds the fixture a second time on the other worker: a
minute or more of CI for `symattn build`'s output, half a minute for the browser's site."""

from __future__ import annotations

import pytest

#: why an item cannot be run in one group (it is failed when its setup starts)
CONFLICT = pytest.StashKey[str]()

#: fixture name -> the xdist group whose worker builds it (when the fixture is session-wide)
COSTLY = {"generated": "generated", "site": "browser", "base": "browser", "browser": "browser"}

#: fixture name -> the mark its users get: a test of the whole of `symattn build` (CI's second
#: run deselects ``build``: see pyproject.toml's markers)
MARKS = {"generated": "build"}

#: fixtures whose users run after every other test of a worker: a worker that has imported torch
#: (tests/core/test_peers_torch.py's fixture) forks more than twice as slowly, 18 ms against 7 on
#: these machines, and the checker forks once for each answer it reads, thousands of times a run
LAST = {"torch"}


def session_fixtures(item: pytest.Item) -> set[str]:
    """The names of the session-wide fixtures ``item`` uses (none for a doctest)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:  # a doctest
        return set()
    return {name for name, defs in info.name2fixturedefs.items() if defs and defs[-1].scope == "session"}


def join_costly_groups(items: list[pytest.Item], costly: dict[str, str] = COSTLY) -> None:
    """Marks each item that uses a session-wide fixture of ``costly`` with that fixture's group. A
    test in another group already, or needing two groups, fails (`refuse_conflicts`): pytest-xdist
    would put it in a third group of its own and build the fixtures again. (Raising here would not
    do: a pytest-xdist worker's collection error reaches the user without its message.)"""
    for item in items:
        if getattr(item, "_fixtureinfo", None) is None:  # a doctest
            continue
        marks = item.iter_markers("xdist_group")
        have = {m.args[0] if m.args else m.kwargs.get("name", "default") for m in marks}
        used = session_fixtures(item)
        needed = {group for name, group in costly.items() if name in used}
        if len(needed | have) > 1 and needed:
            item.stash[CONFLICT] = f"in xdist groups {sorted(have)} but its fixtures need {sorted(needed)}"
            continue
        for group in needed - have:
            item.add_marker(pytest.mark.xdist_group(group))


def mark_users(items: list[pytest.Item], marks: dict[str, str] = MARKS) -> None:
    """Marks each item that uses a session-wide fixture of ``marks`` with that fixture's mark, so
    that ``-m "not build"`` deselects every user of `symattn build`'s output, marked or not."""
    for item in items:
        used = session_fixtures(item)
        for name, mark in marks.items():
            if name in used:
                item.add_marker(getattr(pytest.mark, mark))


def run_last(items: list[pytest.Item], last: set[str] = LAST) -> None:
    """Moves the users of a fixture of ``last`` to the end, keeping the order of each part.
    pytest-xdist's loadgroup hands out single tests in this order, but its groups first (larger
    first): a user in an xdist group would run early, so it fails (`refuse_conflicts`). pytest's
    ``--ff`` and ``--nf`` reorder after this hook (CI runs without the cache plugin)."""

    def user(item: pytest.Item) -> bool:
        return bool(last & set(getattr(item, "fixturenames", ())))

    for item in items:
        groups = [m.args[0] if m.args else m.kwargs.get("name") for m in item.iter_markers("xdist_group")]
        if user(item) and groups and CONFLICT not in item.stash:
            why = f"in xdist groups {sorted(groups)} but it uses {sorted(last)}, which runs last"
            item.stash[CONFLICT] = why
    items[:] = sorted(items, key=user)


def refuse_conflicts(item: pytest.Item) -> None:
    """Fails, before its fixtures are built, a test that ``join_costly_groups`` could not place."""
    if CONFLICT in item.stash:
        pytest.fail(item.stash[CONFLICT], pytrace=False)


# The hooks themselves: tests/conftest.py imports these two, and so does the small suite of
# tests/test_xdist_groups.py, so the test runs the suite's own hooks.
@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's hook reads the groups and -m reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    join_costly_groups(items)
    mark_users(items)
    run_last(items)


def pytest_runtest_setup(item: pytest.Item) -> None:
    refuse_conflicts(item)
