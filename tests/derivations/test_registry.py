"""The registry of derivations (derivations.NAMES, found from the modules' own NAME and ORDER):
a new derivation is one new module, and everything that lists derivations follows it."""

from __future__ import annotations

import re

import pytest
from copies import add_derivation, add_dilated, copy_of_the_repository, run_in

import derivations
from symattn.build.site import guide_pages, site_nav


def test_the_registry_is_every_derivation_module_in_order():
    """Each module that defines derivation() is listed, by its ORDER, under its own name."""
    from importlib import import_module

    modules = [import_module(f"derivations.{name}") for name in derivations.NAMES]
    assert [m.NAME for m in modules] == list(derivations.NAMES)
    assert [m.ORDER for m in modules] == sorted(m.ORDER for m in modules)
    assert len({m.ORDER for m in modules}) == len(modules)
    helpers = {"mutations", "planted", "sabotage"}
    assert not helpers & set(derivations.NAMES)


def test_the_guide_lists_every_derivation_from_the_registry():
    """The derivations guide's list is made from the registry (each name linked to its page,
    with its module's first line), and the verify marker waits for the build's reports."""
    page = guide_pages()["guide/derivations.md"]
    listed = re.findall(r"^- \[`(\w+)`\]\(\.\./derivations/(\w+)\.md\): (.+)$", page, re.M)
    assert [(a, b) for a, b, _ in listed] == [(n, n) for n in derivations.NAMES]
    assert all(line == derivations.summary(n) for (n, _, line) in listed)
    assert "<!-- derivations -->" not in page and "<!-- verify -->" in page


def test_a_new_derivation_is_one_file(tmp_path):
    """In a copy of the repository, one new module in derivations/ (no other edit): it is in the
    registry in its ORDER's place, `symattn verify` verifies it, the menu and the guide list it,
    and its planted errors join the catalogue and are caught (the mutation tests of it pass)."""
    copy = copy_of_the_repository(tmp_path)
    add_derivation(copy, "attention_by_hand_again", order=15)
    listed = run_in(copy, "-c", "import derivations; print(' '.join(derivations.NAMES))")
    assert listed.stdout.split()[:3] == ["attention_by_hand", "attention_by_hand_again", "variance_scaling"]
    verified = run_in(copy, "-m", "symattn", "verify", "attention_by_hand_again")
    assert verified.returncode == 0 and "attention_by_hand_again" in verified.stdout, verified.stderr
    shown = run_in(
        copy,
        "-c",
        "from symattn.build.site import guide_pages, site_nav; "
        "print(site_nav()['Derivations']); print(guide_pages()['guide/derivations.md'])",
    )
    assert "'Attention on two tokens, again': 'derivations/attention_by_hand_again.md'" in shown.stdout
    assert "- [`attention_by_hand_again`](../derivations/attention_by_hand_again.md)" in shown.stdout
    tests = [
        "tests/derivations/test_mutations.py",
        "tests/derivations/test_registry.py",
        "-k",
        "(again or registry) and not one_file",
    ]
    ran = run_in(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not exhaustive", *tests)
    assert ran.returncode == 0 and " passed" in ran.stdout, ran.stdout[-3000:]
    assert "attention_by_hand_again" in " ".join(derivations_tests(copy))


def derivations_tests(copy) -> list[str]:
    """The mutation tests' ids in the copy (the new derivation's planted errors among them)."""
    found = run_in(
        copy, "-m", "pytest", "-q", "--co", "-p", "no:cacheprovider", "tests/derivations/test_mutations.py"
    )
    return found.stdout.splitlines()


def test_the_menu_follows_the_registry():
    """The site's menu section of derivations is the registry's, in its order."""
    pages = [page for entry in site_nav()["Derivations"] for page in entry.values()]
    assert pages == [f"derivations/{n}.md" for n in derivations.NAMES]


@pytest.mark.exhaustive  # a whole `symattn build` in the copy: minutes (docs/ in sync is test_site.py's)
def test_a_new_mask_kind_and_derivation_build_the_docs(tmp_path):
    """The copy with a mask kind and a derivation added, each one file (and the kind's tests):
    `symattn build` passes and writes docs/ with both (the guide's table of masks, the
    derivation's page, its verify row and its place in the list), and nothing else needs an
    edit: the files it writes are the copy's docs/ plus the new derivation's page."""
    copy = copy_of_the_repository(tmp_path)
    before = {p.relative_to(copy).as_posix() for p in (copy / "docs").rglob("*") if p.is_file()}
    add_dilated(copy)
    add_derivation(copy)
    built = run_in(copy, "-m", "symattn", "build")
    assert built.returncode == 0, built.stderr[-3000:]
    after = {p.relative_to(copy).as_posix() for p in (copy / "docs").rglob("*") if p.is_file()}
    assert after - before == {"docs/derivations/attention_by_hand_again.md"}
    assert "`dilated:K`" in (copy / "docs/guide/attention-command.md").read_text()
    guide = (copy / "docs/guide/derivations.md").read_text()
    assert re.search(r"^attention_by_hand_again +\d+ .* ok$", guide, re.M)
    assert "- [`attention_by_hand_again`](../derivations/attention_by_hand_again.md)" in guide


def test_bytecode_and_source_name_the_same_derivations():
    """Where only bytecode is at hand (the browser checker's archive), a module's NAME, ORDER
    and derivation() are read from it as from its source; a helper module is no derivation."""
    import ast
    import importlib.util

    for name in (*derivations.NAMES, "mutations", "planted"):
        spec = importlib.util.find_spec(f"derivations.{name}")
        source = spec.loader.get_source(spec.name)
        by_source = derivations._assigned(ast.parse(source))
        by_code = derivations._stored(compile(source, name, "exec"))
        for key in ("NAME", "ORDER"):
            assert by_code.get(key) == by_source.get(key), (name, key)
        assert ("derivation" in by_code) == ("derivation" in by_source) == (name in derivations.NAMES)
