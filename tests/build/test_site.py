"""`symattn build` (symattn/build/site.py): docs/ is generated, deterministic and in sync."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from peers import COURSE_MODULE, unless_required

from symattn.build.site import compare, write
from symattn.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
@pytest.mark.pinned  # docs/ byte for byte: the versions of constraints.txt made it
def test_docs_are_in_sync(generated):
    """Regenerating docs/ gives exactly the committed files (run `symattn build` if this fails).
    Where the course module is absent (a clone on its own), `symattn build` keeps the committed
    docs/audit.md, and so does this comparison, as `symattn build --check` does; where the run
    requires the module (.ci/run), its absence fails."""
    if generated.placeholders:
        unless_required(COURSE_MODULE, generated.missing)
    stale = compare(generated.files, ROOT / "docs", generated.placeholders)
    assert stale == [], "docs/ is stale; run `symattn build`: " + ", ".join(stale)
    assert generated.ok


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_expected_pages(generated):
    """An index, the worked example, one page per derivation, exercises, labs, figures, LaTeX."""
    import derivations

    names = set(generated.files)
    assert {
        "index.md",
        "worked-example.md",
        "exercises.md",
        "labs.md",
        "latex/derivations.tex",
        "figures/score-histograms.svg",
        "figures/saturation.svg",
    } <= names
    assert {f"derivations/{n}.md" for n in derivations.NAMES} <= names
    labs = generated.files["labs.md"].decode()
    assert "consistent" in labs and "![" in labs
    assert "| query 2 |" in generated.files["worked-example.md"].decode()


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_no_timestamps_or_timings(generated):
    """Nothing that changes between runs (dates, seconds) is written."""
    for rel, data in generated.files.items():
        if rel.endswith((".md", ".tex")):
            text = data.decode()
            assert " s |" not in text and "2026" not in text, rel


def test_compare_lists_differences(tmp_path):
    """compare names files that differ, are missing, or were not generated."""
    files = {"a.md": b"one", "sub/b.md": b"two"}
    write(files, tmp_path)
    assert compare(files, tmp_path) == []
    (tmp_path / "a.md").write_bytes(b"changed")
    (tmp_path / "stray.md").write_bytes(b"x")
    (tmp_path / "benchmarks.md").write_bytes(b"written by bench/report.py")
    (tmp_path / "sub" / "b.md").unlink()
    (tmp_path / "sub" / "deeper").mkdir()
    (tmp_path / "sub" / "deeper" / "stray.md").write_bytes(b"y")  # a stray page in a subfolder too
    assert compare(files, tmp_path) == [
        "a.md",
        "sub/b.md",
        "stray.md (not generated)",
        "sub/deeper/stray.md (not generated)",
    ]


def test_check_mode_fails_on_a_stale_folder(tmp_path, capsys, monkeypatch):
    """build --check exits 1 and lists the stale files (generation stubbed to stay fast)."""
    import symattn.build.site as site

    monkeypatch.setattr(
        site, "generate", lambda progress=None: site.BuildResult({"index.md": b"new"}, "table\n", True)
    )
    (tmp_path / "index.md").write_bytes(b"old")
    assert main(["build", "--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "index.md" in err and "symattn build" in err
    assert main(["build", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "index.md").read_bytes() == b"new"
    assert main(["build", "--check", "--out", str(tmp_path)]) == 0


# -- the course module: where pyproject.toml says, and what a build does without it -----------------
def _project(root: Path, setting: str | None) -> Path:
    """A project folder whose pyproject.toml sets ``[tool.symattn] module`` (or leaves it out)."""
    root.mkdir(parents=True, exist_ok=True)
    table = "" if setting is None else f"[tool.symattn]\n{setting}\n"
    (root / "pyproject.toml").write_text('[project]\nname = "course"\n\n' + table, encoding="utf-8")
    return root


def test_find_module_reads_the_path_pyproject_toml_sets(tmp_path):
    """The module is the file `[tool.symattn] module` names, relative to pyproject.toml's folder;
    no folder above the project is searched, not even for the old ../shared/seed/06-attention.md."""
    from symattn.build.site import find_module

    beside = tmp_path / "shared" / "seed" / "06-attention.md"  # where the module used to be looked for
    beside.parent.mkdir(parents=True)
    beside.write_text("# A module beside the project\n", encoding="utf-8")
    project = _project(tmp_path / "project", None)
    assert find_module(project) is None  # not set: nothing is looked for
    _project(project, 'module = "texts/attention.md"')
    assert find_module(project) is None  # set, but absent
    (project / "texts").mkdir()
    (project / "texts" / "attention.md").write_text("# Attention\n", encoding="utf-8")
    assert find_module(project).resolve() == (project / "texts" / "attention.md").resolve()
    _project(project, 'module = "../shared/seed/06-attention.md"')
    assert find_module(project).resolve() == beside.resolve()


@pytest.mark.parametrize(
    ("pyproject", "says"),
    [
        ("[tool.symattn]\nmodule = 3\n", "not an integer"),
        ('[tool.symattn]\nmodule = ""\n', "not an empty string"),
        ('[tool.symattn]\nmodule = ["a.md"]\n', "not an array"),
        ("[tool.symattn]\nmodule = true\n", "not a boolean"),
        ('[tool]\nsymattn = "a.md"\n', "[tool.symattn] must be a table"),
        ("[tool.symattn\nmodule = 'a.md'\n", "is not valid TOML"),
        ('[tool.symattn]\nmodule = "."\n', "names '.', which is not a file"),  # a folder is not absent
    ],
)
def test_a_malformed_setting_is_one_line_exit_2_before_any_work(tmp_path, monkeypatch, cli, pyproject, says):
    """A setting that is not a path: `symattn build` (and --check) says so in one line, exit 2,
    before a derivation is verified."""
    import symattn.build.site as site

    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    monkeypatch.setattr(site, "PROJECT", tmp_path)
    monkeypatch.setattr("symattn.build.verify.verify_all", _never)
    for argv in (["build", "--out", str(tmp_path / "docs")], ["build", "--check", "--out", str(tmp_path)]):
        code, out, err = cli(*argv)
        assert code == 2 and out == ""
        assert err.startswith("symattn: error: ") and err.count("\n") == 1, err
        assert says in err and "Traceback" not in err


def _never(*args, **kwargs):
    raise AssertionError("the build went on past a malformed setting")


def test_the_audit_page_is_made_from_the_module_and_names_it(tmp_path):
    """With the module there, audit.md is a generated file that names the file it audited and how
    to regenerate it; nothing is a placeholder."""
    from symattn.build.site import _audit_files

    project = _project(tmp_path, 'module = "m.md"')
    (project / "m.md").write_text("# M\n\nWe have $2 + 2 = 4$ and $3 + 3 = 7$.\n", encoding="utf-8")
    files, placeholders, missing = _audit_files(project)
    assert set(files) == {"audit.md"} and placeholders == {} and missing is None
    page = files["audit.md"]
    assert "This page audits `m.md`" in page and "`symattn build` regenerates it" in page
    assert re.findall(r"^\| 3 \|.*\| \*\*(\w+)\*\*: ", page, re.M) == ["certified", "wrong"]


@pytest.mark.parametrize("setting", ['module = "absent/attention.md"', None])
def test_an_absent_module_makes_audit_md_a_placeholder_that_says_how_to_produce_it(tmp_path, setting):
    """Absent (or not set): audit.md is no generated file but a placeholder, and the page and the
    one-line note name the path and how to produce the page."""
    from symattn.build.site import _audit_files

    files, placeholders, missing = _audit_files(_project(tmp_path, setting))
    assert files == {} and set(placeholders) == {"audit.md"}
    assert "\n" not in missing and "[tool.symattn]" in missing and "symattn build" in missing
    if setting is not None:
        assert "`absent/attention.md`" in missing and "put the module's text there" in missing
    page = placeholders["audit.md"].decode()
    assert page.startswith("# The module audit\n") and missing[1:] in page


def test_write_and_compare_leave_a_placeholder_page_that_is_there(tmp_path):
    """A placeholder is written only where the folder has no such file, and compare neither calls
    an existing one stale nor 'not generated'; a missing one is listed."""
    files, placeholders = {"index.md": b"home"}, {"audit.md": b"no module"}
    (tmp_path / "audit.md").write_bytes(b"an audit made where the module was")
    assert write(files, tmp_path, placeholders) == []
    assert (tmp_path / "audit.md").read_bytes() == b"an audit made where the module was"
    assert compare(files, tmp_path, placeholders) == []
    assert compare(files, tmp_path) == ["audit.md (not generated)"]  # without the placeholder
    (tmp_path / "audit.md").unlink()
    assert compare(files, tmp_path, placeholders) == ["audit.md"]
    assert write(files, tmp_path, placeholders) == ["audit.md"]
    assert (tmp_path / "audit.md").read_bytes() == b"no module"


def test_build_without_the_module_keeps_audit_md_and_check_notes_it(tmp_path, cli, monkeypatch):
    """build leaves audit.md as it is and says so in one line; build --check notes it in one line
    and exits 0 when the rest matches (generation stubbed to stay fast)."""
    import symattn.build.site as site

    missing = "the course module `m.md` is absent: put the module's text there"
    result = site.BuildResult({"index.md": b"new"}, "table\n", True, {"audit.md": b"placeholder"}, missing)
    monkeypatch.setattr(site, "generate", lambda progress=None: result)
    (tmp_path / "audit.md").write_bytes(b"kept")
    code, out, err = cli("build", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "audit.md").read_bytes() == b"kept"
    assert err.count("\n") == 1 and "audit.md" in err and "left it as it is" in err and missing in err
    code, out, err = cli("build", "--check", "--out", str(tmp_path))
    assert code == 0 and "is up to date" in out
    assert err.count("\n") == 1 and "note" in err and "audit.md was not compared" in err and missing in err
    (tmp_path / "index.md").write_bytes(b"old")  # the rest still counts
    code, _, err = cli("build", "--check", "--out", str(tmp_path))
    assert code == 1 and "index.md" in err
    (tmp_path / "audit.md").unlink()
    code, _, err = cli("build", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "audit.md").read_bytes() == b"placeholder"
    assert "wrote a short page in its place" in err


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_the_home_table_says_how_each_derivation_was_proved(generated, verify):
    """One row per derivation, in four columns (so it fits at 1280 pixels: see
    test_site_pages.py): its title linking to its page, its number of steps, the number proved
    by each method that proved any (they add up to the steps), and its result."""
    import derivations

    home = generated.files["index.md"].decode()
    table = [line for line in home.splitlines() if line.startswith("| [")]
    assert len(table) == len(derivations.NAMES)
    for name, line in zip(derivations.NAMES, table, strict=True):
        _, report = verify(name)
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 4
        assert cells[0] == f"[{derivations.title(name)}](derivations/{name}.md)"
        assert cells[1] == str(len(report.steps))
        counted = {m: int(n) for n, m in re.findall(r"(\d+) \*([a-z ]+)\*", cells[2])}
        assert sum(counted.values()) == len(report.steps)
        assert counted == {r.method: sum(s.method == r.method for s in report.steps) for r in report.steps}
        assert cells[3] == f"verified, {len(report.checks)} of {len(report.checks)} checks"


def test_the_menu_names_each_derivation_as_its_page_and_the_home_table_do():
    """The site's menu lists every derivation, in the registry's order, under its title (its
    math as Unicode, since a menu entry is not typeset), and every exercise's page: the mkdocs
    hook puts the sections made from the registries where mkdocs.yml leaves them empty."""
    import yaml

    import derivations
    import docs_hooks
    from symattn.build.site import site_nav
    from symattn.grading.exercises import EXERCISES
    from symattn.unicode_text import words

    written = yaml.safe_load((Path(__file__).resolve().parents[2] / "mkdocs.yml").read_text())
    empty = {k: v for item in written["nav"] for k, v in item.items() if not v}
    assert empty == {"Derivations": [], "Exercises": [], "Guide": []}
    config = docs_hooks.on_config({"nav": written["nav"], "extra_javascript": [], "extra_css": []})
    menu = {k: v for item in config["nav"] for k, v in item.items()}
    assert menu["Derivations"] == site_nav()["Derivations"]
    listed = [(shown, page) for entry in menu["Derivations"] for shown, page in entry.items()]
    assert [page for _, page in listed] == [f"derivations/{n}.md" for n in derivations.NAMES]
    for (shown, _), name in zip(listed, derivations.NAMES, strict=True):
        assert shown == words(derivations.title(name))
        assert "_" not in shown and "^" not in shown and "$" not in shown
    pages = [page for entry in menu["Exercises"] for page in entry.values()]
    assert pages == ["exercises.md", *(f"exercises/{e}.md" for e in EXERCISES)]
