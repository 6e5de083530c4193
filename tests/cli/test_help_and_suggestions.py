"""What `--help` shows of each option's default, and the suggestion an unknown choice gets."""

from __future__ import annotations


def test_each_default_is_shown_once(cli):
    code, out, _ = cli("lab", "variance", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert text.count("(default: 200,000)") == 1 and "200000" not in text  # the help's own words
    assert "(default: 0)" in text and "(default: direct)" in text
    code, out, _ = cli("attention", "--help")
    text = " ".join(out.split())
    assert "(default: 15)" in text and "(default: none)" in text and "(default: text)" in text
    assert "--example use the two-token example of the module's section 6.2 for Q, K and V --mask" in text


def test_an_unknown_choice_gets_the_near_ones(cli):
    code, out, err = cli("derive", "--format", "texx")
    assert (code, out) == (2, "")
    assert (
        err
        == "symattn derive: error: argument --format: invalid choice: 'texx'; did you mean text or latex?\n"
    )
    code, _, err = cli("attention", "--example", "--format", "yaml")
    assert code == 2
    assert err == (
        "symattn attention: error: argument --format: invalid choice: 'yaml'; "
        "choose from text, markdown, latex, json\n"
    )


def test_a_bad_matrix_is_named_by_its_letter(cli):
    for name in ("q", "k", "v"):
        matrices = {"q": "[[1]]", "k": "[[1]]", "v": "[[1]]", name: "[[1,2],[3]]"}
        code, out, err = cli("attention", *(w for n in "qkv" for w in (f"--{n}", matrices[n])))
        assert (code, out) == (2, "")
        assert err == f"symattn: error: {name.upper()}: ragged rows (row 1 has 2 entries, row 2 has 1)\n"


def test_at_most_three_near_choices_are_suggested():
    """No choice list of symattn's own has four names near one word (the nearest word found has
    three: 'adei', near grade, audit and derive), so the cap on suggestions is shown with the
    message argparse would give for a longer list (a plugin's exercises, say)."""
    from symattn.cli.app import _did_you_mean

    message = "argument ID: invalid choice: 'ex7' (choose from 'ex1', 'ex2', 'ex3', 'ex4', 'ex5')"
    head, near = _did_you_mean(message).split("; did you mean ")
    assert head == "argument ID: invalid choice: 'ex7'" and near.endswith("?")
    named = near[:-1].split(" or ")
    assert len(named) == len(set(named)) == 3 and set(named) <= {"ex1", "ex2", "ex3", "ex4", "ex5"}
