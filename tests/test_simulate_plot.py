"""`brass simulate --plot FILE`: the VP per seat, the action mix and the game length drawn into a
PNG, SVG or PDF file with matplotlib (the optional extra `plot`).

The SVG keeps its text as text (`svg.fonttype` none), so the test reads the panels' titles,
the seats, the action kinds and the rulesets' names from it; the PNG is checked by its header.
"""

from __future__ import annotations

import struct
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # worker processes, Ray, matplotlib: seconds a test

SMALL = ["--players", "3", "--games", "3", "--seed", "2", "--bot", "greedy"]
SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(path: Path) -> list[str]:
    """The text of every <text> element of the SVG (a valid XML document, or this fails)."""
    root = ElementTree.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return ["".join(element.itertext()).strip() for element in root.iter(f"{SVG}text")]


def test_an_svg_of_one_run_has_each_panel_seat_and_action(run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'brass-rules[plot]')")
    path = tmp_path / "run.svg"
    status, out, err = run("simulate", *SMALL, "--plot", str(path))
    assert status == 0 and err == f"plots written to {path}\n" and "seat" in out
    texts = svg_texts(path)
    assert "birmingham: 3 game(s), 3 players, seeds 2..4, bots greedy,greedy,greedy" in texts
    for label in ("VP per seat (box: quartiles, line: median, triangle: mean)", "action mix", "game length",
                  "seat 1", "seat 2", "seat 3", "decisions per game", "build", "network", "develop", "sell",
                  "loan", "scout", "pass"):
        assert label in texts, label
    assert "seat 4" not in texts and "birmingham" not in texts  # one run: no legend


def test_a_comparison_plots_both_rulesets_and_the_same_games_give_the_same_file(run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'brass-rules[plot]')")
    first, second = tmp_path / "first.svg", tmp_path / "second.svg"
    for path in (first, second):
        assert run("simulate", *SMALL, "what-if", "--against", "birmingham", "--json", "--plot", str(path))[0] == 0
    texts = svg_texts(first)
    assert "what-if against birmingham: 3 game(s), 3 players, seeds 2..4, bots greedy,greedy,greedy, " \
           "seats rotated" in texts
    assert texts.count("what-if") == 3 and texts.count("birmingham") == 3  # a legend in each panel
    assert first.read_bytes() == second.read_bytes()


def test_a_png(run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'brass-rules[plot]')")
    path = tmp_path / "run.png"
    assert run("simulate", "--games", "2", "--plot", str(path))[0] == 0
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (1100, 900)  # 11 by 9 inches at 100 dpi


def test_without_matplotlib_the_error_names_the_extra_before_any_game(run, monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now fails
    status, out, err = run("simulate", "--games", "500", "--plot", str(tmp_path / "run.svg"))
    assert (status, out) == (1, "")
    assert err == "error: --plot needs matplotlib, which is not installed here: pip install 'brass-rules[plot]'\n"


@pytest.mark.parametrize("name, message", [
    ("run.txt", "--plot {path}: the file name must end in .png, .svg, .pdf (the picture's format)"),
    ("folder.svg", "--plot {path} is a folder; give a file such as plot.svg"),
])
def test_a_wrong_plot_file_is_refused_before_any_game(run, tmp_path: Path, name: str, message: str) -> None:
    path = tmp_path / name
    if name.startswith("folder"):
        path.mkdir()
    status, out, err = run("simulate", "--games", "500", "--plot", str(path))
    assert (status, out) == (1, "") and err == f"error: {message.format(path=path)}\n"
