"""The registry of mask kinds (symattn/core/masks/): every kind against the tests' own loops,
everything that lists the kinds made from it, and a new kind added as one file in a copy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from copies import add_dilated, copy_of_the_repository, run_in
from reference import allowed_for_spec, padding_fits

import symattn.core.masks as masks
from symattn.build.site import guide_pages
from symattn.cli.app import build_parser
from symattn.core.masks import KINDS, Mask, MaskPart, kinds
from symattn.errors import MaskError

SHAPES = [(1, 1), (3, 3), (2, 5), (5, 2), (4, 6)]
EXAMPLES = [spec for kind in kinds() for spec in kind.examples]


def test_the_package_registers_every_kind_module():
    """Every module of the package but kind.py defines one kind, and each is registered."""
    modules = {p.stem for p in Path(masks.__file__).parent.glob("*.py")} - {"__init__", "kind"}
    assert modules and {type(k.__module__) for k in kinds()} == {str}
    assert {k.__module__.rsplit(".", 1)[1] for k in kinds()} == modules


@pytest.mark.parametrize("spec", EXAMPLES)
def test_each_example_matches_the_reference_and_reads_back(spec):
    """A kind's examples: the allowed pairs equal tests/reference.py's loops at square and
    N != M shapes, the exact mask has -oo exactly where the numeric one has -inf, and the spec
    reads back as written."""
    mask = Mask.parse(spec)
    assert mask.spec() == spec and Mask.parse(mask.spec()) == mask
    for n, m in SHAPES:
        if not padding_fits(spec, m):
            with pytest.raises(MaskError):
                mask.allowed(n, m)
            continue
        want = allowed_for_spec(spec, n, m)
        assert np.array_equal(mask.allowed(n, m), want), (spec, n, m)
        exact = np.array(mask.exact(n, m).tolist(), dtype=float)
        assert np.array_equal(exact, mask.numeric(n, m)) and np.array_equal(exact == 0, want)


def test_every_kind_is_listed_wherever_kinds_are_listed():
    """The command's help, the unknown-spec error, the package's docstring and the guide's
    table each name every kind's usage or forms; the table has a row per form and no other."""
    command = build_parser()._subparsers._group_actions[0].choices["attention"]
    help_text = " ".join(command.format_help().split())
    with pytest.raises(MaskError) as refused:
        Mask.parse("no-such-kind")
    guide = guide_pages()["guide/attention-command.md"]
    rows = [line for line in guide.splitlines() if line.startswith("| `")]
    forms = [form for kind in kinds() for form, _ in kind.forms]
    assert [row.split("`")[1] for row in rows] == ["none", *forms]
    for kind in kinds():
        assert kind.usage in help_text
        assert masks.kind.short(kind) in str(refused.value)
        for form, what in kind.forms:
            assert f"``{form}``" in masks.__doc__
            assert what.replace("|", "\\|") in guide


@pytest.fixture
def extra_kind():
    """A kind defined here, for as long as one test runs."""
    before = dict(KINDS)

    @dataclass(frozen=True)
    class Even(MaskPart):
        kind = "even"
        usage = "even"
        forms = (("even", "query i sees the keys at even positions"),)
        examples = ("even",)

        @classmethod
        def read(cls, args, word):
            return cls()

        def sees(self, i, j, n, m):
            return j % 2 == 0

        def spec(self):
            return "even"

    yield Even
    KINDS.clear()
    KINDS.update(before)


def test_defining_a_class_is_all_it_takes(extra_kind):
    """A kind defined anywhere is read in specs, named in errors and listed in the tables."""
    assert Mask.parse("causal+even").allowed(3, 3).tolist() == [
        [True, False, False],
        [True, False, False],
        [True, False, True],
    ]
    with pytest.raises(MaskError, match="even"):
        Mask.parse("odd")
    assert "even" in masks.usage() and "| `even` |" in masks.kinds_table(markdown=True)


def test_a_kind_must_declare_what_lists_are_made_of():
    """A kind that leaves out a declaration, takes a reserved word or reuses a word is refused
    when its class is defined."""
    with pytest.raises(TypeError, match="forms"):
        type("NoForms", (MaskPart,), {"kind": "x", "usage": "x", "examples": ("x",)})
    with pytest.raises(TypeError, match="cannot name"):
        type("NoneKind", (MaskPart,), {"kind": "none", "usage": "none", "forms": (), "examples": ()})
    with pytest.raises(TypeError, match="defined twice"):
        type("Other", (MaskPart,), {"kind": "causal", "usage": "causal", "forms": (), "examples": ()})
    assert KINDS["causal"].__name__ == "Causal"


def test_a_new_kind_is_one_file_and_its_tests(tmp_path):
    """In a copy of the repository, one new module in symattn/core/masks/ plus its tests (its
    loop in tests/reference.py, a test file) and no other edit: the kind is read by the
    command, listed in its help and the guide, and the mask tests pass, the new one included.
    Without the reference's loop, the registry's tests fail."""
    copy = copy_of_the_repository(tmp_path)
    add_dilated(copy, with_tests=False)
    unreferenced = run_in(
        copy,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-x",
        "tests/core/test_mask_registry.py::test_each_example_matches_the_reference_and_reads_back",
    )
    assert unreferenced.returncode == 1 and "no definition of the mask kind 'dilated'" in unreferenced.stdout
    add_dilated(copy)
    shown = run_in(
        copy,
        "-m",
        "symattn",
        "attention",
        "--q",
        "[[1],[1],[1]]",
        "--k",
        "[[1],[1],[1]]",
        "--v",
        "[[1],[2],[3]]",
        "--mask",
        "causal+dilated:2",
        "--format",
        "json",
    )
    assert shown.returncode == 0, shown.stderr
    assert "dilated:K" in " ".join(run_in(copy, "-m", "symattn", "attention", "--help").stdout.split())
    tests = [
        "tests/core/test_masks.py",
        "tests/core/test_mask_registry.py",
        "tests/core/test_mask_dilated.py",
        "tests/test_reference.py",
        "-k",
        "not a_new_kind",
    ]
    ran = run_in(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests)
    assert ran.returncode == 0, ran.stdout[-3000:]
    alone = run_in(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/core/test_mask_dilated.py")
    assert alone.returncode == 0 and "1 passed" in alone.stdout, alone.stdout[-2000:]
    guide = run_in(
        copy,
        "-c",
        "from symattn.build.site import guide_pages; print(guide_pages()['guide/attention-command.md'])",
    )
    assert "| `dilated:K` | query i sees keys j with j - i a multiple of K |" in guide.stdout
