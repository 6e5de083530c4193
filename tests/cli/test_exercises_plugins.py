"""`symattn exercises ACTION`: --plugin given before the action and after it add up (one parser
before the actions were sub-commands read them all)."""

from __future__ import annotations

from pathlib import Path

import pytest

PLUGIN = Path(__file__).parents[1] / "example_plugin" / "layer_norm_exercise.py"


@pytest.fixture
def plugins(tmp_path):
    """Two exercise plugins: ln.1, and a copy of it registered as ln.2."""
    second = tmp_path / "second_exercise.py"
    second.write_text(
        PLUGIN.read_text(encoding="utf-8").replace('ID = "ln.1"', 'ID = "ln.2"'), encoding="utf-8"
    )
    return str(PLUGIN), str(second)


def listed(out: str) -> list[str]:
    return [line.split()[0] for line in out.splitlines() if line.startswith("ln.")]


@pytest.mark.parametrize("action", ["list", "show"])
def test_plugins_before_and_after_the_action_add_up(cli, plugins, action):
    first, second = plugins
    shown = ["ln.2"] if action == "show" else []
    code, out, err = cli("exercises", "--plugin", first, action, *shown, "--plugin", second)
    assert (code, err) == (0, "")
    if action == "list":
        assert listed(out) == ["ln.1", "ln.2"]
    else:
        assert out.startswith("ln.2 ")
    code, out, _ = cli("exercises", "--plugin", second, "show", "ln.1", "--plugin", first)
    assert code == 0 and out.startswith("ln.1 ")


def test_plugins_only_before_or_only_after(cli, plugins):
    first, second = plugins
    code, out, _ = cli("exercises", "--plugin", first, "--plugin", second, "list")
    assert code == 0 and listed(out) == ["ln.1", "ln.2"]
    code, out, _ = cli("exercises", "list", "--plugin", second)
    assert code == 0 and listed(out) == ["ln.2"]
