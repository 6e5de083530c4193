"""Issue 49: a verdict depends on the answer alone, not on the machine that checks it.

An even sample of every answer bank, of every folder of learner proofs and of the course file
(tests/machines.py) is checked three times, each in an interpreter of its own calling
``main(argv)`` per case: on the machine as it is, beside four CPU-bound processes per core, and
in a cgroup held to a quarter of one CPU. Verdicts, feedback and exit codes must be identical,
and no check may reach the time safety net ("unchecked", exit 75). ``python bench/machines.py``
runs every case, not a sample, and reports the times.
"""

from __future__ import annotations

import json

import pytest
from machines import NoThrottle, cases, loaded, quarter_cpu, run_elsewhere, throttled_periods

from symattn.errors import EXIT_RETRY

#: One case in EVERY of each bank (each bank sampled, its first case included): about 50 cases,
#: some 15 s of CPU, a minute at a quarter of a CPU. ``python bench/limits.py --banks`` runs them
#: all (issue 49's note: 1,927 cases, none differed).
EVERY = 45

pytestmark = [pytest.mark.exhaustive, pytest.mark.xdist_group("machines")]


@pytest.fixture(scope="module")
def sample() -> list[dict[str, str]]:
    return cases(EVERY)


@pytest.fixture(scope="module")
def idle(sample) -> list[dict]:
    return run_elsewhere(sample)[0]


@pytest.fixture(scope="module")
def under_load(sample) -> tuple[list[dict], int, bool]:
    with loaded(4) as spinners:
        results, _ = run_elsewhere(sample)
        alive = spinners.alive()
    return results, spinners.count, alive


@pytest.fixture(scope="module")
def throttled(sample) -> tuple[list[dict], int]:
    try:
        with quarter_cpu(0.25) as group:
            results, _ = run_elsewhere(sample, cgroup=group)
            stopped = throttled_periods(group)
    except NoThrottle as exc:
        pytest.fail(f"the quarter-CPU condition cannot run here: {exc}", pytrace=False)
    return results, stopped


def _differences(a: list[dict], b: list[dict]) -> list[str]:
    return [
        f"{x['case']}: {x['code']} {x['printed'][:300]!r} != {y['code']} {y['printed'][:300]!r}"
        for x, y in zip(a, b, strict=True)
        if (x["code"], x["printed"]) != (y["code"], y["printed"])
    ]


def test_the_sample_covers_every_bank_and_kind(sample):
    """Each answer bank, proof folder and the course file give cases, with both verdict kinds."""
    from machines import ANSWER_BANKS, PROOF_FOLDERS

    assert {c["bank"] for c in sample} == {*ANSWER_BANKS, *PROOF_FOLDERS, "course.csv"}
    assert {c["kind"] for c in sample} == {"answer", "steps", "grade"}


def test_no_check_reaches_the_safety_net(idle, under_load, throttled):
    """Every sampled check is decided by the input's measures: none is 'unchecked' anywhere."""
    for results in (idle, under_load[0], throttled[0]):
        assert [r["case"] for r in results if r["code"] == EXIT_RETRY or '"unchecked"' in r["printed"]] == []


def test_verdicts_are_the_same_beside_a_load(idle, under_load):
    results, spinners, alive = under_load
    assert alive, "the load stopped before the checks ended"
    assert spinners >= 4
    assert _differences(idle, results) == []


def test_verdicts_are_the_same_at_a_quarter_of_a_cpu(idle, throttled):
    results, stopped = throttled
    assert stopped > 0, "the kernel never held the run back: it was not throttled"
    assert _differences(idle, results) == []


def test_the_verdicts_compared_are_the_banks_verdicts(idle):
    """The comparison is of real verdicts: each kind gives correct, incorrect and invalid ones,
    and every bank answer's verdict is the one its bank states (where it states one)."""
    import csv

    from machines import DATA

    verdicts = {}
    for r in idle:
        if r["case"]["kind"] == "answer" and r["printed"].startswith("{"):
            verdicts[(r["case"]["bank"], r["case"]["exercise"], r["case"]["text"])] = json.loads(
                r["printed"]
            )["verdict"]
    assert {"correct", "incorrect", "invalid"} <= set(verdicts.values())
    for (bank, exercise, text), verdict in verdicts.items():
        with open(DATA / bank, encoding="utf-8", newline="") as f:
            stated = [
                row.get("verdict")
                for row in csv.DictReader(f)
                if (row["exercise"], row["answer"]) == (exercise, text)
            ]
        if stated and stated[0]:
            assert verdict == stated[0], (bank, exercise, text)
